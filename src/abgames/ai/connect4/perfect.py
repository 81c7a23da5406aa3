"""The ``perfect`` Connect Four player: the exact solver plus the opening books.

On the standard 7x6 board the player plays, from any legal position, a move of
the best exact score: it never turns a win into a draw or loss, nor a draw into a
loss; it wins fastest and loses slowest (in a lost position the longest defence
is also the one that gives the opponent the most chances to go wrong). Among
equal moves it prefers the centre where every column is scored, else the column
the solve found first. The choice is deterministic. In this order:

- a column that wins at once (the other columns are not scored);
- from ``EXACT_FROM`` discs on, where the exact book scores every column, or
  before a complete level book's discs (a search of a few plies over its lookups):
  every legal column's exact score (``root_scores_exact``), the best is played;
- where the exact book has the position and the column it recorded as keeping
  its score (the deepest level built): that column, with no search;
- earlier (where seven exact solves are dear): the position's exact score ``s``
  (one solve, or the book's), then a column whose child the book scores ``s``
  (the centre-most), else the column the solve found with that score (if it
  found none, one null-window probe just below ``s`` names one:
  ``Solver.best_column``) and the others in centre order until one scores ``s``
  (one null-window test each; a test that fails proves that column worse, and
  its bound is reported as an upper bound, ``root_scores_exact`` false; a column
  whose child has another parent the books score below ``s`` is proved worse
  with no test). The columns the book scores are reported exactly.

What is known narrows the solve of the position: the strategy book's
win/draw/loss (a draw needs no solve at all), the score of this player's
previous move (the same player's score never drops after a reply, as the score
counts the winner's discs) and the books' scores of the position's parents, in
the exact book or the level book (a parent of score ``s`` has no child below
``-s``): the solve tests the higher of those two bounds first, the score of every
best reply. One transposition table (``PERFECT_TABLE_BITS``) serves the whole
game, so each move reuses what the previous ones proved.

There is no node limit by default: on 7x6 every answer is solved. Early
positions outside the books can take the solver seconds to minutes (see
docs/connect4.md for the measured figures). A ``node_limit`` may be set (the
benchmarks do); past it, and on other board sizes (the compiled solver plays
7x6 only), the player falls back to the reference ``AlphaBeta`` engine with the
heuristic evaluation under a time limit, strong but not perfect. A fallback
result says so: ``solved`` is false (unless the heuristic search proved the
result) and ``note`` is ``NOT_SOLVED`` ("not solved, best heuristic move"); its
``nodes`` and ``elapsed`` count the whole move, the solver's attempt included.

While the solver works, ``think`` yields a progress result about every
``CHUNK_NODES`` nodes (a tenth of a second): ``move=None``, ``complete=False``,
``depth=0``, the nodes and seconds so far, and ``note`` "solving column N" (just
"solving" while the position itself is solved). The last result is the move.
``stop()`` (from any thread) ends the solve at the next chunk; the player then
answers with a quick heuristic search (depth ``STOPPED_DEPTH``), marked not solved.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace
from typing import TypeVar

from abgames.ai.connect4 import heuristic
from abgames.ai.connect4.book import Book, load_default_book
from abgames.ai.connect4.constants import (
    CELLS,
    DEFAULT_TABLE_BITS,
    INVALID_MOVE,
    PERFECT_LEVEL,
    STRIDE,
    WIDTH,
)
from abgames.ai.connect4.kernel import COLUMN_ORDER
from abgames.ai.connect4.level_book import DEFAULT_LEVEL_DISCS, LevelBook, load_default_level
from abgames.ai.connect4.position import Position, canonical_key, known_child_scores
from abgames.ai.connect4.solver import NodeLimitReached, SolveProgress, Solver, supports
from abgames.ai.connect4.strategy import LOSS, WIN, run
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
#: Fewest discs for which every column gets its exact score (measured: see
#: docs/connect4.md); earlier, the position's score and one column that keeps it.
EXACT_FROM = 16
#: The perfect player's table, kept for the whole game: 2**22 entries = 32 MiB, as
#: before (a server holds one per game; past the book, positions are small).
PERFECT_TABLE_BITS = DEFAULT_TABLE_BITS
#: Plies the fallback searches when ``stop()`` cut the solve short (a few milliseconds).
STOPPED_DEPTH = 4
#: ``22``: a win with the winner's k-th disc scores ``22 - k``.
_SCORE_BASE = (CELLS + 2) // 2
_CENTRE_RANK = {column: rank for rank, column in enumerate(COLUMN_ORDER)}
#: What an exact solve yields between chunks: the position being solved, the report.
_Step = tuple[Position, SolveProgress]
_Answer = TypeVar("_Answer")


def _unknown(_key: int) -> int | None:
    """The score lookup without a book: nothing is known."""
    return None


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
    ``level_book`` likewise for the level book (``level_book``), the exact scores of
    every position of one level that the search looks up; the shipped one is loaded
    when the first position with at most its discs comes.
    """

    def __init__(
        self,
        level: str = PERFECT_LEVEL,
        *,
        book: Book | str | None = "default",
        strategy: StrategyBook | str | None = "default",
        level_book: LevelBook | str | None = "default",
        table_bits: int = PERFECT_TABLE_BITS,
        node_limit: int | None = None,
        fallback_seconds: float = FALLBACK_SECONDS,
    ) -> None:
        self.level = level
        self.node_limit = node_limit
        self.fallback_seconds = fallback_seconds
        self._book_choice = book
        self._strategy_choice = strategy
        self._level_choice = level_book
        self._level_tried = False
        #: The level book last asked about and whether it is complete (computed once).
        self._level_complete: tuple[LevelBook, bool] | None = None
        self._strategy: StrategyBook | None = None
        #: Canonical key of the position after this player's last move -> its exact score.
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
            # The shipped level is loaded when a position first needs it (``_attach_level``).
            level = None if self._level_choice == "default" else self._level_choice
            assert level is None or isinstance(level, LevelBook)
            self._solver = Solver(self._table_bits, book, level)
            choice = self._strategy_choice
            strategy = load_default_strategy() if choice == "default" else choice
            assert strategy is None or isinstance(strategy, StrategyBook)
            self._strategy = strategy
        return self._solver

    def _attach_level(self, position: Position) -> None:
        """Give the solver the shipped level book the first time a position with at most
        its discs comes: the searches of later positions never reach the level, and a
        fresh process answering one of them does not load it (some 60 ms)."""
        solver = self.solver
        if (
            self._level_choice == "default"
            and solver.level is None
            and not self._level_tried
            and position.moves <= DEFAULT_LEVEL_DISCS
        ):
            self._level_tried = True
            solver.level = load_default_level()

    def _level_reaches(self, position: Position) -> bool:
        """Whether a complete level book lies beyond ``position``: every column's exact
        score is then a search of a few plies over lookups (about a millisecond)."""
        level = self.solver.level
        if level is None or position.moves >= level.discs:
            return False
        if self._level_complete is None or self._level_complete[0] is not level:
            self._level_complete = (level, level.complete)
        return self._level_complete[1]

    def clear(self) -> None:
        """Forget what earlier moves taught (the table, the last move's score): as new."""
        self.solver.clear()
        self._kept = {}

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
        steps = self._exact_steps(state, position, start)
        try:
            result = yield from self._progress(steps, position, start)
        except NodeLimitReached:
            result = None
        finally:
            steps.close()
        if result is None:
            yield from self._fallback_search(state, start, self._spent)
            return
        yield result

    def solve(self, state: ConnectFour) -> SearchResult:
        """The exact result for ``state``: the best column and its exact score.

        Raises ``NodeLimitReached`` if the solver needs more than ``node_limit`` nodes.
        """
        start = time.perf_counter()
        return run(self._exact_steps(state, Position.from_state(state), start))

    def _progress(
        self, steps: Generator[_Step, None, SearchResult], position: Position, start: float
    ) -> Generator[SearchResult, None, SearchResult | None]:
        """A progress result per chunk of ``steps``; the answer, or ``None`` if stopped."""
        while True:
            try:
                solving, report = next(steps)
            except StopIteration as done:
                result: SearchResult = done.value
                return result
            if report.column is not None:
                column = f" column {report.column + 1}"
            elif solving.moves > position.moves:
                column = (
                    f" column {((solving.mask ^ position.mask).bit_length() - 1) // STRIDE + 1}"
                )
            else:
                column = ""
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

    def _left(self) -> int | None:
        """The nodes the move may still spend (``None``: no limit)."""
        return None if self.node_limit is None else max(1, self.node_limit - self._spent)

    def _solving(
        self, solving: Position, steps: Generator[SolveProgress, None, _Answer]
    ) -> Generator[_Step, None, _Answer]:
        """Pass on the reports of one solve of ``solving``; count its nodes; its answer."""
        try:
            while True:
                try:
                    report = next(steps)
                except StopIteration as done:
                    answer: _Answer = done.value
                    return answer
                yield solving, report
        finally:
            steps.close()
            self._spent += self.solver.nodes

    def _exact_steps(
        self, state: ConnectFour, position: Position, start: float
    ) -> Generator[_Step, None, SearchResult]:
        """The move of the best exact score, yielding (position solved, progress) per chunk.

        Raises ``NodeLimitReached`` past ``node_limit`` nodes.
        """
        self._spent = 0
        solver = self.solver
        wins = [c for c in range(WIDTH) if position.can_play(c) and position.play(c).won]
        if wins:
            score = (CELLS + 1 - position.moves) // 2
            return self._best_result(position, {c: score for c in wins}, True, start)
        book = solver.book
        # From the exact book: no search and no compiled code, a fresh process answers at once.
        known = known_child_scores(position, book.get if book is not None else _unknown)
        if all(column in known for column in range(WIDTH) if position.can_play(column)):
            return self._best_result(position, known, True, start)
        self._attach_level(position)
        reaches = self._level_reaches(position)
        recorded = None if reaches else self._book_move(position, known)
        if recorded is not None:
            return self._best_result(position, recorded, False, start)
        if position.moves >= EXACT_FROM or reaches:
            analyzing = solver.analyze_steps(position, node_limit=self._left())
            scores = yield from self._solving(position, analyzing)
            exact = {c: s for c, s in enumerate(scores) if s != INVALID_MOVE}
            return self._best_result(position, exact, True, start)
        score = yield from self._position_score(state, position)
        keeping = [c for c, s in known.items() if s == score]
        if keeping:
            column = min(keeping, key=_CENTRE_RANK.__getitem__)
            return self._best_result(position, {**known, column: score}, False, start)
        found = solver.best_column  # a column of that score, if the solve met one
        if found is None and score > -((CELLS - position.moves) // 2):
            # The score came without a probe failing high (the book, a bound that held):
            # one that does names a move of that score, without refuting others first.
            probe = solver.solve_steps(position, low=score - 1, high=score, node_limit=self._left())
            yield from self._solving(position, probe)
            found = solver.best_column
        candidates = COLUMN_ORDER if found is None else (found, *COLUMN_ORDER)
        bounds: dict[int, int] = {}
        for column in dict.fromkeys(candidates):
            if not position.can_play(column) or column in known:
                continue
            child = position.play(column)
            floor = self._parents_bound(child)
            if floor is not None and floor > -score:
                # Another parent of the child proves it worse: no test needed.
                bounds[column] = -floor
                continue
            test = solver.solve_steps(child, low=-score, high=1 - score, node_limit=self._left())
            child_score = yield from self._solving(child, test)
            if child_score == -score:
                return self._best_result(position, {**known, **bounds, column: score}, False, start)
            bounds[column] = -child_score  # the child's score is at least child_score
        raise AssertionError(f"no column scores {score}: the solver contradicts itself")

    def _position_score(
        self, state: ConnectFour, position: Position
    ) -> Generator[_Step, None, int]:
        """The exact score of ``position``, narrowed by what the books and the last move tell."""
        low, high = -CELLS, CELLS
        if self._strategy is not None:
            entry = self._strategy.get(position)
            if entry is not None:
                value = entry[0]  # the sign of the score: a win is at least 1, ...
                low = low if value == LOSS else value
                high = high if value == WIN else value
        guess = max(
            (
                bound
                for bound in (self._kept_score(state), self._parents_bound(position))
                if bound is not None
            ),
            default=None,
        )
        if guess is not None and low <= guess < high:
            low = guess  # a lower bound: test whether it is the score
            test = self.solver.solve_steps(
                position, low=guess, high=guess + 1, node_limit=self._left()
            )
            first = yield from self._solving(position, test)
            if first == guess:
                return guess
            low = first
        steps = self.solver.solve_steps(position, low=low, high=high, node_limit=self._left())
        score: int = yield from self._solving(position, steps)
        return score

    def _parents_bound(self, position: Position) -> int | None:
        """The least score ``position`` can have by its parents' exact scores in the
        books (a parent of score ``s`` has no child below ``-s``), or ``None`` if they
        hold none.

        Every position one disc past the level book (or past a complete level of the
        exact book) has this bound, and for a best reply it is the score: one
        null-window test."""
        solver = self.solver
        book_moves = -1 if solver.book is None else solver.book.max_moves
        level_moves = -1 if solver.level is None else solver.level.discs
        if position.moves - 1 > max(book_moves, level_moves):
            return None  # deeper than both books: no parent is held
        scores = (self._known_score(parent) for parent in position.parents())
        return max((-score for score in scores if score is not None), default=None)

    def _known_score(self, position: Position) -> int | None:
        """The exact score of ``position`` in the exact book or the level book, if held."""
        solver = self.solver
        book = solver.book
        if book is not None and position.moves <= book.max_moves:
            score = book.get(position.key)
            if score is not None:
                return score
        level = solver.level
        if level is not None and position.moves == level.discs:
            return level.get(position)
        return None

    def _book_move(self, position: Position, known: dict[int, int]) -> dict[int, int] | None:
        """The position's exact score on the column the exact book records for it (with
        ``known``, the columns whose children the book scores), or ``None`` if it records
        none."""
        book = self.solver.book
        if book is None or position.moves > book.max_moves:
            return None
        score = book.get(position.key)
        column = book.column(position.key)
        if score is None or column is None or not position.can_play(column):
            return None
        return {**known, column: score}

    def _kept_score(self, state: ConnectFour) -> int | None:
        """This player's score before the opponent's last move, if it made that move's parent."""
        if not state.moves:
            return None
        parent = Position.parse(state.notation()[:-1])
        return self._kept.get(canonical_key(parent.key))

    def _best_result(
        self, position: Position, scores: dict[int, int], exact: bool, start: float
    ) -> SearchResult:
        """The result playing the best of ``scores`` (column -> solver score; the best is
        exact, the others exact too if ``exact``, else upper bounds)."""
        column = choose_column([scores.get(c, INVALID_MOVE) for c in range(WIDTH)])
        best = scores[column]
        after = position.play(column)
        self._kept = {canonical_key(after.key): best}
        root_scores: dict[Move, int] = {
            c: to_search_score(s, position.moves) for c, s in scores.items()
        }
        return SearchResult(
            move=column,
            score=root_scores[column],
            depth=plies_to_end(best, position.moves),
            nodes=self._spent,
            elapsed=time.perf_counter() - start,
            pv=(column,),
            root_scores=root_scores,
            root_scores_exact=exact,
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
