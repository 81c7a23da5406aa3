// The new-game form: game, mode, who moves first, level (every level of /api/meta),
// Gomoku rule and size, Connect Four width and height, the clock.
import { GAME_TITLES, MODE_LABELS } from "./names.js";

// Who moves first, by mode: against the AI, or against a friend on another device.
const FIRST_CHOICES = {
  "human-ai": [["human", "You move first"], ["ai", "The AI moves first"]],
  friend: [["me", "You move first"], ["friend", "Your friend moves first"], ["random", "Random"]],
};

/** "5+3": a time control as players write it (minutes + seconds of increment). */
export function clockLabel(clock) {
  const minutes = clock.base_s / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)}+${clock.increment_s}`;
}

function option(select, value, text, selected) {
  const node = document.createElement("option");
  node.value = value;
  node.textContent = text;
  node.selected = selected;
  select.appendChild(node);
}

export class NewGameForm {
  constructor(dialog, meta, onStart) {
    this.dialog = dialog;
    this.form = dialog.querySelector("form");
    this.meta = meta;
    this.onStart = onStart;
    this.fields = Object.fromEntries(
      ["game", "mode", "first", "level", "rule", "size", "width", "height", "clock"].map((name) => [
        name,
        this.form.elements.namedItem(name),
      ]),
    );
    this.fields.game.replaceChildren();
    for (const game of Object.keys(meta.games)) {
      option(this.fields.game, game, GAME_TITLES[game] || game, game === "tictactoe");
    }
    this.fields.mode.replaceChildren();
    for (const mode of meta.modes) option(this.fields.mode, mode, MODE_LABELS[mode] || mode, mode === "human-ai");
    this.fields.clock.replaceChildren();
    option(this.fields.clock, "", "No clock", true);
    for (const clock of meta.clocks || []) {
      option(this.fields.clock, `${clock.base_s}+${clock.increment_s}`, `${clockLabel(clock)} (minutes + seconds a move)`, false);
    }
    this.fields.game.addEventListener("change", () => this.gameChanged());
    this.fields.mode.addEventListener("change", () => this.modeChanged());
    this.form.addEventListener("submit", (event) => this.submit(event));
    dialog.querySelector("#new-game-cancel").addEventListener("click", () => dialog.close());
    this.gameChanged();
  }

  /** Open the form showing ``state``'s settings (or the defaults). */
  open(state = null) {
    if (state) {
      this.fields.game.value = state.game;
      this.gameChanged();
      this.fields.mode.value = state.mode;
      this.modeChanged();
      this.fields.first.value = state.first;
      const clock = state.clock;
      this.fields.clock.value = clock ? `${clock.base_ms / 1000}+${clock.increment_ms / 1000}` : "";
      if (state.level) this.fields.level.value = state.level;
      const options = state.options || {};
      for (const name of ["rule", "size", "width", "height"]) {
        if (options[name] !== undefined) this.fields[name].value = options[name];
      }
    }
    this.modeChanged();
    if (!this.dialog.open) this.dialog.showModal();
    this.fields.game.focus();
  }

  gameChanged() {
    const game = this.fields.game.value;
    const info = this.meta.games[game];
    this.fields.level.replaceChildren();
    for (const level of info.levels) option(this.fields.level, level, level, level === info.default_level);
    const options = info.options || {};
    for (const name of ["rule", "size", "width", "height"]) {
      const field = this.fields[name];
      const spec = options[name];
      field.closest(".field").hidden = !spec;
      field.disabled = !spec;
      if (!spec) continue;
      if (spec.choices) {
        field.replaceChildren();
        for (const choice of spec.choices) option(field, choice, choice, choice === spec.default);
      } else {
        field.min = spec.min;
        field.max = spec.max;
        field.value = spec.default;
      }
    }
  }

  modeChanged() {
    const mode = this.fields.mode.value;
    const choices = FIRST_CHOICES[mode];
    const first = this.fields.first;
    first.closest(".field").hidden = !choices;
    if (choices && first.dataset.mode !== mode) {
      first.replaceChildren();
      for (const [value, text] of choices) option(first, value, text, value === choices[0][0]);
      first.dataset.mode = mode;
    }
    this.fields.level.closest(".field").hidden = mode === "human-human" || mode === "friend";
    this.fields.clock.closest(".field").hidden = mode === "ai-ai";
  }

  settings() {
    const game = this.fields.game.value;
    const options = {};
    for (const [name, spec] of Object.entries(this.meta.games[game].options || {})) {
      const raw = this.fields[name].value;
      options[name] = spec.choices ? raw : Number.parseInt(raw, 10);
    }
    const mode = this.fields.mode.value;
    const settings = { game, mode, first: this.fields.first.value, level: this.fields.level.value, options };
    if (!FIRST_CHOICES[mode]) settings.first = "human";
    const clock = this.fields.clock.value;
    if (clock && mode !== "ai-ai") {
      const [base, increment] = clock.split("+").map((part) => Number.parseInt(part, 10));
      settings.clock = { base_s: base, increment_s: increment };
    }
    return settings;
  }

  async submit(event) {
    event.preventDefault();
    if (!this.form.reportValidity()) return;
    const error = this.dialog.querySelector("#new-game-error");
    error.textContent = "";
    try {
      await this.onStart(this.settings());
      this.dialog.close();
    } catch (failure) {
      error.textContent = failure.message;
    }
  }
}
