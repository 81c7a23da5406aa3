"""The heuristic Connect Four player: every window of four cells scored for both sides.

A window is four cells in a row (any direction) that could still become a four.
A window holding discs of one player only is worth something to that player, more
the fuller it is; a window holding both colours is dead. A bonus for each disc in
the centre column rewards the cells that belong to the most windows.
"""

from __future__ import annotations

from functools import cache

from abgames.ai.player import SearchPlayer
from abgames.games.base import GameState, Move
from abgames.games.connect4 import CONNECT, ConnectFour
from abgames.search.alphabeta import AlphaBeta, SearchOptions
from abgames.search.evaluation import Evaluation
from abgames.search.limit import Limit

#: A live window holding three of a player's discs (one move from a four).
THREE_IN_WINDOW = 50
#: A live window holding two of a player's discs.
TWO_IN_WINDOW = 5
#: A live window holding one disc.
ONE_IN_WINDOW = 1
#: Each disc in the centre column (or the two centre columns of an even board).
CENTRE_DISC = 4
#: The side to move's threes are nearer to completion: weight them up.
TEMPO_FACTOR_PERCENT = 125

WINDOW_SCORES = (0, ONE_IN_WINDOW, TWO_IN_WINDOW, THREE_IN_WINDOW, 0)

#: Plies searched per level.
LEVEL_DEPTHS = {"easy": 2, "medium": 4, "hard": 7}


@cache
def windows(width: int, height: int) -> tuple[int, ...]:
    """Bit masks of every four-cell window on a board of this size."""
    stride = height + 1
    masks = []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for column in range(width):
            for row in range(height):
                end_c, end_r = column + (CONNECT - 1) * dc, row + (CONNECT - 1) * dr
                if 0 <= end_c < width and 0 <= end_r < height:
                    mask = 0
                    for i in range(CONNECT):
                        mask |= 1 << ((column + i * dc) * stride + row + i * dr)
                    masks.append(mask)
    return tuple(masks)


@cache
def centre_mask(width: int, height: int) -> int:
    stride = height + 1
    columns = {(width - 1) // 2, width // 2}
    return sum(((1 << height) - 1) << (c * stride) for c in columns)


def window_score(own: int, other: int, width: int, height: int) -> int:
    """Sum over live windows of ``own``'s discs, plus the centre bonus."""
    total = 0
    for mask in windows(width, height):
        if not other & mask:
            total += WINDOW_SCORES[(own & mask).bit_count()]
    return total + CENTRE_DISC * (own & centre_mask(width, height)).bit_count()


class ConnectFourEvaluation(Evaluation):
    """Windows and centre for the side to move minus the same for the opponent."""

    def evaluate(self, state: GameState) -> int:
        assert isinstance(state, ConnectFour)
        me, them = state.discs[state.to_move], state.discs[1 - state.to_move]
        mine = window_score(me, them, state.width, state.height)
        theirs = window_score(them, me, state.width, state.height)
        return mine * TEMPO_FACTOR_PERCENT // 100 - theirs

    def order(self, state: GameState, moves: list[Move]) -> list[Move]:
        return moves  # legal_moves() already runs from the centre outwards


def make_player(level: str, seed: int | None = None) -> SearchPlayer:
    engine = AlphaBeta(ConnectFourEvaluation(), SearchOptions(seed=seed))
    return SearchPlayer(level, engine, Limit(depth=LEVEL_DEPTHS[level]))
