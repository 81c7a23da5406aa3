# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""The engine's board: flat arrays with incremental line patterns (numba kernels).

Points live on a padded grid of width ``W = size + 2 * REACH``: a point (x, y) of
the game is cell ``(y + REACH) * W + x + REACH`` here, and the ``REACH``-wide frame
around the board holds walls, so a line read never runs off the array. The four
directions are the cell offsets ``1, W, W + 1, W - 1``.

For every player, cell and direction ``keys`` holds the base-3 code of the ten
points around it on that line as that player sees them (empty, own, blocked: see
``patterns.ternary_tables``; under freestyle only the eight within four steps count,
see ``pattern_table_for``); ``play``/``undo`` change only the keys of the 40 (32)
cells a stone can see, and with them the pattern codes
``pattern[player, direction, cell]`` (a lookup in a table small enough to stay in
cache), each cell's combined ``cell_value``, and the per-player counts (over empty
cells) that the evaluation reads: ``counts[player, code]`` of pattern codes (a cell
and direction each) and ``counts[player, CODE_COUNT + shape]`` of cells of each shape
(``patterns.SHAPE_*``: what a stone there builds across its four lines).

The move generators read two kinds of incremental sets, never a board scan:

- the *candidate set*: empty cells with a stone within two points (``near`` > 0),
  kept in ``cand`` (first ``info[I_CAND_SIZE]`` entries, any order) with each
  cell's index in ``cand_pos`` (-1 when absent);
- per player the *threat sets*: empty cells where some direction's code is a five
  (``T_FIVE``), a four of any kind (``T_FOUR``) or a three that becomes a straight
  four (``T_THREE``), as ``threat_cells[player, kind]`` (first
  ``threat_size[player, kind]`` entries) with ``threat_pos`` and, per cell,
  ``threat_dirs`` = how many directions have a code of that kind.

Play/undo update them along with the codes, so membership always equals a
from-scratch computation (the order of the entries does not). ``play_threat`` and
``undo_threat``, for the VCF, leave the counts and cell values alone.
Nothing is recomputed from scratch at a node.

Undo looks nothing up: each play writes the codes it changed (with the cell values
before) to a journal, and the counts before it to ``saved_counts``; undo takes the
stone out of the keys, replays the journal and copies the counts back
(``UNDO_RECORDS``). The threat sets change in the order a recomputing undo would
change them, so the search sees the same sets in the same order.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, typeof, types

from abgames.ai import kernel_cache
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.weights import (
    CELL_DOUBLE_FOUR,
    CELL_DOUBLE_THREE,
    CELL_FIVE,
    CELL_FOUR_THREE,
    CELL_STRAIGHT_FOUR,
    ORDER_WEIGHTS,
)
from abgames.games.gomoku import Gomoku, Rule

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

REACH = pt.REACH
EMPTY = 0
WALL = 3
MAX_MOVES = 22 * 22 + 1

# Indexes into ``Board.info``.
I_SIZE = 0
I_WIDTH = 1
I_TO_MOVE = 2
I_PLY = 3
I_HASH = 4
I_RENJU = 5
I_RULE = 6
I_CAND_SIZE = 7
INFO_LEN = 8

# Threat kinds of the incremental threat sets (see the module docstring).
T_FIVE = 0
T_FOUR = 1
T_THREE = 2
THREAT_KINDS = 3
#: The threat kind of each pattern code (-1: none).
CODE_THREAT = np.full(pt.CODE_COUNT, -1, np.int64)
CODE_THREAT[pt.F5] = T_FIVE
CODE_THREAT[pt.B4] = T_FOUR
CODE_THREAT[pt.F4] = T_FOUR
CODE_THREAT[pt.D4] = T_FOUR
CODE_THREAT[pt.F3] = T_THREE

#: Columns of ``Board.counts``: the pattern codes, the cell shapes, then the cells of
#: no shape (a column only so that play and undo count shapes without a branch).
COUNTS_LEN = pt.CODE_COUNT + pt.SHAPE_COUNT + 1
#: The most codes one stone can change: two players' codes in four directions at the
#: ten points it sees on each line.
JOURNAL_PER_PLAY = 2 * 4 * 2 * REACH
#: The ``Board`` fields that hold what each play saved for its undo (the journal of
#: changed codes and the counts before it): only the entries of the plies on the stack
#: mean anything, so two boards in the same position may differ there.
UNDO_RECORDS = ("journal", "journal_value", "journal_start", "saved_counts")

RULE_CODES = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 2}


