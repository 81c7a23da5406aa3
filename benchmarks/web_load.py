"""Load on the web app: N simulated players play whole games against a server it starts.

Run: ``.venv/bin/python benchmarks/web_load.py --players 50 --duration 120``

Starts ``abgames web`` (a subprocess on 127.0.0.1, a temporary database), waits
for its workers to warm up, then runs N players at once (async httpx), each
playing whole games in turn: Gomoku ``hard``, Connect Four ``hard`` and
tic-tac-toe ``perfect`` against the AI, a random legal move (near the stones in
Gomoku) as the human, and following the game's event stream while the AI thinks
(as the page does; ``--poll`` polls the state instead). Each player comes from
its own loopback address (127.0.1.N), so the server's per-client limits and its fair
search queue treat them as the separate people they stand for. It prints
requests/s, p50/p95/p99 latency of the non-search requests (reading the state,
playing a move), AI moves per minute, errors, lost moves (a move that was
accepted but is missing from the game afterwards), and the server's memory
(the server process plus its workers) over the run. It asserts no time.

``--pairs P --watchers W`` adds P games between people on two devices (a ``friend``
game: one player creates it, the other joins with its invitation, each from its own
address) with W watchers each; both players and the watchers follow the event
streams, and the benchmark prints the event latency between the two players: from the
moment a player sends a move to the moment the other player's stream (and each
watcher's) delivers the new state, p50/p95/p99.

``--cluster [ADDRESS]`` runs the same load twice, on local processes and then with
the searches on Ray (``abgames web --cluster``; a local cluster of 1-CPU nodes
started for it, without ADDRESS), and ends with both side by side. The memory
figures of the cluster run leave the actors out (they are not the server's children).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

#: The games the players cycle through: (game, level, options).
GAMES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("gomoku", "hard", {}),
    ("connect4", "hard", {}),
    ("tictactoe", "perfect", {}),
)
MAX_PLAYERS = 200
MAX_DURATION_S = 600.0
#: How often a player polls while the AI thinks, and a human's "thinking" pause (seconds).
POLL_S = 0.3
HUMAN_PAUSE_S = 0.1
#: How often the server's memory is sampled (seconds).
MEMORY_EVERY_S = 5.0
#: How often the benchmark checks how late its own event loop runs (seconds).
LAG_EVERY_S = 0.05
START_TIMEOUT_S = 120.0
REQUEST_TIMEOUT_S = 30.0
STATE_FIELDS = re.compile(r'"version":(?P<version>\d+)')
STATUS_FIELD = re.compile(r'"status":"([a-z-]+)"')


@dataclass
class Figures:
    latencies_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    server_by_kind: dict[str, list[float]] = field(default_factory=dict)
    probe_ms: list[float] = field(default_factory=list)
    loop_lag_ms: list[float] = field(default_factory=list)
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    ai_moves: int = 0
    lost_moves: int = 0
    memory_mb: list[tuple[float, float, float]] = field(default_factory=list)
    #: Games between people: the move's sending to its arrival at the other player's
    #: stream, and at the watchers' streams (ms).
    opponent_event_ms: list[float] = field(default_factory=list)
    watcher_event_ms: list[float] = field(default_factory=list)
    people_games: int = 0
    people_finished: int = 0
    people_moves: int = 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (0 if it is gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def memory_mb(pid: int) -> tuple[float, float]:
    """(server, its children together: the workers) resident memory in MB."""
    children: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            text = (task / "children").read_text()
            children += [int(child) for child in text.split()]
    return rss_mb(pid), sum(rss_mb(child) for child in children)


def choose_move(state: dict[str, Any], rng: random.Random) -> int:
    """A random legal move; in Gomoku one next to a stone when there is one."""
    legal: list[int] = state["legal"]
    if state["game"] == "gomoku" and state["moves"]:
        width = state["board"]["width"]
        cells = state["board"]["cells"]
        near = [
            move
            for move in legal
            if any(
                0 <= (move // width) + dy < width
                and 0 <= (move % width) + dx < width
                and cells[move + dy * width + dx] is not None
                for dy in (-1, 0, 1)
                for dx in (-1, 0, 1)
            )
        ]
        if near:
            return rng.choice(near)
    return rng.choice(legal)


async def timed(
    figures: Figures, client: httpx.AsyncClient, method: str, url: str, **kwargs: Any
) -> httpx.Response:
    """A non-search request, its latency recorded."""
    start = time.perf_counter()
    response = await client.request(method, url, **kwargs)
    elapsed_ms = (time.perf_counter() - start) * 1000
    figures.latencies_ms.append(elapsed_ms)
    kind = f"{method} {'game' if url.count('/') == 3 else url.rsplit('/', 1)[-1]}"
    figures.by_kind.setdefault(kind, []).append(elapsed_ms)
    timing = response.headers.get("server-timing", "")
    if timing.startswith("app;dur="):
        figures.server_ms.append(float(timing[len("app;dur=") :]))
        figures.server_by_kind.setdefault(kind, []).append(figures.server_ms[-1])
    figures.requests += 1
    if response.status_code >= 400:
        figures.errors.append(
            f"{method} {url.split('/')[-1]}: {response.status_code} {response.text[:80]}"
        )
    return response


class EventFollower:
    """Keeps the game's event stream open, as the page does, and tells when it is our turn."""

    def __init__(self, client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        self.version = 0
        self.status = ""
        self.arrived: dict[int, float] = {}  # state version -> when it arrived (perf_counter)
        self._changed = asyncio.Event()
        self._task = asyncio.create_task(self._follow(client, url, headers))

    async def _follow(self, client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        with contextlib.suppress(httpx.HTTPError):
            async with client.stream("GET", url, headers=headers) as response:
                kind = ""
                async for line in response.aiter_lines():
                    if line.startswith("event: "):
                        kind = line[len("event: ") :]
                    elif kind == "state" and line.startswith("data: "):
                        found = STATE_FIELDS.search(line)
                        if found:
                            self.version = int(found.group("version"))
                            self.arrived.setdefault(self.version, time.perf_counter())
                        status = STATUS_FIELD.search(line)
                        if status:
                            self.status = status.group(1)
                        self._changed.set()

    async def wait_after(self, version: int, deadline: float) -> None:
        """Wait for a state newer than ``version`` in which a human is to move (or it is over)."""
        with contextlib.suppress(asyncio.TimeoutError):
            async with asyncio.timeout(max(0.1, deadline - time.monotonic())):
                while not (self.version > version and self.status in ("your-turn", "over")):
                    self._changed.clear()
                    await self._changed.wait()

    async def arrival(self, version: int, deadline: float) -> float | None:
        """When the state of ``version`` (or a later one) arrived; None if not by ``deadline``."""
        with contextlib.suppress(asyncio.TimeoutError):
            async with asyncio.timeout(max(0.1, deadline - time.monotonic())):
                while self.version < version:
                    self._changed.clear()
                    await self._changed.wait()
        later = [at for seen, at in self.arrived.items() if seen >= version]
        return min(later) if later else None

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


async def play_games(
    number: int,
    client: httpx.AsyncClient,
    deadline: float,
    figures: Figures,
    seed: int,
    events: bool,
    games: tuple[tuple[str, str, dict[str, Any]], ...] = GAMES,
) -> None:
    rng = random.Random(seed + number)
    round_ = number
    while time.monotonic() < deadline:
        game, level, options = games[round_ % len(games)]
        round_ += 1
        created = await timed(
            figures,
            client,
            "POST",
            "/api/games",
            json={"game": game, "level": level, "options": options},
        )
        if created.status_code != 201:
            await asyncio.sleep(1.0)
            continue
        figures.games_started += 1
        data = created.json()
        game_url = f"/api/games/{data['id']}"
        headers = {"X-Game-Secret": data["secret"]}
        state = data["state"]
        follower = EventFollower(client, f"{game_url}/events", headers) if events else None
        try:
            await play_one_game(
                client, game, game_url, headers, state, follower, deadline, figures, rng
            )
        finally:
            if follower is not None:
                await follower.close()


async def play_one_game(
    client: httpx.AsyncClient,
    game: str,
    game_url: str,
    headers: dict[str, str],
    state: dict[str, Any],
    follower: EventFollower | None,
    deadline: float,
    figures: Figures,
    rng: random.Random,
) -> None:
    """Play until the game is over (or time is up), checking that no move is ever lost."""
    accepted: list[int] = []  # every move the server accepted, in order
    while time.monotonic() < deadline:
        played = [entry["move"] for entry in state["moves"]]
        if played[: len(accepted)] != accepted:
            figures.lost_moves += 1
            figures.errors.append(f"lost move in {game}")
            break
        if state["status"] == "over":
            figures.games_finished += 1
            break
        if state["status"] == "your-turn":
            await asyncio.sleep(HUMAN_PAUSE_S)
            move = choose_move(state, rng)
            answer = await timed(
                figures,
                client,
                "POST",
                f"{game_url}/moves",
                json={"move": move, "version": state["version"]},
                headers=headers,
            )
            if answer.status_code != 200:
                break
            state = answer.json()
            accepted = [entry["move"] for entry in state["moves"]]
            continue
        if follower is not None:
            await follower.wait_after(state["version"], deadline)
        else:
            await asyncio.sleep(POLL_S)
        before = len(state["moves"])
        answer = await timed(figures, client, "GET", game_url, headers=headers)
        if answer.status_code != 200:
            break
        state = answer.json()
        if len(state["moves"]) > before:
            figures.ai_moves += len(state["moves"]) - before
            accepted = [entry["move"] for entry in state["moves"]]


#: Games between people: Connect Four and Gomoku (long enough to measure many moves).
PEOPLE_GAMES = ("connect4", "gomoku")


async def play_people(
    pair: int,
    clients: list[httpx.AsyncClient],
    deadline: float,
    figures: Figures,
    seed: int,
) -> None:
    """Games between two people (``clients[0]`` creates, ``clients[1]`` joins), watched by
    the other clients, one after another until ``deadline``: each move's event latency
    to the other player and to the watchers."""
    rng = random.Random(seed * 7919 + pair)
    host_client, friend_client, *watcher_clients = clients
    round_ = pair
    while time.monotonic() < deadline:
        game = PEOPLE_GAMES[round_ % len(PEOPLE_GAMES)]
        round_ += 1
        created = await timed(
            figures, host_client, "POST", "/api/games", json={"game": game, "mode": "friend"}
        )
        if created.status_code != 201:
            await asyncio.sleep(1.0)
            continue
        data = created.json()
        game_url = f"/api/games/{data['id']}"
        joined = await timed(
            figures, friend_client, "POST", f"{game_url}/join", json={"invite": data["invite"]}
        )
        if joined.status_code != 201:
            continue
        figures.people_games += 1
        seats = {data["seat"]: (host_client, data["secret"])}
        seats[joined.json()["seat"]] = (friend_client, joined.json()["secret"])
        followers = {
            seat: EventFollower(http, f"{game_url}/events", {"X-Game-Secret": secret})
            for seat, (http, secret) in seats.items()
        }
        watchers = [EventFollower(http, f"{game_url}/watch/events", {}) for http in watcher_clients]
        try:
            await play_people_game(
                game_url, joined.json()["state"], seats, followers, watchers, deadline, figures, rng
            )
        finally:
            for follower in (*followers.values(), *watchers):
                await follower.close()


async def play_people_game(
    game_url: str,
    state: dict[str, Any],
    seats: dict[int, tuple[httpx.AsyncClient, str]],
    followers: dict[int, EventFollower],
    watchers: list[EventFollower],
    deadline: float,
    figures: Figures,
    rng: random.Random,
) -> None:
    while time.monotonic() < deadline and state["status"] != "over":
        await asyncio.sleep(HUMAN_PAUSE_S)
        mover = state["to_move"]
        http, secret = seats[mover]
        sent = time.perf_counter()
        answer = await timed(
            figures,
            http,
            "POST",
            f"{game_url}/moves",
            json={"move": choose_move(state, rng), "version": state["version"]},
            headers={"X-Game-Secret": secret},
        )
        if answer.status_code != 200:
            return
        state = answer.json()
        figures.people_moves += 1
        version = state["version"]
        arrived = await followers[1 - mover].arrival(version, deadline)
        if arrived is not None:
            figures.opponent_event_ms.append((arrived - sent) * 1000)
        for watcher in watchers:
            seen = await watcher.arrival(version, deadline)
            if seen is not None:
                figures.watcher_event_ms.append((seen - sent) * 1000)
    if state["status"] == "over":
        figures.people_finished += 1


async def watch_own_loop(deadline: float, figures: Figures) -> None:
    """How late this benchmark's own event loop wakes up: its share of the latencies."""
    while time.monotonic() < deadline:
        start = time.perf_counter()
        await asyncio.sleep(LAG_EVERY_S)
        figures.loop_lag_ms.append((time.perf_counter() - start - LAG_EVERY_S) * 1000)


async def sample_memory(pid: int, deadline: float, figures: Figures, started: float) -> None:
    while time.monotonic() < deadline:
        figures.memory_mb.append((time.monotonic() - started, *memory_mb(pid)))
        await asyncio.sleep(MEMORY_EVERY_S)
    figures.memory_mb.append((time.monotonic() - started, *memory_mb(pid)))


async def wait_until_ready(base: str, server: subprocess.Popen[bytes]) -> dict[str, Any]:
    deadline = time.monotonic() + START_TIMEOUT_S
    async with httpx.AsyncClient(base_url=base, timeout=5.0) as client:
        while True:
            if server.poll() is not None:
                raise SystemExit("the server stopped while starting")
            with contextlib.suppress(httpx.TransportError):
                health: dict[str, Any] = (await client.get("/api/health")).json()
                if health["ready"] == health["workers"]:
                    return health
            if time.monotonic() > deadline:
                raise SystemExit("the server's workers did not warm up in time")
            await asyncio.sleep(0.2)


#: A separate process that reads one Gomoku game's state every PROBE_EVERY_S seconds
#: and prints the latencies: the server as a client with a CPU of its own sees it.
PROBE_EVERY_S = 0.25
PROBE = """
import json, sys, time, httpx
base, seconds, every = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
with httpx.Client(base_url=base, timeout=30) as http:
    created = http.post("/api/games", json={"game": "gomoku", "mode": "human-human"}).json()
    url, headers = "/api/games/" + created["id"], {"X-Game-Secret": created["secret"]}
    for move in ("h8", "h9", "i8", "g7", "j9", "j7"):
        http.post(url + "/moves", json={"move": move}, headers=headers)
    latencies, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        http.get(url, headers=headers)
        latencies.append((time.perf_counter() - start) * 1000)
        time.sleep(every)
print(json.dumps(latencies))
"""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def player_client(base: str, number: int) -> httpx.AsyncClient:
    """Player ``number``'s HTTP client, from its own loopback address (127.0.1.N)."""
    address = f"127.0.{1 + number // 250}.{1 + number % 250}"
    transport = httpx.AsyncHTTPTransport(
        local_address=address,
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=None),
    )
    return httpx.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT_S, transport=transport)


