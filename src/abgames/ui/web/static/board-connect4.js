// Connect Four: the blue rack, a hover disc over the column under the pointer (none
// over a full column), a falling disc for the last move, the heat map above the rack,
// the column numbers (1 the leftmost, as moves are written) under it. State in, SVG out.
import { CELL, THEME, circle, el, heatEntries, label, liveAnalysis, reducedMotion, svgRoot, title } from "./svg.js";

const MARGIN = THEME.rackMargin * CELL;
const HEADROOM = THEME.rackHeadroom * CELL;
const TOP = MARGIN + HEADROOM;
const RACK_CORNER = 0.12 * CELL;
// Below the rack: the column numbers.
const FOOT = 0.55 * CELL;

function holeCentre(column, rowFromTop) {
  return [MARGIN + (column + 0.5) * CELL, TOP + (rowFromTop + 0.5) * CELL];
}

/** The keyboard cursor's shape: a column (x). */
export const cursorKind = "column";

export function moveAt(state, cursor) {
  return cursor.x;
}

export function cursorName(state, cursor) {
  return `column ${cursor.x + 1}`;
}

export function cursorOf(state, move) {
  return { x: move, y: 0 };
}

/** The rack: a rectangle with a round hole per cell (even-odd fill). */
function rackPath(width, height) {
  const r = (THEME.discDiameter * CELL) / 2;
  const w = width * CELL;
  const h = height * CELL;
  const c = RACK_CORNER;
  let path =
    `M ${MARGIN + c} ${TOP} h ${w - 2 * c} a ${c} ${c} 0 0 1 ${c} ${c} v ${h - 2 * c} ` +
    `a ${c} ${c} 0 0 1 ${-c} ${c} h ${-(w - 2 * c)} a ${c} ${c} 0 0 1 ${-c} ${-c} ` +
    `v ${-(h - 2 * c)} a ${c} ${c} 0 0 1 ${c} ${-c} Z`;
  for (let column = 0; column < width; column++) {
    for (let row = 0; row < height; row++) {
      const [x, y] = holeCentre(column, row);
      path += ` M ${x - r} ${y} a ${r} ${r} 0 1 0 ${2 * r} 0 a ${r} ${r} 0 1 0 ${-2 * r} 0 Z`;
    }
  }
  return path;
}

/** Where the discs of the expected line land: [x, y] per step, from the searched position. */
function pvPlaces(state, analysis) {
  const { width, height } = state.board;
  const ply = analysis.ply ?? Math.max(0, state.moves.length - (analysis.hint ? 0 : 1));
  const filled = new Array(width).fill(0);
  for (const step of state.moves.slice(0, ply)) filled[step.move] += 1;
  const places = [];
  for (const step of analysis.pv) {
    if (filled[step.move] >= height) break;
    places.push(holeCentre(step.move, height - 1 - filled[step.move]));
    filled[step.move] += 1;
  }
  return places;
}

