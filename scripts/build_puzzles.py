"""Make the packaged puzzle file ``src/abgames/puzzles/puzzles.json``.

Usage: nice -n 10 .venv/bin/python scripts/build_puzzles.py [--games N] [--connect4 N]
       [--seed S] [--cache DIR] [--shared DIR]

Sources (``abgames.puzzles.build``): the shared Gomoku puzzle sets
(``$ABGAMES_SHARED_DATA/gomoku/puzzles``, default ``../shared/data`` beside the repo),
Gomoku engine games played here (easy against medium, missed wins kept) and random
Connect Four positions with exactly one winning column. Resumable: each source, and
each engine game as it ends, is kept in ``--cache`` (default ``build/puzzles``); run
again to carry on, delete a source's file there to make it again.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from abgames.puzzles.build import build
from abgames.puzzles.catalogue import DATA_FILE

REPO = Path(__file__).resolve().parents[1]


def shared_data() -> Path:
    if "ABGAMES_SHARED_DATA" in os.environ:
        return Path(os.environ["ABGAMES_SHARED_DATA"])
    return REPO.parent / "shared" / "data"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="engine games to mine (300)")
    parser.add_argument("--connect4", type=int, default=60, help="Connect Four puzzles (60)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", type=Path, default=REPO / "build" / "puzzles")
    parser.add_argument("--shared", type=Path, default=shared_data())
    parser.add_argument(
        "--out", type=Path, default=REPO / "src" / "abgames" / "puzzles" / DATA_FILE
    )
    args = parser.parse_args()
    start = time.perf_counter()

    def log(text: str) -> None:
        print(f"[{time.perf_counter() - start:7.1f} s] {text}", flush=True)

    counts = build(
        args.shared,
        args.out,
        args.cache,
        games=args.games,
        connect4=args.connect4,
        seed=args.seed,
        log=log,
    )
    total = sum(counts.values())
    log(f"wrote {args.out}: {total} puzzles ({counts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