async def load(args: argparse.Namespace, extra: list[str]) -> tuple[Figures, float, dict[str, Any]]:
    """One run of the load against a server started with ``extra`` arguments."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "load.sqlite3"
        how = args.server.split() if args.server else ["-m", "abgames", "web"]
        command = [sys.executable, *how, "--port", str(port)]
        command += ["--db", str(db)]
        command += ["--workers", str(args.workers), "--max-queue", str(args.max_queue)]
        # Each simulated player comes from its own loopback address (127.0.1.N), as
        # players on their own machines would: the server's per-client limits, search
        # quotas and fairness apply to each as they would in use.
        command += extra
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=dict(os.environ))
        try:
            health = await wait_until_ready(base, server)
            print(
                f"server ready: {health['workers']} workers "
                f"({health.get('workers_on', 'local')}); {args.players} players for "
                f"{args.duration:.0f} s",
                flush=True,
            )
            figures = Figures()
            probe = subprocess.Popen(
                [sys.executable, "-c", PROBE, base, str(args.duration), str(PROBE_EVERY_S)],
                stdout=subprocess.PIPE,
                text=True,
            )
            started = time.monotonic()
            deadline = started + args.duration
            async with contextlib.AsyncExitStack() as stack:
                tasks = []
                for n in range(args.players):
                    http = await stack.enter_async_context(player_client(base, n))
                    tasks.append(
                        play_games(n, http, deadline, figures, args.seed, not args.poll, args.games)
                    )
                per_pair = 2 + args.watchers
                for pair in range(args.pairs):
                    first = args.players + pair * per_pair
                    clients = [
                        await stack.enter_async_context(player_client(base, first + k))
                        for k in range(per_pair)
                    ]
                    tasks.append(play_people(pair, clients, deadline, figures, args.seed))
                await asyncio.gather(
                    sample_memory(server.pid, deadline, figures, started),
                    watch_own_loop(deadline, figures),
                    *tasks,
                )
            elapsed = time.monotonic() - started
            probe_out, _ = probe.communicate(timeout=60)
            figures.probe_ms = json.loads(probe_out or "[]")
            async with httpx.AsyncClient(base_url=base) as client:
                health = (await client.get("/api/health")).json()
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
    return figures, elapsed, health


async def run(args: argparse.Namespace) -> int:
    if args.cluster is None:
        report(args, *await load(args, []))
        return 0
    print("on local processes:", flush=True)
    local = await load(args, [])
    report(args, *local)
    with ray_cluster(args.cluster, args.workers) as address:
        print(f"on the Ray cluster at {address}:", flush=True)
        remote = await load(args, ["--cluster", address])
    report(args, *remote)
    compare([("local processes", *local), ("Ray cluster", *remote)])
    return 0


@contextlib.contextmanager
def ray_cluster(address: str, workers: int) -> Iterator[str]:
    """``address``, or a local cluster of ``max(2, workers)`` nodes of 1 CPU each."""
    if address:
        yield address
        return
    from ray.cluster_utils import Cluster

    started = time.monotonic()
    cluster: Any = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    try:
        for _ in range(max(2, workers) - 1):
            cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        print(
            f"Ray: {max(2, workers)} local nodes of 1 CPU started in "
            f"{time.monotonic() - started:.1f} s",
            flush=True,
        )
        yield str(cluster.address)
    finally:
        cluster.shutdown()


def compare(runs: list[tuple[str, Figures, float, dict[str, Any]]]) -> None:
    """The runs side by side: AI moves a minute and the non-search requests' latencies."""
    print()
    print(
        f"{'workers on':<18}{'AI moves/min':>13}{'games':>7}{'req/s':>8}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'probe p50':>11}{'probe p95':>11}"
        f"{'errors':>8}{'lost':>6}"
    )
    for name, figures, elapsed, health in runs:
        latencies = figures.latencies_ms or [float("nan")]
        probe = figures.probe_ms or [float("nan")]
        print(
            f"{name:<18}{health['ai_moves'] / elapsed * 60:>13.0f}"
            f"{figures.games_finished:>7}{figures.requests / elapsed:>8.1f}"
            f"{percentile(latencies, 0.5):>9.1f}{percentile(latencies, 0.95):>9.1f}"
            f"{percentile(latencies, 0.99):>9.1f}{percentile(probe, 0.5):>11.1f}"
            f"{percentile(probe, 0.95):>11.1f}{len(figures.errors):>8}{figures.lost_moves:>6}"
        )


