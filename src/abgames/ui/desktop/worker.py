"""The AI's search on a worker thread, reporting to the UI thread through a queue.

The UI thread never waits for the search: it calls ``SearchWorker.start`` and
later drains ``SearchWorker.messages`` (from ``root.after``). Each search gets a
*generation* number from its caller; a caller that starts a new game or takes a
move back bumps its own generation, and a message whose generation is not the
current one is stale and is dropped.

The search runs on a private ``Match`` over a copy of the position that shares
the real match's AI players (and so their tables), so the board the window
draws is never touched by the search thread. Because the players are shared,
two searches never overlap: a search asked for while an older one is still
stopping waits for it (the engines' stop flags and tables are per player), and
the window stays live meanwhile.
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
from dataclasses import dataclass

from abgames.ai.levels import DEFAULT_LEVEL
from abgames.ai.readiness import Progress as ReadyProgress
from abgames.ai.readiness import prepare
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
class _Request:
    """A search to run: its private match, its own stop flag, and what it is for."""

    search: Match
    stop_requested: threading.Event
    generation: int
    purpose: str
    level: str | None


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
    told to stop first (its messages carry its own, now stale, generation), and
    the new one starts when it has ended. Daemon threads never hold the process
    open, so closing the window during a search exits at once.
    """

    def __init__(self) -> None:
        self.messages: queue.Queue[Message] = queue.Queue()
        self._lock = threading.Lock()
        self._running: _Request | None = None
        self._pending: _Request | None = None
        self._thread: threading.Thread | None = None
        self._generation = -1
        self._purpose = MOVE

    @property
    def busy(self) -> bool:
        """Whether a search is running (it may be stopping) or waiting to run."""
        with self._lock:
            alive = self._thread is not None and self._thread.is_alive()
            return alive or self._pending is not None

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def purpose(self) -> str:
        return self._purpose

    def start(self, match: Match, generation: int, purpose: str, level: str | None) -> None:
        """Search ``match``'s current position at ``level`` (its seat's level if ``None``).

        A search still running is stopped first; this one runs once it has ended.
        """
        self.stop()
        request = _Request(snapshot(match), threading.Event(), generation, purpose, level)
        with self._lock:
            self._generation = generation
            self._purpose = purpose
            self._pending = request
            if self._thread is None or not self._thread.is_alive():
                self._launch_pending()

    def _launch_pending(self) -> None:
        """Start the pending search on a new thread (the caller holds the lock)."""
        request = self._pending
        if request is None:
            return
        self._pending = None
        self._running = request
        self._thread = threading.Thread(
            target=self._run,
            args=(request,),
            name=f"abgames-search-{request.generation}",
            daemon=True,
        )
        self._thread.start()

    def stop(self) -> None:
        """Ask the running (or waiting) search to finish soon with its best move so far."""
        with self._lock:
            requests = [r for r in (self._running, self._pending) if r is not None]
        for request in requests:
            request.stop_requested.set()
            request.search.stop_thinking()

    def join(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for the searches (a waiting one too); whether they ended."""
        deadline = time.monotonic() + timeout_s
        while True:
            thread = self._thread
            if thread is not None:
                thread.join(max(0.0, deadline - time.monotonic()))
            if not self.busy:
                return True
            if time.monotonic() >= deadline:
                return False

    def _run(self, request: _Request) -> None:
        try:
            self._search(request)
        finally:
            with self._lock:
                self._running = None
                self._launch_pending()  # the search asked for while this one stopped

    def _ready_engine(self, request: _Request) -> None:
        """Compile (or load) the level's kernels before its clock starts, reporting
        what happens as progress results that carry only a note; a blank result
        (no move, no nodes, no note) ends the notice once the engine is ready."""
        search, level = request.search, request.level or DEFAULT_LEVEL[request.search.game]
        started = time.monotonic()
        reported = False

        def post(note: str) -> None:
            blank = SearchResult(
                move=None,
                score=0,
                depth=0,
                nodes=0,
                elapsed=time.monotonic() - started,
                complete=False,
                note=note,
            )
            self.messages.put(Progress(request.generation, request.purpose, blank))

        def report(progress: ReadyProgress) -> None:
            nonlocal reported
            if not progress.done:
                reported = True
                post(progress.message)

        prepare(search.game, level, report)
        if reported:
            post("")

    def _search(self, request: _Request) -> None:
        search, generation, purpose = request.search, request.generation, request.purpose
        last: SearchResult | None = None
        try:
            self._ready_engine(request)
            for last in search.think(request.level):
                self.messages.put(Progress(generation, purpose, last))
                if request.stop_requested.is_set():
                    # A stop asked for before the engine started is lost (the engine
                    # clears its flag on entry): repeat it now that it is running.
                    search.stop_thinking()
        except Exception as error:  # a failing engine must not kill the window
            detail = "".join(traceback.format_exception_only(error)).strip()
            self.messages.put(Finished(generation, purpose, None, detail))
            return
        self.messages.put(Finished(generation, purpose, last))
