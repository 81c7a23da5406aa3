"""The textbook's game tree as a tiny game: MAX picks one of three moves, MIN one of three
more, and the leaves are worth 3 12 8 / 2 4 6 / 14 5 2 to MAX (Russell and Norvig's
figure). Searched two plies deep; the values are the evaluation at the horizon.
"""

from __future__ import annotations

from typing import Self

from abgames.games.base import GameState, Move, NotationError
from abgames.search.evaluation import Evaluation

LEAF_VALUES = (3, 12, 8, 2, 4, 6, 14, 5, 2)
BRANCHES = 3
NAMES = "abc"


class TextbookTree(GameState):
    """Moves 0..2 at every node; the position is the path. Never ends by itself."""

    name = "textbook"
    player_names = ("MAX", "MIN")
    player_marks = ("+", "-")

    def legal_moves(self) -> list[Move]:
        return list(range(BRANCHES))

    def play(self, move: Move) -> None:
        self.moves.append(move)
        self.to_move = 1 - self.to_move
        self.key = self.compute_key()

    def undo(self) -> Move:
        move = self.moves.pop()
        self.to_move = 1 - self.to_move
        self.key = self.compute_key()
        return move

    def _copy_stones_into(self, clone: Self) -> None:
        pass

    def compute_key(self) -> int:
        return hash(tuple(self.moves)) & ((1 << 64) - 1)

    def parse_move(self, text: str) -> Move:
        if text not in NAMES:
            raise NotationError(f"{text!r} is not a branch")
        return NAMES.index(text)

    def format_move(self, move: Move) -> str:
        return NAMES[move]

    def render(self, *, last_move: bool = True, win_line: bool = True) -> str:
        return "".join(NAMES[m] for m in self.moves) or "root"

    def options(self) -> dict[str, object]:
        return {}


class LeafValues(Evaluation):
    """The leaf's value for the side to move (MAX moves at the leaves, two plies down);
    0 one ply down (only iterative deepening's first iteration looks there)."""

    def evaluate(self, state: GameState) -> int:
        if state.ply < 2:
            return 0
        first, second = state.moves[-2:]
        value = LEAF_VALUES[first * BRANCHES + second]
        return value if state.to_move == 0 else -value
