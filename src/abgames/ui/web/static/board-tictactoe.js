// Tic-tac-toe: the 3x3 grid, clean X and O marks, coordinates as Gomoku's (letters for
// the columns under the grid, numbers for the rows from the bottom: a1 is the bottom-left
// cell). State in, SVG out.
import { CELL, THEME, circle, el, heatEntries, label, line, liveAnalysis, pale, svgRoot, title } from "./svg.js";

const SIZE = 3;
const MARGIN = THEME.tttLabelMargin * CELL;
const LETTERS = "abc";

function centre(move) {
  return [MARGIN + ((move % SIZE) + 0.5) * CELL, MARGIN + (Math.floor(move / SIZE) + 0.5) * CELL];
}

/** The keyboard cursor's shape: a cell (x, y). */
export const cursorKind = "cell";

/** The move the cursor points at. */
export function moveAt(state, cursor) {
  return cursor.y * SIZE + cursor.x;
}

/** The cursor's place in words, as the board's columns and rows are read: "b2". */
export function cursorName(state, cursor) {
  return `${LETTERS[cursor.x]}${SIZE - cursor.y}`;
}

/** The letters under the columns and the numbers left of the rows (1 the bottom row). */
function coordinates(svg) {
  const coords = el("g", { class: "coords", "font-family": "DejaVu Sans, Verdana, sans-serif" }, svg);
  title(coords, "Letters name the columns from the left, numbers the rows from the bottom: a1 is the bottom-left cell.");
  const size = THEME.edgeFont * CELL;
  const ink = THEME.coordOnPage;
  for (let i = 0; i < SIZE; i++) {
    const at = MARGIN + (i + 0.5) * CELL;
    label(coords, at, MARGIN + SIZE * CELL + MARGIN / 2, LETTERS[i], size, ink, { "data-coord": LETTERS[i] });
    label(coords, MARGIN / 2, at, String(SIZE - i), size, ink, { "data-coord": String(SIZE - i) });
  }
}

/** The cursor on ``move``. */
export function cursorOf(state, move) {
  return { x: move % SIZE, y: Math.floor(move / SIZE) };
}

export function render(state, overlay) {
  const side = SIZE * CELL + 2 * MARGIN;
  const svg = svgRoot(side, side, "Tic-tac-toe board: a1 is the bottom-left cell, c3 the top-right");
  const colours = THEME.players.tictactoe;
  el("rect", { x: MARGIN, y: MARGIN, width: SIZE * CELL, height: SIZE * CELL, fill: THEME.tttBackground, rx: 6 }, svg);
  coordinates(svg);
  const analysis = liveAnalysis(state, overlay);
  for (const entry of heatEntries(analysis, (move) => state.board.cells[move] === null)) {
    const [x, y] = centre(entry.move);
    const heat = el("g", { class: "heat", "data-heat": entry.move }, svg);
    const inset = 0.04 * CELL;
    const tile = { x: x - CELL / 2 + inset, y: y - CELL / 2 + inset, width: CELL - 2 * inset, height: CELL - 2 * inset };
    title(el("rect", { ...tile, fill: pale(entry.colour), rx: 8 }, heat), entry.title);
    label(heat, x, y + 0.36 * CELL, entry.label, THEME.scoreFont * CELL, "#222222", { "font-weight": "bold" });
  }
  const gridWidth = THEME.tttGridWidth * CELL;
  for (const i of [1, 2]) {
    const at = MARGIN + i * CELL;
    line(svg, at, MARGIN, at, MARGIN + SIZE * CELL, { stroke: THEME.tttGrid, "stroke-width": gridWidth, "stroke-linecap": "round" });
    line(svg, MARGIN, at, MARGIN + SIZE * CELL, at, { stroke: THEME.tttGrid, "stroke-width": gridWidth, "stroke-linecap": "round" });
  }
  const half = CELL / 2 - THEME.tttMarkInset * CELL;
  const markWidth = THEME.tttMarkWidth * CELL;
  state.board.cells.forEach((player, move) => {
    if (player === null) return;
    const [x, y] = centre(move);
    const group = el("g", { class: `piece player${player}`, "data-cell": move }, svg);
    if (player === 0) {
      const attrs = { stroke: colours[0], "stroke-width": markWidth, "stroke-linecap": "round" };
      line(group, x - half, y - half, x + half, y + half, attrs);
      line(group, x - half, y + half, x + half, y - half, attrs);
    } else {
      circle(group, x, y, 2 * half, { fill: "none", stroke: colours[1], "stroke-width": markWidth });
    }
  });
  if (state.last_move !== null && state.last_move !== undefined) {
    const [x, y] = centre(state.last_move);
    circle(svg, x + 0.38 * CELL, y + 0.38 * CELL, 0.08 * CELL, { fill: THEME.lastMove, class: "last" });
  }
  if (overlay.hint !== null && overlay.hint !== undefined) {
    const [x, y] = centre(overlay.hint);
    const inset = CELL / 2 - 0.06 * CELL;
    el("rect", { x: x - inset, y: y - inset, width: 2 * inset, height: 2 * inset, fill: "none", stroke: THEME.hint, "stroke-width": THEME.hintWidth * CELL, class: "hint", rx: 4 }, svg);
  }
  if (analysis) {
    analysis.pv.forEach((step, index) => {
      const [x, y] = centre(step.move);
      label(svg, x - 0.26 * CELL, y - 0.24 * CELL, String(index + 1), 0.28 * CELL, THEME.pv, { "font-weight": "bold", class: "pv" });
    });
  }
  const outcome = state.outcome;
  if (outcome && outcome.line.length) {
    const [x0, y0] = centre(outcome.line[0]);
    const [x1, y1] = centre(outcome.line[outcome.line.length - 1]);
    line(svg, x0, y0, x1, y1, { stroke: THEME.win, "stroke-width": THEME.winWidth * CELL, "stroke-linecap": "round", class: "win", opacity: 0.85 });
  }
  if (overlay.cursor) {
    const [x, y] = centre(moveAt(state, overlay.cursor));
    const inset = CELL / 2 - 0.03 * CELL;
    el("rect", { x: x - inset, y: y - inset, width: 2 * inset, height: 2 * inset, fill: "none", stroke: THEME.cursor, "stroke-width": 0.05 * CELL, "stroke-dasharray": "12 8", class: "cursor", rx: 6 }, svg);
  }
  // Click targets last, so they lie over everything.
  const targets = el("g", { class: "targets" }, svg);
  for (let move = 0; move < SIZE * SIZE; move++) {
    const [x, y] = centre(move);
    el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, fill: "transparent", "data-move": move, class: overlay.legal.has(move) ? "target legal" : "target" }, targets);
  }
  return svg;
}
