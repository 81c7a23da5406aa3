# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""Threat-aware alpha-beta over a ``Board``: the numba ``negamax`` and its root.

Scores follow ``abgames.search.score``: the side to move's view, a win whose winning
stone is the n-th move from the root scores ``WIN - n``.

``negamax`` is principal-variation search with a transposition table, killer and
history ordering, forced-block extension, late-move reductions of quiet moves and
move-count pruning (each optionally), static wins read off the threat sets
(``_static_win``; Renju black's played out against the forbidden rule) and a short
VCF at the leaves whose evaluation is below beta (optionally; ``threats.vcf``).
``search_root`` is one iteration over the root moves, ``root_candidates`` the root's
moves (plain Python over the kernels). The stop flag is read as ``tables`` says.
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
    I_SIZE,
    I_TO_MOVE,
    I_WIDTH,
    T_FIVE,
    T_FOUR,
    T_THREE,
    Board,
    play,
    undo,
)
from abgames.ai.gomoku.evaluate import evaluate, has_pattern_code
from abgames.ai.gomoku.movegen import (
    allowed,
    beam_cut,
    five_cells,
    generate,
    keep_threats,
    pick,
    straight_four_points,
)
from abgames.ai.gomoku.renju import NOT_FORBIDDEN, forbidden
from abgames.ai.gomoku.tables import (
    C_BEAM,
    C_EXTENSION_LIMIT,
    C_FOUR_EXTENSION,
    C_FRONTIER_BEAM,
    C_FRONTIER_DEPTH,
    C_FRONTIER_NEAR_BEAM,
    C_FUTILITY_DEPTH,
    C_FUTILITY_MARGIN,
    C_KEEP_THREATS,
    C_LEAF_VCF,
    C_LEAF_VCF_NODES,
    C_LEAF_VCF_SPAN,
    C_LMR,
    C_LMR_AFTER,
    C_LMR_DEEP_AFTER,
    C_LMR_MIN_DEPTH,
    C_MOVE_COUNT_BASE,
    C_RAZOR_DEPTH,
    C_RAZOR_MARGIN,
    C_STATIC_WINS,
    C_THREATS,
    C_THREE_EXTENSION,
    EXACT,
    LOWER,
    MAX_MOVES,
    MAX_PLY,
    S_ABORTED,
    S_CUTOFFS,
    S_NODES,
    S_SELDEPTH,
    S_TT_HITS,
    S_VCF_EXHAUSTED,
    S_VCF_LIMIT,
    S_VCF_NODES,
    S_VCF_ROOT,
    S_VCF_SPAN,
    TABLES_TYPE,
    TT_BITS,
    UPPER,
    Tables,
    stop_requested,
)
from abgames.ai.gomoku.threats import vcf
from abgames.search.score import WIN, WIN_THRESHOLD

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

# One compiled copy each (see board.py): cells and plies arrive as int32 or literals.
_I64 = types.int64
_SET_PV_SIGNATURE = types.void(TABLES_TYPE, _I64, _I64)
_NEGAMAX_SIGNATURE = types.int64(
    BOARD_TYPE, TABLES_TYPE, types.int64, types.int64, types.int64, types.int64
)


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
    if straight_four_points(board, me) > 0:
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
        if has_pattern_code(board, 0, cell, pt.F4) and forbidden(board, cell) == NOT_FORBIDDEN:
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
    if stop_requested(tables.stats, tables.stop):
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
        if five_cells(board, other, fives[:2]) >= 2:
            return -(WIN - ply - 2)
        block = int(fives[0])
        if not allowed(board, me, block):
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
    other_flex = straight_four_points(board, other)
    if beta - alpha == 1 and alpha > -WIN_THRESHOLD and beta < WIN_THRESHOLD:
        futility_depth = tables.config[C_FUTILITY_DEPTH]
        razor_depth = tables.config[C_RAZOR_DEPTH]
        if (
            (depth < futility_depth or depth < razor_depth)
            and other_flex == 0
            and straight_four_points(board, me) == 0
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
    count = beam_cut(moves, keys, count, beam)
    keep = tables.config[C_KEEP_THREATS]
    if keep > 0 and count < generated:
        count = keep_threats(board, moves, keys, count, generated, keep)
    last_move = int(board.stack[board.info[I_PLY] - 1]) if far_limit < count else -1
    width = board.info[I_WIDTH]

    alpha_original = alpha
    best = -WIN - 1
    best_move = -1
    reduce_late = tables.config[C_LMR] != 0 and depth >= tables.config[C_LMR_MIN_DEPTH]
    reduce_after = tables.config[C_LMR_AFTER]
    reduce_deep_after = tables.config[C_LMR_DEEP_AFTER]
    # Move-count pruning: at a null-window node, once a move that does not lose is
    # found, the moves past ``C_MOVE_COUNT_BASE + depth^1.5`` are not tried.
    move_limit = count
    if tables.config[C_MOVE_COUNT_BASE] > 0 and beta - alpha == 1:
        move_limit = tables.config[C_MOVE_COUNT_BASE] + int(depth**1.5)
    for i in range(count):
        if i >= move_limit and best > -WIN_THRESHOLD:
            break
        cell = pick(moves, keys, i, count)
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
            if allowed(board, me, block):
                out[count] = block
                count += 1
        if count > 0:
            return count
    generated = int(generate(board, tables, 0))
    moves = tables.moves[0]
    keys = tables.order[0]
    count = int(beam_cut(moves, keys, generated, int(tables.config[C_BEAM])))
    keep = int(tables.config[C_KEEP_THREATS])
    if keep > 0 and count < generated:
        count = int(keep_threats(board, moves, keys, count, generated, keep))
    for i in range(count):
        out[i] = pick(moves, keys, i, count)
    return count
