"""SPSA tuning of a Gomoku level's evaluation weights through the arena's games.

Simultaneous perturbation stochastic approximation (Spall), as chess engines tune
with it (fishtest): at step ``k`` every tuned weight ``i`` is moved by ``±c_k·cᵢ``
(one random sign each, ``Δ``), the two candidates ``θ + c_kΔ`` and ``θ - c_kΔ``
play a game pair (one opening, each side once with black), and every weight moves
towards the winner:

    θᵢ ← θᵢ + a_k · cᵢ · result · Δᵢ      result = (points(θ+) - points(θ-)) / 2 ∈ [-1, 1]

with the schedules ``c_k = 1 / k^γ`` and ``a_k = r / (A + k)^α`` (``α = 0.602``,
``γ = 0.101``, ``A`` a tenth of the planned steps), so steps shrink as the run
goes on. ``cᵢ`` is the weight's perturbation size (its scale) and ``r`` the
learning rate, both given per run. Several steps are played at once (a *batch*,
one game pair each, all from the same ``θ``), then applied in order.

With an opponent (an arena engine spec, such as an external brain:
``cmd=/path/pbrain-x``) the candidates do not play each other: each plays the
opponent twice from the step's opening, once with black, and ``result`` is half
the points ``θ+`` scored there less those ``θ-`` scored. The weights then follow
what wins against that engine rather than against themselves.

Games are ``abgames.arena.judge.play_game`` tasks: the same judge, clocks and
records as ``abgames arena``, run in a pool of local processes or as Ray tasks.
The run's state (``θ``, the step, the games and the generator's seed) is written
atomically to a JSON file after every batch, so a run stopped in any way resumes
from its last batch with the same command.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path

from abgames.arena.engines import EngineSpec
from abgames.arena.judge import GameRecord, GameTask, play_game
from abgames.cluster import Cluster
from abgames.files import FileRefusedError, read_text, shown_name, write_atomically
from abgames.games.base import Move
from abgames.match import SAVE_FORMAT

#: Spall's recommended schedule exponents.
ALPHA = 0.602
GAMMA = 0.101
#: ``A`` as a share of the planned steps.
STABILITY_SHARE = 0.1
#: The state file's format version.
STATE_VERSION = 1


class TuneError(ValueError):
    """A tuning run that cannot start or resume: the message says why."""


@dataclass(frozen=True)
class Param:
    """One tuned weight: its name, start value, perturbation size and bounds."""

    name: str
    start: float
    scale: float
    low: float
    high: float

    def clamp(self, value: float) -> float:
        return min(self.high, max(self.low, value))


@dataclass
class TuneState:
    """Everything a run needs to resume: written after every batch."""

    level: str
    params: list[Param]
    steps: int
    rate: float
    theta: list[float]
    step: int = 0
    games: int = 0
    points_plus: float = 0.0
    seed: int = 0
    history: list[list[float]] = field(default_factory=list)
    version: int = STATE_VERSION
    opponent: str | None = None  # the spec of the engine both candidates play, if any
    points_against_opponent: float = 0.0  # both candidates' points against it

    def values(self) -> dict[str, int]:
        """``θ`` rounded to the whole numbers the engine plays with."""
        return {p.name: round(t) for p, t in zip(self.params, self.theta, strict=True)}


def new_state(
    level: str,
    params: Sequence[Param],
    steps: int,
    rate: float,
    seed: int,
    opponent: str | None = None,
) -> TuneState:
    if steps < 1:
        raise TuneError(f"a run needs at least one step, not {steps}")
    try:
        _checked_rate(rate)
    except ValueError as error:
        raise TuneError(str(error)) from None
    if not params:
        raise TuneError("name at least one weight to tune")
    for param in params:
        if param.scale <= 0 or not param.low <= param.start <= param.high:
            raise TuneError(
                f"{param.name}: the scale must be positive and the start within its bounds"
            )
    return TuneState(
        level=level,
        params=list(params),
        steps=steps,
        rate=rate,
        theta=[p.start for p in params],
        seed=seed,
        opponent=opponent,
    )


def save_state(state: TuneState, path: Path) -> None:
    """Write ``state`` to ``path`` atomically (``files.write_atomically``)."""
    write_atomically(path, json.dumps(asdict(state), indent=1).encode("utf-8"))


def load_state(path: Path) -> TuneState:
    """The run saved at ``path``; ``TuneError`` naming the file and the first problem if
    it is not one of ours: unreadable, not a regular file, over ``MAX_STATE_BYTES``,
    not JSON, or any field missing or of the wrong type or range (a saved game, say)."""
    shown = shown_name(path)
    try:
        text = read_text(path, MAX_STATE_BYTES)
    except FileRefusedError as error:
        raise TuneError(str(error)) from None
    except OSError as error:
        raise TuneError(f"cannot read {shown}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise TuneError(f"{shown}: not a readable tuning state (not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise TuneError(f"{shown}: not a readable tuning state (bad JSON: {error.msg})") from None
    except (RecursionError, ValueError):
        raise TuneError(f"{shown}: not a readable tuning state (unreadable JSON)") from None
    if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
        raise TuneError(f"{shown}: a saved game, not a tuning state")
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        raise TuneError(f"{shown}: not a tuning state of version {STATE_VERSION}")
    try:
        return _checked_state(data)
    except ValueError as error:
        raise TuneError(f"{shown}: not a readable tuning state ({error})") from None


#: The largest state file read (its history grows by a line of weights a batch).
MAX_STATE_BYTES = 64 * 1024 * 1024


def _number(value: object, name: str) -> float:
    if not isinstance(value, bool) and isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:  # a whole number of hundreds of digits
            number = math.inf
        if math.isfinite(number):
            return number
    raise ValueError(f"{name} is not a finite number")


def _whole(value: object, name: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} is not a whole number of at least {low}")
    return value


def _checked_state(data: object) -> TuneState:
    """A ``TuneState`` from a state file's JSON; ``ValueError`` naming the first bad field."""
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if data.get("version") != STATE_VERSION:
        raise ValueError(f"no version {STATE_VERSION}")
    for name in ("params", "theta", "level", "steps", "rate"):
        if name not in data:
            raise ValueError(f"no {name!r}")
    unknown = sorted(set(data) - {f.name for f in fields(TuneState)})
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}")
    raw_params = data["params"]
    if not isinstance(raw_params, list) or not raw_params:
        raise ValueError("'params' is not a list of weights")
    params = []
    for index, raw in enumerate(raw_params):
        where = f"params[{index}]"
        if not isinstance(raw, dict) or set(raw) != {f.name for f in fields(Param)}:
            raise ValueError(f"{where} is not {{name, start, scale, low, high}}")
        if not isinstance(raw["name"], str):
            raise ValueError(f"{where}.name is not a string")
        start, scale, low, high = (
            _number(raw[key], f"{where}.{key}") for key in ("start", "scale", "low", "high")
        )
        if scale <= 0 or not low <= start <= high:
            raise ValueError(f"{where}: the scale must be positive and the start within its bounds")
        params.append(Param(raw["name"], start, scale, low, high))
    theta = data["theta"]
    if not isinstance(theta, list) or len(theta) != len(params):
        raise ValueError(f"'theta' is not a list of {len(params)} values, one a weight")
    history = data.get("history", [])
    if not isinstance(history, list) or not all(isinstance(row, list) for row in history):
        raise ValueError("'history' is not a list of lists")
    opponent = data.get("opponent")
    if opponent is not None and not isinstance(opponent, str):
        raise ValueError("'opponent' is not an engine spec")
    if not isinstance(data["level"], str):
        raise ValueError("'level' is not a string")
    steps = _whole(data["steps"], "'steps'", 1)
    step = _whole(data.get("step", 0), "'step'")
    if step > steps:
        raise ValueError(f"'step' {step} is beyond 'steps' {steps}")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("'seed' is not a whole number")
    return TuneState(
        level=data["level"],
        params=params,
        steps=steps,
        rate=_checked_rate(_number(data["rate"], "'rate'")),
        theta=[_number(value, "a value of 'theta'") for value in theta],
        step=step,
        games=_whole(data.get("games", 0), "'games'"),
        points_plus=_number(data.get("points_plus", 0.0), "'points_plus'"),
        seed=seed,
        history=[[_number(value, "a value of 'history'") for value in row] for row in history],
        opponent=opponent,
        points_against_opponent=_number(
            data.get("points_against_opponent", 0.0), "'points_against_opponent'"
        ),
    )


