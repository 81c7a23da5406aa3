// The progress line while the AI thinks: depth, nodes, best move so far, expected line;
// or the place in the queue while it waits for a free worker.
import { count } from "./names.js";

export function renderProgress(element, { status, progress, queuePosition, who }) {
  if (status === "queued" || (queuePosition && status !== "thinking")) {
    element.hidden = false;
    show(element, `Waiting for a free AI: number ${queuePosition ?? "?"} in the queue.`);
    return;
  }
  if (status !== "thinking") {
    element.hidden = true;
    show(element, "");
    return;
  }
  element.hidden = false;
  if (!progress) {
    show(element, `${who}…`);
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
  show(element, `${who}: ${parts.join(" · ")}`);
}

/** The line is one line, cut with an ellipsis when too long: its title holds it all. */
function show(element, text) {
  element.textContent = text;
  element.title = text;
}
