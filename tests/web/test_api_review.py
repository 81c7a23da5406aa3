"""The engine's review of a game through the API: every position scored in the pool,
the moves that changed the result marked, stored with the game, shown to watchers."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from api_support import WAIT_S, client, create
from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(tmp_path_factory.mktemp("web") / "games.sqlite3", workers=2) as test_client:
        yield test_client


def url(game_id: str, action: str = "") -> str:
    return f"/api/games/{game_id}" + (f"/{action}" if action else "")


def played(
    c: TestClient, game: str, moves: Sequence[int | str], **body: Any
) -> tuple[str, dict[str, str]]:
    """A game on one device with ``moves`` played (numbers or texts)."""
    game_id, headers, _ = create(c, game=game, mode="human-human", **body)
    for move in moves:
        answer = c.post(url(game_id, "moves"), json={"move": move}, headers=headers)
        assert answer.status_code == 200, answer.text
    return game_id, headers


def reviewed(c: TestClient, game_id: str, headers: dict[str, str]) -> dict[str, Any]:
    """Ask for the review and wait for it; the review part of the state."""
    started = c.post(url(game_id, "review"), headers=headers)
    assert started.status_code == 200, started.text
    deadline = time.monotonic() + 4 * WAIT_S
    while True:
        review: dict[str, Any] = c.get(url(game_id), headers=headers).json()["review"]
        if review["status"] == "done":
            return review
        assert time.monotonic() < deadline, review
        time.sleep(0.05)


def marks_of(review: dict[str, Any]) -> list[tuple[int, str, str | None]]:
    return [(m["ply"], m["kind"], m["better_text"]) for m in review["result"]["marks"]]


def test_tictactoe_is_reviewed_exactly(c: TestClient) -> None:
    # Cells row by row from the top left. X takes the centre and O an edge: a lost
    # position (known theory: only a corner draws against the centre).
    game_id, headers = played(c, "tictactoe", [4, 1, 0, 8, 2, 6, 5, 7])
    review = reviewed(c, game_id, headers)
    result = review["result"]
    assert result["method"] == "exact" and result["plies"] == 8
    assert [p["score_text"] for p in result["positions"][:2]] == ["draw", "draw"]
    assert result["positions"][2]["score_text"].startswith("wins in")  # X, after O's edge
    marks = result["marks"]
    assert [(m["ply"], m["kind"], m["by"]) for m in marks] == [
        (1, "threw-draw", "O"),  # the edge
        (4, "threw-win", "X"),
        (6, "threw-draw", "X"),  # X did not block O's column
    ]
    assert marks[2]["better"] == 7 and "kept the draw" in marks[2]["text"]
    assert result["positions"][-1]["graph"] == -1.0  # O won: the end drawn for O
    # The review is stored with the game and shown to watchers.
    assert c.get(url(game_id, "watch")).json()["review"]["result"]["marks"] == marks


def test_connect_four_marks_the_thrown_away_win_at_its_move(c: TestClient) -> None:
    # Red 4 5 6 on the bottom row, Yellow stacked on 4 5 and blocking 7: Red wins at
    # once in column 3, and plays 1 instead; Yellow blocks 3.
    game_id, headers = played(c, "connect4", ["4", "4", "5", "5", "6", "7", "1", "3"])
    review = reviewed(c, game_id, headers)
    positions = review["result"]["positions"]
    assert positions[6]["score_text"] == "wins in 1 move"
    assert positions[6]["best_text"] == "3"
    thrown = [m for m in review["result"]["marks"] if m["ply"] == 6]
    assert thrown and thrown[0]["kind"] == "threw-win" and thrown[0]["better_text"] == "3"


def test_gomoku_names_the_forced_wins_missed_and_allowed(c: TestClient) -> None:
    # Black's four h8-k8 (g8 is White's): White plays far away, allowing the five at l8;
    # Black plays far away too, missing it; White blocks.
    moves = ["h8", "g8", "i8", "a1", "j8", "a2", "k8", "a3", "o15", "l8"]
    game_id, headers = played(c, "gomoku", moves)
    review = reviewed(c, game_id, headers)
    kinds = {m["ply"]: (m["kind"], m["text"]) for m in review["result"]["marks"]}
    assert kinds[7] == ("allowed-win", "allowed a forced win (VCF in 1)")
    assert kinds[8] == ("missed-win", "missed a forced win (VCF in 1)")
    assert review["result"]["positions"][8]["best_text"] == "l8"
    assert review["result"]["method"].startswith("threat solvers")


def test_what_cannot_be_reviewed_is_refused_in_words(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    empty = c.post(url(game_id, "review"), headers=headers)
    assert empty.status_code == 409 and empty.json() == {"error": "there is no move to review"}
    created = c.post("/api/games", json={"game": "tictactoe", "mode": "friend"}).json()
    joined = c.post(url(created["id"], "join"), json={"invite": created["invite"]}).json()
    first = created["secret"] if created["seat"] == 0 else joined["secret"]
    c.post(url(created["id"], "moves"), json={"move": 4}, headers={"X-Game-Secret": first})
    live = c.post(url(created["id"], "review"), headers={"X-Game-Secret": first})
    assert live.status_code == 409 and "once it is over" in live.json()["error"]
    assert c.post(url(game_id, "review")).status_code == 403


def test_a_review_is_of_the_moves_it_saw(c: TestClient) -> None:
    game_id, headers = played(c, "tictactoe", [4, 0])
    assert reviewed(c, game_id, headers)["result"]["plies"] == 2
    c.post(url(game_id, "moves"), json={"move": 8}, headers=headers)
    assert c.get(url(game_id), headers=headers).json()["review"] is None
