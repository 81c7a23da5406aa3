"""``abgames web``: serve the web app (uvicorn) and print its address."""

from __future__ import annotations

import argparse
import socket
import sqlite3
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Any

from abgames.arguments import integer, real

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
#: ``--cluster`` without an address: a Ray of this machine started for the server.
LOCAL_RAY = "local"
#: Seconds after start-up before --open points the browser at the page.
OPEN_DELAY_S = 1.0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "web",
        help="play in the browser (starts a local web server)",
        description="Serve the web app: every game in the browser, saved as you play. "
        "Binds to 127.0.0.1 unless --host says otherwise.",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help="address to listen on")
    parser.add_argument("--port", type=integer, default=DEFAULT_PORT, help="port to listen on")
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    parser.add_argument(
        "--db", metavar="PATH", help="SQLite file of the games (default: in your data directory)"
    )
    parser.add_argument(
        "--workers",
        type=integer,
        default=DEFAULT_WORKERS,
        help=f"AI searches run at once, one process each (default {DEFAULT_WORKERS}); "
        "with --cluster, one Ray actor each on the cluster",
    )
    from abgames.commands.cluster_option import add_cluster_option
    from abgames.ui.web.pool import MAX_WAITING_PER_CLIENT

    add_cluster_option(parser, "AI searches")
    parser.add_argument(
        "--max-queue", type=integer, default=200, help="searches that may wait for a worker"
    )
    parser.add_argument(
        "--max-waiting-per-client",
        type=integer,
        default=MAX_WAITING_PER_CLIENT,
        help=f"searches one client may have waiting (default {MAX_WAITING_PER_CLIENT})",
    )
    parser.add_argument(
        "--max-running-per-client",
        type=integer,
        default=None,
        help="searches one client may run at once (default: every worker but one)",
    )
    parser.add_argument(
        "--no-warmup",
        action="store_true",
        help="start at once without loading the engines' kernels in the workers "
        "(the first Gomoku or perfect Connect Four move then waits for them)",
    )
    from abgames.ui.web.store import MAX_GAMES

    parser.add_argument(
        "--max-games",
        type=integer,
        default=MAX_GAMES,
        help="games kept on disk; past it the oldest finished (then abandoned) ones "
        f"are deleted (default {MAX_GAMES})",
    )
    parser.add_argument(
        "--rate-scale",
        type=real,
        default=1.0,
        metavar="FACTOR",
        help="multiply every per-client rate limit and burst (docs/web.md, Limits)",
    )
    parser.add_argument(
        "--no-rate-limit",
        action="store_true",
        help="no per-client rate limits (for load benchmarks; never on a public server)",
    )
    from abgames.ui.web.limits import add_arguments as add_limit_arguments

    add_limit_arguments(parser)  # --allowed-host, --forwarded-allow-ips, timeouts, caps
    parser.set_defaults(run=run)


def open_listener(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` for uvicorn (``OSError`` if it cannot bind).

    It is made with ``IPPROTO_TCP`` named: asyncio turns Nagle's algorithm off
    (TCP_NODELAY) only on connections accepted from such a socket, and without it every
    answer on a kept-alive connection waits about 40 ms for the client's delayed ACK."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except OSError:
        listener.close()
        raise
    return listener


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from abgames.ui.web import server as web_server
    from abgames.ui.web.app import WebSettings, create_app
    from abgames.ui.web.limits import check_arguments as check_limit_arguments
    from abgames.ui.web.ratelimit import RateLimits
    from abgames.ui.web.store import GameStore, default_db_path

    if not 0 < args.port < 65536:
        print(f"abgames web: port {args.port} is not 1..65535", file=sys.stderr)
        return 2
    if not 1 <= args.workers <= 64:
        print("abgames web: --workers is 1..64", file=sys.stderr)
        return 2
    if args.max_queue < 0:
        print("abgames web: --max-queue is 0 or more", file=sys.stderr)
        return 2
    if args.max_waiting_per_client < 0:
        print("abgames web: --max-waiting-per-client is 0 or more", file=sys.stderr)
        return 2
    if args.max_running_per_client is not None and args.max_running_per_client < 1:
        print("abgames web: --max-running-per-client is 1 or more", file=sys.stderr)
        return 2
    if args.max_games < 1:
        print("abgames web: --max-games is 1 or more", file=sys.stderr)
        return 2
    if not 0 < args.rate_scale <= 1000:
        print("abgames web: --rate-scale is above 0 and at most 1000", file=sys.stderr)
        return 2
    problem = check_limit_arguments(args)
    if problem:
        print(f"abgames web: {problem}", file=sys.stderr)
        return 2
    db_path = Path(args.db) if args.db else default_db_path()
    try:
        GameStore(db_path).close()  # creates or migrates it now, so a bad path is one line
    except (OSError, sqlite3.Error, RuntimeError) as error:
        print(f"abgames web: cannot use {db_path} for the games: {error}", file=sys.stderr)
        return 2
    try:
        listener = open_listener(args.host, args.port)
    except OSError as error:
        print(
            f"abgames web: cannot listen on {args.host}:{args.port}: "
            f"{error.strerror or error} (try another --port)",
            file=sys.stderr,
        )
        return 2
    settings = WebSettings(
        db_path=db_path,
        workers=args.workers,
        max_queue=args.max_queue,
        max_waiting_per_client=args.max_waiting_per_client,
        max_running_per_client=args.max_running_per_client,
        warm=not args.no_warmup,
        **web_server.settings_from_arguments(args),
        rate_limits=RateLimits(enabled=not args.no_rate_limit, scale=args.rate_scale),
        max_games=args.max_games,
        cluster=None if args.cluster is None else args.cluster or LOCAL_RAY,
    )
    cluster = None
    if args.cluster is not None:  # connected now, so that a cluster not there is one line
        from abgames.cluster import ClusterError
        from abgames.ui.web.cluster_workers import connect

        try:
            cluster = connect(settings.cluster or LOCAL_RAY, args.workers)
        except ClusterError as error:
            listener.close()
            print(f"abgames web: {error}", file=sys.stderr)
            return 2
    app = create_app(settings, cluster=cluster)
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http://{shown_host}:{args.port}/"
    print(f"abgames web: serving on {address} (games in {db_path}); Ctrl-C stops", flush=True)
    notice = web_server.exposure_notice(args.host, args.port, settings)
    if notice:
        print(notice, flush=True)
    if args.open:
        threading.Timer(OPEN_DELAY_S, webbrowser.open, args=(address,)).start()
    config = web_server.server_config(app, settings, host=args.host, port=args.port)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[listener])
    finally:
        if cluster is not None:
            cluster.__exit__(None, None, None)
    return 0 if server.started else 2
