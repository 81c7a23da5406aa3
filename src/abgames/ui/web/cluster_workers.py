"""Search workers on a Ray cluster (``abgames web --cluster``): one actor each.

``RayWorker`` is the pool's handle (``workers.WorkerHandle``) on one actor of the
cluster that hosts a ``JobHost`` (``abgames.cluster.Cluster.host``): a ``JobRunner``,
warmed up when the actor starts, kept with its players and tables between jobs. The
pool does not know the difference from a local process:

- ``("ready",)`` comes once the actor has been placed and has warmed up; until then
  the worker is not ``alive`` (the pool keeps jobs in its queue rather than give one
  to an actor that waits for a node with a free CPU);
- ``("run", ...)`` streams the job's messages back (``JobHost.run`` is a Ray streaming
  generator), read on a thread of this process and handed to the pool as they come;
- ``("stop", job_id)`` reaches the actor out of band (another of its threads) while
  the search streams, and ``("quit",)`` ends it;
- the actor's death, its process's or its node's, is ``on_gone``: the pool runs the
  job again on another worker and asks for a new worker, which Ray places on a node
  with a free CPU (or the first one to join).

Ray is only reached through ``abgames.cluster``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import threading
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

from abgames.cluster import LOCAL, Cluster, ClusterError, HostFailed, HostGone, Placement
from abgames.ui.web.jobs import JobRunner, JobSpec, load_factory, lower_priority, warm_up
from abgames.ui.web.workers import WORKER_NICENESS, OnGone, OnMessage, WorkerFactory, WorkerHandle

if TYPE_CHECKING:
    from abgames.ui.web.pool import Job

#: The object each actor hosts (``abgames.cluster.load_object`` path).
JOB_HOST = f"{__name__}:JobHost"
#: CPUs an actor holds: a search uses one core.
ACTOR_CPUS = 1
#: Where the searches run when no cluster is asked for (``/api/health``'s ``workers_on``).
ON_THIS_MACHINE = "local"

log = logging.getLogger("abgames.web")


class JobHost:
    """What an actor keeps: a warm ``JobRunner``; ``run`` streams a job's messages."""

    def __init__(self, warm: bool, player_factory: str | None) -> None:
        lower_priority(WORKER_NICENESS)  # the web server may share the machine
        make_player = load_factory(player_factory)
        if warm:
            with contextlib.suppress(Exception):  # a cold kernel is slow, not wrong
                warm_up()
        self._outbox: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
        self._runner = JobRunner(make_player, self._send)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        #: Jobs told to stop, until their search has surely heard it (a "stop" runs on
        #: another thread of the actor and may come before its "run" has started).
        self._stopped: set[int] = set()

    def _send(self, message: tuple[Any, ...]) -> None:
        self._outbox.put(message)
        kind, job_id = message[0], message[1]
        if kind == "progress" and job_id in self._stopped:
            self._stopped.discard(job_id)
            self._runner.stop(job_id)  # the search runs by now: it hears this one
        elif kind == "done":
            self._stopped.discard(job_id)

    def run(self, job_id: int, spec: JobSpec, stop_early: bool) -> Iterator[tuple[Any, ...]]:
        """The job's ``progress`` messages, then its ``done`` (the runner runs on a thread,
        so that a ``stop`` can reach it while this yields)."""
        with self._lock:
            if self._thread is not None:
                self._thread.join()  # the previous job's last steps (after its "done")
            outbox: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
            self._outbox = outbox

            def work() -> None:
                try:
                    self._runner.run(job_id, spec, stop_early)
                finally:
                    outbox.put(None)

            self._thread = threading.Thread(target=work, name="abgames-job", daemon=True)
            self._thread.start()
        while (message := outbox.get()) is not None:
            yield message

    def stop(self, job_id: int) -> None:
        self._stopped.add(job_id)
        self._runner.stop(job_id)

    def close(self) -> None:
        self._runner.stop_all()


