"""The engine's review of a game, run as a pool job and stored with the game.

``Reviewer.start`` puts ``ReviewSpec`` in the search pool (key ``<id>/review``, so it
never cancels the game's own search); the worker scores every position
(``abgames.review``) and reports ``(done, total)`` as it goes, which the game's
subscribers and watchers get as ``review`` events. The finished review is committed
with the game (the store's ``review`` column) and shown in its ``State`` for as long as
the moves are the ones reviewed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from abgames.ui.web.errors import Busy, Conflict
from abgames.ui.web.events import publish
from abgames.ui.web.jobs import ReviewSpec
from abgames.ui.web.live import LiveGame
from abgames.ui.web.pool import Job, QueueFullError
from abgames.ui.web.state_view import review_of

if TYPE_CHECKING:
    from abgames.ui.web.service import GameService

#: The purpose of a review job in the pool.
REVIEW = "review"


def review_key(live: LiveGame) -> str:
    return f"{live.id}/review"


class Reviewer:
    """Starts the reviews of the live games and stores their results."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def start(self, live: LiveGame) -> None:
        """Review the game as it stands (once: a done or running review is kept)."""
        if review_of(live) is not None:
            return
        if live.between_devices and not live.over:
            raise Conflict("a game between people is reviewed once it is over")
        plies = live.match.state.ply
        if plies == 0:
            raise Conflict("there is no move to review")
        pool = self.service.pool

        def on_progress(progress: tuple[int, int]) -> None:
            live.review_progress = progress
            publish(live, "review", {"done": progress[0], "total": progress[1]})

        def on_done(result: Any, error: str | None) -> None:
            self.service.spawn(self._finished(live, plies, result, error))

        job = Job(
            key=review_key(live),
            spec=ReviewSpec(live.match.to_record()),
            purpose=REVIEW,
            on_done=on_done,
            on_progress=on_progress,
            client=live.client,
        )
        try:
            pool.submit(job)
        except QueueFullError:
            raise Busy("the server is busy: every AI is thinking and the queue is full") from None
        live.review_progress = (0, plies + 1)
        self.service.ai.publish_state(live)

    async def _finished(
        self, live: LiveGame, plies: int, result: dict[str, Any] | None, error: str | None
    ) -> None:
        live.review_progress = None
        async with live.lock:
            if result is None or not result.get("complete"):
                live.message = f"The review failed: {error or 'it was stopped'}"
                self.service.ai.publish_state(live)
                return
            if live.match.state.ply != plies:
                self.service.ai.publish_state(live)
                return  # the moves changed while it ran: that review is of another game
            await self.service.commit(live, review=result)
