// The page's controller: owns the game (its id, secret and latest state) and its event
// stream, turns clicks and keys into API calls and redraws from the server's state.
// It holds no rules: legality, forbidden points and the outcome come from the server.
import { GameClient, WatchClient, createGame, importGame, joinGame, meta as fetchMeta } from "./api.js";
import { boardKey } from "./board-keys.js";
import * as tictactoe from "./board-tictactoe.js";
import * as connect4 from "./board-connect4.js";
import * as gomoku from "./board-gomoku.js";
import { GAME_TITLES, MODE_LABELS, playerName, seatName } from "./names.js";
import { NewGameForm } from "./newgame.js";
import { renderAnalysis } from "./panel-analysis.js";
import { copyText, movesText, renderMoves } from "./panel-moves.js";
import { renderProgress } from "./panel-progress.js";
import { marksByPly, positionAt, renderReview } from "./panel-review.js";
import { PeoplePanel } from "./people.js";
import * as storage from "./storage.js";

const VIEWS = { tictactoe, connect4, gomoku };
const RECONNECT_MS = [500, 1000, 2000, 4000];
// The pause between moves of a new AI-vs-AI game (the desktop's AI_AI_PAUSE_S).
const AI_AI_DELAY_MS = 400;
// Heat-map scores are written only in cells at least this wide (the desktop's rule).
const MIN_SCORE_CELL_PX = 34;
const $ = (selector) => document.querySelector(selector);

/**
 * Set the pause between an AI-vs-AI game's moves. A running game is paused with the new
 * delay and resumed: a delay change alone, mid-search, would leave the server waiting
 * for an answer it has discarded (see WEB_API.md, the 18:10 request).
 */
async function setPace(client, state, delayMs) {
  if (state.paused || state.outcome) return client.control(null, delayMs);
  await client.control("pause", delayMs);
  return client.control("resume");
}

class Controller {
  constructor() {
    this.meta = null;
    this.client = null;
    this.state = null;
    this.progress = null;
    this.queuePosition = null;
    this.hintPending = false;
    this.cursor = null;
    this.keyboard = false;
    this.stream = null;
    this.renderedMoves = -1;
    this.renderedId = null;
    this.note = null; // {text, version}: a remark on the status line until the state changes
    this.you = null; // this page's seat in a game between devices (null: every person's seat)
    this.viewPly = null; // the move shown when looking back through the game (null: live)
  }

  async start() {
    this.bind();
    try {
      this.meta = await fetchMeta();
    } catch (error) {
      this.notice(error.message);
      return;
    }
    this.form = new NewGameForm($("#new-game-dialog"), this.meta, (settings) => this.create(settings));
    this.people = new PeoplePanel({
      resign: () => this.act(() => this.client.resign()),
      offer: (kind) => this.act(() => this.client.offer(kind)),
      answer: (accept) => this.act(() => this.client.answer(accept)),
      copy: async (text, what) => this.remark((await copyText(text)) ? `${what} copied.` : `Could not copy: ${text}`),
    });
    window.addEventListener("hashchange", () => this.resume());
    await this.resume();
  }

  bind() {
    const board = $("#board");
    board.addEventListener("click", (event) => this.clicked(event));
    board.addEventListener("keydown", (event) => this.key(event));
    // The pointer hides the keyboard cursor without a redraw: replacing the SVG between
    // pointerdown and click would lose the click.
    const hideCursor = () => {
      this.keyboard = false;
      for (const mark of board.querySelectorAll(".cursor, .cursor-disc")) mark.remove();
    };
    board.addEventListener("pointerdown", hideCursor);
    board.addEventListener("blur", hideCursor);
    // Scores are written in the heat map only where a cell is big enough to read them.
    new ResizeObserver(() => this.markCellSize()).observe(board);
    $("#new-game").addEventListener("click", () => this.form && this.form.open(this.state));
    $("#restart").addEventListener("click", () => this.act(() => this.client.restart()));
    $("#undo").addEventListener("click", () => this.act(() => this.client.undo()));
    $("#hint").addEventListener("click", () => this.hint());
    $("#move-now").addEventListener("click", () => this.act(() => this.client.moveNow()));
    $("#save").addEventListener("click", () => this.save());
    $("#load").addEventListener("click", () => $("#load-file").click());
    $("#load-file").addEventListener("change", (event) => this.load(event.target));
    $("#copy-moves").addEventListener("click", () => this.copyMoves());
    $("#review-start").addEventListener("click", () => this.act(() => this.client.review()));
    $("#step-first").addEventListener("click", () => this.go(0));
    $("#step-back").addEventListener("click", () => this.go(this.shownPly() - 1));
    $("#step-forward").addEventListener("click", () => this.go(this.shownPly() + 1));
    $("#step-live").addEventListener("click", () => this.go(null));
    document.addEventListener("keydown", (event) => this.stepKey(event));
    const toggles = ["show-analysis", "show-numbers", "show-forbidden"];
    const preferences = storage.preferences();
    for (const id of toggles) {
      const box = $(`#${id}`);
      if (typeof preferences[id] === "boolean") box.checked = preferences[id];
      box.addEventListener("change", () => {
        storage.setPreference(id, box.checked);
        this.draw();
      });
    }
    $("#pause").addEventListener("click", () => {
      const action = this.state && this.state.paused ? "resume" : "pause";
      this.act(() => this.client.control(action));
    });
    $("#step").addEventListener("click", () => this.act(() => this.client.control("step")));
    $("#speed").addEventListener("input", (event) => this.showSpeed(event.target.value));
    $("#speed").addEventListener("change", (event) => {
      const delay = Number.parseInt(event.target.value, 10);
      this.act(() => setPace(this.client, this.state, delay));
    });
  }

