"""An AI player: something that thinks about a position and streams search results."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator

from abgames.games.base import GameState
from abgames.search.alphabeta import AlphaBeta
from abgames.search.limit import Limit
from abgames.search.result import SearchResult


class AIPlayer(ABC):
    """The one interface every front-end, the protocol and the arena use.

    ``think(state)`` yields a ``SearchResult`` per completed step (depth) and leaves
    ``state`` unchanged; the last result is the move to play. ``stop()`` may be
    called from another thread and makes ``think`` finish soon with its best answer.
    """

    #: The level name this player was made for ("hard").
    level: str

    @abstractmethod
    def think(self, state: GameState) -> Iterator[SearchResult]:
        """Search ``state`` and yield results, deepest last."""

    @abstractmethod
    def stop(self) -> None:
        """Ask a running ``think`` to finish with its best answer so far."""

    def think_within(self, state: GameState, seconds: float) -> Iterator[SearchResult]:
        """``think`` under a hard time budget: ``stop()`` is called when ``seconds`` pass.

        Players whose search takes a time limit itself override this to plan their
        iterations within the budget.
        """
        timer = threading.Timer(max(0.0, seconds), self.stop)
        timer.daemon = True
        timer.start()
        try:
            yield from self.think(state)
        finally:
            timer.cancel()

    def choose(self, state: GameState) -> SearchResult:
        """The final result of ``think``: the move this player plays."""
        last: SearchResult | None = None
        for last in self.think(state):  # noqa: B007 - keep the final result
            pass
        if last is None:
            raise ValueError("the game is over: there is no move to choose")
        return last


class SearchPlayer(AIPlayer):
    """An ``AlphaBeta`` engine searched to a ``Limit``, on a private copy of the state."""

    def __init__(self, level: str, engine: AlphaBeta, limit: Limit) -> None:
        self.level = level
        self.engine = engine
        self.limit = limit

    def think(self, state: GameState) -> Iterator[SearchResult]:
        yield from self.engine.search(state.copy(), self.limit)

    def think_within(self, state: GameState, seconds: float) -> Iterator[SearchResult]:
        """The level's own limit, with its time capped at ``seconds``."""
        own = self.limit.time
        budget = seconds if own is None else min(own, seconds)
        limit = Limit(depth=self.limit.depth, time=max(0.0, budget), nodes=self.limit.nodes)
        yield from self.engine.search(state.copy(), limit)

    def stop(self) -> None:
        self.engine.stop()
