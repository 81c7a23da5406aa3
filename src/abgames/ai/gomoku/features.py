"""The Gomoku evaluation as a linear function of its weights.

``evaluate.evaluate(board, w)`` is linear in ``w`` until its clamp: ``w · f``, where
feature ``f[i]`` is the evaluation with weight ``i`` alone set to 1 (the count of
the side to move's ``B3`` points for ``attack.b3``, the opponent's four-three
points for ``defence.four_three``, ...). A fit of the weights to a target
(``abgames.arena.fit``) needs only these vectors, one per position.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.evaluate import evaluate
from abgames.ai.gomoku.weights import (
    EVAL_ATTACK_COMBO,
    EVAL_ATTACK_SHAPE,
    EVAL_COMBO_ON,
    EVAL_LEN,
    EVAL_NAMES,
)
from abgames.games.gomoku import Gomoku


def _unit_vectors() -> list[npt.NDArray[np.int64]]:
    """One evaluation vector per weight, that weight 1 and the others 0."""
    vectors = []
    for index in range(len(EVAL_NAMES)):
        vector = np.zeros(EVAL_LEN, np.int64)
        vector[index] = 1
        if EVAL_ATTACK_COMBO <= index < EVAL_ATTACK_SHAPE:
            vector[EVAL_COMBO_ON] = 1
        vectors.append(vector)
    return vectors


def is_quiet(board: nb.Board) -> bool:
    """Whether the position on ``board`` is one an evaluation should judge: the side
    to move can make no five and no straight four (it would win), and the opponent
    has no four to answer."""
    me = int(board.info[nb.I_TO_MOVE])
    counts = board.counts
    return not (
        counts[me, pt.F5] or counts[me, pt.F4] or counts[me, pt.D4] or counts[1 - me, pt.F5]
    )


def position_features(
    states: Sequence[Gomoku],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """Each state's features (one row each, a column per ``EVAL_NAMES`` entry) and
    whether it is quiet (``is_quiet``). The states share one size and rule."""
    features = np.zeros((len(states), len(EVAL_NAMES)))
    quiet = np.zeros(len(states), np.bool_)
    if not states:
        return features, quiet
    board = nb.new_board(states[0].size, states[0].rule)
    units = _unit_vectors()
    for row, state in enumerate(states):
        nb.load(board, state)
        quiet[row] = is_quiet(board)
        for column, unit in enumerate(units):
            features[row, column] = evaluate(board, unit)
    return features, quiet
