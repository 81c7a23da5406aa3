"""Group commit: every write of the store goes through one thread, many per transaction.

The event loop never touches the disk: ``GroupWriter.write`` hands a write to the
writer thread and awaits its result. The thread takes every write waiting at that
moment and commits them together, so a burst of moves costs one commit and one
wake-up of each thread instead of one each, and writers never wait on each
other's SQLite lock. Each write still gets its own answer (a savepoint each).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading

from abgames.ui.web.store import GameStore, Write

#: Most writes committed together.
MAX_BATCH = 256

_Item = tuple[Write, asyncio.Future[bool]]


class GroupWriter:
    """The store's one writer thread; ``start`` on the event loop, ``close`` at shutdown."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.batches = 0
        self.writes = 0

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._run, name="abgames-db-writer", daemon=True)
        self._thread.start()

    async def write(self, write: Write) -> bool:
        """Apply ``write`` (committed when this returns); whether it applied."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.put((write, future))
        return await future

    async def close(self) -> None:
        """Finish the writes already handed over, then stop the thread."""
        self._queue.put(None)
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join)

    def _run(self) -> None:
        loop = self._loop
        assert loop is not None
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                batch.append(item)
            try:
                results: list[bool | BaseException] = list(
                    self.store.write_batch([write for write, _ in batch])
                )
            except Exception as error:  # the whole transaction failed (disk full...)
                results = [error] * len(batch)
            self.batches += 1
            self.writes += len(batch)
            futures = [future for _, future in batch]
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(_deliver, futures, results)


def _deliver(futures: list[asyncio.Future[bool]], results: list[bool | BaseException]) -> None:
    for future, result in zip(futures, results, strict=True):
        if future.done():
            continue
        if isinstance(result, BaseException):
            future.set_exception(result)
        else:
            future.set_result(result)
