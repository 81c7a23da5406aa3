// The /learn page's controller: the position being studied, the traces of two methods
// stepped together, the board under the pointer and the experiment's chart.

import * as api from "./api.js";
import { drawBoard, drawTextbook } from "./board.js";
import { drawChart } from "./chart.js";
import { boundText, narrate, replay, windowText } from "./replay.js";
import { TreeView } from "./tree.js";

const $ = (id) => document.getElementById(id);
const GAME_NAMES = { tictactoe: "Tic-tac-toe", connect4: "Connect Four", gomoku: "Gomoku", textbook: "Textbook tree" };
const COUNTERS = [
  ["nodes", "nodes visited"],
  ["leaves", "leaves evaluated"],
  ["cutoffs", "cut-offs"],
  ["pruned", "branches cut"],
  ["tt_hits", "TT hits"],
];

const page = {
  meta: null,
  game: "tictactoe",
  options: {},
  moves: [],
  position: null,
  panes: [],
  step: 0,
  timer: null,
  hovered: null,
  searching: false,
};

function notice(text) {
  const box = $("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

// --- the position --------------------------------------------------------------
async function loadPosition() {
  page.position = await api.position({ game: page.game, options: page.options, moves: page.moves });
  drawPosition();
  const searched = page.panes.length ? page.panes[0].spec : null;
  const same = searched && searched.game === page.game && JSON.stringify(searched.moves) === JSON.stringify(page.moves);
  $("panes").classList.toggle("stale", Boolean(searched) && !same);
  $("stale").hidden = !searched || same;
}

function positionCaption() {
  const p = page.position;
  const names = p.player_names;
  const moves = p.moves.map((m) => m.text).join(" ") || "the empty board";
  if (p.outcome) return `${moves}: ${p.outcome.text}. Undo a move to search.`;
  if (!p.board) return "The textbook's tree: MAX chooses a1, a2 or a3, then MIN one of three leaves, searched 2 plies deep.";
  return `${moves}. ${names[p.to_move]} to move is MAX. Click a cell to play a move there.`;
}

function drawPosition() {
  if (!page.position) return;
  $("board-title").textContent = `${GAME_NAMES[page.game]}: the position to search`;
  if (page.position.board) drawBoard($("board"), page.position, { onPlay: (move) => playMove(move) });
  else drawTextbook($("board"), page.position, { pruned: prunedLeaves(page.panes[0]) });
  $("board-caption").textContent = positionCaption();
}

async function playMove(move) {
  page.moves = [...page.moves, move];
  try {
    await loadPosition();
  } catch (error) {
    page.moves = page.moves.slice(0, -1);
    notice(error.message);
  }
}

/** Move name -> the cut's reason, for the nodes already shown cut in ``pane``. */
function prunedLeaves(pane) {
  const pruned = new Map();
  if (!pane || !pane.lastView) return pruned;
  for (const node of pane.trace.nodes) {
    if (node.kind === "pruned" && pane.lastView.seen[node.id]) pruned.set(node.text, node.reason);
  }
  return pruned;
}

function pathOf(trace, node) {
  const path = [];
  for (let n = node; n.parent !== null; n = trace.nodes[n.parent]) {
    path.unshift({ cell: n.cell, player: trace.nodes[n.parent].player, text: n.text });
  }
  return path;
}

function showNode(pane, node) {
  if (!node) {
    page.hovered = null;
    drawPosition();
    return;
  }
  page.hovered = { pane, node };
  const trace = pane.trace;
  const path = pathOf(trace, node);
  if (page.position.board) drawBoard($("board"), page.position, { path });
  else drawTextbook($("board"), page.position, { path, pruned: prunedLeaves(pane) });
  const view = pane.lastView;
  const line = path.map((step) => step.text).join(" ") || "the root";
  const names = trace.player_names;
  let text = `${line}: ${names[node.player]} (${node.max ? "MAX" : "MIN"}) to move.`;
  if (node.kind === "pruned" && view.seen[node.id]) text += ` Cut off, never searched: ${node.reason}.`;
  else if (view && view.value[node.id] !== null) text += ` Value for MAX: ${boundText(view.value[node.id], view.bound[node.id])}.`;
  else if (view && view.seen[node.id] && trace.method !== "minimax") text += ` alpha, beta ${windowText(view.alpha[node.id], view.beta[node.id])}.`;
  $("board-title").textContent = `${pane.trace.method_label}: the node under the pointer`;
  $("board-caption").textContent = text;
}

// --- the panes -----------------------------------------------------------------
function makePane(trace) {
  const box = document.createElement("section");
  box.className = "pane";
  box.dataset.method = trace.method;
  const head = document.createElement("div");
  head.className = "pane-head";
  const title = document.createElement("h2");
  title.textContent = trace.method_label;
  const tools = document.createElement("span");
  tools.className = "pane-tools";
  const buttons = [
    ["−", "Zoom out", 1.25],
    ["+", "Zoom in", 0.8],
    ["Fit", "Show the whole tree", "fit"],
    ["1:1", "Life size, at the root", "readable"],
  ];
  head.append(title, tools);
  const counters = document.createElement("p");
  counters.className = "counters";
  const cap = document.createElement("p");
  cap.className = "cap";
  cap.hidden = !trace.truncated;
  cap.textContent = trace.truncated
    ? `Cut short: ${trace.truncated_reason}. Lower the depth or raise the node cap to see the whole tree.`
    : "";
  const holder = document.createElement("div");
  holder.className = "tree-holder";
  box.append(head, counters, cap, holder);
  $("panes").appendChild(box);
  const pane = { trace, box, counters, lastView: null };
  pane.tree = new TreeView(holder, { onHover: (node) => showNode(pane, node) });
  for (const [label, hint, factor] of buttons) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "small";
    button.textContent = label;
    button.title = hint;
    button.addEventListener("click", () => {
      if (typeof factor === "number") pane.tree.zoom(factor);
      else pane.tree[factor]();
      // Fit hands the view back to the page; zooming or life size keeps it the person's.
      pane.tree.userMoved = factor !== "fit";
    });
    tools.appendChild(button);
  }
  const follow = document.createElement("label");
  follow.className = "follow";
  const check = document.createElement("input");
  check.type = "checkbox";
  check.checked = true;
  check.addEventListener("change", () => { pane.tree.follow = check.checked; });
  follow.append(check, " follow");
  tools.appendChild(follow);
  pane.tree.setTrace(trace);
  return pane;
}

function totalSteps() {
  return Math.max(0, ...page.panes.map((pane) => pane.trace.events.length));
}

function render() {
  const total = totalSteps();
  page.step = Math.max(0, Math.min(page.step, total));
  const lines = [];
  for (const pane of page.panes) {
    const view = replay(pane.trace, page.step);
    pane.lastView = view;
    pane.tree.render(view);
    pane.counters.replaceChildren();
    for (const [key, label] of COUNTERS) {
      if (key === "tt_hits" && !["tt", "deepening"].includes(pane.trace.method)) continue;
      if ((key === "cutoffs" || key === "pruned") && pane.trace.method === "minimax") continue;
      const item = document.createElement("span");
      item.className = "counter";
      const value = document.createElement("b");
      value.textContent = view.counters[key].toLocaleString("en");
      value.dataset.counter = key;
      item.append(`${label} `, value);
      pane.counters.append(item);
    }
    pane.box.classList.toggle("finished", view.done && !pane.trace.truncated);
    const words = narrate(pane.trace, view);
    lines.push({ method: pane.trace.method_label, words });
  }
  const narration = $("narration");
  narration.replaceChildren();
  for (const line of lines) {
    const p = document.createElement("p");
    const who = document.createElement("strong");
    who.textContent = `${line.method}: `;
    p.append(who, line.words);
    narration.appendChild(p);
  }
  if (!page.panes.length) narration.textContent = "Choose a position and press Search.";
  $("step-text").textContent = total ? `event ${page.step} of ${total}` : "";
  for (const id of ["first", "back"]) $(id).disabled = page.step === 0 || !total;
  for (const id of ["forward", "last"]) $(id).disabled = page.step >= total;
  $("play").disabled = !total;
  if (page.hovered) showNode(page.hovered.pane, page.hovered.node);
  else if (page.position && !page.position.board) drawPosition();
}

function setStep(step) {
  page.step = step;
  render();
}

function stopPlaying() {
  if (page.timer !== null) clearInterval(page.timer);
  page.timer = null;
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-pressed", "false");
}

function startPlaying() {
  stopPlaying();
  if (page.step >= totalSteps()) page.step = 0;
  const rate = Number($("speed").value);
  page.timer = setInterval(() => {
    if (page.step >= totalSteps()) {
      stopPlaying();
      return;
    }
    setStep(page.step + 1);
  }, 1000 / rate);
  $("play").textContent = "⏸ Pause";
  $("play").setAttribute("aria-pressed", "true");
}

// --- searching -----------------------------------------------------------------
function request(method) {
  return {
    game: page.game,
    options: page.options,
    moves: page.moves,
    method,
    depth: Number($("depth").value),
    max_nodes: Number($("max-nodes").value),
  };
}

async function search() {
  if (page.searching) return;
  notice("");
  stopPlaying();
  const methods = [$("method").value];
  if ($("compare").value && $("compare").value !== methods[0]) methods.push($("compare").value);
  page.searching = true;
  $("run").disabled = true;
  $("run").textContent = "Searching…";
  try {
    const answers = await Promise.all(methods.map((method) => api.trace(request(method))));
    $("panes").replaceChildren();
    page.hovered = null;
    page.panes = answers.map((answer) => makePane(answer.trace));
    for (const pane of page.panes) pane.spec = { game: page.game, moves: [...page.moves] };
    $("panes").classList.remove("stale");
    $("stale").hidden = true;
    page.step = 0;
    render();
    for (const pane of page.panes) pane.tree.readable();
    runExperiment();
  } catch (error) {
    notice(error.message);
  } finally {
    page.searching = false;
    $("run").disabled = false;
    $("run").textContent = "Search";
  }
}

async function runExperiment() {
  const chart = $("chart");
  const limits = page.meta.games[page.game].experiment_depth;
  const depth = Math.min(Number($("depth").value), limits.max);
  chart.textContent = `Running minimax and the four alpha-beta variants to depth ${depth}…`;
  try {
    const figures = await api.experiment({ game: page.game, options: page.options, moves: page.moves, depth });
    drawChart(chart, figures);
  } catch (error) {
    chart.textContent = `No chart: ${error.message}`;
  }
}

// --- the controls --------------------------------------------------------------
function fillSelect(select, entries, chosen) {
  select.replaceChildren();
  for (const [value, label] of entries) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    select.appendChild(option);
  }
  select.value = chosen;
}

