// The move list: numbered pairs, and the text the Copy button puts on the clipboard.

/** "1. h8 h9 2. i8" */
export function movesText(state) {
  const parts = [];
  state.moves.forEach((step, index) => {
    if (index % 2 === 0) parts.push(`${index / 2 + 1}.`);
    parts.push(step.text);
  });
  return parts.join(" ");
}

/** Fill the <ol> ``list`` with one row per pair of moves, the last move marked. */
export function renderMoves(list, state) {
  list.replaceChildren();
  for (let index = 0; index < state.moves.length; index += 2) {
    const row = document.createElement("li");
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `${index / 2 + 1}.`;
    row.appendChild(number);
    for (const step of state.moves.slice(index, index + 2)) {
      const move = document.createElement("span");
      move.className = "move";
      move.textContent = step.text;
      row.appendChild(move);
    }
    list.appendChild(row);
  }
  const last = list.querySelector("li:last-child .move:last-child");
  if (last) last.classList.add("latest");
  list.scrollTop = list.scrollHeight; // the list only: the page itself must not jump
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
