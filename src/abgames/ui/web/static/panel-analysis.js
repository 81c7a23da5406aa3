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
  heading.textContent = viewLine(state, analysis);
  pv.textContent = analysis.pv.length ? analysis.pv.map((step) => step.text).join(" ") : "—";
  why.textContent = analysis.why;
}

/**
 * Whose view the scores take, in words. A hint scores the position for the side to move;
 * an AI's search scores its own choices, which is said plainly, since on the person's
 * turn those scores are the opponent's: "The AI's search for its move c2 — scores for O,
 * the AI (hot = good for O), not for you."
 */
export function viewLine(state, analysis) {
  const who = playerName(state.game, analysis.view);
  const moveNumber = (analysis.ply ?? state.moves.length) + 1;
  if (analysis.hint) {
    return `Hint for move ${moveNumber}: scores from ${who}'s view (${who} to move; hot = good for ${who}).`;
  }
  const seat = state.seats && state.seats[analysis.view];
  const scorer = seat && seat.kind === "ai" ? `${who}, the AI` : who;
  const played = analysis.text ? `its move ${analysis.text}` : `move ${moveNumber}`;
  const yours = state.mode === "human-ai" && seat && seat.kind === "ai" && !state.outcome
    && state.to_move !== analysis.view;
  return `The AI's search for ${played} — scores for ${scorer} (hot = good for ${who})` +
    `${yours ? ", not for you" : ""}.`;
}
