// What a game between people shows: the players and their clocks above the board, the
// end-of-game banner, the invitation and watch links, a pending offer and the buttons to
// resign, offer a draw, ask for a take-back and offer a rematch. The server keeps the
// clocks; the page only counts down from the last state it heard, for display.
import { playerName } from "./names.js";

const $ = (selector) => document.querySelector(selector);
// How often a running clock is redrawn (ms), and below how much time it shows tenths.
const TICK_MS = 100;
const TENTHS_BELOW_MS = 10_000;
// A first click on Resign arms it; a second within this time resigns.
const RESIGN_ARM_MS = 4000;
const OFFER_WORDS = { draw: "a draw", takeback: "to take back a move", rematch: "a rematch" };

/** "4:59", "0:09.3": what a clock shows with ``ms`` left. */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < TENTHS_BELOW_MS) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  const seconds = Math.ceil(left / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

export class PeoplePanel {
  /** ``actions``: {resign, offer(kind), answer(accept), copy(text, what)}. */
  constructor(actions) {
    this.actions = actions;
    this.state = null;
    this.you = null;
    this.clock = null; // {view, at}: the last clock heard and when (performance.now())
    this.resignArmed = null;
    this.bannerClosedFor = null;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    $("#resign").addEventListener("click", () => this.resign());
    $("#offer-draw").addEventListener("click", () => this.actions.offer("draw"));
    $("#takeback").addEventListener("click", () => this.actions.offer("takeback"));
    $("#rematch").addEventListener("click", () => this.actions.offer("rematch"));
    $("#banner-rematch").addEventListener("click", () => this.actions.offer("rematch"));
    $("#offer-accept").addEventListener("click", () => this.actions.answer(true));
    $("#offer-decline").addEventListener("click", () => this.actions.answer(false));
    $("#copy-invite").addEventListener("click", () => this.actions.copy($("#invite-link").value, "Invitation link"));
    $("#copy-watch").addEventListener("click", () => this.actions.copy(this.watchLink, "Watch link"));
    $("#banner-close").addEventListener("click", () => {
      this.bannerClosedFor = this.state ? `${this.state.id}:${this.state.version}` : null;
      $("#banner").hidden = true;
    });
  }

  /**
   * Show ``state``: ``you`` is this page's seat (null: every person's seat on this device),
   * ``readOnly`` a watcher's page, ``invite`` the invitation link (null once used),
   * ``watchLink`` the game's watch link.
   */
  render(state, { you, readOnly, invite, watchLink }) {
    this.state = state;
    this.you = you;
    this.watchLink = watchLink;
    this.clock = state.clock ? { view: state.clock, at: performance.now() } : null;
    this.renderPlayers(state, you, readOnly);
    this.renderBanner(state, you, readOnly);
    this.renderPanel(state, you, readOnly, invite);
    this.tick();
  }

  renderPlayers(state, you, readOnly) {
    const bar = $("#players");
    const shown = Boolean(state.clock) || state.mode === "friend";
    bar.hidden = !shown;
    document.querySelector(".play").classList.toggle("with-players", shown);
    if (!shown) return;
    for (const side of [0, 1]) {
      const element = $(`#player-${side}`);
      const seat = state.seats[side];
      let who = playerName(state.game, side);
      if (seat.kind === "ai") who += ` · AI ${seat.level}`;
      else if (!state.people.joined[side]) who += " · to join";
      else if (readOnly) {
        // a watcher's page names the colours only
      } else if (state.mode === "friend") who += you === side ? " · you" : " · friend";
      else if (state.mode === "human-ai") who += " · you";
      element.querySelector(".player-name").textContent = who;
      element.classList.toggle("to-move", !state.outcome && state.to_move === side);
      element.querySelector(".player-clock").hidden = !state.clock;
    }
  }

  /** Redraw the clocks from the last state, counting down the running one. */
  tick() {
    if (!this.clock) return;
    const { view, at } = this.clock;
    const elapsed = performance.now() - at;
    for (const side of [0, 1]) {
      const running = view.running === side && !(this.state && this.state.outcome);
      const left = view.left_ms[side] - (running ? elapsed : 0);
      const element = $(`#player-${side} .player-clock`);
      const text = clockText(left);
      if (element.textContent !== text) element.textContent = text;
      element.classList.toggle("running", running);
      element.classList.toggle("low", left < TENTHS_BELOW_MS);
      element.setAttribute("aria-label", `${playerName(this.state.game, side)}: ${text} left`);
    }
  }

  renderBanner(state, you, readOnly) {
    const banner = $("#banner");
    const key = `${state.id}:${state.version}`;
    if (!state.outcome || this.bannerClosedFor === key) {
      banner.hidden = true;
      return;
    }
    const outcome = state.outcome;
    let headline = outcome.winner === null ? "Draw" : `${playerName(state.game, outcome.winner)} wins`;
    const mine = you !== null ? you : state.mode === "human-ai" ? state.seats.findIndex((seat) => seat.kind === "human") : null;
    if (!readOnly && mine !== null && mine >= 0 && outcome.winner !== null) {
      headline = outcome.winner === mine ? "You win!" : state.mode === "friend" ? "Your friend wins" : "The AI wins";
    }
    $("#banner-result").textContent = headline;
    const reason = outcome.reason || outcome.text;
    $("#banner-reason").textContent = reason.charAt(0).toUpperCase() + reason.slice(1);
    banner.dataset.how = outcome.how;
    const rematch = !readOnly && state.mode === "friend" && !state.people.rematch;
    $("#banner-rematch").hidden = !rematch;
    $("#banner-rematch").disabled = Boolean(state.people.offer && state.people.offer.kind === "rematch" && state.people.offer.by === you);
    banner.hidden = false;
  }

  renderPanel(state, you, readOnly, invite) {
    const card = $("#people");
    card.hidden = false;
    $("#watching").hidden = !readOnly;
    const inviting = !readOnly && state.mode === "friend" && state.people.joined.includes(false);
    $("#invite").hidden = !(inviting && invite);
    if (invite) $("#invite-link").value = invite;
    const playing = !readOnly && state.mode !== "ai-ai";
    const between = state.mode === "friend" || state.mode === "human-human";
    const over = Boolean(state.outcome);
    $("#people-actions").hidden = !playing;
    $("#resign").disabled = over || inviting;
    $("#offer-draw").hidden = !between;
    $("#offer-draw").disabled = over || inviting;
    $("#takeback").hidden = state.mode !== "friend";
    $("#takeback").disabled = over || state.moves.length === 0;
    $("#rematch").hidden = state.mode !== "friend" || !over;
    if (!this.resignArmed) $("#resign").textContent = "Resign";

    const offer = state.people.offer;
    const bar = $("#offer-bar");
    bar.hidden = !offer || readOnly;
    if (offer && !readOnly) {
      const name = playerName(state.game, offer.by);
      const theirs = you === null || offer.by !== you;
      $("#offer-text").textContent = theirs
        ? `${name} offers ${OFFER_WORDS[offer.kind]}.`
        : `You offered ${OFFER_WORDS[offer.kind]}: waiting for an answer.`;
      $("#offer-accept").hidden = !theirs;
      $("#offer-decline").hidden = !theirs;
    }
  }

  resign() {
    const button = $("#resign");
    if (!this.resignArmed) {
      button.textContent = "Really resign?";
      this.resignArmed = setTimeout(() => {
        this.resignArmed = null;
        button.textContent = "Resign";
      }, RESIGN_ARM_MS);
      return;
    }
    clearTimeout(this.resignArmed);
    this.resignArmed = null;
    button.textContent = "Resign";
    this.actions.resign();
  }

  hide() {
    this.state = null;
    this.clock = null;
    for (const id of ["#players", "#banner", "#people"]) $(id).hidden = true;
  }
}