class Board(NamedTuple):
    """All the engine's per-position arrays (a NamedTuple so numba can take it whole)."""

    cells: npt.NDArray[np.int8]  # EMPTY, 1 black, 2 white, WALL
    keys: npt.NDArray[np.int32]  # [player, direction, cell] line key; row 4: shape key
    pattern: npt.NDArray[np.int8]  # [player, direction, cell] pattern code
    cell_value: npt.NDArray[np.int32]  # [player, cell] ordering value of playing there
    counts: npt.NDArray[np.int32]  # [player, code or CODE_COUNT + shape] over empty cells
    near: npt.NDArray[np.int16]  # stones within two points (Chebyshev)
    cand: npt.NDArray[np.int32]  # the candidate set (empty cells with near > 0)
    cand_pos: npt.NDArray[np.int32]  # [cell] index in ``cand`` or -1
    threat_cells: npt.NDArray[np.int32]  # [player, kind, i] the threat sets
    threat_pos: npt.NDArray[np.int32]  # [player, kind, cell] index or -1
    threat_dirs: npt.NDArray[np.int8]  # [player, kind, cell] directions of that kind
    threat_size: npt.NDArray[np.int64]  # [player, kind]
    offsets: npt.NDArray[np.int64]  # the four direction offsets
    stack: npt.NDArray[np.int32]  # moves played (cells)
    zobrist: npt.NDArray[np.int64]  # [player, cell]
    table: npt.NDArray[np.int8]  # [player, base-3 key] pattern table for the rule
    info: npt.NDArray[np.int64]  # scalars, see I_*
    journal: npt.NDArray[np.int32]  # the codes each play changed, see ``journal_entry``
    journal_value: npt.NDArray[np.int32]  # [entry] the cell's value before the change
    journal_start: npt.NDArray[np.int32]  # [ply] where that ply's entries begin
    saved_counts: npt.NDArray[np.int32]  # [ply, player, column] counts before the play


def _board_type() -> object:
    """The numba type of a ``Board`` (for kernels compiled with explicit signatures)."""
    dummy = Board(
        cells=np.zeros(1, np.int8),
        keys=np.zeros((1, 1, 1), np.int32),
        pattern=np.zeros((1, 1, 1), np.int8),
        cell_value=np.zeros((1, 1), np.int32),
        counts=np.zeros((1, 1), np.int32),
        near=np.zeros(1, np.int16),
        cand=np.zeros(1, np.int32),
        cand_pos=np.zeros(1, np.int32),
        threat_cells=np.zeros((1, 1, 1), np.int32),
        threat_pos=np.zeros((1, 1, 1), np.int32),
        threat_dirs=np.zeros((1, 1, 1), np.int8),
        threat_size=np.zeros((1, 1), np.int64),
        offsets=np.zeros(1, np.int64),
        stack=np.zeros(1, np.int32),
        zobrist=np.zeros((1, 1), np.int64),
        table=np.zeros((1, 1), np.int8),
        info=np.zeros(1, np.int64),
        journal=np.zeros(1, np.int32),
        journal_value=np.zeros(1, np.int32),
        journal_start=np.zeros(1, np.int32),
        saved_counts=np.zeros((1, 1, 1), np.int32),
    )
    return typeof(dummy)


#: Recursive kernels need explicit signatures: numba's on-disk cache loads
#: type-inferred recursive functions wrongly when one calls another (a segfault).
BOARD_TYPE = _board_type()
# Explicit signatures for the kernels called with several argument types (int32 and
# int64 cells, literal constants): without them numba compiles one copy per type.
_I64 = types.int64
_CELL_VALUE_SIGNATURE = _I64(types.int8[:, :, ::1], _I64, _I64)
_SET_SIGNATURE = _I64(types.int32[::1], types.int32[::1], _I64, _I64)
_THREAT_SIGNATURE = types.void(
    types.int8[:, :, ::1],
    types.int32[:, :, ::1],
    types.int32[:, :, ::1],
    types.int64[:, ::1],
    _I64,
    _I64,
    _I64,
    _I64,
)
_UPDATE_SIGNATURE = _I64(
    types.int8[::1],  # cells
    types.int32[:, :, ::1],  # keys
    types.int8[:, :, ::1],  # pattern
    types.int8[:, ::1],  # table
    types.int32[:, ::1],  # counts
    types.int32[:, ::1],  # cell_value
    types.int8[:, :, ::1],  # threat_dirs
    types.int32[:, :, ::1],  # threat_cells
    types.int32[:, :, ::1],  # threat_pos
    types.int64[:, ::1],  # threat_size
    types.int64[::1],  # offsets
    types.int32[::1],  # journal
    types.int32[::1],  # journal_value
    _I64,  # entry
    _I64,  # cell
    _I64,  # colour
)
_REVERT_SIGNATURE = types.void(
    types.int8[::1],  # cells
    types.int32[:, :, ::1],  # keys
    types.int8[:, :, ::1],  # pattern
    types.int8[:, ::1],  # table
    types.int32[:, ::1],  # cell_value
    types.int8[:, :, ::1],  # threat_dirs
    types.int32[:, :, ::1],  # threat_cells
    types.int32[:, :, ::1],  # threat_pos
    types.int64[:, ::1],  # threat_size
    types.int64[::1],  # offsets
    types.int32[::1],  # journal
    types.int32[::1],  # journal_value
    _I64,  # first
    _I64,  # end
    _I64,  # cell
    _I64,  # colour
)
_COUNT_CELL_SIGNATURE = types.void(
    types.int8[:, :, ::1],  # pattern
    types.int32[:, ::1],  # counts
    types.int32[:, :, ::1],  # keys
    types.int8[:, :, ::1],  # threat_dirs
    types.int32[:, :, ::1],  # threat_cells
    types.int32[:, :, ::1],  # threat_pos
    types.int64[:, ::1],  # threat_size
    _I64,
    _I64,
    _I64,
)
_NEAR_SIGNATURE = types.void(
    types.int16[::1],  # near
    types.int8[::1],  # cells
    types.int32[::1],  # cand
    types.int32[::1],  # cand_pos
    types.int64[::1],  # info
    _I64,
    _I64,
)
_PLAY_SIGNATURE = types.void(BOARD_TYPE, _I64)
_UNDO_SIGNATURE = _I64(BOARD_TYPE)


