# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""Threat-aware alpha-beta and the VCF/VCT solvers, as numba kernels over a ``Board``.

Scores follow ``abgames.search.score``: the side to move's view, a win whose
winning stone is the n-th move from the root scores ``WIN - n``.

- ``evaluate``: pattern counts of both sides (attack weights for the side to
  move, defence weights for the other), read from the board's incremental counts.
- ``generate``: candidate moves. A five is played at once; an opponent's four must
  be blocked (only that point); against an open three only fours and the points that
  stop it are tried; otherwise the best ``beam`` points near stones by attack +
  defence value. In Renju black's forbidden points are left out.
- ``negamax``: principal-variation search with a transposition table, killer and
  history ordering, forced-block extension, late-move reductions of quiet moves
  (optionally), static wins read off the threat sets (``_static_win``; Renju black's
  played out against the forbidden rule) and a short VCF at the leaves whose
  evaluation is below beta (optionally).
- ``vcf`` / ``vct``: victory by continuous fours (threes too for VCT), depth counted
  in attacker moves including the final five; failures are remembered in a table.
  In ``vct`` the defender answers a three at every point where the attacker would
  make a four and with its own fours (blocked, then it answers again); its own VCF
  refutes the three.

The stop flag ``tables.stop[0]`` is read every ``CHECK_INTERVAL`` nodes, so another
thread (the time keeper, or ``stop()``) can end a search; the result is then
flagged aborted and must be ignored.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, typeof, types

from abgames.ai import kernel_cache
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.board import (
    BOARD_TYPE,
    I_CAND_SIZE,
    I_HASH,
    I_PLY,
    I_RENJU,
    I_SIZE,
    I_TO_MOVE,
    I_WIDTH,
    NOT_FORBIDDEN,
    SHAPE_KEY_STEP,
    SHAPE_ROW,
    T_FIVE,
    T_FOUR,
    T_THREE,
    Board,
    _cell_value,
    forbidden,
    play,
    play_threat,
    undo,
    undo_threat,
)
from abgames.ai.gomoku.weights import (
    COMBO_DOUBLE_FOUR,
    COMBO_DOUBLE_THREE,
    COMBO_FOUR_THREE,
    DEFENCE_ORDER_PERCENT,
    EVAL_ATTACK,
    EVAL_ATTACK_COMBO,
    EVAL_ATTACK_SHAPE,
    EVAL_COMBO_ON,
    EVAL_DEFENCE,
    EVAL_DEFENCE_COMBO,
    EVAL_DEFENCE_SHAPE,
    EVAL_LIMIT,
    EVAL_TEMPO,
    EVAL_WEIGHTS,
)
from abgames.search.score import WIN, WIN_THRESHOLD

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

MAX_PLY = 256
MAX_MOVES = 512
CHECK_INTERVAL = 1023  # a mask: look at the stop flag every 1024 nodes
TT_BITS = 20
VCF_TT_BITS = 20

EXACT = 0
LOWER = 1
UPPER = 2

# Indexes into ``Tables.stats``.
S_NODES = 0
S_TT_HITS = 1
S_CUTOFFS = 2
S_ABORTED = 3
S_VCF_NODES = 4
S_VCF_LIMIT = 5
S_VCF_EXHAUSTED = 6
S_SELDEPTH = 7
S_VCF_SPAN = 8  # set by a VCF's caller: ``C_LEAF_VCF_SPAN`` at the leaves, 0 elsewhere
S_VCF_ROOT = 9  # the ply a VCF started at (its first four is not restricted)
STATS_LEN = 10

# Indexes into ``Tables.config``.
C_BEAM = 0  # candidates kept at an ordinary node (0: all)
C_THREATS = 1  # 1: forced replies restrict the moves (four, open three)
C_LEAF_VCF = 2  # VCF depth tried at the leaves (0: none)
C_LEAF_VCF_NODES = 3  # node budget of one leaf VCF
C_LMR = 4  # 1: late-move reductions of quiet moves
C_FOUR_EXTENSION = 5  # plies the block of a four gains back (0, 1, 2: the pair is free)
C_THREE_EXTENSION = 6  # plies a plain answer to an open three gains back (0, 1, 2)
C_EXTENSION_LIMIT = 7  # free pairs (gains of 2) allowed on one path
C_FUTILITY_DEPTH = 8  # null-window nodes shallower than this may stand on the evaluation
C_FUTILITY_MARGIN = 9  # per ply of depth: how far above beta the evaluation must be
C_RAZOR_DEPTH = 10  # null-window nodes shallower than this may fail low on the evaluation
C_RAZOR_MARGIN = 11  # per ply of depth: how far below alpha the evaluation must be
C_LMR_MIN_DEPTH = 12  # late-move reductions at nodes of at least this depth
C_LMR_AFTER = 13  # moves searched in full before reductions start
C_LMR_DEEP_AFTER = 14  # moves searched at most one ply shallower before deep reductions
C_STATIC_WINS = 15  # 1: a node whose side to move has a shape that wins by force scores it
C_FRONTIER_BEAM = 16  # candidates kept at a null-window frontier node (0: as C_BEAM)
C_LEAF_VCF_SPAN = 17  # a leaf VCF's later fours: at most this far along a line of the last (0: any)
C_FRONTIER_NEAR_BEAM = 18  # there, moves near the opponent's last kept up to this many (0: none)
C_FRONTIER_DEPTH = 19  # frontier nodes: null-window nodes of at most this depth
C_KEEP_THREATS = 20  # moves past the beam kept when they build a threat for either side
CONFIG_LEN = 21

# Late-move reductions: at a node of at least ``C_LMR_MIN_DEPTH`` plies, a quiet move
# (it makes no four or three of its own and takes no point where the opponent would
# make a four) after the first ``C_LMR_AFTER`` is searched ``LMR_REDUCTION`` plies
# shallower with a null window, after the first ``C_LMR_DEEP_AFTER`` (at depth
# ``LMR_DEEP_MIN_DEPTH`` and more) ``LMR_DEEP_REDUCTION`` plies; a move that then beats
# alpha is searched again to the full depth.
LMR_REDUCTION = 1
LMR_DEEP_MIN_DEPTH = 5
LMR_DEEP_REDUCTION = 2
#: ``_near``: the square and the line reach of a move near another (Rapfi 2018's).
NEAR_SQUARE = 2
NEAR_LINE = 4

#: Salts of the solvers' failure table (``_vcf_seen``): the VCT's, a leaf VCF's with a
#: span, and the multiplier of the last four that also keys such a VCF below its root.
_VCT_SALT = 0x5A5A_1234_0F0F_77
_SPAN_SALT = 0x3C3C_5678_1E1E_55
_LAST_FOUR_SALT = 0x9E37_79B9_7F4A_7C15 >> 12
#: VCF depth of the defender's own win tried against a three in ``vct``.
DEFENDER_VCF_DEPTH = 6
#: A VCF without a span tries first the fours on a line through the attacker's last
#: stone at most this far from it (the rest follow, in their order); a root VCF first
#: searches with this span, within a share of its budget (``run_solver``).
VCF_NEAR_SPAN = 4
VCF_NEAR_BUDGET_SHARE = 8
#: A VCF without a span orders the attacker's fours by its value of the point times
#: this, plus the defender's (among equals, a four that also takes a point the
#: defender builds on comes first); with a span, by the attacker's value alone.
VCF_ATTACK_SCALE = 4


