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

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from abgames.ai.connect4.kernel import COLUMN_ORDER
from abgames.ai.connect4.position import Position

WIN, DRAW, LOSS = 1, 0, -1

#: ``value_of(position)``: the weak value of an unfinished position for its side to move.
ValueOf = Callable[[Position], int]
#: The same as a generator (progress reports between chunks of a long solve, say),
#: returning the value: ``Solver.solve_steps``-like.
ValueSteps = Callable[[Position], Generator[Any, None, int]]
_Result = TypeVar("_Result")


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


def child_value_steps(
    position: Position, column: int, value_steps: ValueSteps
) -> Generator[Any, None, int]:
    """The weak value of playing ``column`` for the side to move in ``position``."""
    child = position.play(column)
    if child.won:
        return WIN
    if child.is_over:
        return DRAW
    return -(yield from value_steps(child))


def decide_steps(
    position: Position, value_steps: ValueSteps, value: int | None = None
) -> Generator[Any, None, Decision]:
    """``decide`` as a generator: passes on what ``value_steps`` yields, returns the decision.

    A caller can report progress (or give up) between the solves' chunks.
    """
    winning = immediate_win(position)
    if winning is not None:
        return Decision(winning, WIN, {winning: WIN})
    playable = [c for c in COLUMN_ORDER if position.can_play(c)]
    if value is None:
        value = yield from value_steps(position)
    if value == LOSS:
        safe = [c for c in playable if not loses_at_once(position.play(c))]
        column = (safe or playable)[0]
        return Decision(column, LOSS, {column: LOSS})
    seen: dict[int, int] = {}
    for column in playable:
        if loses_at_once(position.play(column)):
            seen[column] = LOSS  # no solve needed
            continue
        seen[column] = yield from child_value_steps(position, column, value_steps)
        if seen[column] == value:
            return Decision(column, value, seen)
    raise ValueError(f"no column keeps the value {value}: the value is wrong")


def decide(position: Position, value_of: ValueOf, value: int | None = None) -> Decision:
    """A column keeping the value of unfinished ``position``, by the rule of the module doc.

    ``value`` is the position's weak value if already known (else ``value_of`` gives it).
    """

    def value_steps(child: Position) -> Generator[Any, None, int]:
        yield from ()
        return value_of(child)

    return run(decide_steps(position, value_steps, value))


def run(steps: Generator[Any, None, _Result]) -> _Result:
    """Drive a generator to its end and return its value (ignoring what it yields)."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: _Result = done.value
            return result
