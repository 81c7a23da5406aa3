// The progress line while the AI thinks: depth, nodes, best move so far, expected line;
// or the place in the queue while it waits for a free worker.
import { count } from "./names.js";

export function renderProgress(element, { status, progress, queuePosition, who }) {
  if (status === "queued" || (queuePosition && status !== "thinking")) {
    element.hidden = false;
    element.textContent = `Waiting for a free AI: number ${queuePosition ?? "?"} in the queue.`;
    return;
  }
  if (status !== "thinking") {
    element.hidden = true;
    element.textContent = "";
    return;
  }
  element.hidden = false;
  if (!progress) {
    element.textContent = `${who}…`;
    return;
  }
  // A solver at work reports what it solves ("solving column 4") instead of a depth.
  const parts = [
    progress.text === null && progress.note ? progress.note : `depth ${progress.depth}`,
    `${count(progress.nodes)} nodes`,
    `${progress.elapsed.toFixed(1)} s`,
  ];
  if (progress.text) parts.push(`best ${progress.text} (${progress.score_text})`);
  if (progress.pv && progress.pv.length) {
    parts.push(`line ${progress.pv.map((step) => step.text).join(" ")}`);
  }
  element.textContent = `${who}: ${parts.join(" · ")}`;
}
