"""What a search worker runs: the AI's searches and the /learn page's heavy searches.

A job is described by a picklable spec (``SearchSpec``, ``ReviewSpec`` or ``LearnSpec``) so that the
same ``JobRunner`` serves a local worker process (``workers.py``) and a Ray actor
(``abgames.cluster``). The runner reports through ``send``:
``("progress", job_id, SearchResult)`` after each completed depth of an AI search and
``("done", job_id, result, error)`` once at the end (``result`` is a ``SearchResult``
for a search, a JSON-ready dict for a learn job; ``error`` a one-line message or None).
"""

from __future__ import annotations

import contextlib
import os
import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from abgames.ai.player import AIPlayer
from abgames.search.result import SearchResult

#: Players kept warm in each worker (their tables are reused between searches); a Gomoku
#: engine holds about 20 MB, so this bounds a worker's memory.
PLAYER_CACHE_SIZE = 6
#: A worker whose memory passes this drops its cached players (and their tables)
#: after a search, so that memory stays flat however many games are played.
WORKER_MEMORY_LIMIT_MB = 350

PlayerFactory = Callable[[str, str, int | None], Any]
Send = Callable[[tuple[Any, ...]], None]


@dataclass(frozen=True)
class SearchSpec:
    """The AI's search of a game's position: the save-file record, the level, the seed,
    and the most it may think (seconds; ``None``: the level's own limit)."""

    record: dict[str, Any]
    level: str
    seed: int | None
    think_s: float | None = None


@dataclass(frozen=True)
class ReviewSpec:
    """The engine's review of a game (``abgames.review``): its save-file record."""

    record: dict[str, Any]


@dataclass(frozen=True)
class LearnSpec:
    """A /learn computation: ``op`` is "trace" or "experiment", ``request`` its fields."""

    op: str
    request: dict[str, Any]


@dataclass(frozen=True)
class PuzzleSpec:
    """A /puzzles check (``abgames.puzzles.check``): ``op`` "move" or "hint", and its fields."""

    op: str
    request: dict[str, Any]


JobSpec = SearchSpec | LearnSpec | ReviewSpec | PuzzleSpec


def resident_mb() -> float:
    """This process's resident memory in MB (0 where /proc is not available)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def warm_up() -> None:
    """Load (or compile) the engines' kernels, so no player's first move waits for them."""
    from abgames.ai.readiness import KERNELS, prepare

    for game, kernels in KERNELS.items():
        prepare(game, min(kernels.levels))


def load_factory(path: str | None) -> PlayerFactory:
    """``make_player``, or the ``"module:name"`` factory a test asked for."""
    if path is None:
        from abgames.ai.levels import make_player

        return make_player
    import importlib

    module, _, name = path.partition(":")
    factory: PlayerFactory = getattr(importlib.import_module(module), name)
    return factory


class JobRunner:
    """Runs one job at a time on the caller's thread; ``stop`` may come from another thread."""

    def __init__(self, make_player: PlayerFactory, send: Send) -> None:
        self._make_player = make_player
        self._send = send
        self._players: OrderedDict[tuple[str, str, int | None], AIPlayer] = OrderedDict()
        self._lock = threading.Lock()
        self._job: int | None = None
        self._stop = False
        self._match: Any = None

    def _player_for(self, game: str, level: str, seed: int | None) -> AIPlayer:
        key = (game, level, seed)
        players = self._players
        if key not in players:
            players[key] = self._make_player(game, level, seed)
            while len(players) > PLAYER_CACHE_SIZE:
                players.popitem(last=False)
        players.move_to_end(key)
        return players[key]

    def stop(self, job_id: int) -> None:
        """The running search ``job_id`` answers now with its best move so far."""
        with self._lock:
            if self._job != job_id:
                return
            self._stop = True
            match = self._match
        if match is not None:
            match.stop_thinking()

    def stop_all(self) -> None:
        with self._lock:
            match = self._match
            self._stop = True
        if match is not None:
            match.stop_thinking()

    def expect(self, job_id: int, stop_early: bool = False) -> None:
        """Make ``job_id`` the current job before its thread starts, so that a "stop"
        read right after the "run" message is not lost."""
        with self._lock:
            self._job, self._stop, self._match = job_id, stop_early, None

    def run(self, job_id: int, spec: JobSpec, stop_early: bool = False) -> None:
        """Run ``spec`` to its end, sending progress and exactly one "done"."""
        with self._lock:
            if self._job != job_id:
                self._job, self._stop, self._match = job_id, stop_early, None
        try:
            if isinstance(spec, LearnSpec):
                from abgames.ui.web.learn_work import run_learn

                self._send(("done", job_id, run_learn(spec.op, spec.request), None))
                return
            if isinstance(spec, PuzzleSpec):
                from abgames.puzzles.check import run_puzzle_job

                self._send(("done", job_id, run_puzzle_job(spec.op, spec.request), None))
                return
            if isinstance(spec, ReviewSpec):
                self._send(("done", job_id, self._review(job_id, spec), None))
                return
            last = self._search(job_id, spec)
        except Exception as error:  # a failing job must not kill the worker
            detail = "".join(traceback.format_exception_only(error)).strip()
            self._send(("done", job_id, None, detail))
            return
        finally:
            with self._lock:
                self._job, self._match = None, None
        self._send(("done", job_id, last, None if last is not None else "the AI found no move"))
        if resident_mb() > WORKER_MEMORY_LIMIT_MB:
            self._players.clear()

    def _review(self, job_id: int, spec: ReviewSpec) -> dict[str, Any]:
        """The review as JSON; ``("progress", job_id, (done, total))`` after each position."""
        from abgames.match import HUMAN, Match, new_state
        from abgames.review import review_game

        humans = dict(spec.record, players=[HUMAN, HUMAN], levels=[None, None])
        final = Match.from_record(humans).state
        game, options = final.name, final.options()
        review = review_game(
            list(final.moves),
            lambda: new_state(game, **options),
            lambda level: self._player_for(game, level, None),
            on_progress=lambda done, total: self._send(("progress", job_id, (done, total))),
            should_stop=lambda: self._stop,
        )
        return review.to_json(final) | {"plies": final.ply, "complete": not self._stop}

    def _search(self, job_id: int, spec: SearchSpec) -> SearchResult | None:
        from abgames.match import HUMAN, Match

        humans = dict(spec.record, players=[HUMAN, HUMAN], levels=[None, None])
        rules = Match.from_record(humans)
        match = Match(
            rules.state,
            rules.seats,
            seed=spec.seed,
            player_factory=lambda game, lvl, sd: self._player_for(game, lvl, sd),
        )
        with self._lock:
            self._match = match
        last: SearchResult | None = None
        for last in match.think(spec.level, seconds=spec.think_s):
            self._send(("progress", job_id, last))
            if self._stop:
                match.stop_thinking()  # a stop sent before the engine started
        return last


def lower_priority(niceness: int) -> None:
    """Search below the server's priority, where the system allows it."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(niceness)
