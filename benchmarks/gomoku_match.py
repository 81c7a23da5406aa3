"""A small match: one level against another from the shared freestyle openings.

Usage: python benchmarks/gomoku_match.py [--games 100] [--a hard] [--b classic] [--time 2.0]
Colours alternate; each opening is played twice (once with each side as black).
Prints wins/losses/draws for ``--a``. ``--time`` overrides ``--a``'s per-move time.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from abgames.ai.gomoku.player import GomokuPlayer
from abgames.ai.levels import make_player
from abgames.games.gomoku import Gomoku

OPENINGS = (
    Path(__file__).resolve().parents[1].parent
    / "shared"
    / "data"
    / "gomoku"
    / "openings"
    / "piskvork_openings_offset.txt"
)


def openings() -> list[list[tuple[int, int]]]:
    if not OPENINGS.exists():
        sys.exit(f"openings not found: {OPENINGS}")
    result = []
    for line in OPENINGS.read_text().splitlines():
        numbers = [int(n) for n in line.replace(" ", "").split(",") if n]
        result.append(list(zip(numbers[::2], numbers[1::2], strict=True)))
    return result


def play_game(opening: list[tuple[int, int]], black: object, white: object) -> int | None:
    state = Gomoku()
    for dx, dy in opening:
        state.play(state.point(7 + dx, 7 + dy))
    players = (black, white)
    while state.outcome() is None:
        result = players[state.to_move].choose(state)  # type: ignore[attr-defined]
        state.play(result.move)
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--a", default="hard")
    parser.add_argument("--b", default="classic")
    parser.add_argument("--time", type=float, default=None)
    args = parser.parse_args()
    a = make_player("gomoku", args.a)
    if args.time is not None and isinstance(a, GomokuPlayer):
        a.limit = replace(a.limit, time=args.time)
    b = make_player("gomoku", args.b)
    wins = losses = draws = 0
    book = openings()
    for game in range(args.games):
        opening = book[(game // 2) % len(book)]
        a_is_black = game % 2 == 0
        winner = play_game(opening, a, b) if a_is_black else play_game(opening, b, a)
        if winner is None:
            draws += 1
        elif (winner == 0) == a_is_black:
            wins += 1
        else:
            losses += 1
        print(f"game {game + 1}: {args.a} +{wins} -{losses} ={draws}", flush=True)
    print(f"{args.a} vs {args.b}: {wins} wins, {losses} losses, {draws} draws in {args.games}")


if __name__ == "__main__":
    main()
