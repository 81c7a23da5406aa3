"""The textbook's game tree as a tiny game, for the /learn page and the tests.

Russell and Norvig's figure: MAX, at the root A, picks one of three moves a1 a2 a3
to the MIN nodes B, C, D; MIN picks one of three more (b1 b2 b3 under B, c1 c2 c3
under C, d1 d2 d3 under D); the leaves are worth 3 12 8 / 2 4 6 / 14 5 2 to MAX.
It is searched two plies deep: the leaves are the horizon and their values the
evaluation there. Minimax visits all nine leaves and backs up 3; alpha-beta, after
B = 3, sees c1 = 2 <= alpha and skips c2 and c3 (worth 4 and 6), and still finds 3.

Every move has its own number (0..11, in the order a1 a2 a3 b1 b2 b3 c1 ... d3), so
a move's name needs no position.
"""

from __future__ import annotations

from typing import Any, Self

from abgames.games.base import GameState, IllegalMoveError, Move, NotationError
from abgames.search.evaluation import Evaluation

#: The leaves' values for MAX, left to right (B's three, C's three, D's three).
LEAF_VALUES = (3, 12, 8, 2, 4, 6, 14, 5, 2)
BRANCHES = 3
#: The textbook's names of the moves, by number: MAX's three, then each MIN node's.
MOVE_NAMES = ("a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3", "d1", "d2", "d3")
#: The names of the MIN nodes each of MAX's moves leads to.
MIN_NODE_NAMES = ("B", "C", "D")
#: The one depth the tree is searched to: the leaves are two plies down.
TEXTBOOK_DEPTH = 2


def moves_below(move: Move) -> list[Move]:
    """MIN's moves in the node MAX's ``move`` (0..2) leads to."""
    first = BRANCHES + move * BRANCHES
    return list(range(first, first + BRANCHES))


def leaf_value(min_move: Move) -> int:
    """The value for MAX of the leaf MIN's move (3..11) leads to."""
    return LEAF_VALUES[min_move - BRANCHES]


class TextbookTree(GameState):
    """The position is the path from the root. The root offers a1 a2 a3, a MIN node its
    three moves; two plies down is the horizon: no moves (never search deeper)."""

    name = "textbook"
    player_names = ("MAX", "MIN")
    player_marks = ("+", "-")

    def legal_moves(self) -> list[Move]:
        if not self.moves:
            return list(range(BRANCHES))
        if len(self.moves) == 1:
            return moves_below(self.moves[0])
        return []

    def play(self, move: Move) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{self.format_move(move)} is not a move here")
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
        # The last move names the node (every move has its own number); 0 is the root.
        return self.moves[-1] + 1 if self.moves else 0

    def parse_move(self, text: str) -> Move:
        if text not in MOVE_NAMES:
            raise NotationError(f"{text!r} is not a move of the textbook tree (a1 .. d3)")
        return MOVE_NAMES.index(text)

    def format_move(self, move: Move) -> str:
        if not 0 <= move < len(MOVE_NAMES):
            raise NotationError(f"{move} is not a move of the textbook tree")
        return MOVE_NAMES[move]

    def render(self, *, last_move: bool = True, win_line: bool = True) -> str:
        return " ".join(MOVE_NAMES[m] for m in self.moves) or "root"

    def options(self) -> dict[str, object]:
        return {}


class LeafValues(Evaluation):
    """A leaf's value for the side to move (MAX moves at the leaves, two plies down);
    0 one ply down (only iterative deepening's first iteration looks there)."""

    def evaluate(self, state: GameState) -> int:
        if state.ply < TEXTBOOK_DEPTH:
            return 0
        value = leaf_value(state.moves[-1])
        return value if state.to_move == 0 else -value


def textbook_json() -> dict[str, Any]:
    """The tree as the /learn page draws it in place of a board: the MIN nodes, each
    with its leaves' move names and values."""
    return {
        "min_nodes": [
            {
                "name": MIN_NODE_NAMES[move],
                "move": MOVE_NAMES[move],
                "leaves": [
                    {"move": MOVE_NAMES[below], "value": leaf_value(below)}
                    for below in moves_below(move)
                ],
            }
            for move in range(BRANCHES)
        ],
    }
