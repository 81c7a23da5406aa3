"""Train the learned evaluation (``evaluate.net_score``) on labelled positions (numpy).

The engine's evaluation of a position is ``e = w·f + n(x)``: the hand-set weighted sum
(``base``) plus a network's correction ``n`` over the board's counts ``x``
(``evaluate.fill_net_inputs``): one hidden layer of clipped ReLU units, ``n(x) = v ·
clip(W x + b, 0, 1) + c``. A position's target is a probability: ``σ(s / 200)`` for
the teacher's score ``s`` (``fit.DEFAULT_TEACHER_SCALE``), mixed with the game's result
for the side to move (1, ½, 0) at ``result_weight`` where the game is known; the
prediction is ``σ(e / k)``, with ``k`` the engine scale under which ``base`` alone
predicts best (``fit.ENGINE_SCALES``). Full-batch Adam minimises the cross-entropy
plus an L2 penalty on ``W`` and ``v``; the parameters with the lowest held-out loss
are kept.

Positions are held out by game, not one by one (positions of one game are alike):
a position is held out when a hash of its first ``GAME_KEY_MOVES`` moves falls in
one fifth. Training checkpoints every ``CHECKPOINT_EVERY`` steps to a file and resumes
from it when run again on the same data and settings (more steps continue a run).

``quantize`` turns the trained floats into the integer network the kernels run (the
inputs' normalisation folded into the first layer), and ``check_set`` records the
integer network's correlation with the teacher on held-out positions, which the
shipped file's test reproduces.
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku.evaluate import evaluate, fill_net_inputs
from abgames.ai.gomoku.features import is_quiet
from abgames.ai.gomoku.netfile import Network, pack
from abgames.ai.gomoku.weights import EVAL_WEIGHTS, NET_INPUTS, NET_SCALE
from abgames.arena.fit import (
    DEFAULT_SCORE_LIMIT,
    DEFAULT_TEACHER_SCALE,
    ENGINE_SCALES,
    FitError,
    correlation,
    cross_entropy,
    probability,
)
from abgames.games.gomoku import Gomoku, Rule

#: Positions whose first this many moves hash alike belong to one game (held out together).
GAME_KEY_MOVES = 12
HOLDOUT_SHARE = 5  # one position in this many, by game
CHECKPOINT_EVERY = 100
#: Held-out positions written into the network file with the integer network's scores.
CHECK_POSITIONS = 400
ADAM_BETAS = (0.9, 0.999)
ADAM_EPSILON = 1e-8
#: Fewest positions a network is trained on.
MIN_POSITIONS = 200


@dataclass(frozen=True)
class TrainSettings:
    """A training run's settings; the defaults did best on held-out positions of the first
    run (docs/tuning.md, *A learned evaluation*)."""

    hidden: int = 8
    steps: int = 2000
    learning_rate: float = 0.002
    l2: float = 1e-3
    result_weight: float = 0.25
    seed: int = 0


@dataclass(frozen=True)
class NetData:
    """Labelled quiet positions: the network's inputs, the hand-set evaluation, the
    teacher's scores, the games' results for the side to move (NaN: unknown), the
    held-out mask and the positions' moves."""

    inputs: npt.NDArray[np.float64]
    base: npt.NDArray[np.float64]
    scores: npt.NDArray[np.float64]
    results: npt.NDArray[np.float64]
    holdout: npt.NDArray[np.bool_]
    moves: list[str]
    rule: str
    size: int

    def fingerprint(self) -> str:
        digest = hashlib.sha256()
        for array in (self.inputs, self.base, self.scores, self.results):
            digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()[:16]


