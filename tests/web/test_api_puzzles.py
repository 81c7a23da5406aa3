"""The /api/puzzles routes through the app: a puzzle solved by another line than the
stored one, a wrong move refuted, hints, ratings and streaks, and bad input."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_support import client as client_of
from fastapi.testclient import TestClient

from abgames.games.gomoku import Gomoku
from abgames.puzzles import check
from abgames.puzzles.catalogue import by_id
from abgames.ui.web.puzzle_store import Player, SavePlayer, key_hash, load_player
from abgames.ui.web.ratelimit import RateLimits
from abgames.ui.web.store import GameStore

PUZZLE = "gi115"  # an intro VCF whose first move g8 wins too (the stored line starts j5)
OTHER_FIRST = "g8"
WRONG_FIRST = "f8"


def new_key() -> dict[str, str]:
    return {"X-Puzzle-Key": secrets.token_urlsafe(32)}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_of(tmp_path_factory.mktemp("puzzles") / "games.db") as test_client:
        yield test_client


def start(client: TestClient, key: dict[str, str], **body: Any) -> dict[str, Any]:
    response = client.post("/api/puzzles/next", json=body, headers=key)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def move(client: TestClient, key: dict[str, str], puzzle: str, played: Any) -> dict[str, Any]:
    response = client.post(
        "/api/puzzles/move", json={"puzzle": puzzle, "move": played}, headers=key
    )
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def winning_move(puzzle_id: str, answer: dict[str, Any]) -> int:
    """The solver's winning move in the position the answer shows (the test's own engine)."""
    state = by_id()[puzzle_id].after(step["move"] for step in answer["state"]["moves"])
    assert isinstance(state, Gomoku)
    win = check.gomoku_win(state)
    assert win is not None
    return win[1][0]


def test_a_puzzle_solved_by_another_line_than_the_stored_one(client: TestClient) -> None:
    key = new_key()
    answer = start(client, key, id=PUZZLE)
    assert answer["status"] == "playing"
    assert answer["puzzle"]["id"] == PUZZLE and answer["puzzle"]["goal"] == "vcf"
    assert answer["puzzle"]["themes"][0] == "VCF"
    assert answer["state"]["board"]["width"] == 15 and answer["state"]["moves"] == []
    assert answer["solution"] is None  # not shown before the end
    answer = move(client, key, PUZZLE, OTHER_FIRST)
    assert answer["verdict"] == "correct"
    assert answer["reply"]["text"] and len(answer["state"]["moves"]) == 2
    while answer["status"] == "playing":
        answer = move(client, key, PUZZLE, winning_move(PUZZLE, answer))
    assert answer["status"] == "solved" and answer["verdict"] == "solved"
    played = tuple(step["move"] for step in answer["state"]["moves"])
    assert played != by_id()[PUZZLE].solution
    assert answer["state"]["outcome"]["winner"] == 0
    assert answer["solution"][0]["text"] == "j5"  # the stored line, shown at the end
    player = answer["player"]
    assert player["solved"] == 1 and player["streak"] == 1 and player["best_streak"] == 1
    assert player["rating"] > 1500 and player["change"] > 0
    # The player and the finished puzzle are kept.
    again = client.get("/api/puzzles/player", headers=key).json()
    assert again["player"]["rating"] == player["rating"] and again["status"] == "solved"
    # A retry is not rated again.
    start(client, key, id=PUZZLE)
    answer = move(client, key, PUZZLE, WRONG_FIRST)
    assert answer["status"] == "failed" and answer["player"]["change"] == 0
    assert answer["player"]["rating"] == player["rating"]


def test_a_wrong_move_shows_the_refutation_and_ends_the_puzzle(client: TestClient) -> None:
    key = new_key()
    start(client, key, id=PUZZLE)
    answer = move(client, key, PUZZLE, WRONG_FIRST)
    assert answer["verdict"] == "wrong" and answer["status"] == "failed"
    refutation = answer["reply"]["move"]
    assert answer["state"]["last_move"] == refutation  # played on the board
    assert answer["state"]["legal"] == []
    assert answer["player"]["failed"] == 1 and answer["player"]["streak"] == 0
    assert answer["player"]["rating"] < 1500
    assert answer["solution"]
    late = client.post(
        "/api/puzzles/move", json={"puzzle": PUZZLE, "move": OTHER_FIRST}, headers=key
    )
    assert late.status_code == 409 and "over" in late.json()["error"]


def test_a_hint_names_a_winning_move_and_counts_as_not_solved(client: TestClient) -> None:
    key = new_key()
    start(client, key, id=PUZZLE)
    response = client.post("/api/puzzles/hint", json={"puzzle": PUZZLE}, headers=key)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["hinted"] and answer["status"] == "playing"
    assert answer["player"]["failed"] == 1 and answer["player"]["rating"] < 1500
    rating = answer["player"]["rating"]
    answer = move(client, key, PUZZLE, answer["hint"]["move"])
    assert answer["verdict"] == "correct"
    while answer["status"] == "playing":
        answer = move(client, key, PUZZLE, winning_move(PUZZLE, answer))
    assert answer["status"] == "solved"
    assert answer["player"]["rating"] == rating and answer["player"]["solved"] == 0


def test_connect4_puzzles_and_choosing_by_game(client: TestClient) -> None:
    key = new_key()
    answer = start(client, key, game="connect4")
    puzzle = by_id()[answer["puzzle"]["id"]]
    assert puzzle.game == "connect4" and answer["puzzle"]["themes"][0] == "one winning move"
    assert answer["state"]["board"]["width"] == 7 and len(answer["state"]["legal"]) >= 1
    answer = move(client, key, puzzle.id, puzzle.solution[0])
    assert answer["verdict"] in ("correct", "solved")
    chosen = start(client, key)
    assert chosen["puzzle"]["id"] != puzzle.id  # a puzzle just rated is not chosen again


@pytest.mark.parametrize(
    ("headers", "needle"),
    [
        ({}, "missing"),
        ({"X-Puzzle-Key": "short"}, "malformed"),
        ({"X-Puzzle-Key": "a b" * 20}, "malformed"),
    ],
)
def test_a_missing_or_malformed_key_is_refused(
    client: TestClient, headers: dict[str, str], needle: str
) -> None:
    for response in (
        client.get("/api/puzzles/player", headers=headers),
        client.post("/api/puzzles/next", json={}, headers=headers),
    ):
        assert response.status_code == 400
        assert needle in response.json()["error"]


def test_bad_input_is_answered_in_the_one_error_shape(client: TestClient) -> None:
    key = new_key()
    unknown = client.post("/api/puzzles/next", json={"id": "zz999"}, headers=key)
    assert unknown.status_code == 404 and "no puzzle" in unknown.json()["error"]
    start(client, key, id=PUZZLE)
    taken = Gomoku(15).format_move(by_id()[PUZZLE].position["black"][0])
    illegal = client.post("/api/puzzles/move", json={"puzzle": PUZZLE, "move": taken}, headers=key)
    assert illegal.status_code == 400 and "already taken" in illegal.json()["error"]
    garbage = client.post("/api/puzzles/move", json={"puzzle": PUZZLE, "move": "zz"}, headers=key)
    assert garbage.status_code == 400 and "not a point" in garbage.json()["error"]
    other = client.post("/api/puzzles/move", json={"puzzle": "c4001", "move": 3}, headers=key)
    assert other.status_code == 409 and "not the one in progress" in other.json()["error"]
    for body in (
        {"puzzle": PUZZLE, "move": 1.5},
        {"puzzle": PUZZLE, "move": "h8", "extra": 1},
        {"puzzle": PUZZLE},
        {"puzzle": PUZZLE * 10, "move": 1},
    ):
        response = client.post("/api/puzzles/move", json=body, headers=key)
        assert response.status_code == 422, body
        assert isinstance(response.json()["error"], str)
    bad_game = client.post("/api/puzzles/next", json={"game": "chess"}, headers=key)
    assert bad_game.status_code == 422


def test_the_page_and_the_docs(client: TestClient) -> None:
    page = client.get("/puzzles")
    assert page.status_code == 200 and "/static/puzzles.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/puzzles/player",
        "/api/puzzles/next",
        "/api/puzzles/move",
        "/api/puzzles/hint",
    ):
        assert path in paths
    assert "refutation" in paths["/api/puzzles/move"]["post"]["description"]


def test_puzzle_requests_are_rate_limited(tmp_path: Path) -> None:
    with client_of(tmp_path / "games.db", rate_limits=RateLimits(scale=0.05)) as limited:
        key = new_key()
        codes = [
            limited.post("/api/puzzles/next", json={"id": PUZZLE}, headers=key).status_code
            for _ in range(4)
        ]
        assert codes[0] == 200 and codes[-1] == 429
        refused = limited.post("/api/puzzles/next", json={}, headers=key)
        assert "puzzle" in refused.json()["error"] and refused.headers["retry-after"]


def test_the_store_keeps_players_by_version_and_within_its_bound(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db")
    try:
        first = Player(key_hash("a" * 43), rating=1600.0).changed()
        assert store.write_batch([SavePlayer(0, first).as_write()]) == [True]
        assert load_player(store, first.key_hash).rating == 1600.0
        stale = first.changed(rating=1400.0)
        assert store.write_batch([SavePlayer(0, stale).as_write()]) == [False]  # already there
        newer = first.changed(rating=1700.0, recent=("gi001",))
        assert store.write_batch([SavePlayer(first.version, newer).as_write()]) == [True]
        late = first.changed(rating=1300.0)
        assert store.write_batch([SavePlayer(first.version, late).as_write()]) == [False]
        kept = load_player(store, first.key_hash)
        assert kept.rating == 1700.0 and kept.recent == ("gi001",)
        # Past the bound, a new player's row makes room by deleting the least recently seen.
        second = Player(key_hash("b" * 43)).changed()
        assert store.write_batch([SavePlayer(0, second, max_players=1).as_write()]) == [True]
        assert load_player(store, first.key_hash).version == 0  # gone: a new player again
        assert load_player(store, second.key_hash).version == second.version
    finally:
        store.close()
