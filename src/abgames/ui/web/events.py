"""Publish and subscribe: each game's event streams, and noticing when nobody listens.

``publish`` puts an event on every subscriber's queue (progress events are dropped
for a reader that has fallen ``MAX_PENDING_PROGRESS`` behind); watchers' queues get
the public view of a state and no private event (a hint's progress).
``subscription`` is a queue for as long as a stream is open. When a game's last
stream closes, ``on_orphan`` runs ``grace_s`` later unless a stream or a request
came back meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from abgames.ui.web.live import Event, LiveGame
from abgames.ui.web.state_view import public_state

#: Progress events a slow reader may have waiting before more are dropped.
MAX_PENDING_PROGRESS = 20
CLOSE = "close"


def publish(live: LiveGame, kind: str, data: Any, *, private: bool = False) -> None:
    """Send one event to every open stream of the game (a ``private`` one to the players'
    streams only)."""
    _put(live.subscribers, kind, data)
    if private or not live.watchers:
        return
    _put(live.watchers, kind, public_state(data) if kind == "state" else data)


def _put(queues: set[asyncio.Queue[Event]], kind: str, data: Any) -> None:
    for queue in queues:
        if kind == "progress" and queue.qsize() > MAX_PENDING_PROGRESS:
            continue
        queue.put_nowait((kind, data))


def close_streams(live: LiveGame) -> None:
    """End every open stream of the game (the server is stopping)."""
    for queue in (*live.subscribers, *live.watchers):
        queue.put_nowait((CLOSE, None))


@contextlib.asynccontextmanager
async def subscription(
    live: LiveGame,
    grace_s: float,
    on_orphan: Callable[[LiveGame], None],
    *,
    watcher: bool = False,
) -> AsyncIterator[asyncio.Queue[Event]]:
    """A queue of the game's events for as long as the caller listens (a ``watcher``'s
    gets the public view)."""
    queue: asyncio.Queue[Event] = asyncio.Queue()
    streams = live.watchers if watcher else live.subscribers
    streams.add(queue)
    if live.orphan_timer is not None:
        live.orphan_timer.cancel()
        live.orphan_timer = None
    try:
        yield queue
    finally:
        streams.discard(queue)
        left_at = time.monotonic()
        live.last_seen = left_at
        if not live.streams:
            live.orphan_timer = asyncio.get_running_loop().call_later(
                grace_s, _orphaned, live, left_at, on_orphan
            )


def _orphaned(live: LiveGame, left_at: float, on_orphan: Callable[[LiveGame], None]) -> None:
    live.orphan_timer = None
    if live.streams or live.last_seen > left_at:
        return
    on_orphan(live)
