"""The one place that knows Ray: connect, run tasks on every node, stream results back.

The arena and the book builder hand this module a plain module-level function and
the jobs to run it on, each job named by a key (a game's index, a position's
moves). ``Cluster.stream`` runs them as Ray tasks and yields ``(key, result)`` as
each one finishes, on the machine that started the run, so the caller can write
every result at once:

- A task whose worker process or node dies is run again elsewhere by Ray (up to
  ``MAX_RETRIES`` times); the functions given here are idempotent (a job is its
  key), and a key is yielded at most once, so nothing is counted twice.
- At most as many tasks as the cluster has CPUs (times ``per_cpu``) are in flight;
  the rest wait on this side, so ``stop()`` going true drops every job not yet
  submitted while the ones in flight finish and are yielded.
- A cluster that cannot be reached at the start raises ``ClusterUnreachable``; one
  lost during the run raises ``ClusterLost`` naming how many jobs were finished.

Long-lived workers (the web app's searches) are objects hosted by actors instead:
``Cluster.host("module:name", *args)`` builds one on an actor of the cluster;
``Hosted.stream`` streams one of its generator methods, ``Hosted.signal`` reaches it
out of band meanwhile, and the actor's death (its process or node) is ``HostGone``,
told apart from the hosted code's own errors (``HostFailed``).

Ray is imported only when a ``Cluster`` connects, so the core install (without the
``abgames[cluster]`` extra) never needs it; without Ray, connecting raises
``ClusterError`` telling how to install it.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType, TracebackType
from typing import Any, TypeVar

#: Install hint for a run asked to use a cluster without Ray installed.
INSTALL_HINT = "pip install 'abgames[cluster]'"
#: How long to wait for the head node to answer at the start.
DEFAULT_CONNECT_TIMEOUT_S = 5.0
#: Times Ray runs a task again when its worker process or node dies.
MAX_RETRIES = 3
#: How often the in-flight limit follows the cluster's CPU count (nodes come and go).
RESOURCES_REFRESH_S = 2.0
#: How long one wait for a finished task lasts before the loop looks around again.
WAIT_SLICE_S = 1.0
#: A head whose port refuses connections this long is taken for lost (Ray itself
#: waits 60 s and then ends the driver process, leaving no time to say what was done).
HEAD_LOST_AFTER_S = 10.0
#: The Ray Client's scheme; other addresses are a head node's ``HOST:PORT`` or ``auto``.
CLIENT_SCHEME = "ray://"
AUTO = "auto"
#: What ``ray.init`` calls a new local instance for this process alone.
LOCAL = "local"

Key = TypeVar("Key", bound=Hashable)
Result = TypeVar("Result")


class ClusterError(Exception):
    """The cluster cannot do what was asked; the message says why, in one line."""


class ClusterUnreachable(ClusterError):
    """No cluster answered at the address given."""


class ClusterLost(ClusterError):
    """The cluster went away during a run; ``finished`` jobs had been yielded by then."""

    def __init__(self, message: str, finished: int) -> None:
        super().__init__(message)
        self.finished = finished


@dataclass(frozen=True)
class Node:
    """A live node of the cluster: Ray's id and the address people know it by."""

    node_id: str
    address: str

    def __str__(self) -> str:
        return f"{self.address} ({self.node_id[:8]})"


