"""A bounded pool of worker processes that run the AI's searches, off the event loop.

The server never searches on its own process: ``SearchPool`` starts ``size``
worker processes with the server (each warms the engines' kernels once), sends
each a search at a time and streams every completed depth back to the event
loop. Searches wait in one FIFO queue when every worker is busy; each waiting
job learns its position, and ``submit`` refuses a job (``QueueFullError``) once
``max_queue`` jobs wait. There is at most one job per game: submitting a game's
new search cancels its old one.

Two ways to end a search early:

- ``cancel(game_id)``: the position changed (undo, new game, the page went away);
  a waiting job is dropped, a running one is stopped and its answer discarded.
- ``stop(game_id)``: "move now"; the running search ends soon and its best move
  so far is reported as the answer.

Callbacks run on the event loop. A worker that dies is replaced; its job ends
with an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import threading
import traceback
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from abgames.search.result import SearchResult

#: Players kept warm in each worker (their tables are reused between searches); a Gomoku
#: engine holds about 20 MB, so this bounds a worker's memory.
PLAYER_CACHE_SIZE = 6
#: Workers search at a lower priority than the server, so that reading a game or
#: playing a move stays quick while every core searches.
WORKER_NICENESS = 10
#: A worker whose memory passes this drops its cached players (and their tables)
#: after a search, so that memory stays flat however many games are played.
WORKER_MEMORY_LIMIT_MB = 350
#: A worker that dies before it is ready is restarted this many times in a row, no more
#: (a worker that cannot start must not become a crash loop).
MAX_FAILED_STARTS = 3
#: Seconds before a lost worker is replaced.
RESPAWN_DELAY_S = 0.5
#: How long ``close`` waits for a worker to exit before killing it (seconds).
WORKER_EXIT_WAIT_S = 2.0


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


class QueueFullError(RuntimeError):
    """Every worker is busy and the queue is full: try again later."""


@dataclass(eq=False)
class SearchJob:
    """One search of one game's position.

    ``record`` is the game's save-file dictionary (the position to search);
    ``level`` the AI level to search at. Callbacks run on the event loop:
    ``on_progress(result)`` after each completed depth, ``on_queued(position)``
    when the job's place in the queue changes (1 = next), and
    ``on_done(result, error)`` once at the end unless the job was cancelled.
    """

    game_id: str
    record: dict[str, Any]
    level: str
    seed: int | None
    purpose: str
    on_progress: Callable[[SearchResult], None]
    on_done: Callable[[SearchResult | None, str | None], None]
    on_queued: Callable[[int], None] = lambda _position: None
    id: int = field(default=0)
    cancelled: bool = False
    stop_requested: bool = False


# --- the worker process --------------------------------------------------------------


def _warm_up() -> None:
    """Load (or compile) the engines' kernels, so no player's first move waits for them."""
    from abgames.ai.readiness import KERNELS, prepare

    for game, kernels in KERNELS.items():
        prepare(game, min(kernels.levels))


def _load_factory(path: str | None) -> Callable[[str, str, int | None], Any]:
    """``make_player``, or the ``"module:name"`` factory a test asked for."""
    if path is None:
        from abgames.ai.levels import make_player

        return make_player
    import importlib

    module, _, name = path.partition(":")
    factory: Callable[[str, str, int | None], Any] = getattr(importlib.import_module(module), name)
    return factory


def worker_main(
    tasks: Connection, results: Connection, warm: bool, factory_path: str | None = None
) -> None:
    """A worker process: searches one job at a time; a "stop" may arrive during a search.

    Messages in: ``("search", job_id, record, level, seed, stop_early)``,
    ``("stop", job_id)``, ``("quit",)``. Messages out: ``("ready",)``,
    ``("progress", job_id, SearchResult)``, ``("done", job_id, SearchResult | None, error)``.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    from abgames.ai.player import AIPlayer
    from abgames.match import HUMAN, Match

    make_player = _load_factory(factory_path)
    if warm:
        with contextlib.suppress(Exception):  # a cold kernel is slow, not wrong
            _warm_up()
    players: OrderedDict[tuple[str, str, int | None], AIPlayer] = OrderedDict()
    send_lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        with send_lock:
            results.send(message)

    def player_for(game: str, level: str, seed: int | None) -> AIPlayer:
        key = (game, level, seed)
        if key not in players:
            players[key] = make_player(game, level, seed)
            while len(players) > PLAYER_CACHE_SIZE:
                players.popitem(last=False)
        players.move_to_end(key)
        return players[key]

    current: dict[str, Any] = {}  # the running search: job id, match, stop flag

    def run(job_id: int, record: dict[str, Any], level: str, seed: int | None) -> None:
        last: SearchResult | None = None
        try:
            humans = dict(record, players=[HUMAN, HUMAN], levels=[None, None])
            rules = Match.from_record(humans)
            match = Match(
                rules.state,
                rules.seats,
                seed=seed,
                player_factory=lambda game, lvl, sd: player_for(game, lvl, sd),
            )
            current["match"] = match
            for last in match.think(level):
                send(("progress", job_id, last))
                if current.get("stop"):
                    match.stop_thinking()  # a stop sent before the engine started
        except Exception as error:  # a failing search must not kill the worker
            detail = "".join(traceback.format_exception_only(error)).strip()
            send(("done", job_id, None, detail))
            return
        finally:
            current.clear()
        send(("done", job_id, last, None if last is not None else "the AI found no move"))
        if resident_mb() > WORKER_MEMORY_LIMIT_MB:
            players.clear()

    send(("ready",))
    thread: threading.Thread | None = None
    while True:
        try:
            message = tasks.recv()
        except (EOFError, OSError):
            break
        kind = message[0]
        if kind == "quit":
            break
        if kind == "search":
            _, job_id, record, level, seed, stop_early = message
            if thread is not None:
                thread.join()
            current.clear()
            current["job"] = job_id
            current["stop"] = stop_early
            thread = threading.Thread(target=run, args=(job_id, record, level, seed), daemon=True)
            thread.start()
        elif kind == "stop" and current.get("job") == message[1]:
            current["stop"] = True
            match = current.get("match")
            if match is not None:
                match.stop_thinking()
    if thread is not None:
        match = current.get("match")
        if match is not None:
            match.stop_thinking()


