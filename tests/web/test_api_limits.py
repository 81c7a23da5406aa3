"""Per-client rate limits (token buckets, 429 with Retry-After) and the storage budget."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from api_support import PeerFromHeader, create, settings
from fastapi.testclient import TestClient

from abgames.ui.web.app import create_app
from abgames.ui.web.budget import FULL_MESSAGE, make_room
from abgames.ui.web.errors import Busy
from abgames.ui.web.ratelimit import (
    CREATE,
    DEFAULT_RATES,
    HINTS,
    LEARN,
    MOVES,
    POSITION,
    SEARCHES,
    SWEEP_S,
    Rate,
    RateLimiter,
    RateLimits,
)
from abgames.ui.web.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    GameStore,
    Insert,
    Prune,
    StoredGame,
)
from abgames.ui.web.writer import GroupWriter

DAY = 24 * 3600.0
#: A name every app answers to (a test client's own, ``testserver``, may be refused).
BASE = "http://localhost"


class Clock:
    """A fake ``time.monotonic``: tests move it by hand, nothing sleeps."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def limiter(clock: Clock, **rates: Rate) -> RateLimiter:
    return RateLimiter(RateLimits(rates=dict(DEFAULT_RATES) | rates), now=clock)


def spend(limiter: RateLimiter, client: str, category: str, times: int) -> list[float]:
    return [limiter.wait_s(client, category) for _ in range(times)]


# --- the token bucket ------------------------------------------------------------
def test_a_burst_is_allowed_then_refused_until_a_token_comes_back() -> None:
    clock = Clock()
    limits = limiter(clock, create=Rate(0.5, 3))
    assert spend(limits, "a", CREATE, 3) == [0.0, 0.0, 0.0]
    assert limits.wait_s("a", CREATE) == pytest.approx(2.0)  # one token every 2 s
    clock.t += 1.5
    assert limits.wait_s("a", CREATE) == pytest.approx(0.5)
    clock.t += 0.5
    assert limits.wait_s("a", CREATE) == 0.0
    assert limits.wait_s("a", CREATE) > 0
    clock.t += 100  # refills up to the burst, never past it
    assert spend(limits, "a", CREATE, 4) == [0.0, 0.0, 0.0, pytest.approx(2.0)]


def test_refused_is_busy_with_whole_seconds_in_retry_after() -> None:
    clock = Clock()
    limits = limiter(clock, hints=Rate(0.4, 1))
    limits.check("a", HINTS)
    with pytest.raises(Busy) as refused:
        limits.check("a", HINTS)
    assert refused.value.status == 429
    assert refused.value.headers() == {"Retry-After": "3"}  # 2.5 s rounded up
    assert "too many hints" in refused.value.message
    clock.t += 2.0
    with pytest.raises(Busy) as again:
        limits.check("a", HINTS)
    assert again.value.retry_after_s == 1  # 0.5 s rounded up


def test_clients_and_categories_have_their_own_buckets() -> None:
    clock = Clock()
    limits = limiter(clock, moves=Rate(1.0, 2), hints=Rate(1.0, 2))
    assert spend(limits, "10.0.0.1", MOVES, 3)[-1] > 0
    assert spend(limits, "10.0.0.2", MOVES, 2) == [0.0, 0.0]
    assert spend(limits, "10.0.0.1", HINTS, 2) == [0.0, 0.0]
    assert limits.refused == 1


def test_off_never_refuses_and_scale_multiplies_rate_and_burst() -> None:
    clock = Clock()
    off = RateLimiter(RateLimits(enabled=False), now=clock)
    assert set(spend(off, "a", CREATE, 1000)) == {0.0}
    assert off.tracked() == 0
    doubled = RateLimiter(
        RateLimits(scale=2.0, rates=dict(DEFAULT_RATES) | {CREATE: Rate(0.5, 3)}), now=clock
    )
    assert spend(doubled, "a", CREATE, 7)[-2:] == [0.0, pytest.approx(1.0)]


def test_memory_is_bounded_idle_buckets_dropped_and_clients_capped() -> None:
    clock = Clock()
    limits = RateLimiter(
        RateLimits(rates=dict(DEFAULT_RATES) | {MOVES: Rate(1.0, 5)}, max_clients=100), now=clock
    )
    for n in range(250):
        limits.wait_s(f"10.0.{n // 256}.{n % 256}", MOVES)
    assert limits.tracked() == 100  # the oldest 150 were forgotten
    spend(limits, "busy", MOVES, 5)  # empty: 5 s to refill
    clock.t += SWEEP_S - 1
    limits.wait_s("busy", MOVES)
    assert limits.tracked() == 100
    clock.t += 2  # a sweep: every full bucket goes; "busy" is not full
    limits.wait_s("busy", MOVES)
    assert limits.tracked() == 1


