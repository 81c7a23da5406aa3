"""The ``perfect`` Connect Four player: the exact solver plus the opening book.

On the standard 7x6 board every legal column gets its exact score (from the book
when it has the position, else solved), and the player takes the best: it never
turns a win into a draw or loss, nor a draw into a loss; among equal moves it wins
fastest or loses slowest (the score already says so) and then prefers the centre.
The choice is deterministic.

Other board sizes are not supported by the compiled solver: there the player falls
back to the reference ``AlphaBeta`` engine with the heuristic evaluation under a
time limit, which is strong but not perfect. The same fallback answers when a 7x6
position is neither in the book nor solvable within ``node_limit`` nodes -- early
positions outside the book can take hours to solve. A fallback result says so:
``solved`` is false (unless the heuristic search proved the result) and ``note`` is
``NOT_SOLVED`` ("not solved, best heuristic move"); its ``nodes`` and ``elapsed``
count the whole move, the solver's attempt included.

While the solver works, ``think`` yields a progress result about every
``CHUNK_NODES`` nodes (a tenth of a second): ``move=None``, ``complete=False``,
``depth=0``, the nodes and seconds so far, and ``note`` "solving column N". The last
result is the move. ``stop()`` (from any thread) ends the solve at the next chunk;
the player then answers with a quick heuristic search (depth ``STOPPED_DEPTH``).
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace

from abgames.ai.connect4 import heuristic
from abgames.ai.connect4.book import Book, load_default_book
from abgames.ai.connect4.kernel import COLUMN_ORDER, INVALID_MOVE
from abgames.ai.connect4.players import PERFECT_LEVEL
from abgames.ai.connect4.solver import (
    CELLS,
    DEFAULT_TABLE_BITS,
    NodeLimitReached,
    Position,
    SolveProgress,
    Solver,
    supports,
)
from abgames.ai.player import AIPlayer
from abgames.games.base import GameState, Move
from abgames.games.connect4 import ConnectFour
from abgames.search import score as search_score
from abgames.search.alphabeta import AlphaBeta, SearchOptions
from abgames.search.limit import Limit
from abgames.search.result import NOT_SOLVED, SearchResult

#: Seconds the fallback engine (boards other than 7x6) thinks per move.
FALLBACK_SECONDS = 3.0
#: Nodes the solver may spend on one move (about 5 s) before the fallback plays.
PERFECT_NODE_LIMIT = 25_000_000
#: Plies the fallback searches when ``stop()`` cut the solve short (a few milliseconds).
STOPPED_DEPTH = 4
#: ``22``: a win with the winner's k-th disc scores ``22 - k``.
_SCORE_BASE = (CELLS + 2) // 2
_CENTRE_RANK = {column: rank for rank, column in enumerate(COLUMN_ORDER)}


def plies_to_end(score: int, moves: int) -> int:
    """Plies from a position with ``moves`` discs until a game of solver ``score`` ends.

    For a draw the game ends with the board full.
    """
    if score > 0:
        return 2 * (_SCORE_BASE - score - moves // 2) - 1
    if score < 0:
        return 2 * (_SCORE_BASE + score - (moves + 1) // 2)
    return CELLS - moves


def to_search_score(score: int, moves: int) -> int:
    """A solver score (Pons) as an ``abgames.search.score`` (``WIN`` minus plies to the win)."""
    if score == 0:
        return search_score.DRAW
    plies = plies_to_end(score, moves)
    return search_score.WIN - plies if score > 0 else -(search_score.WIN - plies)


def choose_column(scores: Sequence[int]) -> int:
    """The best column: the highest score, then the column nearest the centre."""
    playable = [c for c, s in enumerate(scores) if s != INVALID_MOVE]
    if not playable:
        raise ValueError("no column can be played")
    return max(playable, key=lambda c: (scores[c], -_CENTRE_RANK[c]))


class PerfectPlayer(AIPlayer):
    """Exact play on 7x6 (solver + book); a time-limited heuristic search on other sizes.

    ``book="default"`` loads the shipped book on first use (a damaged or missing book
    gives a warning and the solver carries on without it); ``None`` uses no book.
    """

    def __init__(
        self,
        level: str = PERFECT_LEVEL,
        *,
        book: Book | str | None = "default",
        table_bits: int = DEFAULT_TABLE_BITS,
        node_limit: int | None = PERFECT_NODE_LIMIT,
        fallback_seconds: float = FALLBACK_SECONDS,
    ) -> None:
        self.level = level
        self.node_limit = node_limit
        self.fallback_seconds = fallback_seconds
        self._book_choice = book
        self._table_bits = table_bits
        self._solver: Solver | None = None
        self._fallback: AlphaBeta | None = None
        self._stopped = False

    @property
    def solver(self) -> Solver:
        """The solver, made (and the book loaded) on first use."""
        if self._solver is None:
            book = load_default_book() if self._book_choice == "default" else self._book_choice
            assert book is None or isinstance(book, Book)
            self._solver = Solver(self._table_bits, book)
        return self._solver

    def think(self, state: GameState) -> Iterator[SearchResult]:
        if state.outcome() is not None:
            return
        assert isinstance(state, ConnectFour)
        self._stopped = False
        start = time.perf_counter()
        if not supports(state.width, state.height):
            yield from self._fallback_search(state, start, 0)
            return
        position = Position.from_state(state)
        solver = self.solver
        steps = solver.analyze_steps(position, node_limit=self.node_limit)
        try:
            scores = yield from self._progress(steps, start)
        except NodeLimitReached:
            scores = None
        finally:
            steps.close()
        if scores is None:
            yield from self._fallback_search(state, start, solver.nodes)
            return
        yield self._solved_result(position, scores, solver.nodes, start)

    def _progress(
        self, steps: Generator[SolveProgress, None, list[int]], start: float
    ) -> Generator[SearchResult, None, list[int] | None]:
        """Yield a progress result per chunk of ``steps``; its scores, or ``None`` if stopped."""
        while True:
            try:
                report = next(steps)
            except StopIteration as done:
                scores: list[int] = done.value
                return scores
            column = "" if report.column is None else f" column {report.column + 1}"
            yield SearchResult(
                move=None,
                score=0,
                depth=0,
                nodes=report.nodes,
                elapsed=time.perf_counter() - start,
                complete=False,
                note=f"solving{column}",
            )
            if self._stopped:
                return None

    def solve(self, state: ConnectFour) -> SearchResult:
        """The exact result for ``state``: every column's score and the best column.

        Raises ``NodeLimitReached`` if the solver needs more than ``node_limit`` nodes.
        """
        start = time.perf_counter()
        position = Position.from_state(state)
        scores = self.solver.analyze(position, node_limit=self.node_limit)
        return self._solved_result(position, scores, self.solver.nodes, start)

    def _solved_result(
        self, position: Position, scores: list[int], nodes: int, start: float
    ) -> SearchResult:
        column = choose_column(scores)
        root_scores: dict[Move, int] = {
            c: to_search_score(s, position.moves) for c, s in enumerate(scores) if s != INVALID_MOVE
        }
        return SearchResult(
            move=column,
            score=root_scores[column],
            depth=plies_to_end(scores[column], position.moves),
            nodes=nodes,
            elapsed=time.perf_counter() - start,
            pv=(column,),
            root_scores=root_scores,
            root_scores_exact=True,
            solved=True,
        )

    def _fallback_search(
        self, state: ConnectFour, start: float, solver_nodes: int
    ) -> Iterator[SearchResult]:
        """The heuristic engine's results, counting the whole move and saying it is not solved.

        Each completed depth is passed on; once the engine ends, its last result is
        yielded again with the final totals (the nodes and seconds of the aborted
        last iteration included): that one is the move.
        """
        if self._fallback is None:
            self._fallback = AlphaBeta(heuristic.ConnectFourEvaluation(), SearchOptions())
        engine = self._fallback
        limit = Limit(depth=STOPPED_DEPTH) if self._stopped else Limit(time=self.fallback_seconds)
        last: SearchResult | None = None
        for result in engine.search(state.copy(), limit):
            last = replace(
                result,
                nodes=solver_nodes + result.nodes,
                elapsed=time.perf_counter() - start,
                note="" if result.solved else NOT_SOLVED,
            )
            yield last
        if last is not None:
            yield replace(
                last, nodes=solver_nodes + engine.nodes, elapsed=time.perf_counter() - start
            )

    def stop(self) -> None:
        self._stopped = True
        if self._fallback is not None:
            self._fallback.stop()