function chooseGame(game, options = null) {
  page.game = game;
  $("game").value = game;
  page.options = options ?? { ...page.meta.games[game].options };
  showOptions();
  const depth = page.meta.games[game].trace_depth;
  $("depth").min = depth.min;
  $("depth").max = depth.max;
  $("depth").value = depth.default;
}

const OPTION_NAMES = ["size", "rule", "width", "height"];

/** The board pickers of the chosen game, filled from page.options (or the game's defaults). */
function showOptions() {
  const choices = page.meta.games[page.game].option_choices || {};
  for (const name of OPTION_NAMES) {
    const label = document.querySelector(`[data-option="${name}"]`);
    const choice = choices[name];
    label.hidden = !choice;
    if (!choice) continue;
    const input = $(`opt-${name}`);
    const value = page.options[name] ?? choice.game_default;
    if (choice.choices) fillSelect(input, choice.choices.map((c) => [c, c]), value);
    else {
      input.min = choice.min;
      input.max = choice.max;
      input.value = value;
    }
  }
}

async function changeOption(name) {
  const choice = page.meta.games[page.game].option_choices[name];
  const input = $(`opt-${name}`);
  const value = choice.choices ? input.value : Number(input.value);
  const before = page.options;
  page.options = { ...page.options, [name]: value };
  page.moves = [];
  try {
    await loadPosition();
    notice("");
  } catch (error) {
    page.options = before;
    showOptions();
    notice(error.message);
  }
}

