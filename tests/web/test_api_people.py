"""Games between people through the API: invitations, watching, resigning, offers,
rematches and clocks (with a fake wall clock: no test waits for real time)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_support import SLOW_LEVEL, WAIT_S, client, create, live_server, read_events
from fastapi.testclient import TestClient

from abgames.ui.web import clocks


class FakeWallClock:
    """The clocks' time source, moved on by hand."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> FakeWallClock:
    fake = FakeWallClock()
    monkeypatch.setattr(clocks, "wall_time", fake)
    return fake


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(tmp_path_factory.mktemp("web") / "games.sqlite3") as test_client:
        yield test_client


def url(game_id: str, action: str = "") -> str:
    return f"/api/games/{game_id}" + (f"/{action}" if action else "")


def friend_game(c: TestClient, **body: Any) -> tuple[str, dict[str, str], dict[str, str]]:
    """A game between devices, joined: (id, the creator's headers, the friend's)."""
    settings = {"game": "tictactoe", "mode": "friend", "first": "me"} | body
    created = c.post("/api/games", json=settings)
    assert created.status_code == 201, created.text
    data = created.json()
    joined = c.post(url(data["id"], "join"), json={"invite": data["invite"]})
    assert joined.status_code == 201, joined.text
    return (
        data["id"],
        {"X-Game-Secret": data["secret"]},
        {"X-Game-Secret": joined.json()["secret"]},
    )


def move(c: TestClient, game_id: str, headers: dict[str, str], text: str) -> httpx.Response:
    answer: httpx.Response = c.post(url(game_id, "moves"), json={"move": text}, headers=headers)
    return answer


# --- invitations ---------------------------------------------------------------
def test_an_invitation_claims_the_other_seat_once(c: TestClient) -> None:
    created = c.post("/api/games", json={"game": "tictactoe", "mode": "friend", "first": "friend"})
    data = created.json()
    game_id, mine = data["id"], {"X-Game-Secret": data["secret"]}
    assert data["seat"] == 1 and data["invite"]  # the friend moves first: they get seat 0
    assert data["state"]["people"]["joined"] == [False, True]
    early = move(c, game_id, mine, "b2")
    assert early.status_code == 409 and "wait for your friend" in early.json()["error"]

    alone = c.post(url(game_id, "resign"), headers=mine)
    assert alone.status_code == 409 and "nobody has joined yet" in alone.json()["error"]
    wrong = c.post(url(game_id, "join"), json={"invite": "x" * 43})
    assert wrong.status_code == 403
    joined = c.post(url(game_id, "join"), json={"invite": data["invite"]})
    assert joined.status_code == 201
    theirs = {"X-Game-Secret": joined.json()["secret"]}
    assert joined.json()["seat"] == 0 and joined.json()["state"]["people"]["joined"] == [True, True]
    again = c.post(url(game_id, "join"), json={"invite": data["invite"]})
    assert again.status_code == 409 and "already used" in again.json()["error"]

    assert c.get(url(game_id), headers=theirs).json()["you"] == 0
    assert c.get(url(game_id), headers=mine).json()["you"] == 1
    out_of_turn = move(c, game_id, mine, "b2")
    assert out_of_turn.status_code == 409
    assert out_of_turn.json() == {"error": "it is your opponent's turn, not yours"}
    assert move(c, game_id, theirs, "b2").status_code == 200
    assert move(c, game_id, mine, "a1").json()["moves"][-1]["text"] == "a1"


def test_each_device_has_its_own_secret_and_no_shortcuts(c: TestClient) -> None:
    game_id, mine, theirs = friend_game(c)
    assert mine != theirs
    for action in ("hint", "undo", "new"):
        answer = c.post(url(game_id, action), json={}, headers=mine)
        assert answer.status_code == 409, action
    assert c.get(url(game_id), headers={"X-Game-Secret": "nope"}).status_code == 403


