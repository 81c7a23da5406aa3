"""Fit evaluation weights to a teacher's scores (logistic regression, numpy only).

The evaluation is linear in its weights (``abgames.ai.gomoku.features``): ``e = w·f``.
The teacher's score ``s`` of each position becomes a target probability
``p = σ(s / teacher_scale)``. The engine's scale ``k`` is the one (from a grid)
under which the current weights ``w₀`` predict ``p`` best, ``σ(w₀·f / k)``; then the
free weights and an intercept ``b`` minimise the cross-entropy of ``σ((w·f + b) / k)``
against ``p`` (Adam, weights kept at 0 or more). Weights not free keep their values;
``b`` takes the teacher's mean edge for the side to move (the engine's own is the
``tempo`` weight, set for the search's sake) and is dropped.

Every ``HOLDOUT_EVERY``-th position is held out: the correlation of the current
and of the fitted evaluation with the teacher's scores on those positions says
whether the fit generalises. With ``keep_spread`` the fitted free weights are
scaled so that the evaluation's spread over the positions stays what it was: the
search's margins (futility, the threat weights left out of the fit) are set in
the evaluation's units.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

#: The teacher's score that counts as ``σ(1)``: about a strong edge.
DEFAULT_TEACHER_SCALE = 200.0
#: Positions the teacher scores beyond this are decided: left out.
DEFAULT_SCORE_LIMIT = 5000
HOLDOUT_EVERY = 5
#: The engine scales tried for the current weights.
ENGINE_SCALES = (50, 100, 150, 200, 300, 400, 600, 800, 1000, 1200, 1500, 2000, 3000, 4000)
DEFAULT_STEPS = 3000
#: Adam's step for each weight, as a share of its start (at least ``MIN_STEP_BASE``).
STEP_SHARE = 0.01
MIN_STEP_BASE = 10.0
ADAM_BETAS = (0.9, 0.999)
ADAM_EPSILON = 1e-12
#: Keeps the logistic's exponent finite.
LOGIT_CLAMP = 50.0


class FitError(ValueError):
    """A fit that cannot be made: the message says why."""


@dataclass(frozen=True)
class FitResult:
    """Fitted weights and how well each set predicts the teacher on held-out positions."""

    weights: npt.NDArray[np.float64]
    intercept: float  # the fit's own constant, in the engine's units: not a weight
    positions: int
    engine_scale: float
    holdout_before: float
    holdout_after: float
    spread_factor: float


def probability(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    result: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-np.clip(x, -LOGIT_CLAMP, LOGIT_CLAMP)))
    return result


def cross_entropy(q: npt.NDArray[np.float64], p: npt.NDArray[np.float64]) -> float:
    q = np.clip(q, 1e-12, 1 - 1e-12)
    return float(-np.mean(p * np.log(q) + (1 - p) * np.log(1 - q)))


def correlation(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    if a.std() == 0 or b.std() == 0:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def _spread_factor(
    fixed: npt.NDArray[np.float64], fitted: npt.NDArray[np.float64], variance: float
) -> float:
    """The factor ``s > 0`` with ``var(fixed + s·fitted) = variance``, or, when no
    factor reaches it, the one that comes closest."""
    a = float(fitted.var())
    b = float(np.cov(fixed, fitted, bias=True)[0, 1])
    c = float(fixed.var()) - variance
    root = b * b - a * c
    if a == 0:
        return 1.0
    if root < 0:
        return max(-b / a, 0.0)
    return max((-b + float(np.sqrt(root))) / a, 0.0)


def fit_weights(
    features: npt.NDArray[np.float64],
    scores: Sequence[int] | npt.NDArray[np.float64],
    start: npt.NDArray[np.float64],
    free: npt.NDArray[np.bool_],
    *,
    teacher_scale: float = DEFAULT_TEACHER_SCALE,
    score_limit: float = DEFAULT_SCORE_LIMIT,
    steps: int = DEFAULT_STEPS,
    keep_spread: bool = True,
) -> FitResult:
    """Weights (one per column of ``features``) fitted to the teacher's ``scores``,
    from ``start``, changing only the ``free`` ones. ``FitError`` when too few
    positions are left to fit and hold out, or no free weight varies."""
    values = np.asarray(scores, dtype=np.float64)
    kept = np.abs(values) < score_limit
    matrix, values = features[kept], values[kept]
    count = len(values)
    holdout = np.arange(count) % HOLDOUT_EVERY == 0
    train = ~holdout
    if train.sum() < 2 * len(start) or holdout.sum() < 2:
        raise FitError(f"{count} undecided positions are too few to fit {int(free.sum())} weights")
    free = free & (matrix[train].std(axis=0) > 0)
    if not free.any():
        raise FitError("none of the weights to fit varies over these positions")
    target = probability(values / teacher_scale)
    before = matrix @ start
    # The fit's own intercept (a column of ones, from 0): the teacher's mean edge for
    # the side to move is not forced into the pattern weights. It is not an engine
    # weight, and is dropped at the end.
    matrix = np.hstack([matrix, np.ones((count, 1))])
    start = np.append(start, 0.0)
    free = np.append(free, True)
    engine_scale = float(
        min(
            ENGINE_SCALES,
            key=lambda k: cross_entropy(probability(before[train] / k), target[train]),
        )
    )
    weights = start.copy()
    step = STEP_SHARE * np.maximum(np.abs(start), MIN_STEP_BASE)
    moment = np.zeros_like(weights)
    second = np.zeros_like(weights)
    beta1, beta2 = ADAM_BETAS
    rows = matrix[train]
    for index in range(1, steps + 1):
        predicted = probability(rows @ weights / engine_scale)
        gradient = rows.T @ (predicted - target[train]) / len(rows) / engine_scale
        gradient[~free] = 0.0
        moment = beta1 * moment + (1 - beta1) * gradient
        second = beta2 * second + (1 - beta2) * gradient * gradient
        corrected = moment / (1 - beta1**index)
        scale = np.sqrt(second / (1 - beta2**index)) + ADAM_EPSILON
        weights = weights - step * corrected / scale
        weights[:-1] = np.maximum(weights[:-1], 0.0)  # (the intercept may be negative)
        weights[~free] = start[~free]
    intercept = float(weights[-1])
    matrix, weights, free = matrix[:, :-1], weights[:-1], free[:-1]
    after = matrix @ weights
    factor = 1.0
    if keep_spread and after.std() > 0:
        factor = _spread_factor(
            matrix @ np.where(free, 0.0, weights),
            matrix @ np.where(free, weights, 0.0),
            float(before.var()),
        )
        weights = np.where(free, weights * factor, weights)
        after = matrix @ weights
    return FitResult(
        weights=weights,
        intercept=intercept * factor,
        positions=count,
        engine_scale=engine_scale,
        holdout_before=correlation(values[holdout], before[holdout]),
        holdout_after=correlation(values[holdout], after[holdout]),
        spread_factor=factor,
    )
