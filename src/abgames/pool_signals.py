"""Signals and a local ``multiprocessing`` pool that a command runs.

``worker_pool()`` makes the pool; its initialiser calls ``become_pool_worker()``,
which leaves Ctrl-C to the parent (which stops the pool) and makes SIGTERM end the
worker by raising ``SystemExit``: raising, rather than dying at once (the default),
unwinds the task and the pool's ``with lock:`` blocks. It raises only where that
strands nothing. The pool's queues take a lock to wait for a task or send a result,
and the lock's ``__enter__`` and ``__exit__`` are Python around the C acquire and
release: an exception raised between the C call and the block leaves the lock
taken by a process about to exit, and every other worker, and the parent's
``Pool.terminate()``, then wait for it forever. An exception raised while a result
is written could leave half a message in the pipe the parent reads. So while the
innermost code running is such a wrapper with the lock held, or a write to a pipe,
or the worker's exit, the stop waits; it is checked again every ``RETRY_SECONDS``
(SIGALRM). It waits in the compiler's code too (numba's cache loads call Python
from C, which drops an exception raised there with a traceback on stderr), and the
checks re-raise a ``SystemExit`` that was dropped all the same. A worker in
compiled code sees the signal when it next returns to Python (the Connect Four
solver does so between chunks, about every 0.1 s). A worker still running
``HARD_EXIT_SECONDS`` after the stop (waiting on a lock the parent holds, say)
ends at once, and the parent's ``stop_pool`` kills a worker still running after
``KILL_AFTER_SECONDS``.

In the parent, the pool's threads block SIGINT and SIGTERM, so the kernel hands
them to the main thread: a wait in the main thread (``Pool.join`` at the end of a
build) is interrupted and the handler runs. ``awake(results)`` is how the parent
reads the pool's results: it wakes every ``WAKE_SECONDS`` all the same, for a
signal that another thread took (a program that made its own threads).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.pool import IMapIterator
from types import FrameType
from typing import Any, TypeVar

#: Seconds the parent waits for a result before it looks at its signals again.
WAKE_SECONDS = 0.5
#: Seconds after SIGTERM a worker that has not yet exited ends at once.
HARD_EXIT_SECONDS = 2.0
#: Seconds the parent's ``stop_pool`` waits before it kills the workers still running.
KILL_AFTER_SECONDS = 2 * HARD_EXIT_SECONDS
#: Seconds between two checks of a stop that waits (or whose exception was dropped).
RETRY_SECONDS = 0.05
#: The module of the pool's lock wrappers, where a stop waits while the lock is held.
LOCK_MODULE = "multiprocessing.synchronize"
#: The module of the pool's pipes, and its functions that write a message.
PIPE_MODULE = "multiprocessing.connection"
PIPE_WRITERS = frozenset({"send", "send_bytes", "_send_bytes", "_send"})
#: The packages of the compiler, whose cache loads call Python from C: an exception
#: raised there is dropped with a traceback on stderr, so a stop waits till they return.
COMPILER_PACKAGES = ("numba", "llvmlite")
#: The modules that end a worker process: a stop that reaches them has been raised.
EXIT_MODULES = frozenset({"multiprocessing.process", "multiprocessing.util"})

#: The signals that stop a command running a pool: its main thread handles them.
PARENT_STOPS = frozenset({signal.SIGINT, signal.SIGTERM})

_Result = TypeVar("_Result")

#: The signal that stopped this worker and when (``time.monotonic``), once one has.
_stop_signal: int | None = None
_stop_began = 0.0


def stop_must_wait(frame: FrameType | None) -> bool:
    """Whether a stop that interrupts ``frame`` (the innermost Python frame running)
    must not raise there: it is a pool lock's ``__enter__`` or ``__exit__`` with the
    lock held by this process, a write to a pipe, the compiler's code, or the
    worker's exit; ``None`` (no frame) waits too."""
    if frame is None:
        return True
    module = frame.f_globals.get("__name__", "")
    if module in EXIT_MODULES:
        return True
    if module == PIPE_MODULE:
        return frame.f_code.co_name in PIPE_WRITERS
    if module.split(".", 1)[0] in COMPILER_PACKAGES:
        return True
    if module != LOCK_MODULE:
        return False
    semlock = getattr(frame.f_locals.get("self"), "_semlock", None)
    return semlock is None or bool(semlock._is_mine())


def _check_again_soon() -> None:
    signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)


def _stop(signal_number: int, frame: FrameType | None) -> None:
    """SIGTERM (and the SIGALRM of its checks): raise ``SystemExit`` unless the stop
    must wait (``stop_must_wait``) for the next check; end at once
    ``HARD_EXIT_SECONDS`` after the first."""
    global _stop_signal, _stop_began
    if _stop_signal is None:
        _stop_signal, _stop_began = signal_number, time.monotonic()
    elif time.monotonic() - _stop_began >= HARD_EXIT_SECONDS:
        os._exit(128 + _stop_signal)
    _check_again_soon()
    if not stop_must_wait(frame):
        raise SystemExit(128 + _stop_signal)


def become_pool_worker() -> None:
    """Ignore Ctrl-C (the parent handles it) and end on SIGTERM by ``SystemExit``,
    raised where no lock of the pool is held."""
    global _stop_signal
    _stop_signal = None
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGALRM, _stop)
    signal.signal(signal.SIGTERM, _stop)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, PARENT_STOPS | {signal.SIGALRM})


def worker_pool(
    jobs: int, initializer: Callable[..., None], initargs: tuple[Any, ...]
) -> multiprocessing.pool.Pool:
    """A pool of ``jobs`` forked workers, made by ``initializer(*initargs)``, which
    must call ``become_pool_worker``. The pool's own threads block ``PARENT_STOPS``:
    the kernel gives such a signal to the main thread, which wakes from any wait
    (a ``Pool.join``, a result) to handle it; were it given to one of the pool's
    threads, the main thread would run its handler only when its wait ended, which
    at the end of a build, in ``join``, may be never."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, PARENT_STOPS)
    try:
        return multiprocessing.get_context("fork").Pool(jobs, initializer, initargs)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def awake(results: IMapIterator[_Result]) -> Iterator[_Result]:
    """The items of a pool's ``imap`` (or ``imap_unordered``) iterator, waking every
    ``WAKE_SECONDS`` while none comes, so that the main thread handles its signals."""
    while True:
        try:
            yield results.next(WAKE_SECONDS)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return


def _kill_workers() -> None:
    for child in multiprocessing.active_children():
        child.kill()


def stop_pool(pool: multiprocessing.pool.Pool) -> None:
    """``pool.terminate()``, which sends each worker SIGTERM and waits for it, with every
    child process still running ``KILL_AFTER_SECONDS`` later killed (SIGKILL; the
    children of a command that runs a pool are its workers): the parent holds the
    pool's task lock by then, so a worker waiting for that lock holds nothing a kill
    could strand, and no worker can keep the parent waiting."""
    watchdog = threading.Timer(KILL_AFTER_SECONDS, _kill_workers)
    watchdog.daemon = True
    watchdog.start()
    try:
        pool.terminate()
    finally:
        watchdog.cancel()
