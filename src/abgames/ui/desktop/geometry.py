"""Pixel geometry of the boards, with no Tk in sight: fitting, hit-testing, colours.

Every board is a grid of equal square cells laid out in a canvas of any size:

- tic-tac-toe and Connect Four put a piece *inside* a cell, so a click maps to
  the cell it falls in (floor of the pixel offset over the cell size);
- Gomoku puts a stone *on an intersection*, so a click maps to the nearest
  intersection (the offset over the line spacing, rounded half up), and is off
  the board when it lies more than half a spacing outside the outer lines.

Coordinates are canvas pixels, ``x`` to the right and ``y`` down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from abgames.search import score as scores


@dataclass(frozen=True)
class Grid:
    """``columns`` x ``rows`` cells of ``cell`` pixels whose top-left corner is (left, top).

    For Gomoku the cells are the spaces between lines and ``columns``/``rows``
    count intersections: line ``i`` lies at ``left + i * cell``.
    """

    left: float
    top: float
    cell: float
    columns: int
    rows: int

    def cell_centre(self, column: int, row: int) -> tuple[float, float]:
        """The centre of the cell in ``column`` (0 = left) and ``row`` (0 = top)."""
        return self.left + (column + 0.5) * self.cell, self.top + (row + 0.5) * self.cell

    def intersection(self, column: int, row: int) -> tuple[float, float]:
        """The pixel of the intersection of line ``column`` and line ``row``."""
        return self.left + column * self.cell, self.top + row * self.cell

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (column, row) of the cell that holds pixel (x, y), or ``None`` outside."""
        column = math.floor((x - self.left) / self.cell)
        row = math.floor((y - self.top) / self.cell)
        if 0 <= column < self.columns and 0 <= row < self.rows:
            return column, row
        return None

    def column_at(self, x: float) -> int | None:
        """The column whose vertical band holds ``x``, or ``None`` left or right of the grid."""
        column = math.floor((x - self.left) / self.cell)
        return column if 0 <= column < self.columns else None

    def nearest_intersection(self, x: float, y: float) -> tuple[int, int] | None:
        """The intersection nearest to (x, y), rounding half up; ``None`` off the board.

        A pixel counts as on the board up to half a line spacing beyond the outer
        lines, so every point of the board's outer ring is as easy to hit as an
        inner one.
        """
        column = round_half_up((x - self.left) / self.cell)
        row = round_half_up((y - self.top) / self.cell)
        if 0 <= column < self.columns and 0 <= row < self.rows:
            return column, row
        return None


def round_half_up(value: float) -> int:
    """``value`` rounded to the nearest integer, halves upwards (never banker's rounding)."""
    return math.floor(value + 0.5)


def fit_grid(
    width: float,
    height: float,
    columns: int,
    rows: int,
    *,
    margin_cells: float = 0.0,
    top_extra_cells: float = 0.0,
    span_columns: float | None = None,
    span_rows: float | None = None,
) -> Grid:
    """The largest grid of square cells centred in a ``width`` x ``height`` canvas.

    ``margin_cells`` of space is kept on every side and ``top_extra_cells`` more on
    top (Connect Four's hover row). ``span_columns``/``span_rows`` are how many
    cells the drawing spans (``columns - 1`` for Gomoku's lines); they default to
    ``columns`` and ``rows``.
    """
    span_x = columns if span_columns is None else span_columns
    span_y = rows if span_rows is None else span_rows
    total_x = span_x + 2 * margin_cells
    total_y = span_y + 2 * margin_cells + top_extra_cells
    cell = max(1.0, min(width / total_x, height / total_y))
    left = (width - span_x * cell) / 2
    top = (height - (span_y + top_extra_cells) * cell) / 2 + top_extra_cells * cell
    return Grid(left, top, cell, columns, rows)


def star_points(size: int) -> list[tuple[int, int]]:
    """The hoshi of a ``size`` x ``size`` Gomoku board as (x, y) intersections.

    15x15 and 19x19 follow the usual boards (corners 3 lines in, the centre;
    19 adds the side midpoints); other sizes get corners 2 or 3 lines in when
    the board is big enough, and the centre when the size is odd.
    """
    points: set[tuple[int, int]] = set()
    if size >= 13:
        inset = 3
    elif size >= 9:
        inset = 2
    else:
        inset = 0
    if inset:
        far = size - 1 - inset
        points.update({(inset, inset), (inset, far), (far, inset), (far, far)})
    if size % 2 == 1:
        middle = size // 2
        points.add((middle, middle))
        if size >= 19:
            far = size - 1 - inset
            points.update({(inset, middle), (far, middle), (middle, inset), (middle, far)})
    return sorted(points)


def heat_fraction(value: int, low: int, high: int) -> float:
    """Where ``value`` lies between ``low`` (0.0) and ``high`` (1.0); 1.0 when they are equal."""
    if high <= low:
        return 1.0
    return min(1.0, max(0.0, (value - low) / (high - low)))


def blend(cold: tuple[int, int, int], hot: tuple[int, int, int], fraction: float) -> str:
    """The ``#rrggbb`` colour ``fraction`` of the way from ``cold`` to ``hot``."""
    red, green, blue = (round(c + (h - c) * fraction) for c, h in zip(cold, hot, strict=True))
    return f"#{red:02x}{green:02x}{blue:02x}"


def cell_score(score: int, *, bound: bool = False, solved: bool = False) -> str:
    """``short_score`` for a cell: ``≤+3`` when only an upper bound, ``D`` for a proven draw."""
    if bound:
        return f"≤{short_score(score)}"
    if solved and score == scores.DRAW:
        return "D"
    return short_score(score)


def short_score(score: int) -> str:
    """A score short enough for a cell: ``W3`` (wins in 3 own moves), ``L2``, ``+42``, ``+1.4k``."""
    if scores.is_decisive(score):
        own_moves = (scores.plies_to_end(score) + 1) // 2
        return f"{'W' if score > 0 else 'L'}{own_moves}"
    if score == 0:
        return "0"
    if abs(score) >= 10_000:
        return f"{score / 1000:+.0f}k"
    if abs(score) >= 1000:
        return f"{score / 1000:+.1f}k"
    return f"{score:+d}"