class Tables(NamedTuple):
    """The search's memory: transposition tables, ordering tables, buffers, flags."""

    tt_key: npt.NDArray[np.int64]
    tt_score: npt.NDArray[np.int32]
    tt_depth: npt.NDArray[np.int16]
    tt_flag: npt.NDArray[np.int8]
    tt_move: npt.NDArray[np.int32]
    vcf_key: npt.NDArray[np.int64]
    vcf_depth: npt.NDArray[np.int16]
    killers: npt.NDArray[np.int32]  # [ply, 2]
    history: npt.NDArray[np.int64]  # [player, cell]
    moves: npt.NDArray[np.int32]  # [ply, MAX_MOVES] move lists
    order: npt.NDArray[np.int64]  # [ply, MAX_MOVES] their ordering keys
    pv: npt.NDArray[np.int32]  # [ply, MAX_PLY] triangular principal variations
    pv_length: npt.NDArray[np.int32]
    stop: npt.NDArray[np.int64]  # [1], set non-zero from any thread to stop
    stats: npt.NDArray[np.int64]
    config: npt.NDArray[np.int64]
    weights: npt.NDArray[np.int64]  # the evaluation's weights (``weights.EVAL_NAMES``)
    free_pairs: npt.NDArray[np.int32]  # [ply] free pairs on the path to the node at ply


def new_tables(cells: int, tt_bits: int = TT_BITS) -> Tables:
    """Fresh tables for a board of ``cells`` engine cells."""
    size = 1 << tt_bits
    return Tables(
        tt_key=np.zeros(size, np.int64),
        tt_score=np.zeros(size, np.int32),
        tt_depth=np.full(size, -1, np.int16),
        tt_flag=np.zeros(size, np.int8),
        tt_move=np.full(size, -1, np.int32),
        vcf_key=np.zeros(1 << VCF_TT_BITS, np.int64),
        vcf_depth=np.zeros(1 << VCF_TT_BITS, np.int16),
        killers=np.full((MAX_PLY, 2), -1, np.int32),
        history=np.zeros((2, cells), np.int64),
        moves=np.zeros((MAX_PLY + 1, MAX_MOVES), np.int32),
        order=np.zeros((MAX_PLY + 1, MAX_MOVES), np.int64),
        pv=np.zeros((MAX_PLY + 1, MAX_PLY + 1), np.int32),
        pv_length=np.zeros(MAX_PLY + 1, np.int32),
        stop=np.zeros(1, np.int64),
        stats=np.zeros(STATS_LEN, np.int64),
        config=np.zeros(CONFIG_LEN, np.int64),
        weights=EVAL_WEIGHTS.copy(),
        free_pairs=np.zeros(MAX_PLY + 2, np.int32),
    )


TABLES_TYPE = typeof(new_tables(1, tt_bits=1))
_SOLVER_SIGNATURE = types.int64(BOARD_TYPE, TABLES_TYPE, types.int64, types.int64)
# One compiled copy each (see board.py): cells and plies arrive as int32 or literals.
_I64 = types.int64
_GENERATE_SIGNATURE = _I64(BOARD_TYPE, TABLES_TYPE, _I64)
_VCF_SEEN_SIGNATURE = types.boolean(
    types.int64[::1], types.int64[::1], types.int16[::1], _I64, _I64
)
_VCF_STORE_SIGNATURE = types.void(
    types.int64[::1], types.int64[::1], types.int64[::1], types.int16[::1], _I64, _I64
)
_IS_FOUR_SIGNATURE = types.boolean(BOARD_TYPE, _I64, _I64)
_SORT_SIGNATURE = types.void(types.int32[:, ::1], _I64, types.int32[:], _I64)
_SET_PV_SIGNATURE = types.void(TABLES_TYPE, _I64, _I64)
_VCT_NODE_SIGNATURE = types.int64(BOARD_TYPE, TABLES_TYPE, _I64, _I64, _I64)
_NEGAMAX_SIGNATURE = types.int64(
    BOARD_TYPE, TABLES_TYPE, types.int64, types.int64, types.int64, types.int64
)


# --- evaluation -------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _combo_score(board: Board, player: int, weights: npt.NDArray[np.int64], base: int) -> int:
    """``player``'s combination cells (double four, four-three, double three) weighted
    from ``weights[base:]``. Read off the threat sets: cells with a four-making
    direction, then cells with two three-making ones. Renju black's double fours and
    double threes are forbidden points, so they count for nothing."""
    renju_black = player == 0 and board.info[I_RENJU] != 0
    threat_dirs = board.threat_dirs
    score = 0
    cells = board.threat_cells[player, T_FOUR]
    for i in range(board.threat_size[player, T_FOUR]):
        cell = cells[i]
        fours = threat_dirs[player, T_FOUR, cell]
        if fours >= 2 or _has_code(board, player, cell, pt.D4):
            if not renju_black:
                score += weights[base + COMBO_DOUBLE_FOUR]
        elif threat_dirs[player, T_THREE, cell] > 0:
            score += weights[base + COMBO_FOUR_THREE]
    if not renju_black:
        cells = board.threat_cells[player, T_THREE]
        for i in range(board.threat_size[player, T_THREE]):
            cell = cells[i]
            if threat_dirs[player, T_THREE, cell] >= 2 and threat_dirs[player, T_FOUR, cell] == 0:
                score += weights[base + COMBO_DOUBLE_THREE]
    return score


@njit(cache=True, nogil=True)
def _has_code(board: Board, player: int, cell: int, code: int) -> bool:
    """Whether some direction of ``cell`` has pattern ``code`` for ``player``."""
    for d in range(4):  # noqa: SIM110 - a plain loop: numba compiles no generator for any()
        if board.pattern[player, d, cell] == code:
            return True
    return False


@njit(cache=True, nogil=True)
def evaluate(board: Board, weights: npt.NDArray[np.int64]) -> int:
    """A heuristic score for the side to move: both sides' pattern counts and cell
    shapes (attack weights for the side to move, defence weights for the other),
    combination cells and the move in hand, weighted by ``weights`` (laid out as
    ``weights.EVAL_NAMES``)."""
    me = board.info[I_TO_MOVE]
    other = 1 - me
    score = 0
    for code in range(pt.CODE_COUNT):
        score += weights[EVAL_ATTACK + code] * board.counts[me, code]
        score -= weights[EVAL_DEFENCE + code] * board.counts[other, code]
    for shape in range(pt.SHAPE_COUNT):
        column = pt.CODE_COUNT + shape
        score += weights[EVAL_ATTACK_SHAPE + shape] * board.counts[me, column]
        score -= weights[EVAL_DEFENCE_SHAPE + shape] * board.counts[other, column]
    score += weights[EVAL_TEMPO]
    if weights[EVAL_COMBO_ON] != 0:
        score += _combo_score(board, me, weights, EVAL_ATTACK_COMBO)
        score -= _combo_score(board, other, weights, EVAL_DEFENCE_COMBO)
    return max(-EVAL_LIMIT, min(EVAL_LIMIT, score))


@njit(cache=True, nogil=True, _nrt=False)
def _allowed(board: Board, player: int, cell: int) -> bool:
    """Whether ``player`` may play empty ``cell`` (only Renju black has forbidden points)."""
    if player != 0 or board.info[I_RENJU] == 0:
        return True
    return forbidden(board, cell) == NOT_FORBIDDEN


@njit(cache=True, nogil=True, _nrt=False)
def _five_cells(board: Board, player: int, out: npt.NDArray[np.int32]) -> int:
    """The distinct empty cells where ``player`` completes a five (at most ``len(out)`` kept)."""
    count = int(board.threat_size[player, T_FIVE])
    cells = board.threat_cells[player, T_FIVE]
    for i in range(min(count, out.shape[0])):
        out[i] = cells[i]
    return count