# --- through the app ---------------------------------------------------------------
TIGHT = RateLimits(
    rates={
        CREATE: Rate(0.001, 2),
        MOVES: Rate(0.001, 1),
        HINTS: Rate(0.001, 1),
        SEARCHES: Rate(0.001, 1),
        LEARN: Rate(0.001, 1),
        POSITION: Rate(0.001, 1),
    }
)


def test_a_flood_of_new_games_is_refused_with_429_per_client(tmp_path: Path) -> None:
    app = create_app(settings(tmp_path / "games.sqlite3", rate_limits=TIGHT))
    with TestClient(PeerFromHeader(app), base_url=BASE, client=("10.0.0.1", 5000)) as first:
        create(first, game="tictactoe", mode="human-human")
        create(first, game="tictactoe", mode="human-human")
        refused = first.post("/api/games", json={"game": "tictactoe"})
        assert refused.status_code == 429
        assert refused.json() == {
            "error": "too many new games from this address: try again in 1000 s"
        }
        assert refused.headers["Retry-After"] == "1000"
        other = {"X-Test-Peer": "10.0.0.2"}
        made = first.post(
            "/api/games", json={"game": "tictactoe", "mode": "human-human"}, headers=other
        )
        assert made.status_code == 201
        game_id, secret = made.json()["id"], made.json()["secret"]
        assert first.post("/api/games/import", json={}).status_code == 429
        # the game's own routes: limited before the game is even looked up
        signed = other | {"X-Game-Secret": secret}
        moved = first.post(f"/api/games/{game_id}/moves", json={"move": 4}, headers=signed)
        assert moved.status_code == 200
        again = first.post(f"/api/games/{game_id}/moves", json={"move": 0}, headers=signed)
        assert again.status_code == 429 and again.headers["Retry-After"] == "1000"
        unknown = first.post("/api/games/AAAAAAAAAAAAAAAAAAAAAAAA/moves", json={"move": 0})
        assert unknown.status_code == 404  # 10.0.0.1's move bucket was still full
        unknown = first.post("/api/games/AAAAAAAAAAAAAAAAAAAAAAAA/undo")
        assert unknown.status_code == 429  # moves and undo share the bucket
        for path in ("hint", "move-now"):  # one token each: spent on a request refused 403
            assert first.post(f"/api/games/{game_id}/{path}").status_code == 403
            assert first.post(f"/api/games/{game_id}/{path}").status_code == 429
        mine = {"X-Game-Secret": secret}
        assert first.post(f"/api/games/{game_id}/new", headers=mine).status_code == 429
        assert first.post(f"/api/games/{game_id}/control", json={}).status_code == 429
        assert app.state.service.store.count() == 3  # nothing refused was written


def test_learn_requests_are_limited_position_in_its_own_bucket(tmp_path: Path) -> None:
    app = create_app(settings(tmp_path / "games.sqlite3", rate_limits=TIGHT))
    with TestClient(app, base_url=BASE) as client:
        body: dict[str, Any] = {"game": "tictactoe", "moves": [0, 4, 8]}
        assert client.post("/api/learn/position", json=body).status_code == 200
        assert client.post("/api/learn/position", json=body).status_code == 429
        # a trace refused for its method still spends the token (no search runs)
        bad = client.post("/api/learn/trace", json=body | {"method": "nonsense"})
        assert bad.status_code == 400
        refused = client.post("/api/learn/experiment", json=body)  # the same bucket
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "1000"
        assert "too many searches" in refused.json()["error"]


def test_no_rate_limit_lets_a_flood_through(tmp_path: Path) -> None:
    off = RateLimits(enabled=False, rates=TIGHT.rates)
    app = create_app(settings(tmp_path / "games.sqlite3", rate_limits=off))
    client = TestClient(app, base_url=BASE)
    body: dict[str, Any] = {"game": "tictactoe", "moves": []}
    assert {client.post("/api/learn/position", json=body).status_code for _ in range(5)} == {200}


# --- the storage budget ----------------------------------------------------------------
RECORD: dict[str, Any] = {
    "format": "abgames-game",
    "version": 1,
    "game": "tictactoe",
    "options": {},
    "moves": [],
    "players": ["human", "human"],
    "levels": [None, None],
}
WON = ["a1", "a2", "b1", "b2", "c1"]  # X takes the bottom row


def game(name: str, moves: list[str] | None = None) -> StoredGame:
    played = moves or []
    return StoredGame(
        id=name,
        secret_hash="h",
        mode="human-human",
        first="human",
        level="perfect",
        seed=None,
        record=RECORD | {"moves": played},
        analyses=[{"move": n} for n in range(len(played))],
        version=1,
    )


def stored_ids(store: GameStore) -> set[str]:
    with sqlite3.connect(store.path) as db:
        return {row[0] for row in db.execute("SELECT id FROM games")}