async function fromMyGame() {
  const current = api.currentGame();
  if (!current) {
    notice("No game is in progress in this browser: start one on the game page first.");
    return;
  }
  try {
    const state = await api.gameState(current);
    const moves = state.moves.map((m) => m.move);
    if (state.outcome && moves.length) {
      moves.pop();
      notice(`That game is over (${state.outcome.text}): showing the position before its last move.`);
    } else {
      notice("");
    }
    chooseGame(state.game, state.options);
    page.moves = moves;
    await loadPosition();
  } catch (error) {
    notice(`Your game cannot be read: ${error.message}`);
  }
}

async function main() {
  page.meta = await api.learnMeta();
  fillSelect($("game"), Object.keys(page.meta.games).map((g) => [g, GAME_NAMES[g] || g]), "tictactoe");
  const methods = page.meta.methods.map((m) => [m.key, m.label]);
  fillSelect($("method"), methods, "alphabeta");
  fillSelect($("compare"), [["", "nothing"], ...methods], "minimax");
  $("max-nodes").max = page.meta.max_nodes.max;
  $("max-nodes").value = page.meta.max_nodes.default;
  chooseGame("tictactoe");
  page.moves = [4, 0]; // b2 a3: a small tree with cut-offs to show at once
  await loadPosition();

  $("game").addEventListener("change", async () => {
    chooseGame($("game").value);
    page.moves = [];
    await loadPosition();
  });
  $("empty").addEventListener("click", async () => {
    page.moves = [];
    notice("");
    await loadPosition();
  });
  $("undo-move").addEventListener("click", async () => {
    page.moves = page.moves.slice(0, -1);
    await loadPosition();
  });
  $("from-game").addEventListener("click", fromMyGame);
  for (const name of OPTION_NAMES) $(`opt-${name}`).addEventListener("change", () => changeOption(name));
  $("setup").addEventListener("submit", (event) => {
    event.preventDefault();
    search();
  });
  $("first").addEventListener("click", () => { stopPlaying(); setStep(0); });
  $("back").addEventListener("click", () => { stopPlaying(); setStep(page.step - 1); });
  $("forward").addEventListener("click", () => { stopPlaying(); setStep(page.step + 1); });
  $("last").addEventListener("click", () => { stopPlaying(); setStep(totalSteps()); });
  $("play").addEventListener("click", () => (page.timer === null ? startPlaying() : stopPlaying()));
  const speedText = () => { $("speed-text").textContent = `${$("speed").value} events/s`; };
  $("speed").addEventListener("input", () => {
    speedText();
    if (page.timer !== null) startPlaying();
  });
  speedText();
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowRight") { stopPlaying(); setStep(page.step + 1); }
    else if (event.key === "ArrowLeft") { stopPlaying(); setStep(page.step - 1); }
    else return;
    event.preventDefault();
  });
  render();
  await search();
}

main().catch((error) => notice(`The page could not start: ${error.message}`));
