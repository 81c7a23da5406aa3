"""The storage budget: at most ``max_games`` games on disk, the oldest finished ones go first.

Before the service inserts a new game it calls ``make_room``, which sends one
``Prune`` write through the group writer: when the table is full it deletes games
(and their analyses), oldest change first, finished games before abandoned ones
(unfinished and unchanged for ``ABANDONED_AFTER_S``), never one in ``protected``
(the games being played). If nothing may go, the creation is refused with 429.
"""

from __future__ import annotations

from collections.abc import Iterable

from abgames.ui.web.errors import Busy
from abgames.ui.web.store import Prune
from abgames.ui.web.writer import GroupWriter

#: What a client is told when the budget is full of games in play.
FULL_MESSAGE = "the server holds as many games as it may: try again later"
#: Its Retry-After (seconds).
FULL_RETRY_AFTER_S = 60


async def make_room(
    writer: GroupWriter,
    protected: Iterable[str] = (),
    *,
    max_games: int | None = None,
    abandoned_after_s: float | None = None,
) -> None:
    """Make room for one more game, or raise ``Busy`` (429, Retry-After 60 s).

    ``protected`` are the ids of games being played (never pruned); ``max_games``
    and ``abandoned_after_s`` default to the store's (``GameStore(max_games=...)``).
    """
    store = writer.store
    prune = Prune(
        store.max_games if max_games is None else max_games,
        frozenset(protected),
        store.abandoned_after_s if abandoned_after_s is None else abandoned_after_s,
    )
    if not await writer.write(prune):
        raise Busy(FULL_MESSAGE, retry_after_s=FULL_RETRY_AFTER_S)