def _checked_rate(rate: float) -> float:
    """``rate`` if it is a positive finite number; ``ValueError`` otherwise."""
    if not (math.isfinite(rate) and rate > 0):
        raise ValueError(f"the learning rate must be a positive number, not {rate}")
    return rate


def perturbation(state: TuneState, k: int) -> float:
    """``c_k``: the share of each weight's scale the candidates differ by at step ``k``."""
    return float(1.0 / (k + 1) ** GAMMA)


def gain(state: TuneState, k: int) -> float:
    """``a_k``: the learning rate at step ``k``."""
    stability = STABILITY_SHARE * state.steps
    return float(state.rate * (stability + 1) ** ALPHA / (stability + k + 1) ** ALPHA)


@dataclass(frozen=True)
class Candidates:
    """One step's pair of candidates: its index, signs and the two weight sets."""

    step: int
    signs: tuple[int, ...]
    plus: tuple[tuple[str, int], ...]
    minus: tuple[tuple[str, int], ...]


def candidates(state: TuneState, k: int, rng: random.Random) -> Candidates:
    """The two weight sets of step ``k`` (rounded, clamped to each weight's bounds)."""
    c_k = perturbation(state, k)
    signs = tuple(rng.choice((-1, 1)) for _ in state.params)
    plus: list[tuple[str, int]] = []
    minus: list[tuple[str, int]] = []
    for param, theta, sign in zip(state.params, state.theta, signs, strict=True):
        step = c_k * param.scale * sign
        plus.append((param.name, round(param.clamp(theta + step))))
        minus.append((param.name, round(param.clamp(theta - step))))
    return Candidates(k, signs, tuple(plus), tuple(minus))


