"""Pixel geometry of the desktop boards: no display needed."""

from __future__ import annotations

import pytest

from abgames.search.score import WIN
from abgames.ui.desktop.geometry import (
    Grid,
    blend,
    cell_score,
    fit_grid,
    heat_fraction,
    round_half_up,
    short_score,
    star_points,
)

# A 15x15 Gomoku board: lines 40 px apart, the top-left intersection at (100, 50).
BOARD = Grid(left=100, top=50, cell=40, columns=15, rows=15)


def test_rounding_is_half_up_not_bankers_and_not_truncation() -> None:
    assert [round_half_up(v) for v in (0.49, 0.5, 1.5, 2.5, -0.5, -0.51)] == [0, 1, 2, 3, 0, -1]


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [
        (100, 50, (0, 0)),  # exactly the top-left corner
        (100 + 14 * 40, 50 + 14 * 40, (14, 14)),  # exactly the bottom-right corner
        (100 - 19.9, 50 - 19.9, (0, 0)),  # just inside half a spacing beyond the corner
        (100 + 14 * 40 + 19.9, 50 - 19.9, (14, 0)),  # top-right corner, from outside
        (100 - 19.9, 50 + 14 * 40 + 19.9, (0, 14)),  # bottom-left corner, from outside
        (100 + 2 * 40 + 19.9, 50, (2, 0)),  # just before the midpoint: still column 2
        (100 + 2 * 40 + 20, 50, (3, 0)),  # the midpoint rounds up
        (100 + 2 * 40 + 39, 50 + 7 * 40 + 21, (3, 8)),  # truncation would say (2, 7)
    ],
)
def test_click_maps_to_the_nearest_intersection(
    x: float, y: float, expected: tuple[int, int]
) -> None:
    assert BOARD.nearest_intersection(x, y) == expected


@pytest.mark.parametrize(
    ("x", "y"),
    [
        (100 - 20.1, 50),  # more than half a spacing left of the left edge
        (100, 50 - 20.1),
        (100 + 14 * 40 + 20, 60),
        (120, 50 + 14 * 40 + 20),
        (0, 0),
        (100 - 20.1, 50 - 20.1),  # outside the top-left corner
    ],
)
def test_clicks_beyond_half_a_spacing_are_off_the_board(x: float, y: float) -> None:
    assert BOARD.nearest_intersection(x, y) is None


def test_cells_use_floor_inside_and_none_outside() -> None:
    grid = Grid(left=10, top=20, cell=100, columns=3, rows=3)
    assert grid.cell_at(10, 20) == (0, 0)
    assert grid.cell_at(309.9, 319.9) == (2, 2)
    assert grid.cell_at(109.9, 20) == (0, 0)
    assert grid.cell_at(110, 20) == (1, 0)
    assert grid.cell_at(9.9, 50) is None
    assert grid.cell_at(310, 50) is None
    assert grid.cell_at(50, 320) is None
    assert grid.column_at(9.9) is None
    assert grid.column_at(10) == 0
    assert grid.column_at(309.9) == 2
    assert grid.column_at(310) is None


def test_fit_grid_is_centred_square_and_scales_with_the_canvas() -> None:
    small = fit_grid(300, 600, 3, 3)
    assert small.cell == 100
    assert (small.left, small.top) == (0, 150)
    large = fit_grid(900, 900, 3, 3, margin_cells=0.5)
    assert large.cell == 225
    assert (large.left, large.top) == (112.5, 112.5)
    # Connect Four: headroom on top, the rack centred below it.
    rack = fit_grid(700, 700, 7, 6, top_extra_cells=1.0)
    assert rack.cell == 100
    assert rack.top == 100 and rack.left == 0
    # Gomoku: 15 lines span 14 spacings, plus a margin for the coordinates.
    board = fit_grid(800, 800, 15, 15, margin_cells=1.0, span_columns=14, span_rows=14)
    assert board.cell == 50
    assert board.intersection(0, 0) == (50, 50)
    assert board.intersection(14, 14) == (750, 750)


def test_star_points_of_the_usual_boards() -> None:
    assert star_points(15) == [(3, 3), (3, 11), (7, 7), (11, 3), (11, 11)]
    assert len(star_points(19)) == 9
    assert star_points(7) == [(3, 3)]
    assert star_points(6) == []


def test_scores_and_heat_colours() -> None:
    assert short_score(WIN - 5) == "W3"
    assert short_score(-(WIN - 2)) == "L1"
    assert short_score(0) == "0"
    assert short_score(42) == "+42"
    assert short_score(1393) == "+1.4k"
    assert short_score(-25_000) == "-25k"
    assert heat_fraction(5, 0, 10) == 0.5
    assert heat_fraction(3, 3, 3) == 1.0
    assert blend((0, 0, 0), (255, 255, 255), 0.0) == "#000000"
    assert blend((0, 0, 0), (255, 255, 255), 1.0) == "#ffffff"


def test_cell_scores_mark_bounds_and_proven_draws() -> None:
    assert cell_score(3, bound=True) == "≤+3"
    assert cell_score(0, solved=True) == "D"
    assert cell_score(0) == "0"  # a heuristic even, not a proof
    assert cell_score(-(WIN - 2), solved=True) == "L1"
