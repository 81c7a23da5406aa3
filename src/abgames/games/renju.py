"""Renju forbidden points for black: double-three, double-four and overline.

This is the readable reference; the Gomoku engine has a fast port of it
(``abgames.ai.gomoku.board``) that the tests check against this module.

The rules, for a black stone about to be played on an empty point P:

1. If P makes an *exact* five (five in a row, no more) it wins and is never
   forbidden, whatever else it makes.
2. Otherwise P is an **overline** if it makes six or more in a row.
3. A *four* is a line through P on which one more black stone makes an exact five.
   Each point completing a five counts as one four, except that the two ends of a
   straight four (``.XXXX.``) are one four together. Two or more fours (in
   different lines, or in one line as in ``X.XXX.X`` or ``XX.XX.XX``) are a
   **double-four**.
4. A *three* is a line through P, holding no four, on which one more black stone Q
   makes a straight four through P (``.XXXX.`` whose two ends each make an exact
   five), where Q itself is not forbidden once P is on the board. That last
   condition is recursive and is what makes a "false" double-three. Two or more
   threes are a **double-three**.
"""

from __future__ import annotations

from collections.abc import Sequence

DOUBLE_THREE = "double_three"
DOUBLE_FOUR = "double_four"
OVERLINE = "overline"

_EMPTY = 0
_BLACK = 1
_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
#: A stone further than this along a line cannot take part in a five with P.
_REACH = 4


class _Board:
    """A private copy of the stones with just the reads the rules need."""

    def __init__(self, cells: bytearray, size: int) -> None:
        self.cells = cells
        self.size = size

    def get(self, x: int, y: int) -> int:
        """The stone at (x, y); off the board reads as -1 (neither empty nor black)."""
        if 0 <= x < self.size and 0 <= y < self.size:
            return self.cells[y * self.size + x]
        return -1

    def set(self, x: int, y: int, stone: int) -> None:
        self.cells[y * self.size + x] = stone

    def black_run(self, x: int, y: int, dx: int, dy: int) -> int:
        """Black stones in a row through (x, y) along (dx, dy), (x, y) counted as black."""
        count = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while self.get(cx, cy) == _BLACK:
                count += 1
                cx += sign * dx
                cy += sign * dy
        return count

    def makes_five(self, x: int, y: int, dx: int, dy: int) -> bool:
        """Whether a black stone at empty (x, y) makes an exact five along (dx, dy)."""
        return self.black_run(x, y, dx, dy) == 5


def _five_points(board: _Board, x: int, y: int, dx: int, dy: int) -> list[int]:
    """Steps k along (dx, dy) from black (x, y) whose empty point makes an exact five with it."""
    points = []
    for k in range(-_REACH, _REACH + 1):
        cx, cy = x + k * dx, y + k * dy
        if k == 0 or board.get(cx, cy) != _EMPTY:
            continue
        if not board.makes_five(cx, cy, dx, dy):
            continue
        # The five must include (x, y): every point between them is black.
        step = 1 if k > 0 else -1
        if all(board.get(x + j * dx, y + j * dy) == _BLACK for j in range(step, k, step)):
            points.append(k)
    return points


def _fours_in_line(board: _Board, x: int, y: int, dx: int, dy: int) -> int:
    """How many fours black (x, y) is part of along (dx, dy); a straight four counts once."""
    points = _five_points(board, x, y, dx, dy)
    count = len(points)
    for a in points:
        for b in points:
            if b - a == 5 and all(
                board.get(x + j * dx, y + j * dy) == _BLACK for j in range(a + 1, b) if j != 0
            ):
                count -= 1  # the two ends of one straight four
    return count


