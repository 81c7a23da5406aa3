"""The limits at the web app's edge, their defaults, and ``abgames web``'s flags for them.

Light on purpose (argparse only): ``abgames`` builds every sub-command's flags at start.
The limits are enforced in ``guards.py`` (hosts, origins, bodies) and ``server.py``
(connections); docs/web.md and docs/deploy.md list them.
"""

from __future__ import annotations

import argparse

from abgames.arguments import integer, real

#: Names a server on this machine answers to wherever it listens.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Addresses that mean "every interface".
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
#: Deepest nesting of arrays and objects accepted in a JSON body (a save file needs 2).
MAX_JSON_DEPTH = 32
#: Longest integer accepted in a JSON body, in digits (a seed fits in 19).
MAX_JSON_INT_DIGITS = 20
#: Seconds a request body may take to arrive once its head has (``--body-timeout``).
BODY_TIMEOUT_S = 30.0
#: Seconds a connection may take to send a whole request head (``--header-timeout``).
HEADER_TIMEOUT_S = 10.0
#: Seconds an idle keep-alive connection stays open (``--keep-alive-timeout``).
KEEP_ALIVE_TIMEOUT_S = 5
#: Connections open at once (``--max-connections``); beyond, a new one is closed at once.
MAX_CONNECTIONS = 1000
#: Connections open at once from one client address (``--max-connections-per-ip``).
MAX_CONNECTIONS_PER_IP = 32
#: Largest request head: request line and headers, bytes.
MAX_HEADER_BYTES = 16 * 1024
#: Seconds Ctrl-C waits for open requests (event streams) before closing them.
SHUTDOWN_GRACE_S = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``abgames web``'s flags for the limits above, the allowed hosts and proxies."""
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server may be reached at (the Host header; repeatable; "
        "'*.example.com' allows its subdomains). Always allowed: localhost, 127.0.0.1, "
        "::1, the --host address, and on 0.0.0.0 or :: this machine's name and addresses",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="addresses of reverse proxies (comma-separated, or '*') whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed (default: none)",
    )
    parser.add_argument(
        "--header-timeout",
        type=real,
        default=HEADER_TIMEOUT_S,
        metavar="S",
        help=f"seconds a client may take to send a request head (default {HEADER_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--body-timeout",
        type=real,
        default=BODY_TIMEOUT_S,
        metavar="S",
        help=f"seconds a request body may take to arrive (default {BODY_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--keep-alive-timeout",
        type=integer,
        default=KEEP_ALIVE_TIMEOUT_S,
        metavar="S",
        help=f"seconds an idle connection stays open (default {KEEP_ALIVE_TIMEOUT_S})",
    )
    parser.add_argument(
        "--max-connections",
        type=integer,
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"connections open at once; more are closed (default {MAX_CONNECTIONS})",
    )
    parser.add_argument(
        "--max-connections-per-ip",
        type=integer,
        default=MAX_CONNECTIONS_PER_IP,
        metavar="N",
        help="connections open at once from one address, a trusted proxy's excepted "
        f"(default {MAX_CONNECTIONS_PER_IP})",
    )


def check_arguments(args: argparse.Namespace) -> str | None:
    """What is wrong with the flags above, in one line (None: nothing)."""
    for flag, value in (
        ("--header-timeout", args.header_timeout),
        ("--body-timeout", args.body_timeout),
        ("--keep-alive-timeout", args.keep_alive_timeout),
    ):
        if not 0 < value <= 3600:
            return f"{flag} is above 0 and at most 3600 seconds"
    if not 1 <= args.max_connections <= 100_000:
        return "--max-connections is 1..100000"
    if not 1 <= args.max_connections_per_ip <= args.max_connections:
        return "--max-connections-per-ip is 1..--max-connections"
    for name in args.allowed_host:
        try:
            from abgames.ui.web.guards import split_host

            split_host(name.removeprefix("*."))
        except ValueError:
            return f"--allowed-host {name!r} is not a host name"
    return None
