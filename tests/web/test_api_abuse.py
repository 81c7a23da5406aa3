"""The web app's edge, attacked: hostile bodies, other sites, rebinding hosts, slow and
idle connections, loose types. Each refusal is the JSON error shape with the security
headers. No test asserts a duration: timeouts are short settings, bounds are generous."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_support import (
    SLOW_LEVEL,
    PeerFromHeader,
    client,
    create,
    settings,
    wait_for,
)
from fastapi.testclient import TestClient
from server_support import ServerThread, free_port

from abgames.ui.web.app import create_app
from abgames.ui.web.limits import LOOPBACK_HOSTS, MAX_JSON_DEPTH
from abgames.ui.web.server import allowed_hosts_for, exposure_notice, server_config

JSON = {"Content-Type": "application/json"}
#: Longest wait for the server to close a socket (a correctness bound, not a timing test).
CLOSE_BOUND_S = 10.0
GOOD_RECORD = (
    b'{"format": "abgames-game", "version": 1, "game": "tictactoe", "options": {},'
    b' "moves": ["a1"], "players": ["human", "human"], "levels": [null, null]}'
)


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(tmp_path_factory.mktemp("web") / "games.sqlite3") as test_client:
        yield test_client


def assert_refused(answer: Any, status: int, words: str = "") -> None:
    """The answer is ``status``, the JSON error shape naming ``words``, with the headers."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert set(answer.json()) == {"error"}
    assert words in answer.json()["error"]
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-content-type-options"] == "nosniff"


# --- 1. hostile JSON bodies: 400 before parsing, never a 500 ---------------------------


@pytest.mark.parametrize(
    "body",
    [b"[" * 30_000, b'{"a":' * 10_000, b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1)],
    ids=["brackets", "objects", "one-too-deep"],
)
def test_deeply_nested_json_is_refused_before_parsing(c: TestClient, body: bytes) -> None:
    for path in ("/api/games/import", "/api/games", "/api/learn/trace"):
        assert_refused(c.post(path, content=body, headers=JSON), 400, "nests deeper than")


def test_brackets_inside_strings_do_not_count_as_depth(c: TestClient) -> None:
    note = b'"note": "\\"' + b"[{" * 500 + b'"'  # an escaped quote, then brackets
    padded = GOOD_RECORD.replace(b'"options": {}', b'"options": {}, ' + note)
    assert c.post("/api/games/import", content=padded, headers=JSON).status_code == 201


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"game": "tictactoe"', "the request body is not valid JSON"),
        (b"\x00\x01", "the request body is not valid JSON"),
        (b'{"game": "tic\xff"}', "the request body is not UTF-8"),
        (b'{"game": "tictactoe", "seed": ' + b"9" * 25 + b"}", "over 20 digits"),
        (b'{"game": "tictactoe", "seed": ' + b"9" * 5000 + b"}", "over 20 digits"),
        (b'{"game": "tictactoe", "seed": NaN}', "NaN is not JSON"),
        (b'{"game": "tictactoe", "seed": -Infinity}', "-Infinity is not JSON"),
        (b'{"game": "tictactoe", "seed": 1e999}', "too large"),
    ],
)
def test_malformed_json_is_400_in_our_words(c: TestClient, body: bytes, words: str) -> None:
    answer = c.post("/api/games", content=body, headers=JSON)
    assert_refused(answer, 400, words)
    assert "json_invalid" not in answer.text and "Traceback" not in answer.text


def test_a_crash_is_a_json_500_with_the_security_headers(tmp_path: Path) -> None:
    app = create_app(settings(tmp_path / "games.sqlite3"))

    async def boom() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/api/boom", boom)
    with TestClient(app, raise_server_exceptions=False) as own:
        assert_refused(own.get("/api/boom"), 500, "the server failed")


# --- 2. content types: JSON or nothing --------------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json-seq",
        "application/jsonx",
    ],
)
def test_a_body_that_is_not_declared_json_is_415(c: TestClient, content_type: str | None) -> None:
    headers = {} if content_type is None else {"Content-Type": content_type}
    before = c.app.state.service.store.count()  # type: ignore[attr-defined]
    answer = c.post("/api/games/import", content=GOOD_RECORD, headers=headers)
    assert_refused(answer, 415, "application/json")
    answer = c.post("/api/games", content=b'{"game": "tictactoe"}', headers=headers)
    assert_refused(answer, 415, "application/json")
    assert c.app.state.service.store.count() == before  # type: ignore[attr-defined]