def new_board(size: int, rule: Rule) -> Board:
    """An empty engine board for ``size`` and ``rule``."""
    width = size + 2 * REACH
    count = width * width
    rng = np.random.default_rng(0x60B0)
    board = Board(
        cells=np.full(count, WALL, np.int8),
        keys=np.zeros((2, 5, count), np.int32),
        pattern=np.zeros((2, 4, count), np.int8),
        cell_value=np.zeros((2, count), np.int32),
        counts=np.zeros((2, COUNTS_LEN), np.int32),
        near=np.zeros(count, np.int16),
        cand=np.zeros(count, np.int32),
        cand_pos=np.full(count, -1, np.int32),
        threat_cells=np.zeros((2, THREAT_KINDS, count), np.int32),
        threat_pos=np.full((2, THREAT_KINDS, count), -1, np.int32),
        threat_dirs=np.zeros((2, THREAT_KINDS, count), np.int8),
        threat_size=np.zeros((2, THREAT_KINDS), np.int64),
        offsets=np.array([1, width, width + 1, width - 1], np.int64),
        stack=np.zeros(MAX_MOVES, np.int32),
        zobrist=rng.integers(1, 2**62, size=(2, count), dtype=np.int64),
        table=pattern_table_for(rule),
        info=np.zeros(INFO_LEN, np.int64),
        journal=np.zeros(MAX_MOVES * JOURNAL_PER_PLAY, np.int32),
        journal_value=np.zeros(MAX_MOVES * JOURNAL_PER_PLAY, np.int32),
        journal_start=np.zeros(MAX_MOVES + 1, np.int32),
        saved_counts=np.zeros((MAX_MOVES, 2, COUNTS_LEN), np.int32),
    )
    board.info[I_SIZE] = size
    board.info[I_WIDTH] = width
    board.info[I_RENJU] = 1 if rule is Rule.RENJU else 0
    board.info[I_RULE] = RULE_CODES[rule]
    _initialise(board)
    return board


#: Entries of a short table (the eight points within four steps).
SHORT_COUNT = 3 ** (2 * REACH - 2)


def pattern_table_for(rule: Rule) -> npt.NDArray[np.int8]:
    """The board's lookup table: ``pattern_table_for(rule)[player, base-3 key]``.

    When no code of the rule depends on the points five steps away (freestyle: an
    overline is a five, so only the eight points within four steps count), the
    *short* table of those eight points: 2 x 6,561 bytes, which stays in the
    processor's fastest cache, and ``play``/``undo`` skip the cells five steps away.
    ``POWERS`` gives each table's digit weights.
    """
    full = pt.ternary_tables(rule)
    # Key = slot 0 (five steps back) + 3 * (the eight inner slots) + 3**9 * slot 9.
    by_slot = full.reshape(2, 3, SHORT_COUNT, 3)
    if (by_slot == by_slot[:, :1, :, :1]).all():
        return np.ascontiguousarray(by_slot[:, 0, :, 0])
    return full


