// Gomoku: a wood board with lines, star points and coordinates; stones 0.8 of a
// line spacing; the last-move mark or move numbers; Renju's forbidden points; the
// heat map, the expected line and the winning line. State in, SVG out.
import { CELL, THEME, circle, el, heatEntries, label, line, liveAnalysis, svgRoot, title } from "./svg.js";

const MARGIN = THEME.gomokuMargin * CELL;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function point(size, move) {
  return [MARGIN + (move % size) * CELL, MARGIN + Math.floor(move / size) * CELL];
}

/** The hoshi of a size x size board, as the desktop draws them (geometry.star_points). */
export function starPoints(size) {
  const points = [];
  const inset = size >= 13 ? 3 : size >= 9 ? 2 : 0;
  const far = size - 1 - inset;
  if (inset) points.push([inset, inset], [inset, far], [far, inset], [far, far]);
  if (size % 2 === 1) {
    const middle = (size - 1) / 2;
    points.push([middle, middle]);
    if (size >= 19) points.push([inset, middle], [far, middle], [middle, inset], [middle, far]);
  }
  return points;
}

export const cursorKind = "cell";

export function moveAt(state, cursor) {
  return cursor.y * state.board.width + cursor.x;
}

/** The point's name as the coordinates around the board read: "h8". */
export function cursorName(state, cursor) {
  return `${LETTERS[cursor.x].toLowerCase()}${state.board.height - cursor.y}`;
}

export function cursorOf(state, move) {
  const size = state.board.width;
  return { x: move % size, y: Math.floor(move / size) };
}

function gradients(svg) {
  const defs = el("defs", {}, svg);
  const stops = [
    ["stone-black", [["0%", "#5a5a5a"], ["45%", "#1c1c1c"], ["100%", "#000000"]]],
    ["stone-white", [["0%", "#ffffff"], ["60%", "#f2f2ec"], ["100%", "#c9c9c0"]]],
  ];
  for (const [id, colours] of stops) {
    const gradient = el("radialGradient", { id, cx: "35%", cy: "32%", r: "70%" }, defs);
    for (const [offset, colour] of colours) el("stop", { offset, "stop-color": colour }, gradient);
  }
}

