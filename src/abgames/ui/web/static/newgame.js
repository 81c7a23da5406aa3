// The new-game form: game, mode, who moves first, level (every level of /api/meta),
// Gomoku rule and size, Connect Four width and height.
import { GAME_TITLES, MODE_LABELS } from "./names.js";

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
      ["game", "mode", "first", "level", "rule", "size", "width", "height"].map((name) => [
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
      this.fields.first.value = state.first;
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
    this.fields.first.closest(".field").hidden = mode !== "human-ai";
    this.fields.level.closest(".field").hidden = mode === "human-human";
  }

  settings() {
    const game = this.fields.game.value;
    const options = {};
    for (const [name, spec] of Object.entries(this.meta.games[game].options || {})) {
      const raw = this.fields[name].value;
      options[name] = spec.choices ? raw : Number.parseInt(raw, 10);
    }
    return {
      game,
      mode: this.fields.mode.value,
      first: this.fields.first.value,
      level: this.fields.level.value,
      options,
    };
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