def _import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise ClusterError(f"--cluster needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


def _host_port(address: str) -> tuple[str, int] | None:
    """The ``(host, port)`` an address names, or ``None`` for ``auto``."""
    if address == AUTO:
        return None
    text = address.removeprefix(CLIENT_SCHEME)
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterUnreachable(
            f"cluster address {address!r} is not HOST:PORT, ray://HOST:PORT or auto"
        )
    return host, int(port)


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def probe(address: str, timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S) -> None:
    """``ClusterUnreachable`` unless something listens at ``address`` within ``timeout_s``.

    Ray itself retries an unreachable head for minutes; this answers in seconds.
    """
    target = _host_port(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=timeout_s):
            pass
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise ClusterUnreachable(
            f"no Ray cluster answers at {address} ({reason}); start one with "
            "'ray start --head' or check the address"
        ) from None


class Cluster:
    """A connection to a Ray cluster for the length of a ``with`` block.

    ``address`` ``None`` starts a local Ray for the run (this machine's CPUs,
    stopped at the end); ``HOST:PORT`` or ``auto`` joins a running cluster as a
    driver (on one of its machines); ``ray://HOST:PORT`` joins through the Ray
    Client from anywhere.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S,
        num_cpus: int | None = None,
    ) -> None:
        self.address = address
        self.connect_timeout_s = connect_timeout_s
        self.num_cpus = num_cpus
        self._ray: ModuleType | None = None
        self._head: str | None = None

    @property
    def ray(self) -> ModuleType:
        if self._ray is None:
            raise ClusterError("the cluster is not connected (use it in a with block)")
        return self._ray

    def __enter__(self) -> Cluster:
        if self.address is not None:  # a cluster that is not there is said without Ray
            probe(self.address, self.connect_timeout_s)
        ray = _import_ray()
        options: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": True}
        if self.address is None:
            options["address"] = LOCAL  # a new Ray, even beside a cluster started here
            options["num_cpus"] = self.num_cpus
        else:
            options["address"] = self.address
        try:
            ray.init(**options)
        except (ConnectionError, TimeoutError) as error:
            raise ClusterUnreachable(
                f"cannot join the Ray cluster at {self.address or 'this machine'}: "
                f"{_first_line(error)}"
            ) from None
        except Exception as error:  # Ray's refusals: versions, authentication, options
            raise ClusterError(
                f"Ray refused to start a run at {self.address or 'this machine'}: "
                f"{type(error).__name__}: {_first_line(error)}"
            ) from None
        self._ray = ray
        self._head = None if self.address is None else self._gcs_address()
        return self

    def _gcs_address(self) -> str | None:
        """The head's ``HOST:PORT`` to watch while a run waits, when joined as a driver."""
        if self.address is not None and self.address.startswith(CLIENT_SCHEME):
            return None  # the Ray Client reports a lost connection itself
        context = self.ray.get_runtime_context()
        address = getattr(context, "gcs_address", None)
        return str(address) if address else self.address

    def _head_answers(self) -> bool:
        """Whether the head's port accepts a connection (always, for a local or client run).

        Asked before anything that waits on the head: Ray's own calls block while it
        is away, and Ray ends the driver process after a minute without it.
        """
        if self._head is None:
            return True
        try:
            probe(self._head, self.connect_timeout_s)
        except ClusterUnreachable:
            return False
        return True

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._ray is not None:
            self._ray.shutdown()
            self._ray = None

    def cpus(self) -> int:
        """The cluster's CPUs now (at least 1)."""
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def nodes(self) -> list[Node]:
        """The nodes alive now."""
        return [
            Node(str(info["NodeID"]), str(info.get("NodeManagerAddress", "?")))
            for info in self.ray.nodes()
            if info.get("Alive")
        ]

    def describe(self) -> str:
        """Where the cluster is, for people: its head's ``HOST:PORT`` (or the address given)."""
        if self.address is not None and self.address.startswith(CLIENT_SCHEME):
            return self.address
        with contextlib.suppress(Exception):
            address = getattr(self.ray.get_runtime_context(), "gcs_address", None)
            if address:
                return f"{address}" if self.address is not None else f"{address} (local Ray)"
        return self.address or LOCAL

    def host(self, factory: str, *args: Any, num_cpus: float = 1) -> Hosted:
        """An actor that builds ``factory(*args)`` (a ``"module:name"`` path) and keeps it.

        The actor holds ``num_cpus`` CPUs and goes to a node that has them free now or,
        if none has, to the first that will (a node that joins, or one an actor
        leaves). It returns at once: ``Hosted.placement`` waits for the object.
        """
        actor = (
            _host_class(self.ray)
            .options(num_cpus=num_cpus, scheduling_strategy="SPREAD")
            .remote(factory, args)
        )
        return Hosted(self.ray, actor, factory)

    def on_each_node(
        self, function: Callable[..., Result], *args: object
    ) -> list[tuple[Node, Result]]:
        """``function(*args)`` run once on every live node, with the node it ran on.

        A node that leaves before its turn is left out.
        """
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        ray = self.ray
        remote = ray.remote(num_cpus=0, max_retries=MAX_RETRIES)(function)
        nodes = self.nodes()
        refs = [
            remote.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node.node_id, soft=False)
            ).remote(*args)
            for node in nodes
        ]
        results: list[tuple[Node, Result]] = []
        for node, ref in zip(nodes, refs, strict=True):
            try:
                results.append((node, ray.get(ref)))
            except ray.exceptions.RayTaskError:
                raise
            except ray.exceptions.RayError:
                continue  # the node left meanwhile
        return results

    def stream(
        self,
        function: Callable[..., Result],
        jobs: Iterable[tuple[Key, tuple[object, ...]]],
        *,
        per_cpu: int = 1,
        stop: Callable[[], bool] = lambda: False,
    ) -> Iterator[tuple[Key, Result]]:
        """``(key, function(*args))`` for every job ``(key, args)``, as each finishes.

        Each key is yielded once, whatever Ray retried. Once ``stop()`` is true no
        further job is submitted; those in flight are still yielded.
        """
        ray = self.ray
        remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(function)
        queue = deque(jobs)
        pending: dict[Any, Key] = {}
        seen: set[Key] = set()
        limit, checked = self.cpus() * per_cpu, time.monotonic()
        head_silent_since: float | None = None
        try:
            while queue or pending:
                now = time.monotonic()
                if now - checked > RESOURCES_REFRESH_S:
                    checked = now
                    if self._head_answers():
                        head_silent_since = None
                        limit = self.cpus() * per_cpu
                    elif head_silent_since is None:
                        head_silent_since = now
                    elif now - head_silent_since > HEAD_LOST_AFTER_S:
                        raise ClusterLost(
                            f"the cluster was lost after {len(seen)} finished job(s): "
                            f"its head at {self._head} stopped answering",
                            len(seen),
                        )
                if stop():
                    queue.clear()
                while queue and len(pending) < limit:
                    key, args = queue.popleft()
                    if key in seen:
                        continue
                    pending[remote.remote(*args)] = key
                if not pending:
                    break
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=WAIT_SLICE_S)
                for ref in ready:
                    key = pending.pop(ref)
                    try:
                        value = ray.get(ref)
                    except ray.exceptions.RayTaskError as error:
                        raise ClusterError(f"job {key!r} failed: {error.cause!r}") from None
                    if key in seen:
                        continue
                    seen.add(key)
                    yield key, value
        except ClusterError:
            raise
        except (ray.exceptions.RaySystemError, ray.exceptions.RayError, ConnectionError) as error:
            raise ClusterLost(
                f"the cluster was lost after {len(seen)} finished job(s): "
                f"{type(error).__name__}: {error}",
                len(seen),
            ) from None
        finally:
            if self._head_answers():  # a lost cluster has nothing left to cancel
                for ref in pending:
                    with contextlib.suppress(Exception):
                        ray.cancel(ref)


