// The move list: numbered pairs (each move a button that shows the position after it, the
// review's marks beside it), and the text the Copy button puts on the clipboard.

/** "1. h8 h9 2. i8" */
export function movesText(state) {
  const parts = [];
  state.moves.forEach((step, index) => {
    if (index % 2 === 0) parts.push(`${index / 2 + 1}.`);
    parts.push(step.text);
  });
  return parts.join(" ");
}

// The glyphs of the moves a review marked: a win or draw thrown away, a forced win
// missed or allowed (a blunder), a large fall of the score (a mistake).
const MARK_GLYPHS = { "threw-win": "??", "threw-draw": "??", "missed-win": "??", "allowed-win": "??", mistake: "?" };

/**
 * Fill the <ol> ``list`` with one row per pair of moves. Each move is a button that
 * shows the position after it (``onGo(ply)``); ``current`` is the move shown (the
 * last one when playing live), ``marks`` the review's marks by move index.
 */
export function renderMoves(list, state, { current = null, marks = new Map(), onGo = null } = {}) {
  const shown = current ?? state.moves.length;
  list.replaceChildren();
  for (let index = 0; index < state.moves.length; index += 2) {
    const row = document.createElement("li");
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `${index / 2 + 1}.`;
    row.appendChild(number);
    state.moves.slice(index, index + 2).forEach((step, offset) => {
      const ply = index + offset + 1;
      const move = document.createElement("button");
      move.type = "button";
      move.className = "move";
      move.dataset.ply = String(ply);
      move.textContent = step.text;
      const mark = marks.get(ply - 1);
      if (mark) {
        move.classList.add("marked", mark.kind);
        move.textContent += MARK_GLYPHS[mark.kind] || "?";
        move.title = `${mark.by} ${mark.text}`;
      }
      if (ply === shown) {
        move.classList.add("latest");
        move.setAttribute("aria-current", "step");
      }
      if (onGo) move.addEventListener("click", () => onGo(ply));
      row.appendChild(move);
    });
    list.appendChild(row);
  }
  const marked = list.querySelector(".move.latest");
  if (!marked || shown === state.moves.length) {
    list.scrollTop = list.scrollHeight; // the list only: the page itself must not jump
    return;
  }
  const top = marked.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - marked.offsetHeight) {
    list.scrollTop = top - list.clientHeight / 2;
  }
}

/** Put ``text`` on the clipboard; falls back to a selected textarea where the API is missing. */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch (error) {
      // fall through
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.className = "offscreen";
  document.body.appendChild(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch (error) {
    copied = false;
  }
  area.remove();
  return copied;
}
