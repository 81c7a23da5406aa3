"""A bounded pool of search workers: the AI's searches and /learn's heavy ones, off the event loop.

The server never searches on its own process: ``SearchPool`` starts ``size`` workers
with the server (local processes by default, ``workers.py``; Ray actors with
``--cluster``, ``cluster_workers.py``), sends each one job at a time and streams every
completed depth back to the event loop.

Fairness: jobs wait in a ``FairQueue``, one line per client, served round-robin. A
client may have at most ``max_waiting_per_client`` jobs waiting and run at most
``max_running_per_client`` at once (by default one worker fewer than the pool has), so
one client's flood of searches leaves a worker for everyone else. ``submit`` refuses a
job (``QueueFullError``) once the client's line or the whole queue (``max_queue``) is
full. Each waiting job learns its position. There is at most one job per key (a game
id): submitting a key's new job cancels its old one.

Two ways to end a job early:

- ``cancel(key)``: the position changed (undo, new game, the page went away);
  a waiting job is dropped, a running one is stopped and its answer discarded.
- ``stop(key)``: "move now"; the running search ends soon and its best move
  so far is reported as the answer.

Callbacks run on the event loop. A worker that dies is replaced and its job runs
again on another worker (up to ``MAX_ATTEMPTS`` times in all).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from abgames.ui.web.clients import UNKNOWN_CLIENT
from abgames.ui.web.fairqueue import FairQueue
from abgames.ui.web.jobs import JobSpec
from abgames.ui.web.workers import WorkerFactory, WorkerHandle, local_workers

#: A worker that dies before it is ready is restarted this many times in a row, no more
#: (a worker that cannot start must not become a crash loop).
MAX_FAILED_STARTS = 3
#: Seconds before a lost worker is replaced.
RESPAWN_DELAY_S = 0.5
#: Times a job is started in all when its worker dies under it (a lost process or node).
MAX_ATTEMPTS = 3
#: Jobs one client may have waiting at once (a player has one game or a few tabs).
MAX_WAITING_PER_CLIENT = 8


def default_running_per_client(size: int) -> int:
    """Searches one client may run at once: all but one worker (one on a 1-worker pool)."""
    return max(1, size - 1)


class QueueFullError(RuntimeError):
    """The client's line or the whole queue is full: try again later."""


@dataclass(eq=False)
class Job:
    """One job: an AI search of a game's position, or a /learn computation.

    ``key`` names what the job is for (a game id): a key has at most one job.
    ``client`` is who asked (``clients.client_key``). Callbacks run on the event loop:
    ``on_progress(result)`` after each completed depth, ``on_queued(position)`` when
    the job's place in the queue changes (1 = next; 0 = it has started), and
    ``on_done(result, error)`` once at the end unless the job was cancelled.
    """

    key: str
    spec: JobSpec
    purpose: str
    on_done: Callable[[Any, str | None], None]
    on_progress: Callable[[Any], None] = lambda _result: None
    on_queued: Callable[[int], None] = lambda _position: None
    client: str = UNKNOWN_CLIENT
    id: int = field(default=0)
    attempts: int = 0
    cancelled: bool = False
    stop_requested: bool = False