  // --- which game ----------------------------------------------------------
  async resume() {
    const link = storage.fragmentLink();
    if (link && link.kind === "watch") {
      if (!this.client || this.client.id !== link.id || !this.client.readOnly) await this.open(new WatchClient(link.id));
      return;
    }
    if (link && link.kind === "join") {
      await this.join(link.id, link.invite);
      return;
    }
    const wanted = storage.gameToResume();
    if (!wanted) {
      this.showEmpty();
      return;
    }
    if (this.client && this.client.id === wanted.id) return;
    if (!wanted.secret) {
      this.notice("This game was started in another browser: its key is not here. Start a new game.");
      this.showEmpty();
      return;
    }
    await this.open(new GameClient(wanted.id, wanted.secret));
  }

  /** Take the seat an invitation link offers; a used one opens the game as this
   * browser knows it, or to watch. */
  async join(id, invite) {
    try {
      const joined = await joinGame(id, invite);
      storage.remember(joined.id, joined.secret);
      this.notice(null);
      await this.open(new GameClient(joined.id, joined.secret), { ...joined.state, you: joined.seat });
      this.remark("You joined the game.");
    } catch (error) {
      const secret = storage.secretOf(id);
      if (error.status === 409 && secret) {
        await this.open(new GameClient(id, secret));
        return;
      }
      if (error.status === 409 || error.status === 403) {
        this.notice(`That invitation cannot be used (${error.message}): you are watching the game.`);
        await this.open(new WatchClient(id));
        return;
      }
      this.notice(error.message);
      this.showEmpty();
    }
  }

  async open(client, state = null) {
    this.stopStream();
    this.client = client;
    this.you = null;
    this.viewPly = null;
    this.state = null;
    this.progress = null;
    this.queuePosition = null;
    this.hintPending = false;
    this.cursor = null;
    this.renderedId = null;
    storage.setFragment(client.id, client.readOnly ? "watch" : "g");
    try {
      this.apply(state || (await client.state()));
    } catch (error) {
      this.client = null;
      if (error.status === 404 || error.status === 403) {
        storage.forget(client.id);
        this.notice(`That game is gone (${error.message}). Start a new game.`);
        this.showEmpty();
        return;
      }
      this.notice(error.message);
      this.client = client;
    }
    if (!client.readOnly) storage.remember(client.id, client.secret);
    this.follow(client);
  }

  async create(settings) {
    const created = await createGame(settings);
    this.notice(null);
    if (created.invite) storage.rememberInvite(created.id, created.invite);
    const client = new GameClient(created.id, created.secret);
    let state = { ...created.state, you: created.seat };
    if (settings.mode === "ai-ai" && !state.delay_ms) {
      // A watchable pace from the first moves (the server starts at full speed).
      try {
        state = await setPace(client, state, AI_AI_DELAY_MS);
      } catch (error) {
        // the game plays on at the server's pace
      }
    }
    await this.open(client, state);
  }

  showEmpty() {
    if (this.people) this.people.hide();
    $("#board").replaceChildren();
    $("#title").textContent = "";
    this.setStatus("Choose a game to start.");
    this.updateButtons();
    if (this.form) this.form.open();
  }

