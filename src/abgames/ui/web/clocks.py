"""Fischer clocks kept by the server: base time plus an increment per move.

A ``Clock`` is a value: each change returns a new one, and ``to_json`` /
``from_json`` carry it through the store (times are wall-clock seconds, so a
restarted server goes on where the old one stopped). The clocks start with the
first move: from then on the side to move has its clock running (``running``,
since ``since``). A move charges the mover the time since its turn began and adds
the increment; a side whose time runs out has lost on time (``flagged``).

``think_seconds`` gives the AI's budget for one move from its clock with the time
manager the Gomocup engine uses (``abgames.protocols.timing.TimeControl``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from abgames.protocols.timing import MIN_MOVES_TO_GO, TimeControl

#: Limits of a time control, in seconds.
MIN_BASE_S = 1
MAX_BASE_S = 3 * 3600
MAX_INCREMENT_S = 180
#: The time controls the page offers (base seconds, increment seconds), as lichess's
#: bullet, blitz, rapid and classical.
CLOCK_PRESETS = ((60, 0), (180, 2), (300, 3), (600, 5), (900, 10), (1800, 20))
#: The AI never plans to spend more than this share of its time left on one move.
MAX_MOVE_SHARE = 0.25


def wall_time() -> float:
    """Now, in wall-clock seconds: the clocks' time source (tests put a fake one here)."""
    return time.time()


@dataclass(frozen=True)
class Clock:
    """Both sides' time: ``remaining_ms`` as of the start of the running side's turn.

    ``running`` is the side whose clock runs (``None`` before the first move and
    after the end), ``since`` the wall time (seconds) its turn began.
    """

    base_ms: int
    increment_ms: int
    remaining_ms: tuple[int, int]
    running: int | None = None
    since: float | None = None

    @classmethod
    def new(cls, base_s: int, increment_s: int) -> Clock:
        """A fresh clock: ``base_s`` seconds each, ``increment_s`` more after each move."""
        if not MIN_BASE_S <= base_s <= MAX_BASE_S:
            raise ValueError(f"a clock's base time must be {MIN_BASE_S} to {MAX_BASE_S} seconds")
        if not 0 <= increment_s <= MAX_INCREMENT_S:
            raise ValueError(f"a clock's increment must be 0 to {MAX_INCREMENT_S} seconds")
        base_ms = base_s * 1000
        return cls(base_ms, increment_s * 1000, (base_ms, base_ms))

    def reset(self) -> Clock:
        """The same time control, both sides back to the base time, not running."""
        return Clock(self.base_ms, self.increment_ms, (self.base_ms, self.base_ms))

    def left_ms(self, side: int, now: float) -> int:
        """What ``side`` has left at wall time ``now`` (may be negative: flagged)."""
        left = self.remaining_ms[side]
        if self.running == side and self.since is not None:
            left -= round((now - self.since) * 1000)
        return left

    def flagged(self, now: float) -> int | None:
        """The side whose time has run out at ``now``, if any."""
        if self.running is not None and self.left_ms(self.running, now) <= 0:
            return self.running
        return None

    def deadline(self) -> float | None:
        """The wall time at which the running side's time runs out (``None``: not running)."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.remaining_ms[self.running] / 1000

    def moved(self, side: int, now: float) -> Clock:
        """``side`` has moved at ``now``: charge it, add the increment, start the other side.

        Before the first move has been made nothing is charged; the first move starts
        the clocks."""
        remaining = list(self.remaining_ms)
        if self.running == side:
            remaining[side] = self.left_ms(side, now) + self.increment_ms
        return replace(self, remaining_ms=(remaining[0], remaining[1]), running=1 - side, since=now)

    def stopped(self, now: float) -> Clock:
        """Both clocks stopped at ``now`` (the game ended): the running side is charged."""
        if self.running is None:
            return self
        remaining = list(self.remaining_ms)
        remaining[self.running] = max(0, self.left_ms(self.running, now))
        return replace(self, remaining_ms=(remaining[0], remaining[1]), running=None, since=None)

    def handed_to(self, side: int, now: float) -> Clock:
        """The running clock moves to ``side`` at ``now`` without an increment (a
        take-back); a clock not yet started stays so."""
        if self.running is None:
            return self
        stopped = self.stopped(now)
        return replace(stopped, running=side, since=now)

    def view(self, now: float) -> dict[str, Any]:
        """The ``Clock`` of docs/web.md: the time each side has left at ``now``."""
        return {
            "base_ms": self.base_ms,
            "increment_ms": self.increment_ms,
            "left_ms": [max(0, self.left_ms(side, now)) for side in (0, 1)],
            "running": self.running,
        }

    def think_seconds(self, side: int, own_moves: int, now: float) -> float:
        """The AI's budget for its move: the Gomocup engine's time manager over the
        time ``side`` has left, counting the increments still to come."""
        left_ms = max(0, self.left_ms(side, now))
        control = TimeControl(
            timeout_turn_ms=round(left_ms * MAX_MOVE_SHARE) + self.increment_ms,
            time_left_ms=left_ms + self.increment_ms * MIN_MOVES_TO_GO,
        )
        return control.think_seconds(own_moves)

    def to_json(self) -> dict[str, Any]:
        return {
            "base_ms": self.base_ms,
            "increment_ms": self.increment_ms,
            "remaining_ms": list(self.remaining_ms),
            "running": self.running,
            "since": self.since,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        remaining = data["remaining_ms"]
        return cls(
            int(data["base_ms"]),
            int(data["increment_ms"]),
            (int(remaining[0]), int(remaining[1])),
            data.get("running"),
            data.get("since"),
        )
