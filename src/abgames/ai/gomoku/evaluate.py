# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""The static evaluation: a heuristic score for the side to move, read off the board.

``evaluate`` weighs both sides' pattern counts and cell shapes (attack weights for the
side to move, defence weights for the other, laid out as ``weights.EVAL_NAMES``), their
combination cells (double four, four-three, double three) and the move in hand, plus,
when the vector holds one (``weights.NET_ON``), a small network's correction over the
same counts (``net_score``). It reads the board's incremental counts and threat sets
only: no move is tried.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from abgames.ai import kernel_cache
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.board import I_PLY, I_RENJU, I_TO_MOVE, T_FOUR, T_THREE, Board
from abgames.ai.gomoku.weights import (
    COMBO_DOUBLE_FOUR,
    COMBO_DOUBLE_THREE,
    COMBO_FOUR_THREE,
    EVAL_ATTACK,
    EVAL_ATTACK_COMBO,
    EVAL_ATTACK_SHAPE,
    EVAL_COMBO_ON,
    EVAL_DEFENCE,
    EVAL_DEFENCE_COMBO,
    EVAL_DEFENCE_SHAPE,
    EVAL_LIMIT,
    EVAL_TEMPO,
    NET_HIDDEN_BIAS,
    NET_HIDDEN_MAX,
    NET_IN,
    NET_ON,
    NET_OUT,
    NET_OUT_BIAS,
    NET_SCALE,
    NET_SIDE_COLUMNS,
    NET_SIDE_INPUTS,
)

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

#: ``net_score`` keeps one sum per hidden unit as an 8-tuple (``_add_input``).
NET_SUMS = 8
if NET_HIDDEN_MAX != NET_SUMS:
    raise ImportError(f"net_score sums {NET_SUMS} hidden units, not NET_HIDDEN_MAX")


@njit(cache=True, nogil=True)
def combo_counts(board: Board, player: int) -> tuple[int, int, int]:
    """``player``'s combination cells: (double fours, four-threes, double threes). Read
    off the threat sets: cells with a four-making direction, then cells with two
    three-making ones. Renju black's double fours and double threes are forbidden
    points, so they count for nothing."""
    renju_black = player == 0 and board.info[I_RENJU] != 0
    threat_dirs = board.threat_dirs
    double_fours = four_threes = double_threes = 0
    cells = board.threat_cells[player, T_FOUR]
    for i in range(board.threat_size[player, T_FOUR]):
        cell = cells[i]
        fours = threat_dirs[player, T_FOUR, cell]
        if fours >= 2 or has_pattern_code(board, player, cell, pt.D4):
            if not renju_black:
                double_fours += 1
        elif threat_dirs[player, T_THREE, cell] > 0:
            four_threes += 1
    if not renju_black:
        cells = board.threat_cells[player, T_THREE]
        for i in range(board.threat_size[player, T_THREE]):
            cell = cells[i]
            if threat_dirs[player, T_THREE, cell] >= 2 and threat_dirs[player, T_FOUR, cell] == 0:
                double_threes += 1
    return double_fours, four_threes, double_threes


@njit(cache=True, nogil=True)
def _combo_score(combos: tuple[int, int, int], weights: npt.NDArray[np.int64], base: int) -> int:
    """Combination cells (``combo_counts``) weighted from ``weights[base:]``."""
    double_fours, four_threes, double_threes = combos
    return (
        weights[base + COMBO_DOUBLE_FOUR] * double_fours
        + weights[base + COMBO_FOUR_THREE] * four_threes
        + weights[base + COMBO_DOUBLE_THREE] * double_threes
    )


@njit(cache=True, nogil=True)
def fill_net_inputs(board: Board, inputs: npt.NDArray[np.int64]) -> None:
    """Write the network's ``NET_INPUTS`` inputs for the side to move into ``inputs``
    (laid out as ``weights.NET_SIDE_COLUMNS`` says): what ``net_score`` reads."""
    me = board.info[I_TO_MOVE]
    for side, player in enumerate((me, 1 - me)):
        base = side * NET_SIDE_INPUTS
        for column in range(NET_SIDE_COLUMNS):
            inputs[base + column] = board.counts[player, column]
        combos = combo_counts(board, player)
        for k in range(3):
            inputs[base + NET_SIDE_COLUMNS + k] = combos[k]
    inputs[2 * NET_SIDE_INPUTS] = board.info[I_PLY]


