"""An instant Gomoku move for when there is no time to search.

Used when the turn limit is 0, and as the safety net when a search cannot answer
in time: win at once if possible, else stop the opponent's five, else play next
to the longest lines of either side (the centre on an empty board).
"""

from __future__ import annotations

from abgames.games.base import Move, Player
from abgames.games.gomoku import DIRECTIONS, EMPTY, Gomoku

#: Candidates lie at most this far (in points) from a stone.
NEIGHBOURHOOD = 2


def makes_win(state: Gomoku, point: Move, player: Player) -> bool:
    """Whether ``player`` wins by a stone on the empty ``point`` (line length only)."""
    stone = player + 1
    return any(
        state.wins_with_length(state.run_length(point, dx, dy, stone), player)
        for dx, dy in DIRECTIONS
    )


def _near_stones(state: Gomoku, legal: list[Move]) -> list[Move]:
    stones = [p for p, s in enumerate(state.board) if s != EMPTY]
    near: set[Move] = set()
    for point in stones:
        x, y = state.xy(point)
        for dy in range(-NEIGHBOURHOOD, NEIGHBOURHOOD + 1):
            for dx in range(-NEIGHBOURHOOD, NEIGHBOURHOOD + 1):
                if state.on_board(x + dx, y + dy):
                    near.add(state.point(x + dx, y + dy))
    return [p for p in legal if p in near] or legal


def quick_move(state: Gomoku) -> Move | None:
    """A reasonable legal move found without search; ``None`` when there is none."""
    legal = state.legal_moves()
    if not legal:
        return None
    if not state.moves and state.centre in legal:
        return state.centre
    me = state.to_move
    candidates = _near_stones(state, legal)
    for player in (me, 1 - me):
        for point in candidates:
            if makes_win(state, point, player):
                return point
    centre_x, centre_y = state.xy(state.centre)

    def value(point: Move) -> tuple[int, int]:
        lines = sum(
            state.run_length(point, dx, dy, player + 1) ** 2
            for dx, dy in DIRECTIONS
            for player in (me, 1 - me)
        )
        x, y = state.xy(point)
        return lines, -(abs(x - centre_x) + abs(y - centre_y))

    return max(candidates, key=value)