def results_by_position(games: Sequence[Mapping[str, object]]) -> dict[str, float]:
    """For each position of the records' games (its moves, space-separated), the
    mean result for the side to move there: 1 won, ½ drawn, 0 lost."""
    sums: dict[str, list[float]] = {}
    for game in games:
        moves = str(game.get("moves", "")).split()
        result = game.get("result")
        if result == "1-0":
            first = 1.0
        elif result == "0-1":
            first = 0.0
        elif result == "1/2-1/2":
            first = 0.5
        else:
            continue
        for length in range(len(moves) + 1):
            value = first if length % 2 == 0 else 1.0 - first
            entry = sums.setdefault(" ".join(moves[:length]), [0.0, 0.0])
            entry[0] += value
            entry[1] += 1
    return {key: total / count for key, (total, count) in sums.items()}


def _held_out(moves: str) -> bool:
    key = " ".join(moves.split()[:GAME_KEY_MOVES]).encode()
    return zlib.crc32(key) % HOLDOUT_SHARE == 0


def net_dataset(
    labelled: Sequence[tuple[str, float]],
    results: Mapping[str, float],
    *,
    size: int,
    rule: Rule,
    score_limit: float = DEFAULT_SCORE_LIMIT,
) -> NetData:
    """The quiet, undecided positions of ``labelled`` ((moves, teacher score) pairs)
    as training data; positions of another board or with illegal moves are skipped."""
    board = nb.new_board(size, rule)
    row = np.zeros(NET_INPUTS, np.int64)
    inputs, base, scores, outcome, holdout, kept = [], [], [], [], [], []
    for moves, score in labelled:
        if abs(score) >= score_limit:
            continue
        try:
            state = Gomoku.from_notation(moves, size=size, rule=rule)
        except ValueError:
            continue
        nb.load(board, state)
        if not is_quiet(board):
            continue
        fill_net_inputs(board, row)
        inputs.append(row.astype(np.float64))
        base.append(float(evaluate(board, EVAL_WEIGHTS)))
        scores.append(float(score))
        outcome.append(results.get(" ".join(moves.split()), np.nan))
        holdout.append(_held_out(moves))
        kept.append(moves)
    return NetData(
        inputs=np.array(inputs, np.float64).reshape(-1, NET_INPUTS),
        base=np.array(base, np.float64),
        scores=np.array(scores, np.float64),
        results=np.array(outcome, np.float64),
        holdout=np.array(holdout, np.bool_),
        moves=kept,
        rule=rule.value,
        size=size,
    )


