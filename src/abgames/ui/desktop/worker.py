"""The AI's search on a worker thread, reporting to the UI thread through a queue.

The UI thread never waits for the search: it calls ``SearchWorker.start`` and
later drains ``SearchWorker.messages`` (from ``root.after``). Each search gets a
*generation* number from its caller; a caller that starts a new game or takes a
move back bumps its own generation, and a message whose generation is not the
current one is stale and is dropped.

The search runs on a private ``Match`` over a copy of the position that shares
the real match's AI players (and so their tables), so the board the window
draws is never touched by the search thread.
"""

from __future__ import annotations

import queue
import threading
import traceback
from dataclasses import dataclass

from abgames.match import Match
from abgames.search.result import SearchResult

#: What a search is for: the AI's own move, or a hint for a human.
MOVE = "move"
HINT = "hint"


@dataclass(frozen=True)
class Progress:
    """A completed depth of the search ``generation`` (live depth, nodes, best move)."""

    generation: int
    purpose: str
    result: SearchResult


@dataclass(frozen=True)
class Finished:
    """The search ``generation`` ended: its last result, or ``error`` if it failed."""

    generation: int
    purpose: str
    result: SearchResult | None
    error: str | None = None


Message = Progress | Finished


def snapshot(match: Match) -> Match:
    """A match over a copy of ``match``'s position that reuses ``match``'s AI players."""
    return Match(
        match.state.copy(),
        match.seats,
        seed=match.seed,
        player_factory=lambda _game, level, _seed: match.player(level),
    )


class SearchWorker:
    """Runs at most one search at a time on a daemon thread.

    ``start`` must be called from the UI thread; a search already running is
    told to stop first (its messages carry its own, now stale, generation).
    Daemon threads never hold the process open, so closing the window during a
    search exits at once.
    """

    def __init__(self) -> None:
        self.messages: queue.Queue[Message] = queue.Queue()
        self._search: Match | None = None
        self._stop_requested = threading.Event()
        self._thread: threading.Thread | None = None
        self._generation = -1
        self._purpose = MOVE

    @property
    def busy(self) -> bool:
        """Whether a search thread is still running (it may be stopping)."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def purpose(self) -> str:
        return self._purpose

    def start(self, match: Match, generation: int, purpose: str, level: str | None) -> None:
        """Search ``match``'s current position at ``level`` (its seat's level if ``None``)."""
        self.stop()
        search = snapshot(match)
        self._search = search
        self._stop_requested = threading.Event()
        self._generation = generation
        self._purpose = purpose
        self._thread = threading.Thread(
            target=self._run,
            args=(search, self._stop_requested, generation, purpose, level),
            name=f"abgames-search-{generation}",
            daemon=True,
        )
        self._thread.start()

    def stop(self) -> None:
        """Ask the running search (if any) to finish soon with its best move so far."""
        self._stop_requested.set()
        if self._search is not None:
            self._search.stop_thinking()

    def join(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for the search thread; whether it has ended."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout_s)
        return not thread.is_alive()

    def _run(
        self,
        search: Match,
        stop_requested: threading.Event,
        generation: int,
        purpose: str,
        level: str | None,
    ) -> None:
        last: SearchResult | None = None
        try:
            for last in search.think(level):
                self.messages.put(Progress(generation, purpose, last))
                if stop_requested.is_set():
                    # A stop asked for before the engine started is lost (the engine
                    # clears its flag on entry): repeat it now that it is running.
                    search.stop_thinking()
        except Exception as error:  # a failing engine must not kill the window
            detail = "".join(traceback.format_exception_only(error)).strip()
            self.messages.put(Finished(generation, purpose, None, detail))
            return
        self.messages.put(Finished(generation, purpose, last))
