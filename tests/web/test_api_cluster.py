"""The web app's searches on a Ray cluster (``abgames web --cluster``, ``cluster_workers.py``).

One local cluster of two nodes (one CPU each) and one server on it, with two search
workers (one actor on each node), serve the whole module: ``ray.cluster_utils.Cluster``
starts a head and a second raylet as separate processes, which is what two machines
look like to Ray. The server joins it as a driver, like ``abgames web --cluster
HOST:PORT``. The slow stand-in player (``api_support``) makes searches last until
"move now"; the test that kills a node comes last, and puts a node back.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_support import SLOW_LEVEL, WAIT_S, live_server, read_events
from fastapi import FastAPI
from server_support import free_port

from abgames.cli import main
from abgames.cluster import Cluster, HostFailed, HostGone
from abgames.ui.web.cluster_workers import RayWorker
from abgames.ui.web.pool import SearchPool

ray = pytest.importorskip("ray", reason="the cluster extra (Ray) is not installed")
from ray.cluster_utils import Cluster as LocalTestCluster  # noqa: E402

#: Object store per node: small, the actors pass a few kilobytes.
OBJECT_STORE_BYTES = 80 * 1024 * 1024
WORKERS = 2
#: Starting actors on a busy 2-core machine: a correctness bound, not a timing claim.
START_S = 120.0
#: Tries to take the cluster down while a stopping server's thread may still reconnect.
TEARDOWN_ATTEMPTS = 5


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[LocalTestCluster]:
    # The actors import the stand-in player from this directory and the test support
    # modules it imports from tests/, as the tests do.
    here = Path(__file__).parent
    paths = [str(here), str(here.parent), os.environ.get("PYTHONPATH")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, paths)))
        cluster: Any = LocalTestCluster(
            initialize_head=True,
            head_node_args={
                "num_cpus": 1,
                "object_store_memory": OBJECT_STORE_BYTES,
                "include_dashboard": False,
            },
        )
        cluster.add_node(num_cpus=1, object_store_memory=OBJECT_STORE_BYTES)
        cluster.wait_for_nodes()
        yield cluster  # (a node added later inherits the path too)
        # The server's connection to the head is closed by its lifespan; a server that
        # did not finish stopping in time (a loaded machine) leaves it open, or one of
        # its threads calls Ray late and Ray connects it again by itself; Ray refuses
        # to remove a node a driver is connected to. So: disconnect, and again if need be.
        for attempt in range(TEARDOWN_ATTEMPTS):
            ray.shutdown()
            try:
                cluster.shutdown()
                break
            except ValueError:  # "Removing a node that is connected to this Ray client"
                if attempt == TEARDOWN_ATTEMPTS - 1:
                    raise
                time.sleep(1.0)


@pytest.fixture(scope="module")
def server(
    ray_cluster: LocalTestCluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, FastAPI]]:
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    with live_server(
        db, workers=WORKERS, max_running_per_client=WORKERS, cluster=ray_cluster.address
    ) as (base, app):
        wait_until(lambda: pool_of(app).ready == WORKERS, "the actors did not start", START_S)
        yield base, app


@pytest.fixture
def http(server: tuple[str, FastAPI]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server[0], timeout=WAIT_S) as client:
        yield client


def pool_of(app: FastAPI) -> SearchPool:
    pool: SearchPool = app.state.service.pool
    return pool


def wait_until(condition: Any, what: str, limit_s: float = WAIT_S) -> None:
    deadline = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def new_game(http: httpx.Client, **body: Any) -> tuple[str, dict[str, str]]:
    created = http.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    data = created.json()
    return f"/api/games/{data['id']}", {"X-Game-Secret": data["secret"]}


def state_of(http: httpx.Client, game: str, headers: dict[str, str]) -> dict[str, Any]:
    state: dict[str, Any] = http.get(game, headers=headers).json()
    return state


def wait_status(
    http: httpx.Client, game: str, headers: dict[str, str], status: str
) -> dict[str, Any]:
    found: list[dict[str, Any]] = []

    def reached() -> bool:
        found[:] = [state_of(http, game, headers)]
        return bool(found[0]["status"] == status)

    wait_until(reached, f"{game} is not {status!r}")
    return found[0]


def worker_of(app: FastAPI, game: str) -> RayWorker:
    """The actor running ``game``'s search (waits until one does)."""
    key = game.rsplit("/", 1)[1]
    pool = pool_of(app)
    running: list[RayWorker] = []

    def found() -> bool:
        job = pool.job_of(key)
        running[:] = [
            w
            for w in pool._workers
            if isinstance(w, RayWorker) and w.job is not None and w.job is job
        ]
        return bool(running)

    wait_until(found, f"no actor runs {game}'s search")
    return running[0]


class Echo:
    """A hosted object for ``Cluster.host`` (the actors import this module too)."""

    def count(self, n: int) -> Iterator[int]:
        yield from range(n)

    def forever(self) -> Iterator[int]:
        n = 0
        while True:
            yield n
            n += 1
            time.sleep(0.02)

    def fail(self) -> None:
        raise ValueError("no such thing")


def test_a_hosted_object_streams_and_its_death_is_told_from_its_errors(
    ray_cluster: LocalTestCluster,
) -> None:
    with Cluster(ray_cluster.address) as cluster:
        hosted = cluster.host(f"{__name__}:Echo")
        assert hosted.placement().node_id in {node.node_id for node in cluster.nodes()}
        assert list(hosted.stream("count", 3)) == [0, 1, 2]
        with pytest.raises(HostFailed, match="ValueError"):
            hosted.call("fail")
        assert list(hosted.stream("count", 1)) == [0]  # an error leaves the actor alive
        stream = hosted.stream("forever")
        assert [next(stream), next(stream)] == [0, 1]
        hosted.kill()
        with pytest.raises(HostGone):
            list(stream)
        with pytest.raises(HostGone):
            hosted.wait_closed()


