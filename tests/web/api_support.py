"""Helpers for the web API tests: apps over temporary databases, a slow stand-in player,
waiting for the AI, and a real uvicorn server (in a thread or a subprocess)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from server_support import ServerThread, free_port
from starlette.types import ASGIApp, Receive, Scope, Send

with warnings.catch_warnings():  # starlette's notice about httpx, not about our code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from abgames.ai.levels import make_player
from abgames.ai.player import AIPlayer
from abgames.games import GameState
from abgames.search.result import SearchResult
from abgames.ui.web.app import WebSettings, create_app
from abgames.ui.web.limits import LOOPBACK_HOSTS
from abgames.ui.web.ratelimit import RateLimits

#: The stand-in player's level: it thinks until told to stop (or this many seconds pass).
SLOW_LEVEL = "easy"
SLOW_MAX_S = 30.0
SLOW_STEP_S = 0.02
#: Longest wait for the AI in a test (a correctness bound, not a timing assertion).
WAIT_S = 30.0


class SlowPlayer(AIPlayer):
    """Yields a result (the first legal move) every 20 ms until ``stop()``."""

    def __init__(self, level: str) -> None:
        self.level = level
        self._stop = threading.Event()

    def think(self, state: GameState) -> Iterator[SearchResult]:
        self._stop.clear()
        moves = sorted(state.legal_moves())
        start = time.monotonic()
        depth = 0
        while True:
            depth += 1
            yield SearchResult(
                move=moves[0], score=0, depth=depth, nodes=depth, elapsed=time.monotonic() - start
            )
            if self._stop.wait(SLOW_STEP_S) or time.monotonic() - start > SLOW_MAX_S:
                return

    def stop(self) -> None:
        self._stop.set()


def slow_or_real_player(game: str, level: str, seed: int | None) -> AIPlayer:
    """Level ``easy`` of tic-tac-toe thinks until stopped; every other level is the real one."""
    if game == "tictactoe" and level == SLOW_LEVEL:
        return SlowPlayer(level)
    return make_player(game, level, seed)


SLOW_FACTORY = f"{__name__}:slow_or_real_player"


def settings(db: Path, **changes: Any) -> WebSettings:
    base: dict[str, Any] = {
        "db_path": db,
        "workers": 1,
        "warm": False,
        "player_factory": SLOW_FACTORY,
        # FastAPI's TestClient sends "Host: testserver"; the live servers use 127.0.0.1.
        "allowed_hosts": (*LOOPBACK_HOSTS, "testserver"),
        # A test suite is one client flooding the server: the rate limits' own tests
        # (test_api_limits.py) turn them on.
        "rate_limits": RateLimits(enabled=False),
    }
    return WebSettings(**(base | changes))


@contextlib.contextmanager
def client(db: Path, **changes: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings(db, **changes))) as test_client:
        yield test_client


def create(c: TestClient, **body: Any) -> tuple[str, dict[str, str], dict[str, Any]]:
    """A new game: (id, headers with its secret, state)."""
    response = c.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], {"X-Game-Secret": data["secret"]}, data["state"]


def wait_for(
    c: TestClient, game_id: str, headers: dict[str, str], status: str = "your-turn"
) -> dict[str, Any]:
    """Poll the state until its status is ``status`` (or fail after ``WAIT_S``)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        state: dict[str, Any] = c.get(f"/api/games/{game_id}", headers=headers).json()
        if state["status"] == status:
            return state
        assert time.monotonic() < deadline, f"still {state['status']!r}, not {status!r}"
        time.sleep(0.02)


@contextlib.contextmanager
def live_server(db: Path, **changes: Any) -> Iterator[tuple[str, FastAPI]]:
    """A real uvicorn server on 127.0.0.1 in a thread; yields its base URL and app."""
    app = create_app(settings(db, **changes))
    server = ServerThread(app, free_port())
    server.start()
    try:
        yield server.url, app
    finally:
        server.stop()


class PeerFromHeader:
    """The app, with the peer address an ``X-Test-Peer`` header names (one test client,
    one event loop, many addresses)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"x-test-peer":
                    scope = dict(scope, client=(value.decode(), 5000))
        await self.app(scope, receive, send)


def read_events(response: httpx.Response) -> Iterator[tuple[str, Any]]:
    """(event, data) pairs of a text/event-stream response, as they arrive."""
    kind = ""
    for line in response.iter_lines():
        if line.startswith("event: "):
            kind = line[len("event: ") :]
        elif line.startswith("data: "):
            yield kind, json.loads(line[len("data: ") :])
