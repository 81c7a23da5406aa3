"""A 7x6 Connect Four position as the solver and its books see it (no numba here).

Bitboards in the layout of ``abgames.games.connect4`` (``kernel`` draws it): bit
``row + column * STRIDE``, a guard bit on top of each column. A position is the
side to move's discs (``current``) and all discs (``mask``); ``current + mask`` is
its unique 49-bit key (``kernel`` explains why), and the smaller of a key and its
mirror image is the *canonical* key the books store, so one entry serves both.

``solver``, ``book``, ``strategy_book`` and the builders import this module, which
imports none of them: positions and keys have one home.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from abgames.ai.connect4.constants import CELLS, COLUMN_BITS, HEIGHT, STRIDE, WIDTH
from abgames.games.base import IllegalMoveError
from abgames.games.connect4 import ConnectFour, has_four


@dataclass(frozen=True)
class Position:
    """A 7x6 position: the side to move's discs, all discs, the number of discs.

    ``won`` is true when the last move made four (the side to move has lost).
    """

    current: int
    mask: int
    moves: int
    won: bool = False

    @classmethod
    def from_state(cls, state: ConnectFour) -> Position:
        """The position of a 7x6 game (``ValueError`` for another board size)."""
        if (state.width, state.height) != (WIDTH, HEIGHT):
            raise ValueError(f"the solver plays 7x6 only, not {state.width}x{state.height}")
        mover = 1 - state.to_move
        won = bool(state.moves) and has_four(state.discs[mover], state.height)
        mask = state.discs[0] | state.discs[1]
        return cls(state.discs[state.to_move], mask, state.ply, won)

    @classmethod
    def parse(cls, text: str) -> Position:
        """The position after a move string such as ``"4453"`` (``""`` is the empty board).

        Raises ``NotationError`` for a character that is not a column 1..7 and
        ``IllegalMoveError`` for a full column or a move after the game was won;
        the message names the move's position in the string.
        """
        return cls.from_state(ConnectFour.from_notation(text))

    @property
    def key(self) -> int:
        """A unique 49-bit key (``current + mask``, see ``kernel``)."""
        return self.current + self.mask

    @property
    def is_over(self) -> bool:
        return self.won or self.moves == CELLS

    def can_play(self, column: int) -> bool:
        return not self.is_over and not self.mask & top_bit(column)

    def play(self, column: int) -> Position:
        """The position after the side to move drops a disc in ``column`` (0-based)."""
        if not self.can_play(column):
            raise IllegalMoveError(f"column {column + 1} cannot be played here")
        move = (self.mask + bottom_bit(column)) & column_bits(column)
        won = has_four(self.current | move, HEIGHT)
        return Position(self.current ^ self.mask, self.mask | move, self.moves + 1, won)

    def parents(self) -> Iterator[Position]:
        """Every position one move before this one from which a move leads here: the
        last mover's top disc taken from any column (none for the empty board). A
        parent already won (its last move made four) is left out; one may be a
        position no game reaches (the books hold none of those)."""
        mover = self.current ^ self.mask  # the discs of the side that moved last
        if self.moves == 0 or has_four(self.current, HEIGHT):
            return
        for column in range(WIDTH):
            discs = self.mask & column_bits(column)
            if not discs:
                continue
            top = 1 << (discs.bit_length() - 1)
            if mover & top:
                yield Position(mover ^ top, self.mask ^ top, self.moves - 1)

    def finished_score(self) -> int:
        """The score of a finished game for the side to move: a loss, or 0 for a full board."""
        if self.won:
            return -((CELLS + 2) // 2 - (self.moves + 1) // 2)
        return 0


def known_child_scores(position: Position, score_of: Callable[[int], int | None]) -> dict[int, int]:
    """Column -> score for the side to move of each column whose child ends the game
    or whose score ``score_of(canonical key of the child)`` gives (``None``: unknown)."""
    scores: dict[int, int] = {}
    for column in range(WIDTH):
        if not position.can_play(column):
            continue
        child = position.play(column)
        if child.is_over:
            scores[column] = -child.finished_score()
            continue
        known = score_of(canonical_key(child.key))
        if known is not None:
            scores[column] = -known
    return scores


def bottom_bit(column: int) -> int:
    return 1 << (column * STRIDE)


def column_bits(column: int) -> int:
    return ((1 << HEIGHT) - 1) << (column * STRIDE)


def top_bit(column: int) -> int:
    return 1 << (HEIGHT - 1 + column * STRIDE)


def mirrored(column: int) -> int:
    """The column that ``column`` (0-based) becomes in the mirror image."""
    return WIDTH - 1 - column


def mirror_bits(bits: int) -> int:
    """A board (or a key) reflected left to right."""
    reflected = 0
    for column in range(WIDTH):
        part = (bits >> (column * STRIDE)) & COLUMN_BITS
        reflected |= part << (mirrored(column) * STRIDE)
    return reflected


def canonical_key(key: int) -> int:
    """The smaller of ``key`` and its mirror image (the books' key of a position)."""
    return min(key, mirror_bits(key))


def position_of_key(key: int) -> Position:
    """The unfinished position whose key (``current + mask``) is ``key``.

    A column of ``h`` discs with the side to move's discs ``c`` (as bits from the
    bottom) contributes ``2**h - 1 + c``, a number from ``2**h - 1`` to ``2**(h+1) - 2``:
    ``h`` and ``c`` follow from it.
    """
    current = mask = 0
    for column in range(WIDTH):
        bits = (key >> (column * STRIDE)) & COLUMN_BITS
        height = (bits + 1).bit_length() - 1
        filled = (1 << height) - 1
        mask |= filled << (column * STRIDE)
        current |= (bits - filled) << (column * STRIDE)
    return Position(current, mask, mask.bit_count())


def unfinished_children(moves: str, position: Position) -> Iterator[str]:
    """The move strings of every unfinished position one move after ``position``.

    ``moves`` is the move string of ``position``; a move that wins or fills the
    board ends the game and is left out (its score needs no solve).
    """
    for column in range(WIDTH):
        if position.can_play(column) and not position.play(column).is_over:
            yield moves + str(column + 1)


def random_game(rng: random.Random, fewest: int, most: int) -> ConnectFour:
    """An unfinished 7x6 game of random moves with ``fewest..most`` discs (``rng`` picks).

    The hand-over positions of the tests and benchmarks: two people played, then
    the AI takes over. Games that end sooner are drawn again.
    """
    if not 0 <= fewest <= most < CELLS:
        raise ValueError(f"disc counts must be 0 <= {fewest} <= {most} < {CELLS}")
    while True:
        state = ConnectFour()
        for _ in range(rng.randint(fewest, most)):
            state.play(rng.choice(state.legal_moves()))
            if state.outcome() is not None:
                break
        else:
            return state