def to_cell(board: Board, point: int) -> int:
    """The engine cell of a game point ``y * size + x``."""
    size = int(board.info[I_SIZE])
    width = int(board.info[I_WIDTH])
    return (point // size + REACH) * width + point % size + REACH


def to_point(board: Board, cell: int) -> int:
    size = int(board.info[I_SIZE])
    width = int(board.info[I_WIDTH])
    return (cell // width - REACH) * size + cell % width - REACH


def load(board: Board, state: Gomoku) -> None:
    """Make ``board`` hold ``state``'s stones (each in its own colour) and side to move.

    Stones are placed in the order of ``state.moves``, which need not alternate
    colours (a puzzle's set-up), then any stone not listed there.
    """
    while board.info[I_PLY] > 0:
        undo(board)
    listed = set(state.moves)
    order = [*state.moves, *(p for p, s in enumerate(state.board) if s and p not in listed)]
    for point in order:
        board.info[I_TO_MOVE] = state.board[point] - 1
        play(board, to_cell(board, point))
    board.info[I_TO_MOVE] = state.to_move


#: ``POWERS[short, slot]``: the weight of a point's digit in a base-3 key, for a full
#: table (row 0) and a short one (row 1: the points five steps away weigh nothing).
POWERS = np.array(
    [[3**j for j in range(2 * REACH)], [0, *(3**j for j in range(2 * REACH - 2)), 0]],
    np.int64,
)


@njit(cache=True, nogil=True, _nrt=False)
def _is_short(table: npt.NDArray[np.int8]) -> int:
    """1 if ``table`` is a short table (see ``pattern_table_for``), else 0."""
    return 1 if table.shape[1] == SHORT_COUNT else 0


@njit(cache=True, nogil=True, _nrt=False)
def _slot(k: int) -> int:
    """The key slot of the point ``k`` steps along a line (k in -5..-1, 1..5)."""
    return k + REACH if k < 0 else k + REACH - 1


@njit(cache=True, nogil=True, _nrt=False)
def _initialise(board: Board) -> None:
    size = board.info[I_SIZE]
    width = board.info[I_WIDTH]
    for y in range(size):
        for x in range(size):
            board.cells[(y + REACH) * width + x + REACH] = EMPTY
    count = board.cells.shape[0]
    short = _is_short(board.table)
    for cell in range(count):
        if board.cells[cell] != EMPTY:
            continue
        for d in range(4):
            off = board.offsets[d]
            key = 0
            for k in range(-REACH, REACH + 1):
                if k == 0:
                    continue
                if board.cells[cell + k * off] == WALL:
                    key += pt.T_BLOCKED * POWERS[short, _slot(k)]
            for p in range(2):
                board.keys[p, d, cell] = key
                code = board.table[p, key]
                board.pattern[p, d, cell] = code
                _code_in(board, p, code, cell)
        for p in range(2):
            board.cell_value[p, cell] = _cell_value(board.pattern, p, cell)
            key = 0
            for d in range(4):
                key += SHAPE_KEY_STEP[board.pattern[p, d, cell]]
            board.keys[p, SHAPE_ROW, cell] = key
            board.counts[p, SHAPE_COLUMN[key]] += 1


@njit(_CELL_VALUE_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _cell_value(pattern: npt.NDArray[np.int8], player: int, cell: int) -> int:
    """How good playing ``cell`` is for ``player``: pattern weights plus combinations."""
    total = 0
    fours = 0
    threes = 0
    for d in range(4):
        code = pattern[player, d, cell]
        if code == pt.F5:
            return CELL_FIVE
        if code == pt.F4:
            total += CELL_STRAIGHT_FOUR
        elif code == pt.D4:
            fours += 2
        elif code == pt.B4:
            fours += 1
        elif code == pt.F3:
            threes += 1
        total += ORDER_WEIGHTS[code]
    if fours >= 2:
        total += CELL_DOUBLE_FOUR
    elif fours == 1 and threes >= 1:
        total += CELL_FOUR_THREE
    elif threes >= 2:
        total += CELL_DOUBLE_THREE
    return total


#: The row of ``Board.keys`` that holds each cell's shape key (``keys[player, 4, cell]``;
#: rows 0-3 are the line keys). A row of an array the kernels already take, not an array
#: of its own: every ``Board`` field is passed along on each call.
SHAPE_ROW = 4
#: What each code adds to a cell's shape key: the key counts the cell's lines with an
#: ``F2``, a ``B3``, an ``F3``, a ``B4``, and a straight or double four or a five, as
#: the digits of a base-5 number (a cell has four lines). Play and undo add the
#: difference when a line's code changes, and ``SHAPE_COLUMN`` (small enough to stay in
#: the processor's fastest cache) maps the key to the cell's column of
#: ``Board.counts``: one lookup, not four lines read.
SHAPE_KEY_STEP = np.zeros(pt.CODE_COUNT, np.int32)
SHAPE_KEY_STEP[pt.F2] = 1
SHAPE_KEY_STEP[pt.B3] = 5
SHAPE_KEY_STEP[pt.F3] = 5**2
SHAPE_KEY_STEP[pt.B4] = 5**3
SHAPE_KEY_STEP[pt.F4] = SHAPE_KEY_STEP[pt.D4] = SHAPE_KEY_STEP[pt.F5] = 5**4


def shape_of(key: int) -> int:
    """The shape (``patterns.SHAPE_*``) of a cell whose shape key is ``key``."""
    twos, blocked_threes, threes, fours, more = ((key // 5**i) % 5 for i in range(5))
    builders = blocked_threes + twos
    if more or fours >= 2 or threes >= 2 or (fours and threes):
        return pt.SHAPE_NONE  # a five, a straight four or a combination that wins by force
    if fours:
        return pt.SHAPE_FOUR_PLUS if builders else pt.SHAPE_NONE
    if threes:
        return pt.SHAPE_THREE_PLUS if builders else pt.SHAPE_NONE
    if blocked_threes and builders >= 2:
        return pt.SHAPE_BLOCK3_PLUS
    return pt.SHAPE_DOUBLE_TWO if twos >= 2 else pt.SHAPE_NONE


#: ``Board.counts``'s column of a cell with each shape key.
SHAPE_COLUMN = np.array(
    [pt.CODE_COUNT + (pt.SHAPE_COUNT if shape == pt.SHAPE_NONE else shape) for shape in
     map(shape_of, range(5**5))],
    np.int32,
)  # fmt: skip


# Kernels are compiled with ``_nrt=False`` (no reference counting) unless they
# allocate: every array they touch belongs to a ``Board`` or ``Tables`` the Python
# caller holds for the whole call, and numba otherwise counts a reference to each
# array passed to a call, two atomic operations per array (34 per ``Board``) at
# every play, undo and node: a third of the search's time. Hot helpers still take
# the arrays they touch rather than the whole ``Board`` (fewer arguments to pass).


@njit(_SET_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _set_add(cells: npt.NDArray[np.int32], pos: npt.NDArray[np.int32], size: int, cell: int) -> int:
    """Append ``cell`` to the indexed set (``cells[:size]``, ``pos``); the new size."""
    cells[size] = cell
    pos[cell] = size
    return size + 1


@njit(_SET_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _set_remove(
    cells: npt.NDArray[np.int32], pos: npt.NDArray[np.int32], size: int, cell: int
) -> int:
    """Remove ``cell`` from the indexed set (the last entry takes its place); the new size."""
    index = pos[cell]
    last = cells[size - 1]
    cells[index] = last
    pos[last] = index
    pos[cell] = -1
    return size - 1


@njit(_THREAT_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _threat_change(
    threat_dirs: npt.NDArray[np.int8],
    threat_cells: npt.NDArray[np.int32],
    threat_pos: npt.NDArray[np.int32],
    threat_size: npt.NDArray[np.int64],
    player: int,
    kind: int,
    cell: int,
    delta: int,
) -> None:
    """One direction of ``cell`` gains (delta 1) or loses (-1) a code of threat ``kind``."""
    dirs = threat_dirs[player, kind, cell] + delta
    threat_dirs[player, kind, cell] = dirs
    size = threat_size[player, kind]
    if delta > 0 and dirs == 1:
        threat_cells[player, kind, size] = cell
        threat_pos[player, kind, cell] = size
        threat_size[player, kind] = size + 1
    elif delta < 0 and dirs == 0:
        index = threat_pos[player, kind, cell]
        last = threat_cells[player, kind, size - 1]
        threat_cells[player, kind, index] = last
        threat_pos[player, kind, last] = index
        threat_pos[player, kind, cell] = -1
        threat_size[player, kind] = size - 1


@njit(cache=True, nogil=True, _nrt=False)
def _code_in(board: Board, player: int, code: int, cell: int) -> None:
    """Count ``player``'s ``code`` at empty ``cell`` (one direction); set-up only (slow)."""
    board.counts[player, code] += 1
    kind = CODE_THREAT[code]
    if kind >= 0:
        _threat_change(
            board.threat_dirs,
            board.threat_cells,
            board.threat_pos,
            board.threat_size,
            player,
            kind,
            cell,
            1,
        )


@njit(cache=True, nogil=True, _nrt=False)
def _code_change(
    threat_dirs: npt.NDArray[np.int8],
    threat_cells: npt.NDArray[np.int32],
    threat_pos: npt.NDArray[np.int32],
    threat_size: npt.NDArray[np.int64],
    player: int,
    cell: int,
    old: int,
    new: int,
) -> None:
    """The threat sets' side of one direction's code at ``cell`` going from ``old`` to
    ``new``: out of the old code's threat kind, into the new one's."""
    old_kind = CODE_THREAT[old]
    new_kind = CODE_THREAT[new]
    if old_kind != new_kind:
        if old_kind >= 0:
            _threat_change(
                threat_dirs, threat_cells, threat_pos, threat_size, player, old_kind, cell, -1
            )
        if new_kind >= 0:
            _threat_change(
                threat_dirs, threat_cells, threat_pos, threat_size, player, new_kind, cell, 1
            )


#: A journal entry packs the cell, direction, player and the code before the change.
_CODE_BITS = 4
assert pt.CODE_COUNT <= 1 << _CODE_BITS


@njit(cache=True, nogil=True, _nrt=False)
def journal_entry(cell: int, direction: int, player: int, code: int) -> int:
    """One journal entry: ``player``'s code in ``direction`` at ``cell`` was ``code``."""
    return (((cell << 2) | direction) << 1 | player) << _CODE_BITS | code


@njit(cache=True, nogil=True, _nrt=False)
def journal_fields(entry: int) -> tuple[int, int, int, int]:
    """(cell, direction, player, code) of a journal entry."""
    code = entry & ((1 << _CODE_BITS) - 1)
    entry >>= _CODE_BITS
    return entry >> 3, (entry >> 1) & 3, entry & 1, code


def _line_updater(full: bool) -> Any:
    """The kernel that adds a stone to the cells it sees; with ``full`` False (for
    ``play_threat``) it leaves the counts and cell values alone. One compiled copy
    each (``full`` is a constant of the closure, part of numba's cache key), named
    apart (``kernel_cache.named_variant``)."""
    variant = "cells" if full else "threats"

    @njit(_UPDATE_SIGNATURE, cache=True, nogil=True, _nrt=False)
    @kernel_cache.named_variant(variant)
    def update(
        cells: npt.NDArray[np.int8],
        keys: npt.NDArray[np.int32],
        pattern: npt.NDArray[np.int8],
        table: npt.NDArray[np.int8],
        counts: npt.NDArray[np.int32],
        cell_value: npt.NDArray[np.int32],
        threat_dirs: npt.NDArray[np.int8],
        threat_cells: npt.NDArray[np.int32],
        threat_pos: npt.NDArray[np.int32],
        threat_size: npt.NDArray[np.int64],
        offsets: npt.NDArray[np.int64],
        journal: npt.NDArray[np.int32],
        journal_value: npt.NDArray[np.int32],
        entry: int,
        cell: int,
        colour: int,
    ) -> int:
        """Add ``colour`` at ``cell`` to its neighbours' keys, and with them update the
        codes, threat sets and (``full``) counts and cell values of the empty ones.
        Each code changed is written to ``journal`` from index ``entry`` on (with the
        cell's value before it, ``full``), in the order ``revert`` replays them;
        returns the index after the last.

        The board's arrays, not the ``Board`` (see above)."""
        short = _is_short(table)
        reach = REACH - short  # a short table's codes ignore the points five steps away
        for d in range(4):
            off = offsets[d]
            for k in range(1, reach + 1):
                for side in (-1, 1):
                    other = cell + side * k * off
                    if cells[other] == WALL:
                        continue
                    # ``cell`` lies -side*k steps from ``other``: own for the stone's
                    # player, blocked for the other.
                    power = POWERS[short, _slot(-side * k)]
                    keys[colour - 1, d, other] += power
                    keys[2 - colour, d, other] += 2 * power
                    if cells[other] != EMPTY:
                        continue
                    for p in range(2):
                        old = pattern[p, d, other]
                        new = table[p, keys[p, d, other]]
                        if old == new:
                            continue
                        pattern[p, d, other] = new
                        journal[entry] = journal_entry(other, d, p, old)
                        if full:
                            journal_value[entry] = cell_value[p, other]
                        entry += 1
                        _code_change(
                            threat_dirs, threat_cells, threat_pos, threat_size, p, other, old, new
                        )
                        if not full:
                            continue
                        counts[p, old] -= 1
                        counts[p, new] += 1
                        # The cell's shape, moved between columns without a branch.
                        old_key = keys[p, SHAPE_ROW, other]
                        new_key = old_key + SHAPE_KEY_STEP[new] - SHAPE_KEY_STEP[old]
                        keys[p, SHAPE_ROW, other] = new_key
                        counts[p, SHAPE_COLUMN[old_key]] -= 1
                        counts[p, SHAPE_COLUMN[new_key]] += 1
                        if old < pt.F3 and new < pt.F3 and threat_dirs[p, T_FIVE, other] == 0:
                            # No combination bonus changes: the weights' difference is exact.
                            cell_value[p, other] += ORDER_WEIGHTS[new] - ORDER_WEIGHTS[old]
                        else:
                            cell_value[p, other] = _cell_value(pattern, p, other)
        return entry

    @njit(_REVERT_SIGNATURE, cache=True, nogil=True, _nrt=False)
    @kernel_cache.named_variant(variant)
    def revert(
        cells: npt.NDArray[np.int8],
        keys: npt.NDArray[np.int32],
        pattern: npt.NDArray[np.int8],
        table: npt.NDArray[np.int8],
        cell_value: npt.NDArray[np.int32],
        threat_dirs: npt.NDArray[np.int8],
        threat_cells: npt.NDArray[np.int32],
        threat_pos: npt.NDArray[np.int32],
        threat_size: npt.NDArray[np.int64],
        offsets: npt.NDArray[np.int64],
        journal: npt.NDArray[np.int32],
        journal_value: npt.NDArray[np.int32],
        first: int,
        end: int,
        cell: int,
        colour: int,
    ) -> None:
        """Take ``colour`` at ``cell`` out of its neighbours' keys and restore the codes
        (and with ``full`` the shape keys and cell values) its play changed, read from
        ``journal[first:end]``: no table lookups. The threat sets change in the same
        order as the play's own updates would undo them, so they end as a recomputing
        undo leaves them. (The counts come back from ``saved_counts``.)"""
        short = _is_short(table)
        reach = REACH - short
        for d in range(4):
            off = offsets[d]
            for k in range(1, reach + 1):
                for side in (-1, 1):
                    other = cell + side * k * off
                    if cells[other] == WALL:
                        continue
                    power = POWERS[short, _slot(-side * k)]
                    keys[colour - 1, d, other] -= power
                    keys[2 - colour, d, other] -= 2 * power
        for i in range(first, end):
            other, d, p, old = journal_fields(journal[i])
            new = pattern[p, d, other]
            pattern[p, d, other] = old
            _code_change(threat_dirs, threat_cells, threat_pos, threat_size, p, other, new, old)
            if full:
                keys[p, SHAPE_ROW, other] += SHAPE_KEY_STEP[old] - SHAPE_KEY_STEP[new]
        if full:
            # Backwards: a cell changed in several directions gets its first value back.
            for i in range(end - 1, first - 1, -1):
                other, d, p, old = journal_fields(journal[i])
                cell_value[p, other] = journal_value[i]

    return update, revert


_update_line_cells, _revert_line_cells = _line_updater(True)
_update_line_threats, _revert_line_threats = _line_updater(False)


@njit(_COUNT_CELL_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _count_cell(
    pattern: npt.NDArray[np.int8],
    counts: npt.NDArray[np.int32],
    keys: npt.NDArray[np.int32],
    threat_dirs: npt.NDArray[np.int8],
    threat_cells: npt.NDArray[np.int32],
    threat_pos: npt.NDArray[np.int32],
    threat_size: npt.NDArray[np.int64],
    cell: int,
    sign: int,
    full: int,
) -> None:
    """Add (sign 1) or remove (-1) ``cell``'s own pattern codes from the threat sets
    and (``full`` 1) its codes and shape from the counts. (An occupied cell's codes
    and shape stay as they were: they count again when its stone is taken back.)"""
    for p in range(2):
        if full != 0:
            counts[p, SHAPE_COLUMN[keys[p, SHAPE_ROW, cell]]] += sign
        for d in range(4):
            code = pattern[p, d, cell]
            if full != 0:
                counts[p, code] += sign
            kind = CODE_THREAT[code]
            if kind >= 0:
                _threat_change(
                    threat_dirs, threat_cells, threat_pos, threat_size, p, kind, cell, sign
                )


@njit(_NEAR_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _update_near(
    near: npt.NDArray[np.int16],
    cells: npt.NDArray[np.int8],
    cand: npt.NDArray[np.int32],
    cand_pos: npt.NDArray[np.int32],
    info: npt.NDArray[np.int64],
    cell: int,
    sign: int,
) -> None:
    """Change the near counts around ``cell`` by ``sign``, keeping the candidate set.

    Call with sign 1 after the stone is on ``cell`` and with -1 before it is lifted.
    """
    width = info[I_WIDTH]
    size = info[I_CAND_SIZE]
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            other = cell + dy * width + dx
            near[other] += sign
            if cells[other] != EMPTY:
                continue
            if sign > 0 and near[other] == 1:
                size = _set_add(cand, cand_pos, size, other)
            elif sign < 0 and near[other] == 0:
                size = _set_remove(cand, cand_pos, size, other)
    info[I_CAND_SIZE] = size


def _play_kernels(full: bool) -> tuple[Any, Any]:
    """``play`` and ``undo`` (``full``), or ``play_threat`` and ``undo_threat``: one
    compiled copy each (``full`` is a constant of the closure, part of numba's cache
    key; named apart, ``kernel_cache.named_variant``), so a play calls its line
    updater directly."""
    variant = "full" if full else "threat"

    @njit(_PLAY_SIGNATURE, cache=True, nogil=True, _nrt=False)
    @kernel_cache.named_variant(variant)
    def play_kernel(board: Board, cell: int) -> None:
        player = board.info[I_TO_MOVE]
        colour = player + 1
        ply = board.info[I_PLY]
        if full:
            saved = board.saved_counts[ply]
            for p in range(2):
                for column in range(COUNTS_LEN):
                    saved[p, column] = board.counts[p, column]
        _count_cell(
            board.pattern, board.counts, board.keys, board.threat_dirs, board.threat_cells,
            board.threat_pos, board.threat_size, cell, -1, 1 if full else 0,
        )  # fmt: skip
        if board.cand_pos[cell] >= 0:
            board.info[I_CAND_SIZE] = _set_remove(
                board.cand, board.cand_pos, board.info[I_CAND_SIZE], cell
            )
        board.cells[cell] = colour
        first = board.journal_start[ply]
        if full:
            end = _update_line_cells(
                board.cells, board.keys, board.pattern, board.table, board.counts,
                board.cell_value, board.threat_dirs, board.threat_cells,
                board.threat_pos, board.threat_size, board.offsets, board.journal,
                board.journal_value, first, cell, colour,
            )  # fmt: skip
        else:
            end = _update_line_threats(
                board.cells, board.keys, board.pattern, board.table, board.counts,
                board.cell_value, board.threat_dirs, board.threat_cells,
                board.threat_pos, board.threat_size, board.offsets, board.journal,
                board.journal_value, first, cell, colour,
            )  # fmt: skip
        board.journal_start[ply + 1] = end
        _update_near(board.near, board.cells, board.cand, board.cand_pos, board.info, cell, 1)
        board.info[I_HASH] ^= board.zobrist[player, cell]
        board.stack[ply] = cell
        board.info[I_PLY] = ply + 1
        board.info[I_TO_MOVE] = 1 - player

    @njit(_UNDO_SIGNATURE, cache=True, nogil=True, _nrt=False)
    @kernel_cache.named_variant(variant)
    def undo_kernel(board: Board) -> int:
        ply = board.info[I_PLY] - 1
        board.info[I_PLY] = ply
        cell = board.stack[ply]
        colour = int(board.cells[cell])  # not from the turn: set-ups need not alternate
        player = colour - 1
        board.info[I_TO_MOVE] = player
        board.info[I_HASH] ^= board.zobrist[player, cell]
        _update_near(board.near, board.cells, board.cand, board.cand_pos, board.info, cell, -1)
        board.cells[cell] = EMPTY
        if board.near[cell] > 0:
            board.info[I_CAND_SIZE] = _set_add(
                board.cand, board.cand_pos, board.info[I_CAND_SIZE], cell
            )
        first = board.journal_start[ply]
        end = board.journal_start[ply + 1]
        if full:
            _revert_line_cells(
                board.cells, board.keys, board.pattern, board.table, board.cell_value,
                board.threat_dirs, board.threat_cells, board.threat_pos, board.threat_size,
                board.offsets, board.journal, board.journal_value, first, end, cell, colour,
            )  # fmt: skip
        else:
            _revert_line_threats(
                board.cells, board.keys, board.pattern, board.table, board.cell_value,
                board.threat_dirs, board.threat_cells, board.threat_pos, board.threat_size,
                board.offsets, board.journal, board.journal_value, first, end, cell, colour,
            )  # fmt: skip
        # The cell's own codes go back into the threat sets; the counts come back whole.
        _count_cell(
            board.pattern, board.counts, board.keys, board.threat_dirs, board.threat_cells,
            board.threat_pos, board.threat_size, cell, 1, 0,
        )  # fmt: skip
        if full:
            saved = board.saved_counts[ply]
            for p in range(2):
                for column in range(COUNTS_LEN):
                    board.counts[p, column] = saved[p, column]
        return int(cell)

    return play_kernel, undo_kernel


#: ``play(board, cell)``: put the side to move's stone on empty ``cell`` and pass the
#: turn (no legality check); ``undo(board)``: take back the last stone, return its cell.
play, undo = _play_kernels(True)
#: ``play``/``undo`` for the VCF: the pattern counts and cell values are left as they
#: were (stale until ``undo_threat``; a third of a play's work), everything else is
#: kept, the threat and candidate sets in the same order as ``play`` leaves them. Only
#: ``undo_threat`` takes the stone back, and only other ``play_threat`` pairs may come
#: between (a ``play`` would update the stale values). After ``undo_threat`` the board
#: is exactly as ``undo`` would leave it.
play_threat, undo_threat = _play_kernels(False)


@njit(cache=True, nogil=True, _nrt=False)
def has_code(board: Board, player: int, cell: int, low: int, high: int) -> bool:
    """Whether some direction's code at ``cell`` for ``player`` lies in [low, high]."""
    for d in range(4):
        code = board.pattern[player, d, cell]
        if low <= code <= high:
            return True
    return False
