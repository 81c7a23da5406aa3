"""Who a request comes from: the key that rate limits, search quotas and fairness use.

A client is the peer's IP address as the server sees it (``scope["client"]``). Behind
a reverse proxy, uvicorn's ``--forwarded-allow-ips`` (``abgames web
--forwarded-allow-ips``) makes that the address the proxy names in
``X-Forwarded-For``; without it every request through a proxy is one client.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.types import Scope

#: The key of a request whose peer address is unknown (a test client, a Unix socket).
UNKNOWN_CLIENT = "unknown"


def client_key_of_scope(scope: Scope) -> str:
    """The client key of an ASGI connection scope."""
    client = scope.get("client")
    if client and client[0]:
        return str(client[0])
    return UNKNOWN_CLIENT


def client_key(connection: HTTPConnection) -> str:
    """The client key of a request (or WebSocket)."""
    return client_key_of_scope(connection.scope)