def test_json_with_parameters_and_empty_posts_are_accepted(c: TestClient) -> None:
    typed = {"Content-Type": "Application/JSON; charset=utf-8"}
    assert c.post("/api/games/import", content=GOOD_RECORD, headers=typed).status_code == 201
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    c.post(f"/api/games/{game_id}/moves", json={"move": "b2"}, headers=headers)
    undo = c.post(f"/api/games/{game_id}/undo", headers=headers)  # no body, no content type
    assert undo.status_code == 200 and undo.json()["moves"] == []


def test_the_pages_scripts_send_their_bodies_as_json() -> None:
    static = Path(__file__).parents[2] / "src/abgames/ui/web/static"
    for script in [static / "api.js", *sorted((static / "learn").glob("*.js"))]:
        text = script.read_text()
        if "body" in text and "fetch(" in text and "method" in text:
            assert '"Content-Type"] = "application/json"' in text, script


# --- 3. other sites -------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "http://testserver.evil.example"},
        {"Origin": "http://testserver:8080"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_state_changes_from_other_sites_are_403(c: TestClient, headers: dict[str, str]) -> None:
    answer = c.post("/api/games", json={"game": "tictactoe"}, headers=headers)
    assert_refused(answer, 403, "requests from other sites are refused")
    game_id, secret, _ = create(c, game="tictactoe", mode="human-human")
    moved = c.post(f"/api/games/{game_id}/moves", json={"move": "b2"}, headers=secret | headers)
    assert_refused(moved, 403, "requests from other sites are refused")
    assert c.get(f"/api/games/{game_id}", headers=secret | headers).json()["moves"] == []


def test_our_own_origin_and_no_origin_may_change_state(c: TestClient) -> None:
    for headers in (
        {"Origin": "http://testserver"},
        {"Origin": "http://TestServer:80", "Sec-Fetch-Site": "same-origin"},
        {},
    ):
        assert c.post("/api/games", json={"game": "tictactoe"}, headers=headers).status_code == 201
    assert c.get("/api/meta", headers={"Origin": "https://evil.example"}).status_code == 200


# --- 4. hosts (DNS rebinding) ----------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "testserver.evil.example", "127.0.0.2", "x y"])
def test_an_unknown_host_is_400(c: TestClient, host: str) -> None:
    for method, path in (("GET", "/api/meta"), ("GET", "/"), ("POST", "/api/games")):
        answer = c.request(method, path, json={"game": "tictactoe"}, headers={"Host": host})
        assert_refused(answer, 400, "unknown host")


def test_the_loopback_names_are_always_answered(c: TestClient) -> None:
    for host in ("localhost", "LOCALHOST:8000", "127.0.0.1:8000", "[::1]:8000", "::1"):
        assert c.get("/api/meta", headers={"Host": host}).status_code == 200, host


def test_allowed_hosts_any_port_and_subdomain_patterns(tmp_path: Path) -> None:
    hosts = ("testserver", "play.example.org", "*.example.net")
    with client(tmp_path / "games.sqlite3", allowed_hosts=hosts) as own:
        for host in ("testserver:8000", "PLAY.example.org", "a.example.net:443", "b.a.example.net"):
            assert own.get("/api/meta", headers={"Host": host}).status_code == 200, host
        for host in ("localhost", "example.net", "example.org", "evilexample.net"):
            assert_refused(own.get("/api/meta", headers={"Host": host}), 400, "unknown host")


def test_the_hosts_a_bound_server_answers_to() -> None:
    assert set(allowed_hosts_for("127.0.0.1")) == set(LOOPBACK_HOSTS)
    assert "192.168.1.7" in allowed_hosts_for("192.168.1.7", ["Games.Example.org"])
    assert "games.example.org" in allowed_hosts_for("192.168.1.7", ["Games.Example.org"])
    everywhere = allowed_hosts_for("0.0.0.0")
    assert socket.gethostname().lower() in everywhere
    assert socket.getfqdn().lower() in everywhere
    assert "0.0.0.0" not in everywhere


def test_a_public_bind_says_what_it_exposes(tmp_path: Path) -> None:
    local = settings(tmp_path / "db")
    assert exposure_notice("127.0.0.1", 8000, local) is None
    assert exposure_notice("localhost", 8000, local) is None
    public = settings(tmp_path / "db", allowed_hosts=allowed_hosts_for("0.0.0.0", ["a.example"]))
    notice = exposure_notice("0.0.0.0", 8000, public)
    assert notice is not None
    for words in (
        "0.0.0.0:8000",
        "Anyone who can reach it",
        "AI searches",
        "a.example",
        "--allowed-host",
        "docs/deploy.md",
        "65,536 bytes",
        "32 per address",
    ):
        assert words in notice, words


# --- 6. strict types ------------------------------------------------------------------


def test_request_fields_are_strictly_typed(c: TestClient) -> None:
    answer = c.post("/api/games", json={"game": "tictactoe", "delay_ms": "100"})
    assert_refused(answer, 422, "delay_ms: Input should be a valid integer")
    assert_refused(c.post("/api/games", json={"game": "tictactoe", "seed": 1.0}), 422, "seed")
    assert_refused(c.post("/api/games", json={"game": "tictactoe", "seed": True}), 422, "seed")
    assert_refused(c.post("/api/games", json={"game": 3}), 422, "game")
    game_id, headers, _ = create(c, game="tictactoe", mode="human-human")
    moved = c.post(
        f"/api/games/{game_id}/moves", json={"move": "b2", "version": "0"}, headers=headers
    )
    assert_refused(moved, 422, "version: Input should be a valid integer")
    control = c.post(f"/api/games/{game_id}/control", json={"delay_ms": "5"}, headers=headers)
    assert_refused(control, 422, "delay_ms")
    trace = c.post("/api/learn/trace", json={"game": "tictactoe", "depth": "2"})
    assert_refused(trace, 422, "depth: Input should be a valid integer")
    experiment = c.post("/api/learn/experiment", json={"game": "tictactoe", "depth": 2.0})
    assert_refused(experiment, 422, "depth")
    assert c.post("/api/games", json={"game": "tictactoe", "delay_ms": 100}).status_code == 201


# --- 7. /docs without a CDN -------------------------------------------------------------


def test_the_docs_pages_load_nothing_from_elsewhere_and_run_no_inline_script(
    c: TestClient,
) -> None:
    assert c.get("/redoc").status_code == 404  # ReDoc would load its logo from a CDN
    for path in ("/docs",):
        page = c.get(path)
        assert page.status_code == 200
        policy = page.headers["content-security-policy"]
        assert (
            "http" not in policy
            and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
        )
        assert "http" not in page.text  # no CDN, no font service
        assert page.text.count("<script") == page.text.count("<script src=")
        for url in [part.split('"')[0] for part in page.text.split('src="')[1:]]:
            asset = c.get(url)
            assert asset.status_code == 200 and "javascript" in asset.headers["content-type"], url


# --- 5. slow, idle and malformed connections (a real server, raw sockets) ---------------


@contextlib.contextmanager
def guarded_server(db: Path, **changes: Any) -> Iterator[int]:
    """A real uvicorn server with our protocol and limits (``server_config``); its port."""
    port = free_port()
    chosen = settings(db, **changes)
    app = create_app(chosen)
    config = server_config(app, chosen, host="127.0.0.1", port=port)
    server = ServerThread(app, port, config=config)
    server.start()
    try:
        yield port
    finally:
        server.stop()


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    db = tmp_path_factory.mktemp("live") / "games.sqlite3"
    with guarded_server(
        db,
        header_timeout_s=1.0,
        body_timeout_s=1.0,
        keep_alive_timeout_s=1,
        max_connections_per_ip=4,
    ) as live_port:
        yield live_port


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=CLOSE_BOUND_S)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection; fails if it does not
    within CLOSE_BOUND_S (then recv times out)."""
    received = b""
    deadline = time.monotonic() + CLOSE_BOUND_S
    while True:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            pytest.fail(f"the server kept the connection open; it sent {received[:200]!r}")
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk


def read_response(sock: socket.socket) -> bytes:
    """One whole answer (its head and its Content-Length body) on a kept-open connection."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        assert chunk, f"closed after {received!r}"
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "closed in the body"
        body += chunk
    return head + b"\r\n\r\n" + body