# --- objects hosted by actors: long-lived workers that stream ------------------------
#
# ``Cluster.host("module:name", *args)`` starts a Ray actor that builds
# ``name(*args)`` once (a search worker, warm and with its tables) and keeps it. The
# caller streams a generator method of it (``Hosted.stream``) while signals reach it
# out of band (``Hosted.signal``, on another of the actor's threads), and learns of
# the actor's death (its process or its node) as ``HostGone``, told apart from an
# error of the hosted code (``HostFailed``). Ray does not restart these actors: the
# caller decides what to run again and where a new one goes.

#: Threads of a hosting actor: a stream, a signal, and the watch for its end.
HOST_THREADS = 3
#: How long ``Hosted.close`` waits for the hosted object to end before killing its actor.
HOST_CLOSE_WAIT_S = 2.0


class HostGone(ClusterError):
    """The actor hosting an object died (its process or its node): it answers no more."""


class HostFailed(ClusterError):
    """The hosted object's method raised; the actor lives on."""


@dataclass(frozen=True)
class Placement:
    """Where a hosted object lives: its node's id and address and its process id."""

    node_id: str
    address: str
    pid: int


def load_object(path: str) -> Any:
    """The module-level object a ``"module:name"`` path names."""
    import importlib

    module, _, name = path.partition(":")
    if not module or not name:
        raise ClusterError(f"{path!r} is not module:name")
    return getattr(importlib.import_module(module), name)


