// Stepping through a game and the engine's review of it: the position after any move
// (rebuilt from the move list: where each move's piece lies, no rule), the step bar,
// the evaluation graph (SVG; a click goes to that move) and the marked moves.
import { el, SVG_NS } from "./svg.js";

const $ = (selector) => document.querySelector(selector);
// The graph's drawing box (SVG user units) and its margin.
const GRAPH_WIDTH = 300;
const GRAPH_HEIGHT = 90;
const GRAPH_PAD = 4;

/**
 * The game as it stood after ``ply`` moves, read-only: the cells refilled from the move
 * list (a Connect Four disc falls onto the ones below it), no legal move, no analysis.
 */
export function positionAt(state, ply) {
  const { width, height } = state.board;
  const cells = new Array(width * height).fill(null);
  const filled = new Array(width).fill(0);
  let last = null;
  const moves = state.moves.slice(0, ply);
  moves.forEach((step, index) => {
    let cell = step.move;
    if (state.game === "connect4") {
      cell = (height - 1 - filled[step.move]) * width + step.move;
      filled[step.move] += 1;
    }
    cells[cell] = index % 2;
    last = cell;
  });
  return {
    ...state,
    board: { ...state.board, cells, last_cell: last },
    moves,
    to_move: ply % 2,
    last_move: ply ? moves[ply - 1].move : null,
    outcome: null,
    legal: [],
    forbidden: [],
    analysis: null,
    status: "review",
  };
}

/** The review's marks by move index. */
export function marksByPly(state) {
  const review = state.review && state.review.result;
  const marks = new Map();
  if (review) for (const mark of review.marks) marks.set(mark.ply, mark);
  return marks;
}

/** Fill the review card: the button, the progress, the graph and the marked moves. */
export function renderReview(card, state, { viewPly, readOnly, onGo }) {
  const review = state.review;
  const button = $("#review-start");
  button.hidden = readOnly || Boolean(review);
  const between = state.mode === "friend" && !state.outcome;
  button.disabled = state.moves.length === 0 || between;
  button.title = between ? "A game between people is reviewed once it is over" : "Score every position with the engine";
  const progress = $("#review-progress");
  progress.hidden = !review || review.status !== "running";
  if (review && review.status === "running") {
    progress.max = review.total;
    progress.value = review.done;
    progress.textContent = `${review.done} of ${review.total}`;
    $("#review-note").textContent = `Reviewing: ${review.done} of ${review.total} positions scored…`;
  } else if (!review) {
    $("#review-note").textContent = readOnly ? "No review yet." : "The engine scores every position and marks the moves that changed the result.";
  }
  const result = review && review.status === "done" ? review.result : null;
  $("#review-graph").replaceChildren();
  $("#review-marks").replaceChildren();
  if (!result) return;
  const how = result.method === "exact" ? "Exact" : "Threat solvers and a fixed depth";
  const count = result.marks.length;
  $("#review-note").textContent = count
    ? `${how}: ${count} ${count === 1 ? "move" : "moves"} marked.`
    : `${how}: no move changed the result.`;
  $("#review-graph").appendChild(graph(result, viewPly ?? state.moves.length, onGo));
  for (const mark of result.marks) {
    const item = document.createElement("li");
    const link = document.createElement("button");
    link.type = "button";
    link.className = `mark-link ${mark.kind}`;
    link.dataset.ply = String(mark.ply + 1);
    const number = Math.floor(mark.ply / 2) + 1;
    link.textContent = `${number}${mark.ply % 2 ? "…" : "."} ${state.moves[mark.ply].text}: ${mark.by} ${mark.text}`;
    link.addEventListener("click", () => onGo(mark.ply + 1));
    item.appendChild(link);
    $("#review-marks").appendChild(item);
  }
}

/** The evaluation graph: the score after each move from the first player's view. */
function graph(result, current, onGo) {
  const positions = result.positions;
  const steps = Math.max(1, positions.length - 1);
  const x = (ply) => GRAPH_PAD + (ply / steps) * (GRAPH_WIDTH - 2 * GRAPH_PAD);
  const y = (value) => GRAPH_HEIGHT / 2 - value * (GRAPH_HEIGHT / 2 - GRAPH_PAD);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${GRAPH_WIDTH} ${GRAPH_HEIGHT}`);
  svg.setAttribute("class", "review-graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "The engine's evaluation after each move (up: the first player is better)");
  el("rect", { x: 0, y: 0, width: GRAPH_WIDTH, height: GRAPH_HEIGHT, class: "graph-back" }, svg);
  el("line", { x1: 0, x2: GRAPH_WIDTH, y1: y(0), y2: y(0), class: "graph-zero" }, svg);
  const points = positions.map((entry) => `${x(entry.ply).toFixed(1)},${y(entry.graph).toFixed(1)}`);
  el("polygon", { points: `${x(0)},${y(0)} ${points.join(" ")} ${x(steps)},${y(0)}`, class: "graph-area" }, svg);
  el("polyline", { points: points.join(" "), class: "graph-line" }, svg);
  el("line", { x1: x(current), x2: x(current), y1: 0, y2: GRAPH_HEIGHT, class: "graph-now" }, svg);
  for (const mark of result.marks) {
    const after = positions[mark.ply + 1];
    el("circle", { cx: x(after.ply), cy: y(after.graph), r: 3.5, class: `graph-mark ${mark.kind}` }, svg);
  }
  // One clickable strip a position: a click goes there.
  for (const entry of positions) {
    const left = x(entry.ply) - (GRAPH_WIDTH - 2 * GRAPH_PAD) / steps / 2;
    const strip = el("rect", { x: left, y: 0, width: (GRAPH_WIDTH - 2 * GRAPH_PAD) / steps, height: GRAPH_HEIGHT, class: "graph-hit", "data-ply": entry.ply }, svg);
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = entry.ply ? `After move ${entry.ply}: ${entry.score_text}` : `Start: ${entry.score_text}`;
    strip.appendChild(title);
    strip.addEventListener("click", () => onGo(entry.ply));
  }
  return svg;
}
