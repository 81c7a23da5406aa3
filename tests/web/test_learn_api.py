"""The /api/learn routes through the app: positions, traces, the experiment, bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_support import SLOW_LEVEL, create, wait_for
from api_support import client as client_of
from fastapi.testclient import TestClient

from abgames.cli import main as cli_main
from abgames.games.gomoku import Gomoku, Rule
from abgames.match import new_state
from abgames.ui.web import learn_work
from abgames.ui.web.app import WebSettings, create_app
from abgames.ui.web.ratelimit import RateLimits


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # With its lifespan: traces and experiments run in the search pool's worker.
    settings = WebSettings(
        db_path=tmp_path_factory.mktemp("learn") / "games.db",
        warm=False,
        workers=1,
        allowed_hosts=("testserver",),
        rate_limits=RateLimits(enabled=False),  # one client asks for everything here
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_meta_lists_games_methods_and_caps(client: TestClient) -> None:
    meta = client.get("/api/learn/meta").json()
    assert set(meta["games"]) == {"tictactoe", "connect4", "gomoku", "textbook"}
    gomoku = meta["games"]["gomoku"]["option_choices"]
    assert (gomoku["size"]["min"], gomoku["size"]["max"]) == (5, 22)
    assert gomoku["rule"]["choices"] == ["freestyle", "standard", "renju"]
    assert meta["games"]["textbook"]["trace_depth"] == {"min": 2, "max": 2, "default": 2}
    assert [m["key"] for m in meta["methods"]] == [
        "minimax",
        "alphabeta",
        "ordering",
        "tt",
        "deepening",
    ]
    assert meta["max_nodes"]["max"] >= meta["max_nodes"]["default"]


def test_the_command_line_and_the_page_share_their_teaching_defaults(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same request without a depth or a node cap gives the same figures either way.
    meta = client.get("/api/learn/meta").json()
    for game, moves in (("connect4", ["4", "4"]), ("tictactoe", ["b2", "a3"])):
        assert cli_main(["experiment", "pruning", game, *moves, "--json"]) == 0
        from_cli = json.loads(capsys.readouterr().out)
        body = {"game": game, "moves": moves}
        from_page = client.post("/api/learn/experiment", json=body).json()
        default = meta["games"][game]["experiment_depth"]["default"]
        assert from_page["depth"] == from_cli["depth"] == default, game
        nodes = [[row["nodes"] for row in figures["rows"]] for figures in (from_page, from_cli)]
        assert nodes[0] == nodes[1], game
    assert cli_main(["experiment", "trace", "connect4", "--format", "json"]) == 0
    from_cli = json.loads(capsys.readouterr().out)
    from_page = client.post("/api/learn/trace", json={"game": "connect4"}).json()["trace"]
    assert from_page["max_nodes"] == from_cli["max_nodes"] == meta["max_nodes"]["default"]


def test_position_gives_cells_and_click_targets(client: TestClient) -> None:
    answer = client.post("/api/learn/position", json={"game": "connect4", "moves": [3, "4"]})
    assert answer.status_code == 200
    position = answer.json()
    board = position["board"]
    assert (board["width"], board["height"]) == (7, 6)
    assert board["cells"][5 * 7 + 3] == 0 and board["cells"][4 * 7 + 3] == 1
    column = next(m for m in position["legal"] if m["move"] == 3)
    assert column["text"] == "4" and len(column["cells"]) == 6
    assert position["notation"] == "44"


def test_trace_of_tic_tac_toe(client: TestClient) -> None:
    body = {"game": "tictactoe", "moves": ["b2", "a3"], "method": "alphabeta", "depth": 3}
    answer = client.post("/api/learn/trace", json=body)
    assert answer.status_code == 200
    trace = answer.json()["trace"]
    assert trace["counters"]["nodes"] == 126 and trace["value"] == 12
    assert not trace["truncated"]
    cut = next(e for e in trace["events"] if e["type"] == "cut")
    assert "will not let the game come here" in cut["reason"]
    by_id = {node["id"]: node for node in trace["nodes"]}
    first = by_id[trace["roots"][0]]
    assert first["cell"] is None and by_id[first["children"][0]]["cell"] == 1  # b3


def test_the_textbook_tree_prunes_leaves_4_and_6(client: TestClient) -> None:
    position = client.post("/api/learn/position", json={"game": "textbook"}).json()
    assert position["board"] is None and position["legal"] == []
    leaves = [[leaf["value"] for leaf in n["leaves"]] for n in position["tree"]["min_nodes"]]
    assert leaves == [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    traces = {
        method: client.post(
            "/api/learn/trace", json={"game": "textbook", "method": method, "depth": 2}
        ).json()["trace"]
        for method in ("alphabeta", "minimax")
    }
    for trace in traces.values():
        by_text = {node["text"]: node for node in trace["nodes"]}
        assert trace["value"] == 3
        assert [by_text[m]["value"] for m in ("a1", "a2", "a3")] == [3, 2, 2]
    alphabeta = traces["alphabeta"]
    pruned = {n["text"] for n in alphabeta["nodes"] if n["kind"] == "pruned"}
    assert pruned == {"c2", "c3"}  # the leaves worth 4 and 6
    cut = next(e for e in alphabeta["events"] if e["type"] == "cut")
    assert "MAX will not let the game come here" in cut["reason"]
    minimax_leaves = [n for n in traces["minimax"]["nodes"] if n["kind"] == "leaf"]
    assert [n["value"] for n in minimax_leaves] == [3, 12, 8, 2, 4, 6, 14, 5, 2]
    figures = client.post("/api/learn/experiment", json={"game": "textbook"}).json()
    assert [row["nodes"] for row in figures["rows"]][:2] == [13, 11]


#: Black (to move) has b4 c4 and d2 d3 on a 7x7 board: d4 makes two open threes, its best
#: move in freestyle and a forbidden double three in Renju.
DOUBLE_THREE = ["b4", "g7", "c4", "g6", "d2", "a1", "d3", "a7"]


def _root_children(trace: dict[str, Any]) -> dict[str, int]:
    return {node["text"]: node["value"] for node in trace["nodes"] if node["parent"] == 0}


def test_a_small_renju_board(client: TestClient) -> None:
    """The trace on a 7x7 Renju board keeps to the Renju rules and backs up its leaves."""
    body = {"game": "gomoku", "options": {"size": 7, "rule": "renju"}, "moves": DOUBLE_THREE}
    position = client.post("/api/learn/position", json=body).json()
    assert position["options"] == {"size": 7, "rule": "renju"}
    assert (position["board"]["width"], len(position["board"]["cells"])) == (7, 49)
    state = Gomoku(size=7, rule=Rule.RENJU)
    for move in DOUBLE_THREE:
        state.play(state.parse_move(move))
    assert state.forbidden_kind(state.parse_move("d4")) is not None
    renju = client.post("/api/learn/trace", json={**body, "depth": 1}).json()["trace"]
    freestyle_body = {**body, "options": {"size": 7, "rule": "freestyle"}}
    freestyle = client.post("/api/learn/trace", json={**freestyle_body, "depth": 1}).json()
    for trace in (renju, freestyle["trace"]):
        children = _root_children(trace)
        assert not trace["truncated"] and len(children) > 1
        # Black is MAX at the root of a depth-1 tree: the root takes its best child's value.
        assert trace["max_player"] == 0 and trace["value"] == max(children.values())
    assert "d4" in _root_children(freestyle["trace"])
    assert "d4" not in _root_children(renju)


def test_trace_cap_is_reported(client: TestClient) -> None:
    body = {"game": "connect4", "method": "minimax", "depth": 6, "max_nodes": 100}
    trace = client.post("/api/learn/trace", json=body).json()["trace"]
    assert trace["truncated"] and "100 nodes" in trace["truncated_reason"]
    # Connect Four cells: the first disc in column 4 lands on the bottom row.
    assert trace["nodes"][1]["cell"] == 5 * 7 + trace["nodes"][1]["move"]


def test_experiment_figures(client: TestClient) -> None:
    body = {"game": "tictactoe", "moves": [4, 0], "depth": 9}
    figures = client.post("/api/learn/experiment", json=body).json()
    assert figures["agree"] is True
    assert [row["nodes"] for row in figures["rows"]][:2] == [6812, 832]


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/learn/trace", {"game": "chess"}, "unknown game 'chess'"),
        ("/api/learn/trace", {"game": "tictactoe", "moves": ["b2", "b2"]}, "move 2 (b2)"),
        ("/api/learn/trace", {"game": "tictactoe", "method": "best"}, "unknown method"),
        ("/api/learn/trace", {"game": "tictactoe", "depth": 12}, "depth must be 1..9"),
        ("/api/learn/trace", {"game": "tictactoe", "max_nodes": 10**6}, "max_nodes must be"),
        ("/api/learn/trace", {"game": "gomoku", "options": {"size": 99}}, "5..22"),
        ("/api/learn/trace", {"game": "gomoku", "options": {"rule": "pente"}}, "choose freestyle"),
        ("/api/learn/trace", {"game": "connect4", "options": {"width": 12}}, "4..9 columns"),
        ("/api/learn/trace", {"game": "textbook", "depth": 3}, "depth must be 2"),
        ("/api/learn/trace", {"game": "textbook", "moves": ["a1"]}, "from its root"),
        (
            "/api/learn/trace",
            {"game": "tictactoe", "moves": ["a1", "b1", "a2", "b2", "a3"]},
            "the game is over",
        ),
        ("/api/learn/experiment", {"game": "connect4", "depth": 7}, "depth must be 1..6"),
        ("/api/learn/position", {"game": "connect4", "options": {"width": "7"}}, "a number"),
    ],
)
def test_bad_input_is_a_clear_400(
    client: TestClient, path: str, body: dict[str, object], words: str
) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"]


def test_schema_errors_are_422_with_a_message(client: TestClient) -> None:
    answer = client.post("/api/learn/trace", json={"game": "tictactoe", "moves": [[1]]})
    assert answer.status_code == 422 and "error" in answer.json()


def test_learn_searches_wait_in_the_pool_and_a_full_pool_is_429(tmp_path: Path) -> None:
    small = {"game": "tictactoe", "depth": 1}
    # One worker, no queue: while a game's search holds the worker, a trace cannot run.
    with client_of(tmp_path / "games.db", max_queue=0) as c:
        game_id, headers, _ = create(c, game="tictactoe", level=SLOW_LEVEL, first="ai")
        answer = c.post("/api/learn/trace", json=small)
        assert answer.status_code == 429 and int(answer.headers["Retry-After"]) > 0
        assert "busy" in answer.json()["error"]
        c.post(f"/api/games/{game_id}/move-now", headers=headers)
        wait_for(c, game_id, headers)
        assert c.post("/api/learn/trace", json=small).status_code == 200


def test_traces_and_experiments_run_in_the_search_pool(client: TestClient) -> None:
    pool = client.app.state.service.pool  # type: ignore[attr-defined]
    before = pool.started
    assert client.post("/api/learn/trace", json={"game": "tictactoe", "depth": 2}).is_success
    assert client.post("/api/learn/experiment", json={"game": "connect4", "depth": 2}).is_success
    assert pool.started == before + 2
    assert client.post("/api/learn/position", json={"game": "connect4"}).is_success
    assert pool.started == before + 2  # a position is answered at once


def test_an_experiment_far_too_big_is_refused_before_it_runs(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert learn_work.estimate_experiment_nodes(new_state("connect4"), 5) == 19608
    assert learn_work.estimate_experiment_nodes(new_state("tictactoe"), 9) == 986410
    # Connect Four 7x6 to depth 5 is about 19,600 positions: over twice a cap of 5,000.
    monkeypatch.setattr(learn_work, "MAX_EXPERIMENT_NODES", 5000)
    body = {"game": "connect4", "depth": 5}
    answer = client.post("/api/learn/experiment", json=body)
    assert answer.status_code == 400
    assert "estimated before searching" in answer.json()["error"]
    assert client.app.state.service.pool.job_of("learn") is None  # type: ignore[attr-defined]
    # Within the estimate's margin it runs (tic-tac-toe's tree is cut by its wins).
    monkeypatch.setattr(learn_work, "MAX_EXPERIMENT_NODES", 10_000)
    assert client.post("/api/learn/experiment", json={"game": "connect4", "depth": 4}).is_success