  // --- the event stream --------------------------------------------------------
  stopStream() {
    if (this.stream) this.stream.abort();
    this.stream = null;
  }

  async follow(client) {
    const stream = new AbortController();
    this.stream = stream;
    let failures = 0;
    while (!stream.signal.aborted) {
      let lost = null;
      try {
        await client.events((kind, data) => {
          failures = 0;
          this.event(kind, data);
        }, stream.signal);
      } catch (error) {
        lost = error;
      }
      if (stream.signal.aborted) return;
      if (lost && (lost.status === 403 || lost.status === 404)) {
        this.notice(`This game is no longer available: ${lost.message}`);
        return;
      }
      this.setConnection(false);
      const wait = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)];
      failures += 1;
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (stream.signal.aborted) return;
      try {
        this.apply(await client.state(), { force: true });
        this.setConnection(true);
      } catch (error) {
        // still away: try again
      }
    }
  }

  event(kind, data) {
    this.setConnection(true);
    if (kind === "state") {
      this.apply(data);
    } else if (kind === "progress") {
      this.progress = data;
      this.drawProgress();
    } else if (kind === "queued") {
      this.queuePosition = data.position;
      this.drawProgress();
    } else if (kind === "review" && this.state) {
      this.state = { ...this.state, review: { status: "running", done: data.done, total: data.total, result: null } };
      this.drawReview();
    }
  }

  setConnection(connected) {
    const element = $("#connection");
    element.hidden = connected;
    element.textContent = connected ? "" : "Connection to the server lost: reconnecting…";
  }

  // --- state ---------------------------------------------------------------------
  /** Take in a state from the server, unless a newer one is already shown (``force``: always). */
  apply(state, { force = false } = {}) {
    if (!state || !this.client || state.id !== this.client.id) return;
    if (!force && this.state && state.version < this.state.version) return;
    if ("you" in state) this.you = state.you;
    const previous = this.state;
    this.state = state;
    if (state.people && state.people.rematch && state.mode === "friend") {
      this.followRematch(state.people.rematch);
      return;
    }
    const searching = state.status === "thinking" || this.hintPending;
    if (!searching || !previous || previous.version !== state.version) this.progress = null;
    this.queuePosition = state.queue_position;
    if (this.cursor === null) this.cursor = this.initialCursor();
    this.draw();
  }

  /** Both pages (and the watchers) move on to the rematch, each with the secret it had. */
  async followRematch(id) {
    const client = this.client;
    if (!client || this.rematching === id) return;
    this.rematching = id;
    const next = client.readOnly ? new WatchClient(id) : new GameClient(id, client.secret);
    await this.open(next);
    this.remark("Rematch: colours swapped.");
  }

  initialCursor() {
    const state = this.state;
    const view = VIEWS[state.game];
    if (state.last_move !== null && state.last_move !== undefined) return view.cursorOf(state, state.last_move);
    return { x: Math.floor(state.board.width / 2), y: Math.floor(state.board.height / 2) };
  }

  overlay() {
    const state = this.state;
    const hintFor = state.analysis && state.analysis.hint && state.analysis.ply === state.moves.length;
    // The board shows the analysis of the position on it, from the side to move: a hint
    // the person asked for, or an AI-vs-AI game's search. The AI's search of its last move
    // (its own view, of an earlier position) stays in the panel, which says so.
    const current = hintFor || (state.mode === "ai-ai" && !state.outcome);
    const analysis = $("#show-analysis").checked && current ? state.analysis : null;
    const mayMove = !this.client.readOnly && (this.you === null || this.you === state.to_move);
    const animate =
      this.renderedId === state.id && state.moves.length === this.renderedMoves + 1;
    return {
      legal: new Set(mayMove ? state.legal : []),
      analysis,
      hint: hintFor ? state.analysis.move : null,
      numbers: $("#show-numbers").checked,
      forbidden: $("#show-forbidden").checked ? state.forbidden : [],
      cursor: this.keyboard ? this.cursor : null,
      animate,
    };
  }

  /** The move shown on the board: ``viewPly``, or the last one when live. */
  shownPly() {
    return this.viewPly ?? (this.state ? this.state.moves.length : 0);
  }

  /** Show the position after ``ply`` moves (read-only), or the live game (null or the last). */
  go(ply) {
    if (!this.state) return;
    const last = this.state.moves.length;
    this.viewPly = ply === null || ply >= last ? null : Math.max(0, ply);
    this.draw();
  }

  /** ← → Home End step through the game, except on the board (its cursor) and in fields. */
  stepKey(event) {
    if (!this.state || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.closest && (target.closest("#board, input, select, textarea, dialog[open]"))) return;
    const steps = { ArrowLeft: this.shownPly() - 1, ArrowRight: this.shownPly() + 1, Home: 0, End: null };
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.go(steps[event.key]);
  }

  draw() {
    const state = this.state;
    if (!state) return;
    const view = VIEWS[state.game];
    const reviewing = this.viewPly !== null;
    const shown = reviewing ? positionAt(state, this.viewPly) : state;
    const svg = view.render(shown, reviewing ? this.reviewOverlay() : this.overlay());
    this.renderedId = state.id;
    this.renderedMoves = state.moves.length;
    const board = $("#board");
    board.replaceChildren(svg);
    board.dataset.game = state.game;
    board.dataset.status = state.status;
    board.dataset.viewPly = reviewing ? String(this.viewPly) : "live";
    board.dataset.version = state.version;
    board.dataset.moves = state.moves.length;
    this.markCellSize();
    $("#title").textContent = this.title();
    this.setStatus(this.statusText());
    this.drawProgress();
    renderAnalysis($("#analysis"), state, $("#show-analysis").checked);
    renderMoves($("#move-list"), state, {
      current: this.viewPly,
      marks: marksByPly(state),
      onGo: (ply) => this.go(ply),
    });
    this.drawReview();
    this.people.render(state, {
      you: this.you,
      readOnly: this.client.readOnly,
      invite: this.inviteLink(),
      watchLink: storage.linkTo("watch", state.id),
    });
    this.updateButtons();
  }

  /** The board's overlay when looking back: the review's best move there, nothing to play. */
  reviewOverlay() {
    const review = this.state.review && this.state.review.result;
    const entry = review ? review.positions[this.viewPly] : null;
    return {
      legal: new Set(),
      analysis: null,
      hint: entry && entry.best !== null ? entry.best : null,
      numbers: $("#show-numbers").checked,
      forbidden: [],
      cursor: null,
      animate: false,
    };
  }

  drawReview() {
    const state = this.state;
    if (!state) return;
    renderReview($("#review"), state, {
      viewPly: this.viewPly,
      readOnly: this.client.readOnly,
      onGo: (ply) => this.go(ply),
    });
    const last = state.moves.length;
    const shown = this.shownPly();
    $("#step-first").disabled = shown === 0;
    $("#step-back").disabled = shown === 0;
    $("#step-forward").disabled = shown >= last;
    $("#step-live").disabled = this.viewPly === null;
    const viewing = $("#viewing");
    viewing.hidden = this.viewPly === null;
    if (this.viewPly !== null) {
      const mark = marksByPly(state).get(this.viewPly - 1);
      const move = this.viewPly ? `after ${state.moves[this.viewPly - 1].text}` : "the start";
      viewing.textContent = `Looking back: move ${this.viewPly} of ${last} (${move}).${mark ? ` ${mark.by} ${mark.text}.` : ""}`;
    }
  }

  /** The invitation link of a friend game this browser created, while its seat is free. */
  inviteLink() {
    const state = this.state;
    if (state.mode !== "friend" || !state.people.joined.includes(false)) return null;
    const invite = storage.inviteOf(state.id);
    return invite ? storage.linkTo("join", state.id, invite) : null;
  }

  markCellSize() {
    const board = $("#board");
    if (!this.state) return;
    const cells = this.state.board.width + (this.state.game === "gomoku" ? 1.2 : 0.6);
    // The drawing is centred in the board's column and may be narrower than it.
    const drawing = board.querySelector("svg") || board;
    board.classList.toggle("small-cells", drawing.clientWidth / cells < MIN_SCORE_CELL_PX);
  }

  drawProgress() {
    const state = this.state;
    if (!state) return;
    const thinking = state.status === "thinking" || this.hintPending;
    const who = this.hintPending && state.status !== "thinking"
      ? "Hint search"
      : `${seatName(state, state.to_move)} searching`;
    renderProgress($("#progress"), {
      status: thinking ? "thinking" : state.status,
      progress: this.progress,
      queuePosition: this.queuePosition,
      who,
    });
  }

  title() {
    const state = this.state;
    const parts = [GAME_TITLES[state.game]];
    const options = state.options || {};
    if (state.game === "gomoku") parts.push(`${options.rule || "freestyle"} ${state.board.width}×${state.board.height}`);
    if (state.game === "connect4") parts.push(`${state.board.width}×${state.board.height}`);
    parts.push(this.client.readOnly ? "watching" : MODE_LABELS[state.mode] || state.mode);
    const levels = state.seats.filter((seat) => seat.kind === "ai").map((seat) => seat.level);
    if (levels.length) parts.push(`level ${[...new Set(levels)].join("/")}`);
    return parts.join(" · ");
  }

  statusText() {
    const state = this.state;
    const mover = seatName(state, state.to_move, this.you);
    const friend = state.mode === "friend";
    let text;
    if (state.outcome) {
      text = state.outcome.text.endsWith(".") ? state.outcome.text : `${state.outcome.text}.`;
      if (this.client.readOnly || state.outcome.winner === null) {
        // a watcher's page, or a draw: the banner's sentence says it all
      } else if (state.mode === "human-ai") {
        text += state.seats[state.outcome.winner].kind === "human" ? " You win!" : " The AI wins.";
      } else if (friend && this.you !== null) {
        text += state.outcome.winner === this.you ? " You win!" : " Your friend wins.";
      }
    } else if (friend && state.people.joined.includes(false)) {
      text = this.client.readOnly
        ? "Waiting for the second player to join."
        : "Waiting for your friend to join: send them the invitation link.";
    } else if (friend && state.status === "your-turn" && !this.client.readOnly && this.you !== null) {
      text = this.you === state.to_move ? `Your move (${playerName(state.game, state.to_move)}).` : `Waiting for your friend's move (${playerName(state.game, state.to_move)}).`;
    } else if (state.status === "thinking") {
      text = `${mover} is thinking…`;
    } else if (state.status === "queued") {
      text = `${mover} waits for a free AI.`;
    } else if (state.status === "paused") {
      text = `Paused: ${mover} to move.`;
    } else if (state.status === "your-turn") {
      text = state.mode === "human-ai" ? `Your move (${playerName(state.game, state.to_move)}).` : `${mover} to move.`;
    } else {
      text = `${mover} to move.`;
    }
    if (this.viewPly !== null) {
      const mover = playerName(state.game, this.viewPly % 2);
      text = `Looking back at move ${this.viewPly} of ${state.moves.length}: ${mover} to move. Live returns to the game.`;
    }
    if (this.client.readOnly) text = `Watching · ${text}`;
    if (state.message) text += ` ${state.message}`;
    if (this.note && this.note.version === state.version) text += ` ${this.note.text}`;
    return text;
  }

  /** Add ``text`` to the status line until the game's state changes. */
  remark(text) {
    if (!this.state) return;
    this.note = { text, version: this.state.version };
    this.draw();
  }

  setStatus(text) {
    const status = $("#status");
    if (status.textContent !== text) status.textContent = text;
  }

  /** Show an error or note (role=alert); null clears it. */
  notice(text) {
    const element = $("#notice");
    element.textContent = text || "";
    element.hidden = !text;
  }

  updateButtons() {
    const state = this.state;
    const has = Boolean(state && this.client);
    const readOnly = has && this.client.readOnly;
    const friend = has && state.mode === "friend";
    const over = has && Boolean(state.outcome);
    const humanTurn = has && state.status === "your-turn";
    const searching = has && (state.status === "thinking" || state.status === "queued");
    // A watcher only looks; between devices a take-back is asked of the friend, a new
    // game is a rematch, and there are no hints.
    for (const id of ["#restart", "#undo", "#hint", "#move-now"]) $(id).hidden = readOnly || friend;
    $("#save").hidden = readOnly;
    $("#restart").disabled = !has;
    // A game ended off the board (resignation, agreement, time) is not taken back.
    const offBoard = over && !["line", "full-board"].includes(state.outcome.how);
    $("#undo").disabled = !has || offBoard || state.moves.length === 0 || state.mode === "ai-ai" && !state.paused;
    $("#hint").disabled = !humanTurn || this.hintPending;
    $("#move-now").disabled = !(searching || this.hintPending);
    $("#save").disabled = !has;
    $("#copy-moves").disabled = !has || state.moves.length === 0;
    const watching = has && state.mode === "ai-ai" && !readOnly;
    $("#watch").hidden = !watching;
    if (watching) {
      $("#pause").textContent = state.paused ? "Resume" : "Pause";
      $("#pause").setAttribute("aria-pressed", String(Boolean(state.paused)));
      $("#pause").disabled = over;
      $("#step").disabled = !state.paused || over;
      const speed = $("#speed");
      if (document.activeElement !== speed) speed.value = String(state.delay_ms ?? 0);
      this.showSpeed(speed.value);
    }
    // Between people there is no engine at the table: no analysis to show.
    const noAnalysis = friend && !state.analysis;
    $("#analysis").hidden = noAnalysis;
    $("#show-analysis").closest("label").hidden = noAnalysis;
    const gomokuGame = has && state.game === "gomoku";
    $("#numbers-toggle").hidden = !gomokuGame;
    $("#forbidden-toggle").hidden = !(gomokuGame && (state.options || {}).rule === "renju");
  }

  showSpeed(milliseconds) {
    $("#speed-value").textContent = `${(Number(milliseconds) / 1000).toFixed(1)} s`;
  }

  // --- actions ---------------------------------------------------------------------
  /** Run an API call that answers a State; show its error, if any, in the notice line. */
  async act(call) {
    if (!this.client) return null;
    try {
      const state = await call();
      this.notice(null);
      if (state && state.id) this.apply(state);
      return state;
    } catch (error) {
      this.notice(error.message);
      if (error.status === 409) this.refresh();
      return null;
    }
  }

  async refresh() {
    try {
      this.apply(await this.client.state(), { force: true });
    } catch (error) {
      // the notice already says what went wrong
    }
  }

  play(move) {
    if (!this.state || move === null || move === undefined || Number.isNaN(move)) return;
    if (this.viewPly !== null) {
      this.remark("You are looking back through the game: press Live to play.");
      return;
    }
    if (this.client.readOnly) {
      this.remark("You are watching: you cannot move.");
      return;
    }
    if (this.you !== null && this.you !== this.state.to_move && !this.state.outcome) {
      this.remark("It is your friend's turn.");
      return;
    }
    const version = this.state.version;
    return this.act(() => this.client.move(move, version));
  }

  clicked(event) {
    const target = event.target.closest("[data-move]");
    if (!target || !this.state) return;
    const move = Number.parseInt(target.dataset.move, 10);
    this.cursor = VIEWS[this.state.game].cursorOf(this.state, move);
    this.play(move);
  }

  key(event) {
    const state = this.state;
    if (!state) return;
    const view = VIEWS[state.game];
    const answer = boardKey(event, state, view, this.cursor || this.initialCursor(), null);
    if (answer === null) return;
    event.preventDefault();
    this.cursor = answer.cursor;
    this.keyboard = true;
    if (answer.move !== undefined) {
      this.play(answer.move);
      return;
    }
    this.draw();
    $("#cursor-info").textContent = `Cursor on ${view.cursorName(state, this.cursor)}`;
  }

  async hint() {
    if (!this.client || this.hintPending) return;
    this.hintPending = true;
    this.progress = null;
    this.updateButtons();
    this.drawProgress();
    try {
      const analysis = await this.client.hint();
      this.notice(null);
      this.hintPending = false;
      const best = analysis.text ? `${analysis.text} (${analysis.score_text})` : "no move";
      // The state event brings the hint as the position's analysis; fetch it if it lags.
      if (!this.state.analysis || !this.state.analysis.hint) await this.refresh();
      this.remark(`Hint: ${best}.`);
    } catch (error) {
      this.hintPending = false;
      this.notice(error.message);
      this.draw();
    }
  }

  async save() {
    try {
      const { name, blob } = await this.client.record();
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      this.notice(null);
    } catch (error) {
      this.notice(`Could not save: ${error.message}`);
    }
  }

  async load(input) {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch (error) {
      this.notice(`Could not read ${file.name}.`);
      return;
    }
    try {
      const created = await importGame(text);
      this.notice(null);
      await this.open(new GameClient(created.id, created.secret), created.state);
      this.remark(`Loaded ${file.name}.`);
    } catch (error) {
      this.note = null; // an earlier "Loaded ..." no longer describes what happened
      this.draw();
      this.notice(`${file.name} was not loaded: ${error.message}. The game in progress is kept.`);
    }
  }

  async copyMoves() {
    if (!this.state) return;
    const copied = await copyText(movesText(this.state));
    this.remark(copied ? "Move list copied." : "Could not copy: select the list and copy it.");
  }
}

const controller = new Controller();
window.abgames = controller; // for the browser tests and the curious
controller.start();