def test_a_cluster_not_there_is_one_line_and_exit_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["web", "--cluster", "127.0.0.1:1", "--port", str(free_port())]
    assert main([*args, "--db", str(tmp_path / "g.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("abgames web: no Ray cluster answers at 127.0.0.1:1 (")
    assert err.count("\n") == 1


def test_health_says_the_workers_are_actors_on_the_cluster(
    http: httpx.Client, ray_cluster: LocalTestCluster, server: tuple[str, FastAPI]
) -> None:
    health = http.get("/api/health").json()
    assert health["workers"] == WORKERS and health["ready"] == WORKERS
    assert health["workers_on"].startswith("cluster ")
    nodes = {w.placement.node_id for w in pool_of(server[1])._workers if w.placement}  # type: ignore[attr-defined]
    assert len(nodes) == 2  # one CPU a node, one actor a CPU


def test_a_game_is_played_to_the_end_with_progress_events(http: httpx.Client) -> None:
    game, headers = new_game(http, game="tictactoe", level="perfect")
    kinds: list[str] = []
    with http.stream("GET", f"{game}/events", headers=headers) as response:
        for kind, data in read_events(response):
            kinds.append(kind)
            if kind != "state":
                continue
            if data["status"] == "over":
                break
            if data["status"] == "your-turn":
                answer = http.post(
                    f"{game}/moves", json={"move": data["legal"][0]}, headers=headers
                )
                assert answer.status_code == 200, answer.text
    final = state_of(http, game, headers)
    assert final["status"] == "over" and len(final["moves"]) >= 5
    assert all(move["move"] is not None for move in final["moves"])
    assert "progress" in kinds  # every completed depth of the actor's search


def test_move_now_answers_with_the_best_move_so_far(
    http: httpx.Client, server: tuple[str, FastAPI]
) -> None:
    game, headers = new_game(http, game="tictactoe", level=SLOW_LEVEL, first="ai")
    worker_of(server[1], game)
    time.sleep(0.2)  # a few depths streamed
    assert state_of(http, game, headers)["status"] == "thinking"
    assert http.post(f"{game}/move-now", headers=headers).status_code == 200
    state = wait_status(http, game, headers, "your-turn")  # 30 s without "move now"
    assert state["moves"] == [{"move": 0, "text": "a3"}]  # the top-left cell


def test_undo_while_the_ai_thinks_cancels_its_search(
    http: httpx.Client, server: tuple[str, FastAPI]
) -> None:
    pool = pool_of(server[1])
    games = [new_game(http, game="tictactoe", level=SLOW_LEVEL) for _ in range(WORKERS)]
    for game, headers in games:
        http.post(f"{game}/moves", json={"move": "b2"}, headers=headers)
        worker_of(server[1], game)
    assert pool.running == WORKERS  # every actor searches, until the undos
    for game, headers in games:
        state = http.post(f"{game}/undo", headers=headers).json()
        assert state["moves"] == [] and state["status"] == "your-turn"
    wait_until(lambda: pool.running == 0, "a cancelled search still holds its actor")
    other, other_headers = new_game(http, game="tictactoe", level="perfect")
    http.post(f"{other}/moves", json={"move": "a1"}, headers=other_headers)
    assert len(wait_status(http, other, other_headers, "your-turn")["moves"]) == 2
    for game, headers in games:
        assert state_of(http, game, headers)["moves"] == []  # nothing played late


def test_a_node_lost_mid_search_gets_the_search_run_again_on_another(
    http: httpx.Client, ray_cluster: LocalTestCluster, server: tuple[str, FastAPI]
) -> None:
    app = server[1]
    pool = pool_of(app)
    retried = pool.retried
    games = [new_game(http, game="tictactoe", level=SLOW_LEVEL, first="ai") for _ in range(2)]
    workers = [worker_of(app, game) for game, _ in games]
    nodes: Any = ray_cluster
    head_id = nodes.head_node.node_id
    (lost,) = [i for i, w in enumerate(workers) if w.placement and w.placement.node_id != head_id]
    kept = 1 - lost
    (node,) = nodes.worker_nodes
    nodes.remove_node(node)
    wait_until(lambda: pool.retried == retried + 1, "the lost search was not started again")
    lost_game, lost_headers = games[lost]
    assert state_of(http, lost_game, lost_headers)["moves"] == []
    # The head's actor is busy with the other game: "move now" there frees it.
    kept_game, kept_headers = games[kept]
    http.post(f"{kept_game}/move-now", headers=kept_headers)
    assert len(wait_status(http, kept_game, kept_headers, "your-turn")["moves"]) == 1
    again = worker_of(app, lost_game)
    assert again.placement is not None and again.placement.node_id == head_id
    assert state_of(http, lost_game, lost_headers)["status"] == "thinking"
    http.post(f"{lost_game}/move-now", headers=lost_headers)
    assert len(wait_status(http, lost_game, lost_headers, "your-turn")["moves"]) == 1
    # A node that joins gets the actor the pool asked for in place of the lost one.
    ray_cluster.add_node(num_cpus=1, object_store_memory=OBJECT_STORE_BYTES)
    wait_until(lambda: pool.ready == WORKERS, "no actor replaced the lost one", START_S)