def apply_result(state: TuneState, pair: Candidates, result: float) -> None:
    """Move ``θ`` by one step's result (points of ``plus`` minus points of ``minus``)."""
    a_k = gain(state, pair.step)
    for i, (param, sign) in enumerate(zip(state.params, pair.signs, strict=True)):
        state.theta[i] = param.clamp(state.theta[i] + a_k * param.scale * result * sign)


#: The names the candidates ``θ+``, ``θ-`` and the opponent play under in a run's games.
PLUS_NAME = "plus"
MINUS_NAME = "minus"
OPPONENT_NAME = "opponent"


@dataclass(frozen=True)
class Match:
    """What every game of a run shares: game options, level, limits and openings, and
    the engine both candidates play (``None``: they play each other)."""

    options: dict[str, object]
    turn_ms: int
    openings: tuple[tuple[Move, ...], ...]
    tolerance_ms: int = 500
    opponent: EngineSpec | None = None

    @property
    def games_per_step(self) -> int:
        return 2 if self.opponent is None else 4


def pair_tasks(
    state: TuneState, match: Match, pair: Candidates, rng: random.Random
) -> tuple[GameTask, ...]:
    """The games of one step, all from one opening: the candidates against each
    other, each black once; or, with an opponent, each candidate against it twice,
    once with black. Task ``index // match.games_per_step`` is the step."""
    opening = match.openings[rng.randrange(len(match.openings))]
    specs = []
    for name, overrides in ((PLUS_NAME, pair.plus), (MINUS_NAME, pair.minus)):
        specs.append(
            EngineSpec(
                "level",
                state.level,
                name,
                match.turn_ms,
                seed=None,
                eval_overrides=overrides,
            )
        )
    plus, minus = specs
    if match.opponent is None:
        sides = [(plus, minus), (minus, plus)]
    else:
        opponent = replace(match.opponent, name=OPPONENT_NAME)
        sides = [(plus, opponent), (opponent, plus), (minus, opponent), (opponent, minus)]
    first_index = match.games_per_step * pair.step
    options = match.options
    tolerance = match.tolerance_ms
    return tuple(
        GameTask(first_index + i, "gomoku", dict(options), engines, opening, None, tolerance)
        for i, engines in enumerate(sides)
    )


