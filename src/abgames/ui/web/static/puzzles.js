// The /puzzles page: one puzzle at a time, every move judged by the server's engines.
// The page holds no rules: it sends each click to /api/puzzles/move and draws the
// answer (the board views are the game page's: render(state, overlay)). The player is
// a random key kept in localStorage and sent as X-Puzzle-Key; the server keeps its hash.

import { boardKey } from "./board-keys.js";
import * as connect4 from "./board-connect4.js";
import * as gomoku from "./board-gomoku.js";

const VIEWS = { gomoku, connect4 };
const KEY_STORAGE = "abgames.puzzleKey";
const FILTER_STORAGE = "abgames.puzzleGame";
const GOALS = {
  vcf: "a victory by continuous fours (VCF)",
  vct: "a victory by continuous threats (VCT)",
  win: "the one winning move, and the win after it",
};

const $ = (selector) => document.querySelector(selector);

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function randomKey() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function playerKey() {
  let key = null;
  try {
    key = localStorage.getItem(KEY_STORAGE);
    if (!key) {
      key = randomKey();
      localStorage.setItem(KEY_STORAGE, key);
    }
  } catch (error) {
    key = key || randomKey(); // storage refused: a key for this visit only
  }
  return key;
}

async function call(method, path, body) {
  const headers = { "X-Puzzle-Key": playerKey() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(`/api/puzzles/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (error) {
    throw new ApiError(0, "the server cannot be reached: is `abgames web` running?");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || `${response.status} ${response.statusText}`);
  return data;
}

function sideName(game, side) {
  if (game === "gomoku") return side === 0 ? "Black" : "White";
  return side === 0 ? "Red" : "Yellow";
}

class PuzzlePage {
  constructor() {
    this.view = null; // the last answer: {player, puzzle, state, status, solution, ...}
    this.hint = null;
    this.busy = false;
    this.cursor = null; // the keyboard's cursor {x, y}, shown once a key moved it
  }

  async start() {
    const board = $("#board");
    board.addEventListener("click", (event) => this.clicked(event));
    board.addEventListener("keydown", (event) => this.key(event));
    board.addEventListener("pointerdown", () => {
      this.cursor = null;
      for (const mark of board.querySelectorAll(".cursor, .cursor-disc")) mark.remove();
    });
    $("#next").addEventListener("click", () => this.next());
    $("#retry").addEventListener("click", () => this.view && this.view.puzzle && this.next(this.view.puzzle.id));
    $("#hint").addEventListener("click", () => this.askHint());
    const filter = $("#game-filter");
    filter.value = localStorage.getItem(FILTER_STORAGE) || "";
    filter.addEventListener("change", () => {
      localStorage.setItem(FILTER_STORAGE, filter.value);
      this.next();
    });
    window.addEventListener("hashchange", () => this.fromAddress());
    await this.fromAddress();
  }

  /** ``#p=<id>`` starts that puzzle; otherwise the one in progress, or a new one. */
  async fromAddress() {
    const match = /^#p=([A-Za-z0-9_-]+)$/.exec(window.location.hash);
    if (match) {
      await this.next(match[1]);
      return;
    }
    await this.act(async () => {
      const answer = await call("GET", "player");
      if (answer.puzzle && answer.status === "playing") return answer;
      return call("POST", "next", this.choice());
    });
  }

  choice(id) {
    if (id) return { id };
    const game = $("#game-filter").value;
    return game ? { game } : {};
  }

  async next(id) {
    this.hint = null;
    await this.act(() => call("POST", "next", this.choice(id)));
  }

  async askHint() {
    if (!this.view || !this.view.puzzle) return;
    await this.act(async () => {
      const answer = await call("POST", "hint", { puzzle: this.view.puzzle.id });
      this.hint = answer.hint.move;
      return answer;
    }, (answer) => `Hint: ${answer.hint.text}. The puzzle now counts as not solved; you can still finish it.`);
  }

  clicked(event) {
    const target = event.target.closest("[data-move]");
    if (!target || !this.view || this.view.status !== "playing" || this.busy) return;
    const move = Number.parseInt(target.dataset.move, 10);
    if (!this.view.state.legal.includes(move)) return;
    this.play(move);
  }

  /** Arrows move a cursor, Enter or Space plays there; digits drop a Connect Four disc. */
  key(event) {
    const state = this.view && this.view.state;
    if (!state) return;
    const view = VIEWS[state.game];
    const centre = { x: Math.floor(state.board.width / 2), y: Math.floor(state.board.height / 2) };
    const answer = boardKey(event, state, view, this.cursor, centre);
    if (answer === null) return;
    event.preventDefault();
    this.cursor = answer.cursor;
    if (answer.move === undefined) {
      this.drawBoard();
      $("#cursor-info").textContent = `Cursor on ${view.cursorName(state, this.cursor)}`;
    } else if (this.view.status === "playing" && !this.busy && state.legal.includes(answer.move)) {
      this.play(answer.move);
    }
  }

  async play(move) {
    this.hint = null;
    await this.act(() => call("POST", "move", { puzzle: this.view.puzzle.id, move }), (answer) => this.verdictText(answer));
  }

  verdictText(answer) {
    const defender = sideName(answer.puzzle.game, 1 - answer.puzzle.attacker);
    const change = answer.player.change ? ` (${answer.player.change > 0 ? "+" : ""}${answer.player.change})` : "";
    if (answer.verdict === "solved") return `Solved!${change}`;
    if (answer.verdict === "correct") return `Right. ${defender} answers ${answer.reply.text}: go on.`;
    const refutation = answer.reply ? `${defender} answers ${answer.reply.text} and the win is gone.` : "The win is gone.";
    return `Not that: ${refutation}${change}`;
  }

  /** Run an API call, show its answer (or its error), and say ``words(answer)``. */
  async act(request, words = null) {
    if (this.busy) return;
    this.busy = true;
    $("#board").dataset.busy = "true";
    $("#notice").hidden = true;
    try {
      const answer = await request();
      this.show(answer, words ? words(answer) : null);
    } catch (error) {
      $("#notice").textContent = error.message;
      $("#notice").hidden = false;
    } finally {
      this.busy = false;
      $("#board").dataset.busy = "false";
      this.updateButtons();
    }
  }

  show(answer, said) {
    this.view = answer;
    window.abgames = { puzzle: answer }; // what the page shows, for tests and the console
    this.drawPlayer(answer.player);
    if (!answer.puzzle) return;
    const { puzzle, state } = answer;
    const attacker = sideName(puzzle.game, puzzle.attacker);
    $("#task").textContent = `${attacker} to play and win`;
    $("#title").textContent = `Puzzle ${puzzle.id} · ${puzzle.game === "gomoku" ? `Gomoku (${puzzle.options.rule})` : "Connect Four"}`;
    const themes = $("#themes");
    themes.replaceChildren(...puzzle.themes.map((theme) => {
      const chip = document.createElement("span");
      chip.className = "theme";
      chip.textContent = theme;
      return chip;
    }));
    $("#difficulty").textContent = `Rating ${puzzle.rating} · a win in ${puzzle.length} move${puzzle.length === 1 ? "" : "s"} (the stored line) · find ${GOALS[puzzle.goal]}`;
    $("#source").textContent = puzzle.note ? `${puzzle.source}: ${puzzle.note}` : puzzle.source;
    this.drawBoard();
    this.drawLine();
    const status = $("#status");
    status.className = `status ${answer.status}`;
    status.textContent = said || this.defaultStatus();
  }

  defaultStatus() {
    const view = this.view;
    if (view.status === "solved") return "Solved.";
    if (view.status === "failed") return "Missed: the win is gone. Retry, or see a winning line below.";
    const attacker = sideName(view.puzzle.game, view.puzzle.attacker);
    return view.state.moves.length ? `${attacker} to move: keep the win going.` : `Find the winning move for ${attacker}.`;
  }

  drawBoard() {
    const { state } = this.view;
    const overlay = {
      legal: new Set(state.legal),
      analysis: null,
      hint: this.hint,
      numbers: false,
      forbidden: state.forbidden,
      cursor: this.cursor,
      animate: false,
    };
    const board = $("#board");
    board.replaceChildren(VIEWS[state.game].render(state, overlay));
    board.dataset.game = state.game;
    board.dataset.status = this.view.status;
    board.dataset.puzzle = this.view.puzzle.id;
    board.dataset.moves = String(state.moves.length);
  }

  drawLine() {
    const { state, puzzle, solution } = this.view;
    const list = $("#line");
    list.replaceChildren(...state.moves.map((step, index) => {
      const item = document.createElement("li");
      const mover = index % 2 === 0 ? puzzle.attacker : 1 - puzzle.attacker;
      item.textContent = `${sideName(puzzle.game, mover)} ${step.text}`;
      if (index % 2 === 1) item.className = "defender";
      return item;
    }));
    $("#solution-box").hidden = !solution;
    $("#solution").textContent = solution ? solution.map((step) => step.text).join(" ") : "";
  }

  drawPlayer(player) {
    $("#rating").textContent = `${player.rating}${player.provisional ? "?" : ""}`;
    $("#deviation").textContent = `± ${2 * player.deviation}`;
    const change = $("#rating-change");
    change.textContent = player.change ? `${player.change > 0 ? "+" : ""}${player.change}` : "";
    change.className = `change ${player.change > 0 ? "up" : player.change < 0 ? "down" : ""}`;
    $("#streak").textContent = player.streak;
    $("#best-streak").textContent = player.best_streak;
    $("#solved").textContent = player.solved;
    $("#failed").textContent = player.failed;
  }

  updateButtons() {
    const playing = Boolean(this.view && this.view.puzzle && this.view.status === "playing");
    $("#hint").disabled = this.busy || !playing;
    $("#retry").disabled = this.busy || !(this.view && this.view.puzzle);
    $("#next").disabled = this.busy;
  }
}

new PuzzlePage().start();
