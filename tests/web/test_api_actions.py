"""Undo, new game, hint, move now, AI-vs-AI control, save and load through the API."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_support import SLOW_LEVEL, WAIT_S, client, create, wait_for
from fastapi.testclient import TestClient

from abgames.ui.web.state_view import MOVE


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(tmp_path_factory.mktemp("web") / "games.sqlite3") as test_client:
        yield test_client


def url(game_id: str, action: str = "") -> str:
    return f"/api/games/{game_id}" + (f"/{action}" if action else "")


def wait_until_thinking(c: TestClient, game_id: str, headers: dict[str, str]) -> None:
    """Wait until the game's search runs on a worker (not only queued)."""
    pool = c.app.state.service.pool  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while pool.job_of(game_id) is None or pool.position(game_id) is not None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    time.sleep(0.1)  # the worker has the job: let it start searching


def test_undo_against_the_ai_takes_back_its_reply_and_your_move(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", level="perfect")
    c.post(url(game_id, "moves"), json={"move": "b2"}, headers=headers)
    wait_for(c, game_id, headers)
    state = c.post(url(game_id, "undo"), headers=headers).json()
    assert state["moves"] == [] and state["status"] == "your-turn"
    assert state["message"].startswith("Took back b2, ")
    again = c.post(url(game_id, "undo"), headers=headers)
    assert again.status_code == 409 and again.json() == {"error": "there is no move to take back"}


def test_undo_during_the_ai_search_cancels_it(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", level=SLOW_LEVEL)
    c.post(url(game_id, "moves"), json={"move": "b2"}, headers=headers)
    wait_until_thinking(c, game_id, headers)
    state = c.post(url(game_id, "undo"), headers=headers).json()
    assert state["moves"] == [] and state["status"] == "your-turn"
    # The worker is free again at once: another game's AI answers (the slow search
    # would hold the only worker for 30 s had it not been stopped).
    other_id, other_headers, _ = create(c, game="tictactoe", level="perfect")
    c.post(url(other_id, "moves"), json={"move": "a1"}, headers=other_headers)
    assert len(wait_for(c, other_id, other_headers)["moves"]) == 2
    assert c.get(url(game_id), headers=headers).json()["moves"] == []  # nothing played late


def test_move_now_plays_the_best_move_so_far(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", level=SLOW_LEVEL, first="ai")
    wait_until_thinking(c, game_id, headers)
    assert c.post(url(game_id, "move-now"), headers=headers).status_code == 200
    state = wait_for(c, game_id, headers)  # would take 30 s without move now
    assert state["moves"] == [{"move": 0, "text": "a3"}]  # the top-left cell
    assert state["analysis"]["move"] == 0 and state["analysis"]["view"] == 0
    idle = c.post(url(game_id, "move-now"), headers=headers)
    assert idle.status_code == 409 and idle.json() == {"error": "the AI is not thinking"}


def test_new_game_keeps_id_secret_and_settings(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="connect4", level=SLOW_LEVEL, options={"width": 6})
    c.post(url(game_id, "moves"), json={"move": 2}, headers=headers)
    state = c.post(url(game_id, "new"), headers=headers).json()
    assert (
        state["id"] == game_id
        and state["moves"] == []
        and state["options"] == {"width": 6, "height": 6}
    )
    assert state["status"] == "your-turn" and state["analysis"] is None


def test_new_game_during_a_search_cancels_it(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", level=SLOW_LEVEL)
    c.post(url(game_id, "moves"), json={"move": "a1"}, headers=headers)
    wait_until_thinking(c, game_id, headers)
    state = c.post(url(game_id, "new"), headers=headers).json()
    assert state["moves"] == [] and state["status"] == "your-turn"
    assert c.app.state.service.pool.job_of(game_id) is None  # type: ignore[attr-defined]


def test_hint_suggests_a_move_for_the_human_to_move(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    for move in ("a1", "b2", "c3"):
        c.post(url(game_id, "moves"), json={"move": move}, headers=headers)
    hint = c.post(url(game_id, "hint"), headers=headers).json()
    assert hint["hint"] is True and hint["view"] == 1 and hint["ply"] == 3
    assert hint["text"] in ("a3", "c1", "b1", "a2", "b3", "c2")
    assert hint["score_text"] == "draw"  # O holds the draw only with an edge
    assert hint["text"] in ("b1", "a2", "b3", "c2")
    assert c.get(url(game_id), headers=headers).json()["analysis"] == hint


def test_hint_is_refused_when_there_is_nothing_to_hint(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="ai-ai", level=SLOW_LEVEL)
    answer = c.post(url(game_id, "hint"), headers=headers)
    assert answer.status_code == 409 and "AI's turn" in answer.json()["error"]
    c.post(url(game_id, "control"), json={"action": "pause"}, headers=headers)


def test_ai_vs_ai_pause_step_resume_and_delay(
    c: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pause, step and resume, followed by events of the scheduler, not by waiting.

    A paused game has no search in the pool and no timer to start one (the only ways
    an AI move gets played); an answer that arrives after the pause is dropped; a step
    submits one search and plays its one move.
    """
    service = c.app.state.service  # type: ignore[attr-defined]
    scheduler, pool = service.ai, service.pool
    game_id, headers, _ = create(c, game="tictactoe", mode="ai-ai", level="perfect")
    state = c.post(url(game_id, "control"), json={"action": "pause"}, headers=headers).json()
    assert state["paused"] and state["status"] == "paused"
    played = len(state["moves"])
    live = service._live[game_id]

    def idle() -> bool:
        return pool.job_of(game_id) is None and live.timer is None

    assert idle()

    searches: list[str] = []  # the searches submitted for the game
    gate = {"armed": False}
    entered, release, finished, moved = (threading.Event() for _ in range(4))
    submit, finish, after_move = scheduler.submit, scheduler._finished, scheduler._after_ai_move

    def recorded_submit(game: Any, purpose: str, level: str) -> None:
        if game.id == game_id:
            searches.append(purpose)
        submit(game, purpose, level)

    async def gated_finish(game: Any, purpose: str, *rest: Any) -> None:
        if game.id == game_id and purpose == MOVE and gate["armed"]:
            gate["armed"] = False
            entered.set()
            await asyncio.to_thread(release.wait, WAIT_S)
        await finish(game, purpose, *rest)
        if game.id == game_id:
            finished.set()

    def noted_after_move(game: Any) -> None:
        after_move(game)
        if game.id == game_id:
            moved.set()

    monkeypatch.setattr(scheduler, "submit", recorded_submit)
    monkeypatch.setattr(scheduler, "_finished", gated_finish)
    monkeypatch.setattr(scheduler, "_after_ai_move", noted_after_move)

    # An answer that comes back after the pause is not played.
    gate["armed"] = True
    c.post(url(game_id, "control"), json={"action": "resume"}, headers=headers)
    assert entered.wait(WAIT_S), "the resumed game started no search"
    paused = c.post(url(game_id, "control"), json={"action": "pause"}, headers=headers).json()
    assert paused["paused"] and len(paused["moves"]) == played
    release.set()
    assert finished.wait(WAIT_S)
    assert len(c.get(url(game_id), headers=headers).json()["moves"]) == played
    assert idle() and searches == [MOVE] and not moved.is_set()

    # One step: one search, one move, and the game is paused again.
    searches.clear()
    stepped = c.post(url(game_id, "control"), json={"action": "step"}, headers=headers)
    assert stepped.status_code == 200, stepped.text
    assert moved.wait(WAIT_S), "the stepped move was not played"
    state = c.get(url(game_id), headers=headers).json()
    assert len(state["moves"]) == played + 1 and state["status"] == "paused"
    assert idle() and searches == [MOVE]

    state = c.post(
        url(game_id, "control"), json={"action": "resume", "delay_ms": 10}, headers=headers
    ).json()
    assert state["delay_ms"] == 10 and not state["paused"]
    state = wait_for(c, game_id, headers, "over")
    assert state["outcome"]["winner"] is None  # perfect play draws
    assert all(entry["score_text"] == "draw" for entry in [state["analysis"]])


def test_a_pace_change_keeps_the_running_search(c: TestClient) -> None:
    """A new delay while an AI-vs-AI search runs: its answer is still played."""
    game_id, headers, state = create(c, game="tictactoe", mode="ai-ai", level=SLOW_LEVEL)
    assert state["delay_ms"] == 400  # AI vs AI starts at a watchable pace
    wait_until_thinking(c, game_id, headers)
    paced = c.post(url(game_id, "control"), json={"delay_ms": 20}, headers=headers).json()
    assert paced["delay_ms"] == 20 and paced["status"] == "thinking"
    assert c.post(url(game_id, "move-now"), headers=headers).status_code == 200
    deadline = time.monotonic() + 30
    while not c.get(url(game_id), headers=headers).json()["moves"]:
        assert time.monotonic() < deadline, "the search's answer was dropped"
        time.sleep(0.02)
    c.post(url(game_id, "control"), json={"action": "pause"}, headers=headers)


def test_a_new_ai_vs_ai_game_takes_its_pace_from_the_request(c: TestClient) -> None:
    game_id, headers, state = create(
        c, game="tictactoe", mode="ai-ai", level=SLOW_LEVEL, delay_ms=0
    )
    assert state["delay_ms"] == 0
    c.post(url(game_id, "control"), json={"action": "pause"}, headers=headers)
    _, _, human = create(c, game="tictactoe", level="perfect")
    assert human["delay_ms"] == 0


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"action": "jump"}, 422, "action"),
        ({"delay_ms": -5}, 422, "delay_ms"),
        ({"delay_ms": 10**9}, 422, "delay_ms"),
        ({"action": "step"}, 409, "pause the game before stepping"),
    ],
)
def test_bad_control_requests(c: TestClient, body: dict[str, Any], status: int, words: str) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="ai-ai", level="perfect")
    answer = c.post(url(game_id, "control"), json=body, headers=headers)
    assert answer.status_code == status and words in answer.json()["error"]


def test_control_is_for_ai_vs_ai_games_only(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", level="perfect")
    answer = c.post(url(game_id, "control"), json={"action": "pause"}, headers=headers)
    assert answer.status_code == 409


def test_undo_in_ai_vs_ai_pauses_the_game(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="ai-ai", level="perfect")
    state = wait_for(c, game_id, headers, "over")
    state = c.post(url(game_id, "undo"), headers=headers).json()
    assert len(state["moves"]) == 8 and state["status"] == "paused"


def test_record_downloads_the_save_file_and_import_loads_it(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="gomoku", mode="human-human", options={"size": 9})
    for move in ("e5", "e6", "f5"):
        c.post(url(game_id, "moves"), json={"move": move}, headers=headers)
    answer = c.get(url(game_id, "record"), headers=headers)
    assert answer.headers["content-disposition"].startswith("attachment; filename=")
    record = answer.json()
    assert record == {
        "format": "abgames-game",
        "version": 2,
        "game": "gomoku",
        "options": {"size": 9},
        "moves": ["e5", "e6", "f5"],
        "players": ["human", "human"],
        "levels": [None, None],
    }
    loaded = c.post("/api/games/import", content=json.dumps(record), headers=JSON_BODY)
    assert loaded.status_code == 201
    data = loaded.json()
    assert data["id"] != game_id and data["secret"] != headers["X-Game-Secret"]
    assert [m["text"] for m in data["state"]["moves"]] == ["e5", "e6", "f5"]
    assert data["state"]["mode"] == "human-human" and data["state"]["to_move"] == 1


def test_an_imported_game_with_the_ai_to_move_gets_its_move(c: TestClient) -> None:
    record = {
        "format": "abgames-game",
        "version": 1,
        "game": "tictactoe",
        "options": {},
        "moves": ["b2"],
        "players": ["human", "ai"],
        "levels": [None, "perfect"],
    }
    data = c.post("/api/games/import", content=json.dumps(record), headers=JSON_BODY).json()
    headers = {"X-Game-Secret": data["secret"]}
    assert len(wait_for(c, data["id"], headers)["moves"]) == 2


#: A save file is sent as JSON (any other body is 415).
JSON_BODY = {"Content-Type": "application/json"}


GOOD = {
    "format": "abgames-game",
    "version": 1,
    "game": "tictactoe",
    "options": {},
    "moves": ["a1", "b2"],
    "players": ["human", "human"],
    "levels": [None, None],
}


def test_a_version_1_tictactoe_save_imports_as_the_same_game(c: TestClient) -> None:
    # Version 1 counted rows from the top: its a1 is the top-left cell, today's a3.
    data = c.post("/api/games/import", content=json.dumps(GOOD), headers=JSON_BODY).json()
    moves = data["state"]["moves"]
    assert moves == [{"move": 0, "text": "a3"}, {"move": 4, "text": "b2"}]
    record = c.get(url(data["id"], "record"), headers={"X-Game-Secret": data["secret"]}).json()
    assert record["version"] == 2 and record["moves"] == ["a3", "b2"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"{broken", "this is not a saved game (the request body is not valid JSON"),
        (b"\xff\xfe", "this is not a saved game (the request body is not UTF-8"),
        (b"[1, 2]", "this is not an abgames save file"),
        (json.dumps(GOOD | {"format": "chess"}).encode(), "this is not an abgames save file"),
        (json.dumps(GOOD | {"version": 7}).encode(), "save file version 7 is not supported"),
        (json.dumps(GOOD | {"game": "go"}).encode(), 'game in the save file: "go" is not one of'),
        (json.dumps(GOOD | {"moves": ["a1", "a1"]}).encode(), "move 2 ('a1')"),
        (json.dumps(GOOD | {"moves": "a1"}).encode(), 'moves in the save file: "a1" is not a list'),
        (json.dumps(GOOD | {"players": ["human"]}).encode(), "must name two players"),
        (json.dumps(GOOD | {"players": ["human", "ai"]}).encode(), "bad players"),
        (
            json.dumps(GOOD | {"players": ["ai", "ai"], "levels": ["x", "y"]}).encode(),
            "tictactoe has no level 'x'",
        ),
        (
            json.dumps(GOOD | {"options": {"size": 9}}).encode(),
            "options.size in the save file: tictactoe has no such option",
        ),
    ],
)
def test_a_corrupt_upload_is_refused_naming_the_fault(
    c: TestClient, body: bytes, words: str
) -> None:
    before = c.app.state.service.store.count()  # type: ignore[attr-defined]
    answer = c.post("/api/games/import", content=body, headers=JSON_BODY)
    assert answer.status_code == 400
    assert words in answer.json()["error"]
    assert c.app.state.service.store.count() == before  # type: ignore[attr-defined]


def test_idle_games_leave_memory_and_come_back_from_the_store(tmp_path: Path) -> None:
    # A server of its own: games other tests left busy (searching, waiting out an
    # AI-vs-AI pause) are rightly kept in memory and would crowd these out.
    with client(tmp_path / "games.sqlite3") as own:
        service = own.app.state.service  # type: ignore[attr-defined]
        service.live_games = 2
        games = [create(own, game="tictactoe", mode="human-human") for _ in range(4)]
        assert len(service._live) <= 2
        first_id, headers, _ = games[0]
        own.post(url(first_id, "moves"), json={"move": "b2"}, headers=headers)
        assert own.get(url(first_id), headers=headers).json()["moves"][0]["text"] == "b2"


def test_a_connect_four_hint_gives_the_exact_score(c: TestClient) -> None:
    # Red 4 5 6 on the bottom row, Yellow on 4 5 7: Red wins at once in column 3.
    game_id, headers, _ = create(c, game="connect4", mode="human-human")
    for move in ("4", "4", "5", "5", "6", "7"):
        c.post(url(game_id, "moves"), json={"move": move}, headers=headers)
    hint = c.post(url(game_id, "hint"), headers=headers).json()
    assert hint["text"] == "3" and hint["solved"] is True
    assert hint["score_text"] == "wins in 1 move"
