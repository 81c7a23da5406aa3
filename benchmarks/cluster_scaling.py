"""The same arena and the same book slice on 1 process, 2 processes and a 2-node Ray cluster.

Usage: python benchmarks/cluster_scaling.py [--games 40] [--a hard] [--b medium]
       [--book-root MOVES] [--book-plies 3] [--tasks 200] [--skip-arena] [--skip-book]

Prints, for each way of running: wall time and games (or positions) per second,
and Ray's overhead per task (the round trip of an empty task through
``Cluster.stream``). The Ray cluster is two local nodes of one CPU each
(``ray.cluster_utils.Cluster``, each its own raylet), joined as a driver the way
``--cluster HOST:PORT`` joins a real one; its start-up time is printed apart.
Connect Four levels are depth-limited, so every run plays the same games; the
script checks that the three ways agree.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from abgames.ai.connect4.book_builder import build
from abgames.arena.engines import parse_engine_spec
from abgames.arena.openings import random_openings
from abgames.arena.runner import ArenaSettings, run_arena
from abgames.cluster import Cluster

#: A Connect Four position of 14 discs: its book slice has positions of every size.
DEFAULT_BOOK_ROOT = "52753311433677"
#: Far above what the depth-limited levels need: the games never depend on time.
TURN_MS = 120_000
OBJECT_STORE_BYTES = 80 * 1024 * 1024
TABLE_BITS = 22


def arena_settings(games: int, a: str, b: str, concurrency: int) -> ArenaSettings:
    engines = tuple(
        parse_engine_spec(f"level={level},name={name}", game="connect4", turn_ms=TURN_MS)
        for level, name in ((a, "a"), (b, "b"))
    )
    return ArenaSettings(
        game="connect4",
        options={},
        engines=engines,
        games=games,
        openings=tuple(random_openings("connect4", {}, 2, (games + 1) // 2, seed=1)),
        concurrency=concurrency,
        seed=1,
    )


def row(label: str, seconds: float, count: int, unit: str) -> None:
    print(f"  {label:<28} {seconds:8.1f} s  {count / seconds:8.2f} {unit}/s", flush=True)


def timed(run: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = run()
    return time.perf_counter() - start, value


def ping(value: int) -> int:
    return value


def overhead_per_task(cluster: Cluster, tasks: int) -> float:
    """Seconds per empty task, with as many in flight as the cluster has CPUs."""
    list(cluster.stream(ping, ((i, (i,)) for i in range(10))))  # workers up
    seconds, _ = timed(lambda: list(cluster.stream(ping, ((i, (i,)) for i in range(tasks)))))
    return seconds / tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--a", default="hard")
    parser.add_argument("--b", default="medium")
    parser.add_argument("--book-root", default=DEFAULT_BOOK_ROOT)
    parser.add_argument("--book-plies", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=200, help="empty tasks for the overhead")
    parser.add_argument("--skip-arena", action="store_true")
    parser.add_argument("--skip-book", action="store_true")
    args = parser.parse_args()

    from ray.cluster_utils import Cluster as LocalCluster

    start = time.perf_counter()
    local_cluster: Any = LocalCluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "object_store_memory": OBJECT_STORE_BYTES},
    )
    local_cluster.add_node(num_cpus=1, object_store_memory=OBJECT_STORE_BYTES)
    local_cluster.wait_for_nodes()
    print(f"Ray: 2 local nodes of 1 CPU started in {time.perf_counter() - start:.1f} s")
    try:
        with Cluster(local_cluster.address) as cluster:
            print(f"Ray overhead: {1000 * overhead_per_task(cluster, args.tasks):.1f} ms a task")
        if not args.skip_arena:
            print(f"Arena: {args.games} Connect Four games, {args.a} vs {args.b}")
            outcomes = []
            for label, concurrency in (("1 process", 1), ("2 processes", 2)):
                settings = arena_settings(args.games, args.a, args.b, concurrency)
                seconds, result = timed(lambda s=settings: run_arena(s))  # type: ignore[misc]
                row(label, seconds, args.games, "games")
                outcomes.append(sorted((r.index, r.moves) for r in result.records))
            settings = arena_settings(args.games, args.a, args.b, 1)
            with Cluster(local_cluster.address) as cluster:
                seconds, result = timed(lambda: run_arena(settings, cluster=cluster))
            row("Ray, 2 nodes x 1 CPU", seconds, args.games, "games")
            outcomes.append(sorted((r.index, r.moves) for r in result.records))
            print(f"  same games everywhere: {all(o == outcomes[0] for o in outcomes)}")
        if not args.skip_book:
            print(f"Book: root {args.book_root}, {args.book_plies} plies")
            books = []
            for label, jobs, use_ray in (
                ("1 process", 1, False),
                ("2 processes", 2, False),
                ("Ray, 2 nodes x 1 CPU", 1, True),
            ):
                with tempfile.TemporaryDirectory() as folder:
                    work = Path(folder)

                    def make(cluster: Cluster | None, jobs: int = jobs, work: Path = work) -> Any:
                        return build(
                            root=args.book_root,
                            plies=args.book_plies,
                            work_dir=work,
                            output=work / "book.bin",
                            jobs=jobs,
                            table_bits=TABLE_BITS,
                            log=lambda _: None,
                            cluster=cluster,
                        )

                    if use_ray:
                        with Cluster(local_cluster.address) as cluster:
                            seconds, book = timed(lambda: make(cluster))
                    else:
                        seconds, book = timed(lambda: make(None))
                    positions = len((work / "solved.txt").read_text().splitlines())
                row(label, seconds, positions, "positions")
                books.append((list(book.keys), list(book.scores)))
            same = all(b == books[0] for b in books)
            print(f"  {positions} positions; same book everywhere: {same}")
    finally:
        local_cluster.shutdown()


if __name__ == "__main__":
    main()