@dataclass
class FloatNet:
    """The trained network in floats, on normalised inputs ``(x - mean) / std``."""

    mean: npt.NDArray[np.float64]
    std: npt.NDArray[np.float64]
    first: npt.NDArray[np.float64]  # [hidden, inputs]
    first_bias: npt.NDArray[np.float64]
    out: npt.NDArray[np.float64]
    out_bias: float

    def hidden(self, inputs: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        normal = (inputs - self.mean) / self.std
        result: npt.NDArray[np.float64] = np.clip(normal @ self.first.T + self.first_bias, 0, 1)
        return result

    def __call__(self, inputs: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        result: npt.NDArray[np.float64] = self.hidden(inputs) @ self.out + self.out_bias
        return result


@dataclass(frozen=True)
class TrainResult:
    net: FloatNet
    engine_scale: float
    steps: int
    best_step: int
    train_positions: int
    holdout_positions: int
    holdout_loss_before: float
    holdout_loss_after: float
    holdout_correlation_before: float
    holdout_correlation_after: float


def _targets(data: NetData, settings: TrainSettings) -> npt.NDArray[np.float64]:
    teacher = probability(data.scores / DEFAULT_TEACHER_SCALE)
    known = ~np.isnan(data.results)
    weight = np.where(known, settings.result_weight, 0.0)
    mixed: npt.NDArray[np.float64] = (1 - weight) * teacher + weight * np.where(
        known, data.results, 0.0
    )
    return mixed


def train(
    data: NetData,
    settings: TrainSettings,
    checkpoint: Path | None = None,
    progress: Callable[[int, float, float], None] | None = None,
) -> TrainResult:
    """Train a network on ``data`` (``FitError`` when too few positions); resume from
    ``checkpoint`` when it holds a run of the same data and settings."""
    train_rows = ~data.holdout
    if train_rows.sum() < MIN_POSITIONS or data.holdout.sum() < 2:
        raise FitError(
            f"{len(data.scores)} quiet undecided positions ({int(data.holdout.sum())} held "
            f"out) are too few to train a network: {MIN_POSITIONS} at least"
        )
    target = _targets(data, settings)
    x, base = data.inputs[train_rows], data.base[train_rows]
    y = target[train_rows]
    engine_scale = float(min(ENGINE_SCALES, key=lambda k: cross_entropy(probability(base / k), y)))
    # Inputs that never vary in training (the side to move's fours, in quiet positions)
    # get no weight: the search meets them, and an untrained weight would say anything.
    varying = x.std(axis=0) > 0
    mean = np.where(varying, x.mean(axis=0), 0.0)
    std = np.where(varying, x.std(axis=0), 1.0)
    normal = (x - mean) / std
    rng = np.random.default_rng(settings.seed)
    hidden = settings.hidden
    params = {
        "first": rng.normal(0.0, 1.0 / np.sqrt(NET_INPUTS), (hidden, NET_INPUTS)) * varying,
        "first_bias": np.full(hidden, 0.5),
        "out": np.zeros(hidden),
        "out_bias": np.zeros(1),
    }
    moments = {name: np.zeros_like(value) for name, value in params.items()}
    seconds = {name: np.zeros_like(value) for name, value in params.items()}
    best = {name: value.copy() for name, value in params.items()}
    # More steps continue a run: the step count is not part of what a checkpoint must match.
    fingerprint = f"{data.fingerprint()}:{asdict(replace(settings, steps=0))}"
    step, best_step, best_loss = 0, 0, float("inf")
    if checkpoint is not None and checkpoint.exists():
        saved = np.load(checkpoint, allow_pickle=False)
        if str(saved["fingerprint"]) == fingerprint:
            step, best_step = int(saved["step"]), int(saved["best_step"])
            best_loss = float(saved["best_loss"])
            for name in params:
                params[name] = saved[f"p_{name}"]
                moments[name] = saved[f"m_{name}"]
                seconds[name] = saved[f"s_{name}"]
                best[name] = saved[f"b_{name}"]

    def as_net(values: Mapping[str, npt.NDArray[np.float64]]) -> FloatNet:
        return FloatNet(
            mean=mean,
            std=std,
            first=values["first"],
            first_bias=values["first_bias"],
            out=values["out"],
            out_bias=float(values["out_bias"][0]),
        )

    held_x, held_base = data.inputs[data.holdout], data.base[data.holdout]
    held_y = target[data.holdout]

    def held_loss(values: Mapping[str, npt.NDArray[np.float64]]) -> float:
        return cross_entropy(
            probability((held_base + as_net(values)(held_x)) / engine_scale), held_y
        )

    beta1, beta2 = ADAM_BETAS
    count = len(y)
    while step < settings.steps:
        step += 1
        pre = normal @ params["first"].T + params["first_bias"]
        active = (pre > 0) & (pre < 1)
        act = np.clip(pre, 0, 1)
        out = act @ params["out"] + params["out_bias"][0]
        predicted = probability((base + out) / engine_scale)
        d_out = (predicted - y) / count / engine_scale
        grads = {
            "out": act.T @ d_out + settings.l2 * params["out"] / engine_scale**2,
            "out_bias": np.array([d_out.sum()]),
        }
        d_pre = np.outer(d_out, params["out"]) * active
        grads["first"] = (d_pre.T @ normal + settings.l2 * params["first"]) * varying
        grads["first_bias"] = d_pre.sum(axis=0)
        for name, gradient in grads.items():
            moments[name] = beta1 * moments[name] + (1 - beta1) * gradient
            seconds[name] = beta2 * seconds[name] + (1 - beta2) * gradient * gradient
            corrected = moments[name] / (1 - beta1**step)
            scale = np.sqrt(seconds[name] / (1 - beta2**step)) + ADAM_EPSILON
            rate = settings.learning_rate * (engine_scale if name.startswith("out") else 1.0)
            params[name] = params[name] - rate * corrected / scale
        if step % 10 == 0 or step == settings.steps:
            loss = held_loss(params)
            if loss < best_loss:
                best_loss, best_step = loss, step
                best = {name: value.copy() for name, value in params.items()}
        if checkpoint is not None and (step % CHECKPOINT_EVERY == 0 or step == settings.steps):
            _save_checkpoint(checkpoint, fingerprint, step, best_step, best_loss, params,
                             moments, seconds, best)  # fmt: skip
            if progress is not None:
                progress(step, best_loss, cross_entropy(predicted, y))
    net = as_net(best)
    before = held_base
    after = held_base + net(held_x)
    return TrainResult(
        net=net,
        engine_scale=engine_scale,
        steps=step,
        best_step=best_step,
        train_positions=count,
        holdout_positions=int(data.holdout.sum()),
        holdout_loss_before=cross_entropy(probability(before / engine_scale), held_y),
        holdout_loss_after=held_loss(best),
        holdout_correlation_before=correlation(data.scores[data.holdout], before),
        holdout_correlation_after=correlation(data.scores[data.holdout], after),
    )


def _save_checkpoint(
    path: Path,
    fingerprint: str,
    step: int,
    best_step: int,
    best_loss: float,
    params: Mapping[str, npt.NDArray[np.float64]],
    moments: Mapping[str, npt.NDArray[np.float64]],
    seconds: Mapping[str, npt.NDArray[np.float64]],
    best: Mapping[str, npt.NDArray[np.float64]],
) -> None:
    arrays: dict[str, npt.NDArray[np.float64]] = {
        "fingerprint": np.array(fingerprint),
        "step": np.array(step),
        "best_step": np.array(best_step),
        "best_loss": np.array(best_loss),
    }
    for prefix, group in (("p", params), ("m", moments), ("s", seconds), ("b", best)):
        for name, value in group.items():
            arrays[f"{prefix}_{name}"] = value
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp.npz")
    with temporary.open("wb") as stream:
        np.savez(stream, **arrays)  # type: ignore[arg-type]
    os.replace(temporary, path)


def quantize(net: FloatNet) -> Network:
    """The integer network that computes ``net`` (to rounding) on raw inputs."""
    first = net.first / net.std  # the normalisation folded into the first layer
    first_bias = net.first_bias - first @ net.mean
    return Network(
        hidden_bias=np.round(first_bias * NET_SCALE).astype(np.int64),
        output=np.round(net.out).astype(np.int64),
        output_bias=round(net.out_bias),
        input_weights=np.round(first * NET_SCALE).astype(np.int64),
    )


def kernel_scores(network: Network, moves: Sequence[str], *, size: int, rule: Rule) -> list[int]:
    """The engine's evaluation with ``network`` of each position (its moves)."""
    vector = EVAL_WEIGHTS.copy()
    pack(vector, network)
    board = nb.new_board(size, rule)
    scores = []
    for line in moves:
        nb.load(board, Gomoku.from_notation(line, size=size, rule=rule))
        scores.append(int(evaluate(board, vector)))
    return scores


def check_set(data: NetData, network: Network) -> dict[str, object]:
    """Up to ``CHECK_POSITIONS`` held-out positions with the teacher's scores and the
    correlation of the engine's evaluation with ``network`` with them."""
    rows = np.flatnonzero(data.holdout)[:CHECK_POSITIONS]
    moves = [data.moves[i] for i in rows]
    scores = [int(data.scores[i]) for i in rows]
    evaluated = kernel_scores(network, moves, size=data.size, rule=Rule(data.rule))
    return {
        "rule": data.rule,
        "size": data.size,
        "moves": moves,
        "teacher": scores,
        "correlation": round(
            correlation(np.array(scores, np.float64), np.array(evaluated, np.float64)), 6
        ),
    }
