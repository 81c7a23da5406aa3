// Shared drawing helpers of the board views: SVG elements, the theme, the heat map.
// Views draw in "cell units": one cell (or line spacing) is CELL user units wide, and
// the SVG's viewBox scales the drawing to whatever width the page gives it.

export const SVG_NS = "http://www.w3.org/2000/svg";
export const CELL = 100;

// Colours and proportions: the desktop theme's (ui/desktop/theme.py), so both look alike.
export const THEME = {
  players: {
    tictactoe: ["#e8503a", "#3a8fe8"],
    connect4: ["#d7263d", "#f4d03f"],
    gomoku: ["#111111", "#f7f7f2"],
  },
  stoneOutline: ["#000000", "#3c3c3c"],
  tttBackground: "#fafafa",
  tttGrid: "#333333",
  tttGridWidth: 0.04,
  tttMarkWidth: 0.08,
  tttMarkInset: 0.22,
  tttMargin: 0.25,
  tttLabelMargin: 0.36, // room for the coordinates: letters under, numbers left of the grid
  rack: "#1f4fbf",
  rackHole: "#e9eef7",
  discDiameter: 0.8,
  rackHeadroom: 1.0,
  rackMargin: 0.3,
  hoverDiameter: 0.6,
  dropMs: 240,
  wood: "#dcb35c",
  woodEdge: "#b8893a",
  gridLine: "#3d2b12",
  starDiameter: 0.2,
  stoneDiameter: 0.8,
  gomokuMargin: 1.1,
  coordFont: 0.38,
  // Coordinates beside the tic-tac-toe grid and under the Connect Four rack (on the page).
  coordOnPage: "#a9b1bd",
  edgeFont: 0.22,
  numberFont: 0.36,
  lastMove: "#e23c2c",
  lastMoveDiameter: 0.26,
  forbidden: "#c0182a",
  forbiddenSize: 0.28,
  win: "#27c93f",
  winWidth: 0.1,
  hint: "#1db954",
  hintWidth: 0.08,
  pv: "#6a1b9a",
  pvFont: 0.34,
  heatCold: [70, 110, 220],
  heatHot: [230, 50, 40],
  heatDiameter: 0.7,
  scoreFont: 0.26,
  cursor: "#ff8c00",
};

/** A new SVG element with attributes, appended to ``parent`` when given. */
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** The root <svg> of a board ``width`` x ``height`` user units, scaled by CSS. */
export function svgRoot(width, height, label) {
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "board-svg",
    role: "img",
    "aria-label": label,
    preserveAspectRatio: "xMidYMid meet",
  });
  // Its width over its height: style.css sizes the board to fit the window's height too.
  svg.style.setProperty("--board-ratio", String(width / height));
  return svg;
}

export function circle(parent, x, y, diameter, attrs = {}) {
  return el("circle", { cx: x, cy: y, r: diameter / 2, ...attrs }, parent);
}

export function line(parent, x1, y1, x2, y2, attrs = {}) {
  return el("line", { x1, y1, x2, y2, ...attrs }, parent);
}

/** Centred text of ``size`` user units. */
export function label(parent, x, y, content, size, fill, attrs = {}) {
  const node = el(
    "text",
    {
      x,
      y,
      "font-size": size,
      fill,
      "text-anchor": "middle",
      "dominant-baseline": "central",
      ...attrs,
    },
    parent,
  );
  node.textContent = content;
  return node;
}

function hex(rgb) {
  return "#" + rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");
}

/** The colour ``fraction`` of the way from the coldest to the hottest heat colour. */
export function heatColour(fraction) {
  const [cold, hot] = [THEME.heatCold, THEME.heatHot];
  return hex(cold.map((c, i) => c + (hot[i] - c) * fraction));
}

/** ``colour`` (#rrggbb) mixed with white: a pale background under pieces and text. */
export function pale(colour, amount = 0.45) {
  const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return hex(rgb.map((c) => c + (255 - c) * amount));
}

/**
 * A score short enough for a cell, from the server's words: "wins in 3 moves" -> "W3",
 * "loses in 2 moves" -> "L2", "draw" -> "=", "+1431" -> "+1.4k".
 */
export function shortScore(scoreText, score) {
  const decisive = /^(wins|loses) in (\d+)/.exec(scoreText || "");
  if (decisive) return `${decisive[1] === "wins" ? "W" : "L"}${decisive[2]}`;
  if (scoreText === "draw") return "=";
  if (Math.abs(score) >= 10000) return `${score > 0 ? "+" : "-"}${Math.round(Math.abs(score) / 1000)}k`;
  if (Math.abs(score) >= 1000) return `${score > 0 ? "+" : "-"}${(Math.abs(score) / 1000).toFixed(1)}k`;
  return score > 0 ? `+${score}` : String(score);
}

/**
 * The analysis a board may draw: none once the game is over (the last search would
 * cover the final position's pieces and winning line).
 */
export function liveAnalysis(state, overlay) {
  return state.outcome ? null : overlay.analysis || null;
}

/**
 * Each root move of ``analysis`` with its heat colour and short score, best hottest;
 * only the moves ``open(move)`` still allows (never a taken cell or a full column: an
 * earlier position's search must not be drawn over the pieces played since).
 */
export function heatEntries(analysis, open = () => true) {
  const roots = analysis ? analysis.root_scores.filter((root) => open(root.move)) : [];
  if (!roots.length) return [];
  const values = roots.map((r) => r.score);
  const low = Math.min(...values);
  const high = Math.max(...values);
  return roots.map((root) => ({
    move: root.move,
    colour: heatColour(high <= low ? 1 : (root.score - low) / (high - low)),
    label: shortScore(root.score_text, root.score),
    title: `${root.text}: ${root.score_text}`,
  }));
}

/** A <title> child: the tooltip and accessible name of ``node``. */
export function title(node, content) {
  el("title", {}, node).textContent = content;
  return node;
}

/** Whether the person asked the system for less motion. */
export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
