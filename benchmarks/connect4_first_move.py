"""The ``perfect`` Connect Four player's first move in a fresh process (README figures).

Each case starts a new interpreter that imports abgames, makes the ``perfect``
player (which loads its books) and answers one position; the time runs from the
interpreter's first line to the answer (``wall``: the whole process, interpreter
start and exit included). The compiled kernels come from numba's cache: one
process answers a live solve first, unmeasured, so the cache is warm.

- from the book: the empty board (the first player's first move) and the second
  player's first move after each opening column: the strategy book answers;
- at the opening book's last full level: an 8-disc position, the first the book does
  not answer by its children's scores (the book's column, or with a complete level
  book every column searched to the level);
- handed over before the level book: a 10-disc position outside the opening book
  (3.7 M nodes without the level book), solved by a search that stops at the
  12-disc level (the player loads the level book for it);
- with a live solve: ``--live`` positions of 16 discs or more (beyond both books,
  so every column is solved) from ``../shared/data/connect4/Test_L2_R2``, or the
  built-in ones when the data is missing.

Every case is run ``--runs`` times; the median is printed, with the machine's load
average when it began (other work on the machine slows every figure).

Usage: ``python benchmarks/connect4_first_move.py [--runs N] [--live N]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from abgames.ai.connect4.perfect import EXACT_FROM

DATA_FILE = Path(__file__).resolve().parent.parent.parent / "shared/data/connect4/Test_L2_R2"
#: Positions of 16 discs or more (from Test_L2_R2) for when the data is missing.
BUILT_IN_LIVE = ("5455174361263362", "2531276566711153")
#: An 8-disc position: its children (9 discs) are past the opening book's full levels.
BOOK_EDGE = "44337174"
#: A 10-disc position outside the opening book whose search stops at the shipped level.
BEFORE_LEVEL = "3435543443"
ANSWER = """
import time
started = time.perf_counter()
from abgames.ai.levels import make_player
from abgames.games.connect4 import ConnectFour
player = make_player("connect4", "perfect", None)
state = ConnectFour.from_notation({moves!r})
made = time.perf_counter()
result = player.choose(state)
done = time.perf_counter()
print(done - started, done - made, result.move + 1, result.nodes, result.solved)
"""


def live_positions(count: int) -> list[str]:
    """``count`` positions of at least ``EXACT_FROM`` discs, the first in the data file."""
    if not DATA_FILE.is_file():
        return list(BUILT_IN_LIVE[:count])
    found = []
    for line in DATA_FILE.read_text(encoding="ascii").splitlines():
        moves = line.split()[0] if line.strip() else ""
        if len(moves) >= EXACT_FROM:
            found.append(moves)
        if len(found) == count:
            break
    return found


def answer(moves: str) -> tuple[float, float, float, int, int, bool]:
    """(wall, from the first line, the move alone, column, nodes, solved) of one process."""
    start = time.perf_counter()
    output = subprocess.run(
        [sys.executable, "-c", ANSWER.format(moves=moves)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    wall = time.perf_counter() - start
    total, move, column, nodes, solved = output
    return wall, float(total), float(move), int(column), int(nodes), solved == "True"


def report(label: str, moves: str, runs: int) -> None:
    results = [answer(moves) for _ in range(runs)]
    wall, total, move = (statistics.median(r[i] for r in results) for i in range(3))
    _, _, _, column, nodes, solved = results[0]
    print(
        f"{label:<34}{moves or '(empty)':<26}{total:>8.2f} s{move:>9.3f} s{wall:>8.2f} s"
        f"{column:>7}{nodes:>11,}{'yes' if solved else 'no':>8}",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="processes per case (median)")
    parser.add_argument("--live", type=int, default=4, help="live-solve positions")
    args = parser.parse_args()
    live = live_positions(args.live)
    answer(live[0])  # fills numba's cache if it is cold; not measured
    print(
        f"perfect player's first move in a fresh process, kernels cached, "
        f"median of {args.runs} runs; {os.cpu_count()} CPUs, load average "
        + " ".join(f"{load:.2f}" for load in os.getloadavg())
    )
    header = (
        f"{'case':<34}{'position':<26}{'answer':>10}{'move':>11}{'wall':>10}"
        f"{'column':>7}{'nodes':>11}{'solved':>8}"
    )
    print(header)
    print("-" * len(header))
    report("from the book: first player", "", args.runs)
    for column in range(1, 8):
        report(f"from the book: reply to {column}", str(column), args.runs)
    report(f"book's edge ({len(BOOK_EDGE)} discs)", BOOK_EDGE, args.runs)
    report(f"before the level ({len(BEFORE_LEVEL)} discs)", BEFORE_LEVEL, args.runs)
    for moves in live:
        report(f"live solve ({len(moves)} discs)", moves, args.runs)
    print(
        "answer: from the interpreter's first line (imports, the player and its books, "
        "the move); move: the move alone; wall: the whole process"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
