"""Creating games, reading their state, and playing moves through the API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from api_support import client, create, wait_for
from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(tmp_path_factory.mktemp("web") / "games.sqlite3") as test_client:
        yield test_client


def test_meta_lists_games_levels_options_and_modes(c: TestClient) -> None:
    meta = c.get("/api/meta").json()
    assert meta["modes"] == ["human-ai", "friend", "human-human", "ai-ai"]
    assert {"base_s": 300, "increment_s": 3} in meta["clocks"]
    assert meta["games"]["connect4"]["levels"][-1] == "perfect"
    assert meta["games"]["gomoku"]["options"]["size"] == {"min": 5, "max": 22, "default": 15}
    assert meta["games"]["gomoku"]["options"]["rule"]["choices"] == [
        "freestyle",
        "standard",
        "renju",
    ]
    assert meta["games"]["tictactoe"]["default_level"] == "perfect"


def test_a_new_game_has_a_long_random_id_and_an_empty_board(c: TestClient) -> None:
    game_id, headers, state = create(c, game="connect4", level="easy")
    other_id, _, _ = create(c, game="connect4", level="easy")
    assert len(game_id) >= 22 and game_id != other_id  # 16+ random bytes, url-safe
    assert len(headers["X-Game-Secret"]) >= 22
    assert state["board"] == {"width": 7, "height": 6, "cells": [None] * 42, "last_cell": None}
    assert state["seats"] == [{"kind": "human", "level": None}, {"kind": "ai", "level": "easy"}]
    assert state["status"] == "your-turn"
    assert state["legal"] == list(range(7))
    assert state["version"] == 1


def test_a_human_move_gets_the_ai_reply_with_its_analysis(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", level="perfect")
    answer = c.post(
        f"/api/games/{game_id}/moves", json={"move": "b2", "version": 1}, headers=headers
    )
    assert answer.status_code == 200
    assert answer.json()["moves"] == [{"move": 4, "text": "b2"}]
    assert answer.json()["legal"] == []  # the AI's turn now
    state = wait_for(c, game_id, headers)
    assert len(state["moves"]) == 2
    reply = state["moves"][1]["move"]
    assert reply in (0, 2, 6, 8)  # the perfect reply to a centre opening is a corner
    analysis = state["analysis"]
    assert analysis["move"] == reply and analysis["view"] == 1 and analysis["hint"] is False
    assert analysis["score_text"] == "draw" and analysis["solved"]
    assert analysis["pv"][0]["move"] == reply
    assert state["board"]["cells"][4] == 0 and state["board"]["cells"][reply] == 1


def test_connect4_cells_are_listed_from_the_top_row(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="connect4", mode="human-human", options={"width": 5})
    for column in (0, 0, 4):
        assert c.post(
            f"/api/games/{game_id}/moves", json={"move": column}, headers=headers
        ).is_success
    state = c.get(f"/api/games/{game_id}", headers=headers).json()
    width, height, cells = (state["board"][k] for k in ("width", "height", "cells"))
    assert (width, height) == (5, 6)
    bottom = (height - 1) * width
    assert cells[bottom] == 0 and cells[bottom - width] == 1 and cells[bottom + 4] == 0
    assert state["board"]["last_cell"] == bottom + 4
    assert state["moves"][2] == {"move": 4, "text": "5"}


def test_gomoku_points_count_rows_from_the_top(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="gomoku", mode="human-human", options={"size": 9})
    # Point 1 is x=1, y=0: the second point of the top row, "b9" in Renju notation.
    state = c.post(f"/api/games/{game_id}/moves", json={"move": 1}, headers=headers).json()
    assert state["moves"] == [{"move": 1, "text": "b9"}]
    assert state["board"]["cells"][1] == 0
    state = c.post(f"/api/games/{game_id}/moves", json={"move": "a1"}, headers=headers).json()
    assert state["moves"][1]["move"] == 8 * 9  # a1 is the bottom-left point


def test_a_won_game_shows_the_outcome_and_the_winning_line(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    for move in ("a1", "a2", "b1", "b2", "c1"):
        state = c.post(f"/api/games/{game_id}/moves", json={"move": move}, headers=headers).json()
    assert state["status"] == "over"
    assert state["outcome"] == {
        "winner": 0,
        "line": [6, 7, 8],  # the bottom row
        "how": "line",
        "reason": "three in a row",
        "text": "X wins: three in a row",
    }
    late = c.post(f"/api/games/{game_id}/moves", json={"move": "c3"}, headers=headers)
    assert late.status_code == 409 and late.json() == {"error": "the game is over"}


def test_renju_lists_black_forbidden_points_and_refuses_them(c: TestClient) -> None:
    game_id, headers, _ = create(
        c, game="gomoku", mode="human-human", options={"size": 15, "rule": "renju"}
    )
    # Black g8, i8 (a row) and h7, h9 (a column), white in the corners: black at h8
    # would make two open threes at once.
    for move in ("g8", "a1", "i8", "a15", "h7", "o1", "h9", "o15"):
        state = c.post(f"/api/games/{game_id}/moves", json={"move": move}, headers=headers).json()
    reason = "double-three at h8 is forbidden for black"
    assert state["forbidden"] == [{"move": 7 * 15 + 7, "text": "h8", "reason": reason}]
    assert 7 * 15 + 7 not in state["legal"]
    refused = c.post(f"/api/games/{game_id}/moves", json={"move": "h8"}, headers=headers)
    assert refused.status_code == 400 and refused.json() == {"error": reason}


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"move": "b2"}, 400, "b2 is already taken"),
        ({"move": "zz"}, 400, "'zz' is not a cell"),
        ({"move": 99}, 400, "cell 99 is off the 3x3 board"),
        ({"move": -1}, 400, "off the 3x3 board"),
        ({"move": [4]}, 422, "move"),
        ({"move": True}, 422, "move"),
        ({"move": "b" * 100}, 422, "move"),
        ({}, 422, "move is missing"),
        ({"move": "a1", "extra": 1}, 422, "extra"),
        ({"move": "a1", "version": 99}, 409, "the game has changed"),
    ],
)
def test_bad_moves_are_refused_with_a_reason_and_change_nothing(
    c: TestClient, body: dict[str, object], status: int, words: str
) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    c.post(f"/api/games/{game_id}/moves", json={"move": "b2"}, headers=headers)
    before = c.get(f"/api/games/{game_id}", headers=headers).json()
    answer = c.post(f"/api/games/{game_id}/moves", json=body, headers=headers)
    assert answer.status_code == status
    assert words in answer.json()["error"]
    assert c.get(f"/api/games/{game_id}", headers=headers).json() == before


def test_a_malformed_json_body_is_refused(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    answer = c.post(
        f"/api/games/{game_id}/moves",
        content=b"{not json",
        headers=headers | {"Content-Type": "application/json"},
    )
    assert answer.status_code == 400 and "not valid JSON" in answer.json()["error"]


def test_a_move_on_the_ai_turn_is_refused(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", first="ai", level="easy")  # thinks on
    answer = c.post(f"/api/games/{game_id}/moves", json={"move": "a1"}, headers=headers)
    assert answer.status_code == 409
    assert answer.json() == {"error": "it is the AI's turn, not yours"}
    watch_id, watch_headers, _ = create(c, game="tictactoe", mode="ai-ai", level="easy")
    answer = c.post(f"/api/games/{watch_id}/moves", json={"move": "a1"}, headers=watch_headers)
    assert answer.status_code == 409
    c.post(f"/api/games/{game_id}/undo", headers=headers)
    c.post(f"/api/games/{watch_id}/control", json={"action": "pause"}, headers=watch_headers)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess"}, 400, "unknown game 'chess'"),
        ({"game": "tictactoe", "mode": "solo"}, 400, "unknown mode 'solo'"),
        ({"game": "tictactoe", "first": "nobody"}, 400, "who moves first"),
        ({"game": "tictactoe", "level": "godlike"}, 400, "tictactoe has no level 'godlike'"),
        ({"game": "gomoku", "options": {"size": 30}}, 400, "5..22 points wide, not 30"),
        ({"game": "gomoku", "options": {"rule": "go"}}, 400, "unknown Gomoku rule 'go'"),
        ({"game": "gomoku", "options": {"size": "15"}}, 400, "option 'size' must be a number"),
        ({"game": "connect4", "options": {"size": 9}}, 400, "connect4 has no option 'size'"),
        ({"game": "connect4", "options": {"width": 3}}, 400, "not 3x6"),
        ({"game": "tictactoe", "options": {"size": [1]}}, 422, "options"),
        ({"game": "tictactoe", "seed": -1}, 422, "seed"),
        ({"mode": "human-ai"}, 422, "game is missing"),
    ],
)
def test_bad_settings_are_refused_with_a_reason(
    c: TestClient, body: dict[str, object], status: int, words: str
) -> None:
    answer = c.post("/api/games", json=body)
    assert answer.status_code == status
    assert words in answer.json()["error"]
