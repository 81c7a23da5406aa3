"""The per-game hooks the generic search calls: evaluation, candidates, ordering."""

from __future__ import annotations

from abgames.games.base import GameState, Move


class Evaluation:
    """Game knowledge for the search; the defaults know nothing.

    - ``evaluate(state)``: a heuristic score from the side to move's view, strictly
      inside ``(-WIN_THRESHOLD, WIN_THRESHOLD)``. Called only on unfinished states.
    - ``candidates(state)``: the moves worth searching (a subset of the legal moves,
      never empty while the game runs). Default: every legal move.
    - ``order(state, moves)``: ``moves`` rearranged, most promising first.
    """

    def evaluate(self, state: GameState) -> int:
        return 0

    def candidates(self, state: GameState) -> list[Move]:
        return state.legal_moves()

    def order(self, state: GameState, moves: list[Move]) -> list[Move]:
        return moves
