"""``LiveGame``: a game in use on the server, its stored row, its match, what happens to it now."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from abgames.match import Match
from abgames.ui.web.clients import UNKNOWN_CLIENT
from abgames.ui.web.store import StoredGame

#: One event for a game's subscribers: (kind, data); kind "close" ends the stream.
Event = tuple[str, Any]


@dataclass(eq=False)
class LiveGame:
    """A game in use: its stored row, its match, and what is happening to it now.

    ``client`` is the client that last asked for the game (its searches count against
    that client's share of the pool).
    """

    stored: StoredGame
    match: Match
    client: str = UNKNOWN_CLIENT
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[asyncio.Queue[Event]] = field(default_factory=set)
    hint: dict[str, Any] | None = None
    hint_ply: int | None = None
    hint_future: asyncio.Future[dict[str, Any]] | None = None
    message: str | None = None
    step_once: bool = False
    last_seen: float = field(default_factory=time.monotonic)
    timer: asyncio.TimerHandle | None = None
    orphan_timer: asyncio.TimerHandle | None = None
    board_cache: tuple[int, dict[str, Any]] | None = None
    json_cache: tuple[tuple[Any, ...], bytes] | None = None

    @property
    def id(self) -> str:
        return self.stored.id