class _Host:
    """The body of a hosting actor (made a Ray actor class at first use, ``_host_class``)."""

    def __init__(self, factory: str, args: tuple[Any, ...]) -> None:
        import threading

        self._object = load_object(factory)(*args)
        self._closed = threading.Event()

    def placement(self) -> Placement:
        import os

        ray = _import_ray()  # on the actor's process, where Ray is
        context = ray.get_runtime_context()
        return Placement(context.get_node_id(), ray.util.get_node_ip_address(), os.getpid())

    def stream(self, method: str, args: tuple[Any, ...]) -> Iterator[Any]:
        # Not ``yield from``: Ray resumes its generators with send(), which a plain
        # iterator (``yield from range(n)`` in the hosted method) does not have.
        for item in getattr(self._object, method)(*args):  # noqa: UP028
            yield item

    def call(self, method: str, args: tuple[Any, ...]) -> Any:
        return getattr(self._object, method)(*args)

    def wait_closed(self) -> None:
        self._closed.wait()

    def close(self) -> None:
        self._closed.set()
        closer = getattr(self._object, "close", None)
        if closer is not None:
            closer()


def _is_gone(ray: ModuleType, error: BaseException) -> bool:
    """Whether a Ray error says the actor or its node is gone (not that its code raised)."""
    if isinstance(error, ray.exceptions.RayActorError):
        return True  # ActorDiedError, ActorUnavailableError: the process or node is gone
    if isinstance(error, ray.exceptions.RayTaskError):
        return False
    return isinstance(error, ray.exceptions.RayError | ConnectionError)


class Hosted:
    """The caller's handle on an object hosted by an actor (``Cluster.host``).

    Every method may be called from any thread. ``HostGone`` means the actor died
    (or was closed); ``HostFailed`` that the hosted code raised.
    """

    def __init__(self, ray: ModuleType, actor: Any, factory: str) -> None:
        self._ray = ray
        self._actor = actor
        self.factory = factory

    def _fail(self, error: BaseException, what: str) -> ClusterError:
        if _is_gone(self._ray, error):
            return HostGone(f"the actor hosting {self.factory} is gone: {_first_line(error)}")
        cause = getattr(error, "cause", None) or error
        return HostFailed(f"{self.factory}.{what} failed: {cause!r}")

    def placement(self) -> Placement:
        """Where the object lives; waits until it is built (Ray may first need a free CPU)."""
        try:
            placed: Placement = self._ray.get(self._actor.placement.remote())
        except Exception as error:
            raise self._fail(error, "placement") from None
        return placed

    def stream(self, method: str, *args: Any) -> Iterator[Any]:
        """What ``method(*args)`` of the hosted object yields, as it yields it."""
        try:
            for ref in self._actor.stream.remote(method, args):
                yield self._ray.get(ref)
        except Exception as error:
            raise self._fail(error, method) from None

    def signal(self, method: str, *args: Any) -> None:
        """Call ``method(*args)`` of the hosted object without waiting (a stream may run)."""
        try:
            self._actor.call.remote(method, args)
        except Exception as error:
            raise self._fail(error, method) from None

    def call(self, method: str, *args: Any) -> Any:
        """``method(*args)`` of the hosted object, waited for."""
        try:
            return self._ray.get(self._actor.call.remote(method, args))
        except Exception as error:
            raise self._fail(error, method) from None

    def wait_closed(self) -> None:
        """Wait until ``close`` (returns) or the actor's death (``HostGone``)."""
        try:
            self._ray.get(self._actor.wait_closed.remote())
        except Exception as error:
            raise self._fail(error, "wait_closed") from None

    def close(self, wait_s: float = HOST_CLOSE_WAIT_S) -> None:
        """Ask the hosted object to end (its ``close``, if any), then end the actor."""
        with contextlib.suppress(Exception):
            self._ray.get(self._actor.close.remote(), timeout=wait_s)
        self.kill()

    def kill(self) -> None:
        """End the actor now (a stream under way raises ``HostGone``)."""
        with contextlib.suppress(Exception):
            self._ray.kill(self._actor, no_restart=True)


def _host_class(ray: ModuleType) -> Any:
    """The Ray actor class of ``_Host``, made once per process."""
    made = _HOST_CLASSES.get(id(ray))
    if made is None:
        made = ray.remote(max_concurrency=HOST_THREADS, max_restarts=0, max_task_retries=0)(_Host)
        _HOST_CLASSES[id(ray)] = made
    return made


_HOST_CLASSES: dict[int, Any] = {}
