"""The web app under abuse, from other processes on this machine: the figures of docs/deploy.md.

Run: ``.venv/bin/python benchmarks/web_abuse.py`` (about two minutes)

Starts ``abgames web`` (a subprocess on 127.0.0.1, a temporary database, its default
limits) and, from this process, plays the attacker and the honest player, each from
its own loopback address (127.0.0.2 and 127.0.0.3: two clients, as two machines would
be), then prints:

1. a creation flood: ``--flood`` ``POST /api/games`` as fast as one client sends them
   (201 vs 429, and the database's size before and after);
2. an honest client's first AI reply (Connect Four ``easy``) while another client floods
   the queue with AI-vs-AI ``max`` Gomoku imports (the attack of issue 42);
3. how long silent sockets and slow-header ("slowloris") sockets stay open;
4. ``/api/meta`` latency (p50 / p95 / worst) while two of the heaviest /learn
   experiments run (Connect Four 9x9 to depth 6), from two clients.

It asserts nothing: it prints what it measured.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ATTACKER = "127.0.0.2"
#: The queue flooder (a second attacker: the first one is rate limited by then).
FLOODER = "127.0.0.6"
HONEST = "127.0.0.3"
LEARNERS = ("127.0.0.4", "127.0.0.5")
START_TIMEOUT_S = 120.0
REQUEST_TIMEOUT_S = 60.0
#: The AI-vs-AI game the attacker imports again and again: a middle game, so that each
#: import starts a full 10 s ``max`` search at once.
FLOOD_RECORD = {
    "format": "abgames-game",
    "version": 1,
    "game": "gomoku",
    "options": {"size": 15},
    "moves": ["h8", "i9", "h9", "h10", "g9"],
    "players": ["ai", "ai"],
    "levels": ["max", "max"],
}
HEAVY_EXPERIMENT = {"game": "connect4", "options": {"width": 9, "height": 9}, "depth": 6}
SOCKET_WATCH_S = 90.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


#: Connections one benchmark client keeps open (under the server's per-address cap).
CLIENT_CONNECTIONS = 16


def client_from(address: str, base: str) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=CLIENT_CONNECTIONS)
    transport = httpx.AsyncHTTPTransport(local_address=address, limits=limits)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=REQUEST_TIMEOUT_S)


async def wait_until_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    async with httpx.AsyncClient(base_url=base, timeout=5.0) as client:
        while True:
            if server.poll() is not None:
                raise SystemExit("the server stopped while starting")
            with contextlib.suppress(httpx.TransportError):
                health = (await client.get("/api/health")).json()
                if health["ready"] == health["workers"]:
                    return
            if time.monotonic() > deadline:
                raise SystemExit("the server's workers did not warm up in time")
            await asyncio.sleep(0.2)


def database_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*") if p.is_file())


async def creation_flood(base: str, db: Path, count: int) -> None:
    before = database_bytes(db)
    statuses: dict[int, int] = {}
    started = time.monotonic()
    async with client_from(ATTACKER, base) as attacker:

        async def one() -> None:
            try:
                answer = await attacker.post(
                    "/api/games", json={"game": "tictactoe", "mode": "human-human"}
                )
                code = answer.status_code
            except httpx.TransportError:
                code = 0  # the connection was refused or closed
            statuses[code] = statuses.get(code, 0) + 1

        for start in range(0, count, 50):
            await asyncio.gather(*(one() for _ in range(min(50, count - start))))
    elapsed = time.monotonic() - started
    after = database_bytes(db)
    shown = ", ".join(f"{code or 'closed'}: {n}" for code, n in sorted(statuses.items()))
    print(f"1. creation flood: {count} POST /api/games in {elapsed:.1f} s -> {shown}")
    print(f"   database: {before / 1024:.0f} kB before, {after / 1024:.0f} kB after")


async def first_reply_under_flood(base: str, imports: int) -> None:
    async with client_from(FLOODER, base) as attacker, client_from(HONEST, base) as honest:
        flood: dict[int, int] = {}
        body = json.dumps(FLOOD_RECORD)
        for _ in range(imports):
            answer = await attacker.post(
                "/api/games/import", content=body, headers={"Content-Type": "application/json"}
            )
            flood[answer.status_code] = flood.get(answer.status_code, 0) + 1
        health = (await honest.get("/api/health")).json()
        created = await honest.post("/api/games", json={"game": "connect4", "level": "easy"})
        game = created.json()
        headers = {"X-Game-Secret": game["secret"]}
        path = f"/api/games/{game['id']}"
        started = time.monotonic()
        moved = await honest.post(f"{path}/moves", json={"move": 3}, headers=headers)
        position = moved.json().get("queue_position")
        while True:
            state = (await honest.get(path, headers=headers)).json()
            if len(state["moves"]) >= 2 or state["status"] == "over":
                break
            if time.monotonic() - started > REQUEST_TIMEOUT_S:
                break
            await asyncio.sleep(0.02)
        reply_s = time.monotonic() - started
    shown = ", ".join(f"{code}: {n}" for code, n in sorted(flood.items()))
    print(
        f"2. {imports} imports of an AI-vs-AI max Gomoku game from one client -> {shown}; "
        f"pool then: {health['running']} running, {health['waiting']} waiting"
    )
    print(
        f"   honest client's Connect Four easy: queue position {position}, "
        f"first AI reply after {reply_s:.2f} s"
    )


async def watch_socket(port: int, slow: bool) -> float:
    """Seconds until the server closes a silent (or slow-header) connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.monotonic()
    try:
        if slow:
            writer.write(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while time.monotonic() - started < SOCKET_WATCH_S:
            with contextlib.suppress(TimeoutError):
                data = await asyncio.wait_for(reader.read(1024), 5.0 if slow else 1.0)
                if not data:
                    return time.monotonic() - started
                continue
            if slow:
                writer.write(b"X-Slow: 1\r\n")
                await writer.drain()
        return float("inf")
    except (ConnectionError, OSError):
        return time.monotonic() - started
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def slow_sockets(port: int) -> None:
    silent = await asyncio.gather(*(watch_socket(port, slow=False) for _ in range(3)))
    slow = await asyncio.gather(*(watch_socket(port, slow=True) for _ in range(10)))

    def shown(times: list[float]) -> str:
        open_still = sum(1 for t in times if t == float("inf"))
        closed = [t for t in times if t != float("inf")]
        text = f"closed after {min(closed):.1f}-{max(closed):.1f} s" if closed else "none closed"
        return text + (
            f", {open_still} still open after {SOCKET_WATCH_S:.0f} s" if open_still else ""
        )

    print(f"3. 3 silent sockets: {shown(list(silent))}")
    print(f"   10 slow-header sockets (a header line every 5 s): {shown(list(slow))}")


async def meta_while_learning(base: str, probes: int) -> None:
    async with client_from(HONEST, base) as probe:
        idle = [await timed_get(probe) for _ in range(probes)]
        learners = [client_from(address, base) for address in LEARNERS]
        try:
            tasks = [
                asyncio.create_task(c.post("/api/learn/experiment", json=HEAVY_EXPERIMENT))
                for c in learners
            ]
            await asyncio.sleep(1.0)  # both are running by now
            busy: list[float] = []
            while not all(task.done() for task in tasks) and len(busy) < probes:
                busy.append(await timed_get(probe))
                await asyncio.sleep(0.01)
            answers = [await task for task in tasks]
        finally:
            for c in learners:
                await c.aclose()

    def shown(times: list[float]) -> str:
        ordered = sorted(times)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        return f"p50 {statistics.median(ordered):.1f} / p95 {p95:.1f} / worst {ordered[-1]:.1f} ms"

    codes = [answer.status_code for answer in answers]
    print(f"4. /api/meta idle ({len(idle)} requests): {shown(idle)}")
    print(
        f"   while two Connect Four 9x9 depth-6 experiments run ({len(busy)} requests, "
        f"experiments answered {codes}): {shown(busy)}"
    )


async def timed_get(client: httpx.AsyncClient) -> float:
    started = time.perf_counter()
    (await client.get("/api/meta")).raise_for_status()
    return (time.perf_counter() - started) * 1000


async def main(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite3"
        command = [sys.executable, "-m", "abgames", "web", "--port", str(port), "--db", str(db)]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=dict(os.environ))
        try:
            await wait_until_ready(base, server)
            print(f"abgames web on {base}: default limits, 2 workers", flush=True)
            if "1" in args.parts:
                await creation_flood(base, db, args.flood)
            if "2" in args.parts:
                await first_reply_under_flood(base, args.imports)
            if "3" in args.parts:
                await slow_sockets(port)
            if "4" in args.parts:
                await meta_while_learning(base, args.probes)
        finally:
            server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(10)
            if server.poll() is None:
                server.kill()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--flood", type=int, default=2000, help="creations in the flood")
    parser.add_argument("--imports", type=int, default=30, help="AI-vs-AI imports in the flood")
    parser.add_argument("--probes", type=int, default=200, help="/api/meta requests per phase")
    parser.add_argument("--parts", default="1234", help="which of the four measures to run")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
