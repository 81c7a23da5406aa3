// Keyboard play on a board, the game page's and the puzzles page's alike: the arrows
// move a cursor (along the columns alone where a move is a column), Enter or Space
// plays at the cursor, a digit drops a Connect Four disc into that column.

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

const clamp = (value, size) => Math.min(size - 1, Math.max(0, value));

/**
 * What `event` asks of the board of `state`, drawn by `view` (a board module).
 * `cursor` is the cursor shown (null: none yet); the arrows start from `start` then.
 * Returns `{ cursor }` (the cursor moved), `{ cursor, move }` (play `move`), or null
 * (not a key of the board's: with Alt, Ctrl or Meta, Enter with no cursor, ...).
 */
export function boardKey(event, state, view, cursor, start) {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const { width, height } = state.board;
  if (event.key in STEPS) {
    const [dx, dy] = STEPS[event.key];
    const from = cursor || start;
    const rows = view.cursorKind === "column" ? 1 : height;
    return { cursor: { x: clamp(from.x + dx, width), y: clamp(from.y + dy, rows) } };
  }
  if ((event.key === "Enter" || event.key === " ") && cursor) {
    return { cursor, move: view.moveAt(state, cursor) };
  }
  if (state.game === "connect4" && /^[1-9]$/.test(event.key)) {
    const column = Number.parseInt(event.key, 10) - 1;
    if (column < width) return { cursor: { x: column, y: 0 }, move: column };
  }
  return null;
}
