"""Engine speed: nodes/s and depth reached in 1 s on fixed midgame positions, and the
first-move time in a fresh process (compiled-code cache as found: run twice for warm).

Also: the same with the leaf VCF off (the alpha-beta kernel alone), and the time the
``hard`` level takes to answer each position (its budget is 2 s a move).

Usage: python benchmarks/gomoku_speed.py [--seconds 1.0] [--rule freestyle]
       python benchmarks/gomoku_speed.py --depth 6 [--repeat 3] [--rule renju]

``--depth D`` instead searches each position to exactly depth D (root solvers off,
leaf VCF on, then off) and prints the counts that do not depend on the machine's
load: alpha-beta nodes, leaf-VCF nodes, the move and score, with the best of
``--repeat`` timings as nodes/s. Compare two versions of the code by running both
this way back to back (the node counts must match for a pure speed change).
For a cold first move: NUMBA_CACHE_DIR=$(mktemp -d) python benchmarks/gomoku_speed.py

``--rule standard|renju`` searches the same positions under that rule (they are legal
under all three), to show what exact fives and Renju's forbidden points cost.

``--net`` searches with the learned evaluation on (``search.eval_net``: the shipped
network, or the file ``ABGAMES_GOMOKU_NET`` names), to show what it costs a node.

``--peer CMD`` (repeatable) sends each position to that Gomocup brain instead, side by
side in one run, as a manager would (a fresh process, ``INFO timeout_turn`` of
``--seconds``, ``BOARD`` ... ``DONE``), and prints the move, the time to it, the last
depth and node count the brain's ``MESSAGE`` lines gave (``abgames pbrain``'s
``depth D ... nodes N`` and Rapfi's ``Depth D-S | ... | Node NK``) and nodes/s.
Rapfi's last line counts every node of the move; ``abgames pbrain``'s counts those of
its last finished depth (the search of the next, cut by the clock, is left out), so
its nodes/s here is low: the default run (no ``--peer``) counts every node.

    python benchmarks/gomoku_speed.py --peer "abgames pbrain" --peer pbrain-rapfi2022-st-ndebug
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import time

from abgames.games.gomoku import Rule

#: The depth and the node count in a brain's ``MESSAGE`` lines: ``abgames pbrain``'s
#: ``depth 7 score +934 nodes 191222 ...`` and Rapfi's ``Depth 17-32 | ... | Node 1243K``.
PEER_DEPTH = re.compile(r"\b[Dd]epth (\d+)")
PEER_NODES = re.compile(r"\b[Nn]odes? (\d+)(K?)\b")

#: Fixed quiet midgame positions (freestyle, 15x15), in Renju notation: piskvork
#: openings 7 to 11 moves on, from games of ``hard`` against Rapfi 2018, where neither
#: side has a win the search proves by depth 7 (the positions used before had become
#: forced wins that static wins and the leaf VCF resolve in a few hundred nodes).
POSITIONS = (
    "h8 i8 i5 h9 j6 j9 k7 l8 k5 g9",
    "h8 i7 h5 g7 j7 h6 i8 j8 g5 k6 i6 k8 k7 j5",
    "h8 i7 h5 h6 g5 f5 g7 f6 g6 g8 f7 i4 g4 g3",
    "h8 i8 k8 j7 h9 h10 j9 i10 i9 k9 j10 g7 f9 g9",
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


def fixed_depth(
    depth: int, repeat: int, rule: str = Rule.FREESTYLE.value, net: bool = False
) -> None:
    """Search every position to ``depth`` under ``rule`` and print node counts, answers
    and nodes/s."""
    from abgames.ai.gomoku.engine import EngineSettings, GomokuEngine
    from abgames.ai.gomoku.tables import S_NODES, S_VCF_NODES
    from abgames.games.gomoku import Gomoku
    from abgames.search.limit import Limit

    leaf = EngineSettings().leaf_vcf_depth  # hard's
    for title, leaf_vcf in (("with the leaf VCF", leaf), ("alpha-beta only (leaf VCF off)", 0)):
        settings = EngineSettings(
            root_vcf_depth=0,
            root_vct_depth=0,
            defence_vct_depth=0,
            leaf_vcf_depth=leaf_vcf,
            eval_net=net,
        )
        GomokuEngine(settings).solve(Gomoku.from_notation("h8"), depth=1)  # compile or load
        print(f"{title}, depth {depth}, {rule}{', learned evaluation' if net else ''}")
        total_nodes = 0
        total_time = 0.0
        for text in POSITIONS:
            state = Gomoku.from_notation(text, rule=rule)
            best_time = float("inf")
            for _ in range(repeat):
                engine = GomokuEngine(settings)  # fresh tables: the same work each run
                start = time.perf_counter()
                last = None
                for last in engine.search(state, Limit(depth=depth)):  # noqa: B007
                    pass
                best_time = min(best_time, time.perf_counter() - start)
                assert last is not None and engine.tables is not None
                stats = engine.tables.stats
                ab_nodes = int(stats[S_NODES])
                vcf_nodes = int(stats[S_VCF_NODES])
            assert last is not None
            nodes = ab_nodes + vcf_nodes
            total_nodes += nodes
            total_time += best_time
            move = state.format_move(last.move) if last.move is not None else "-"
            print(
                f"  {text[:28]:<30} {move:>4} {last.score:7d}  ab {ab_nodes:8d}  vcf {vcf_nodes:8d}"
                f"  {best_time:6.2f} s  {nodes / best_time:8.0f} nodes/s"
            )
        print(
            f"  total {total_nodes} nodes in {total_time:.2f} s, "
            f"{total_nodes / total_time:.0f} nodes/s (best of {repeat})"
        )


def peer_figures(chatter: list[str]) -> tuple[int, int]:
    """(depth, nodes) from the last ``MESSAGE`` lines that give them (0 if none)."""
    depth = nodes = 0
    for line in chatter:
        found = PEER_DEPTH.search(line)
        if found:
            depth = int(found.group(1))
        counted = PEER_NODES.search(line)
        if counted:
            nodes = int(counted.group(1)) * (1000 if counted.group(2) else 1)
    return depth, nodes


def peers(commands: list[str], seconds: float, rule: str) -> None:
    """Each position sent to each brain in ``commands`` at ``seconds`` a move."""
    from abgames.arena.engines import board_stones
    from abgames.arena.teacher import started_brain
    from abgames.games.gomoku import Gomoku
    from abgames.protocols.client import EngineError

    turn_ms = round(seconds * 1000)
    for command in commands:
        print(f"{command}, {turn_ms} ms a move, {rule}")
        total_nodes = 0
        total_time = 0.0
        for text in POSITIONS:
            state = Gomoku.from_notation(text, rule=rule)
            client = None
            try:
                client = started_brain(shlex.split(command), state.size, state.rule, turn_ms)
                start = time.perf_counter()
                x, y = client.board(board_stones(state), seconds + 5)
                used = time.perf_counter() - start
            except EngineError as error:
                print(f"  {text[:28]:<30} the brain failed: {error}")
                if client is not None:
                    client.kill()
                continue
            client.end()
            depth, nodes = peer_figures(client.chatter)
            move = state.format_move(state.point(x, y))
            total_nodes += nodes
            total_time += used
            print(
                f"  {text[:28]:<30} {move:>4} in {used:5.2f} s  depth {depth:2d}  {nodes:9d} nodes"
                f"  {nodes / used:9.0f} nodes/s"
            )
        if total_time > 0:
            print(f"  mean: {total_nodes / total_time:.0f} nodes/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--depth", type=int, default=0, help="fixed-depth counts instead")
    parser.add_argument("--repeat", type=int, default=1, help="timings per position (--depth)")
    parser.add_argument("--rule", choices=[r.value for r in Rule], default=Rule.FREESTYLE.value)
    parser.add_argument("--net", action="store_true", help="with the learned evaluation")
    parser.add_argument(
        "--peer", action="append", default=[], help="a Gomocup brain's command line (repeatable)"
    )
    args = parser.parse_args()
    if args.peer:
        peers(args.peer, args.seconds, args.rule)
        return
    if args.depth > 0:
        fixed_depth(args.depth, args.repeat, args.rule, args.net)
        return
    ready, move, depth = first_move()
    print(
        f"first move in a fresh process: engine ready (import + compile/load) in {ready:.2f} s, "
        f"then depth {depth} in {move:.2f} s"
    )
    from abgames.ai.gomoku.engine import EngineSettings, GomokuEngine
    from abgames.ai.gomoku.tables import S_NODES, S_VCF_NODES
    from abgames.games.gomoku import Gomoku
    from abgames.search.limit import Limit

    leaf = EngineSettings().leaf_vcf_depth  # hard's
    for title, leaf_vcf in (("with the leaf VCF", leaf), ("alpha-beta only (leaf VCF off)", 0)):
        print(f"{title}, {args.rule}{', learned evaluation' if args.net else ''}")
        engine = GomokuEngine(
            EngineSettings(
                root_vcf_depth=0,
                root_vct_depth=0,
                defence_vct_depth=0,
                leaf_vcf_depth=leaf_vcf,
                use_full_time=True,
                eval_net=args.net,
            )
        )
        total_nodes = 0
        total_time = 0.0
        for text in POSITIONS:
            state = Gomoku.from_notation(text, rule=args.rule)
            start = time.perf_counter()
            last = None
            for last in engine.search(state, Limit(time=args.seconds)):  # noqa: B007
                pass
            used = time.perf_counter() - start
            assert last is not None and engine.tables is not None
            # Every node searched, the last iteration's unfinished ones too (a result
            # counts the nodes up to its own depth).
            nodes = int(engine.tables.stats[S_NODES] + engine.tables.stats[S_VCF_NODES])
            total_nodes += nodes
            total_time += used
            print(f"  {text[:28]:<30} depth {last.depth:2d}  {nodes / used:9.0f} nodes/s")
        print(f"  mean: {total_nodes / total_time:.0f} nodes/s (2 shared cores; timings are noisy)")
    from abgames.ai.levels import make_player

    hard = make_player("gomoku", "hard")
    for text in POSITIONS:
        state = Gomoku.from_notation(text, rule=args.rule)
        start = time.perf_counter()
        result = hard.choose(state)
        print(
            f"hard answers {text[:28]:<30} in {time.perf_counter() - start:.2f} s "
            f"(depth {result.depth})"
        )


if __name__ == "__main__":
    main()
