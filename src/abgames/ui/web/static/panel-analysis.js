// The analysis panel: whose view the heat map takes, the expected line, "why" in words.
import { playerName } from "./names.js";

/** Fill ``section`` from ``state.analysis`` (hidden when there is none or it is off). */
export function renderAnalysis(section, state, shown) {
  const analysis = state.analysis;
  const heading = section.querySelector("#analysis-view");
  const pv = section.querySelector("#analysis-pv");
  const why = section.querySelector("#analysis-why");
  const empty = section.querySelector("#analysis-empty");
  const body = section.querySelector("#analysis-body");
  section.classList.toggle("off", !shown);
  if (!shown || !analysis) {
    body.hidden = true;
    empty.hidden = false;
    empty.textContent = shown
      ? "No search yet: ask for a hint or let the AI move."
      : "Analysis is off.";
    return;
  }
  body.hidden = false;
  empty.hidden = true;
  const who = playerName(state.game, analysis.view);
  const moveNumber = (analysis.ply ?? state.moves.length) + 1;
  const kind = analysis.hint ? "Hint" : "The AI's last search";
  heading.textContent =
    `${kind} for move ${moveNumber}: scores from ${who}'s view ` +
    `(${who} to move; hot = good for ${who}).`;
  pv.textContent = analysis.pv.length ? analysis.pv.map((step) => step.text).join(" ") : "—";
  why.textContent = analysis.why;
}