export function render(state, overlay) {
  const { width, height, cells } = state.board;
  const colours = THEME.players.connect4;
  const bottom = TOP + height * CELL + FOOT;
  const svg = svgRoot(width * CELL + 2 * MARGIN, bottom, `Connect Four board: columns 1 to ${width} from the left`);
  const disc = THEME.discDiameter * CELL;
  const lastCell = state.board.last_cell ?? null;
  const animate = overlay.animate && lastCell !== null && !reducedMotion();
  // Behind the rack: the empty holes' colour, then the discs (the falling one too).
  el("rect", { x: MARGIN, y: TOP, width: width * CELL, height: height * CELL, fill: THEME.rackHole, rx: RACK_CORNER }, svg);
  cells.forEach((player, index) => {
    if (player === null) return;
    const column = index % width;
    const row = Math.floor(index / width);
    const [x, y] = holeCentre(column, row);
    const piece = circle(svg, x, y, disc, { fill: colours[player], class: `piece player${player}`, "data-cell": index });
    if (animate && index === lastCell) {
      piece.classList.add("drop");
      el("animate", {
        attributeName: "cy",
        from: MARGIN + HEADROOM / 2,
        to: y,
        dur: `${THEME.dropMs * Math.sqrt((row + 1) / height)}ms`,
        calcMode: "spline",
        keyTimes: "0;1",
        keySplines: "0.55 0 1 0.45",
        fill: "freeze",
      }, piece);
    }
  });
  el("path", { d: rackPath(width, height), fill: THEME.rack, "fill-rule": "evenodd", class: "rack" }, svg);
  const coords = el("g", { class: "coords", "font-family": "DejaVu Sans, Verdana, sans-serif" }, svg);
  title(coords, "Columns are numbered from the left, as moves are written.");
  for (let column = 0; column < width; column++) {
    const name = String(column + 1);
    label(coords, MARGIN + (column + 0.5) * CELL, TOP + height * CELL + FOOT / 2, name, THEME.edgeFont * 1.3 * CELL, THEME.coordOnPage, { "data-coord": name });
  }
  const analysis = liveAnalysis(state, overlay);
  if (lastCell !== null && !analysis) {
    const [x, y] = holeCentre(lastCell % width, Math.floor(lastCell / width));
    const mark = circle(svg, x, y, 0.16 * CELL, { fill: "#ffffff", class: "last" });
    if (animate) el("animate", { attributeName: "opacity", values: "0;0;1", keyTimes: "0;0.99;1", dur: `${THEME.dropMs}ms`, fill: "freeze" }, mark);
  }
  const full = (column) => cells.filter((p, i) => p !== null && i % width === column).length >= height;
  const heat = heatEntries(analysis, (column) => !full(column));
  for (const entry of heat) {
    const x = MARGIN + (entry.move + 0.5) * CELL;
    const y = MARGIN + HEADROOM / 2;
    const half = 0.45 * CELL;
    const box = el("g", { class: "heat", "data-heat": entry.move }, svg);
    title(el("rect", { x: x - half, y: y - half, width: 2 * half, height: 2 * half, fill: entry.colour, rx: 6 }, box), entry.title);
    label(box, x, y, entry.label, THEME.scoreFont * 1.4 * CELL, "#ffffff", { "font-weight": "bold" });
  }
  if (analysis) {
    pvPlaces(state, analysis).forEach(([x, y], index) => {
      label(svg, x, y, String(index + 1), THEME.pvFont * CELL * 1.3, THEME.pv, { "font-weight": "bold", class: "pv" });
    });
  }
  if (overlay.hint !== null && overlay.hint !== undefined) {
    const filled = cells.filter((p, i) => p !== null && i % width === overlay.hint).length;
    if (filled < height) {
      const [x, y] = holeCentre(overlay.hint, height - 1 - filled);
      circle(svg, x, y, disc, { fill: "none", stroke: THEME.hint, "stroke-width": THEME.hintWidth * CELL, class: "hint" });
    }
  }
  const outcome = state.outcome;
  if (outcome && outcome.line.length) {
    for (const index of outcome.line) {
      const [x, y] = holeCentre(index % width, Math.floor(index / width));
      const ring = circle(svg, x, y, disc, { fill: "none", stroke: THEME.win, "stroke-width": THEME.winWidth * CELL, class: "win" });
      if (animate) el("animate", { attributeName: "opacity", values: "0;0;1", keyTimes: "0;0.99;1", dur: `${THEME.dropMs}ms`, fill: "freeze" }, ring);
    }
  }
  // One group per column: the click target, a highlight and (if the column has room
  // and a human may move) the hover disc, both shown by CSS on hover. The hover disc
  // stands above the rack, or, where the heat map's scores are, in the hole the disc
  // would fall to (so the pointer never hides a score, nor the scores the disc).
  const targets = el("g", { class: "targets" }, svg);
  const landing = (column) => holeCentre(column, height - 1 - cells.filter((p, i) => p !== null && i % width === column).length);
  const hoverAt = (column) => (heat.length ? landing(column) : [MARGIN + (column + 0.5) * CELL, MARGIN + HEADROOM / 2]);
  for (let column = 0; column < width; column++) {
    const legal = overlay.legal.has(column);
    const x = MARGIN + column * CELL;
    const group = el("g", { class: legal ? "column legal" : "column", "data-move": column }, targets);
    if (legal) {
      el("rect", { x, y: TOP, width: CELL, height: height * CELL, class: "column-glow", fill: "#ffffff" }, group);
      const [hx, hy] = hoverAt(column);
      circle(group, hx, hy, THEME.hoverDiameter * CELL, { fill: colours[state.to_move], class: "hover-disc" });
    }
    el("rect", { x, y: 0, width: CELL, height: bottom, fill: "transparent", "data-move": column }, group);
  }
  if (overlay.cursor) {
    const x = MARGIN + overlay.cursor.x * CELL;
    el("rect", { x: x + 3, y: TOP + 3, width: CELL - 6, height: height * CELL - 6, fill: "none", stroke: THEME.cursor, "stroke-width": 0.05 * CELL, "stroke-dasharray": "12 8", class: "cursor", rx: 8 }, svg);
    if (overlay.legal.has(overlay.cursor.x)) {
      const [hx, hy] = hoverAt(overlay.cursor.x);
      circle(svg, hx, hy, THEME.hoverDiameter * CELL, { fill: colours[state.to_move], class: "cursor-disc" });
    }
  }
  return svg;
}
