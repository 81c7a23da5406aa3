"""Engine speed: nodes/s and depth reached in 1 s on fixed midgame positions, and the
first-move time in a fresh process (compiled-code cache as found: run twice for warm).

Also: the same with the leaf VCF off (the alpha-beta kernel alone), and the time the
``hard`` level takes to answer each position (its budget is 2 s a move).

Usage: python benchmarks/gomoku_speed.py [--seconds 1.0]
For a cold first move: NUMBA_CACHE_DIR=$(mktemp -d) python benchmarks/gomoku_speed.py
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

#: Fixed midgame openings (freestyle, 15x15), in Renju notation.
POSITIONS = (
    "h8 i9 h9 h10 i8 g8 j7 k6 i6 j9 g9 k8",
    "h8 h9 i9 g7 i7 i8 j8 k9 g9 f10 j10 k11",
    "h8 i7 g7 g9 i8 h10 j10 f8 k11 l12",
    "h8 g9 i9 i8 g7 j10 h7 h6 f8 e9",
)


def first_move() -> tuple[float, float, int]:
    """In a fresh process: seconds to get ``hard`` ready (``readiness.prepare``: compile
    or load), then the first move's seconds and depth, searched with the kernels ready."""
    code = (
        "import time; t = time.perf_counter();"
        "from abgames.ai.levels import make_player; from abgames.ai.readiness import prepare;"
        "from abgames.games.gomoku import Gomoku;"
        "s = Gomoku(); s.play(s.parse_move('h8')); p = make_player('gomoku', 'hard');"
        "prepare('gomoku', 'hard'); ready = time.perf_counter() - t;"
        "r = p.choose(s); print(ready, time.perf_counter() - t - ready, r.depth)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ready, move, depth = out.stdout.strip().splitlines()[-1].split()
    return float(ready), float(move), int(depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    ready, move, depth = first_move()
    print(
        f"first move in a fresh process: engine ready (import + compile/load) in {ready:.2f} s, "
        f"then depth {depth} in {move:.2f} s"
    )
    from abgames.ai.gomoku.engine import EngineSettings, GomokuEngine
    from abgames.games.gomoku import Gomoku
    from abgames.search.limit import Limit

    for title, leaf_vcf in (("with the leaf VCF", 4), ("alpha-beta only (leaf VCF off)", 0)):
        print(title)
        engine = GomokuEngine(
            EngineSettings(
                root_vcf_depth=0,
                root_vct_depth=0,
                defence_vct_depth=0,
                leaf_vcf_depth=leaf_vcf,
                use_full_time=True,
            )
        )
        total_nodes = 0
        total_time = 0.0
        for text in POSITIONS:
            state = Gomoku.from_notation(text)
            start = time.perf_counter()
            last = None
            for last in engine.search(state, Limit(time=args.seconds)):  # noqa: B007
                pass
            used = time.perf_counter() - start
            assert last is not None
            nodes = last.nodes
            total_nodes += nodes
            total_time += used
            print(f"  {text[:28]:<30} depth {last.depth:2d}  {nodes / used:9.0f} nodes/s")
        print(f"  mean: {total_nodes / total_time:.0f} nodes/s (2 shared cores; timings are noisy)")
    from abgames.ai.levels import make_player

    hard = make_player("gomoku", "hard")
    for text in POSITIONS:
        state = Gomoku.from_notation(text)
        start = time.perf_counter()
        result = hard.choose(state)
        print(
            f"hard answers {text[:28]:<30} in {time.perf_counter() - start:.2f} s "
            f"(depth {result.depth})"
        )


if __name__ == "__main__":
    main()
