"""How long one move may take, from a per-turn limit and the time left in the game.

Managers give an engine ``timeout_turn`` (per move) and ``timeout_match`` /
``time_left`` (for the whole game), all in milliseconds; ``timeout_match`` 0 means
the game has no overall limit, but a ``time_left`` once given binds whatever
``timeout_match`` says (a manager that sends it means it).
``TimeControl.move_limit_seconds`` is the time by which the answer must be written
(both limits, minus a margin for process and pipe latency);
``TimeControl.think_seconds`` is the share of it the search is given, so a search
that overruns its budget a little still answers in time.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Kept back from every limit for reading, writing and process scheduling.
LATENCY_MARGIN_MS = 40
#: Share of the move limit the search itself may use; the rest is slack (a search stops
#: within ~1 ms of its budget, so the slack covers answering, not overruns). With
#: ``LATENCY_MARGIN_MS`` a 1 s turn is answered after about 0.93 s, as Rapfi answers
#: after 0.97 s (0.95 here had ``hard`` answer after 0.84 s: a tenth of its time unused).
THINK_SHARE = 0.98
#: A game is assumed to last at least this many more own moves when sharing match time.
MIN_MOVES_TO_GO = 12
#: Own moves a game is expected to take when sharing match time.
EXPECTED_OWN_MOVES = 40
#: The per-turn limit when a manager sends none (the Gomocup default is 30 s; we are modest).
DEFAULT_TURN_MS = 5_000


@dataclass
class TimeControl:
    """The clock of one side: limits in milliseconds (``timeout_match_ms`` 0 = unlimited).

    ``time_left_ms`` is what remains of the match time (``None``: all of it, or
    no limit when ``timeout_match_ms`` is 0); when given, it binds.
    """

    timeout_turn_ms: int = DEFAULT_TURN_MS
    timeout_match_ms: int = 0
    time_left_ms: int | None = None

    def remaining_match_ms(self) -> int | None:
        """Match time left, or ``None`` when the game has no overall limit.

        ``time_left_ms`` when it was given (even with ``timeout_match_ms`` 0),
        else ``timeout_match_ms`` when there is a match limit.
        """
        if self.time_left_ms is not None:
            return self.time_left_ms
        if self.timeout_match_ms <= 0:
            return None
        return self.timeout_match_ms

    def move_limit_seconds(self, own_moves_played: int = 0) -> float:
        """Seconds by which this move's answer must be written (never negative).

        The smaller of the turn limit and a fair share of the match time left
        (spread over the moves still expected), both less ``LATENCY_MARGIN_MS``.
        A turn limit of 0 gives 0: answer at once.
        """
        limit_ms = float(self.timeout_turn_ms)
        left_ms = self.remaining_match_ms()
        if left_ms is not None:
            moves_to_go = max(MIN_MOVES_TO_GO, EXPECTED_OWN_MOVES - own_moves_played)
            limit_ms = min(limit_ms, left_ms / moves_to_go)
        if limit_ms <= 0:
            return 0.0
        return max(0.0, limit_ms - LATENCY_MARGIN_MS) / 1000.0

    def think_seconds(self, own_moves_played: int = 0) -> float:
        """The search budget: ``THINK_SHARE`` of ``move_limit_seconds``."""
        return self.move_limit_seconds(own_moves_played) * THINK_SHARE

    def charge(self, elapsed_ms: float) -> None:
        """Take ``elapsed_ms`` off the match time (when the game has a match limit)."""
        left_ms = self.remaining_match_ms()
        if left_ms is not None:
            self.time_left_ms = int(left_ms - elapsed_ms)