# --- the server side -------------------------------------------------------------------


class _Worker:
    """The server's handle on one worker process."""

    def __init__(self, process: BaseProcess, tasks: Connection, results: Connection) -> None:
        self.process = process
        self.tasks = tasks
        self.results = results
        self.job: SearchJob | None = None
        self.ready = False
        self.alive = True


class SearchPool:
    """``size`` worker processes and a queue of at most ``max_queue`` waiting jobs."""

    def __init__(
        self,
        size: int = 2,
        max_queue: int = 200,
        *,
        warm: bool = True,
        player_factory: str | None = None,
    ) -> None:
        """``player_factory``: ``"module:name"`` of a ``make_player`` stand-in (for tests)."""
        if size < 1:
            raise ValueError("the pool needs at least one worker")
        self.size = size
        self.max_queue = max_queue
        self.warm = warm
        self.player_factory = player_factory
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._queue: deque[SearchJob] = deque()
        self._by_game: dict[str, SearchJob] = {}
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        self._failed_starts = 0

    # --- life ------------------------------------------------------------------
    async def start(self) -> None:
        """Start the workers (they warm up in the background)."""
        self._loop = asyncio.get_running_loop()
        for _ in range(self.size):
            self._spawn()

    def _spawn(self) -> _Worker:
        tasks_read, tasks_write = self._context.Pipe(duplex=False)
        results_read, results_write = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=worker_main,
            args=(tasks_read, results_write, self.warm, self.player_factory),
            name="abgames-search",
            daemon=True,
        )
        process.start()
        tasks_read.close()
        results_write.close()
        worker = _Worker(process, tasks_write, results_read)
        self._workers.append(worker)
        threading.Thread(
            target=self._read, args=(worker,), name="abgames-pool-reader", daemon=True
        ).start()
        return worker

    def _read(self, worker: _Worker) -> None:
        """Carry a worker's messages to the event loop (one thread per worker)."""
        loop = self._loop
        assert loop is not None
        while True:
            try:
                message = worker.results.recv()
            except (EOFError, OSError):
                break
            except Exception:  # an unpicklable message: the worker is still fine
                continue
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._on_message, worker, message)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._on_worker_gone, worker)

    async def close(self) -> None:
        """Stop every search and end the workers."""
        self._closing = True
        for job in list(self._queue):
            job.cancelled = True
        self._queue.clear()
        self._by_game.clear()
        for worker in self._workers:
            with contextlib.suppress(OSError, ValueError):
                if worker.job is not None:
                    worker.tasks.send(("stop", worker.job.id))
                worker.tasks.send(("quit",))
        for worker in self._workers:
            await asyncio.to_thread(worker.process.join, WORKER_EXIT_WAIT_S)
            if worker.process.is_alive():
                worker.process.kill()
                await asyncio.to_thread(worker.process.join, WORKER_EXIT_WAIT_S)
            worker.tasks.close()
        self._workers.clear()

    # --- jobs ------------------------------------------------------------------
    @property
    def waiting(self) -> int:
        """Jobs in the queue (not yet on a worker)."""
        return len(self._queue)

    @property
    def ready(self) -> int:
        """Workers that have warmed up and can search at full speed."""
        return sum(1 for worker in self._workers if worker.ready and worker.alive)

    @property
    def running(self) -> int:
        return sum(1 for worker in self._workers if worker.job is not None)

    def has_room(self) -> bool:
        """Whether ``submit`` would accept one more job now."""
        return self._free_worker() is not None or len(self._queue) < self.max_queue

    def job_of(self, game_id: str) -> SearchJob | None:
        """The game's current (waiting or running) job."""
        return self._by_game.get(game_id)

    def position(self, game_id: str) -> int | None:
        """1-based place of the game's job in the queue; ``None`` if running or absent."""
        job = self._by_game.get(game_id)
        if job is None:
            return None
        for index, waiting in enumerate(self._queue):
            if waiting is job:
                return index + 1
        return None

    def submit(self, job: SearchJob) -> None:
        """Run ``job`` as soon as a worker is free; ``QueueFullError`` if it cannot wait."""
        if self._closing:
            raise QueueFullError("the server is shutting down")
        if not self._workers and self._failed_starts > MAX_FAILED_STARTS:
            raise QueueFullError("no AI worker could start")
        previous = self._by_game.get(job.game_id)
        if previous is not None:
            self.cancel(job.game_id)
        if self._free_worker() is None and len(self._queue) >= self.max_queue:
            raise QueueFullError(f"{len(self._queue)} searches are waiting already")
        job.id = next(self._ids)
        self._by_game[job.game_id] = job
        self._queue.append(job)
        self._dispatch()
        position = self.position(job.game_id)
        if position is not None:
            job.on_queued(position)

    def cancel(self, game_id: str) -> bool:
        """Forget the game's job: drop it if waiting, stop it if running; whether there was one."""
        job = self._by_game.pop(game_id, None)
        if job is None:
            return False
        job.cancelled = True
        if job in self._queue:
            self._queue.remove(job)
            self._announce_positions()
            return True
        self._send_stop(job)
        return True

    def stop(self, game_id: str) -> bool:
        """Make the game's search answer now with its best move so far; whether there was one.

        A job still waiting will stop right after its first completed depth.
        """
        job = self._by_game.get(game_id)
        if job is None:
            return False
        job.stop_requested = True
        if job not in self._queue:
            self._send_stop(job)
        return True

    def _send_stop(self, job: SearchJob) -> None:
        for worker in self._workers:
            if worker.job is job:
                with contextlib.suppress(OSError, ValueError):
                    worker.tasks.send(("stop", job.id))

    def _free_worker(self) -> _Worker | None:
        for worker in self._workers:
            if worker.alive and worker.job is None:
                return worker
        return None

    def _dispatch(self) -> None:
        moved = False
        while self._queue:
            worker = self._free_worker()
            if worker is None:
                break
            job = self._queue.popleft()
            moved = True
            worker.job = job
            try:
                worker.tasks.send(
                    ("search", job.id, job.record, job.level, job.seed, job.stop_requested)
                )
            except (OSError, ValueError):
                worker.job = None
                worker.alive = False
                self._queue.appendleft(job)
                continue
        if moved:
            self._announce_positions()

    def _announce_positions(self) -> None:
        for index, job in enumerate(self._queue):
            job.on_queued(index + 1)

    # --- messages from the workers ---------------------------------------------
    def _on_message(self, worker: _Worker, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "ready":
            worker.ready = True
            self._failed_starts = 0
            return
        job = worker.job
        if job is None or job.id != message[1]:
            return
        if kind == "progress":
            if not job.cancelled:
                job.on_progress(message[2])
        elif kind == "done":
            worker.job = None
            if self._by_game.get(job.game_id) is job:
                del self._by_game[job.game_id]
            if not job.cancelled:
                job.on_done(message[2], message[3])
            self._dispatch()

    def _on_worker_gone(self, worker: _Worker) -> None:
        worker.alive = False
        if worker in self._workers:
            self._workers.remove(worker)
        job = worker.job
        worker.job = None
        if job is not None:
            if self._by_game.get(job.game_id) is job:
                del self._by_game[job.game_id]
            if not job.cancelled:
                job.on_done(None, "the AI's worker process stopped unexpectedly")
        if not worker.ready:
            self._failed_starts += 1
        if self._closing or self._failed_starts > MAX_FAILED_STARTS:
            if not self._workers:
                self._fail_waiting("no AI worker could start")
            return
        assert self._loop is not None
        self._loop.call_later(RESPAWN_DELAY_S, self._respawn)

    def _respawn(self) -> None:
        if self._closing:
            return
        self._spawn()
        self._dispatch()

    def _fail_waiting(self, error: str) -> None:
        """End every waiting job with ``error`` (there is no worker to run them)."""
        waiting = list(self._queue)
        self._queue.clear()
        for job in waiting:
            if self._by_game.get(job.game_id) is job:
                del self._by_game[job.game_id]
            if not job.cancelled:
                job.on_done(None, error)

    def worker_pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]
