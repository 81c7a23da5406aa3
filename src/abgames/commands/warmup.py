"""``abgames warmup``: compile the engines' numba kernels once, so first moves are fast.

numba compiles a kernel on first use and caches the machine code on disk beside the
package; this command makes that first use happen now (``make`` runs it after the
install) instead of inside a player's first timed move.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from abgames.ai.levels import LEVELS, make_player
from abgames.games import ConnectFour, GameState, Gomoku

#: Per game: a small position and the levels whose players run compiled kernels.
WARMUP: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("connect4", "2252576253462244111563365343671351", ("perfect",)),
    ("gomoku", "h8 h9 i8", ("hard", "classic")),
)
#: Time each warm-up search may take once compiled (seconds).
WARMUP_SEARCH_SECONDS = 0.2


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "warmup",
        help="compile the engines' fast kernels now (make does this after installing)",
        description=__doc__,
    )
    parser.set_defaults(run=run)


def position(game: str, notation: str) -> GameState:
    if game == "connect4":
        return ConnectFour.from_notation(notation)
    return Gomoku.from_notation(notation)


def run(args: argparse.Namespace) -> int:
    for game, notation, levels in WARMUP:
        for level in levels:
            if level not in LEVELS[game]:
                continue
            start = time.perf_counter()
            player = make_player(game, level)
            for _ in player.think_within(position(game, notation), WARMUP_SEARCH_SECONDS):
                pass
            print(
                f"warm-up: {game} {level} ready in {time.perf_counter() - start:.1f} s", flush=True
            )
    return 0
