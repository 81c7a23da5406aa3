"""The search pool seen through the API: the queue, 429, the event stream, lost workers."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest
from api_support import SLOW_LEVEL, WAIT_S, client, create, live_server, read_events, wait_for
from fastapi import FastAPI

from abgames.ui.web.service import GameService


def service_of(app: FastAPI) -> GameService:
    service: GameService = app.state.service
    return service


def test_a_full_queue_answers_429_and_changes_nothing(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite3", max_queue=1) as c:
        running_id, running_headers, _ = create(c, game="tictactoe", level=SLOW_LEVEL, first="ai")
        waiting_id, waiting_headers, state = create(
            c, game="tictactoe", level=SLOW_LEVEL, first="ai"
        )
        assert state["status"] == "queued" and state["queue_position"] == 1
        refused = c.post("/api/games", json={"game": "tictactoe", "first": "ai"})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
        assert "busy" in refused.json()["error"]
        assert service_of(c.app).store.count() == 2  # type: ignore[arg-type]
        human_id, headers, _ = create(c, game="tictactoe", level=SLOW_LEVEL)
        move = c.post(f"/api/games/{human_id}/moves", json={"move": "b2"}, headers=headers)
        assert move.status_code == 429
        assert c.get(f"/api/games/{human_id}", headers=headers).json()["moves"] == []
        assert c.post(f"/api/games/{human_id}/hint", headers=headers).status_code == 429
        # Move now on the running game frees the worker; the waiting one starts.
        c.post(f"/api/games/{running_id}/move-now", headers=running_headers)
        wait_for(c, running_id, running_headers)
        state = wait_for(c, waiting_id, waiting_headers, "thinking")
        assert state["queue_position"] is None
        assert c.post(f"/api/games/{human_id}/moves", json={"move": "b2"}, headers=headers)
        c.post(f"/api/games/{waiting_id}/move-now", headers=waiting_headers)


def test_events_stream_the_state_progress_and_the_ai_reply(tmp_path: Path) -> None:
    with (
        live_server(tmp_path / "games.sqlite3") as (base, _app),
        httpx.Client(base_url=base, timeout=WAIT_S) as http,
    ):
        created = http.post("/api/games", json={"game": "connect4", "level": "medium"}).json()
        headers = {"X-Game-Secret": created["secret"]}
        game = f"/api/games/{created['id']}"
        with http.stream("GET", f"{game}/events", headers=headers) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            seen: list[str] = []
            for kind, data in read_events(response):
                seen.append(kind)
                if len(seen) == 1:
                    assert kind == "state" and data["status"] == "your-turn"
                    http.post(f"{game}/moves", json={"move": 3}, headers=headers)
                elif kind == "progress":
                    assert data["depth"] >= 1 and data["pv"]
                elif kind == "state" and len(data["moves"]) == 2:
                    assert data["status"] == "your-turn"
                    break
        assert "progress" in seen
        assert seen.count("state") >= 3  # start, after the move (thinking), after the reply


def test_a_waiting_game_hears_its_place_in_the_queue(tmp_path: Path) -> None:
    with (
        live_server(tmp_path / "games.sqlite3") as (base, _app),
        httpx.Client(base_url=base, timeout=WAIT_S) as http,
    ):
        first = http.post(
            "/api/games", json={"game": "tictactoe", "level": SLOW_LEVEL, "first": "ai"}
        ).json()
        second = http.post("/api/games", json={"game": "tictactoe", "level": "perfect"}).json()
        headers = {"X-Game-Secret": second["secret"]}
        game = f"/api/games/{second['id']}"
        with http.stream("GET", f"{game}/events", headers=headers) as response:
            events = read_events(response)
            assert next(events)[0] == "state"
            http.post(f"{game}/moves", json={"move": "b2"}, headers=headers)
            kinds = []
            for kind, data in events:
                kinds.append((kind, data))
                if kind == "queued":
                    assert data == {"position": 1}
                    http.post(
                        f"/api/games/{first['id']}/move-now",
                        headers={"X-Game-Secret": first["secret"]},
                    )
                if kind == "state" and len(data["moves"]) == 2:
                    break
        assert ("queued", {"position": 1}) in kinds


def test_the_search_stops_when_the_page_goes_away_and_resumes_when_it_returns(
    tmp_path: Path,
) -> None:
    with (
        live_server(tmp_path / "games.sqlite3", orphan_grace_s=0.2) as (base, app),
        httpx.Client(base_url=base, timeout=WAIT_S) as http,
    ):
        created = http.post(
            "/api/games", json={"game": "tictactoe", "level": SLOW_LEVEL, "first": "ai"}
        ).json()
        game_id = created["id"]
        headers = {"X-Game-Secret": created["secret"]}
        pool = service_of(app).pool
        with http.stream("GET", f"/api/games/{game_id}/events", headers=headers) as response:
            next(read_events(response))
            assert pool.job_of(game_id) is not None
        deadline = time.monotonic() + WAIT_S
        while pool.job_of(game_id) is not None:
            assert time.monotonic() < deadline, "the search was not cancelled"
            time.sleep(0.05)
        state = http.get(f"/api/games/{game_id}", headers=headers).json()
        assert state["status"] in ("thinking", "queued") and pool.job_of(game_id) is not None
        http.post(f"/api/games/{game_id}/move-now", headers=headers)


def test_a_lost_worker_is_replaced_and_the_search_runs_again(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite3") as c:
        game_id, headers, _ = create(c, game="tictactoe", level=SLOW_LEVEL, first="ai")
        pool = service_of(c.app).pool  # type: ignore[arg-type]
        (pid,) = pool.worker_pids()
        time.sleep(0.2)
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + WAIT_S
        while pool.worker_pids() in ([], [pid]):
            assert time.monotonic() < deadline, "no new worker"
            time.sleep(0.05)
        state = c.get(f"/api/games/{game_id}", headers=headers).json()
        assert state["status"] == "thinking" and state["moves"] == []
        c.post(f"/api/games/{game_id}/move-now", headers=headers)
        assert len(wait_for(c, game_id, headers)["moves"]) == 1


@pytest.mark.parametrize("workers", [2])
def test_two_workers_search_two_games_at_once(tmp_path: Path, workers: int) -> None:
    # One client may use every worker only when told so (by default it leaves one free).
    with client(
        tmp_path / "games.sqlite3", workers=workers, max_queue=0, max_running_per_client=workers
    ) as c:
        games = [create(c, game="tictactoe", level=SLOW_LEVEL, first="ai") for _ in range(2)]
        assert [state["status"] for _, _, state in games] == ["thinking", "thinking"]
        for game_id, headers, _ in games:
            c.post(f"/api/games/{game_id}/move-now", headers=headers)
            wait_for(c, game_id, headers)


def test_a_second_tab_hears_the_moves_made_in_the_first(tmp_path: Path) -> None:
    with (
        live_server(tmp_path / "games.sqlite3") as (base, _app),
        httpx.Client(base_url=base, timeout=WAIT_S) as http,
    ):
        created = http.post("/api/games", json={"game": "tictactoe", "mode": "human-human"}).json()
        headers = {"X-Game-Secret": created["secret"]}
        game = f"/api/games/{created['id']}"
        with (
            http.stream("GET", f"{game}/events", headers=headers) as first,
            http.stream("GET", f"{game}/events", headers=headers) as second,
        ):
            tabs = [read_events(first), read_events(second)]
            assert [next(tab)[1]["moves"] for tab in tabs] == [[], []]
            http.post(f"{game}/moves", json={"move": "b2"}, headers=headers)
            for tab in tabs:
                kind, data = next(tab)
                assert kind == "state" and data["moves"] == [{"move": 4, "text": "b2"}]
