"""Choosing a move that keeps the game's value, with win/draw/loss (weak) solving only.

Perfect play does not need every column's exact score: it needs one move that keeps
the position's value. With the position's weak value ``v`` (1 win, 0 draw, -1 loss
for the side to move) known:

- ``v = 1``: the first column, in ``COLUMN_ORDER`` (centre first), whose child is lost
  for the opponent -- solved child by child until one is;
- ``v = 0``: the first column, in the same order, whose child is a draw;
- ``v = -1``: every move loses: no solve at all; the first column, in the same
  order, that does not let the opponent win at once (else the centre-most).

A move that wins at once is always taken first (centre-most of several). The rule
depends on the position only, so it is deterministic, and the opening-book builder
(``strategy_builder``) uses the very same function, so the book's moves and the
live player's agree. ``value_of`` supplies weak values: from a book, a table of
known results or the solver.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from abgames.ai.connect4.kernel import COLUMN_ORDER
from abgames.ai.connect4.solver import Position

WIN, DRAW, LOSS = 1, 0, -1

#: ``value_of(position)``: the weak value of an unfinished position for its side to move.
ValueOf = Callable[[Position], int]


@dataclass(frozen=True)
class Decision:
    """A column that keeps ``value`` (the position's weak value) and what it took.

    ``child_values`` holds the weak value, for the side to move, of every column
    that was looked at (the chosen one included).
    """

    column: int
    value: int
    child_values: dict[int, int]


def immediate_win(position: Position) -> int | None:
    """The centre-most column that makes four at once, if any."""
    for column in COLUMN_ORDER:
        if position.can_play(column) and position.play(column).won:
            return column
    return None


def loses_at_once(child: Position) -> bool:
    """Whether the side to move in ``child`` (the opponent) can make four at once."""
    return immediate_win(child) is not None


def child_value(position: Position, column: int, value_of: ValueOf) -> int:
    """The weak value of playing ``column`` for the side to move in ``position``."""
    child = position.play(column)
    if child.won:
        return WIN
    if child.is_over:
        return DRAW
    return -value_of(child)


def decide(position: Position, value_of: ValueOf, value: int | None = None) -> Decision:
    """A column keeping the value of unfinished ``position``, by the rule of the module doc.

    ``value`` is the position's weak value if already known (else ``value_of`` gives it).
    """
    winning = immediate_win(position)
    if winning is not None:
        return Decision(winning, WIN, {winning: WIN})
    playable = [c for c in COLUMN_ORDER if position.can_play(c)]
    if value is None:
        value = value_of(position)
    if value == LOSS:
        safe = [c for c in playable if not loses_at_once(position.play(c))]
        column = (safe or playable)[0]
        return Decision(column, LOSS, {column: LOSS})
    seen: dict[int, int] = {}
    for column in playable:
        if loses_at_once(position.play(column)):
            seen[column] = LOSS  # no solve needed
            continue
        seen[column] = child_value(position, column, value_of)
        if seen[column] == value:
            return Decision(column, value, seen)
    raise ValueError(f"no column keeps the value {value}: the value is wrong")
