"""Arena matches and the Connect Four book build on a Ray cluster (``abgames.cluster``).

One local cluster of two nodes (one CPU each, a small object store) is made for the
whole module: ``ray.cluster_utils.Cluster`` starts a head and a second raylet as
separate processes on this machine, which is what a multi-machine cluster looks
like to Ray. Each run connects to it as a driver, like ``--cluster HOST:PORT``.
The test that loses a cluster makes one of its own and kills its head. Without Ray
the tests that need a cluster are skipped; those of the paths without Ray still run.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from abgames import cluster as cluster_module
from abgames.ai.connect4.book_builder import build
from abgames.ai.connect4.level_builder import build_level
from abgames.arena import spsa
from abgames.arena.engines import EngineSpec, parse_engine_spec
from abgames.arena.judge import GameRecord
from abgames.arena.openings import random_openings
from abgames.arena.records import RecordWriter, read_records
from abgames.arena.runner import ArenaResult, ArenaSettings, EngineMissingError, run_arena
from abgames.arena.stats import Sprt
from abgames.arena.teacher import CLUSTER_BATCH, label_positions, load_labels
from abgames.cli import main
from abgames.cluster import INSTALL_HINT, Cluster, ClusterError, ClusterUnreachable

if TYPE_CHECKING:
    from ray.cluster_utils import Cluster as LocalTestCluster

#: Object store per node: small, the tasks pass a few kilobytes.
OBJECT_STORE_BYTES = 80 * 1024 * 1024
#: A late Connect Four position (18 discs) whose book builds in a second or two.
BOOK_ROOT = "527533114336774424"
#: Turn limit far above what the depth-limited levels need, so games do not depend on time.
GENEROUS_TURN_MS = 60_000
#: A game whose positions a teacher scores (``test_teacher_labels_made_on_the_cluster...``).
LABELLED_GAME = "h8 i8 i5 h9 j6 j9 k7 l8 k5 g9 l9 m10 e5 e6 c3 c4 n1 n2"
#: Nobody listens on port 1.
UNREACHABLE = "127.0.0.1:1"


def local_cluster(workers: int) -> LocalTestCluster:
    """A head of one CPU and ``workers`` more nodes of one CPU, on this machine."""
    cluster_utils = pytest.importorskip("ray.cluster_utils")
    cluster: Any = cluster_utils.Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "object_store_memory": OBJECT_STORE_BYTES,
            "include_dashboard": False,
        },
    )
    for _ in range(workers):
        cluster.add_node(num_cpus=1, object_store_memory=OBJECT_STORE_BYTES)
    cluster.wait_for_nodes()
    return cluster  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[LocalTestCluster]:
    cluster: Any = local_cluster(workers=1)
    yield cluster
    cluster.shutdown()


def specs(game: str, *texts: str) -> tuple[EngineSpec, ...]:
    return tuple(parse_engine_spec(t, game=game, turn_ms=GENEROUS_TURN_MS) for t in texts)


def game_settings(game: str, *engines: str, games: int, **extra: Any) -> ArenaSettings:
    return ArenaSettings(
        game=game,
        options={},
        engines=specs(game, *engines),
        games=games,
        openings=tuple(random_openings(game, {}, 2, (games + 1) // 2, seed=7)),
        seed=11,
        **extra,
    )


def games_of(records: list[GameRecord]) -> list[tuple[object, ...]]:
    """What must not depend on where a game was played, in game order."""
    return sorted(
        (r.index, r.players, r.opening, r.moves, r.result, r.winner, r.reason) for r in records
    )


def totals(result: ArenaResult) -> list[tuple[int, int, int]]:
    return [(p.tally.wins, p.tally.draws, p.tally.losses) for p in result.pairs]


def test_an_arena_on_the_cluster_plays_the_games_of_the_local_runner(
    ray_cluster: LocalTestCluster, tmp_path: Path
) -> None:
    for settings in (
        game_settings("tictactoe", "level=easy", "level=medium", games=4),
        game_settings("connect4", "level=easy", "level=medium", games=4),
    ):
        local = run_arena(settings)
        writer = RecordWriter(tmp_path / f"{settings.game}.jsonl")
        with Cluster(ray_cluster.address) as cluster:
            remote = run_arena(settings, writer, cluster=cluster)
        writer.close()
        assert games_of(remote.records) == games_of(local.records)
        assert totals(remote) == totals(local) and remote.cut_short is None
        written = read_records(tmp_path / f"{settings.game}.jsonl")
        assert sorted(int(str(g["game"])) for g in written) == list(range(4))


def test_a_tuning_run_on_the_cluster_moves_the_weights_as_the_local_run_does(
    ray_cluster: LocalTestCluster,
) -> None:
    # ``classic`` searches to a fixed depth: its games do not depend on where they run.
    params = [spsa.Param("attack.f3", 40.0, 30.0, 0.0, 1000.0),
              spsa.Param("defence.b4", 30.0, 20.0, 0.0, 1000.0)]  # fmt: skip
    match = spsa.Match(
        {"size": 9}, GENEROUS_TURN_MS, tuple(random_openings("gomoku", {"size": 9}, 2, 3, seed=5))
    )
    local = spsa.new_state("classic", params, steps=4, rate=0.5, seed=2)
    spsa.run(local, match, spsa.Runner(1), 2, lambda state: None)
    remote = spsa.new_state("classic", params, steps=4, rate=0.5, seed=2)
    with Cluster(ray_cluster.address) as cluster:
        spsa.run(remote, match, spsa.Runner(1, cluster), 2, lambda state: None)
    assert remote.games == local.games == 8
    assert local.theta != [40.0, 30.0]  # the games were not all split: the weights moved
    assert remote.theta == local.theta and remote.points_plus == local.points_plus


def test_an_sprt_stop_on_the_cluster_leaves_the_queued_games_unplayed(
    ray_cluster: LocalTestCluster,
) -> None:
    settings = game_settings(
        "tictactoe", "level=perfect", "level=easy", games=200, sprt=Sprt(0, 400, 0.1, 0.1)
    )
    with Cluster(ray_cluster.address) as cluster:
        result = run_arena(settings, cluster=cluster)
    assert result.sprt_decision in ("H0", "H1")
    assert len(result.records) < 200
    assert len({r.index for r in result.records}) == len(result.records)


def test_a_worker_killed_mid_job_is_run_again_and_counted_once(
    ray_cluster: LocalTestCluster, tmp_path: Path
) -> None:
    """Job 0's first run writes its process id and waits to be killed; the test kills it
    (no race: the job is running until then) and Ray runs it again elsewhere. Every
    job is yielded once, with its result. (The games a cluster plays are those of the
    local runner: ``test_an_arena_on_the_cluster_plays_the_games_of_the_local_runner``.)
    """
    marker = tmp_path / "job-0.pid"

    def job(key: int) -> int:  # pickled by value: a nested function
        if key == 0 and not marker.exists():
            marker.write_text(str(os.getpid()))
            time.sleep(600)  # until killed
        return key * key

    yielded: list[tuple[int, int]] = []
    errors: list[BaseException] = []

    def consume() -> None:
        try:
            with Cluster(ray_cluster.address) as cluster:
                yielded.extend(cluster.stream(job, ((key, (key,)) for key in range(6))))
        except BaseException as error:  # reported by the test thread
            errors.append(error)

    runner = threading.Thread(target=consume, daemon=True)
    runner.start()
    for _ in range(1200):  # the job starts within seconds; a guard, not a measure
        if marker.exists() and marker.read_text():
            break
        time.sleep(0.05)
    pid = int(marker.read_text())
    os.kill(pid, signal.SIGKILL)
    runner.join(timeout=300)
    assert not runner.is_alive() and not errors, errors
    assert sorted(yielded) == [(key, key * key) for key in range(6)]


def test_a_cluster_lost_mid_match_keeps_the_games_played_and_counts_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cluster of its own whose head (its GCS server) is killed once a game is in."""
    monkeypatch.setattr(cluster_module, "RESOURCES_REFRESH_S", 0.0)
    monkeypatch.setattr(cluster_module, "HEAD_LOST_AFTER_S", 0.0)
    doomed: Any = local_cluster(workers=0)
    try:
        head = doomed.address
        settings = game_settings("connect4", "level=easy", "level=medium", games=8)
        writer = RecordWriter(tmp_path / "r.jsonl")

        def kill_the_head(result: ArenaResult, pair: object) -> None:
            if len(result.records) == 1:
                doomed.head_node.kill_gcs_server()

        with Cluster(head) as cluster:
            result = run_arena(settings, writer, kill_the_head, cluster=cluster)
        writer.close()
    finally:
        doomed.shutdown()
    played = len(result.records)
    assert 1 <= played < 8 and len(read_records(tmp_path / "r.jsonl")) == played
    assert result.cut_short is not None
    assert f"its head at {head} stopped answering" in result.cut_short
    assert result.cut_short.endswith(f"{8 - played} game(s) not played")


