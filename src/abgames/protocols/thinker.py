"""The pbrain engine's thinking: a player's search in a worker thread, answered by a deadline.

``Thinker.choose`` returns a legal move within a wall-clock limit: the best move of
the deepest completed search when the limit comes, or an instant move
(``abgames.protocols.quickmove``) when there is none yet. A search ends as soon as
its result is proven (a forced win or loss), and the move is answered then. The
protocol's state machine (``abgames.protocols.gomocup``) calls it; it knows nothing
of the protocol.

With a ``KernelPreload`` a move waits for the kernels while they load from the
cache (the time is taken from the move's limit, not added to it), and is an
instant move while they compile.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections.abc import Callable

from abgames.ai.player import AIPlayer
from abgames.games.base import Move
from abgames.games.gomoku import Gomoku
from abgames.protocols.preload import KernelPreload
from abgames.protocols.quickmove import quick_move
from abgames.search.result import SearchResult

#: A move limit below this is answered with an instant move instead of a search.
MIN_SEARCH_SECONDS = 0.02
#: The first search of a process builds the engine and calls each kernel once (loading
#: it, or compiling it without a cache); START does it early, in a search this short
#: and only this deep (a move that follows at once waits for it).
WARMUP_SECONDS = 0.05
WARMUP_DEPTH = 1


class NoMoveError(ValueError):
    """The side to move has no legal move: there is nothing to answer."""


class Thinker:
    """Runs a player's search in a worker thread and answers by a wall-clock limit.

    The player may be given as a factory: it is then built in the first job (the
    warm-up), off the main thread, since building and compiling an engine can
    take longer than a manager waits for ``OK``.
    """

    def __init__(
        self,
        player: AIPlayer | Callable[[], AIPlayer],
        report: Callable[[SearchResult, Gomoku], None],
        kernels: KernelPreload | None = None,
    ) -> None:
        self.player: AIPlayer | None = player if isinstance(player, AIPlayer) else None
        self._factory = None if isinstance(player, AIPlayer) else player
        self.report = report
        self.kernels = kernels
        self._idle = threading.Event()
        self._idle.set()

    def warm_up(self, state: Gomoku) -> None:
        """Build the player if need be and run a tiny background search (kernels compile)."""
        if not self._idle.is_set() or state.is_over():
            return
        self._start(
            state, WARMUP_SECONDS, [], threading.Event(), quiet=True, max_depth=WARMUP_DEPTH
        )

    def choose(
        self,
        state: Gomoku,
        limit_seconds: float,
        think_seconds: float,
        *,
        max_depth: int | None = None,
        max_nodes: int | None = None,
    ) -> tuple[Move, SearchResult | None]:
        """A legal move for the side to move, answered within ``limit_seconds``.

        The search gets ``think_seconds``; at ``limit_seconds`` it is stopped and the
        best move of the deepest result is used, or ``quick_move`` if there is none
        (also when an earlier search or the warm-up is still running, and while the
        kernels compile). Waiting for the kernels to load comes out of the search's time.
        """
        deadline = time.perf_counter() + limit_seconds
        fallback = quick_move(state)
        if fallback is None:
            raise NoMoveError("there is no legal move")
        if think_seconds < MIN_SEARCH_SECONDS:
            return fallback, None
        if self.kernels is not None:
            spare = deadline - time.perf_counter() - MIN_SEARCH_SECONDS
            if not self.kernels.wait_unless_compiling(spare):
                return fallback, None
        if not self._idle.wait(max(0.0, deadline - time.perf_counter())):
            return fallback, None  # a stopped search still runs; do not wait for it
        results: list[SearchResult] = []
        abandoned = threading.Event()
        slack = max(0.0, limit_seconds - think_seconds)  # kept when waiting shortened the move
        finished = self._start(
            state,
            min(think_seconds, max(0.0, deadline - time.perf_counter() - slack)),
            results,
            abandoned,
            quiet=False,
            max_depth=max_depth,
            max_nodes=max_nodes,
        )
        if not finished.wait(max(0.0, deadline - time.perf_counter())):
            abandoned.set()
            if self.player is not None:
                self.player.stop()
        legal = set(state.legal_moves())
        for result in reversed(list(results)):
            if result.move is not None and result.move in legal:
                return result.move, result
        return fallback, None

    def _start(
        self,
        state: Gomoku,
        seconds: float,
        results: list[SearchResult],
        abandoned: threading.Event,
        *,
        quiet: bool,
        max_depth: int | None = None,
        max_nodes: int | None = None,
    ) -> threading.Event:
        finished = threading.Event()
        self._idle.clear()
        snapshot = state.copy()

        def work() -> None:
            try:
                if self.player is None and self._factory is not None:
                    self.player = self._factory()
                if self.player is None or abandoned.is_set():
                    return
                search = self.player.think_within(snapshot, seconds)
                try:
                    for result in search:
                        results.append(result)
                        if not quiet:
                            self.report(result, snapshot)
                        if max_depth is not None and result.depth >= max_depth:
                            break
                        if max_nodes is not None and result.nodes >= max_nodes:
                            break
                finally:
                    close = getattr(search, "close", None)
                    if close is not None:
                        close()  # ends the search generator at once
            except Exception:  # the main thread falls back to an instant move
                traceback.print_exc(file=sys.stderr)
            finally:
                finished.set()
                self._idle.set()

        threading.Thread(target=work, name="abgames-think", daemon=True).start()
        return finished
