"""Connect Four solver benchmark: Pons' test sets, with and without the opening book.

For every ``../shared/data/connect4/Test_*`` file it prints one row per set and
mode: positions, correct, mean microseconds per position, mean nodes, nodes per
second. One thread; the transposition table is cleared before each position;
only the solve call is timed (as in Pons' benchmark). Then:

- the first solve in a fresh process, with the compiled-code cache empty (cold:
  compiling included) and warm;
- the book: every position the ``perfect`` player meets inside it, answered with
  the table cleared each time (count, mean and worst milliseconds), and how many
  positions the book leads to that it no longer decides.

Usage: ``python benchmarks/connect4_solver.py [--limit N] [--sets L3_R1 L2_R1 ...]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from abgames.ai.connect4.book import Book, default_book_path, load
from abgames.ai.connect4.book_builder import book_tree
from abgames.ai.connect4.perfect import choose_column
from abgames.ai.connect4.solver import DEFAULT_TABLE_BITS, Position, Solver

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT.parent / "shared" / "data" / "connect4"
#: Mean time per position of the best C++ solver measured on these machines (µs).
CPP_REFERENCE_US = {
    "L3_R1": 12.0,
    "L2_R1": 95.0,
    "L2_R2": 8_800.0,
    "L1_R1": 570.0,
    "L1_R2": 240_000.0,
}
#: Target for a position met inside the book (ms).
BOOK_TARGET_MS = 10.0
FIRST_SOLVE_POSITION = "2252576253462244111563365343671351441"


def read_set(path: Path, limit: int | None) -> list[tuple[Position, int]]:
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    if limit is not None:
        step = max(1, len(rows) // limit)
        rows = rows[::step][:limit]
    return [(Position.parse(moves), int(score)) for moves, score in rows]


def run_set(solver: Solver, rows: list[tuple[Position, int]]) -> tuple[int, float, float, float]:
    """(correct, mean µs, mean nodes, nodes per second) over ``rows``."""
    correct = 0
    total_time = 0.0
    total_nodes = 0
    for position, expected in rows:
        solver.clear()
        start = time.perf_counter()
        score = solver.solve(position)
        total_time += time.perf_counter() - start
        total_nodes += solver.nodes
        correct += score == expected
    count = len(rows)
    return correct, 1e6 * total_time / count, total_nodes / count, total_nodes / total_time


def first_solve_seconds(cold: bool) -> float:
    """Seconds from a fresh interpreter's start to its first solve's end."""
    code = (
        "import time; t = time.perf_counter();"
        "from abgames.ai.connect4.solver import Position, Solver;"
        f"Solver().solve(Position.parse({FIRST_SOLVE_POSITION!r}));"
        "print(time.perf_counter() - t)"
    )
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as empty_cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = empty_cache
        output = subprocess.run(
            [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
        ).stdout
    return float(output.split()[-1])


def book_report(book: Book) -> None:
    inside, outside = book_tree(book)
    solver = Solver(DEFAULT_TABLE_BITS, book)
    solver.analyze(Position.parse(FIRST_SOLVE_POSITION))  # compile (or load) analyze first
    times_ms = []
    for moves in inside:
        solver.clear()
        start = time.perf_counter()
        choose_column(solver.analyze(Position.parse(moves)))
        times_ms.append(1e3 * (time.perf_counter() - start))
    print(
        f"book: {len(book)} positions up to {book.max_moves} discs, "
        f"{default_book_path().stat().st_size} bytes"
    )
    if times_ms:
        slow = sum(t >= BOOK_TARGET_MS for t in times_ms)
        print(
            f"perfect player inside the book: {len(times_ms)} positions met, "
            f"mean {sum(times_ms) / len(times_ms):.3f} ms, worst {max(times_ms):.3f} ms, "
            f"{slow} at or over {BOOK_TARGET_MS:g} ms"
        )
    else:
        print("perfect player inside the book: the book does not decide the first move")
    print(f"positions met where the book ends (solved live): {len(outside)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="positions per set (spread over the file)")
    parser.add_argument("--sets", nargs="*", help="set names such as L3_R1 (default: all)")
    parser.add_argument("--no-book", action="store_true", help="skip the runs with the book")
    parser.add_argument("--no-first-solve", action="store_true", help="skip cold/warm timing")
    args = parser.parse_args()
    if not DATA_DIR.is_dir():
        raise SystemExit(f"benchmark data not found: {DATA_DIR} (expected ../shared/data)")
    files = sorted(DATA_DIR.glob("Test_*"), key=lambda p: p.name, reverse=True)
    if args.sets:
        files = [p for p in files if p.name.removeprefix("Test_") in args.sets]
    if not files:
        raise SystemExit(f"no Test_* files selected in {DATA_DIR}")
    book = None if args.no_book else load(default_book_path())

    Solver(12).solve(Position.parse(FIRST_SOLVE_POSITION))  # compile (or load) first
    header = (
        f"{'set':<7}{'book':<6}{'positions':>10}{'correct':>9}{'mean µs':>12}"
        f"{'C++ µs':>10}{'mean nodes':>13}{'nodes/s':>13}"
    )
    print(header)
    print("-" * len(header))
    for path in files:
        name = path.name.removeprefix("Test_")
        rows = read_set(path, args.limit)
        modes: list[tuple[str, Book | None]] = [("no", None)]
        if book is not None:
            modes.append(("yes", book))
        for label, mode_book in modes:
            solver = Solver(DEFAULT_TABLE_BITS, mode_book)
            correct, mean_us, mean_nodes, nps = run_set(solver, rows)
            reference = CPP_REFERENCE_US.get(name)
            ref_text = f"{reference:>10,.1f}" if reference else f"{'':>10}"
            print(
                f"{name:<7}{label:<6}{len(rows):>10}{correct:>9}{mean_us:>12,.1f}"
                f"{ref_text}{mean_nodes:>13,.0f}{nps:>13,.0f}",
                flush=True,
            )
    if not args.no_first_solve:
        print(f"first solve in a fresh process, cache empty: {first_solve_seconds(True):.2f} s")
        print(f"first solve in a fresh process, cache warm:  {first_solve_seconds(False):.2f} s")
    if book is not None:
        book_report(book)
    return 0


if __name__ == "__main__":
    sys.exit(main())
