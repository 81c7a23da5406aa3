"""Publish and subscribe: each game's event streams, and noticing when nobody listens.

``publish`` puts an event on every subscriber's queue (progress events are dropped
for a reader that has fallen ``MAX_PENDING_PROGRESS`` behind); ``subscription`` is a
queue for as long as a stream is open. When a game's last stream closes, ``on_orphan``
runs ``grace_s`` later unless a stream or a request came back meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from abgames.ui.web.live import Event, LiveGame

#: Progress events a slow reader may have waiting before more are dropped.
MAX_PENDING_PROGRESS = 20
CLOSE = "close"


def publish(live: LiveGame, kind: str, data: Any) -> None:
    """Send one event to every open stream of the game."""
    for queue in live.subscribers:
        if kind == "progress" and queue.qsize() > MAX_PENDING_PROGRESS:
            continue
        queue.put_nowait((kind, data))


def close_streams(live: LiveGame) -> None:
    """End every open stream of the game (the server is stopping)."""
    for queue in live.subscribers:
        queue.put_nowait((CLOSE, None))


@contextlib.asynccontextmanager
async def subscription(
    live: LiveGame, grace_s: float, on_orphan: Callable[[LiveGame], None]
) -> AsyncIterator[asyncio.Queue[Event]]:
    """A queue of the game's events for as long as the caller listens."""
    queue: asyncio.Queue[Event] = asyncio.Queue()
    live.subscribers.add(queue)
    if live.orphan_timer is not None:
        live.orphan_timer.cancel()
        live.orphan_timer = None
    try:
        yield queue
    finally:
        live.subscribers.discard(queue)
        left_at = time.monotonic()
        live.last_seen = left_at
        if not live.subscribers:
            live.orphan_timer = asyncio.get_running_loop().call_later(
                grace_s, _orphaned, live, left_at, on_orphan
            )


def _orphaned(live: LiveGame, left_at: float, on_orphan: Callable[[LiveGame], None]) -> None:
    live.orphan_timer = None
    if live.subscribers or live.last_seen > left_at:
        return
    on_orphan(live)
