"""Search workers on this machine: one process each, talking to the pool through pipes.

``LocalWorker`` is the pool's handle on one process (``worker_main``). The pool only
uses the ``WorkerHandle`` interface, so a worker elsewhere (a Ray actor, see
``cluster_workers.py``) plugs in the same way.

Messages to a worker: ``("run", job_id, spec, stop_early)``, ``("stop", job_id)``,
``("quit",)``. From a worker: ``("ready",)`` once warm, then ``("progress", job_id,
SearchResult)`` and ``("done", job_id, result, error)`` per job (``jobs.JobRunner``).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Protocol

from abgames.ui.web.jobs import JobRunner, load_factory, lower_priority, warm_up

if TYPE_CHECKING:
    from abgames.ui.web.pool import Job

#: Workers search at a lower priority than the server, so that reading a game or
#: playing a move stays quick while every core searches.
WORKER_NICENESS = 10
#: How long ``close`` waits for a worker to exit before killing it (seconds).
WORKER_EXIT_WAIT_S = 2.0

OnMessage = Callable[["WorkerHandle", tuple[Any, ...]], None]
OnGone = Callable[["WorkerHandle"], None]


class WorkerHandle(Protocol):
    """The pool's view of one worker: it runs one job at a time.

    ``send`` raises ``OSError`` or ``ValueError`` when the worker is gone. The worker's
    messages reach the pool through the ``on_message`` callback it was made with, and
    its end through ``on_gone``; both are called on any thread (the pool hands them to
    its event loop).
    """

    job: Job | None
    ready: bool
    alive: bool

    def send(self, message: tuple[Any, ...]) -> None: ...

    async def close(self) -> None: ...

    @property
    def pid(self) -> int | None: ...


WorkerFactory = Callable[[OnMessage, OnGone], WorkerHandle]


def worker_main(
    tasks: Connection, results: Connection, warm: bool, factory_path: str | None = None
) -> None:
    """A worker process: runs one job at a time; a "stop" may arrive during a search."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    lower_priority(WORKER_NICENESS)
    make_player = load_factory(factory_path)
    if warm:
        with contextlib.suppress(Exception):  # a cold kernel is slow, not wrong
            warm_up()
    send_lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        with send_lock:
            try:
                results.send(message)
            except (EOFError, OSError):  # the server is gone (stopped or killed)
                os._exit(0)  # nobody is left to answer: end quietly, search thread too

    runner = JobRunner(make_player, send)
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
        if kind == "run":
            _, job_id, spec, stop_early = message
            if thread is not None:
                thread.join()
            runner.expect(job_id, stop_early)
            thread = threading.Thread(
                target=runner.run, args=(job_id, spec, stop_early), daemon=True
            )
            thread.start()
        elif kind == "stop":
            runner.stop(message[1])
    runner.stop_all()


class LocalWorker:
    """A worker process on this machine (spawned, so no state leaks from the server)."""

    def __init__(
        self,
        on_message: OnMessage,
        on_gone: OnGone,
        *,
        warm: bool,
        player_factory: str | None,
    ) -> None:
        context = multiprocessing.get_context("spawn")
        tasks_read, tasks_write = context.Pipe(duplex=False)
        results_read, results_write = context.Pipe(duplex=False)
        self.process = context.Process(
            target=worker_main,
            args=(tasks_read, results_write, warm, player_factory),
            name="abgames-search",
            daemon=True,
        )
        self.process.start()
        tasks_read.close()
        results_write.close()
        self.tasks = tasks_write
        self.results = results_read
        self.job: Job | None = None
        self.ready = False
        self.alive = True
        self._on_message = on_message
        self._on_gone = on_gone
        threading.Thread(target=self._read, name="abgames-pool-reader", daemon=True).start()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def send(self, message: tuple[Any, ...]) -> None:
        self.tasks.send(message)

    def _read(self) -> None:
        """Carry the worker's messages to the pool until the pipe closes."""
        while True:
            try:
                message = self.results.recv()
            except (EOFError, OSError):
                break
            except Exception:  # an unpicklable message: the worker is still fine
                continue
            self._on_message(self, message)
        self._on_gone(self)

    async def close(self) -> None:
        await asyncio.to_thread(self.process.join, WORKER_EXIT_WAIT_S)
        if self.process.is_alive():
            self.process.kill()
            await asyncio.to_thread(self.process.join, WORKER_EXIT_WAIT_S)
        self.tasks.close()


def local_workers(*, warm: bool = True, player_factory: str | None = None) -> WorkerFactory:
    """A factory of ``LocalWorker`` processes."""

    def make(on_message: OnMessage, on_gone: OnGone) -> WorkerHandle:
        return LocalWorker(on_message, on_gone, warm=warm, player_factory=player_factory)

    return make