def json_error(raw: bytes, status: int) -> str:
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 %d " % status), raw[:200]
    assert b"content-type: application/json" in head.lower()
    assert b"content-security-policy: default-src 'self'" in head.lower()
    data = json.loads(body)
    assert set(data) == {"error"}
    return str(data["error"])


def request_head(path: str = "/api/meta", extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode()


def test_a_silent_connection_is_closed_after_the_header_timeout(port: int) -> None:
    with connect(port) as sock:
        assert read_until_closed(sock) == b""


@contextlib.contextmanager
def dripping(sock: socket.socket, every_s: float = 0.2) -> Iterator[None]:
    """Send a header line every ``every_s`` (a slowloris) while the block runs."""
    stop = threading.Event()

    def drip() -> None:
        number = 0
        while not stop.wait(every_s):
            number += 1
            try:
                sock.sendall(f"X-Drip-{number}: {'a' * 10}\r\n".encode())
            except OSError:
                return

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    try:
        yield
    finally:
        stop.set()
        dripper.join(CLOSE_BOUND_S)


def test_a_slowloris_connection_is_closed(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with dripping(sock):
            answer = read_until_closed(sock)
    assert "the request head did not arrive within 1 s" in json_error(answer, 408)


def test_a_slowloris_after_a_first_answer_is_closed_too(port: int) -> None:
    # Any byte stops uvicorn's keep-alive timer; the head's own deadline still runs.
    with connect(port) as sock:
        sock.sendall(request_head())
        assert read_response(sock).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with dripping(sock):
            answer = read_until_closed(sock)
    assert "did not arrive" in json_error(answer, 408)


def test_an_idle_keep_alive_connection_is_closed(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(request_head())
        answer = read_until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 200") and b'"games"' in answer


def test_a_slow_body_is_408(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 40\r\n\r\n{"ga'
        )
        assert "the request body did not arrive within 1 s" in json_error(
            read_until_closed(sock), 408
        )


@pytest.mark.parametrize(
    "head",
    [
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
        b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",  # TLS to a plain port
    ],
)
def test_invalid_http_is_a_json_400(port: int, head: bytes) -> None:
    with connect(port) as sock:
        sock.sendall(head)
        assert "not valid HTTP" in json_error(read_until_closed(sock), 400)


def test_an_oversized_request_head_is_a_json_431(port: int) -> None:
    with connect(port) as sock:
        with contextlib.suppress(OSError):  # the server may close while we still send
            sock.sendall(request_head(extra=f"X-Pad: {'a' * 40_000}\r\n"))
        assert "request head is larger than 16,384 bytes" in json_error(
            read_until_closed(sock), 431
        )


def test_an_unknown_host_over_the_wire_is_400_json(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(
            b"GET /api/meta HTTP/1.1\r\nHost: rebind.evil.example\r\nConnection: close\r\n\r\n"
        )
        assert "unknown host" in json_error(read_until_closed(sock), 400)


def test_connections_past_the_per_address_cap_are_closed_at_once(tmp_path: Path) -> None:
    with guarded_server(tmp_path / "games.sqlite3", max_connections_per_ip=4) as own_port:
        kept = [connect(own_port) for _ in range(4)]
        try:
            for sock in kept:  # each answered once: the server has accepted all four
                sock.sendall(request_head())
                assert read_response(sock).startswith(b"HTTP/1.1 200")
            with connect(own_port) as extra:
                assert read_until_closed(extra) == b""
            kept[0].sendall(request_head(extra="Connection: close\r\n"))
            assert read_until_closed(kept[0]).startswith(b"HTTP/1.1 200")
        finally:
            for sock in kept:
                sock.close()


def test_one_clients_flood_of_searches_leaves_a_worker_for_another(tmp_path: Path) -> None:
    """Issue 42: thirty AI-vs-AI imports from one site put another player's game at the back
    of the queue. Now the flooding client runs one search and waits in its own line; the
    other client's AI starts thinking at once."""
    app = create_app(settings(tmp_path / "games.sqlite3", workers=2, max_queue=200))
    record = {
        "format": "abgames-game",
        "version": 1,
        "game": "tictactoe",
        "moves": [],
        "players": ["ai", "ai"],
        "levels": [SLOW_LEVEL, SLOW_LEVEL],
    }
    flooder = {"X-Test-Peer": "10.6.6.6"}
    with TestClient(PeerFromHeader(app)) as http:
        statuses = [
            http.post("/api/games/import", json=record, headers=flooder).status_code
            for _ in range(12)
        ]
        # One search runs and eight wait (that client's share); the rest are refused.
        assert statuses.count(201) == 9 and statuses.count(429) == 3
        pool = app.state.service.pool
        assert (pool.running, pool.waiting) == (1, 8)
        honest = {"X-Test-Peer": "10.7.7.7"}
        made = http.post(
            "/api/games",
            json={"game": "tictactoe", "level": SLOW_LEVEL, "first": "ai"},
            headers=honest,
        )
        assert made.status_code == 201, made.text
        state = made.json()["state"]
        assert state["status"] == "thinking" and state["queue_position"] is None
        secret = {"X-Game-Secret": made.json()["secret"]} | honest
        assert http.post(f"/api/games/{made.json()['id']}/move-now", headers=secret).is_success
        wait_for(http, made.json()["id"], secret)
