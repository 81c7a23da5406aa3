# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""Candidate moves for the search, best first, and the point tests the solvers share.

``generate`` fills ``tables.moves[ply]`` with a node's candidates and their ordering
keys: a five is played at once; an opponent's four must be blocked (only that point);
against an open three only fours and the points that stop it are tried; otherwise every
point near stones, keyed by attack + defence value and history. In Renju black's
forbidden points are left out (``allowed``). ``beam_cut`` keeps the best ``beam`` of
them, ``keep_threats`` adds back moves past the beam that build a threat, and ``pick``
takes them in order.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, types

from abgames.ai import kernel_cache
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.board import (
    BOARD_TYPE,
    I_CAND_SIZE,
    I_PLY,
    I_RENJU,
    I_TO_MOVE,
    SHAPE_KEY_STEP,
    SHAPE_ROW,
    T_FIVE,
    T_FOUR,
    Board,
)
from abgames.ai.gomoku.renju import NOT_FORBIDDEN, forbidden
from abgames.ai.gomoku.tables import C_THREATS, TABLES_TYPE, Tables
from abgames.ai.gomoku.weights import DEFENCE_ORDER_PERCENT

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

# One compiled copy each (see board.py): cells and plies arrive as int32 or literals.
_I64 = types.int64
_GENERATE_SIGNATURE = _I64(BOARD_TYPE, TABLES_TYPE, _I64)


@njit(cache=True, nogil=True, _nrt=False)
def allowed(board: Board, player: int, cell: int) -> bool:
    """Whether ``player`` may play empty ``cell`` (only Renju black has forbidden points)."""
    if player != 0 or board.info[I_RENJU] == 0:
        return True
    return forbidden(board, cell) == NOT_FORBIDDEN


@njit(cache=True, nogil=True, _nrt=False)
def five_cells(board: Board, player: int, out: npt.NDArray[np.int32]) -> int:
    """The distinct empty cells where ``player`` completes a five (at most ``len(out)`` kept)."""
    count = int(board.threat_size[player, T_FIVE])
    cells = board.threat_cells[player, T_FIVE]
    for i in range(min(count, out.shape[0])):
        out[i] = cells[i]
    return count


@njit(cache=True, nogil=True, _nrt=False)
def five_cells_around(board: Board, player: int, centre: int, out: npt.NDArray[np.int32]) -> int:
    """Like ``five_cells`` but only on the lines through ``centre`` (the last stone)."""
    count = 0
    for d in range(4):
        off = board.offsets[d]
        for k in range(-4, 5):
            cell = centre + k * off
            if k == 0 or board.cells[cell] != 0:
                continue
            if board.pattern[player, d, cell] == pt.F5:
                seen = False
                for i in range(min(count, out.shape[0])):
                    if out[i] == cell:
                        seen = True
                if not seen:
                    if count < out.shape[0]:
                        out[count] = cell
                    count += 1
    return count


@njit(cache=True, nogil=True, _nrt=False)
def _order_key(
    cell_value: npt.NDArray[np.int32], history: npt.NDArray[np.int64], me: int, cell: int
) -> int:
    """The ordering key of ``me`` playing ``cell``: attack + share of defence + history."""
    return (
        cell_value[me, cell]
        + cell_value[1 - me, cell] * DEFENCE_ORDER_PERCENT // 100
        + history[me, cell]
    )


@njit(cache=True, nogil=True, _nrt=False)
def straight_four_points(board: Board, player: int) -> int:
    """``player``'s points (per direction) where a stone makes a straight four: its open
    threes. A double four on one line counts too, except for Renju black (forbidden)."""
    count = board.counts[player, pt.F4]
    if not (board.info[I_RENJU] != 0 and player == 0):
        count += board.counts[player, pt.D4]
    return int(count)


