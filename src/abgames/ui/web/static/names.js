// What the page calls things: game titles, player names, level and mode labels.

export const GAME_TITLES = { tictactoe: "Tic-tac-toe", connect4: "Connect Four", gomoku: "Gomoku" };

export const PLAYER_NAMES = {
  tictactoe: ["X", "O"],
  connect4: ["Red", "Yellow"],
  gomoku: ["Black", "White"],
};

export const MODE_LABELS = {
  "human-ai": "You vs the AI",
  friend: "You vs a friend",
  "human-human": "Two players, one screen",
  "ai-ai": "AI vs AI (watch)",
};

/** "Red" or "Yellow": the name of ``player`` (0 or 1) in ``game``. */
export function playerName(game, player) {
  return (PLAYER_NAMES[game] || ["First", "Second"])[player];
}

/**
 * "Yellow (AI, hard)" / "Red (you)" / "Red (your friend)" / "Red": a seat as the status
 * line names it; ``you`` is the seat this page plays in a game between devices.
 */
export function seatName(state, player, you = null) {
  const name = playerName(state.game, player);
  const seat = state.seats[player];
  if (seat.kind === "ai") return `${name} (AI, ${seat.level})`;
  if (state.mode === "friend" && you !== null) return `${name} (${player === you ? "you" : "your friend"})`;
  return state.mode === "human-ai" ? `${name} (you)` : name;
}

/** 12345 -> "12,345". */
export function count(value) {
  return Number(value).toLocaleString("en-US");
}