def test_a_book_built_on_the_cluster_is_the_local_book(
    ray_cluster: LocalTestCluster, tmp_path: Path
) -> None:
    local = build(
        root=BOOK_ROOT,
        plies=3,
        work_dir=tmp_path / "local",
        output=tmp_path / "local.bin",
        table_bits=18,
        log=lambda _: None,
    )
    with Cluster(ray_cluster.address) as cluster:
        remote = build(
            root=BOOK_ROOT,
            plies=3,
            work_dir=tmp_path / "remote",
            output=tmp_path / "remote.bin",
            table_bits=18,
            log=lambda _: None,
            cluster=cluster,
        )
    assert len(local) > 10
    assert list(remote.keys) == list(local.keys)
    assert list(remote.scores) == list(local.scores)
    assert remote.max_moves == local.max_moves
    lines = (tmp_path / "remote" / "solved.txt").read_text().splitlines()
    assert len(lines) == len({line.split()[0] for line in lines})  # each position once


def test_a_level_built_on_the_cluster_is_the_local_level(
    ray_cluster: LocalTestCluster, tmp_path: Path
) -> None:
    local = build_level(
        discs=12, output=tmp_path / "local.bin", table_bits=18, max_slots=300, log=lambda _: None
    )
    with Cluster(ray_cluster.address) as cluster:
        remote = build_level(
            discs=12,
            output=tmp_path / "remote.bin",
            table_bits=18,
            max_slots=300,
            log=lambda _: None,
            cluster=cluster,
        )
    assert local.counts()[0] > 100
    assert np.array_equal(remote.scores, local.scores)


