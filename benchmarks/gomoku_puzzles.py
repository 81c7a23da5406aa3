"""Solve the shared Gomoku puzzle sets and print solved/total and mean time per set.

Usage: python benchmarks/gomoku_puzzles.py [--time SECONDS] [--limit N]

- intro_vcf: every puzzle has a VCF for the side to move; solved = the engine's
  VCF solver finds a win within the time limit, and its first move wins.
- quintet_vcf: VCF puzzles must be found within ``max_depth`` attacker moves when
  a solution is stated, and not found within ``max_depth`` when none exists; the
  VCT lines are reported separately (the engine's VCT depth semantics differ
  slightly from quintet's, so they are figures, not a target).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

from abgames.ai.gomoku.engine import GomokuEngine
from abgames.games.gomoku import Gomoku, Rule

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "gomoku" / "puzzles"
UNLIMITED_DEPTH = 200


def position(case: dict[str, Any], attacker: str) -> Gomoku:
    """The puzzle's board with ``attacker`` ("black"/"white") to move."""
    rows: list[str] = case["board"]
    state = Gomoku(len(rows), Rule(case.get("rule", "renju")))
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell in "XO":
                state.board[state.point(x, y)] = 1 if cell == "X" else 2
    state.to_move = 0 if attacker == "black" else 1
    # The engine replays ``moves``; a list of stones in any order gives the same board.
    state.moves = [p for p, stone in enumerate(state.board) if stone]
    state.key = state.compute_key()
    return state


def solve(engine: GomokuEngine, state: Gomoku, depth: int, threes: bool, seconds: float):
    """The solver's answer within ``seconds`` (a timer stops it), and the time used."""
    timer = threading.Timer(seconds, engine.stop)
    start = time.perf_counter()
    timer.start()
    try:
        found = engine.solve(state, depth=depth, threes=threes, nodes=50_000_000)
    finally:
        timer.cancel()
    return found, time.perf_counter() - start


def load(name: str) -> list[dict[str, Any]]:
    path = DATA / name
    if not path.exists():
        sys.exit(f"puzzle data not found: {path} (expected ../shared/data beside the repo)")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def intro_vcf(engine: GomokuEngine, seconds: float, limit: int | None) -> None:
    cases = load("intro_vcf.jsonl")[:limit]
    solved = 0
    total_time = 0.0
    for case in cases:
        state = position(case, case["side_to_move"])
        found, used = solve(engine, state, UNLIMITED_DEPTH, False, seconds)
        total_time += used
        if found is not None and used <= seconds:
            solved += 1
    print(
        f"intro_vcf: solved {solved}/{len(cases)} within {seconds:g} s each, "
        f"mean time {total_time / max(1, len(cases)):.3f} s"
    )


def quintet(engine: GomokuEngine, seconds: float) -> None:
    cases = load("quintet_vcf.jsonl")
    tallies: dict[str, list[int]] = {"VCF": [0, 0], "VCT": [0, 0]}
    times: dict[str, float] = {"VCF": 0.0, "VCT": 0.0}
    for case in cases:
        kind = "VCT" if case["solver"].startswith("VCT") else "VCF"
        state = position(case, case["attacker"])
        depth = case["max_depth"] or UNLIMITED_DEPTH
        found, used = solve(engine, state, depth, kind == "VCT", seconds)
        times[kind] += used
        expected = case["expected"] == "solution"
        correct = (found is not None) == expected
        if expected and found is not None:
            # quintet's depth counts the attacker's fours, not the final five.
            correct = found.moves - 1 <= depth
        tallies[kind][0] += int(correct)
        tallies[kind][1] += 1
        if not correct:
            print(
                f"  miss: {case['name']} {case['solver']} depth {depth} expected {case['expected']}"
            )
    for kind, (right, total) in tallies.items():
        print(f"quintet_vcf {kind}: correct {right}/{total}, mean time {times[kind] / total:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per puzzle")
    parser.add_argument("--limit", type=int, default=None, help="only the first N intro puzzles")
    args = parser.parse_args()
    engine = GomokuEngine()
    warm = Gomoku(15, Rule.RENJU)
    engine.solve(warm, depth=2)  # compile or load the kernels outside the timings
    quintet(engine, args.time)
    intro_vcf(engine, args.time, args.limit)


if __name__ == "__main__":
    main()
