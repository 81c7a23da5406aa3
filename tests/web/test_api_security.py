"""Who may read and move, what the server refuses, and the headers on every answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from api_support import client, create
from fastapi.testclient import TestClient

from abgames.ui.web.app import MAX_BODY_BYTES


@pytest.fixture(scope="module")
def static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("static")
    (folder / "index.html").write_text("<!doctype html><title>page</title>")
    (folder / "app.js").write_text("export const x = 1;\n")
    (folder.parent / "secret.txt").write_text("not for you")
    return folder


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory, static: Path) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    with client(db, static_dir=static) as test_client:
        yield test_client


ROUTES = [
    ("GET", ""),
    ("POST", "moves"),
    ("POST", "undo"),
    ("POST", "hint"),
    ("POST", "move-now"),
    ("POST", "new"),
    ("POST", "control"),
    ("GET", "record"),
    ("GET", "events"),
]


@pytest.mark.parametrize(("method", "action"), ROUTES)
def test_every_game_route_needs_the_game_secret(c: TestClient, method: str, action: str) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    path = f"/api/games/{game_id}" + (f"/{action}" if action else "")
    body = {"move": "a1"} if action == "moves" else None
    for wrong in ({}, {"X-Game-Secret": "guess"}, {"X-Game-Secret": headers["X-Game-Secret"][:-1]}):
        answer = c.request(method, path, json=body, headers=wrong)
        assert answer.status_code == 403
        assert answer.json() == {"error": "this game's secret is missing or wrong"}
    _, other_headers, _ = create(c, game="tictactoe", mode="human-human")
    assert c.request(method, path, json=body, headers=other_headers).status_code == 403
    assert c.get(f"/api/games/{game_id}", headers=headers).json()["moves"] == []


@pytest.mark.parametrize("game_id", ["x" * 24, "short", "../../etc/passwd", "a" * 300])
def test_unknown_games_are_404(c: TestClient, game_id: str) -> None:
    answer = c.get(f"/api/games/{game_id}", headers={"X-Game-Secret": "s"})
    assert answer.status_code == 404
    assert answer.headers["content-type"] == "application/json"


def test_the_ai_seat_cannot_be_played_by_the_client(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="ai-ai", level="perfect")
    answer = c.post(f"/api/games/{game_id}/moves", json={"move": "b2"}, headers=headers)
    assert answer.status_code == 409


def test_an_oversized_body_is_refused_with_413(c: TestClient) -> None:
    big = b'{"format": "abgames-game", "pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    answer = c.post("/api/games/import", content=big)
    assert answer.status_code == 413
    assert answer.json() == {"error": f"the request body is larger than {MAX_BODY_BYTES:,} bytes"}


def test_an_oversized_streamed_body_without_length_is_refused(c: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY_BYTES // 1000 + 2):
            yield b"x" * 1000

    answer = c.post("/api/games/import", content=chunks())
    assert answer.status_code == 413


def test_pages_and_static_files_are_served_with_a_strict_policy(c: TestClient) -> None:
    page = c.get("/")
    assert page.status_code == 200 and "<title>page</title>" in page.text
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self';" in policy
    assert "unsafe-inline" not in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    script = c.get("/static/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert c.get("/api/meta").headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize(
    "path",
    [
        "/static/../secret.txt",
        "/static/%2e%2e/secret.txt",
        "/static/..%2fsecret.txt",
        "/static//etc/passwd",
        "/static/",
        "/secret.txt",
    ],
)
def test_nothing_outside_the_static_folder_is_served(c: TestClient, path: str) -> None:
    answer = c.get(path)
    assert answer.status_code == 404
    assert "not for you" not in answer.text


def test_learn_is_404_json_until_its_page_exists(c: TestClient, static: Path) -> None:
    answer = c.get("/learn")
    assert answer.status_code == 404 and answer.json() == {"error": "learn.html is not there yet"}
    (static / "learn.html").write_text("<!doctype html><title>learn</title>")
    assert "<title>learn</title>" in c.get("/learn").text


def test_errors_are_json_never_a_traceback(c: TestClient) -> None:
    assert c.get("/no/such/page").json() == {"error": "there is nothing here"}
    wrong_method = c.delete("/api/meta")
    assert wrong_method.status_code == 405 and "error" in wrong_method.json()
    answer = c.post("/api/games", content=b"\x00\x01", headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and "Traceback" not in answer.text
    assert answer.json() == {
        "error": "the request body is not valid JSON (Expecting value at line 1 column 1)"
    }


def test_secrets_are_not_stored_in_the_clear(c: TestClient, tmp_path: Path) -> None:
    game_id, headers, _ = create(c, game="tictactoe")
    stored = c.app.state.service.store.get(game_id)  # type: ignore[attr-defined]
    assert headers["X-Game-Secret"] not in repr(stored)


def test_the_openapi_page_documents_the_routes(c: TestClient) -> None:
    schema = c.get("/openapi.json").json()
    assert "/api/games/{game_id}/moves" in schema["paths"]
    move = schema["components"]["schemas"]["MoveRequest"]["properties"]["move"]
    assert "notation" in move["description"]
    assert c.get("/docs").status_code == 200