@njit(cache=True, nogil=True, _nrt=False)
def _five_cells_around(board: Board, player: int, centre: int, out: npt.NDArray[np.int32]) -> int:
    """Like ``_five_cells`` but only on the lines through ``centre`` (the last stone)."""
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
def _straight_four_points(board: Board, player: int) -> int:
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
    must_defend = threats and _straight_four_points(board, other) > 0
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
def _pick(moves: npt.NDArray[np.int32], keys: npt.NDArray[np.int64], start: int, count: int) -> int:
    """Selection sort step: bring the best remaining move to ``start`` and return it."""
    best = start
    for i in range(start + 1, count):
        if keys[i] > keys[best]:
            best = i
    if best != start:
        moves[start], moves[best] = moves[best], moves[start]
        keys[start], keys[best] = keys[best], keys[start]
    return int(moves[start])


@njit(cache=True, nogil=True, _nrt=False)
def _beam_cut(
    moves: npt.NDArray[np.int32], keys: npt.NDArray[np.int64], count: int, beam: int
) -> int:
    """Keep only the ``beam`` best-keyed moves (all of them if ``beam`` is 0)."""
    if beam <= 0 or count <= beam:
        return count
    for i in range(beam):
        _pick(moves, keys, i, count)
    return beam


@njit(cache=True, nogil=True, _nrt=False)
def _builds_threat(board: Board, player: int, cell: int) -> bool:
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
def _keep_threats(
    board: Board,
    moves: npt.NDArray[np.int32],
    keys: npt.NDArray[np.int64],
    kept: int,
    count: int,
    most: int,
) -> int:
    """After a beam cut that kept ``moves[:kept]`` of ``count``, bring up to ``most`` of
    the others that build a threat for either side (``_builds_threat``) next to them;
    returns the new count."""
    me = board.info[I_TO_MOVE]
    end = kept
    for i in range(kept, count):
        if end - kept >= most:
            break
        cell = int(moves[i])
        if _builds_threat(board, me, cell) or _builds_threat(board, 1 - me, cell):
            moves[end], moves[i] = moves[i], moves[end]
            keys[end], keys[i] = keys[i], keys[end]
            end += 1
    return end


# --- VCF and VCT ------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _stop_requested(stats: npt.NDArray[np.int64], stop: npt.NDArray[np.int64]) -> bool:
    """Whether to stop: already aborted, or the stop flag is up (polled every 1024 nodes)."""
    if stats[S_ABORTED] != 0:
        return True
    polled = (stats[S_NODES] + stats[S_VCF_NODES]) & CHECK_INTERVAL == 0
    if polled and stop[0] != 0:
        stats[S_ABORTED] = 1
        return True
    return False


# Solver-node helpers take arrays, not the ``Board``/``Tables`` tuples, and kernels
# that allocate nothing skip reference counting (``_nrt=False``): see board.py.


