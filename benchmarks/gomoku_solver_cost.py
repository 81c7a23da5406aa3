"""What the root VCT and the root defence check cost on ordinary positions.

Usage: python benchmarks/gomoku_solver_cost.py [--openings 4] [--check]

Positions: ``gomoku_speed``'s four midgame positions, then every third position
from ply 10 of quick self-play games (alpha-beta to depth 4, no solvers, seed 1)
from the first ``--openings`` freestyle and Renju openings of the shared sets.
Where no VCF wins, the ``hard`` level's root VCT runs (its depth and node budget),
then its defence check's VCT after each of its first root candidates. Prints the
solver nodes (the reproducible figure), seconds, wins found and budgets run out;
``--check`` also proves every win found with ``gomoku_puzzles.vct_claim_holds``
(every legal defence tried by the rules) and prints any that fails.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku import search as ks
from abgames.ai.gomoku.engine import EngineSettings, GomokuEngine
from abgames.ai.gomoku.tables import MAX_MOVES, S_VCF_EXHAUSTED, S_VCF_NODES
from abgames.ai.gomoku.threats import run_solver
from abgames.games.gomoku import Gomoku, Rule
from abgames.search.limit import Limit


def _sibling(name: str) -> ModuleType:
    """Another script of ``benchmarks/`` as a module (the folder is no package on the path)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


puzzles = _sibling("gomoku_puzzles")
POSITIONS: tuple[str, ...] = _sibling("gomoku_speed").POSITIONS
OPENINGS = {
    Rule.FREESTYLE: puzzles.SHARED_DATA / "gomoku" / "openings" / "piskvork_openings_offset.txt",
    Rule.RENJU: puzzles.SHARED_DATA / "gomoku" / "openings" / "renju26_offset.txt",
}
SELF_PLAY_DEPTH = 4
FIRST_PLY = 10
EVERY = 3
LAST_PLY = 60


def self_play_positions(openings: int) -> list[Gomoku]:
    """Positions from quick self-play games after the first ``openings`` of each set."""
    settings = EngineSettings(
        root_vcf_depth=0, root_vct_depth=0, defence_vct_depth=0, max_depth=SELF_PLAY_DEPTH
    )
    engine = GomokuEngine(settings, seed=1)
    found: list[Gomoku] = []
    for rule, path in OPENINGS.items():
        lines = [line for line in path.read_text().splitlines() if line.strip()][:openings]
        for line in lines:
            numbers = [int(n) for n in line.replace(" ", "").split(",") if n]
            state = Gomoku(15, rule)
            for i in range(0, len(numbers), 2):
                state.play(state.point(7 + numbers[i], 7 + numbers[i + 1]))
            while state.outcome() is None and len(state.moves) < LAST_PLY:
                result = None
                for result in engine.search(state, Limit(depth=SELF_PLAY_DEPTH)):  # noqa: B007
                    pass
                assert result is not None and result.move is not None
                state.play(result.move)
                ply = len(state.moves)
                if ply >= FIRST_PLY and ply % EVERY == 0 and state.outcome() is None:
                    found.append(state.copy())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", type=int, default=4, help="openings of each set played")
    parser.add_argument("--check", action="store_true", help="prove every win found")
    args = parser.parse_args()
    states = [Gomoku.from_notation(text) for text in POSITIONS]
    states += self_play_positions(args.openings)
    settings = EngineSettings()
    engine = GomokuEngine(settings)
    checker = GomokuEngine()
    engine.solve(states[0], depth=2, threes=True)  # compile or load outside the timings
    root = {"nodes": 0, "seconds": 0.0, "wins": 0, "out of budget": 0}
    defence = {"nodes": 0, "seconds": 0.0, "wins": 0, "out of budget": 0}
    failed: list[str] = []
    cells = np.zeros(MAX_MOVES, np.int32)
    for state in states:
        board, tables = engine._prepare(state)
        tables.vcf_key[:] = 0
        if run_solver(board, tables, settings.root_vcf_depth, settings.root_vcf_nodes, False):
            continue
        runs: list[tuple[dict[str, float], Gomoku, int, int]] = [
            (root, state, settings.root_vct_depth, settings.root_vct_nodes)
        ]
        count = ks.root_candidates(board, tables, cells)
        for cell in cells[: min(count, settings.defence_moves)]:
            after = state.copy()
            after.play(nb.to_point(board, int(cell)))
            runs.append((defence, after, settings.defence_vct_depth, settings.defence_nodes))
        for tally, position, depth, nodes in runs:
            board, tables = engine._prepare(position)
            before = int(tables.stats[S_VCF_NODES])
            start = time.perf_counter()
            moves = run_solver(board, tables, depth, nodes, True)
            tally["seconds"] += time.perf_counter() - start
            tally["nodes"] += int(tables.stats[S_VCF_NODES]) - before
            tally["out of budget"] += int(tables.stats[S_VCF_EXHAUSTED])
            if moves > 0:
                tally["wins"] += 1
                if args.check and not puzzles.vct_claim_holds(checker, position, moves):
                    failed.append(" ".join(position.format_move(m) for m in position.moves))
    print(f"{len(states)} positions (hard: VCT depth {settings.root_vct_depth})")
    for title, tally in (("root VCT", root), ("defence VCT", defence)):
        print(
            f"  {title}: {tally['nodes']:,} nodes, {tally['seconds']:.2f} s, "
            f"{tally['wins']} wins, {tally['out of budget']} out of budget"
        )
    if args.check:
        print(f"  wins proved by the rules: all but {len(failed)}")
        for line in failed:
            print(f"  FALSE CLAIM after {line}")


if __name__ == "__main__":
    main()
