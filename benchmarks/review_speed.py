"""How long the engine's review of a game takes: a 40-move Gomoku game and a full Connect
Four game, reviewed as the web app's worker does (``abgames.review.review_game``).

Run: ``.venv/bin/python benchmarks/review_speed.py [--gomoku-moves 40] [--seed 1]``

The games are played first by the engine's own levels (Gomoku ``medium`` against
``medium``, Connect Four ``hard`` against ``hard``; seeded, so the same games every
run; a Gomoku game that ends before ``--gomoku-moves`` is replaced by the next seed's,
and a longer one is cut there). Each review is timed twice: first (its players fresh,
the kernels loaded before and their load printed apart) and again. It prints per game:
moves, seconds, milliseconds a position, the marks found. It asserts no time.
"""

from __future__ import annotations

import argparse
import sys
import time

from abgames.ai.levels import make_player
from abgames.ai.player import AIPlayer
from abgames.ai.readiness import KERNELS, prepare
from abgames.games import GameState, Move
from abgames.match import new_state
from abgames.review import review_game

#: The players of each benchmark game: (game, first player's level, second's).
GAMES = (("gomoku", "medium", "medium"), ("connect4", "hard", "hard"))
#: Seeds tried for a Gomoku game that lasts the moves asked for (it is cut there).
MAX_SEEDS = 20


def play(game: str, levels: tuple[str, str], seed: int, max_moves: int | None) -> list[Move]:
    """A game between two levels (seeded), at most ``max_moves`` long."""
    state: GameState = new_state(game)
    players = [make_player(game, level, seed + side) for side, level in enumerate(levels)]
    while state.outcome() is None and (max_moves is None or state.ply < max_moves):
        result = players[state.to_move].choose(state)
        assert result.move is not None
        state.play(result.move)
    return list(state.moves)


def timed_review(game: str, moves: list[Move]) -> tuple[float, int, list[str]]:
    players: dict[str, AIPlayer] = {}

    def player(level: str) -> AIPlayer:
        if level not in players:
            players[level] = make_player(game, level)
        return players[level]

    start = time.perf_counter()
    review = review_game(moves, lambda: new_state(game), player)
    elapsed = time.perf_counter() - start
    state = new_state(game)
    marks = []
    for mark in review.marks:
        for move in moves[: mark.ply]:
            state.play(move)
        marks.append(f"{mark.ply + 1}. {state.format_move(moves[mark.ply])}: {mark.text}")
        state = new_state(game)
    return elapsed, len(review.positions), marks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gomoku-moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game, first, second in GAMES:
        start = time.perf_counter()
        for kernel_game, kernels in KERNELS.items():
            if kernel_game == game:
                prepare(game, min(kernels.levels))
        load = time.perf_counter() - start
        limit = args.gomoku_moves if game == "gomoku" else None
        seed = args.seed
        moves = play(game, (first, second), seed, limit)
        while limit is not None and len(moves) < limit and seed < args.seed + MAX_SEEDS:
            seed += 1  # that game ended early: the next seed's
            moves = play(game, (first, second), seed, limit)
        print(
            f"{game}: {len(moves)} moves ({first} vs {second}, seed {seed}); kernels {load:.2f} s"
        )
        for run in ("first", "again"):
            elapsed, positions, marks = timed_review(game, moves)
            print(
                f"  review ({run}): {elapsed:.2f} s for {positions} positions "
                f"({elapsed / positions * 1000:.0f} ms a position), {len(marks)} marks"
            )
        for mark in marks:
            print(f"    {mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
