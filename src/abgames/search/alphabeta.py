"""Negamax alpha-beta with iterative deepening, a transposition table and move ordering.

The engine is game-independent: rules come from the ``GameState`` and knowledge
from an ``Evaluation``. ``search()`` is a generator yielding one ``SearchResult``
per completed depth, so a front-end can show progress and a time manager can keep
the last complete answer. It stops at the ``Limit``, when the root is solved (no
leaf reached the depth horizon), or when ``stop()`` is called from any thread.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

from abgames.games.base import GameState, Move
from abgames.search import score as scores
from abgames.search.evaluation import Evaluation
from abgames.search.limit import Limit
from abgames.search.observer import SearchObserver
from abgames.search.result import SearchResult
from abgames.search.score import DRAW, INFINITY, WIN
from abgames.search.tt import DEFAULT_ENTRIES, Bound, Entry, TranspositionTable

#: How many nodes pass between two looks at the clock and the stop flag.
CLOCK_CHECK_INTERVAL = 256
#: Once this share of the time budget is used, a new iteration is not started:
#: the next depth costs several times the last one and would not finish.
NEW_ITERATION_TIME_SHARE = 0.4
MAX_KILLERS = 2


@dataclass(frozen=True)
class SearchOptions:
    """Switches for each enhancement, so their effect can be measured one by one.

    ``exact_root`` searches every root move with a full window, so that every root
    score is exact (the material of "why this move"); otherwise non-best root
    moves only get upper bounds, which is cheaper. ``seed`` makes the engine choose
    at random (reproducibly) among root moves of equal exact score.
    """

    transposition_table: bool = True
    move_ordering: bool = True
    killers: bool = True
    history: bool = True
    exact_root: bool = True
    seed: int | None = None
    tt_entries: int = DEFAULT_ENTRIES


class _Aborted(Exception):
    """Raised inside the tree when a limit is reached or a stop was asked for."""


class AlphaBeta:
    """A reusable engine: one ``Evaluation`` and ``SearchOptions``, many searches.

    The transposition table persists between searches of one engine (scores in it
    are node-relative, so they stay valid); ``clear()`` empties it. ``observer``,
    if given, is told every node searched (``search.observer``); ``None`` costs
    one test per event.
    """

    def __init__(
        self,
        evaluation: Evaluation | None = None,
        options: SearchOptions | None = None,
        *,
        observer: SearchObserver | None = None,
    ) -> None:
        self.evaluation = evaluation or Evaluation()
        self.options = options or SearchOptions()
        self.observer = observer
        self.table = TranspositionTable(self.options.tt_entries)
        self._rng = random.Random(self.options.seed)
        self._stop = threading.Event()
        self._start = 0.0
        self._deadline: float | None = None
        self._node_limit: int | None = None
        self._partial: dict[Move, int] = {}
        self._reset_counters()

    # --- public ----------------------------------------------------------------
    def stop(self) -> None:
        """Ask a running search (in any thread) to stop; it ends with its best answer."""
        self._stop.set()

    def clear(self) -> None:
        self.table.clear()

    def best(self, state: GameState, limit: Limit) -> SearchResult:
        """The last result of ``search`` (the deepest complete iteration)."""
        last: SearchResult | None = None
        for last in self.search(state, limit):  # noqa: B007 - keep the final result
            pass
        assert last is not None
        return last

    def fixed_depth(self, state: GameState, depth: int) -> SearchResult:
        """One search to exactly ``depth`` plies, without iterative deepening.

        Counters start from zero; the transposition table is used as it stands
        (``clear()`` first for a cold measurement).
        """
        if state.outcome() is not None:
            raise ValueError("the game is over: there is nothing to search")
        self._stop.clear()
        self._reset_counters()
        self._start = time.perf_counter()
        self._deadline = None
        self._node_limit = None
        return self._search_root(state, depth, self._root_order(state))

    def search(self, state: GameState, limit: Limit) -> Iterator[SearchResult]:
        """Yield a result per completed depth; ``state`` is left as it was given.

        A finished game yields nothing. Otherwise at least one result is yielded,
        even if the limit is reached before depth 1 completes (``complete=False``).
        """
        self._stop.clear()
        if state.outcome() is not None:
            return
        self._reset_counters()
        self._start = time.perf_counter()
        self._deadline = None if limit.time is None else self._start + limit.time
        self._node_limit = limit.nodes
        max_depth = limit.depth if limit.depth is not None else scores.MAX_PLY - 1
        root_moves = self._root_order(state)
        self._partial = {}
        last: SearchResult | None = None
        for depth in range(1, max_depth + 1):
            try:
                result = self._search_root(state, depth, root_moves)
            except _Aborted:
                self._restore(state)
                break
            last = result
            yield result
            root_moves = sorted(root_moves, key=lambda m: -result.root_scores.get(m, -INFINITY))
            if result.solved or (scores.is_decisive(result.score) and result.root_scores_exact):
                return
            if scores.is_decisive(result.score) and result.score > 0:
                return  # the shortest win is found first by iterative deepening
            if self._deadline is not None:
                used = time.perf_counter() - self._start
                if used > NEW_ITERATION_TIME_SHARE * (self._deadline - self._start):
                    return
        if last is None:
            yield self._partial_result(state, root_moves)

    # --- internals -------------------------------------------------------------
    def _reset_counters(self) -> None:
        self.nodes = 0
        self.cutoffs = 0
        self.tt_hits = 0
        self._horizon_leaves = 0
        self._killers: dict[int, list[Move]] = {}
        self._history: dict[tuple[int, Move], int] = {}
        self._pv: dict[int, list[Move]] = {}
        self._root_ply = 0

    def _restore(self, state: GameState) -> None:
        while state.ply > self._root_ply:
            state.undo()

    def _root_order(self, state: GameState) -> list[Move]:
        moves = self.evaluation.candidates(state)
        if self.options.move_ordering:
            moves = self.evaluation.order(state, moves)
        return moves

    def _check_limits(self) -> None:
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _Aborted
        if self.nodes % CLOCK_CHECK_INTERVAL == 0:
            if self._stop.is_set():
                raise _Aborted
            if self._deadline is not None and time.perf_counter() >= self._deadline:
                raise _Aborted

    def _search_root(self, state: GameState, depth: int, moves: list[Move]) -> SearchResult:
        self._root_ply = state.ply
        observer = self.observer
        if observer is not None:
            observer.enter(state, -INFINITY, INFINITY, depth)
        horizon_before = self._horizon_leaves
        alpha = -INFINITY
        best_move = moves[0]
        best_pv: list[Move] = [best_move]
        root_scores: dict[Move, int] = {}
        heuristic: set[Move] = set()
        self._partial = {}
        for move in moves:
            horizon_before_move = self._horizon_leaves
            state.play(move)
            if self.options.exact_root:
                score = -self._negamax(state, depth - 1, -INFINITY, INFINITY, 1)
            else:
                score = -self._negamax(state, depth - 1, -INFINITY, -alpha, 1)
            state.undo()
            root_scores[move] = score
            if self._horizon_leaves != horizon_before_move and not scores.is_decisive(score):
                heuristic.add(move)
            self._partial[move] = score
            if score > alpha:
                alpha = score
                best_move = move
                best_pv = [move, *self._pv.get(1, [])]
                if observer is not None:
                    observer.root_best(move, score)
        if self.options.seed is not None:
            equals = [m for m in moves if root_scores[m] == alpha]
            if not self.options.exact_root:  # a tie may be an upper bound: check it
                equals = [
                    m for m in equals if m == best_move or self._scores(state, m, depth, alpha)
                ]
            best_move = self._rng.choice(equals)
            if best_move != best_pv[0]:
                best_pv = [best_move]
        if observer is not None:
            observer.exit(alpha)
        # Exact to the end of the game: no leaf met the horizon, or a win/loss is proven.
        solved = self._horizon_leaves == horizon_before or scores.is_decisive(alpha)
        if self.options.transposition_table:
            self.table.store(
                state.key,
                Entry(depth, alpha, Bound.EXACT, best_move, self._horizon_leaves != horizon_before),
            )
            best_pv = self._extend_from_table(state, best_pv, depth)
        return SearchResult(
            move=best_move,
            score=alpha,
            depth=depth,
            nodes=self.nodes,
            elapsed=time.perf_counter() - self._start,
            pv=tuple(best_pv),
            root_scores=root_scores,
            root_scores_exact=self.options.exact_root,
            heuristic_moves=frozenset(heuristic),
            cutoffs=self.cutoffs,
            tt_hits=self.tt_hits,
            solved=solved,
        )

    def _scores(self, state: GameState, move: Move, depth: int, score: int) -> bool:
        """Whether root ``move`` scores exactly ``score`` (a narrow-window search)."""
        state.play(move)
        found = -self._negamax(state, depth - 1, -(score + 1), -(score - 1), 1)
        state.undo()  # (an abort unwinds through ``search``, which restores the state)
        return found == score

    def _extend_from_table(self, state: GameState, pv: list[Move], depth: int) -> list[Move]:
        """``pv`` lengthened with the table's best moves where cut-offs left it short."""
        line = list(pv)
        played = 0
        try:
            for move in line:
                state.play(move)
                played += 1
            while len(line) < depth and state.outcome() is None:
                entry = self.table.get(state.key)
                if entry is None or entry.move is None or state.why_illegal(entry.move):
                    break
                state.play(entry.move)
                played += 1
                line.append(entry.move)
        finally:
            for _ in range(played):
                state.undo()
        return line

    def _partial_result(self, state: GameState, moves: list[Move]) -> SearchResult:
        if self._partial:
            move = max(self._partial, key=lambda m: self._partial[m])
            score = self._partial[move]
        else:
            move, score = moves[0], 0
        return SearchResult(
            move=move,
            score=score,
            depth=0,
            nodes=self.nodes,
            elapsed=time.perf_counter() - self._start,
            pv=(move,),
            root_scores=dict(self._partial),
            complete=False,
        )

    def _negamax(self, state: GameState, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score of ``state`` for the side to move, searched ``depth`` plies deep.

        Fail-hard contract: a result ``<= alpha`` is an upper bound, ``>= beta`` a
        lower bound, anything between is exact.
        """
        self.nodes += 1
        self._check_limits()
        observer = self.observer
        if observer is not None:
            observer.enter(state, alpha, beta, depth)
        self._pv[ply] = []
        outcome = state.outcome()
        if outcome is not None:
            value = DRAW if outcome.winner is None else -(WIN - ply)
            if observer is not None:
                observer.leaf(value, True)
            return value
        if depth <= 0:
            self._horizon_leaves += 1
            value = self.evaluation.evaluate(state)
            if observer is not None:
                observer.leaf(value, False)
            return value

        options = self.options
        alpha_original = alpha
        tt_move: Move | None = None
        if options.transposition_table:
            entry = self.table.get(state.key)
            if entry is not None:
                tt_move = entry.move
                # A deeper entry would change the value of a depth-limited search; it is
                # used only when its subtree reached no horizon (its value is exact).
                if entry.depth == depth or (entry.depth > depth and not entry.horizon):
                    stored = scores.to_root_relative(entry.score, ply)
                    usable = (
                        entry.bound == Bound.EXACT
                        or (entry.bound == Bound.LOWER and stored >= beta)
                        or (entry.bound == Bound.UPPER and stored <= alpha)
                    )
                    if usable:
                        self.tt_hits += 1
                        if entry.horizon:
                            self._horizon_leaves += 1
                        if observer is not None:
                            observer.tt_hit(stored, entry.bound)
                        return stored

        horizon_before = self._horizon_leaves
        best_score = -INFINITY
        best_move: Move | None = None
        moves = self._ordered_moves(state, ply, tt_move)
        for move in moves:
            state.play(move)
            score = -self._negamax(state, depth - 1, -beta, -alpha, ply + 1)
            state.undo()
            if score > best_score:
                best_score = score
                best_move = move
                if score > alpha:
                    alpha = score
                    self._pv[ply] = [move, *self._pv.get(ply + 1, [])]
                    if alpha >= beta:
                        self.cutoffs += 1
                        self._reward(state, move, ply, depth)
                        if observer is not None:
                            observer.cutoff(move, moves[moves.index(move) + 1 :])
                        break

        if options.transposition_table:
            if best_score <= alpha_original:
                bound = Bound.UPPER
            elif best_score >= beta:
                bound = Bound.LOWER
            else:
                bound = Bound.EXACT
            horizon = self._horizon_leaves != horizon_before
            stored = scores.to_node_relative(best_score, ply)
            self.table.store(state.key, Entry(depth, stored, bound, best_move, horizon))
        if observer is not None:
            observer.exit(best_score)
        return best_score

    def _ordered_moves(self, state: GameState, ply: int, tt_move: Move | None) -> list[Move]:
        moves = self.evaluation.candidates(state)
        options = self.options
        if not options.move_ordering:
            return moves
        moves = self.evaluation.order(state, moves)
        if options.history and self._history:
            player = state.to_move
            history = self._history
            moves.sort(key=lambda m: -history.get((player, m), 0))
        front: list[Move] = []
        if tt_move is not None and tt_move in moves:
            front.append(tt_move)
        if options.killers:
            front.extend(k for k in self._killers.get(ply, ()) if k in moves and k not in front)
        if front:
            moves = front + [m for m in moves if m not in front]
        return moves

    def _reward(self, state: GameState, move: Move, ply: int, depth: int) -> None:
        """Remember a move that caused a cut-off (killer and history heuristics)."""
        if not self.options.move_ordering:
            return
        if self.options.killers:
            killers = self._killers.setdefault(ply, [])
            if move not in killers:
                killers.insert(0, move)
                del killers[MAX_KILLERS:]
        if self.options.history:
            key = (state.to_move, move)
            self._history[key] = self._history.get(key, 0) + depth * depth


def with_options(engine: AlphaBeta, **changes: object) -> AlphaBeta:
    """A new engine with the same evaluation and some options changed."""
    return AlphaBeta(engine.evaluation, replace(engine.options, **changes))  # type: ignore[arg-type]