@njit(_GENERATE_SIGNATURE, cache=True, nogil=True, _nrt=False)
def generate(board: Board, tables: Tables, ply: int) -> int:
    """Fill ``tables.moves[ply]`` with candidate moves, ordered keys in ``tables.order[ply]``.

    Returns the count; 0 means no move (a full board, or only forbidden points).
    Callers handle the side to move's own five before calling this.
    """
    me = board.info[I_TO_MOVE]
    other = 1 - me
    moves = tables.moves[ply]
    keys = tables.order[ply]
    threats = tables.config[C_THREATS] != 0
    count = 0
    if board.info[I_PLY] == 0:
        centre = board.cells.shape[0] // 2
        moves[0] = centre
        keys[0] = 0
        return 1
    # Against an open three (the opponent can make a straight four) only fours and
    # the points that stop it are tried.
    must_defend = threats and straight_four_points(board, other) > 0
    # Arrays into locals: the hot loop passes no tuples (see board.py).
    cell_value = board.cell_value
    history = tables.history
    renju_black = me == 0 and board.info[I_RENJU] != 0
    if must_defend:
        # Own fours, then the opponent's four points not already listed.
        threat_cells = board.threat_cells
        threat_dirs = board.threat_dirs
        for side in range(2):
            player = me if side == 0 else other
            for i in range(board.threat_size[player, T_FOUR]):
                cell = int(threat_cells[player, T_FOUR, i])
                if side == 1 and threat_dirs[me, T_FOUR, cell] > 0:
                    continue
                if renju_black and forbidden(board, cell) != NOT_FORBIDDEN:
                    continue
                moves[count] = cell
                keys[count] = _order_key(cell_value, history, me, cell)
                count += 1
        return count
    cand = board.cand
    for i in range(board.info[I_CAND_SIZE]):
        cell = int(cand[i])
        if renju_black and forbidden(board, cell) != NOT_FORBIDDEN:
            continue
        moves[count] = cell
        keys[count] = _order_key(cell_value, history, me, cell)
        count += 1
    return count


@njit(cache=True, nogil=True, _nrt=False)
def pick(moves: npt.NDArray[np.int32], keys: npt.NDArray[np.int64], start: int, count: int) -> int:
    """Selection sort step: bring the best remaining move (the first of the best keys)
    to ``start`` and return it."""
    # Two passes: the largest key (a loop the compiler turns into vector instructions),
    # then its first place.
    top = keys[start]
    for i in range(start + 1, count):
        top = max(top, keys[i])
    best = start
    while keys[best] != top:
        best += 1
    if best != start:
        moves[start], moves[best] = moves[best], moves[start]
        keys[start], keys[best] = keys[best], keys[start]
    return int(moves[start])


@njit(cache=True, nogil=True, _nrt=False)
def beam_cut(
    moves: npt.NDArray[np.int32], keys: npt.NDArray[np.int64], count: int, beam: int
) -> int:
    """Keep only the ``beam`` best-keyed moves (all of them if ``beam`` is 0)."""
    if beam <= 0 or count <= beam:
        return count
    for i in range(beam):
        pick(moves, keys, i, count)
    return beam


@njit(cache=True, nogil=True, _nrt=False)
def builds_threat(board: Board, player: int, cell: int) -> bool:
    """A stone of ``player`` at ``cell`` makes a four or an open three, or builds on two
    lines at once (a ``B3`` with another ``B3`` or an ``F2``, or two ``F2``): what Rapfi
    2018 calls a point's combined pattern, read off the cell's shape key."""
    key = int(board.keys[player, SHAPE_ROW, cell])
    if key >= SHAPE_KEY_STEP[pt.F3]:  # an open three, a four or more
        return True
    twos = key % SHAPE_KEY_STEP[pt.B3]  # the base-5 digits of the key (board.SHAPE_KEY_STEP)
    blocked_threes = key // SHAPE_KEY_STEP[pt.B3]
    return twos >= 2 or (blocked_threes > 0 and blocked_threes + twos >= 2)


@njit(cache=True, nogil=True, _nrt=False)
def keep_threats(
    board: Board,
    moves: npt.NDArray[np.int32],
    keys: npt.NDArray[np.int64],
    kept: int,
    count: int,
    most: int,
) -> int:
    """After a beam cut that kept ``moves[:kept]`` of ``count``, bring up to ``most`` of
    the others that build a threat for either side (``builds_threat``) next to them;
    returns the new count."""
    me = board.info[I_TO_MOVE]
    end = kept
    for i in range(kept, count):
        if end - kept >= most:
            break
        cell = int(moves[i])
        if builds_threat(board, me, cell) or builds_threat(board, 1 - me, cell):
            moves[end], moves[i] = moves[i], moves[end]
            keys[end], keys[i] = keys[i], keys[end]
            end += 1
    return end