class SearchPool:
    """``size`` workers and a fair queue of at most ``max_queue`` waiting jobs."""

    def __init__(
        self,
        size: int = 2,
        max_queue: int = 200,
        *,
        warm: bool = True,
        player_factory: str | None = None,
        worker_factory: WorkerFactory | None = None,
        max_waiting_per_client: int = MAX_WAITING_PER_CLIENT,
        max_running_per_client: int | None = None,
    ) -> None:
        """``player_factory``: ``"module:name"`` of a ``make_player`` stand-in (for tests);
        ``worker_factory``: where workers run (local processes unless given)."""
        if size < 1:
            raise ValueError("the pool needs at least one worker")
        self.size = size
        self.max_queue = max_queue
        self.max_waiting_per_client = max_waiting_per_client
        self.max_running_per_client = (
            default_running_per_client(size)
            if max_running_per_client is None
            else max_running_per_client
        )
        self._make_worker = worker_factory or local_workers(
            warm=warm, player_factory=player_factory
        )
        self._workers: list[WorkerHandle] = []
        self._queue: FairQueue[Job] = FairQueue()
        self._by_key: dict[str, Job] = {}
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        self._failed_starts = 0
        self.started = 0  # jobs handed to a worker (retries included)
        self.retried = 0  # jobs started again after their worker died

    # --- life ------------------------------------------------------------------
    async def start(self) -> None:
        """Start the workers (they warm up in the background)."""
        self._loop = asyncio.get_running_loop()
        for _ in range(self.size):
            await self._spawn()

    async def _spawn(self) -> None:
        worker = await asyncio.to_thread(self._make_worker, self._message_from, self._gone_from)
        self._workers.append(worker)

    def _message_from(self, worker: WorkerHandle, message: tuple[Any, ...]) -> None:
        loop = self._loop
        assert loop is not None
        with contextlib.suppress(RuntimeError):  # the loop has closed
            loop.call_soon_threadsafe(self._on_message, worker, message)

    def _gone_from(self, worker: WorkerHandle) -> None:
        loop = self._loop
        assert loop is not None
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._on_worker_gone, worker)

    async def close(self) -> None:
        """Stop every job and end the workers."""
        self._closing = True
        for job in self._queue.clear():
            job.cancelled = True
        self._by_key.clear()
        for worker in self._workers:
            with contextlib.suppress(OSError, ValueError):
                if worker.job is not None:
                    worker.send(("stop", worker.job.id))
                worker.send(("quit",))
        for worker in list(self._workers):
            with contextlib.suppress(Exception):
                await worker.close()
        self._workers.clear()

    # --- figures ---------------------------------------------------------------
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

    def running_of(self, client: str) -> int:
        return sum(1 for w in self._workers if w.job is not None and w.job.client == client)

    # --- jobs ------------------------------------------------------------------
    def has_room(self, client: str = UNKNOWN_CLIENT) -> bool:
        """Whether ``submit`` would accept one more job of ``client`` now."""
        if self._free_worker() is not None and self._may_run(client):
            return True
        if self._queue.waiting_of(client) >= self.max_waiting_per_client:
            return False
        return len(self._queue) < self.max_queue

    def job_of(self, key: str) -> Job | None:
        """The key's current (waiting or running) job."""
        return self._by_key.get(key)

    def position(self, key: str) -> int | None:
        """1-based place of the key's job in the queue; ``None`` if running or absent."""
        job = self._by_key.get(key)
        if job is None or job not in self._queue:
            return None
        for index, waiting in enumerate(self._queue.order()):
            if waiting is job:
                return index + 1
        return None

    def submit(self, job: Job) -> None:
        """Run ``job`` as soon as a worker is free; ``QueueFullError`` if it cannot wait."""
        if self._closing:
            raise QueueFullError("the server is shutting down")
        if not self._workers and self._failed_starts > MAX_FAILED_STARTS:
            raise QueueFullError("no AI worker could start")
        if job.key in self._by_key:
            self.cancel(job.key)
        if not (self._free_worker() is not None and self._may_run(job.client)):
            if self._queue.waiting_of(job.client) >= self.max_waiting_per_client:
                raise QueueFullError(f"you have {self.max_waiting_per_client} searches waiting")
            if len(self._queue) >= self.max_queue:
                raise QueueFullError(f"{len(self._queue)} searches are waiting already")
        job.id = next(self._ids)
        self._by_key[job.key] = job
        self._queue.push(job)
        self._dispatch()
        position = self.position(job.key)
        if position is not None:
            job.on_queued(position)

    def cancel(self, key: str) -> bool:
        """Forget the key's job: drop it if waiting, stop it if running; whether there was one."""
        job = self._by_key.pop(key, None)
        if job is None:
            return False
        job.cancelled = True
        if self._queue.remove(job):
            self._announce_positions()
            return True
        self._send_stop(job)
        return True

    def stop(self, key: str) -> bool:
        """Make the key's search answer now with its best move so far; whether there was one.

        A job still waiting will stop right after its first completed depth.
        """
        job = self._by_key.get(key)
        if job is None:
            return False
        job.stop_requested = True
        if job not in self._queue:
            self._send_stop(job)
        return True

    def _send_stop(self, job: Job) -> None:
        for worker in self._workers:
            if worker.job is job:
                with contextlib.suppress(OSError, ValueError):
                    worker.send(("stop", job.id))

    def _free_worker(self) -> WorkerHandle | None:
        for worker in self._workers:
            if worker.alive and worker.job is None:
                return worker
        return None

    def _may_run(self, client: str) -> bool:
        return self.running_of(client) < self.max_running_per_client

    def _dispatch(self) -> None:
        moved = False
        while len(self._queue):
            worker = self._free_worker()
            if worker is None:
                break
            job = self._queue.next_job(self._may_run)
            if job is None:
                break  # every waiting client runs as many jobs as it may
            moved = True
            worker.job = job
            job.attempts += 1
            try:
                worker.send(("run", job.id, job.spec, job.stop_requested))
            except (OSError, ValueError):
                worker.job = None
                worker.alive = False
                job.attempts -= 1
                self._queue.push(job, front=True)
                continue
            self.started += 1
            job.on_queued(0)
        if moved:
            self._announce_positions()

    def _announce_positions(self) -> None:
        for index, job in enumerate(self._queue.order()):
            job.on_queued(index + 1)

    # --- messages from the workers ---------------------------------------------
    def _on_message(self, worker: WorkerHandle, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "ready":
            worker.ready = True
            self._failed_starts = 0
            self._dispatch()  # a Ray actor takes jobs only once placed (cluster_workers.py)
            return
        job = worker.job
        if job is None or job.id != message[1]:
            return
        if kind == "progress":
            if not job.cancelled:
                job.on_progress(message[2])
        elif kind == "done":
            worker.job = None
            if self._by_key.get(job.key) is job:
                del self._by_key[job.key]
            if not job.cancelled:
                job.on_done(message[2], message[3])
            self._dispatch()

    def _on_worker_gone(self, worker: WorkerHandle) -> None:
        worker.alive = False
        if worker in self._workers:
            self._workers.remove(worker)
        job = worker.job
        worker.job = None
        if job is not None and not job.cancelled and self._by_key.get(job.key) is job:
            if job.attempts < MAX_ATTEMPTS and not self._closing:
                self.retried += 1
                self._queue.push(job, front=True)  # runs again on the next free worker
            else:
                del self._by_key[job.key]
                job.on_done(None, "the AI's worker stopped unexpectedly, again and again")
        if not worker.ready:
            self._failed_starts += 1
        if self._closing or self._failed_starts > MAX_FAILED_STARTS:
            if not self._workers:
                self._fail_waiting("no AI worker could start")
            return
        assert self._loop is not None
        self._loop.call_later(RESPAWN_DELAY_S, self._respawn)
        self._dispatch()

    def _respawn(self) -> None:
        if self._closing:
            return
        task = asyncio.ensure_future(self._spawn())
        task.add_done_callback(lambda _task: self._dispatch())

    def _fail_waiting(self, error: str) -> None:
        """End every waiting job with ``error`` (there is no worker to run them)."""
        for job in self._queue.clear():
            if self._by_key.get(job.key) is job:
                del self._by_key[job.key]
            if not job.cancelled:
                job.on_done(None, error)

    def worker_pids(self) -> list[int]:
        return [w.pid for w in self._workers if w.pid is not None]
