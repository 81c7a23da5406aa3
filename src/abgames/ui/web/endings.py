"""How a game ended, in the words of the end banner: on the board or off it.

A game ends on the board (a line, a full board: ``GameState.outcome``) or off it
(``Ending``): a resignation, a draw agreed, a flag fallen. ``outcome_view`` gives
the ``Outcome`` of docs/web.md for either, with ``how`` and a sentence for the
banner. ``can_still_win`` decides a loss on time: a side whose opponent could no
longer make a line by any sequence of moves draws instead of losing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from abgames.games import ConnectFour, GameState, Gomoku
from abgames.games.connect4 import CONNECT
from abgames.games.gomoku import WIN_LENGTH
from abgames.ui.web import views

#: How a game ended off the board.
RESIGNATION = "resignation"
AGREEMENT = "agreement"
TIME = "time"
#: How a game ended on the board.
LINE = "line"
FULL_BOARD = "full-board"
#: A loss on time that is a draw because the other side cannot win any more.
TIME_NO_WIN = "time-no-win"

#: Stones in a winning line, by game.
TICTACTOE_LINE = 3
#: The four directions a line runs in (dx, dy).
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class Ending:
    """A result reached off the board: ``winner`` (``None`` for a draw) and ``how``."""

    winner: int | None
    how: str

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "how": self.how}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ending:
        winner = data.get("winner")
        return cls(None if winner is None else int(winner), str(data["how"]))


def line_length(state: GameState) -> int:
    """Stones in a row that win ``state``'s game."""
    if isinstance(state, Gomoku):
        return WIN_LENGTH
    if isinstance(state, ConnectFour):
        return CONNECT
    return TICTACTOE_LINE


def can_still_win(state: GameState, side: int) -> bool:
    """Whether ``side`` could still make a winning line by some sequence of moves, the
    other side moving next: some run of the line's length holds none of the other
    side's stones and at most as many empty cells as ``side`` gets moves while the
    other side fills the rest."""
    cells = views.cells_of(state)
    width, height = views.board_size(state)
    length = line_length(state)
    empty = sum(1 for owner in cells if owner is None)
    own_moves = empty // 2  # the other side moves first
    for y in range(height):
        for x in range(width):
            for dx, dy in DIRECTIONS:
                end_x, end_y = x + dx * (length - 1), y + dy * (length - 1)
                if not (0 <= end_x < width and 0 <= end_y < height):
                    continue
                run = [cells[(y + dy * i) * width + x + dx * i] for i in range(length)]
                if any(owner not in (None, side) for owner in run):
                    continue
                if run.count(None) <= own_moves:
                    return True
    return False


def time_ending(state: GameState, flagged: int) -> Ending:
    """``flagged`` ran out of time: a loss, or a draw if the other side cannot win."""
    winner = 1 - flagged
    if can_still_win(state, winner):
        return Ending(winner, TIME)
    return Ending(None, TIME_NO_WIN)


def outcome_view(state: GameState, ending: Ending | None) -> dict[str, Any] | None:
    """The ``Outcome`` of docs/web.md: winner, winning line, ``how`` and the banner's text."""
    names = state.player_names
    on_board = views.outcome_of(state)
    if on_board is not None:
        winner = on_board["winner"]
        if winner is None:
            how, reason = FULL_BOARD, "the board is full"
        else:
            how, reason = LINE, f"{_count_word(line_length(state))} in a row"
        return on_board | {"how": how, "reason": reason, "text": _sentence(names, winner, reason)}
    if ending is None:
        return None
    winner = ending.winner
    loser = None if winner is None else names[1 - winner]
    reasons = {
        RESIGNATION: f"{loser} resigned",
        AGREEMENT: "agreed by both players",
        TIME: f"{loser} ran out of time",
        TIME_NO_WIN: f"{names[state.to_move]} ran out of time, but {names[1 - state.to_move]} "
        "can no longer win",
    }
    reason = reasons.get(ending.how, ending.how)
    return {
        "winner": winner,
        "line": [],
        "how": ending.how,
        "reason": reason,
        "text": _sentence(names, winner, reason),
    }


def _sentence(names: tuple[str, str], winner: int | None, reason: str) -> str:
    result = "Draw" if winner is None else f"{names[winner]} wins"
    return f"{result}: {reason}"


def _count_word(count: int) -> str:
    return {3: "three", 4: "four", 5: "five"}.get(count, str(count))
