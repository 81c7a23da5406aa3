"""Signals and a local ``multiprocessing`` pool that a command runs.

``become_pool_worker()`` (a pool's initialiser calls it) leaves Ctrl-C to the
parent, which stops the pool, and makes SIGTERM end the worker by raising
``SystemExit``. Raising (rather than dying at once, the default) unwinds the
worker's ``with lock:`` blocks: a worker stopped while it waits for its next task
holds the pool's task-queue lock, and had it died holding it, the parent's
``Pool.terminate()`` would wait for that lock forever. A worker in compiled code
sees the signal when it next returns to Python (the Connect Four solver does so
between chunks, about every 0.1 s). An exception raised inside a callback from C
is dropped (numba's cache loads run such callbacks), so the handler also sets an
alarm that ends the worker ``HARD_EXIT_SECONDS`` later if it is still running;
it holds no lock of the pool then.

``awake(results)`` is how the parent reads the pool's results. The kernel may hand
a signal meant for the whole process to any of its threads, such as one of the
pool's; the main thread, asleep until the next result, then runs its handler only
when it wakes. When the same stop reaches the workers too (``pkill -f``, a batch
system stopping the process group), no result ever comes: so the parent wakes
every ``WAKE_SECONDS`` to look.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator
from multiprocessing.pool import IMapIterator
from types import FrameType
from typing import TypeVar

#: Seconds the parent waits for a result before it looks at its signals again.
WAKE_SECONDS = 0.5
#: Seconds after SIGTERM a worker that has not yet exited is ended by SIGALRM.
HARD_EXIT_SECONDS = 2

_Result = TypeVar("_Result")


def _exit(signal_number: int, _frame: FrameType | None) -> None:
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(HARD_EXIT_SECONDS)
    raise SystemExit(128 + signal_number)


def become_pool_worker() -> None:
    """Ignore Ctrl-C (the parent handles it) and end on SIGTERM by ``SystemExit``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit)


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
