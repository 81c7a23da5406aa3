"""The pruning experiment: the same position searched by minimax and by alpha-beta
with each enhancement added in turn, so the node counts can be compared.

Node counts are positions visited, the root included (once per iteration with
iterative deepening), the same count for every method and for a trace
(``search.trace``) of the same search.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from abgames.games.base import GameState, Move
from abgames.search.alphabeta import AlphaBeta, SearchOptions
from abgames.search.evaluation import Evaluation
from abgames.search.limit import Limit
from abgames.search.minimax import minimax
from abgames.search.observer import SearchObserver
from abgames.search.result import SearchResult

#: A depth no game here reaches: "search to the end of the game".
UNLIMITED_DEPTH = 1000

#: The methods, by short name (the command line's ``--method``, the web API's ``method``).
METHODS: dict[str, str] = {
    "minimax": "minimax",
    "alphabeta": "alpha-beta",
    "ordering": "alpha-beta + move ordering",
    "tt": "alpha-beta + ordering + transposition table",
    "deepening": "... + iterative deepening",
}

#: The alpha-beta variants, each adding one enhancement to the one before:
#: (short name, options, iterative deepening).
VARIANTS: tuple[tuple[str, SearchOptions, bool], ...] = (
    (
        "alphabeta",
        SearchOptions(
            transposition_table=False,
            move_ordering=False,
            killers=False,
            history=False,
            exact_root=False,
        ),
        False,
    ),
    (
        "ordering",
        SearchOptions(transposition_table=False, exact_root=False),
        False,
    ),
    (
        "tt",
        SearchOptions(exact_root=False),
        False,
    ),
    (
        "deepening",
        SearchOptions(exact_root=False),
        True,
    ),
)


class ExperimentTooBig(Exception):
    """Minimax would take more than the experiment's budget; the message says which."""


class _Budget(SearchObserver):
    """Stops minimax after ``max_nodes`` nodes or ``time_limit`` seconds."""

    def __init__(self, max_nodes: int | None, time_limit: float | None) -> None:
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.time_limit = time_limit
        self.nodes = 0

    def enter(self, state: GameState, alpha: int, beta: int, depth: int) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise ExperimentTooBig(f"minimax would visit more than {self.max_nodes:,} positions")
        if self.deadline is not None and self.nodes % 256 == 0 and time.monotonic() > self.deadline:
            raise ExperimentTooBig(f"minimax would take more than {self.time_limit:g} seconds")


@dataclass(frozen=True)
class ExperimentRow:
    method: str  # in words, from METHODS
    nodes: int
    seconds: float
    value: int
    move: Move | None
    agrees: bool  # same value as minimax, and a move minimax also rates best


def run_pruning_experiment(
    state: GameState,
    evaluation: Evaluation,
    depth: int | None,
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
) -> list[ExperimentRow]:
    """Minimax, then each alpha-beta variant, on ``state`` to ``depth`` plies (None: the end).

    ``state`` is left unchanged. Every row reports whether it agrees with minimax.
    With ``max_nodes`` or ``time_limit``, minimax (the largest search) is watched and
    ``ExperimentTooBig`` raised when it would exceed them; its time then includes
    the watching (a few percent).
    """
    budget = None if max_nodes is None and time_limit is None else _Budget(max_nodes, time_limit)
    start = time.perf_counter()
    # A stopped minimax leaves its state part-way: watched searches run on a copy.
    oracle = minimax(state.copy() if budget else state, depth, evaluation, observer=budget)
    oracle_seconds = time.perf_counter() - start
    best = oracle.best_moves
    oracle_move = min(best, key=list(oracle.scores).index) if best else None
    rows = [
        ExperimentRow(
            METHODS["minimax"], oracle.nodes, oracle_seconds, oracle.value, oracle_move, True
        )
    ]
    plies = depth if depth is not None else UNLIMITED_DEPTH
    for method, options, deepening in VARIANTS:
        engine = AlphaBeta(evaluation, options)
        start = time.perf_counter()
        result = search_variant(engine, state, plies, deepening)
        seconds = time.perf_counter() - start
        agrees = result.score == oracle.value and result.move in best
        nodes = result.nodes + roots_visited(result, deepening)
        rows.append(
            ExperimentRow(METHODS[method], nodes, seconds, result.score, result.move, agrees)
        )
    return rows


def search_variant(
    engine: AlphaBeta, state: GameState, plies: int, deepening: bool
) -> SearchResult:
    """One alpha-beta variant's search of ``state``, as the experiment runs it."""
    if deepening:
        return engine.best(state, Limit(depth=plies))
    return engine.fixed_depth(state, plies)


def roots_visited(result: SearchResult, deepening: bool) -> int:
    """How many times the root was visited: the engine's count leaves it out.

    Iterative deepening runs depths 1, 2, ... up to the last result's depth.
    """
    return result.depth if deepening else 1
