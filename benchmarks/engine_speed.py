"""The reference (pure-Python) engine's speed per game, and how well it keeps a time limit.

Run: ``.venv/bin/python benchmarks/engine_speed.py``
Prints nodes, seconds and nodes/s for a fixed-depth search of a few positions per
game, then the overshoot of ``Limit(time=...)`` searches (elapsed minus the limit),
then what watching a search costs: no observer, an observer that does nothing, and a
full trace (``search.trace``), best of a few runs each.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from abgames.ai.connect4.heuristic import ConnectFourEvaluation
from abgames.ai.gomoku.starter import StarterEvaluation
from abgames.ai.tictactoe import TicTacToeEvaluation
from abgames.games import ConnectFour, GameState, Gomoku, TicTacToe
from abgames.search import AlphaBeta, Limit
from abgames.search.evaluation import Evaluation
from abgames.search.observer import SearchObserver
from abgames.search.trace import TraceBuilder

GOMOKU_BEAM = 10
TIME_LIMITS_S = (0.1, 0.5, 1.0)
TIME_LIMIT_REPEATS = 3
OBSERVER_REPEATS = 5


def cases() -> list[tuple[str, GameState, Evaluation, int]]:
    return [
        ("tictactoe empty", TicTacToe(), TicTacToeEvaluation(), 9),
        ("tictactoe b2 a3", TicTacToe.from_notation("b2 a3"), TicTacToeEvaluation(), 9),
        ("connect4 empty", ConnectFour(), ConnectFourEvaluation(), 7),
        ("connect4 4453", ConnectFour.from_notation("4453"), ConnectFourEvaluation(), 7),
        ("connect4 44455554", ConnectFour.from_notation("44455554"), ConnectFourEvaluation(), 7),
        (
            "gomoku h8 h9 i8 i9",
            Gomoku.from_notation("h8 h9 i8 i9"),
            StarterEvaluation(GOMOKU_BEAM),
            3,
        ),
    ]


def main() -> None:
    print(f"{'position':<24}{'depth':>6}{'nodes':>10}{'seconds':>10}{'nodes/s':>10}  score")
    for name, state, evaluation, depth in cases():
        engine = AlphaBeta(evaluation)
        start = time.perf_counter()
        result = engine.best(state, Limit(depth=depth))
        seconds = time.perf_counter() - start
        print(
            f"{name:<24}{result.depth:>6}{result.nodes:>10,}{seconds:>10.3f}"
            f"{result.nodes / seconds:>10,.0f}  {result.describe_score()}"
        )
    print("\nTime limits (connect4 empty board, heuristic evaluation):")
    print(f"{'limit s':>8}{'mean s':>9}{'max s':>8}{'max overshoot ms':>18}{'depth':>7}")
    for limit in TIME_LIMITS_S:
        elapsed = []
        depths = []
        for _ in range(TIME_LIMIT_REPEATS):
            engine = AlphaBeta(ConnectFourEvaluation())
            start = time.perf_counter()
            result = engine.best(ConnectFour(), Limit(time=limit))
            elapsed.append(time.perf_counter() - start)
            depths.append(result.depth)
        overshoot_ms = max(0.0, (max(elapsed) - limit) * 1000)
        print(
            f"{limit:>8.1f}{statistics.mean(elapsed):>9.3f}{max(elapsed):>8.3f}"
            f"{overshoot_ms:>18.1f}{max(depths):>7}"
        )

    print("\nWatching the search (tictactoe empty board, depth 9, best of runs):")
    print(f"{'observer':<18}{'ms':>8}{'nodes/s':>10}")
    watchers: dict[str, Callable[[], SearchObserver | None]] = {
        "none": lambda: None,
        "does nothing": SearchObserver,
        "trace": lambda: TraceBuilder(1_000_000),
    }
    AlphaBeta(TicTacToeEvaluation()).best(TicTacToe(), Limit(depth=9))  # warm up
    for label, make in watchers.items():
        best_s = float("inf")
        nodes = 0
        for _ in range(OBSERVER_REPEATS):
            engine = AlphaBeta(TicTacToeEvaluation(), observer=make())
            start = time.perf_counter()
            nodes = engine.best(TicTacToe(), Limit(depth=9)).nodes
            best_s = min(best_s, time.perf_counter() - start)
        print(f"{label:<18}{best_s * 1000:>8.1f}{nodes / best_s:>10,.0f}")


if __name__ == "__main__":
    main()
