// A small board in SVG: the position's cells, plus the moves down a tree path drawn on
// top (numbered), the last of them ringed. Clicking a cell that a legal move may be
// chosen by calls ``onPlay(move)``. The page holds no rules: cells, legal moves and
// their cells come from the server.

const SVG_NS = "http://www.w3.org/2000/svg";
const COLOURS = {
  tictactoe: ["#d9482b", "#2b6fd9"],
  connect4: ["#d7263d", "#f2c230"],
  gomoku: ["#111111", "#f7f7f2"],
};

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * Draw ``position`` ({game, board: {width, height, cells}, legal, player_marks}) into
 * ``container``; ``path`` = [{cell, player, text}] moves played on top of it (a node's line).
 */
export function drawBoard(container, position, { path = [], onPlay = null } = {}) {
  const { width, height, cells } = position.board;
  const game = position.game;
  // Room for the coordinates: under the board, and left of it where rows are named.
  const rowsNamed = game !== "connect4";
  const band = Math.max(0.45, 14 / (246 / (width + 1)));
  const left = rowsNamed ? band : 0.1;
  const svg = el("svg", {
    viewBox: `${-left} -0.1 ${width + left + 0.1} ${height + 0.1 + band}`,
    class: `board-svg ${game}`,
  });
  coordinates(svg, game, width, height, band);
  const background = game === "connect4" ? "#1f4fbf" : game === "gomoku" ? "#dcb35c" : "#fafafa";
  el("rect", { x: -0.1, y: -0.1, width: width + 0.2, height: height + 0.2, fill: background, rx: 0.08 }, svg);
  if (game === "gomoku") {
    for (let i = 0; i < width; i += 1) {
      el("line", { x1: i + 0.5, y1: 0.5, x2: i + 0.5, y2: height - 0.5, class: "grid" }, svg);
      el("line", { x1: 0.5, y1: i + 0.5, x2: width - 0.5, y2: i + 0.5, class: "grid" }, svg);
    }
  } else if (game === "tictactoe") {
    for (let i = 1; i < width; i += 1) {
      el("line", { x1: i, y1: 0, x2: i, y2: height, class: "grid ttt" }, svg);
      el("line", { x1: 0, y1: i, x2: width, y2: i, class: "grid ttt" }, svg);
    }
  }
  const owner = cells.slice();
  const order = new Map();
  path.forEach((step, index) => {
    owner[step.cell] = step.player;
    order.set(step.cell, index + 1);
  });
  const clickable = new Map();
  if (onPlay && path.length === 0) {
    for (const legal of position.legal) for (const cell of legal.cells) clickable.set(cell, legal);
  }
  for (let index = 0; index < width * height; index += 1) {
    const x = index % width;
    const y = Math.floor(index / width);
    const player = owner[index];
    const group = el("g", { class: "cell", "data-cell": index, transform: `translate(${x + 0.5},${y + 0.5})` }, svg);
    const hit = el("rect", { x: -0.5, y: -0.5, width: 1, height: 1, class: "hit" }, group);
    if (game === "connect4") el("circle", { r: 0.4, class: "hole" }, group);
    if (player !== null && player !== undefined) {
      const colour = COLOURS[game][player];
      if (game === "tictactoe") {
        const mark = position.player_marks[player];
        if (mark.toUpperCase() === "X") {
          el("path", { d: "M-0.28,-0.28 L0.28,0.28 M0.28,-0.28 L-0.28,0.28", stroke: colour, class: "mark" }, group);
        } else {
          el("circle", { r: 0.3, stroke: colour, fill: "none", class: "mark" }, group);
        }
      } else {
        el("circle", { r: game === "connect4" ? 0.4 : 0.42, fill: colour, class: "stone" }, group);
      }
      if (order.has(index)) {
        const light = game === "gomoku" && player === 0;
        el("text", { class: `order${light ? " light" : ""}`, y: 0.13, "text-anchor": "middle" }, group)
          .textContent = String(order.get(index));
        if (order.get(index) === path.length) el("rect", { x: -0.47, y: -0.47, width: 0.94, height: 0.94, class: "last" }, group);
      }
    }
    const legal = clickable.get(index);
    if (legal) {
      group.classList.add("playable");
      hit.appendChild(el("title")).textContent = `play ${legal.text}`;
      group.addEventListener("click", () => onPlay(legal.move));
    }
  }
  container.replaceChildren(svg);
}

/**
 * The names of the columns under the board and of the rows beside it, as the moves are
 * written: letters from the left and numbers from the bottom (a1 the bottom-left cell);
 * Connect Four's columns numbered 1.. from the left.
 */
function coordinates(svg, game, width, height, band) {
  const size = band * 0.62;
  const attrs = (x, y, name) => ({ x, y, class: "coord", "text-anchor": "middle", "dominant-baseline": "central", "font-size": size, "data-coord": name });
  for (let x = 0; x < width; x += 1) {
    const name = game === "connect4" ? String(x + 1) : "abcdefghijklmnopqrstuvwxyz"[x];
    el("text", attrs(x + 0.5, height + band / 2, name), svg).textContent = name;
  }
  if (game === "connect4") return;
  for (let y = 0; y < height; y += 1) {
    const name = String(height - y);
    el("text", attrs(-band / 2, y + 0.5, name), svg).textContent = name;
  }
}

/**
 * The textbook tree in place of a board (``position.tree``): each MIN node with its
 * leaves' moves and values, the moves of ``path`` marked, the ``pruned`` leaves (move
 * names) greyed with the cut's reason.
 */
export function drawTextbook(container, position, { path = [], pruned = new Map() } = {}) {
  const onPath = new Set(path.map((step) => step.text));
  const list = document.createElement("ul");
  list.className = "textbook";
  for (const minNode of position.tree.min_nodes) {
    const item = document.createElement("li");
    item.dataset.node = minNode.name;
    if (onPath.has(minNode.move)) item.classList.add("on-path");
    item.append(`${minNode.move} → ${minNode.name} (MIN): `);
    for (const leaf of minNode.leaves) {
      const span = document.createElement("span");
      span.className = "leaf";
      span.dataset.leaf = leaf.move;
      span.textContent = `${leaf.move} = ${leaf.value}`;
      if (onPath.has(leaf.move)) span.classList.add("on-path");
      if (pruned.has(leaf.move)) {
        span.classList.add("pruned");
        span.title = `Cut off, never searched: ${pruned.get(leaf.move)}`;
      }
      item.append(span, " ");
    }
    list.appendChild(item);
  }
  container.replaceChildren(list);
}