@njit(cache=True, nogil=True)
def _add_input(
    weights: npt.NDArray[np.int64], at: int, value: int, sums: tuple[int, ...]
) -> tuple[int, ...]:
    """``sums`` (one per hidden unit) plus ``value`` times the input's row of weights
    at ``at`` (``NET_HIDDEN_MAX`` of them, input-major)."""
    return (
        sums[0] + weights[at] * value,
        sums[1] + weights[at + 1] * value,
        sums[2] + weights[at + 2] * value,
        sums[3] + weights[at + 3] * value,
        sums[4] + weights[at + 4] * value,
        sums[5] + weights[at + 5] * value,
        sums[6] + weights[at + 6] * value,
        sums[7] + weights[at + 7] * value,
    )


@njit(cache=True, nogil=True)
def net_score(board: Board, weights: npt.NDArray[np.int64]) -> int:
    """The network's correction for the side to move, in evaluation units
    (``_net_sum`` with both sides' ``combo_counts``)."""
    me = board.info[I_TO_MOVE]
    return _net_sum(board, weights, combo_counts(board, me), combo_counts(board, 1 - me))


@njit(cache=True, nogil=True)
def _net_sum(
    board: Board,
    weights: npt.NDArray[np.int64],
    mine: tuple[int, int, int],
    theirs: tuple[int, int, int],
) -> int:
    """The network's correction for the side to move, in evaluation units: each hidden
    unit's weighted sum of the inputs (``fill_net_inputs``) clipped to 0..``NET_SCALE``,
    weighted by its output weight, over ``NET_SCALE``, plus the output bias. Integer
    arithmetic throughout. The inputs are read from the board, not copied, each once
    (its row of weights lies together, ``weights.NET_IN``), and inputs at 0 (most fours
    and combinations) cost nothing; the ``NET_HIDDEN_MAX`` sums stay in registers.
    ``mine`` and ``theirs`` are the two sides' ``combo_counts``, read by the caller."""
    me = board.info[I_TO_MOVE]
    counts = board.counts
    bias = NET_HIDDEN_BIAS
    sums: tuple[int, ...] = (
        weights[bias], weights[bias + 1], weights[bias + 2], weights[bias + 3],
        weights[bias + 4], weights[bias + 5], weights[bias + 6], weights[bias + 7],
    )  # fmt: skip
    for side in range(2):
        player = me if side == 0 else 1 - me
        row = NET_IN + side * NET_SIDE_INPUTS * NET_HIDDEN_MAX
        for column in range(NET_SIDE_COLUMNS):
            value = counts[player, column]
            if value != 0:
                sums = _add_input(weights, row + column * NET_HIDDEN_MAX, value, sums)
        combos = mine if side == 0 else theirs
        row += NET_SIDE_COLUMNS * NET_HIDDEN_MAX
        for k in range(3):
            if combos[k] != 0:
                sums = _add_input(weights, row + k * NET_HIDDEN_MAX, combos[k], sums)
    stones = board.info[I_PLY]
    sums = _add_input(weights, NET_IN + 2 * NET_SIDE_INPUTS * NET_HIDDEN_MAX, stones, sums)
    total = 0
    for h in range(NET_HIDDEN_MAX):
        total += weights[NET_OUT + h] * max(0, min(NET_SCALE, sums[h]))
    return total // NET_SCALE + weights[NET_OUT_BIAS]


@njit(cache=True, nogil=True)
def has_pattern_code(board: Board, player: int, cell: int, code: int) -> bool:
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
    combos_on = weights[EVAL_COMBO_ON] != 0
    net_on = weights[NET_ON] != 0
    if combos_on or net_on:  # each side's threat sets read once for both terms
        mine = combo_counts(board, me)
        theirs = combo_counts(board, other)
        if combos_on:
            score += _combo_score(mine, weights, EVAL_ATTACK_COMBO)
            score -= _combo_score(theirs, weights, EVAL_DEFENCE_COMBO)
        if net_on:
            score += _net_sum(board, weights, mine, theirs)
    return max(-EVAL_LIMIT, min(EVAL_LIMIT, score))
