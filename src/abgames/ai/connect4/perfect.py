"""The ``perfect`` Connect Four player: the exact solver plus the opening book.

On the standard 7x6 board every legal column gets its exact score (from the book
when it has the position, else solved), and the player takes the best: it never
turns a win into a draw or loss, nor a draw into a loss; among equal moves it wins
fastest or loses slowest (the score already says so) and then prefers the centre.
The choice is deterministic.

Before the exact scores, in this order (``strategy`` explains the weak rule):

- the strategy book (``strategy_book``), when it has the position: its value and
  move, no search at all;
- a column that wins at once;
- positions with fewer than ``EXACT_FROM`` discs (too early for every column's
  exact score to be cheap): the position's win/draw/loss, then one child after
  another in centre order until one keeps that value (``strategy.decide``). A
  win proved this way has no known distance: it is reported as the slowest win
  possible (the same for a loss), with ``root_scores_exact`` false.

One transposition table (``PERFECT_TABLE_BITS``) serves the whole game, so each
move reuses what the previous ones proved; the player also remembers the value
its last move kept: after a winning move every reply leaves it winning, which
then needs no solve.

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
``depth=0``, the nodes and seconds so far, and ``note`` "solving column N" (just
"solving" while the weak rule solves the position itself). The last result is
the move. ``stop()`` (from any thread) ends the solve at the next chunk;
the player then answers with a quick heuristic search (depth ``STOPPED_DEPTH``).
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace

from abgames.ai.connect4 import heuristic
from abgames.ai.connect4.book import Book, load_default_book
from abgames.ai.connect4.kernel import COLUMN_ORDER, INVALID_MOVE, WIDTH
from abgames.ai.connect4.players import PERFECT_LEVEL
from abgames.ai.connect4.solver import (
    CELLS,
    DEFAULT_TABLE_BITS,
    NodeLimitReached,
    Position,
    SolveProgress,
    Solver,
    canonical_key,
    supports,
)
from abgames.ai.connect4.strategy import WIN, Decision, decide_steps, immediate_win, run
from abgames.ai.connect4.strategy_book import StrategyBook, load_default_strategy
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
#: Fewest discs for which every column gets its exact score (measured: see
#: docs/connect4.md); earlier, one value-keeping column is found by weak solves.
EXACT_FROM = 16
#: The perfect player's table, kept for the whole game: 2**22 entries = 32 MiB, as
#: before (a server holds one per game; past the book, positions are small).
PERFECT_TABLE_BITS = DEFAULT_TABLE_BITS
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
        strategy: StrategyBook | str | None = "default",
        table_bits: int = PERFECT_TABLE_BITS,
        node_limit: int | None = PERFECT_NODE_LIMIT,
        fallback_seconds: float = FALLBACK_SECONDS,
    ) -> None:
        self.level = level
        self.node_limit = node_limit
        self.fallback_seconds = fallback_seconds
        self._book_choice = book
        self._strategy_choice = strategy
        self._strategy: StrategyBook | None = None
        #: Canonical key of the position after this player's last move -> the value it kept.
        self._kept: dict[int, int] = {}
        self._table_bits = table_bits
        self._solver: Solver | None = None
        self._fallback: AlphaBeta | None = None
        self._stopped = False
        self._spent = 0

    @property
    def solver(self) -> Solver:
        """The solver, made (and the book loaded) on first use."""
        if self._solver is None:
            book = load_default_book() if self._book_choice == "default" else self._book_choice
            assert book is None or isinstance(book, Book)
            self._solver = Solver(self._table_bits, book)
            choice = self._strategy_choice
            strategy = load_default_strategy() if choice == "default" else choice
            assert strategy is None or isinstance(strategy, StrategyBook)
            self._strategy = strategy
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
        planned_steps = self._planned_steps(state, position, start)
        try:
            planned = yield from self._planned_progress(planned_steps, position, start)
        except NodeLimitReached:
            yield from self._fallback_search(state, start, self._spent)
            return
        finally:
            planned_steps.close()
        if planned is not None:
            yield planned
            return
        if self._stopped:
            yield from self._fallback_search(state, start, self._spent)
            return
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
        planned = self._planned(state, position, start)
        if planned is not None:
            return planned
        scores = self.solver.analyze(position, node_limit=self.node_limit)
        return self._solved_result(position, scores, self.solver.nodes, start)

    def _solved_result(
        self, position: Position, scores: list[int], nodes: int, start: float
    ) -> SearchResult:
        column = choose_column(scores)
        self._remember(position, column, scores[column])
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

    def _planned(self, state: ConnectFour, position: Position, start: float) -> SearchResult | None:
        """The strategy book's or the weak rule's result; ``None`` where exact scores are due.

        Raises ``NodeLimitReached`` if the weak solves need more than ``node_limit`` nodes.
        """
        return run(self._planned_steps(state, position, start))

    def _planned_steps(
        self, state: ConnectFour, position: Position, start: float
    ) -> Generator[tuple[Position, SolveProgress], None, SearchResult | None]:
        """``_planned`` yielding (position being solved, progress) between solve chunks."""
        self._spent = 0
        if self._strategy is not None:
            entry = self._strategy.get(position)
            if entry is not None:
                value, column = entry
                decision = Decision(column, value, {column: value})
                return self._weak_result(position, decision, 0, start)
        if (
            immediate_win(position) is not None
            or position.moves >= EXACT_FROM
            or self._book_scores_every_child(position)
        ):
            return None

        def value_steps(child: Position) -> Generator[tuple[Position, SolveProgress], None, int]:
            limit = None if self.node_limit is None else max(1, self.node_limit - self._spent)
            steps = self.solver.solve_steps(child, weak=True, node_limit=limit)
            try:
                while True:
                    try:
                        report = next(steps)
                    except StopIteration as done:
                        value: int = done.value
                        return value
                    yield child, report
            finally:
                self._spent += self.solver.nodes

        decision = yield from decide_steps(position, value_steps, self._known_value(state))
        return self._weak_result(position, decision, self._spent, start)

    def _planned_progress(
        self,
        steps: Generator[tuple[Position, SolveProgress], None, SearchResult | None],
        position: Position,
        start: float,
    ) -> Generator[SearchResult, None, SearchResult | None]:
        """A progress result per chunk of the weak solves; ``None`` if stopped or not planned."""
        while True:
            try:
                solving, report = next(steps)
            except StopIteration as done:
                result: SearchResult | None = done.value
                return result
            column = ""
            if solving.moves > position.moves:
                column = f" column {((solving.mask ^ position.mask).bit_length() - 1) // 7 + 1}"
            yield SearchResult(
                move=None,
                score=0,
                depth=0,
                nodes=self._spent + report.nodes,
                elapsed=time.perf_counter() - start,
                complete=False,
                note=f"solving{column}",
            )
            if self._stopped:
                return None

    def _book_scores_every_child(self, position: Position) -> bool:
        """Whether the exact book holds every child (exact scores cost nothing then)."""
        book = self.solver.book
        if book is None or position.moves >= book.max_moves:
            return False
        children = [position.play(c) for c in range(WIDTH) if position.can_play(c)]
        return all(child.is_over or book.get(child.key) is not None for child in children)

    def _known_value(self, state: ConnectFour) -> int | None:
        """The value of ``state`` if this player's last move (just before) kept a win."""
        if not state.moves:
            return None
        parent = Position.parse(state.notation()[:-1])
        return WIN if self._kept.get(canonical_key(parent.key)) == WIN else None

    def _remember(self, position: Position, column: int, score: int) -> None:
        after = position.play(column)
        self._kept = {canonical_key(after.key): (score > 0) - (score < 0)}

    def _weak_result(
        self, position: Position, decision: Decision, nodes: int, start: float
    ) -> SearchResult:
        """A result from weak values: a win or loss counts as the slowest possible."""
        self._remember(position, decision.column, decision.value)
        root_scores: dict[Move, int] = {
            column: to_search_score(value, position.moves)
            for column, value in decision.child_values.items()
        }
        score = root_scores[decision.column]
        return SearchResult(
            move=decision.column,
            score=score,
            depth=plies_to_end(decision.value, position.moves),
            nodes=nodes,
            elapsed=time.perf_counter() - start,
            pv=(decision.column,),
            root_scores=root_scores,
            root_scores_exact=False,
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
