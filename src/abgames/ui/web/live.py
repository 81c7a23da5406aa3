"""``LiveGame``: a game in use on the server, its stored row, its match, what happens to it now."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from abgames.match import Match
from abgames.ui.web.clients import UNKNOWN_CLIENT
from abgames.ui.web.clocks import Clock
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
    #: Event streams of watchers (no secret): they get ``state_view.public_state``.
    watchers: set[asyncio.Queue[Event]] = field(default_factory=set)
    hint: dict[str, Any] | None = None
    hint_ply: int | None = None
    hint_future: asyncio.Future[dict[str, Any]] | None = None
    message: str | None = None
    step_once: bool = False
    last_seen: float = field(default_factory=time.monotonic)
    timer: asyncio.TimerHandle | None = None
    orphan_timer: asyncio.TimerHandle | None = None
    flag_timer: asyncio.TimerHandle | None = None
    #: The invitation's token, known only between creating a game and answering.
    invite: str | None = None
    #: A running review's progress: (positions scored, positions in all).
    review_progress: tuple[int, int] | None = None
    board_cache: tuple[int, dict[str, Any]] | None = None
    json_cache: tuple[tuple[Any, ...], bytes] | None = None

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def streams(self) -> int:
        """Open event streams, the players' and the watchers'."""
        return len(self.subscribers) + len(self.watchers)

    @property
    def over(self) -> bool:
        """Whether the game has ended, on the board or off it (resignation, agreement, time)."""
        return self.stored.ending is not None or self.match.is_over

    @property
    def ai_to_move(self) -> bool:
        return not self.over and self.match.seat_to_move.is_ai

    @property
    def clock(self) -> Clock | None:
        """The game's clock, or ``None`` for an untimed game."""
        data = self.stored.clock
        return None if data is None else Clock.from_json(data)

    @property
    def between_devices(self) -> bool:
        """A game between people on two devices (each seat has its own secret)."""
        return self.stored.seat_hashes is not None

    @property
    def invite_open(self) -> bool:
        """A game between devices whose second seat nobody has claimed yet."""
        hashes = self.stored.seat_hashes
        return hashes is not None and None in hashes
