"""Per-client rate limits: a token bucket per (client, category), 429 past it.

Each category of request (creating games, moves, hints, searches, /learn) has a
rate and a burst: a client starts with ``burst`` tokens, each request takes one,
and tokens come back at ``per_s`` a second up to ``burst``. A request finding no
token is refused with ``Busy`` (429) and ``Retry-After``: the whole seconds until
its next token is back. The rates are far above what a person at the page does
(docs/web.md, "Limits"); they stop scripts that flood the server.

The ``limits`` package (named in DESIGN.md) offers fixed-window, moving-window and
sliding-window-counter strategies over storages that read the wall clock; it has
no token bucket and no injectable clock, and a token bucket is the 40 lines below.

The limiter keeps memory bounded: a bucket that has refilled to full is the same
as no bucket, so idle ones are dropped (a sweep at most every ``SWEEP_S``), and at
most ``max_clients`` clients are tracked (the least recently seen is forgotten).
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from starlette.requests import Request

from abgames.ui.web.clients import client_key
from abgames.ui.web.errors import Busy

CREATE = "create"
"""``POST /api/games``, ``/api/games/import``, ``/api/games/{id}/new``."""
MOVES = "moves"
"""``/moves`` and ``/undo``."""
HINTS = "hints"
"""``/hint`` (a search on a worker)."""
SEARCHES = "searches"
"""``/move-now`` and ``/control`` (pause, resume, step)."""
LEARN = "learn"
"""``/api/learn/trace`` and ``/api/learn/experiment`` (searches on the server's threads)."""
POSITION = "position"
"""``/api/learn/position`` (a board and its legal moves: cheap)."""
PUZZLES = "puzzles"
"""``/api/puzzles/next`` and ``/api/puzzles/move`` (a check on a worker: milliseconds)."""


@dataclass(frozen=True)
class Rate:
    """Tokens come back at ``per_s`` a second, up to ``burst``."""

    per_s: float
    burst: int

    def scaled(self, factor: float) -> Rate:
        return Rate(self.per_s * factor, max(1, round(self.burst * factor)))


#: Each category's rate. A person's fastest play stays far below each: one game
#: started every few seconds, two moves a second, a hint per move; the /learn page
#: sends five traces at once (one per method) when it compares them.
DEFAULT_RATES: Mapping[str, Rate] = MappingProxyType(
    {
        CREATE: Rate(0.5, 20),
        MOVES: Rate(5.0, 30),
        HINTS: Rate(1.0, 10),
        SEARCHES: Rate(2.0, 20),
        LEARN: Rate(1.0, 20),
        POSITION: Rate(5.0, 50),
        PUZZLES: Rate(3.0, 40),
    }
)
#: What a refused request is told, by category (then "try again in N s").
REFUSALS: Mapping[str, str] = MappingProxyType(
    {
        CREATE: "too many new games from this address",
        MOVES: "too many moves from this address",
        HINTS: "too many hints asked from this address",
        SEARCHES: "too many search controls from this address",
        LEARN: "too many searches asked from this address",
        POSITION: "too many positions asked from this address",
        PUZZLES: "too many puzzle moves from this address",
    }
)
#: Most clients tracked at once (about 300 bytes each per category used).
MAX_CLIENTS = 10_000
#: Seconds between sweeps that drop buckets back to full.
SWEEP_S = 60.0


@dataclass(frozen=True)
class RateLimits:
    """The web app's rate limits: ``enabled``, and every rate times ``scale``."""

    enabled: bool = True
    scale: float = 1.0
    rates: Mapping[str, Rate] = field(default_factory=lambda: DEFAULT_RATES)
    max_clients: int = MAX_CLIENTS

    def rate(self, category: str) -> Rate:
        return self.rates[category].scaled(self.scale)


class TokenBucket:
    """``burst`` tokens, refilled at ``per_s`` a second; ``take`` spends one."""

    __slots__ = ("burst", "per_s", "stamp", "tokens")

    def __init__(self, rate: Rate, now: float) -> None:
        self.per_s = rate.per_s
        self.burst = float(rate.burst)
        self.tokens = self.burst
        self.stamp = now

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.stamp)
        self.tokens = min(self.burst, self.tokens + elapsed * self.per_s)
        self.stamp = now

    def take(self, now: float) -> float:
        """Spend a token: 0.0 if there was one, else the seconds until one is back."""
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        if self.per_s <= 0:
            return math.inf
        return (1.0 - self.tokens) / self.per_s

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled to ``burst`` by ``now`` (so it can be dropped)."""
        return self.tokens + max(0.0, now - self.stamp) * self.per_s >= self.burst


class RateLimiter:
    """Token buckets by (client, category). Thread-safe; every call is O(1) but a sweep."""

    def __init__(
        self, limits: RateLimits | None = None, *, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.limits = limits or RateLimits()
        self._now = now
        self._rates = {category: self.limits.rate(category) for category in self.limits.rates}
        self._clients: OrderedDict[str, dict[str, TokenBucket]] = OrderedDict()
        self._lock = threading.Lock()
        self._swept = now()
        self.refused = 0

    def wait_s(self, client: str, category: str) -> float:
        """Spend one of ``client``'s ``category`` tokens: 0.0, or the seconds until one is back."""
        if not self.limits.enabled:
            return 0.0
        rate = self._rates[category]  # KeyError: an unknown category is a bug
        with self._lock:
            now = self._now()
            if now - self._swept >= SWEEP_S:
                self._sweep(now)
            buckets = self._clients.get(client)
            if buckets is None:
                while len(self._clients) >= self.limits.max_clients:
                    self._clients.popitem(last=False)
                buckets = self._clients[client] = {}
            else:
                self._clients.move_to_end(client)
            bucket = buckets.get(category)
            if bucket is None:
                bucket = buckets[category] = TokenBucket(rate, now)
            wait = bucket.take(now)
            if wait:
                self.refused += 1
            return wait

    def check(self, client: str, category: str) -> None:
        """Spend a token or raise ``Busy`` (429) with the whole seconds until one is back."""
        wait = self.wait_s(client, category)
        if wait:
            retry = min(math.ceil(wait), 3600) if math.isfinite(wait) else 3600
            what = REFUSALS.get(category, "too many requests from this address")
            raise Busy(f"{what}: try again in {retry} s", retry)

    def _sweep(self, now: float) -> None:
        self._swept = now
        for client in list(self._clients):
            buckets = self._clients[client]
            for category in [c for c, bucket in buckets.items() if bucket.full(now)]:
                del buckets[category]
            if not buckets:
                del self._clients[client]

    def tracked(self) -> int:
        """How many (client, category) buckets are held now."""
        with self._lock:
            return sum(len(buckets) for buckets in self._clients.values())


def limited(category: str) -> Callable[[Request], Awaitable[None]]:
    """A route dependency: spend one of the client's ``category`` tokens or answer 429.

    The limiter is ``app.state.rate_limiter`` (made by ``create_app``); an app without
    one is not limited. Put it in the route's ``dependencies=[...]`` so it runs before
    every other dependency (the game's lookup) and the route's work.
    """

    async def check_rate(request: Request) -> None:
        limiter: RateLimiter | None = getattr(request.app.state, "rate_limiter", None)
        if limiter is not None:
            limiter.check(client_key(request), category)

    check_rate.__name__ = f"rate_limit_{category}"
    return check_rate