def age(store: GameStore, ages_s: dict[str, float]) -> None:
    """Set each game's last change ``ages_s[id]`` seconds ago."""
    with sqlite3.connect(store.path) as db:
        for game_id, seconds in ages_s.items():
            db.execute(
                "UPDATE games SET updated = ? WHERE id = ?", (time.time() - seconds, game_id)
            )


def prune(store: GameStore, max_games: int, protected: frozenset[str] = frozenset()) -> bool:
    (result,) = store.write_batch([Prune(max_games, protected, abandoned_after_s=7 * DAY)])
    assert isinstance(result, bool)
    return result


def test_the_store_knows_which_games_are_over(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    store.insert(game("won", WON))
    store.insert(game("playing", WON[:4]))
    store.insert(replace(game("x"), over=True))
    won = store.get("won")
    assert won is not None and won.over is True
    playing = store.get("playing")
    assert playing is not None and playing.over is False
    said = store.get("x")
    assert said is not None and said.over is True  # the caller's flag wins
    taken_back = won.changed(record=RECORD | {"moves": WON[:4]}, analyses=won.analyses[:4])
    assert taken_back.over is None  # worked out again, not carried over
    assert store.update(won, taken_back)
    again = store.get("won")
    assert again is not None and again.over is False


def test_prune_takes_finished_games_first_then_abandoned_never_recent_or_protected(
    tmp_path: Path,
) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    names = {
        "finished-old": WON,
        "finished-new": WON,
        "abandoned": WON[:2],
        "abandoned-protected": WON[:2],
        "finished-protected": WON,
        "recent": WON[:2],
    }
    for name, moves in names.items():
        store.insert(game(name, moves))
    age(
        store,
        {
            "finished-old": 2 * DAY,
            "finished-new": 1 * DAY,
            "abandoned": 30 * DAY,  # older than every finished game: still goes after them
            "abandoned-protected": 40 * DAY,
            "finished-protected": 50 * DAY,
            "recent": 6 * DAY,
        },
    )
    protected = frozenset({"abandoned-protected", "finished-protected"})
    assert prune(store, 7, protected) is True  # 6 < 7: room already
    assert len(stored_ids(store)) == 6
    assert prune(store, 6, protected) is True
    assert "finished-old" not in stored_ids(store)
    assert prune(store, 5, protected) is True
    assert "finished-new" not in stored_ids(store)
    assert prune(store, 4, protected) is True
    assert stored_ids(store) == {"abandoned-protected", "finished-protected", "recent"}
    assert prune(store, 3, protected) is False  # recent and protected: nothing may go
    assert stored_ids(store) == {"abandoned-protected", "finished-protected", "recent"}
    assert prune(store, 1) is False  # unprotected, they go; the recent one stays: no room
    assert stored_ids(store) == {"recent"}
    with sqlite3.connect(store.path) as db:
        left = {row[0] for row in db.execute("SELECT DISTINCT game_id FROM analyses")}
    assert left == {"recent"}  # every pruned game's analyses went with it
    assert store.pruned == 5


def test_make_room_refuses_with_busy_when_every_game_is_in_play(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3", max_games=2)
    writer = GroupWriter(store)

    async def fill() -> list[str]:
        writer.start()
        outcomes = []
        for name in ("one", "two", "three"):
            try:
                await make_room(writer, protected={"one"})
            except Busy as refused:
                assert refused.retry_after_s == 60 and refused.status == 429
                outcomes.append(refused.message)
                continue
            await writer.write(Insert(game(name, WON if name == "one" else [])))
            outcomes.append("added")
        await writer.close()
        return outcomes

    assert asyncio.run(fill()) == ["added", "added", FULL_MESSAGE]
    assert stored_ids(store) == {"one", "two"}  # "one" is finished but protected


def test_an_older_database_gains_the_over_column_and_index(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for script in MIGRATIONS[:2]:
            db.executescript(script)
        db.execute("INSERT INTO schema_version (version) VALUES (2)")
        db.execute(
            "INSERT INTO games (id, secret_hash, mode, first, level, seed, record, analyses, "
            "version, created, updated) VALUES ('old', 'h', 'human-human', 'human', "
            "'perfect', NULL, ?, '[]', 3, 1.0, 1.0)",
            (json.dumps(RECORD | {"moves": WON}),),
        )
    store = GameStore(path)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchone() == (SCHEMA_VERSION,)
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        indexes = {row[1] for row in db.execute("PRAGMA index_list(games)")}
    assert "over" in columns and "games_over_updated" in indexes
    old = store.get("old")
    assert old is not None and old.over is False and old.version == 3  # unknown: not over
    moved = old.changed(record=old.record)
    assert store.update(old, moved)
    again = store.get("old")
    assert again is not None and again.over is True  # the next write works it out
    assert prune(store, 1) is True and stored_ids(store) == set()
