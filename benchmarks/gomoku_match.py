"""A small match: one level against another from the shared freestyle openings.

Usage: python benchmarks/gomoku_match.py [--games 100] [--a hard] [--b classic]
       [--time 2.0] [--concurrency 2] [--start 0]
Colours alternate; each opening is played twice (once with each side as black).
Prints each game's result as it ends (with the moves), then wins/losses/draws for
``--a``. ``--time`` overrides ``--a``'s per-move time; ``--concurrency`` plays that
many games at once in worker processes (each with its own players).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from abgames.ai.gomoku.player import GomokuPlayer
from abgames.ai.levels import make_player
from abgames.ai.player import AIPlayer
from abgames.games.gomoku import Gomoku


def _shared_data() -> Path:
    """``$ABGAMES_SHARED_DATA``, else the first ``shared/data`` beside the repo or above it."""
    if "ABGAMES_SHARED_DATA" in os.environ:
        return Path(os.environ["ABGAMES_SHARED_DATA"])
    here = Path(__file__).resolve()
    for folder in here.parents[1].parents:
        if (folder / "shared" / "data").is_dir():
            return folder / "shared" / "data"
    return here.parents[1].parent / "shared" / "data"


OPENINGS = _shared_data() / "gomoku" / "openings" / "piskvork_openings_offset.txt"


@dataclass(frozen=True)
class GameResult:
    """One finished game: its number, whether ``a`` had black, the winner (0/1/None)."""

    game: int
    a_is_black: bool
    winner: int | None
    moves: str
    seconds: float


def openings() -> list[list[tuple[int, int]]]:
    if not OPENINGS.exists():
        sys.exit(f"openings not found: {OPENINGS}")
    result = []
    for line in OPENINGS.read_text().splitlines():
        numbers = [int(n) for n in line.replace(" ", "").split(",") if n]
        result.append(list(zip(numbers[::2], numbers[1::2], strict=True)))
    return result


def placed(opening: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """The opening's points on a ``size`` board: offsets from the centre, the whole
    opening shifted the least needed to fit (some were made for 20x20 boards)."""
    centre = size // 2
    shifts = []
    for axis in (0, 1):
        low = min(centre + move[axis] for move in opening)
        high = max(centre + move[axis] for move in opening)
        shifts.append(-low if low < 0 else size - 1 - high if high >= size else 0)
    return [(centre + dx + shifts[0], centre + dy + shifts[1]) for dx, dy in opening]


def play_game(
    opening: list[tuple[int, int]], black: AIPlayer, white: AIPlayer
) -> tuple[int | None, str]:
    """Play one game from ``opening``; the winner (0 black, 1 white, None draw) and moves."""
    state = Gomoku()
    for x, y in placed(opening, state.size):
        state.play(state.point(x, y))
    players = (black, white)
    while state.outcome() is None:
        result = players[state.to_move].choose(state)
        assert result.move is not None
        state.play(result.move)
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winner, " ".join(state.format_move(m) for m in state.moves)


_PLAYERS: tuple[AIPlayer, AIPlayer] | None = None


def _make_players(a_level: str, b_level: str, a_time: float | None) -> tuple[AIPlayer, AIPlayer]:
    a = make_player("gomoku", a_level)
    if a_time is not None and isinstance(a, GomokuPlayer):
        a.limit = replace(a.limit, time=a_time)
    return a, make_player("gomoku", b_level)


def _init_worker(a_level: str, b_level: str, a_time: float | None) -> None:
    global _PLAYERS
    _PLAYERS = _make_players(a_level, b_level, a_time)


def _run_game(game: int) -> GameResult:
    assert _PLAYERS is not None
    a, b = _PLAYERS
    book = openings()
    opening = book[(game // 2) % len(book)]
    a_is_black = game % 2 == 0
    start = time.perf_counter()
    winner, moves = play_game(opening, a, b) if a_is_black else play_game(opening, b, a)
    return GameResult(game, a_is_black, winner, moves, time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=0, help="first game number (resume)")
    parser.add_argument("--a", default="hard")
    parser.add_argument("--b", default="classic")
    parser.add_argument("--time", type=float, default=None)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    games = range(args.start, args.start + args.games)
    init_args = (args.a, args.b, args.time)
    wins = losses = draws = 0
    results: Iterator[GameResult]
    if args.concurrency > 1:
        pool = multiprocessing.get_context("spawn").Pool(args.concurrency, _init_worker, init_args)
        results = pool.imap_unordered(_run_game, games)
    else:
        _init_worker(*init_args)
        pool = None
        results = map(_run_game, games)
    for result in results:
        if result.winner is None:
            draws += 1
            mark = "draw"
        elif (result.winner == 0) == result.a_is_black:
            wins += 1
            mark = "win"
        else:
            losses += 1
            mark = "LOSS"
        colour = "black" if result.a_is_black else "white"
        print(
            f"game {result.game + 1} ({args.a} {colour}, {result.seconds:.0f} s): {mark}; "
            f"{args.a} +{wins} -{losses} ={draws}; moves {result.moves}",
            flush=True,
        )
    if pool is not None:
        pool.close()
        pool.join()
    print(
        f"{args.a} vs {args.b}: {wins} wins, {losses} losses, {draws} draws "
        f"in {wins + losses + draws}"
    )


if __name__ == "__main__":
    main()
