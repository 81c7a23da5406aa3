"""The pruning experiment: the same position searched by minimax and by alpha-beta
with each enhancement added in turn, so the node counts can be compared.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from abgames.games.base import GameState, Move
from abgames.search.alphabeta import AlphaBeta, SearchOptions
from abgames.search.evaluation import Evaluation
from abgames.search.limit import Limit
from abgames.search.minimax import minimax

#: A depth no game here reaches: "search to the end of the game".
UNLIMITED_DEPTH = 1000

#: The alpha-beta variants, each adding one enhancement to the one before.
VARIANTS: tuple[tuple[str, SearchOptions, bool], ...] = (
    (
        "alpha-beta",
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
        "alpha-beta + move ordering",
        SearchOptions(transposition_table=False, exact_root=False),
        False,
    ),
    (
        "alpha-beta + ordering + transposition table",
        SearchOptions(exact_root=False),
        False,
    ),
    (
        "... + iterative deepening",
        SearchOptions(exact_root=False),
        True,
    ),
)


@dataclass(frozen=True)
class ExperimentRow:
    method: str
    nodes: int
    seconds: float
    value: int
    move: Move | None
    agrees: bool  # same value as minimax, and a move minimax also rates best


def run_pruning_experiment(
    state: GameState, evaluation: Evaluation, depth: int | None
) -> list[ExperimentRow]:
    """Minimax, then each alpha-beta variant, on ``state`` to ``depth`` plies (None: the end).

    ``state`` is left unchanged. Every row reports whether it agrees with minimax.
    """
    start = time.perf_counter()
    oracle = minimax(state, depth, evaluation)
    oracle_seconds = time.perf_counter() - start
    best = oracle.best_moves
    oracle_move = min(best, key=list(oracle.scores).index) if best else None
    rows = [ExperimentRow("minimax", oracle.nodes, oracle_seconds, oracle.value, oracle_move, True)]
    plies = depth if depth is not None else UNLIMITED_DEPTH
    for method, options, deepening in VARIANTS:
        engine = AlphaBeta(evaluation, options)
        start = time.perf_counter()
        if deepening:
            result = engine.best(state, Limit(depth=plies))
        else:
            result = engine.fixed_depth(state, plies)
        seconds = time.perf_counter() - start
        agrees = result.score == oracle.value and result.move in best
        rows.append(ExperimentRow(method, result.nodes, seconds, result.score, result.move, agrees))
    return rows
