"""Tic-tac-toe knowledge: a line-counting evaluation and the players of each level."""

from __future__ import annotations

from abgames.ai.player import SearchPlayer
from abgames.games.base import GameState, Move
from abgames.games.tictactoe import LINES, TicTacToe
from abgames.search.alphabeta import AlphaBeta, SearchOptions
from abgames.search.evaluation import Evaluation
from abgames.search.limit import Limit

#: Score of a line holding two of a player's marks and an empty cell.
TWO_IN_LINE = 10
#: Score of a line holding one mark and two empty cells.
ONE_IN_LINE = 1
#: Cells in the order worth trying: centre, corners, edges.
CELL_PREFERENCE = (4, 0, 2, 6, 8, 1, 3, 5, 7)
_RANK = {cell: rank for rank, cell in enumerate(CELL_PREFERENCE)}

#: Plies searched per level; 9 reaches the end of every game.
LEVEL_DEPTHS = {"easy": 1, "medium": 3, "hard": 9, "perfect": 9}


class TicTacToeEvaluation(Evaluation):
    """Open lines: a line counts for a player when the opponent holds none of it."""

    def evaluate(self, state: GameState) -> int:
        assert isinstance(state, TicTacToe)
        me = state.to_move
        total = 0
        for line in LINES:
            marks = [state.cells[cell] for cell in line]
            mine = marks.count(me)
            theirs = marks.count(1 - me)
            if theirs == 0:
                total += TWO_IN_LINE if mine == 2 else ONE_IN_LINE * mine
            elif mine == 0:
                total -= TWO_IN_LINE if theirs == 2 else ONE_IN_LINE * theirs
        return total

    def order(self, state: GameState, moves: list[Move]) -> list[Move]:
        return sorted(moves, key=_RANK.__getitem__)


def make_player(level: str, seed: int | None = None) -> SearchPlayer:
    """A player of ``level``; ``seed`` picks at random among equally good moves."""
    depth = LEVEL_DEPTHS[level]
    engine = AlphaBeta(TicTacToeEvaluation(), SearchOptions(seed=seed))
    return SearchPlayer(level, engine, Limit(depth=depth))