export function render(state, overlay) {
  const size = state.board.width;
  const span = (size - 1) * CELL;
  const side = span + 2 * MARGIN;
  const svg = svgRoot(side, side, `Gomoku board, ${size} by ${size}: a1 is the bottom-left point`);
  gradients(svg);
  el("rect", { x: 2, y: 2, width: side - 4, height: side - 4, fill: THEME.wood, stroke: THEME.woodEdge, "stroke-width": 4, rx: 10 }, svg);
  const grid = el("g", { stroke: THEME.gridLine, "stroke-linecap": "square" }, svg);
  for (let i = 0; i < size; i++) {
    const width = i === 0 || i === size - 1 ? 4 : 2;
    line(grid, MARGIN + i * CELL, MARGIN, MARGIN + i * CELL, MARGIN + span, { "stroke-width": width });
    line(grid, MARGIN, MARGIN + i * CELL, MARGIN + span, MARGIN + i * CELL, { "stroke-width": width });
  }
  for (const [x, y] of starPoints(size)) {
    circle(svg, MARGIN + x * CELL, MARGIN + y * CELL, Math.max(12, THEME.starDiameter * CELL), { fill: THEME.gridLine });
  }
  const coords = el("g", { class: "coords", "font-family": "DejaVu Sans, Verdana, sans-serif" }, svg);
  title(coords, "Letters name the columns from the left, numbers the rows from the bottom: a1 is the bottom-left point.");
  const offset = 0.62 * MARGIN;
  const coordSize = THEME.coordFont * CELL;
  for (let i = 0; i < size; i++) {
    const at = MARGIN + i * CELL;
    label(coords, at, MARGIN - offset, LETTERS[i], coordSize, THEME.gridLine);
    label(coords, at, MARGIN + span + offset, LETTERS[i], coordSize, THEME.gridLine);
    label(coords, MARGIN - offset, at, String(size - i), coordSize, THEME.gridLine);
    label(coords, MARGIN + span + offset, at, String(size - i), coordSize, THEME.gridLine);
  }
  const cells = state.board.cells;
  const analysis = liveAnalysis(state, overlay);
  for (const entry of heatEntries(analysis, (move) => cells[move] === null)) {
    const [x, y] = point(size, entry.move);
    const spot = el("g", { class: "heat", "data-heat": entry.move }, svg);
    title(circle(spot, x, y, THEME.heatDiameter * CELL, { fill: entry.colour, opacity: 0.9 }), entry.title);
    label(spot, x, y, entry.label, THEME.scoreFont * CELL, "#ffffff", { "font-weight": "bold" });
  }
  const outcome = state.outcome;
  if (outcome && outcome.line.length) {
    const [x0, y0] = point(size, outcome.line[0]);
    const [x1, y1] = point(size, outcome.line[outcome.line.length - 1]);
    line(svg, x0, y0, x1, y1, { stroke: THEME.win, "stroke-width": THEME.winWidth * CELL, "stroke-linecap": "round", class: "win" });
  }
  const stone = THEME.stoneDiameter * CELL;
  const numbers = new Map(state.moves.map((step, index) => [step.move, index + 1]));
  const lastMove = state.last_move ?? null;
  cells.forEach((player, move) => {
    if (player === null) return;
    const [x, y] = point(size, move);
    const group = el("g", { class: `piece player${player}`, "data-cell": move }, svg);
    circle(group, x + 3, y + 5, stone, { fill: "#000000", opacity: 0.25 });
    circle(group, x, y, stone, {
      fill: player === 0 ? "url(#stone-black)" : "url(#stone-white)",
      stroke: THEME.stoneOutline[player],
      "stroke-width": player === 0 ? 1 : 2,
    });
    if (overlay.numbers && numbers.has(move)) {
      const ink = move === lastMove ? THEME.lastMove : THEME.players.gomoku[1 - player];
      label(group, x, y, String(numbers.get(move)), THEME.numberFont * CELL, ink, { "font-weight": "bold" });
    }
  });
  if (lastMove !== null && !overlay.numbers) {
    const [x, y] = point(size, lastMove);
    circle(svg, x, y, THEME.lastMoveDiameter * CELL, { fill: THEME.lastMove, class: "last" });
  }
  const forbidden = el("g", { class: "forbidden" }, svg);
  const half = THEME.forbiddenSize * CELL;
  for (const spot of overlay.forbidden) {
    const [x, y] = point(size, spot.move);
    const mark = el("g", { "data-forbidden": spot.move }, forbidden);
    const attrs = { stroke: THEME.forbidden, "stroke-width": 0.08 * CELL, "stroke-linecap": "round" };
    line(mark, x - half, y - half, x + half, y + half, attrs);
    line(mark, x - half, y + half, x + half, y - half, attrs);
  }
  if (analysis) {
    analysis.pv.forEach((step, index) => {
      const [x, y] = point(size, step.move);
      label(svg, x + 0.42 * CELL, y - 0.42 * CELL, String(index + 1), THEME.pvFont * CELL, THEME.pv, { "font-weight": "bold", class: "pv", stroke: "#f7e7c0", "stroke-width": 6, "paint-order": "stroke" });
    });
  }
  if (overlay.hint !== null && overlay.hint !== undefined) {
    const [x, y] = point(size, overlay.hint);
    circle(svg, x, y, stone, { fill: "none", stroke: THEME.hint, "stroke-width": THEME.hintWidth * CELL, class: "hint" });
  }
  if (outcome && outcome.line.length) {
    for (const move of outcome.line) {
      const [x, y] = point(size, move);
      circle(svg, x, y, stone, { fill: "none", stroke: THEME.win, "stroke-width": THEME.winWidth * CELL * 0.6, class: "win" });
    }
  }
  if (overlay.cursor) {
    const [x, y] = point(size, moveAt(state, overlay.cursor));
    const h = 0.46 * CELL;
    const arm = 0.2 * CELL;
    const path = [[-1, -1], [1, -1], [1, 1], [-1, 1]]
      .map(([sx, sy]) => `M ${x + sx * h} ${y + sy * (h - arm)} L ${x + sx * h} ${y + sy * h} L ${x + sx * (h - arm)} ${y + sy * h}`)
      .join(" ");
    el("path", { d: path, fill: "none", stroke: THEME.cursor, "stroke-width": 0.07 * CELL, "stroke-linecap": "round", class: "cursor" }, svg);
  }
  // Click targets: a square around each intersection, so the nearest point is hit.
  const targets = el("g", { class: "targets" }, svg);
  const reasons = new Map(overlay.forbidden.map((spot) => [spot.move, spot.reason]));
  for (let move = 0; move < size * size; move++) {
    const [x, y] = point(size, move);
    const legal = overlay.legal.has(move);
    const target = el("rect", {
      x: x - CELL / 2,
      y: y - CELL / 2,
      width: CELL,
      height: CELL,
      fill: "transparent",
      "data-move": move,
      class: legal ? "target legal" : "target",
    }, targets);
    if (legal) circle(targets, x, y, stone, { class: "ghost", fill: THEME.players.gomoku[state.to_move], "pointer-events": "none" });
    if (reasons.has(move)) title(target, reasons.get(move));
  }
  return svg;
}