@njit(_VCF_SEEN_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _vcf_seen(
    info: npt.NDArray[np.int64],
    vcf_key: npt.NDArray[np.int64],
    vcf_depth: npt.NDArray[np.int16],
    depth: int,
    salt: int,
) -> bool:
    """Whether this position (and solver, by ``salt``) already failed at ``depth`` or more."""
    key = info[I_HASH] ^ salt ^ info[I_TO_MOVE]
    index = key & ((1 << VCF_TT_BITS) - 1)
    return vcf_key[index] == key and vcf_depth[index] >= depth


@njit(_VCF_STORE_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _vcf_store(
    info: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
    vcf_key: npt.NDArray[np.int64],
    vcf_depth: npt.NDArray[np.int16],
    depth: int,
    salt: int,
) -> None:
    """Remember a failure at ``depth``, unless the search was cut short (it proves nothing)."""
    if stats[S_VCF_EXHAUSTED] != 0 or stats[S_ABORTED] != 0:
        return
    key = info[I_HASH] ^ salt ^ info[I_TO_MOVE]
    index = key & ((1 << VCF_TT_BITS) - 1)
    vcf_key[index] = key
    vcf_depth[index] = depth


@njit(cache=True, nogil=True, _nrt=False)
def _threat_node(
    info: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int32],
    stats: npt.NDArray[np.int64],
    stop: npt.NDArray[np.int64],
    depth: int,
) -> int:
    """Common entry of a solver node: 1 if the attacker fives now, -1 to fail, 0 to go on."""
    if not _spend_node(stats, stop, depth):
        return -1
    if counts[info[I_TO_MOVE], pt.F5] > 0:
        return 1
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def _spend_node(stats: npt.NDArray[np.int64], stop: npt.NDArray[np.int64], depth: int) -> bool:
    """Count a solver node; False if the node budget, the stop flag or the depth ends it."""
    stats[S_VCF_NODES] += 1
    if stats[S_VCF_NODES] >= stats[S_VCF_LIMIT]:
        stats[S_VCF_EXHAUSTED] = 1
        return False
    if _stop_requested(stats, stop):
        return False
    return depth > 0


@njit(cache=True, nogil=True, _nrt=False)
def _attack_four(board: Board, tables: Tables, cell: int, ply: int) -> int:
    """Play the attacker's four at ``cell`` and the forced block.

    Returns 2 if the four already wins (two fives, or the block is forbidden),
    1 if both stones were played (the caller undoes twice), 0 if it fails.
    """
    attacker = board.info[I_TO_MOVE]
    defender = 1 - attacker
    play(board, cell)
    fives = tables.moves[ply]
    count = _five_cells_around(board, attacker, cell, fives[:4])
    if count == 0 or board.counts[defender, pt.F5] > 0:
        undo(board)
        return 0
    if count >= 2 or not _allowed(board, defender, int(fives[0])):
        undo(board)
        return 2
    play(board, int(fives[0]))
    return 1


@njit(cache=True, nogil=True, _nrt=False)
def _vcf_attack_four(board: Board, cell: int) -> int:
    """``_attack_four`` for ``vcf``, with ``play_threat``: the caller undoes with
    ``undo_threat``. The attacker must have no five point (so the five points after
    the four are the board's, all made by it)."""
    attacker = board.info[I_TO_MOVE]
    defender = 1 - attacker
    play_threat(board, cell)
    count = board.threat_size[attacker, T_FIVE]
    if count == 0 or board.threat_size[defender, T_FIVE] > 0:
        undo_threat(board)
        return 0
    block = int(board.threat_cells[attacker, T_FIVE, 0])
    if count >= 2 or not _allowed(board, defender, block):
        undo_threat(board)
        return 2
    play_threat(board, block)
    return 1


@njit(cache=True, nogil=True, _nrt=False)
def _forced_block(board: Board, tables: Tables, ply: int) -> int:
    """The attacker's only move against a defender four: a cell, or -1 if none works."""
    attacker = board.info[I_TO_MOVE]
    defender = 1 - attacker
    buffer = tables.moves[ply]
    if _five_cells(board, defender, buffer[:2]) != 1:
        return -1
    cell = int(buffer[0])
    if not _allowed(board, attacker, cell):
        return -1
    return cell


@njit(cache=True, nogil=True, _nrt=False)
def _prepend_pv(tables: Tables, ply: int, first: int, second: int) -> None:
    child = ply + 2
    length = tables.pv_length[child] if child <= MAX_PLY else 0
    length = min(length, MAX_PLY - 2)
    tables.pv[ply, 0] = first
    tables.pv[ply, 1] = second
    for i in range(length):
        tables.pv[ply, i + 2] = tables.pv[child, i]
    tables.pv_length[ply] = length + 2


@njit(_IS_FOUR_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _is_four_cell(board: Board, player: int, cell: int) -> bool:
    """Whether ``player`` makes a four of any kind by playing empty ``cell``."""
    return board.threat_dirs[player, T_FOUR, cell] > 0


@njit(cache=True, nogil=True, _nrt=False)
def _may_win_at_once(
    pattern: npt.NDArray[np.int8], info: npt.NDArray[np.int64], player: int, cell: int
) -> bool:
    """Whether ``player``'s four at ``cell`` may win without another four: it makes two
    five points (a straight or double four, or fours on two lines), or the block may
    be forbidden (Renju, white attacking). A single plain four (``B4`` on one line)
    never does, so a VCF with one move left need not play it."""
    if player == 1 and info[I_RENJU] != 0:
        return True
    fours = 0
    for d in range(4):
        code = pattern[player, d, cell]
        if code == pt.F4 or code == pt.D4:
            return True
        if code == pt.B4:
            fours += 1
    return fours >= 2


@njit(cache=True, nogil=True, _nrt=False)
def _four_cells(
    board: Board,
    player: int,
    out: npt.NDArray[np.int32],
    values: npt.NDArray[np.int64],
    defence: int,
) -> int:
    """Cells where ``player`` may make a four, best first by ``VCF_ATTACK_SCALE`` times
    ``player``'s cell value plus ``defence`` times the opponent's (ties in the threat
    set's order), their values computed here into ``values``: under ``play_threat``
    the board's cell values are stale."""
    count = 0
    threat_cells = board.threat_cells
    pattern = board.pattern
    renju_black = player == 0 and board.info[I_RENJU] != 0
    for i in range(board.threat_size[player, T_FOUR]):
        cell = int(threat_cells[player, T_FOUR, i])
        if renju_black and forbidden(board, cell) != NOT_FORBIDDEN:
            continue
        # Insertion after every cell of at least the same value (a stable sort).
        value = VCF_ATTACK_SCALE * _cell_value(pattern, player, cell)
        if defence != 0:
            value += defence * _cell_value(pattern, 1 - player, cell)
        j = count - 1
        while j >= 0 and values[j] < value:
            out[j + 1] = out[j]
            values[j + 1] = values[j]
            j -= 1
        out[j + 1] = cell
        values[j + 1] = value
        count += 1
    return count


@njit(_SORT_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _sort_by_value(
    cell_value: npt.NDArray[np.int32], player: int, cells: npt.NDArray[np.int32], count: int
) -> None:
    """Insertion-sort ``cells[:count]`` by ``player``'s cell value, best first (stable)."""
    for i in range(1, count):
        cell = cells[i]
        value = cell_value[player, cell]
        j = i - 1
        while j >= 0 and cell_value[player, cells[j]] < value:
            cells[j + 1] = cells[j]
            j -= 1
        cells[j + 1] = cell


@njit(cache=True, nogil=True, _nrt=False)
def _near_first(
    cells: npt.NDArray[np.int32],
    count: int,
    centre: int,
    width: int,
    span: int,
    scratch: npt.NDArray[np.int64],
) -> int:
    """Reorder ``cells[:count]``: those on a line through ``centre`` at most ``span``
    cells from it first, then the others, each group in its order (``scratch`` holds
    the others meanwhile). Returns how many are near."""
    kept = 0
    others = 0
    row, column = centre // width, centre % width
    for i in range(count):
        cell = int(cells[i])
        dy = abs(cell // width - row)
        dx = abs(cell % width - column)
        if (dx == 0 or dy == 0 or dx == dy) and max(dx, dy) <= span:
            cells[kept] = cell
            kept += 1
        else:
            scratch[others] = cell
            others += 1
    for i in range(others):
        cells[kept + i] = scratch[i]
    return kept


@njit(_SOLVER_SIGNATURE, cache=True, nogil=True, _nrt=False)
def vcf(board: Board, tables: Tables, depth: int, ply: int) -> int:
    """Attacker (side to move) moves needed to win by continuous fours within ``depth``; 0 if none.

    On success ``tables.pv[ply]`` holds the line (attacker and defender alternating).
    Its moves are played with ``play_threat``, so it reads no pattern counts or cell
    values (five points from the threat sets instead). With ``stats[S_VCF_SPAN]`` set
    (a leaf VCF), a four after the first that blocks nothing lies on a line through the
    attacker's last four, at most that many cells from it.
    """
    if ply >= MAX_PLY - 4:
        return 0
    spent = _spend_node(tables.stats, tables.stop, depth)
    tables.pv_length[ply] = 0
    if not spent:
        return 0
    attacker = board.info[I_TO_MOVE]
    defender = 1 - attacker
    if board.threat_size[attacker, T_FIVE] > 0:
        return 1
    # A VCF whose later fours keep near the last (``S_VCF_SPAN``) proves less from a
    # position: its failures are remembered apart, and below its first four by the last
    # four too.
    span = tables.stats[S_VCF_SPAN]
    last_four = -1
    salt = 0
    if span > 0:
        salt = _SPAN_SALT
        if ply > tables.stats[S_VCF_ROOT]:
            last_four = int(board.stack[board.info[I_PLY] - 2])
            salt ^= (last_four + 1) * _LAST_FOUR_SALT
    if _vcf_seen(board.info, tables.vcf_key, tables.vcf_depth, depth, salt):
        return 0
    forced = -1
    if board.threat_size[defender, T_FIVE] > 0:
        forced = _forced_block(board, tables, ply)
        if forced < 0 or not _is_four_cell(board, attacker, forced):
            _vcf_store(board.info, tables.stats, tables.vcf_key, tables.vcf_depth, depth, salt)
            return 0
    candidates = tables.moves[ply + 1]
    count = 0
    if forced >= 0:
        candidates[0] = forced
        count = 1
    else:
        # A leaf VCF (with a span) orders by the attacker's values alone.
        defence = 1 if span == 0 else 0
        count = _four_cells(board, attacker, candidates, tables.order[ply + 1], defence)
        width = int(board.info[I_WIDTH])
        if last_four >= 0:  # only the fours near the last one
            count = _near_first(candidates, count, last_four, width, span, tables.order[ply + 1])
        elif span == 0 and board.info[I_PLY] >= 2:  # those near the last stone first
            last = int(board.stack[board.info[I_PLY] - 2])
            _near_first(candidates, count, last, width, VCF_NEAR_SPAN, tables.order[ply + 1])
    # No copy: deeper plies use ``moves[ply + 2]`` and beyond.
    # With one move left only a four that wins at once counts (``_vcf_attack_four``
    # returns 2; the line is then one move longer than ``depth``, as it always was):
    # a plain four's block would leave the child no move, so it is not played.
    one_left = depth == 1
    for i in range(count):
        cell = int(candidates[i])
        if one_left and not _may_win_at_once(board.pattern, board.info, attacker, cell):
            continue
        result = _vcf_attack_four(board, cell)
        if result == 2:
            tables.pv[ply, 0] = cell
            tables.pv_length[ply] = 1
            return 2
        if result == 0:
            continue
        block = int(board.stack[board.info[I_PLY] - 1])
        found = vcf(board, tables, depth - 1, ply + 2)
        undo_threat(board)
        undo_threat(board)
        if found > 0:
            _prepend_pv(tables, ply, cell, block)
            return found + 1
    _vcf_store(board.info, tables.stats, tables.vcf_key, tables.vcf_depth, depth, salt)
    return 0


@njit(cache=True, nogil=True)
def _pv_prefix(tables: Tables, ply: int, first: int, second: int, child: int) -> None:
    """``pv[ply]`` = ``first`` (and ``second`` unless it is -1), then ``pv[child]``."""
    start = 1 if second < 0 else 2
    length = tables.pv_length[child] if child <= MAX_PLY else 0
    length = min(length, MAX_PLY - start)
    tables.pv[ply, 0] = first
    if second >= 0:
        tables.pv[ply, 1] = second
    for i in range(length):
        tables.pv[ply, i + start] = tables.pv[child, i]
    tables.pv_length[ply] = length + start


@njit(cache=True, nogil=True)
def _wins_next_move(board: Board, player: int) -> bool:
    """Whether ``player`` has a legal move making two five points (a straight four, a
    double four) — the threat an open three makes. A four whose single block is
    forbidden is not counted (an attack resting on it fails: sound, not complete)."""
    renju_black = player == 0 and board.info[I_RENJU] != 0
    cells = board.threat_cells[player, T_FOUR]
    for i in range(board.threat_size[player, T_FOUR]):
        cell = int(cells[i])
        wins = board.threat_dirs[player, T_FOUR, cell] >= 2 and not renju_black
        for d in range(4):
            code = board.pattern[player, d, cell]
            if code == pt.F4 or (code == pt.D4 and not renju_black):
                wins = True
        if wins and _allowed(board, player, cell):
            return True
    return False


@njit(cache=True, nogil=True)
def _first(cells: npt.NDArray[np.int32], count: int, cell: int) -> None:
    """Move ``cell`` (if listed in ``cells[:count]``) to the front, the rest in order."""
    for i in range(count):
        if cells[i] == cell:
            for j in range(i, 0, -1):
                cells[j] = cells[j - 1]
            cells[0] = cell
            return


@njit(_VCT_NODE_SIGNATURE, cache=True, nogil=True)
def _vct_node(board: Board, tables: Tables, depth: int, ply: int, attacker: int) -> int:
    """One node of ``vct``: ``attacker`` (a colour) or the defender is to move.

    ``depth`` counts the attacker's moves left (forced blocks of defender fours
    too); returns the attacker moves to the five or 0. Both kinds of node are in
    one self-recursive kernel: numba's cache mishandles mutual recursion (and
    literal arguments in recursive calls, hence a colour rather than a flag).
    """
    if ply >= MAX_PLY - 6:
        return 0
    stats = tables.stats
    me = board.info[I_TO_MOVE]
    other = 1 - me
    fives = tables.moves[ply]
    if me == attacker:
        # The attacker (``me``): a VCF, else a four or a three that every defence loses to.
        state = _threat_node(board.info, board.counts, stats, tables.stop, depth)
        tables.pv_length[ply] = 0
        if state != 0:
            return 1 if state == 1 else 0
        if _vcf_seen(board.info, tables.vcf_key, tables.vcf_depth, depth, _VCT_SALT):
            return 0
        found = vcf(board, tables, depth, ply)
        if found > 0:
            return found
        if board.counts[other, pt.F5] > 0:
            # The defender's four (from its block): block it and defend again.
            found = 0
            if _five_cells(board, other, fives[:2]) == 1 and _allowed(board, me, int(fives[0])):
                block = int(fives[0])
                play(board, block)
                found = _vct_node(board, tables, depth - 1, ply + 1, me)
                undo(board)
                if found > 0:
                    _pv_prefix(tables, ply, block, -1, ply + 1)
                    found += 1
        elif depth >= 2:  # with one move left only a VCF wins
            candidates = tables.moves[ply]
            count = 0
            for kind in (T_FOUR, T_THREE):
                cells = board.threat_cells[me, kind]
                for i in range(board.threat_size[me, kind]):
                    cell = int(cells[i])
                    if kind == T_THREE and board.threat_dirs[me, T_FOUR, cell] > 0:
                        continue
                    if _allowed(board, me, cell):
                        candidates[count] = cell
                        count += 1
            _sort_by_value(board.cell_value, me, candidates, count)
            _first(candidates, count, int(tables.killers[ply, 0]))  # what won a sibling
            local = candidates[:count].copy()
            found = 0
            for i in range(count):
                cell = int(local[i])
                play(board, cell)
                found = _vct_node(board, tables, depth - 1, ply + 1, me)
                undo(board)
                if found > 0:
                    _pv_prefix(tables, ply, cell, -1, ply + 1)
                    tables.killers[ply, 0] = cell
                    found += 1
                    break
                if stats[S_ABORTED] != 0:
                    return 0
        else:
            found = 0
        if found == 0:
            _vcf_store(board.info, stats, tables.vcf_key, tables.vcf_depth, depth, _VCT_SALT)
        return found

    # The defender (``me``) against the attacker (``other``).
    stats[S_VCF_NODES] += 1
    tables.pv_length[ply] = 0
    if stats[S_VCF_NODES] >= stats[S_VCF_LIMIT]:
        stats[S_VCF_EXHAUSTED] = 1
        return 0
    if _stop_requested(stats, tables.stop):
        return 0
    if board.counts[me, pt.F5] > 0:
        return 0  # the defender fives first
    if board.counts[other, pt.F5] > 0:
        # A four: block it, or lose to two five points or a forbidden block.
        count = _five_cells(board, other, fives[:2])
        block = int(fives[0])
        if count >= 2 or not _allowed(board, me, block):
            tables.pv[ply, 0] = block
            tables.pv_length[ply] = 1
            return 1
        play(board, block)
        found = _vct_node(board, tables, depth, ply + 1, other)
        undo(board)
        if found > 0:
            _pv_prefix(tables, ply, block, -1, ply + 1)
        return found
    if depth <= 0 or not _wins_next_move(board, other):
        return 0  # no threat: the attacker's last move did not force anything
    if vcf(board, tables, DEFENDER_VCF_DEPTH, ply) > 0:
        tables.pv_length[ply] = 0
        return 0  # the defender's own VCF refutes a three
    # Against the coming winning four: every point where the attacker would make a
    # four (the points that stop it are among them) and every defender four.
    replies = tables.moves[ply]
    count = 0
    for side in range(2):
        player = other if side == 0 else me
        cells = board.threat_cells[player, T_FOUR]
        for i in range(board.threat_size[player, T_FOUR]):
            reply = int(cells[i])
            if side == 1 and board.threat_dirs[other, T_FOUR, reply] > 0:
                continue
            if _allowed(board, me, reply):
                replies[count] = reply
                count += 1
    _sort_by_value(board.cell_value, other, replies, count)
    local = replies[:count].copy()
    worst = 0
    for i in range(count):
        reply = int(local[i])
        play(board, reply)
        # (After a counter-four the attacker node blocks it and defends again.)
        found = _vct_node(board, tables, depth, ply + 1, other)
        undo(board)
        if found == 0:
            return 0
        if found > worst:
            worst = found
            _pv_prefix(tables, ply, reply, -1, ply + 1)
    return worst


@njit(_SOLVER_SIGNATURE, cache=True, nogil=True)
def vct(board: Board, tables: Tables, depth: int, ply: int) -> int:
    """Attacker moves to win by fours and threes within ``depth``; 0 if none found.

    A three must be met by a point that stops the coming winning four or by a
    counter-four (the attacker blocks it and the defender must answer the attack
    again); every such defence is tried, and a defender VCF refutes the three. On
    success ``tables.pv[ply]`` holds the line against the longest defence.
    """
    return _vct_node(board, tables, depth, ply, board.info[I_TO_MOVE])


def run_solver(board: Board, tables: Tables, depth: int, node_budget: int, threes: bool) -> int:
    """Run ``vcf`` (or ``vct`` with ``threes``) from the root with a node budget.

    A VCF first tries the lines whose later fours keep near the last one (as a leaf
    VCF with span ``VCF_NEAR_SPAN``), within ``1 / VCF_NEAR_BUDGET_SHARE`` of the
    budget: most wins are such lines, and they are cheap to find. Only if none is
    found does the full VCF run, with the whole budget; so what it proves is the
    same, only found sooner.
    """
    tables.stats[S_VCF_EXHAUSTED] = 0
    tables.stats[S_VCF_SPAN] = 0
    if threes:
        tables.stats[S_VCF_LIMIT] = tables.stats[S_VCF_NODES] + node_budget
        tables.killers[:] = -1  # ``vct`` orders by its own killers: alpha-beta's start clean
        moves = int(vct(board, tables, depth, 0))
        tables.killers[:] = -1
        return moves
    tables.stats[S_VCF_SPAN] = VCF_NEAR_SPAN
    tables.stats[S_VCF_ROOT] = 0
    tables.stats[S_VCF_LIMIT] = tables.stats[S_VCF_NODES] + node_budget // VCF_NEAR_BUDGET_SHARE
    moves = int(vcf(board, tables, depth, 0))
    tables.stats[S_VCF_SPAN] = 0
    if moves > 0 or tables.stats[S_ABORTED] != 0:
        return moves
    tables.stats[S_VCF_EXHAUSTED] = 0
    tables.stats[S_VCF_LIMIT] = tables.stats[S_VCF_NODES] + node_budget
    return int(vcf(board, tables, depth, 0))


# --- alpha-beta -------------------------------------------------------------------------

#: Plies from the side to move's move to its five (that move counted) for the shapes
#: ``_static_win`` reads.
OPEN_FOUR_PLIES = 3
FOUR_THREE_PLIES = 5
#: Plies from the side to move's move to the opponent's five when it cannot answer the
#: opponent's open three (the move, the straight four, the block, the five).
OPEN_THREE_PLIES = 4


@njit(cache=True, nogil=True, _nrt=False)
def _static_win(board: Board, tables: Tables, me: int, ply: int) -> int:
    """Plies to the five that ``me``, to move, forces from one point, else 0.

    The caller has made sure the opponent has no five to complete. Then a point making
    a straight four or a double four wins in ``OPEN_FOUR_PLIES`` (two fives to block,
    one move to block them). If the opponent also has no point making a four, a point
    making a four and an open three, or two open threes, wins in ``FOUR_THREE_PLIES``:
    the lines meet only at that point, so one stone blocks one of them, makes no four
    of the opponent's, and the other becomes a straight four. Renju black's points are
    read by ``_renju_black_static_win``, each for the forbidden rule. ``tables.moves[ply]``
    is scratch (the node's moves are generated after this).
    """
    if me == 0 and board.info[I_RENJU] != 0:
        return _renju_black_static_win(board, tables.moves[ply])
    if _straight_four_points(board, me) > 0:
        return OPEN_FOUR_PLIES
    threat_dirs = board.threat_dirs
    fours = board.threat_cells[me, T_FOUR]
    four_count = board.threat_size[me, T_FOUR]
    for i in range(four_count):
        if threat_dirs[me, T_FOUR, fours[i]] >= 2:
            return OPEN_FOUR_PLIES
    if board.threat_size[1 - me, T_FOUR] > 0:
        return 0
    for i in range(four_count):
        if threat_dirs[me, T_THREE, fours[i]] > 0:
            return FOUR_THREE_PLIES
    threes = board.threat_cells[me, T_THREE]
    for i in range(board.threat_size[me, T_THREE]):
        if threat_dirs[me, T_THREE, threes[i]] >= 2:
            return FOUR_THREE_PLIES
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def _renju_black_straight_four(board: Board) -> bool:
    """Whether Renju black has a point, not forbidden, where a stone makes a straight
    four (its two fives are then black's to make: a five is never forbidden)."""
    if board.counts[0, pt.F4] == 0:
        return False
    fours = board.threat_cells[0, T_FOUR]
    for i in range(board.threat_size[0, T_FOUR]):
        cell = fours[i]
        if _has_code(board, 0, cell, pt.F4) and forbidden(board, cell) == NOT_FORBIDDEN:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _renju_black_static_win(board: Board, scratch: npt.NDArray[np.int32]) -> int:
    """Plies to the five that Renju black, to move, forces from one point, else 0.

    As ``_static_win``, each point checked against the forbidden rule (``forbidden``):
    a straight four's point that is not forbidden (``_renju_black_straight_four``) wins
    in ``OPEN_FOUR_PLIES``. If white has no point making a four, a point that is not
    forbidden and makes a four and an open three is played out: white must block the
    four's one five point, and if black then has a straight four's point that is not
    forbidden, it wins in ``FOUR_THREE_PLIES``. Double fours and double threes are
    forbidden to black and win nothing. ``scratch`` holds the four-three points.
    """
    if _renju_black_straight_four(board):
        return OPEN_FOUR_PLIES
    if board.threat_size[1, T_FOUR] > 0:
        return 0
    fours = board.threat_cells[0, T_FOUR]
    threat_dirs = board.threat_dirs
    count = 0
    for i in range(board.threat_size[0, T_FOUR]):
        cell = fours[i]
        if threat_dirs[0, T_FOUR, cell] == 1 and threat_dirs[0, T_THREE, cell] > 0:
            scratch[count] = cell
            count += 1
    for i in range(count):
        cell = scratch[i]
        if forbidden(board, cell) != NOT_FORBIDDEN:
            continue
        play(board, cell)
        wins = False
        if board.threat_size[0, T_FIVE] == 1:
            play(board, board.threat_cells[0, T_FIVE, 0])
            wins = board.threat_size[1, T_FIVE] == 0 and _renju_black_straight_four(board)
            undo(board)
        undo(board)
        if wins:
            return FOUR_THREE_PLIES
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def _tt_index(key: int) -> int:
    return key & ((1 << TT_BITS) - 1)


@njit(cache=True, nogil=True, _nrt=False)
def _to_tt(score: int, ply: int) -> int:
    if score >= WIN_THRESHOLD:
        return score + ply
    if score <= -WIN_THRESHOLD:
        return score - ply
    return score


@njit(cache=True, nogil=True, _nrt=False)
def _from_tt(score: int, ply: int) -> int:
    if score >= WIN_THRESHOLD:
        return score - ply
    if score <= -WIN_THRESHOLD:
        return score + ply
    return score


@njit(_SET_PV_SIGNATURE, cache=True, nogil=True, _nrt=False)
def _set_pv(tables: Tables, ply: int, move: int) -> None:
    child = ply + 1
    length = min(tables.pv_length[child], MAX_PLY - 1)
    tables.pv[ply, 0] = move
    for i in range(length):
        tables.pv[ply, i + 1] = tables.pv[child, i]
    tables.pv_length[ply] = length + 1


@njit(cache=True, nogil=True, _nrt=False)
def _cutoff(tables: Tables, me: int, ply: int, depth: int, cell: int) -> None:
    """A beta cutoff by ``cell``: count it, make it a killer, credit its history."""
    tables.stats[S_CUTOFFS] += 1
    if tables.killers[ply, 0] != cell:
        tables.killers[ply, 1] = tables.killers[ply, 0]
        tables.killers[ply, 0] = cell
    tables.history[me, cell] += depth * depth


@njit(cache=True, nogil=True, _nrt=False)
def _tt_store(
    tables: Tables, index: int, key: int, score: int, depth: int, flag: int, move: int
) -> None:
    tables.tt_key[index] = key
    tables.tt_score[index] = score
    tables.tt_depth[index] = depth
    tables.tt_flag[index] = flag
    tables.tt_move[index] = move


@njit(cache=True, nogil=True, _nrt=False)
def _near(cell: int, other: int, width: int) -> bool:
    """``cell`` within ``NEAR_SQUARE`` of ``other`` in both directions, or on one of
    its lines within ``NEAR_LINE``."""
    dx = abs(cell % width - other % width)
    dy = abs(cell // width - other // width)
    reach = max(dx, dy)
    if reach <= NEAR_SQUARE:
        return True
    return reach <= NEAR_LINE and (dx == 0 or dy == 0 or dx == dy)


@njit(cache=True, nogil=True, _nrt=False)
def _answer_depth(
    tables: Tables,
    threat_dirs: npt.NDArray[np.int8],
    me: int,
    cell: int,
    ply: int,
    depth: int,
    three_gain: int,
) -> int:
    """The depth to search ``me``'s move ``cell`` at (``three_gain``: see ``negamax``);
    sets the child's count of free pairs."""
    tables.free_pairs[ply + 1] = tables.free_pairs[ply]
    if three_gain == 0 or threat_dirs[me, T_FOUR, cell] > 0 or threat_dirs[me, T_THREE, cell] > 0:
        return depth - 1
    if three_gain >= 2:
        tables.free_pairs[ply + 1] += 1
    return depth - 1 + three_gain


@njit(_NEGAMAX_SIGNATURE, cache=True, nogil=True, _nrt=False)
def negamax(board: Board, tables: Tables, depth: int, alpha: int, beta: int, ply: int) -> int:
    """Fail-soft PVS: the score of the side to move searched ``depth`` plies deep."""
    tables.stats[S_NODES] += 1
    tables.pv_length[ply] = 0
    if _stop_requested(tables.stats, tables.stop):
        return 0
    if ply > tables.stats[S_SELDEPTH]:
        tables.stats[S_SELDEPTH] = ply
    me = board.info[I_TO_MOVE]
    other = 1 - me
    if board.counts[me, pt.F5] > 0:
        return WIN - ply - 1
    if ply >= MAX_PLY - 2:
        return evaluate(board, tables.weights)
    threats = tables.config[C_THREATS] != 0
    if threats and board.counts[other, pt.F5] > 0:
        # The opponent's four: block it (no depth spent), or lose if we cannot.
        fives = tables.moves[ply]
        if _five_cells(board, other, fives[:2]) >= 2:
            return -(WIN - ply - 2)
        block = int(fives[0])
        if not _allowed(board, me, block):
            return -(WIN - ply - 2)
        # Threat extension: the block gains back ``C_FOUR_EXTENSION`` plies (with 2 the
        # four and its block cost nothing, within the limit of free pairs on a path).
        gain = tables.config[C_FOUR_EXTENSION]
        used = tables.free_pairs[ply]
        if gain >= 2 and used >= tables.config[C_EXTENSION_LIMIT]:
            gain = 0
        tables.free_pairs[ply + 1] = used + 1 if gain >= 2 else used
        block_depth = max(depth - 1 + gain, 0)
        play(board, block)
        score = -negamax(board, tables, block_depth, -beta, -alpha, ply + 1)
        undo(board)
        _set_pv(tables, ply, block)
        return score
    if tables.config[C_STATIC_WINS] != 0 and board.counts[other, pt.F5] == 0:
        plies = _static_win(board, tables, me, ply)
        if plies > 0:
            return WIN - ply - plies
    if depth <= 0:
        # The horizon: the evaluation, or a short VCF's win if the side to move has
        # fours. A VCF only raises the score, so an evaluation at beta or above is a
        # cutoff without it. (Inline, not a helper: each kernel linking ``vcf``
        # recompiles it.)
        static = evaluate(board, tables.weights)
        leaf_depth = tables.config[C_LEAF_VCF]
        if (
            static < beta
            and leaf_depth > 0
            and board.counts[me, pt.B4] + board.counts[me, pt.F4] > 0
        ):
            tables.stats[S_VCF_EXHAUSTED] = 0
            tables.stats[S_VCF_LIMIT] = tables.stats[S_VCF_NODES] + tables.config[C_LEAF_VCF_NODES]
            tables.stats[S_VCF_SPAN] = tables.config[C_LEAF_VCF_SPAN]
            tables.stats[S_VCF_ROOT] = ply
            moves = vcf(board, tables, leaf_depth, ply)
            if moves > 0:
                return WIN - (ply + 2 * moves - 1)
        return static

    key = board.info[I_HASH]
    index = _tt_index(key)
    tt_move = -1
    if tables.tt_key[index] == key:
        tt_move = int(tables.tt_move[index])
        if tables.tt_depth[index] >= depth and beta - alpha == 1:
            stored = _from_tt(int(tables.tt_score[index]), ply)
            flag = tables.tt_flag[index]
            if (
                flag == EXACT
                or (flag == LOWER and stored >= beta)
                or (flag == UPPER and stored <= alpha)
            ):
                tables.stats[S_TT_HITS] += 1
                return stored

    # Futility pruning and razoring, at a shallow null-window node where neither side
    # has an open three: an evaluation far above beta is taken as a cutoff, and one far
    # below alpha as a fail low unless the side to move can make a four (a VCF may
    # start there).
    other_flex = _straight_four_points(board, other)
    if beta - alpha == 1 and alpha > -WIN_THRESHOLD and beta < WIN_THRESHOLD:
        futility_depth = tables.config[C_FUTILITY_DEPTH]
        razor_depth = tables.config[C_RAZOR_DEPTH]
        if (
            (depth < futility_depth or depth < razor_depth)
            and other_flex == 0
            and _straight_four_points(board, me) == 0
        ):
            static = evaluate(board, tables.weights)
            if depth < futility_depth and static - tables.config[C_FUTILITY_MARGIN] * depth >= beta:
                return static
            if (
                depth < razor_depth
                and board.counts[me, pt.B4] == 0
                and static + tables.config[C_RAZOR_MARGIN] * depth <= alpha
            ):
                return static

    # Threat extension against an open three: the answers that make no four or three
    # of their own (``generate`` lists few) gain back ``three_gain`` plies. With 2 the
    # three and its answer cost nothing, up to ``C_EXTENSION_LIMIT`` such free pairs on
    # a path (then they cost their two plies, so the leaves keep the parity of the
    # depth: the evaluation favours the side to move). Counter-threats always cost
    # their ply: threes met by threes, each answered for free, would never end.
    three_gain = 0
    if tables.config[C_THREE_EXTENSION] != 0 and threats and other_flex > 0:
        three_gain = tables.config[C_THREE_EXTENSION]
        if three_gain >= 2 and tables.free_pairs[ply] >= tables.config[C_EXTENSION_LIMIT]:
            three_gain = 0
    threat_dirs = board.threat_dirs

    # The move from the table is searched before any move is generated: when it cuts
    # off, generating was wasted. It would come first anyway (it was the best of this
    # same position's list, and its key outranks all others); the others are then
    # ordered with the history its search updated.
    first_score = 0
    if tt_move >= 0 and board.cells[tt_move] == 0:
        move_depth = _answer_depth(tables, threat_dirs, me, tt_move, ply, depth, three_gain)
        play(board, tt_move)
        first_score = -negamax(board, tables, move_depth, -beta, -alpha, ply + 1)
        undo(board)
        if tables.stats[S_ABORTED] != 0:
            return 0
        if first_score >= beta:
            _set_pv(tables, ply, tt_move)
            _cutoff(tables, me, ply, depth, tt_move)
            _tt_store(tables, index, key, _to_tt(first_score, ply), depth, LOWER, tt_move)
            return first_score
    else:
        tt_move = -1

    count = generate(board, tables, ply)
    if count == 0:  # a full board (a draw), or only forbidden points near the stones
        if board.info[I_PLY] >= board.info[I_SIZE] * board.info[I_SIZE]:
            return 0
        if tables.config[C_THREATS] != 0 and other_flex > 0:
            # Renju black with no answer to an open three but forbidden points: the
            # straight four comes next, then the five.
            return -(WIN - ply - OPEN_THREE_PLIES)
        return evaluate(board, tables.weights)
    keys = tables.order[ply]
    moves = tables.moves[ply]
    for i in range(count):
        if moves[i] == tt_move:
            keys[i] += 1 << 40
        elif moves[i] == tables.killers[ply, 0]:
            keys[i] += 1 << 30
        elif moves[i] == tables.killers[ply, 1]:
            keys[i] += 1 << 29
    beam = int(tables.config[C_BEAM])
    frontier_beam = int(tables.config[C_FRONTIER_BEAM])
    # At a frontier node, moves past the frontier beam are kept (up to the near beam,
    # as Rapfi 2018 keeps them) only if they are near the opponent's last move.
    far_limit = MAX_MOVES
    if (
        depth <= tables.config[C_FRONTIER_DEPTH]
        and beta - alpha == 1
        and frontier_beam > 0
        and (beam == 0 or frontier_beam < beam)
    ):
        near_beam = int(tables.config[C_FRONTIER_NEAR_BEAM])
        if near_beam > frontier_beam:
            far_limit = frontier_beam
            beam = near_beam if beam == 0 else min(beam, near_beam)
        else:
            beam = frontier_beam
    generated = count
    count = _beam_cut(moves, keys, count, beam)
    keep = tables.config[C_KEEP_THREATS]
    if keep > 0 and count < generated:
        count = _keep_threats(board, moves, keys, count, generated, keep)
    last_move = int(board.stack[board.info[I_PLY] - 1]) if far_limit < count else -1
    width = board.info[I_WIDTH]

    alpha_original = alpha
    best = -WIN - 1
    best_move = -1
    reduce_late = tables.config[C_LMR] != 0 and depth >= tables.config[C_LMR_MIN_DEPTH]
    reduce_after = tables.config[C_LMR_AFTER]
    reduce_deep_after = tables.config[C_LMR_DEEP_AFTER]
    for i in range(count):
        cell = _pick(moves, keys, i, count)
        if i >= far_limit and not _near(cell, last_move, width):
            continue
        if i == 0 and cell == tt_move:
            score = first_score  # searched above, with this same window
        else:
            reduction = 0
            if (
                reduce_late
                and i >= reduce_after
                and threat_dirs[me, T_FOUR, cell] == 0
                and threat_dirs[me, T_THREE, cell] == 0
                and threat_dirs[other, T_FOUR, cell] == 0
            ):
                reduction = LMR_REDUCTION
                if i >= reduce_deep_after and depth >= LMR_DEEP_MIN_DEPTH:
                    reduction = LMR_DEEP_REDUCTION
            move_depth = _answer_depth(tables, threat_dirs, me, cell, ply, depth, three_gain)
            play(board, cell)
            if i == 0:
                score = -negamax(board, tables, move_depth, -beta, -alpha, ply + 1)
            else:
                score = alpha + 1  # (re-searched below unless the reduced search fails low)
                if reduction > 0:
                    score = -negamax(
                        board, tables, move_depth - reduction, -alpha - 1, -alpha, ply + 1
                    )
                if score > alpha:
                    score = -negamax(board, tables, move_depth, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -negamax(board, tables, move_depth, -beta, -alpha, ply + 1)
            undo(board)
            if tables.stats[S_ABORTED] != 0:
                return 0
        if score > best:
            best = score
            best_move = cell
            if score > alpha:
                alpha = score
                _set_pv(tables, ply, cell)
                if alpha >= beta:
                    _cutoff(tables, me, ply, depth, cell)
                    break

    flag = EXACT
    if best <= alpha_original:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    _tt_store(tables, index, key, _to_tt(best, ply), depth, flag, best_move)
    return best


# --- the root: plain Python over the compiled entry points -------------------------------
# (A kernel here would link and re-optimise ``negamax`` and ``generate`` once more: seconds
# of compile time for a loop over a dozen root moves.)


def search_root(
    board: Board,
    tables: Tables,
    depth: int,
    root_moves: npt.NDArray[np.int32],
    root_scores: npt.NDArray[np.int64],
) -> int:
    """One PVS iteration over ``root_moves`` (in order); returns the best index.

    ``root_scores[i]`` gets each move's score: exact for the best, a bound for the
    others. The PV is left in ``tables.pv[0]``. If the search is stopped, the moves
    not finished keep their old scores and the best index among the finished is
    returned (0 if none beat the first).
    """
    alpha = -WIN - 1
    beta = WIN + 1
    best_index = 0
    tables.pv_length[0] = 0
    for i in range(root_moves.shape[0]):
        cell = int(root_moves[i])
        tables.free_pairs[1] = 0
        play(board, cell)
        if i == 0:
            score = -int(negamax(board, tables, depth - 1, -beta, -alpha, 1))
        else:
            score = -int(negamax(board, tables, depth - 1, -alpha - 1, -alpha, 1))
            if score > alpha:
                score = -int(negamax(board, tables, depth - 1, -beta, -alpha, 1))
        undo(board)
        if tables.stats[S_ABORTED] != 0:
            return best_index
        root_scores[i] = score
        if score > alpha:
            alpha = score
            best_index = i
            _set_pv(tables, 0, cell)
    return best_index


def root_candidates(board: Board, tables: Tables, out: npt.NDArray[np.int32]) -> int:
    """The root's candidate moves, best-ordered, into ``out``; returns their count.

    A five of the side to move comes first (the count is then the number of fives);
    against the opponent's four only its five points (at most 2) are returned, those
    the side to move may play: when Renju forbids black every block, the game is lost
    and the candidates are the ordinary ones (all legal).
    """
    me = int(board.info[I_TO_MOVE])
    if board.counts[me, pt.F5] > 0:
        fives = int(board.threat_size[me, T_FIVE])
        out[0] = board.threat_cells[me, T_FIVE, 0]
        return fives
    other = 1 - me
    threats = tables.config[C_THREATS] != 0
    if threats and board.counts[other, pt.F5] > 0:
        count = 0
        for i in range(min(int(board.threat_size[other, T_FIVE]), 2)):
            block = board.threat_cells[other, T_FIVE, i]
            if _allowed(board, me, block):
                out[count] = block
                count += 1
        if count > 0:
            return count
    generated = int(generate(board, tables, 0))
    moves = tables.moves[0]
    keys = tables.order[0]
    count = int(_beam_cut(moves, keys, generated, int(tables.config[C_BEAM])))
    keep = int(tables.config[C_KEEP_THREATS])
    if keep > 0 and count < generated:
        count = int(_keep_threats(board, moves, keys, count, generated, keep))
    for i in range(count):
        out[i] = _pick(moves, keys, i, count)
    return count