class RayWorker:
    """One search worker: an actor on the cluster hosting a ``JobHost``."""

    def __init__(
        self,
        cluster: Cluster,
        on_message: OnMessage,
        on_gone: OnGone,
        *,
        warm: bool,
        player_factory: str | None,
    ) -> None:
        self.host = cluster.host(JOB_HOST, warm, player_factory, num_cpus=ACTOR_CPUS)
        self.job: Job | None = None
        self.ready = False
        #: Not until the actor is placed and warm: the pool sends no job to an actor that
        #: waits for a free CPU (a node may never come), it keeps the job for a live one.
        self.alive = False
        #: Where the actor runs, once it has started.
        self.placement: Placement | None = None
        self._on_message = on_message
        self._on_gone = on_gone
        self._gone_lock = threading.Lock()
        self._told_gone = False
        self._closing = False
        threading.Thread(target=self._watch, name="abgames-ray-watch", daemon=True).start()

    @property
    def pid(self) -> int | None:
        """The actor's process id, on its node (which may be another machine)."""
        return None if self.placement is None else self.placement.pid

    def send(self, message: tuple[Any, ...]) -> None:
        if not self.alive:
            raise OSError("the worker's actor is not there (not yet, or no more)")
        kind = message[0]
        try:
            if kind == "run":
                _, job_id, spec, stop_early = message
                threading.Thread(
                    target=self._read,
                    args=(job_id, spec, stop_early),
                    name="abgames-ray-reader",
                    daemon=True,
                ).start()
            elif kind == "stop":
                self.host.signal("stop", message[1])
            elif kind == "quit":
                self._closing = True
                self.host.signal("close")
        except ClusterError as error:
            raise OSError(str(error)) from None

    def _watch(self) -> None:
        """``("ready",)`` once the actor has started, ``on_gone`` once it has ended."""
        try:
            self.placement = self.host.placement()
            self.alive = True
            self._on_message(self, ("ready",))
            self.host.wait_closed()
        except ClusterError as error:
            if self._closing:
                pass
            elif self.placement is None:
                log.error("a search worker could not start on the cluster: %s", error)
            elif not self._told_gone:
                log.warning("the search worker on %s was lost: %s", self.placement.address, error)
        self._gone()

    def _read(self, job_id: int, spec: JobSpec, stop_early: bool) -> None:
        """Hand the job's streamed messages to the pool; its worker's death is ``on_gone``."""
        done = False
        try:
            for message in self.host.stream("run", job_id, spec, stop_early):
                done = done or message[0] == "done"
                self._on_message(self, message)
        except HostGone:
            self._gone()
            return
        except HostFailed as error:
            if not done:
                self._on_message(self, ("done", job_id, None, str(error)))
            return
        if not done:
            self._on_message(self, ("done", job_id, None, "the AI's worker gave no answer"))

    def _gone(self) -> None:
        with self._gone_lock:
            if self._told_gone:
                return
            self._told_gone = True
        self.alive = False
        self.host.kill()  # an actor only unreachable for now must not search on
        self._on_gone(self)

    async def close(self) -> None:
        self._closing = True
        if self.placement is None:  # never started: nothing to wait for
            await asyncio.to_thread(self.host.kill)
        else:
            await asyncio.to_thread(self.host.close)


def ray_workers(
    cluster: Cluster, *, warm: bool = True, player_factory: str | None = None
) -> WorkerFactory:
    """A factory of ``RayWorker`` actors on ``cluster`` (connected)."""

    def make(on_message: OnMessage, on_gone: OnGone) -> WorkerHandle:
        return RayWorker(cluster, on_message, on_gone, warm=warm, player_factory=player_factory)

    return make


def connect(address: str, workers: int) -> Cluster:
    """The cluster at ``address`` (``local``: a Ray of this machine's CPUs, at least
    ``workers``), connected; ``ClusterError`` (one line) if it cannot be."""
    if address == LOCAL:
        return Cluster(None, num_cpus=max(workers, os.cpu_count() or 1)).__enter__()
    return Cluster(address).__enter__()


@contextlib.asynccontextmanager
async def search_workers(
    address: str | None,
    connected: Cluster | None = None,
    *,
    workers: int,
    warm: bool = True,
    player_factory: str | None = None,
) -> AsyncIterator[tuple[WorkerFactory | None, str]]:
    """``(worker factory, where they run)`` for the pool, for the server's life.

    Local processes (factory ``None``) unless a cluster is given: ``connected`` (the
    caller's, left connected at the end), or ``address`` (``HOST:PORT``,
    ``ray://HOST:PORT``, ``auto``, or ``local`` for a Ray of this machine's CPUs, at
    least ``workers``), connected here and left at the end. ``ClusterError`` if it
    cannot be reached.
    """
    if connected is None and address is None:
        yield None, ON_THIS_MACHINE
        return
    owned: Cluster | None = None
    if connected is None:
        assert address is not None
        owned = connected = await asyncio.to_thread(connect, address, workers)
    try:
        cpus = await asyncio.to_thread(connected.cpus)
        if cpus < workers * ACTOR_CPUS:
            log.warning(
                "%d search workers asked for, the cluster has %d CPU(s): the others wait "
                "for a node to join (and so do searches sent to them)",
                workers,
                cpus,
            )
        where = await asyncio.to_thread(connected.describe)
        yield ray_workers(connected, warm=warm, player_factory=player_factory), f"cluster {where}"
    finally:
        if owned is not None:
            await asyncio.to_thread(owned.__exit__, None, None, None)
