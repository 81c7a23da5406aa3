"""A real engine search leaves other Python threads running (the desktop window stays live).

A ticker thread notes the time every few milliseconds while a search runs in the
test's thread. If the search held the GIL (a compiled kernel without ``nogil``), the
ticker would stop for the whole search: its longest gap would be about the search's
length. The bound below is relative to the search's own length, not a duration.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from itertools import pairwise
from types import TracebackType

from abgames.ai.connect4.perfect import PerfectPlayer
from abgames.ai.connect4.solver import Position, Solver
from abgames.ai.levels import make_player
from abgames.games.connect4 import ConnectFour
from abgames.games.gomoku import Gomoku

#: Not in the book and about 5 million nodes to analyze (well over a second here).
LONG_CONNECT4 = "23156612526"
#: The perfect player's weak rule decides LONG_CONNECT4 in about 1 M nodes; this
#: earlier position takes it about 5 M.
LONG_PERFECT = "2315661252"
TICK_SECONDS = 0.002
#: A starved ticker's longest gap is the whole search; a live one's is a few ticks.
LARGEST_GAP_FRACTION = 0.25


class Ticker:
    """A thread that notes the time every ``TICK_SECONDS``; ``longest_gap`` between notes."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._done.is_set():
            self.times.append(time.perf_counter())
            time.sleep(TICK_SECONDS)

    def __enter__(self) -> Ticker:
        self._thread.start()
        while not self.times:
            time.sleep(TICK_SECONDS)
        self.start = time.perf_counter()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.elapsed = time.perf_counter() - self.start
        self._done.set()
        self._thread.join()

    @property
    def longest_gap(self) -> float:
        inside = [t for t in self.times if t >= self.start - TICK_SECONDS]
        return max(b - a for a, b in pairwise(inside))


def test_the_solver_releases_the_gil_within_one_compiled_call() -> None:
    solver = Solver(20)
    solver.chunk_nodes = 1 << 40  # one call into the kernel, no chunks
    solver.analyze(Position.parse("2252576253462244111563365343671351"))  # compile or load
    with Ticker() as ticker:
        solver.analyze(Position.parse(LONG_CONNECT4))
    assert solver.nodes > 1_000_000
    assert ticker.longest_gap < LARGEST_GAP_FRACTION * ticker.elapsed


def test_the_perfect_player_leaves_other_threads_running() -> None:
    player = PerfectPlayer(
        book=None, strategy=None, level_book=None, table_bits=20, node_limit=None
    )
    player.choose(ConnectFour.from_notation("2252576253462244111563365343671351"))  # compile
    with Ticker() as ticker:
        result = player.choose(ConnectFour.from_notation(LONG_PERFECT))
    assert result.solved and result.nodes > 1_000_000
    assert ticker.longest_gap < LARGEST_GAP_FRACTION * ticker.elapsed


def test_the_gomoku_engine_leaves_other_threads_running() -> None:
    player = make_player("gomoku", "hard")
    state = Gomoku.from_notation("h8 h9 i9 g7 j10")
    for _ in player.think_within(state.copy(), 0.2):  # compile or load the kernels
        pass
    with Ticker() as ticker:
        for result in player.think_within(state, 1.5):  # noqa: B007 - keep the last
            pass
    assert result.move is not None and result.nodes > 1000
    assert ticker.longest_gap < LARGEST_GAP_FRACTION * ticker.elapsed


def test_the_first_solve_prepares_the_gil_releasing_kernel() -> None:
    """Compiling it at the first long solve would stall every thread: it comes with the first."""
    script = (
        "from abgames.ai.connect4 import kernel\n"
        "from abgames.ai.connect4.solver import Position, Solver\n"
        "Solver(12).analyze(Position.parse('2252576253462244111563365343671351'))\n"
        "print(len(kernel.analyze.signatures), len(kernel.solve.signatures))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    assert result.stdout.split() == ["1", "0"]  # analyze's twin is ready; solve was not used
