"""The arena: every pair of engines plays a series of games, in parallel processes.

Each pair plays ``games`` games. Game ``g`` of a pair uses opening
``openings[(g // 2) % len(openings)]`` and the colours swap every game, so each
opening is played twice, once with each engine first. Games run in a pool of
``concurrency`` worker processes (in this process when it is 1), or as tasks on a
Ray cluster (``abgames.cluster``) with the same ``play_game`` for each game, so
the same seeds and openings give the same games. Results are counted, written and
reported as they finish, each game once whatever a cluster retried. An external
engine that cannot start stops the match: its command is checked before the first
game, and a game it could not start in ends the match like a lost cluster. With an SPRT
(two engines only) the match stops once it decides: games not started are
cancelled, games under way are finished and counted.
"""

from __future__ import annotations

import itertools
import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from abgames.arena.engines import COMMAND, EngineSpec, missing_commands
from abgames.arena.judge import GameRecord, GameTask, play_game
from abgames.arena.records import RecordWriter
from abgames.arena.stats import Sprt, Tally, describe_elo
from abgames.cluster import Cluster, ClusterLost
from abgames.games.base import Move

#: Extra time an engine gets beyond its limits before it loses on time.
DEFAULT_TOLERANCE_MS = 500
#: Seeds of successive games are spaced by this much when a base seed is given.
SEED_STRIDE = 1_000_003


@dataclass(frozen=True)
class ArenaSettings:
    game: str
    options: dict[str, object]
    engines: tuple[EngineSpec, ...]
    games: int
    openings: tuple[tuple[Move, ...], ...] = ((),)
    concurrency: int = 1
    sprt: Sprt | None = None
    tolerance_ms: int = DEFAULT_TOLERANCE_MS
    seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.engines) < 2:
            raise ValueError("an arena needs at least two engines")
        if len({spec.name for spec in self.engines}) != len(self.engines):
            raise ValueError("engine names must differ: add name=... to a spec")
        if self.games < 1:
            raise ValueError(f"the number of games must be at least 1, not {self.games}")
        if self.concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, not {self.concurrency}")
        if self.sprt is not None and len(self.engines) != 2:
            raise ValueError("an SPRT compares exactly two engines")
        if not self.openings:
            raise ValueError("there must be at least one opening (the empty one will do)")


@dataclass
class PairResult:
    """The score of ``first`` against ``second`` and how their games ended."""

    first: str
    second: str
    tally: Tally = field(default_factory=Tally)
    #: (reason, loser's name or "" for a draw) -> games
    endings: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, record: GameRecord) -> None:
        if record.winner is None:
            self.tally.draws += 1
            self.endings[(record.reason, "")] += 1
            return
        winner = record.players[record.winner]
        loser = record.players[1 - record.winner]
        if winner == self.first:
            self.tally.wins += 1
        else:
            self.tally.losses += 1
        self.endings[(record.reason, loser)] += 1

    def describe_endings(self) -> str:
        parts = []
        for (reason, loser), count in sorted(self.endings.items(), key=lambda kv: -kv[1]):
            parts.append(f"{reason} {count}" + (f" (lost by {loser})" if loser else ""))
        return ", ".join(parts)

    def progress(self) -> str:
        t = self.tally
        return (
            f"{self.first} vs {self.second}: +{t.wins} ={t.draws} -{t.losses}  "
            f"Elo {describe_elo(t)}"
        )


@dataclass
class ArenaResult:
    pairs: list[PairResult]
    records: list[GameRecord] = field(default_factory=list)
    planned: int = 0
    sprt_decision: str | None = None
    #: Why the match ended before every planned game was played (a lost cluster).
    cut_short: str | None = None


