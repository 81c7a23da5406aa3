"""ASGI middleware: the security headers on every answer (errors and 500s included)
and a Server-Timing header (the time the app spent on the request).

The limits on requests (hosts, origins, bodies) are in ``guards.py``; those on
connections in ``server.py``.
"""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The page's policy: its own scripts, styles and API only; no inline script, no frames.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
#: /docs: Swagger UI served from this server (``docs.py``), started by a script file,
#: never inline; nothing comes from elsewhere. Swagger UI sets inline style attributes
#: (its collapsing sections, highlighted code), hence style-src 'unsafe-inline'; its
#: images are SVG data: URLs.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
DOCS_PATHS = ("/docs",)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every answer to ``path`` carries (the middleware's and the server's own)."""
    policy = DOCS_POLICY if path in DOCS_PATHS else CONTENT_SECURITY_POLICY
    return [
        (b"content-security-policy", policy.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]


class SecurityHeaders:
    """Adds the Content-Security-Policy and friends to every response.

    ``create_app`` puts it outside Starlette's ServerErrorMiddleware, so a 500 has them too.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope.get("path", ""))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", []), *extra])
            await send(message)

        await self.app(scope, receive, send_with_headers)


class ServerTiming:
    """Adds ``Server-Timing: app;dur=<ms>``: the app's own time until the answer started."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()

        async def send_with_timing(message: Message) -> None:
            if message["type"] == "http.response.start":
                elapsed_ms = (time.perf_counter() - start) * 1000
                headers = [
                    *message.get("headers", []),
                    (b"server-timing", b"app;dur=%.2f" % elapsed_ms),
                ]
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, send_with_timing)