def test_teacher_labels_made_on_the_cluster_are_the_local_ones(
    ray_cluster: LocalTestCluster, tmp_path: Path
) -> None:
    brain = [sys.executable, str(Path(__file__).parent / "engines" / "random_brain.py"), "--scores"]
    # More positions than one task's batch, one of them not quiet (never sent).
    game = LABELLED_GAME.split()
    positions = [" ".join(game[:ply]) for ply in range(8, 19)] + ["h8 a1 i8 a3 j8 a5"]
    positions += [f"{moves} a15 o15" for moves in positions[:10]]
    local = label_positions(brain, positions, tmp_path / "local.jsonl", turn_ms=200)
    with Cluster(ray_cluster.address) as cluster:
        remote = label_positions(
            brain, positions, tmp_path / "remote.jsonl", turn_ms=200, cluster=cluster
        )
    assert len(positions) > CLUSTER_BATCH
    assert (remote.labelled, remote.skipped_loud) == (local.labelled, local.skipped_loud)
    assert remote.labelled >= 10 and remote.failures == 0
    scored = {label.moves: label.score for label in load_labels(tmp_path / "remote.jsonl")}
    assert scored == {label.moves: label.score for label in load_labels(tmp_path / "local.jsonl")}
    with Cluster(ray_cluster.address) as cluster:
        again = label_positions(
            brain, positions, tmp_path / "remote.jsonl", turn_ms=200, cluster=cluster
        )
    assert again.labelled == 0  # resumed: nothing left to score


def test_a_missing_external_engine_is_named_once_per_node(ray_cluster: LocalTestCluster) -> None:
    settings = ArenaSettings(
        game="gomoku",
        options={"size": 9},
        engines=(
            parse_engine_spec("level=easy", game="gomoku", turn_ms=1000),
            parse_engine_spec("cmd=/nowhere/pbrain-x,name=x", game="gomoku", turn_ms=1000),
        ),
        games=4,
    )
    with Cluster(ray_cluster.address) as cluster, pytest.raises(EngineMissingError) as caught:
        run_arena(settings, cluster=cluster)
    message = str(caught.value)
    assert message.count("'/nowhere/pbrain-x' not found on node") == 2
    assert "installed on every worker" in message


@pytest.mark.parametrize("with_ray", [True, False])
def test_an_unreachable_cluster_is_a_message_and_a_failing_exit(
    with_ray: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Said before Ray is needed: the same without Ray installed."""
    if with_ray:
        pytest.importorskip("ray")
    else:
        monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` fails
    with pytest.raises(ClusterUnreachable, match=f"no Ray cluster answers at {UNREACHABLE}"):
        Cluster(UNREACHABLE, connect_timeout_s=1).__enter__()
    base = ["--cluster", UNREACHABLE]
    arena = ["arena", "tictactoe", "--engine", "level=easy", "--engine", "level=hard"]
    assert main([*arena, "--records", str(tmp_path / "r.jsonl"), *base]) == 2
    book = ["book", "connect4", "--work", str(tmp_path / "w"), "--output", str(tmp_path / "b")]
    assert main([*book, *base]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in errors] == ["abgames arena", "abgames book"]
    assert all(f"no Ray cluster answers at {UNREACHABLE}" in line for line in errors)


def test_without_ray_the_cluster_option_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ClusterError, match=INSTALL_HINT.replace("[", r"\[").replace("]", r"\]")):
        Cluster().__enter__()
