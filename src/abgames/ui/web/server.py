"""The uvicorn server of ``abgames web``: its config, and the connection limits uvicorn
has no setting for.

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``) and caps a
request head's size (``h11_max_incomplete_event_size``), but it waits forever for a
request head that never ends and accepts any number of connections. ``GuardedH11Protocol``
(uvicorn's h11 protocol, subclassed) adds:

- a deadline for each request head: ``header_timeout_s`` from connecting or from the
  previous answer; a connection that sent part of a head then hears 408, one that sent
  nothing is closed;
- at most ``max_connections`` connections open, and ``max_connections_per_ip`` from one
  address (a trusted proxy's excepted); a connection beyond is closed at once;
- its errors in the API's JSON shape with the security headers (uvicorn's own 400 is
  plain text).

A request body's deadline is the app's (``guards.BodyGuard``, 408).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, H11Protocol
from uvicorn.server import ServerState

from abgames.ui.web.errors import error_body
from abgames.ui.web.limits import (
    HEADER_TIMEOUT_S,
    LOOPBACK_HOSTS,
    MAX_CONNECTIONS,
    MAX_CONNECTIONS_PER_IP,
    MAX_HEADER_BYTES,
    SHUTDOWN_GRACE_S,
    WILDCARD_HOSTS,
)
from abgames.ui.web.security import security_headers

if TYPE_CHECKING:
    from abgames.ui.web.app import WebSettings


log = logging.getLogger("abgames.web")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class ConnectionLimits:
    """What ``GuardedH11Protocol`` enforces."""

    header_timeout_s: float = HEADER_TIMEOUT_S
    max_connections: int = MAX_CONNECTIONS
    max_connections_per_ip: int = MAX_CONNECTIONS_PER_IP
    max_header_bytes: int = MAX_HEADER_BYTES
    #: Peers exempt from the per-address cap: the trusted proxies (all for ``"*"``).
    proxies: tuple[Network, ...] = ()
    every_peer_is_a_proxy: bool = False

    def exempt(self, address: str) -> bool:
        if self.every_peer_is_a_proxy:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.proxies)


def parse_proxies(text: str | None) -> tuple[tuple[Network, ...], bool]:
    """``forwarded_allow_ips`` ("10.0.0.1,fd00::/8" or "*") as networks, and whether "*"."""
    networks: list[Network] = []
    for item in (text or "").split(","):
        item = item.strip()
        if item == "*":
            return (), True
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            continue  # a Unix socket's name or a typo: uvicorn says which
    return tuple(networks), False


class ServerConfig(uvicorn.Config):
    """``uvicorn.Config`` carrying our ``ConnectionLimits`` to the protocol."""

    def __init__(self, app: Any, *, limits: ConnectionLimits, **options: Any) -> None:
        super().__init__(app, **options)
        self.limits = limits


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request-head deadline, connection caps and JSON errors."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits: ConnectionLimits = getattr(config, "limits", ConnectionLimits())
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        refusal = self._over_limit()
        if refusal:
            log.warning("connection from %s closed: %s", self._peer(), refusal)
            self.transport.close()
            return
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            # h11 caps only a head still incomplete; one that arrives whole is checked here.
            buffered = self.conn.trailing_data[0] + data
            end = buffered.find(b"\r\n\r\n")
            if (end if end >= 0 else len(buffered)) > self.limits.max_header_bytes:
                self._disarm_head_timer()
                self._unset_keepalive_if_required()
                self.send_error(431, self._head_too_large())
                return
        super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        self._disarm_head_timer()
        if len(self.conn.trailing_data[0]) > self.limits.max_header_bytes:
            self.send_error(431, self._head_too_large())
        else:
            self.send_error(400, "the request is not valid HTTP/1.1")

    def send_error(self, status: int, message: str) -> None:
        """Write ``{"error": message}`` with the security headers, then close."""
        body = error_body(message)
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *security_headers(""),
        ]
        head = b"HTTP/1.1 %d %s\r\n" % (status, STATUS_PHRASES[status])
        head += b"".join(name + b": " + value + b"\r\n" for name, value in headers)
        self.transport.write(head + b"\r\n" + body)
        self.transport.close()

    def _head_too_large(self) -> str:
        return f"the request head is larger than {self.limits.max_header_bytes:,} bytes"

    def _over_limit(self) -> str | None:
        if len(self.connections) > self.limits.max_connections:
            return f"over {self.limits.max_connections} connections open"
        address = self._peer()
        if address is None or self.limits.exempt(address):
            return None
        same = sum(1 for other in self.connections if _peer_of(other) == address)
        if same > self.limits.max_connections_per_ip:
            return f"over {self.limits.max_connections_per_ip} connections from one address"
        return None

    def _peer(self) -> str | None:
        return self.client[0] if self.client else None

    def _arm_head_timer(self) -> None:
        self._disarm_head_timer()
        self.head_timer = self.loop.call_later(self.limits.header_timeout_s, self._head_too_slow)

    def _disarm_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_too_slow(self) -> None:
        self.head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return  # closed, or a request is under way (its body has its own deadline)
        if self.conn.trailing_data[0]:
            limit = f"{self.limits.header_timeout_s:g}"
            self.send_error(408, f"the request head did not arrive within {limit} s")
        else:
            self.transport.close()


def _peer_of(connection: object) -> str | None:
    client = getattr(connection, "client", None)
    return str(client[0]) if client else None


def connection_limits(settings: WebSettings) -> ConnectionLimits:
    proxies, every_peer = parse_proxies(settings.forwarded_allow_ips)
    return ConnectionLimits(
        header_timeout_s=settings.header_timeout_s,
        max_connections=settings.max_connections,
        max_connections_per_ip=settings.max_connections_per_ip,
        max_header_bytes=settings.max_header_bytes,
        proxies=proxies,
        every_peer_is_a_proxy=every_peer,
    )


def server_config(
    app: Any,
    settings: WebSettings,
    *,
    host: str,
    port: int,
    log_level: str = "warning",
    shutdown_grace_s: int = SHUTDOWN_GRACE_S,
) -> ServerConfig:
    """The uvicorn config of the app: our protocol, its limits, proxy headers if trusted."""
    return ServerConfig(
        app,
        limits=connection_limits(settings),
        host=host,
        port=port,
        log_level=log_level,
        http=GuardedH11Protocol,
        timeout_keep_alive=settings.keep_alive_timeout_s,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        # X-Forwarded-For / -Proto are read only from the proxies named.
        proxy_headers=settings.forwarded_allow_ips is not None,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        server_header=False,
        # Open event streams never end by themselves: give them this long at Ctrl-C.
        timeout_graceful_shutdown=shutdown_grace_s,
    )


# --- abgames web: settings from its flags, what it tells at start --------------------


def settings_from_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The ``WebSettings`` fields the flags above give (with the hosts for ``--host``)."""
    return {
        "allowed_hosts": allowed_hosts_for(args.host, args.allowed_host),
        "forwarded_allow_ips": args.forwarded_allow_ips,
        "header_timeout_s": args.header_timeout,
        "body_timeout_s": args.body_timeout,
        "keep_alive_timeout_s": args.keep_alive_timeout,
        "max_connections": args.max_connections,
        "max_connections_per_ip": args.max_connections_per_ip,
    }