def test_a_game_on_one_device_has_no_invitation(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    answer = c.post(url(game_id, "join"), json={"invite": "anything"})
    assert answer.status_code == 409
    assert c.get(url(game_id), headers=headers).json()["you"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "friend", "first": "ai"},
        {"clock": {"base_s": 0}},
        {"clock": {"base_s": 60, "increment_s": -1}},
        {"clock": {"base_s": "60"}},
        {"mode": "ai-ai", "clock": {"base_s": 60}},
    ],
)
def test_bad_settings_are_refused_in_words(c: TestClient, body: dict[str, Any]) -> None:
    answer = c.post("/api/games", json={"game": "tictactoe"} | body)
    assert answer.status_code in (400, 422)
    assert isinstance(answer.json()["error"], str) and answer.json()["error"]


# --- watching --------------------------------------------------------------------
def test_a_watcher_sees_the_game_but_nothing_private_and_cannot_move(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", level="perfect")
    move(c, game_id, headers, "b2")
    state = c.get(url(game_id, "watch")).json()
    assert [m["text"] for m in state["moves"]][:1] == ["b2"]
    assert state["legal"] == [] and state["message"] is None and "you" not in state
    assert move(c, game_id, {}, "a1").status_code == 403
    assert c.post(url(game_id, "resign")).status_code == 403
    assert c.get(url("A" * 24, "watch")).status_code == 404


def test_a_watcher_does_not_see_the_players_hint(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    hint = c.post(url(game_id, "hint"), headers=headers).json()
    assert hint["hint"] is True
    assert c.get(url(game_id), headers=headers).json()["analysis"]["hint"] is True
    assert c.get(url(game_id, "watch")).json()["analysis"] is None


def test_watchers_and_both_players_hear_every_move_live(tmp_path: Path) -> None:
    with (
        live_server(tmp_path / "games.sqlite3") as (base, _app),
        httpx.Client(base_url=base, timeout=WAIT_S) as http,
    ):
        data = http.post("/api/games", json={"game": "connect4", "mode": "friend"}).json()
        game = f"/api/games/{data['id']}"
        mine = {"X-Game-Secret": data["secret"]}
        joined = http.post(f"{game}/join", json={"invite": data["invite"]}).json()
        theirs = {"X-Game-Secret": joined["secret"]}
        with (
            http.stream("GET", f"{game}/events", headers=mine) as first,
            http.stream("GET", f"{game}/events", headers=theirs) as second,
            http.stream("GET", f"{game}/watch/events") as watcher,
        ):
            streams = [read_events(first), read_events(second), read_events(watcher)]
            assert [next(stream)[1]["moves"] for stream in streams] == [[], [], []]
            seat = data["seat"]
            first_mover = mine if seat == 0 else theirs
            http.post(f"{game}/moves", json={"move": "4"}, headers=first_mover)
            for stream in streams:
                kind, state = next(stream)
                assert kind == "state" and state["moves"] == [{"move": 3, "text": "4"}]


# --- results ---------------------------------------------------------------------
def test_resigning_ends_the_game_with_a_banner(c: TestClient) -> None:
    game_id, mine, theirs = friend_game(c)
    move(c, game_id, mine, "b2")
    state = c.post(url(game_id, "resign"), headers=theirs).json()
    assert state["status"] == "over"
    assert state["outcome"] == {
        "winner": 0,
        "line": [],
        "how": "resignation",
        "reason": "O resigned",
        "text": "X wins: O resigned",
    }
    assert move(c, game_id, mine, "a1").json() == {"error": "the game is over"}
    assert c.post(url(game_id, "resign"), headers=mine).status_code == 409


def test_resigning_against_the_ai(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", level=SLOW_LEVEL, first="ai")
    state = c.post(url(game_id, "resign"), headers=headers).json()
    assert state["outcome"]["winner"] == 0 and state["outcome"]["how"] == "resignation"
    assert state["status"] == "over"
    assert c.post(url(game_id, "undo"), headers=headers).status_code == 409


def test_a_draw_offer_declined_then_accepted(c: TestClient) -> None:
    game_id, mine, theirs = friend_game(c)
    offered = c.post(url(game_id, "offer"), json={"kind": "draw"}, headers=mine).json()
    assert offered["people"]["offer"] == {"kind": "draw", "by": 0}
    own = c.post(url(game_id, "answer"), json={"accept": True}, headers=mine)
    assert own.status_code == 409 and own.json() == {"error": "you cannot answer your own offer"}
    declined = c.post(url(game_id, "answer"), json={"accept": False}, headers=theirs).json()
    assert declined["people"]["offer"] is None
    assert declined["message"] == "O declined the draw offer."
    assert declined["outcome"] is None

    c.post(url(game_id, "offer"), json={"kind": "draw"}, headers=mine)
    agreed = c.post(url(game_id, "answer"), json={"accept": True}, headers=theirs).json()
    assert agreed["outcome"]["winner"] is None and agreed["outcome"]["how"] == "agreement"
    assert agreed["outcome"]["text"] == "Draw: agreed by both players"


def test_a_move_declines_the_other_sides_offer_and_crossed_offers_agree(c: TestClient) -> None:
    game_id, mine, theirs = friend_game(c)
    c.post(url(game_id, "offer"), json={"kind": "draw"}, headers=theirs)
    state = move(c, game_id, mine, "b2").json()
    assert state["people"]["offer"] is None
    c.post(url(game_id, "offer"), json={"kind": "draw"}, headers=mine)
    crossed = c.post(url(game_id, "offer"), json={"kind": "draw"}, headers=theirs).json()
    assert crossed["outcome"]["how"] == "agreement"


def test_a_take_back_needs_the_other_side(c: TestClient) -> None:
    game_id, mine, theirs = friend_game(c)
    nothing = c.post(url(game_id, "offer"), json={"kind": "takeback"}, headers=mine)
    assert nothing.status_code == 409
    assert nothing.json() == {"error": "you have no move to take back"}
    move(c, game_id, mine, "b2")
    move(c, game_id, theirs, "a1")
    # X asks on its own turn: its move and O's reply go back.
    c.post(url(game_id, "offer"), json={"kind": "takeback"}, headers=mine)
    state = c.post(url(game_id, "answer"), json={"accept": True}, headers=theirs).json()
    assert state["moves"] == [] and state["to_move"] == 0
    assert state["message"] == "X took back b2, a1"
    move(c, game_id, mine, "c3")
    c.post(url(game_id, "offer"), json={"kind": "takeback"}, headers=mine)
    state = c.post(url(game_id, "answer"), json={"accept": True}, headers=theirs).json()
    assert state["moves"] == [] and state["to_move"] == 0


def test_the_ai_takes_no_offers(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", level=SLOW_LEVEL, first="ai")
    for kind in ("draw", "takeback"):
        answer = c.post(url(game_id, "offer"), json={"kind": kind}, headers=headers)
        assert answer.status_code == 409 and "the AI takes no offers" in answer.json()["error"]
    bad = c.post(url(game_id, "offer"), json={"kind": "abort"}, headers=headers)
    assert bad.status_code in (400, 422)
    c.post(url(game_id, "resign"), headers=headers)


def test_on_one_device_a_draw_is_agreed_at_once(c: TestClient) -> None:
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    state = c.post(url(game_id, "offer"), json={"kind": "draw"}, headers=headers).json()
    assert state["outcome"]["how"] == "agreement"


def test_a_rematch_swaps_the_colours_and_keeps_each_secret(c: TestClient) -> None:
    game_id, mine, theirs = friend_game(c)
    early = c.post(url(game_id, "offer"), json={"kind": "rematch"}, headers=mine)
    assert early.status_code == 409
    c.post(url(game_id, "resign"), headers=mine)
    c.post(url(game_id, "offer"), json={"kind": "rematch"}, headers=theirs)
    state = c.post(url(game_id, "answer"), json={"accept": True}, headers=mine).json()
    new_id = state["people"]["rematch"]
    assert new_id and new_id != game_id
    assert c.get(url(new_id), headers=mine).json()["you"] == 1
    fresh = c.get(url(new_id), headers=theirs).json()
    assert fresh["you"] == 0 and fresh["moves"] == [] and fresh["mode"] == "friend"
    assert move(c, new_id, theirs, "b2").status_code == 200


# --- clocks ----------------------------------------------------------------------
def test_the_clock_charges_each_move_and_adds_the_increment(
    c: TestClient, wall: FakeWallClock
) -> None:
    game_id, mine, theirs = friend_game(c, clock={"base_s": 60, "increment_s": 2})
    state = c.get(url(game_id), headers=mine).json()
    assert state["clock"] == {
        "base_ms": 60_000,
        "increment_ms": 2000,
        "left_ms": [60_000, 60_000],
        "running": None,
    }
    wall.now += 30  # the first move is free: it starts the clocks
    assert move(c, game_id, mine, "b2").json()["clock"]["running"] == 1
    wall.now += 10
    assert c.get(url(game_id, "watch")).json()["clock"]["left_ms"] == [60_000, 50_000]
    state = move(c, game_id, theirs, "a1").json()
    assert state["clock"]["left_ms"] == [60_000, 52_000] and state["clock"]["running"] == 0


def test_a_flag_loses_on_time_seen_by_anyone_who_asks(c: TestClient, wall: FakeWallClock) -> None:
    game_id, mine, theirs = friend_game(c, clock={"base_s": 60})
    move(c, game_id, mine, "b2")
    wall.now += 61  # O thinks too long
    late = move(c, game_id, theirs, "a1")
    assert late.status_code == 409
    assert late.json() == {"error": "the time ran out: the game is over"}
    state = c.get(url(game_id, "watch")).json()
    assert state["outcome"]["how"] == "time" and state["outcome"]["winner"] == 0
    assert state["outcome"]["text"] == "X wins: O ran out of time"
    assert state["clock"]["left_ms"] == [60_000, 0] and state["clock"]["running"] is None


def test_running_out_of_time_draws_when_the_other_side_cannot_win(
    c: TestClient, wall: FakeWallClock
) -> None:
    game_id, mine, theirs = friend_game(c, clock={"base_s": 60})
    # X on cells 4 2 3 7, O on 0 6 5 1 (row by row from the top left): every line
    # holds an X, so O can no longer win; X is to move, and its time runs out.
    for headers, cell in zip([mine, theirs] * 4, (4, 0, 2, 6, 3, 5, 7, 1), strict=True):
        answer = c.post(url(game_id, "moves"), json={"move": cell}, headers=headers)
        assert answer.status_code == 200, answer.text
    wall.now += 61
    outcome = c.get(url(game_id, "watch")).json()["outcome"]
    assert outcome["winner"] is None and outcome["how"] == "time-no-win"


def test_a_restarted_server_still_keeps_the_clock(tmp_path: Path, wall: FakeWallClock) -> None:
    db = tmp_path / "games.sqlite3"
    with client(db) as first:
        game_id, mine, theirs = friend_game(first, clock={"base_s": 60})
        move(first, game_id, mine, "b2")
    wall.now += 120  # the server was down while O's clock ran
    with client(db) as second:
        state = second.get(url(game_id), headers=theirs).json()
        assert state["outcome"]["how"] == "time"


def test_the_ai_thinks_within_its_clock(c: TestClient, wall: FakeWallClock) -> None:
    game_id, headers, _ = create(
        c, game="tictactoe", level=SLOW_LEVEL, first="ai", clock={"base_s": 8, "increment_s": 1}
    )
    job = c.app.state.service.pool.job_of(game_id)  # type: ignore[attr-defined]
    assert job is not None
    # 8 s left, 1 s more a move: the Gomocup engine's time manager shares it over the
    # moves to come (about 0.4 s), never more than a quarter of it plus the increment.
    assert 0.1 < job.spec.think_s < 8 * clocks.MAX_MOVE_SHARE + 1
    c.post(url(game_id, "resign"), headers=headers)


def test_the_routes_between_people_are_in_the_api_docs(c: TestClient) -> None:
    paths = c.get("/openapi.json").json()["paths"]
    for route in ("join", "resign", "offer", "answer", "watch", "watch/events"):
        assert f"/api/games/{{game_id}}/{route}" in paths, route
    create_body = c.get("/openapi.json").json()["components"]["schemas"]["CreateGame"]
    assert "clock" in create_body["properties"]
