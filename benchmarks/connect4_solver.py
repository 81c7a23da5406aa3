"""Connect Four solver benchmark: ours beside BitBully, with and without the opening book.

For every ``../shared/data/connect4/Test_*`` file, and for random positions of
8-16 discs (``--random N``, seeded), it prints one row per set and mode:
positions, correct (against the file's scores; for the random positions, against
BitBully's), mean microseconds per position, BitBully's mean microseconds on the
same positions (no book, ``mtdf`` from 0) and ours as a fraction of it, mean
nodes, nodes per second. One thread; each solver's transposition table is
cleared before each position; only the solve call is timed (as in Pons'
benchmark). BitBully (``pip install -e .[bench]``) is measured in the same run;
without it its columns stay empty. Then:

- the first solve in a fresh process, with the compiled-code cache empty (cold:
  compiling included) and warm;
- the book: every position the ``perfect`` player meets inside it, answered with
  the table cleared each time (count, mean and worst milliseconds), and how many
  positions the book leads to that it no longer decides.

Usage: ``python benchmarks/connect4_solver.py [--limit N] [--sets L3_R1 L2_R1 ...]
[--random N] [--seed S]``
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from abgames.ai.connect4.book import Book, default_book_path, load
from abgames.ai.connect4.book_builder import book_tree
from abgames.ai.connect4.perfect import choose_column
from abgames.ai.connect4.position import random_game
from abgames.ai.connect4.solver import DEFAULT_TABLE_BITS, Position, Solver

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT.parent / "shared" / "data" / "connect4"
#: The random set's disc counts (the issue's "random positions of 8-16 discs").
RANDOM_DISCS = (8, 16)
#: Target for a position met inside the book (ms).
BOOK_TARGET_MS = 10.0
FIRST_SOLVE_POSITION = "2252576253462244111563365343671351441"


Rows = list[tuple[str, Position, int | None]]


def read_set(path: Path, limit: int | None) -> Rows:
    """``(moves, position, expected score)`` of a test file (``limit`` spread over it)."""
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    if limit is not None:
        step = max(1, len(rows) // limit)
        rows = rows[::step][:limit]
    return [(moves, Position.parse(moves), int(score)) for moves, score in rows]


def random_set(count: int, seed: int) -> Rows:
    """``count`` unfinished positions of random play with ``RANDOM_DISCS`` discs (no score)."""
    rng = random.Random(seed)
    games = [random_game(rng, *RANDOM_DISCS) for _ in range(count)]
    return [(state.notation(), Position.from_state(state), None) for state in games]


def run_set(solver: Solver, rows: Rows) -> tuple[list[int], float, float, float]:
    """(scores, mean µs, mean nodes, nodes per second) over ``rows``."""
    scores = []
    total_time = 0.0
    total_nodes = 0
    for _, position, _ in rows:
        solver.clear()
        start = time.perf_counter()
        scores.append(solver.solve(position))
        total_time += time.perf_counter() - start
        total_nodes += solver.nodes
    count = len(rows)
    return scores, 1e6 * total_time / count, total_nodes / count, total_nodes / total_time


def bitbully_core() -> Any:
    """BitBully's compiled module, or ``None`` when it is not installed."""
    try:
        import bitbully.bitbully_core as core  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        return None
    return core


def run_bitbully(core: Any, rows: Rows) -> tuple[list[int], float]:
    """BitBully's (scores, mean µs) over ``rows``: no book, MTD(f) from 0, table reset each time."""
    solver = core.BitBullyCore()
    scores = []
    total_time = 0.0
    for moves, _, _ in rows:
        board = core.BoardCore()
        if not board.play("".join(str(int(c) - 1) for c in moves)):
            raise ValueError(f"BitBully refused the moves {moves}")
        solver.resetTranspositionTable()
        start = time.perf_counter()
        scores.append(int(solver.mtdf(board, 0)))
        total_time += time.perf_counter() - start
    return scores, 1e6 * total_time / len(rows)


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
    parser.add_argument("--random", type=int, default=200, help="random positions (0: none)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random positions")
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
    core = bitbully_core()
    if core is None:
        print("BitBully is not installed (pip install -e .[bench]): its columns stay empty")
    header = (
        f"{'set':<12}{'book':<6}{'positions':>10}{'correct':>9}{'mean µs':>12}"
        f"{'BitBully µs':>13}{'ours/BB':>9}{'mean nodes':>13}{'nodes/s':>13}"
    )
    print(header)
    print("-" * len(header))
    sets = [(path.name.removeprefix("Test_"), read_set(path, args.limit)) for path in files]
    if args.random:
        sets.append(
            (f"random{RANDOM_DISCS[0]}-{RANDOM_DISCS[1]}", random_set(args.random, args.seed))
        )
    for name, rows in sets:
        reference: list[int | None] = [expected for _, _, expected in rows]
        bb_text = f"{'':>13}{'':>9}"
        bb_us = None
        if core is not None:
            bb_scores, bb_us = run_bitbully(core, rows)
            reference = [
                bb if expected is None else expected
                for bb, (_, _, expected) in zip(bb_scores, rows, strict=True)
            ]
            wrong = sum(bb != expected for bb, expected in zip(bb_scores, reference, strict=True))
            if wrong:
                print(f"{name}: BitBully disagrees with the file on {wrong} positions")
        modes: list[tuple[str, Book | None]] = [("no", None)]
        if book is not None:
            modes.append(("yes", book))
        for label, mode_book in modes:
            solver = Solver(DEFAULT_TABLE_BITS, mode_book)
            scores, mean_us, mean_nodes, nps = run_set(solver, rows)
            correct = sum(
                score == expected for score, expected in zip(scores, reference, strict=True)
            )
            checked = "" if any(r is not None for r in reference) else "?"
            if bb_us is not None:
                bb_text = f"{bb_us:>13,.1f}{mean_us / bb_us:>9.2f}"
            print(
                f"{name:<12}{label:<6}{len(rows):>10}{correct:>8}{checked:<1}{mean_us:>12,.1f}"
                f"{bb_text}{mean_nodes:>13,.0f}{nps:>13,.0f}",
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