def allowed_hosts_for(bind_host: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The Host names a server bound to ``bind_host`` answers to: the loopback names, the
    bound address, on a wildcard address this machine's names and addresses, ``extra``."""
    names = list(LOOPBACK_HOSTS)
    if bind_host in WILDCARD_HOSTS:
        names += _machine_names()
    else:
        names.append(bind_host.strip("[]"))
    names += extra
    return tuple(dict.fromkeys(name.lower() for name in names if name))


def _machine_names() -> list[str]:
    """This machine's name, full name and addresses (best effort, no DNS query beyond)."""
    hostname = socket.gethostname()
    names = [hostname, socket.getfqdn()]
    with contextlib.suppress(OSError):
        names += [str(info[4][0]) for info in socket.getaddrinfo(hostname, None)]
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        # The address a packet to the outside would leave from (a UDP connect sends nothing).
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as udp:
            udp.connect((probe, 9))
            names.append(str(udp.getsockname()[0]))
    return names


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def exposure_notice(host: str, port: int, settings: WebSettings) -> str | None:
    """What a server on a non-loopback address exposes, for the operator (None on loopback)."""
    if is_loopback(host):
        return None
    where = "every interface" if host in WILDCARD_HOSTS else "this address"
    shown = f"[{host}]" if ":" in host else host
    proxies = settings.forwarded_allow_ips or "none (--forwarded-allow-ips IPS)"
    return "\n".join(
        [
            f"abgames web: listening on {shown}:{port} ({where}). Anyone who can reach it "
            "can play and start AI searches",
            f"  ({settings.workers} at once, {settings.max_queue} waiting); there are no "
            "accounts: a game's secret is its only key.",
            f"  Host names accepted: {', '.join(settings.allowed_hosts)}",
            "  (add one with --allowed-host NAME, e.g. the name a reverse proxy serves).",
            f"  Limits: request bodies {settings.max_body_bytes:,} bytes within "
            f"{settings.body_timeout_s:g} s; request heads {settings.max_header_bytes:,} "
            f"bytes within {settings.header_timeout_s:g} s;",
            f"  idle connections closed after {settings.keep_alive_timeout_s} s; "
            f"{settings.max_connections} connections, {settings.max_connections_per_ip} "
            "per address.",
            f"  Proxies trusted for X-Forwarded-For: {proxies}.",
            "  Before opening it to the internet read docs/deploy.md (TLS through a reverse "
            "proxy, limits, backups).",
        ]
    )