def _is_straight_four(board: _Board, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether black (x, y) lies in ``.XXXX.`` along (dx, dy) whose both ends make exact fives."""
    run = board.black_run(x, y, dx, dy)
    if run != 4:
        return False
    k = 1
    while board.get(x + k * dx, y + k * dy) == _BLACK:
        k += 1
    high = (x + k * dx, y + k * dy)
    low = (x + (k - 5) * dx, y + (k - 5) * dy)
    return all(
        board.get(*end) == _EMPTY and board.makes_five(end[0], end[1], dx, dy)
        for end in (low, high)
    )


def _is_three_in_line(board: _Board, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether black (x, y) makes a (true) three along (dx, dy): see the module docstring."""
    for k in range(-_REACH, _REACH + 1):
        cx, cy = x + k * dx, y + k * dy
        if k == 0 or board.get(cx, cy) != _EMPTY:
            continue
        board.set(cx, cy, _BLACK)
        straight = _is_straight_four(board, x, y, dx, dy)
        board.set(cx, cy, _EMPTY)
        if straight and _kind_at(board, cx, cy) is None:
            return True
    return False


def _kind_at(board: _Board, x: int, y: int) -> str | None:
    """The forbidden kind of black playing empty (x, y) on ``board`` (left unchanged)."""
    if any(board.makes_five(x, y, dx, dy) for dx, dy in _DIRECTIONS):
        return None
    if any(board.black_run(x, y, dx, dy) > 5 for dx, dy in _DIRECTIONS):
        return OVERLINE
    if not _may_be_forbidden(board, x, y):
        return None
    board.set(x, y, _BLACK)
    try:
        fours = [_fours_in_line(board, x, y, dx, dy) for dx, dy in _DIRECTIONS]
        if sum(fours) >= 2:
            return DOUBLE_FOUR
        threes = 0
        for (dx, dy), four_count in zip(_DIRECTIONS, fours, strict=True):
            if four_count == 0 and _is_three_in_line(board, x, y, dx, dy):
                threes += 1
                if threes >= 2:
                    return DOUBLE_THREE
        return None
    finally:
        board.set(x, y, _EMPTY)


def _may_be_forbidden(board: _Board, x: int, y: int) -> bool:
    """A cheap necessary condition for a double-three or double-four at (x, y).

    Either two lines each hold at least two other black stones within reach, or one
    line holds at least four (a double-four in one line like ``X.XXX.X``).
    """
    busy_lines = 0
    for dx, dy in _DIRECTIONS:
        stones = sum(
            1
            for k in range(-_REACH, _REACH + 1)
            if k != 0 and board.get(x + k * dx, y + k * dy) == _BLACK
        )
        if stones >= 4:
            return True
        if stones >= 2:
            busy_lines += 1
    return busy_lines >= 2


def forbidden_kind(board: Sequence[int], size: int, point: int) -> str | None:
    """``"double_three"``, ``"double_four"``, ``"overline"``, or ``None`` if black may play.

    ``board`` is a ``size`` x ``size`` board's cells, point ``y * size + x`` holding
    0 (empty), 1 (black) or 2 (white), as ``Gomoku.board``. Judged for a black stone
    on the empty ``point``, whoever is to move; ``board`` is not changed.
    """
    cells = _cells(board, size)
    x, y = point % size, point // size
    if cells.get(x, y) != _EMPTY:
        return None
    return _kind_at(cells, x, y)


def forbidden_points(board: Sequence[int], size: int) -> dict[int, str]:
    """Every empty point where black may not play, with its kind (see ``forbidden_kind``)."""
    cells = _cells(board, size)
    found: dict[int, str] = {}
    for point, stone in enumerate(board):
        if stone != _EMPTY:
            continue
        kind = _kind_at(cells, point % size, point // size)
        if kind is not None:
            found[point] = kind
    return found


def _cells(board: Sequence[int], size: int) -> _Board:
    """A private copy of ``board`` (checked to be ``size`` x ``size``)."""
    if len(board) != size * size:
        raise ValueError(f"a {size}x{size} board has {size * size} points, not {len(board)}")
    return _Board(bytearray(board), size)
