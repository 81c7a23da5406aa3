# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""Renju's forbidden points for black, as numba kernels over a ``Board``.

A port of ``abgames.games.renju`` (the readable rule, and the oracle the tests check
this against). ``forbidden(board, cell)`` screens a point by its pattern codes first
(most points cannot be forbidden) and only then asks ``forbidden_kind_at``, the exact,
recursive rule over the board's cells: an overline, a double four, or a double three
whose threes each become a straight four at a point that is itself not forbidden.
The kinds are ``NOT_FORBIDDEN`` and ``FORBIDDEN_*`` (``FORBIDDEN_NAMES`` names them as
``abgames.games.renju`` does).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, types

from abgames.ai import kernel_cache
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.board import EMPTY, I_RENJU, Board

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

# Forbidden kinds returned by ``forbidden``.
NOT_FORBIDDEN = 0
FORBIDDEN_DOUBLE_THREE = 1
FORBIDDEN_DOUBLE_FOUR = 2
FORBIDDEN_OVERLINE = 3
FORBIDDEN_NAMES = {1: "double_three", 2: "double_four", 3: "overline"}


@njit(cache=True, nogil=True, _nrt=False)
def _black_run(cells: npt.NDArray[np.int8], cell: int, off: int) -> int:
    count = 1
    other = cell + off
    while cells[other] == 1:
        count += 1
        other += off
    other = cell - off
    while cells[other] == 1:
        count += 1
        other -= off
    return count


@njit(cache=True, nogil=True, _nrt=False)
def _fours_in_line(cells: npt.NDArray[np.int8], cell: int, off: int) -> int:
    """Fours black ``cell`` (already placed) is part of along ``off``; straight four once."""
    first = 99
    last = -99
    count = 0
    for k in range(-4, 5):
        if k == 0 or cells[cell + k * off] != EMPTY:
            continue
        if _black_run(cells, cell + k * off, off) != 5:
            continue
        step = 1 if k > 0 else -1
        between = True
        for j in range(step, k, step):
            if cells[cell + j * off] != 1:
                between = False
        if between:
            count += 1
            first = min(first, k)
            last = max(last, k)
    if count == 2 and last - first == 5:
        return 1
    return count


@njit(cache=True, nogil=True, _nrt=False)
def _straight_four(cells: npt.NDArray[np.int8], cell: int, off: int) -> bool:
    if _black_run(cells, cell, off) != 4:
        return False
    k = 1
    while cells[cell + k * off] == 1:
        k += 1
    high = cell + k * off
    low = cell + (k - 5) * off
    # Loops, not all(...): numba compiles no generators.
    for end in (low, high):  # noqa: SIM110
        if cells[end] != EMPTY or _black_run(cells, end, off) != 5:
            return False
    return True


@njit(types.int64(types.int8[::1], types.int64[::1], types.int64), cache=True, nogil=True)
def forbidden_kind_at(
    cells: npt.NDArray[np.int8], offsets: npt.NDArray[np.int64], cell: int
) -> int:
    """The Renju forbidden kind (``FORBIDDEN_*``) of black on empty ``cell`` (exact, recursive)."""
    longest = 0
    for d in range(4):
        run = _black_run(cells, cell, offsets[d])
        if run == 5:
            return NOT_FORBIDDEN
        longest = max(longest, run)
    if longest > 5:
        return FORBIDDEN_OVERLINE
    cells[cell] = 1
    fours = np.zeros(4, np.int64)
    total = 0
    for d in range(4):
        fours[d] = _fours_in_line(cells, cell, offsets[d])
        total += fours[d]
    if total >= 2:
        cells[cell] = EMPTY
        return FORBIDDEN_DOUBLE_FOUR
    threes = 0
    for d in range(4):
        if fours[d] != 0:
            continue
        off = offsets[d]
        for k in range(-4, 5):
            other = cell + k * off
            if k == 0 or cells[other] != EMPTY:
                continue
            cells[other] = 1
            straight = _straight_four(cells, cell, off)
            cells[other] = EMPTY
            if straight and forbidden_kind_at(cells, offsets, other) == NOT_FORBIDDEN:
                threes += 1
                break
    cells[cell] = EMPTY
    if threes >= 2:
        return FORBIDDEN_DOUBLE_THREE
    return NOT_FORBIDDEN


@njit(cache=True, nogil=True, _nrt=False)
def forbidden(board: Board, cell: int) -> int:
    """For black in Renju: the forbidden kind of ``cell``, screened by the pattern codes first."""
    if board.info[I_RENJU] == 0:
        return NOT_FORBIDDEN
    fours = 0
    threes = 0
    for d in range(4):
        code = board.pattern[0, d, cell]
        if code == pt.F5:
            return NOT_FORBIDDEN
        if code == pt.OL:
            fours += 100
        elif code == pt.D4:
            fours += 2
        elif code == pt.B4 or code == pt.F4:
            fours += 1
        elif code == pt.F3:
            threes += 1
    if fours < 2 and threes < 2:
        return NOT_FORBIDDEN
    return forbidden_kind_at(board.cells, board.offsets, cell)