def schedule(settings: ArenaSettings) -> list[tuple[GameTask, int]]:
    """Every game to play with the index of its pair, round by round over the pairs."""
    pairs = list(itertools.combinations(range(len(settings.engines)), 2))
    tasks: list[tuple[GameTask, int]] = []
    for round_index in range(settings.games):
        opening = settings.openings[(round_index // 2) % len(settings.openings)]
        for pair_index, (a, b) in enumerate(pairs):
            first, second = settings.engines[a], settings.engines[b]
            if round_index % 2:
                first, second = second, first
            index = len(tasks)
            seed = index if settings.seed is None else settings.seed * SEED_STRIDE + index
            task = GameTask(
                index=index,
                game=settings.game,
                options=dict(settings.options),
                engines=(first, second),
                opening=opening,
                seed=seed,
                tolerance_ms=settings.tolerance_ms,
            )
            tasks.append((task, pair_index))
    return tasks


class _Stop:
    """A flag the consumer of ``_played`` raises to stop starting new games."""

    def __init__(self) -> None:
        self.raised = False


class EngineMissingError(ValueError):
    """An external engine's command is missing on some node of the cluster."""


def check_commands_here(engines: tuple[EngineSpec, ...]) -> None:
    """``EngineMissingError`` naming each ``cmd=`` engine that cannot start on this machine."""
    problems = missing_commands(tuple(spec for spec in engines if spec.kind == COMMAND))
    if problems:
        raise EngineMissingError("an external engine cannot start: " + "; ".join(problems))


def check_commands_on(cluster: Cluster, engines: tuple[EngineSpec, ...]) -> None:
    """``EngineMissingError`` naming every node where a ``cmd=`` engine cannot start."""
    specs = tuple(spec for spec in engines if spec.kind == COMMAND)
    if not specs:
        return
    problems = [
        f"{problem} on node {node}"
        for node, missing in cluster.on_each_node(missing_commands, specs)
        for problem in missing
    ]
    if problems:
        raise EngineMissingError(
            "external engines must be installed on every worker: " + "; ".join(problems)
        )


def _played(
    settings: ArenaSettings,
    tasks: list[tuple[GameTask, int]],
    stop: _Stop,
    cluster: Cluster | None = None,
) -> Iterator[tuple[GameRecord, int]]:
    """Records as games finish; once ``stop`` is raised, games not started are dropped."""
    if cluster is not None:
        pair_of = {task.index: pair_index for task, pair_index in tasks}
        jobs = ((task.index, (task,)) for task, _ in tasks)
        for index, record in cluster.stream(play_game, jobs, stop=lambda: stop.raised):
            yield record, pair_of[index]
        return
    if settings.concurrency == 1:
        for task, pair_index in tasks:
            if stop.raised:
                return
            yield play_game(task), pair_index
        return
    context = multiprocessing.get_context("spawn")  # never fork a parent that has threads
    with ProcessPoolExecutor(settings.concurrency, mp_context=context) as pool:
        futures: dict[Future[GameRecord], int] = {
            pool.submit(play_game, task): pair_index for task, pair_index in tasks
        }
        try:
            for future in as_completed(futures):
                if not future.cancelled():
                    yield future.result(), futures[future]
                if stop.raised:
                    for pending in futures:
                        pending.cancel()
        finally:
            for pending in futures:
                pending.cancel()


def run_arena(
    settings: ArenaSettings,
    writer: RecordWriter | None = None,
    progress: Callable[[ArenaResult, PairResult], None] | None = None,
    cluster: Cluster | None = None,
) -> ArenaResult:
    """Play the match; every finished game is written and reported at once.

    ``cmd=`` engines are checked first (``EngineMissingError``): here, or with a
    connected ``cluster`` (the games are Ray tasks) on every node. A cluster lost
    mid-run, or an engine that could not start in a game, ends the match with the
    games finished so far and ``cut_short`` set.
    """
    if cluster is None:
        check_commands_here(settings.engines)
    else:
        check_commands_on(cluster, settings.engines)
    names = [spec.name for spec in settings.engines]
    pairs = [
        PairResult(names[a], names[b]) for a, b in itertools.combinations(range(len(names)), 2)
    ]
    tasks = schedule(settings)
    result = ArenaResult(pairs, planned=len(tasks))
    stop = _Stop()
    try:
        for record, pair_index in _played(settings, tasks, stop, cluster):
            pair = pairs[pair_index]
            pair.add(record)
            result.records.append(record)
            if writer is not None:
                writer.write(record)
            if progress is not None:
                progress(result, pair)
            if record.not_started is not None and not stop.raised:
                stop.raised = True
                result.cut_short = f"the match stopped: {record.detail}"
            if settings.sprt is not None and not stop.raised:
                decision = settings.sprt.decision(pair.tally)
                if decision is not None:
                    result.sprt_decision = decision
                    stop.raised = True
    except ClusterLost as lost:
        result.cut_short = str(lost)
    if result.cut_short is not None:
        unplayed = result.planned - len(result.records)
        result.cut_short += f"; {unplayed} game(s) not played"
    return result


def format_table(result: ArenaResult, sprt: Sprt | None = None) -> str:
    """The final table: one row a pair, then how its games ended."""
    header = (
        f"{'Engine pair':<32} {'Games':>5} {'W':>4} {'D':>4} {'L':>4} {'Score':>6}  Elo (95% CI)"
    )
    lines = [header, "-" * len(header)]
    for pair in result.pairs:
        t = pair.tally
        label = f"{pair.first} vs {pair.second}"
        lines.append(
            f"{label:<32} {t.games:>5} {t.wins:>4} {t.draws:>4} {t.losses:>4} "
            f"{100 * t.score:>5.1f}%  {describe_elo(t)}"
        )
        if pair.endings:
            lines.append(f"  endings: {pair.describe_endings()}")
    if sprt is not None:
        pair = result.pairs[0]
        llr = pair.tally.llr(sprt.elo0, sprt.elo1)
        verdict = {
            "H1": f"H1 accepted: {pair.first} is stronger by about {sprt.elo1:g} Elo",
            "H0": f"H0 accepted: {pair.first} is not stronger by {sprt.elo1:g} Elo",
            None: "no decision yet",
        }[result.sprt_decision]
        lines.append(
            f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: "
            f"LLR {llr:.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}] — {verdict}"
        )
    return "\n".join(lines)