def points_of(record: GameRecord, player: str) -> float:
    """Points of ``player`` (a name in the game) in one game: 1, ½ or 0."""
    if record.winner is None:
        return 0.5
    return 1.0 if record.players[record.winner] == player else 0.0


def candidate_points(record: GameRecord) -> float:
    """What one game adds to its step's ``points(θ+) - points(θ-)``."""
    if MINUS_NAME not in record.players:  # plus against the opponent
        return points_of(record, PLUS_NAME)
    if PLUS_NAME not in record.players:  # minus against the opponent
        return -points_of(record, MINUS_NAME)
    plus_points = points_of(record, PLUS_NAME)
    return plus_points - (1.0 - plus_points)


class Runner:
    """Plays batches of games: a pool of local processes, or Ray tasks on a cluster."""

    def __init__(self, concurrency: int, cluster: Cluster | None = None) -> None:
        self.cluster = cluster
        self.pool: ProcessPoolExecutor | None = None
        if cluster is None and concurrency > 1:
            context = multiprocessing.get_context("spawn")  # never fork a threaded parent
            self.pool = ProcessPoolExecutor(concurrency, mp_context=context)

    def play(self, tasks: Iterable[GameTask]) -> Iterator[GameRecord]:
        """Every task's record, in any order."""
        if self.cluster is not None:
            jobs = ((task.index, (task,)) for task in tasks)
            for _, record in self.cluster.stream(play_game, jobs):
                yield record
        elif self.pool is not None:
            yield from self.pool.map(play_game, tasks)
        else:
            for task in tasks:
                yield play_game(task)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


def run(
    state: TuneState,
    match: Match,
    runner: Runner,
    batch: int,
    save: Callable[[TuneState], None],
    on_record: Callable[[GameRecord], None] = lambda record: None,
    on_batch: Callable[[TuneState], None] = lambda state: None,
) -> TuneState:
    """Play ``state``'s remaining steps, ``batch`` at a time, saving after each batch.

    Each batch's candidates and openings come from a generator seeded by the run's
    seed and the batch's first step, so a resumed run plays what it would have.
    """
    while state.step < state.steps:
        first = state.step
        rng = random.Random(state.seed * 1_000_003 + first)
        pairs = [candidates(state, k, rng) for k in range(first, min(first + batch, state.steps))]
        tasks = [task for pair in pairs for task in pair_tasks(state, match, pair, rng)]
        results = {pair.step: 0.0 for pair in pairs}
        for record in runner.play(tasks):
            on_record(record)
            results[record.index // match.games_per_step] += candidate_points(record)
            if PLUS_NAME in record.players:
                state.points_plus += points_of(record, PLUS_NAME)
            if OPPONENT_NAME in record.players:
                state.points_against_opponent += 1.0 - points_of(record, OPPONENT_NAME)
        for pair in pairs:
            apply_result(state, pair, results[pair.step] / 2.0)
        state.step = pairs[-1].step + 1
        state.games += len(tasks)
        state.history.append([float(state.step), *state.theta])
        save(state)
        on_batch(state)
    return state


def describe(state: TuneState) -> str:
    """``name = value (start S)`` per weight, a line each."""
    lines = []
    for param, theta in zip(state.params, state.theta, strict=True):
        change = theta - param.start
        lines.append(f"  {param.name:<24} {theta:10.1f}  (start {param.start:g}, {change:+.1f})")
    return "\n".join(lines)
