# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""The static evaluation: a heuristic score for the side to move, read off the board.

``evaluate`` weighs both sides' pattern counts and cell shapes (attack weights for the
side to move, defence weights for the other, laid out as ``weights.EVAL_NAMES``), their
combination cells (double four, four-three, double three) and the move in hand. It
reads the board's incremental counts and threat sets only: no move is tried.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from abgames.ai import kernel_cache
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.board import I_RENJU, I_TO_MOVE, T_FOUR, T_THREE, Board
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
)

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved


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
        if fours >= 2 or has_pattern_code(board, player, cell, pt.D4):
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
    if weights[EVAL_COMBO_ON] != 0:
        score += _combo_score(board, me, weights, EVAL_ATTACK_COMBO)
        score -= _combo_score(board, other, weights, EVAL_DEFENCE_COMBO)
    return max(-EVAL_LIMIT, min(EVAL_LIMIT, score))
