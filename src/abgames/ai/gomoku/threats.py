# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""The threat-space solvers: victory by continuous fours (``vcf``) and by fours and
threes (``vct``), as numba kernels over a ``Board``.

Depth counts attacker moves including the final five; failures are remembered in a
table (``tables.vcf_key``). In ``vct`` the defender answers a three at every point
where the attacker would make a four and with its own fours (blocked, then it answers
again); its own VCF refutes the three. ``run_solver`` runs either from the root with a
node budget. Scores follow ``abgames.search.score``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, types

from abgames.ai import kernel_cache
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.board import (
    BOARD_TYPE,
    I_HASH,
    I_PLY,
    I_RENJU,
    I_TO_MOVE,
    I_WIDTH,
    T_FIVE,
    T_FOUR,
    T_THREE,
    Board,
    _cell_value,
    play,
    play_threat,
    undo,
    undo_threat,
)
from abgames.ai.gomoku.movegen import allowed, five_cells
from abgames.ai.gomoku.renju import NOT_FORBIDDEN, forbidden
from abgames.ai.gomoku.tables import (
    MAX_PLY,
    S_ABORTED,
    S_VCF_EXHAUSTED,
    S_VCF_LIMIT,
    S_VCF_NODES,
    S_VCF_ROOT,
    S_VCF_SPAN,
    TABLES_TYPE,
    VCF_TT_BITS,
    Tables,
    stop_requested,
)

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

# One compiled copy each (see board.py): cells and plies arrive as int32 or literals.
_I64 = types.int64
_SOLVER_SIGNATURE = types.int64(BOARD_TYPE, TABLES_TYPE, types.int64, types.int64)
_VCF_SEEN_SIGNATURE = types.boolean(
    types.int64[::1], types.int64[::1], types.int16[::1], _I64, _I64
)
_VCF_STORE_SIGNATURE = types.void(
    types.int64[::1], types.int64[::1], types.int64[::1], types.int16[::1], _I64, _I64
)
_IS_FOUR_SIGNATURE = types.boolean(BOARD_TYPE, _I64, _I64)
_SORT_SIGNATURE = types.void(types.int32[:, ::1], _I64, types.int32[:], _I64)
_VCT_NODE_SIGNATURE = types.int64(BOARD_TYPE, TABLES_TYPE, _I64, _I64, _I64)


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
    if stop_requested(stats, stop):
        return False
    return depth > 0


@njit(cache=True, nogil=True, _nrt=False)
def _vcf_attack_four(board: Board, cell: int) -> int:
    """Play the attacker's four at ``cell`` and the forced block, with ``play_threat``
    (the caller undoes with ``undo_threat``). The attacker must have no five point (so
    the five points after the four are the board's, all made by it).

    Returns 2 if the four already wins (two fives, or the block is forbidden),
    1 if both stones were played (the caller undoes twice), 0 if it fails.
    """
    attacker = board.info[I_TO_MOVE]
    defender = 1 - attacker
    play_threat(board, cell)
    count = board.threat_size[attacker, T_FIVE]
    if count == 0 or board.threat_size[defender, T_FIVE] > 0:
        undo_threat(board)
        return 0
    block = int(board.threat_cells[attacker, T_FIVE, 0])
    if count >= 2 or not allowed(board, defender, block):
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
    if five_cells(board, defender, buffer[:2]) != 1:
        return -1
    cell = int(buffer[0])
    if not allowed(board, attacker, cell):
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
def sort_by_value(
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
def wins_next_move(board: Board, player: int) -> bool:
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
        if wins and allowed(board, player, cell):
            return True
    return False


@njit(cache=True, nogil=True)
def threat_answers(board: Board, replies: npt.NDArray[np.int32], attacker: int) -> int:
    """The defender's (side to move's) answers to ``attacker``'s coming winning four,
    into ``replies``; returns their count. Every point where the attacker would make a
    four (the points that stop it are among them) and every defender four, best first
    by the attacker's value of the point; the defender's forbidden points left out."""
    me = board.info[I_TO_MOVE]
    count = 0
    for side in range(2):
        player = attacker if side == 0 else me
        cells = board.threat_cells[player, T_FOUR]
        for i in range(board.threat_size[player, T_FOUR]):
            reply = int(cells[i])
            if side == 1 and board.threat_dirs[attacker, T_FOUR, reply] > 0:
                continue
            if allowed(board, me, reply):
                replies[count] = reply
                count += 1
    sort_by_value(board.cell_value, attacker, replies, count)
    return count


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
            if five_cells(board, other, fives[:2]) == 1 and allowed(board, me, int(fives[0])):
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
                    if allowed(board, me, cell):
                        candidates[count] = cell
                        count += 1
            sort_by_value(board.cell_value, me, candidates, count)
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
    if stop_requested(stats, tables.stop):
        return 0
    if board.counts[me, pt.F5] > 0:
        return 0  # the defender fives first
    if board.counts[other, pt.F5] > 0:
        # A four: block it, or lose to two five points or a forbidden block.
        count = five_cells(board, other, fives[:2])
        block = int(fives[0])
        if count >= 2 or not allowed(board, me, block):
            tables.pv[ply, 0] = block
            tables.pv_length[ply] = 1
            return 1
        play(board, block)
        found = _vct_node(board, tables, depth, ply + 1, other)
        undo(board)
        if found > 0:
            _pv_prefix(tables, ply, block, -1, ply + 1)
        return found
    if depth <= 0 or not wins_next_move(board, other):
        return 0  # no threat: the attacker's last move did not force anything
    if vcf(board, tables, DEFENDER_VCF_DEPTH, ply) > 0:
        tables.pv_length[ply] = 0
        return 0  # the defender's own VCF refutes a three
    replies = tables.moves[ply]
    count = threat_answers(board, replies, other)
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
