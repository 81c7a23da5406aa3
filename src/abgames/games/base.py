"""The contract every game state keeps, and the errors the rules raise.

A game state is mutable and cheap to change in place: search calls ``play(move)``
and ``undo()`` millions of times, front-ends call ``copy()`` when they need a
snapshot. Moves are plain ``int`` values whose meaning each game defines (a cell,
a column, a point); text goes in through ``parse_move`` and out through
``format_move``. Players are ``0`` (moves first) and ``1``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

Move = int
Player = int

FIRST: Player = 0
SECOND: Player = 1


class IllegalMoveError(ValueError):
    """A move the rules do not allow here ("column 3 is full", "h8 is already taken")."""


class NotationError(ValueError):
    """Text that does not name a move or a position ("'zz' is not a point")."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner (``None`` for a draw) and the winning line."""

    winner: Player | None
    line: tuple[Move, ...] = ()

    @property
    def is_draw(self) -> bool:
        return self.winner is None


def zobrist_table(count: int, seed: int) -> list[int]:
    """``count`` distinct random 64-bit keys, the same for every run with the same seed."""
    rng = random.Random(seed)
    keys: set[int] = set()
    table: list[int] = []
    while len(table) < count:
        key = rng.getrandbits(64)
        if key and key not in keys:
            keys.add(key)
            table.append(key)
    return table


class GameState(ABC):
    """A position of a two-player, perfect-information game, changed in place.

    Subclasses keep these promises:

    - ``to_move`` is the player whose turn it is; ``moves`` the moves played so far.
    - ``legal_moves()`` is empty exactly when ``outcome()`` is not ``None``.
    - ``play(move)`` raises ``IllegalMoveError`` (and changes nothing) for a move the
      rules forbid; ``undo()`` restores the state before the last ``play`` exactly,
      ``key`` included, and raises ``IllegalMoveError`` when there is nothing to undo.
    - ``key`` is a 64-bit Zobrist hash of (stones, side to move), updated incrementally;
      ``compute_key()`` recomputes it from scratch.
    - ``parse_move(format_move(m)) == m`` for every move ``m`` on the board.
    - ``from_notation(s.notation(), **s.options()) `` rebuilds ``s``.
    """

    #: Short name used on the command line and in save files ("tictactoe").
    name: ClassVar[str]
    #: Display names of the two players, first player first.
    player_names: ClassVar[tuple[str, str]]
    #: One-character marks of the two players in ``render()``.
    player_marks: ClassVar[tuple[str, str]]

    to_move: Player
    key: int

    def __init__(self) -> None:
        self.moves: list[Move] = []
        self.to_move = FIRST
        self.key = 0
        self._outcome: Outcome | None = None

    # --- rules -----------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every move the side to move may play; empty once the game is over."""

    @abstractmethod
    def play(self, move: Move) -> None:
        """Play ``move`` for the side to move, or raise ``IllegalMoveError``."""

    @abstractmethod
    def undo(self) -> Move:
        """Take back the last move and return it."""

    def outcome(self) -> Outcome | None:
        """``None`` while the game runs; the result once it is over."""
        return self._outcome

    def copy(self) -> Self:
        """An independent state equal to this one, history included."""
        clone = type(self)(**self.options())
        clone.moves = self.moves.copy()
        clone.to_move = self.to_move
        clone.key = self.key
        clone._outcome = self._outcome
        self._copy_stones_into(clone)
        return clone

    @abstractmethod
    def _copy_stones_into(self, clone: Self) -> None:
        """Give ``clone`` (an empty state of the same variant) copies of the stones."""

    @abstractmethod
    def compute_key(self) -> int:
        """The Zobrist key recomputed from the stones and the side to move."""

    # --- notation --------------------------------------------------------------
    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move named by ``text``, or ``NotationError`` naming what is wrong.

        Only the notation is checked here, and that the move lies on the board;
        whether it is legal now is ``play``'s business.
        """

    @abstractmethod
    def format_move(self, move: Move) -> str:
        """The game's natural notation for ``move``."""

    @abstractmethod
    def render(self, *, last_move: bool = True, win_line: bool = True) -> str:
        """The board as text with coordinates, top row first."""

    @abstractmethod
    def options(self) -> dict[str, object]:
        """The keyword arguments that make an empty state of this variant."""

    def notation(self) -> str:
        """The position as the moves played, in the game's move notation."""
        return " ".join(self.format_move(m) for m in self.moves)

    @classmethod
    def from_notation(cls, text: str, **options: object) -> Self:
        """A state reached by playing the moves in ``text`` from the empty board."""
        state = cls(**options)
        for token in text.split():
            state.play(state.parse_move(token))
        return state

    @classmethod
    def from_moves(cls, moves: Sequence[Move], **options: object) -> Self:
        state = cls(**options)
        for move in moves:
            state.play(move)
        return state

    # --- conveniences ----------------------------------------------------------
    @property
    def ply(self) -> int:
        """Number of moves played so far."""
        return len(self.moves)

    @property
    def last_move(self) -> Move | None:
        return self.moves[-1] if self.moves else None

    def is_over(self) -> bool:
        return self.outcome() is not None

    def why_illegal(self, move: Move) -> str | None:
        """The reason ``move`` cannot be played now, or ``None`` if it can."""
        try:
            self.play(move)
        except IllegalMoveError as error:
            return str(error)
        self.undo()
        return None

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        sep = ", " if options else ""
        return f"{type(self).__name__}.from_notation({self.notation()!r}{sep}{options})"
