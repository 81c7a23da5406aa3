"""Games survive a new app on the same file, a restart mid-search, and ``kill -9``."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from api_support import SLOW_LEVEL, WAIT_S, client, create, wait_for
from server_support import free_port

from abgames.ui.web.store import MIGRATIONS, SCHEMA_VERSION, GameStore

SRC = Path(__file__).resolve().parents[2] / "src"


def test_a_game_comes_back_exactly_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with client(db) as c:
        game_id, headers, _ = create(c, game="connect4", level="easy")
        c.post(f"/api/games/{game_id}/moves", json={"move": 3}, headers=headers)
        before = wait_for(c, game_id, headers)
    with client(db) as c:
        after = c.get(f"/api/games/{game_id}", headers=headers).json()
        assert after == before
        assert after["analysis"] is not None  # the AI's analysis is kept too
        moved = c.post(f"/api/games/{game_id}/moves", json={"move": 3}, headers=headers)
        assert moved.status_code == 200 and len(moved.json()["moves"]) == 3
        assert c.get(f"/api/games/{game_id}", headers={"X-Game-Secret": "x"}).status_code == 403


def test_a_search_cut_by_a_restart_resumes_when_the_game_is_asked_for(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with client(db) as c:  # tic-tac-toe "easy" thinks until stopped in this app
        game_id, headers, state = create(c, game="tictactoe", level=SLOW_LEVEL, first="ai")
        assert state["status"] in ("thinking", "queued")
    with client(db, player_factory=None) as c:  # the real "easy" answers at once
        state = wait_for(c, game_id, headers)
        assert len(state["moves"]) == 1 and state["seats"][0]["kind"] == "ai"


def test_the_store_records_its_schema_version(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    GameStore(db).close()
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)
        ]
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        connection.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(RuntimeError, match="written by a newer abgames"):
        GameStore(db)


def test_kill_9_right_after_a_move_is_answered_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(SRC))
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "abgames", "web", "--port", str(port), "--db", str(db)),
            *("--workers", "1", "--no-warmup"),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                httpx.get(f"{base}/api/meta", timeout=1.0)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        with httpx.Client(base_url=base) as http:
            created = http.post("/api/games", json={"game": "gomoku", "mode": "human-human"})
            game_id, secret = created.json()["id"], created.json()["secret"]
            headers = {"X-Game-Secret": secret}
            for move in ("h8", "h9"):
                assert http.post(
                    f"/api/games/{game_id}/moves", json={"move": move}, headers=headers
                )
            answer = http.post(f"/api/games/{game_id}/moves", json={"move": "j10"}, headers=headers)
            assert answer.status_code == 200
            os.kill(server.pid, signal.SIGKILL)
        server.wait(WAIT_S)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(WAIT_S)
        if server.stdout is not None:
            server.stdout.close()
    stored = GameStore(db).get(game_id)
    assert stored is not None and stored.record["moves"] == ["h8", "h9", "j10"]


def test_a_version_1_file_is_migrated_with_its_analyses(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    record = {
        "format": "abgames-game",
        "version": 1,
        "game": "tictactoe",
        "options": {},
        "moves": ["b2", "a1"],
        "players": ["human", "ai"],
        "levels": [None, "perfect"],
    }
    analysis = {"move": 0, "text": "a1", "why": "O plays a1"}
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        connection.execute("INSERT INTO schema_version VALUES (1)")
        connection.execute(MIGRATIONS[0])
        connection.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *("g" * 24, "h", "human-ai", "human", "perfect", None, json.dumps(record)),
                *(json.dumps([None, analysis]), 3, 0, 0, 0.0, 0.0),
            ),
        )
    connection.close()
    stored = GameStore(db).get("g" * 24)
    assert stored is not None and stored.analyses == [None, analysis]
    assert stored.record == record and stored.version == 3