def report(
    args: argparse.Namespace, figures: Figures, elapsed: float, health: dict[str, Any]
) -> None:
    latencies = figures.latencies_ms
    print(f"players {args.players}, workers {args.workers}, {elapsed:.0f} s")
    print(
        f"games started {figures.games_started}, finished {figures.games_finished}; "
        f"AI moves {health['ai_moves']} ({health['ai_moves'] / elapsed * 60:.0f} per minute)"
    )
    print(f"requests {figures.requests} ({figures.requests / elapsed:.1f}/s, non-search)")
    if latencies:
        print(
            f"latency ms: p50 {percentile(latencies, 0.5):.1f}, "
            f"p95 {percentile(latencies, 0.95):.1f}, p99 {percentile(latencies, 0.99):.1f}, "
            f"max {max(latencies):.1f}, "
            f"mean {statistics.fmean(latencies):.1f}"
        )
    for kind, values in sorted(figures.by_kind.items()):
        inside = figures.server_by_kind.get(kind) or [0.0]
        print(
            f"  {kind}: {len(values)} requests, p50 {percentile(values, 0.5):.1f}, "
            f"p95 {percentile(values, 0.95):.1f} ms (in the app: p50 "
            f"{percentile(inside, 0.5):.1f}, p95 {percentile(inside, 0.95):.1f})"
        )
    if figures.loop_lag_ms:
        lag = figures.loop_lag_ms
        print(
            f"  (this benchmark's own event loop ran late by p50 {percentile(lag, 0.5):.1f}, "
            f"p95 {percentile(lag, 0.95):.1f} ms: part of the latencies above)"
        )
    if figures.probe_ms:
        probe = figures.probe_ms
        print(
            f"  a separate probe process reading a game's state: {len(probe)} requests, "
            f"p50 {percentile(probe, 0.5):.1f}, p95 {percentile(probe, 0.95):.1f}, "
            f"p99 {percentile(probe, 0.99):.1f} ms"
        )
    if figures.server_ms:
        server = figures.server_ms
        print(
            f"  of which in the app (Server-Timing) ms: p50 {percentile(server, 0.5):.1f}, "
            f"p95 {percentile(server, 0.95):.1f}, p99 {percentile(server, 0.99):.1f}"
        )
    if figures.people_games:
        print(
            f"games between people: {figures.people_games} started, "
            f"{figures.people_finished} finished, {figures.people_moves} moves"
        )
        for name, values in (
            ("to the other player", figures.opponent_event_ms),
            ("to the watchers", figures.watcher_event_ms),
        ):
            if values:
                print(
                    f"  event latency {name} (move sent -> state on their stream): "
                    f"{len(values)} events, p50 {percentile(values, 0.5):.1f}, "
                    f"p95 {percentile(values, 0.95):.1f}, p99 {percentile(values, 0.99):.1f} ms"
                )
    print(f"errors {len(figures.errors)}, lost moves {figures.lost_moves}")
    for error in figures.errors[:10]:
        print(f"  {error}")
    if figures.memory_mb:
        step = max(1, len(figures.memory_mb) // 8)
        samples = ", ".join(
            f"{t:.0f}s {server:.0f}+{workers:.0f}"
            for t, server, workers in [*figures.memory_mb[:-1:step], figures.memory_mb[-1]]
        )
        print(f"memory MB (server + workers): {samples}")


def game_mix(text: str) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """``gomoku:hard,connect4:easy`` as the (game, level, options) the players cycle through."""
    mix: list[tuple[str, str, dict[str, Any]]] = []
    for item in text.split(","):
        game, _, level = item.strip().partition(":")
        if not game or not level:
            raise argparse.ArgumentTypeError(f"{item!r} is not GAME:LEVEL")
        mix.append((game, level, {}))
    return tuple(mix)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50, help="players against the AI")
    parser.add_argument(
        "--pairs", type=int, default=0, help="games between two people on their own devices"
    )
    parser.add_argument("--watchers", type=int, default=2, help="watchers of each such game")
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of play")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-queue", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--poll",
        action="store_true",
        help="poll the state while the AI thinks instead of following the event stream",
    )
    parser.add_argument(
        "--server",
        metavar="PYTHON_ARGS",
        help="how to start the server instead of '-m abgames web' (e.g. under a profiler); "
        "--port and --db are appended",
    )
    parser.add_argument(
        "--games",
        type=game_mix,
        default=GAMES,
        metavar="GAME:LEVEL,...",
        help="the games the players cycle through (default gomoku:hard,connect4:hard,"
        "tictactoe:perfect); e.g. tictactoe:perfect,connect4:easy for many short games",
    )
    parser.add_argument(
        "--cluster",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run the load twice: on local processes, then with the searches on Ray "
        "(abgames web --cluster): the cluster at ADDRESS, or a local cluster of two "
        "1-CPU nodes (one a worker, if --workers is more) started for it; prints both "
        "side by side",
    )
    args = parser.parse_args()
    if not 0 <= args.players <= MAX_PLAYERS:
        parser.error(f"--players is 0..{MAX_PLAYERS}")
    if not 0 <= args.pairs * (2 + args.watchers) <= MAX_PLAYERS or args.watchers < 0:
        parser.error(f"--pairs times (2 + --watchers) is 0..{MAX_PLAYERS}")
    if not 1 <= args.duration <= MAX_DURATION_S:
        parser.error(f"--duration is 1..{MAX_DURATION_S:.0f} seconds")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
