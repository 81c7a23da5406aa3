"""The exact Connect Four solver (7x6): positions, the transposition table, solve and analyze.

``Solver`` owns a fixed-size transposition table (``2**table_bits`` entries of 8
bytes; that is its whole memory) and an optional opening book, and calls one
compiled entry point of ``abgames.ai.connect4.kernel`` per position. Scores follow
the convention of ``../shared/data/README.md``: from the side to move's view, a
win with the winner's ``k``-th disc scores ``22 - k``, a loss the negative, a draw 0.

A long solve runs in chunks of ``CHUNK_NODES`` nodes (about a tenth of a second):
the compiled search releases the GIL while it runs, and between chunks the solver
reports progress, lets Ctrl-C through (``KeyboardInterrupt`` in the calling thread)
and honours ``stop()`` from another thread. Chunks cost nothing: the kernel pauses
and resumes exactly where it was. The first chunk is short (``GIL_HELD_NODES``,
about a millisecond) and keeps the GIL: most solves end within it, and releasing
the GIL would cost more than they do.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from abgames.ai.connect4 import kernel
from abgames.ai.connect4.constants import (
    DEFAULT_TABLE_BITS,
    MAX_TABLE_BITS,
    MIN_TABLE_BITS,
    TABLE_ENTRY_BYTES,
    check_table_bits,
)
from abgames.ai.connect4.position import Position, canonical_key
from abgames.games.connect4 import DEFAULT_HEIGHT, DEFAULT_WIDTH

if TYPE_CHECKING:
    from abgames.ai.connect4.book import Book
    from abgames.ai.connect4.level_book import LevelBook

WIDTH = kernel.WIDTH
HEIGHT = kernel.HEIGHT
CELLS = kernel.CELLS
INVALID_MOVE = kernel.INVALID_MOVE
#: Nodes between two looks from Python at a running solve (progress, Ctrl-C, ``stop()``).
CHUNK_NODES = 1 << 20
#: Nodes of a solve's first chunk, run without releasing the GIL (about a millisecond):
#: most solves end within it, and releasing the GIL would cost more than they do.
GIL_HELD_NODES = 10_000
_NO_BOOK_KEYS = np.zeros(0, np.int64)
_NO_BOOK_SCORES = np.zeros(0, np.int8)
_NO_LEVEL_SCORES = np.zeros(0, np.int8)
_NO_LEVEL_INDEX = np.zeros(0, np.int32)
#: ``level_moves`` when there is no level book: no node has that many discs.
_NO_LEVEL_MOVES = -1

__all__ = [
    "CHUNK_NODES",
    "DEFAULT_TABLE_BITS",
    "MAX_TABLE_BITS",
    "MIN_TABLE_BITS",
    "TABLE_ENTRY_BYTES",
    "NodeLimitReached",
    "Position",
    "ProgressCallback",
    "SolveProgress",
    "SolveStopped",
    "Solver",
    "canonical_key",
    "supports",
]


def supports(width: int, height: int) -> bool:
    """Whether the compiled solver handles a board of this size (7x6 only)."""
    return (width, height) == (DEFAULT_WIDTH, DEFAULT_HEIGHT)


class NodeLimitReached(Exception):
    """A solve stopped at its node limit before the score was known."""


class SolveStopped(Exception):
    """A solve ended by ``Solver.stop()`` before the score was known."""


@dataclass(frozen=True)
class SolveProgress:
    """How far a running solve has got: reported between chunks.

    ``column`` is the column (0-based) ``analyze`` is solving, ``None`` for ``solve``.
    """

    nodes: int
    elapsed: float
    column: int | None = None


ProgressCallback = Callable[[SolveProgress], None]


#: A kernel entry point: ``kernel.solve`` or ``kernel.analyze`` (or its GIL-holding twin).
KernelEntry = Callable[..., Any]
#: The GIL-releasing entry points compiled (or loaded from the cache) in this process.
_READY_TWINS: set[KernelEntry] = set()


def _prepare_twin(holding_gil: Any, releasing_gil: Any) -> None:
    """Compile (or load) ``releasing_gil`` now, for the argument types ``holding_gil`` met.

    Left to its first use -- the first solve longer than a chunk -- compiling would
    stall every thread for a second or more; this way it happens with the first
    solve (or ``abgames warmup``).
    """
    for signature in holding_gil.signatures:
        releasing_gil.compile(signature)
    _READY_TWINS.add(releasing_gil)


class Solver:
    """Exact scores of 7x6 positions, strong (exact) or weak (-1 / 0 / 1).

    ``book`` (an opening book) and ``level`` (a level book) are looked up by the
    search at the nodes they cover; either may be left out, and ``level`` may be
    set between calls.

    The table holds ``2**table_bits`` entries of ``TABLE_ENTRY_BYTES`` and never
    grows. Results stay in it between calls (they remain valid); ``clear()`` empties
    it in constant time. ``nodes`` and ``elapsed`` describe the last call.

    One call at a time per solver. ``stop()`` may be called from any thread: the
    running call ends within a chunk by raising ``SolveStopped``.
    """

    def __init__(
        self,
        table_bits: int = DEFAULT_TABLE_BITS,
        book: Book | None = None,
        level: LevelBook | None = None,
    ) -> None:
        check_table_bits(table_bits)
        self.table_bits = table_bits
        self.level = level
        self.table = np.empty(1 << table_bits, np.int64)
        # Writing every entry now maps every page now: left to first use, the page
        # faults would cost more than the search itself on small positions.
        self.table.fill(0)
        self._generation = 1
        self.book = book
        self.nodes = 0
        self.elapsed = 0.0
        #: Nodes per chunk of a long solve (see the module docstring).
        self.chunk_nodes = CHUNK_NODES
        self._counters = np.zeros(kernel.COUNTER_SLOTS, np.int64)
        self._stack = np.zeros((kernel.MAX_FRAMES, kernel.STACK_COLUMNS), np.int64)
        self._stop_requested = False

    @property
    def best_column(self) -> int | None:
        """After ``solve``: a column (0-based) of the score found, if the search met one.

        ``None`` when the score came without trying the root's moves (the table, the
        book, a window that held only it, an immediate win). Meaningless after
        ``analyze``.
        """
        move = int(self._counters[kernel.BEST_MOVE])
        return (move.bit_length() - 1) // kernel.STRIDE if move else None

    @property
    def table_bytes(self) -> int:
        """Memory held by the transposition table (its fixed bound)."""
        return int(self.table.nbytes)

    def clear(self) -> None:
        """Forget every table entry (a new generation; the array is zeroed on wrap-around)."""
        self._generation += 1
        if self._generation > kernel.MAX_GENERATION:
            self.table[:] = 0
            self._generation = 1

    def stop(self) -> None:
        """Make the running ``solve`` or ``analyze`` (in another thread) raise ``SolveStopped``."""
        self._stop_requested = True

    def _book_arrays(self) -> tuple[np.ndarray, np.ndarray, int]:
        if self.book is None:
            return _NO_BOOK_KEYS, _NO_BOOK_SCORES, -1
        return self.book.keys, self.book.scores, self.book.max_moves

    @staticmethod
    def _limit(node_limit: int | None) -> int:
        """The kernel's form of a node limit: 0 for none."""
        if node_limit is None:
            return 0
        if node_limit < 1:
            raise ValueError(f"node_limit must be positive, not {node_limit}")
        return node_limit

    def _pause_mark(self, limit: int) -> None:
        """Where the next chunk pauses: ``chunk_nodes`` further on, or at the node limit."""
        pause_at = int(self._counters[kernel.NODES]) + max(2, self.chunk_nodes)
        self._counters[kernel.PAUSE_AT] = min(pause_at, limit) if limit else pause_at

    def _paused(self, limit: int, start: float, analyzing: bool) -> SolveProgress:
        """The report of a paused solve; ``NodeLimitReached`` or ``SolveStopped`` if it must end."""
        counters = self._counters
        nodes = int(counters[kernel.NODES])
        if limit and nodes >= limit:
            raise NodeLimitReached(f"no answer within {nodes} nodes")
        if self._stop_requested:
            raise SolveStopped(f"stopped after {nodes} nodes")
        column = int(counters[kernel.COLUMN]) if analyzing else None
        return SolveProgress(nodes, time.perf_counter() - start, column)

    def _begin(self, node_limit: int | None) -> tuple[int, float]:
        """Set up a new call (the kernel counts nodes from 0); its node limit and start time.

        Kept lean, as ``_run``: the smallest solves take a couple of microseconds.
        """
        limit = 0 if node_limit is None else self._limit(node_limit)
        self._stop_requested = False
        chunk = self.chunk_nodes
        first = GIL_HELD_NODES if chunk >= GIL_HELD_NODES else max(2, chunk)
        self._counters[kernel.PAUSE_AT] = min(first, limit) if limit else first
        self._counters[kernel.BEST_MOVE] = 0
        return limit, time.perf_counter()

    def _run(
        self,
        entry: tuple[KernelEntry, KernelEntry, tuple[Any, ...], bool],
        node_limit: int | None,
        progress: ProgressCallback | None,
    ) -> Any:
        """Run a kernel entry point chunk by chunk until it answers; its return value.

        ``entry`` is ``(holding_gil, releasing_gil, arguments, analyzing)``: the entry
        point for the first chunk and for the rest (see ``kernel``), its arguments up
        to ``resume``, and whether progress reports name a column. ``progress`` gets
        a report between chunks. Raises ``NodeLimitReached`` or ``SolveStopped``
        (the table keeps what was learnt, so a retry starts ahead). ``_steps`` is
        the same loop as a generator; this plain one keeps small solves, thousands
        a second, free of the generator's cost.
        """
        holding_gil, releasing_gil, arguments, analyzing = entry
        limit, start = self._begin(node_limit)
        counters = self._counters
        try:
            result = holding_gil(*arguments, False)
            if releasing_gil not in _READY_TWINS:
                _prepare_twin(holding_gil, releasing_gil)
            while counters[kernel.PAUSED]:
                report = self._paused(limit, start, analyzing)
                if progress is not None:
                    progress(report)
                self._pause_mark(limit)
                result = releasing_gil(*arguments, True)
            return result
        finally:
            self.nodes = int(counters[kernel.NODES])
            self.elapsed = time.perf_counter() - start

    def _steps(
        self, entry: tuple[KernelEntry, KernelEntry, tuple[Any, ...], bool], node_limit: int | None
    ) -> Generator[SolveProgress, None, Any]:
        """``_run`` as a generator: yields each report between chunks, returns the answer."""
        holding_gil, releasing_gil, arguments, analyzing = entry
        limit, start = self._begin(node_limit)
        counters = self._counters
        try:
            result = holding_gil(*arguments, False)
            if releasing_gil not in _READY_TWINS:
                _prepare_twin(holding_gil, releasing_gil)
            while counters[kernel.PAUSED]:
                yield self._paused(limit, start, analyzing)
                self._pause_mark(limit)
                result = releasing_gil(*arguments, True)
            return result
        finally:
            self.nodes = int(counters[kernel.NODES])
            self.elapsed = time.perf_counter() - start

    def _level_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        level = self.level
        if level is None:
            return _NO_LEVEL_SCORES, _NO_LEVEL_INDEX, _NO_LEVEL_INDEX, _NO_LEVEL_MOVES
        return level.scores, level.index.bases, level.index.ranks, level.discs

    def _arguments(self, position: Position, weak: bool, *window: int) -> tuple[Any, ...]:
        """The arguments of ``kernel.solve`` (with the ``window``) or ``kernel.analyze``
        (without), up to ``resume``."""
        keys, scores, book_moves = self._book_arrays()
        return (
            position.current,
            position.mask,
            position.moves,
            weak,
            *window,
            self.table,
            64 - self.table_bits,
            self._generation,
            keys,
            scores,
            book_moves,
            *self._level_arrays(),
            self._counters,
            self._stack,
        )

    def _solve_entry(
        self, position: Position, weak: bool, low: int | None, high: int | None
    ) -> tuple[KernelEntry, KernelEntry, tuple[Any, ...], bool]:
        window_low = -CELLS if low is None else low
        window_high = CELLS if high is None else high
        if window_low > window_high:
            raise ValueError(f"an empty window: low {low} > high {high}")
        arguments = self._arguments(position, weak, window_low, window_high)
        return kernel.solve_holding_gil, kernel.solve, arguments, False

    def _analyze_entry(
        self, position: Position, weak: bool, out: np.ndarray
    ) -> tuple[KernelEntry, KernelEntry, tuple[Any, ...], bool]:
        arguments = (*self._arguments(position, weak), out)
        return kernel.analyze_holding_gil, kernel.analyze, arguments, True

    def _finished(self, node_limit: int | None) -> None:
        """Counters for a call on a finished game: no search at all."""
        self._limit(node_limit)
        self._counters[kernel.BEST_MOVE] = 0
        self.nodes = 0
        self.elapsed = 0.0

    @staticmethod
    def _finished_score(position: Position, weak: bool) -> int:
        score = position.finished_score()
        return (score > 0) - (score < 0) if weak else score

    def solve(
        self,
        position: Position,
        *,
        weak: bool = False,
        low: int | None = None,
        high: int | None = None,
        node_limit: int | None = None,
        progress: ProgressCallback | None = None,
    ) -> int:
        """The score of ``position`` for the side to move (exact, or its sign if ``weak``).

        ``low`` and ``high`` (either may be left out) narrow the search to scores
        in ``[low, high]``, which saves work when the score is known to lie there.
        The answer is the score if it lies in the window; if below, ``low``; if
        above, a lower bound of the score that is at least ``high``. So with
        ``high = low + 1`` the call is one test: the result is ``low`` exactly when
        the score is at most ``low``. A finished game gives its score, unclamped.

        ``progress`` is called between chunks (every ``chunk_nodes`` nodes) in the
        calling thread. Raises ``NodeLimitReached`` if ``node_limit`` nodes do not
        suffice and ``SolveStopped`` after ``stop()`` (the table keeps what was
        learnt, so a retry starts ahead); ``ValueError`` if ``low > high``.
        """
        entry = self._solve_entry(position, weak, low, high)
        if position.is_over:
            self._finished(node_limit)
            return self._finished_score(position, weak)
        return int(self._run(entry, node_limit, progress))

    def solve_steps(
        self,
        position: Position,
        *,
        weak: bool = False,
        low: int | None = None,
        high: int | None = None,
        node_limit: int | None = None,
    ) -> Generator[SolveProgress, None, int]:
        """``solve`` as a generator: a ``SolveProgress`` between chunks, the score at the end."""
        entry = self._solve_entry(position, weak, low, high)
        if position.is_over:
            self._finished(node_limit)
            return self._finished_score(position, weak)
        return int((yield from self._steps(entry, node_limit)))

    def analyze_steps(
        self, position: Position, *, weak: bool = False, node_limit: int | None = None
    ) -> Generator[SolveProgress, None, list[int]]:
        """``analyze`` as a generator: a ``SolveProgress`` between chunks, the scores at the end."""
        out = np.full(WIDTH, INVALID_MOVE, np.int64)
        if position.is_over:
            self._finished(node_limit)
        else:
            yield from self._steps(self._analyze_entry(position, weak, out), node_limit)
        return [int(score) for score in out]

    def analyze(
        self,
        position: Position,
        *,
        weak: bool = False,
        node_limit: int | None = None,
        progress: ProgressCallback | None = None,
    ) -> list[int]:
        """The score of playing each column (``INVALID_MOVE`` where it cannot be played).

        ``progress``, ``NodeLimitReached`` and ``SolveStopped`` as for ``solve``;
        ``SolveProgress.column`` tells which column is being solved.
        """
        out = np.full(WIDTH, INVALID_MOVE, np.int64)
        if position.is_over:
            self._finished(node_limit)
        else:
            self._run(self._analyze_entry(position, weak, out), node_limit, progress)
        return [int(score) for score in out]
