"""The AI's searches for live games: start them, follow them, play their answers.

``AIScheduler.ensure_ai`` starts the AI's search whenever the AI is to move and
nothing runs for the game; a full queue retries a second later. The answer is played
only if the position is still the one searched, and in a paused AI-vs-AI game only
if it was a step (an answer that comes back after the pause is dropped); AI-vs-AI
games play on, ``delay_ms`` apart, while someone watches. Hints are pool jobs of the
same game (purpose ``HINT``). Every job counts against the share of the client that
last asked for the game.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from abgames.ai.levels import DEFAULT_LEVEL, HINT_LEVEL
from abgames.games import GameState
from abgames.search.result import SearchResult
from abgames.ui.web import clocks, views
from abgames.ui.web.errors import Busy, Conflict, WebError
from abgames.ui.web.events import publish
from abgames.ui.web.jobs import SearchSpec
from abgames.ui.web.live import LiveGame
from abgames.ui.web.pool import Job, QueueFullError, SearchPool
from abgames.ui.web.state_view import HINT, MOVE, state_of

#: An AI-vs-AI game keeps playing while someone asked for it this recently (seconds).
WATCHED_S = 30.0
#: When the queue was full, how soon the AI's search is tried again (seconds).
RETRY_S = 1.0

Commit = Callable[..., Awaitable[None]]


class AIScheduler:
    """Starts, stops and plays the AI's searches of the live games."""

    def __init__(self, pool: SearchPool, commit: Commit) -> None:
        """``commit(live, **changes)`` writes the game's match as its next version."""
        self.pool = pool
        self._commit = commit
        self._tasks: set[asyncio.Task[None]] = set()
        self.ai_moves = 0  # AI moves played since start (for the load benchmark)

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def need_room(self, client: str) -> None:
        """``Busy`` (429) if the pool would refuse one more job of ``client``."""
        if not self.pool.has_room(client):
            raise Busy("the server is busy: every AI is thinking and the queue is full")

    def watched(self, live: LiveGame) -> bool:
        return bool(live.streams) or time.monotonic() - live.last_seen < WATCHED_S

    def publish_state(self, live: LiveGame) -> None:
        """Send the state, unless a change is being written (its commit will send it)."""
        if live.streams and not live.lock.locked():
            publish(live, "state", state_of(live, self.pool))

    def forget(self, live: LiveGame, reason: str) -> None:
        """Cancel the game's search and its pending hint (the position is changing)."""
        self.pool.cancel(live.id)
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        future = live.hint_future
        live.hint_future = None
        if future is not None and not future.done():
            future.set_exception(Conflict(reason))
        live.step_once = False

    def ensure_ai(self, live: LiveGame, *, now: bool = False) -> None:
        """Start the AI's search if the AI is to move and nothing is running or waiting."""
        match = live.match
        if not live.ai_to_move or self.pool.job_of(live.id) is not None:
            return
        if live.stored.paused and not live.step_once:
            return
        if live.timer is not None:
            if not now:
                return
            live.timer.cancel()
            live.timer = None
        try:
            self.submit(live, MOVE, match.seat_to_move.level or DEFAULT_LEVEL[match.game])
        except QueueFullError:
            live.message = "The server is busy: the AI will think as soon as it can."
            live.timer = asyncio.get_running_loop().call_later(RETRY_S, self._retry, live)

    def _retry(self, live: LiveGame) -> None:
        live.timer = None
        if self.watched(live):
            self.ensure_ai(live)

    async def hint(self, live: LiveGame) -> dict[str, Any]:
        """The hint level's suggestion for the human to move (``HINT_LEVEL``: the default
        level, Connect Four's exact ``perfect``), shared by every asker."""
        future = live.hint_future
        if future is None or future.done():
            self.need_room(live.client)
            future = asyncio.get_running_loop().create_future()
            live.hint_future = future
            self.submit(live, HINT, HINT_LEVEL[live.match.game])
        return await asyncio.shield(future)

    def submit(self, live: LiveGame, purpose: str, level: str) -> None:
        """Put the game's search (``MOVE`` or ``HINT``) in the pool; ``QueueFullError``."""
        version = live.stored.version
        base = live.match.state.copy()
        stepped = live.stored.paused  # a move searched in a paused game: a step

        def on_progress(result: SearchResult) -> None:
            publish(live, "progress", views.progress_of(base, result), private=purpose == HINT)

        def on_queued(position: int) -> None:
            if position == 0:  # the search has started
                self.publish_state(live)
            else:
                publish(live, "queued", {"position": position})

        def on_done(result: SearchResult | None, error: str | None) -> None:
            task = asyncio.get_running_loop().create_task(
                self._finished(live, purpose, version, base, result, error, stepped)
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        think_s = None
        clock = live.clock
        if clock is not None and purpose == MOVE:
            side = base.to_move
            own_moves = (base.ply + 1 - side) // 2
            think_s = clock.think_seconds(side, own_moves, clocks.wall_time())
        job = Job(
            key=live.id,
            spec=SearchSpec(live.match.to_record(), level, live.stored.seed, think_s),
            purpose=purpose,
            on_done=on_done,
            on_progress=on_progress,
            on_queued=on_queued,
            client=live.client,
        )
        self.pool.submit(job)
        if purpose == MOVE:
            live.step_once = False
            live.message = None  # a note about an earlier failed or delayed search
        self.publish_state(live)

    async def _finished(
        self,
        live: LiveGame,
        purpose: str,
        version: int,
        base: GameState,
        result: SearchResult | None,
        error: str | None,
        stepped: bool = False,
    ) -> None:
        if purpose == HINT:
            self._hint_finished(live, version, base, result, error)
            return
        async with live.lock:
            now = live.match.state
            if (now.ply, now.key) != (base.ply, base.key) or not live.ai_to_move:
                return  # the position changed after this search began (a pace change
                # bumps the version but keeps the position, and the answer)
            if live.stored.paused and not stepped:
                return  # paused after this search began: its answer came too late
            if result is None or result.move is None:
                live.message = f"The AI failed: {error or 'no move found'}"
                publish(live, "state", state_of(live, self.pool))
                return
            match = live.match
            changes: dict[str, Any] = {}
            clock = live.clock
            if clock is not None:
                moved_at = clocks.wall_time()
                if clock.flagged(moved_at) is not None:
                    return  # too late: the flag timer ends the game on time
                changes["clock"] = clock.moved(base.to_move, moved_at).to_json()
            analysis = views.analysis_of(base, result) | {"ply": base.ply, "hint": False}
            match.play_ai_result(result)
            changes["analyses"] = [*live.stored.analyses, analysis]
            try:
                await self._commit(live, **changes)
            except BaseException:
                match.state.undo()
                match.analyses.pop()
                raise
            self.ai_moves += 1
        self._after_ai_move(live)

    def _hint_finished(
        self,
        live: LiveGame,
        version: int,
        base: GameState,
        result: SearchResult | None,
        error: str | None,
    ) -> None:
        future = live.hint_future
        live.hint_future = None
        if result is None or result.move is None:
            if future is not None and not future.done():
                future.set_exception(WebError(f"the hint failed: {error}", status=500))
            return
        analysis = views.analysis_of(base, result) | {"ply": base.ply, "hint": True}
        if live.stored.version == version:
            live.hint, live.hint_ply = analysis, base.ply
        if future is not None and not future.done():
            future.set_result(analysis)
        self.publish_state(live)

    def _after_ai_move(self, live: LiveGame) -> None:
        if not live.ai_to_move or not self.watched(live):
            return
        if live.stored.paused and not live.step_once:
            return
        delay_s = live.stored.delay_ms / 1000 if not live.match.has_human else 0.0
        if delay_s <= 0:
            self.ensure_ai(live)
            return

        def wake() -> None:
            live.timer = None
            if self.watched(live):
                self.ensure_ai(live)

        live.timer = asyncio.get_running_loop().call_later(delay_s, wake)
