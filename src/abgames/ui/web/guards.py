"""ASGI middleware at the app's edge: which hosts and origins may talk to it, and what a
request body may be (size, time to arrive, content type, JSON depth and numbers).

Each refusal is the API's one error shape ``{"error": ...}``; ``SecurityHeaders`` (in
``security.py``) sits outside all of these, so every refusal carries its headers too.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from abgames.ui.web.errors import error_body
from abgames.ui.web.limits import BODY_TIMEOUT_S, MAX_JSON_DEPTH, MAX_JSON_INT_DIGITS

#: Methods that never change anything: no Origin check, no content-type check.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
JSON_TYPE = "application/json"
#: Routes whose body is a save file: their 400s say so (the page shows them on Load).
SAVE_FILE_PATHS = frozenset({"/api/games/import"})

#: A JSON string (possibly unterminated) or a bracket: the scan for depth skips strings.
_JSON_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


class Refused(Exception):
    """A request the edge refuses: ``status`` and the message of its JSON answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def send_error(
    send: Send, status: int, message: str, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    """Answer ``{"error": message}`` with ``status`` and close the connection after it."""
    body = error_body(message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", JSON_TYPE.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of a request header (``name`` in lower case), or None."""
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value)
    return None


# --- hosts and origins ----------------------------------------------------------------


def split_host(text: str) -> tuple[str, int | None]:
    """``"Example.com:8000"`` -> ``("example.com", 8000)``; ``"[::1]:80"`` -> ``("::1", 80)``.

    Raises ValueError when the text is no host[:port].
    """
    text = text.strip().lower()
    if not text:
        raise ValueError("empty host")
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ValueError("unclosed [")
        name, rest = text[1:end], text[end + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError("junk after ]")
        port_text = rest[1:] if rest else ""
    elif text.count(":") > 1:  # a bare IPv6 address: no port
        name, port_text = text, ""
    else:
        name, _, port_text = text.partition(":")
    if not name or not re.fullmatch(r"[a-z0-9._:\-]+", name):
        raise ValueError("not a host name")
    if port_text:
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise ValueError("bad port")
        return name, int(port_text)
    return name, None


class HostPatterns:
    """Host names (any port): exact names, or ``*.example.com`` for its subdomains."""

    def __init__(self, names: Iterable[str]) -> None:
        self.exact: set[str] = set()
        self.suffixes: list[str] = []
        for raw in names:
            name = raw.strip().lower()
            if name.startswith("*."):
                self.suffixes.append(name[1:])  # ".example.com"
            elif name:
                self.exact.add(split_host(name)[0])

    def allows(self, host: str) -> bool:
        return host in self.exact or any(host.endswith(suffix) for suffix in self.suffixes)


class HostGuard:
    """Refuses a Host header the server is not meant to be reached at (DNS rebinding: 400),
    and a state-changing request from another site (403: its ``Origin`` is not this
    server's, or ``Sec-Fetch-Site: cross-site``)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self.allowed = HostPatterns(allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            self.check(scope)
        except Refused as refusal:
            await send_error(send, refusal.status, refusal.message)
            return
        await self.app(scope, receive, send)

    def check(self, scope: Scope) -> None:
        raw = header(scope, b"host")
        if raw is None:
            raise Refused(400, "the Host header is missing")
        shown = raw.decode("latin-1")[:100]
        try:
            host, port = split_host(raw.decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            raise Refused(400, f"unknown host {shown!r}") from None
        if not self.allowed.allows(host):
            raise Refused(
                400,
                f"unknown host {shown!r}: this server answers to its own names only "
                "(abgames web --allowed-host NAME adds one)",
            )
        if scope.get("method", "GET") in SAFE_METHODS:
            return
        if header(scope, b"sec-fetch-site") == b"cross-site":
            raise Refused(403, "requests from other sites are refused")
        origin = header(scope, b"origin")
        if origin is not None and not same_origin(origin, host, port):
            raise Refused(403, "requests from other sites are refused")


def same_origin(origin: bytes, host: str, port: int | None) -> bool:
    """Whether an ``Origin`` header names the host (and port) the request was sent to."""
    try:
        scheme, _, rest = origin.decode("ascii").lower().partition("://")
        origin_host, origin_port = split_host(rest)
    except (UnicodeDecodeError, ValueError):
        return False  # "null", garbage
    default = {"http": 80, "https": 443}.get(scheme)
    if default is None or origin_host != host:
        return False
    if port is None:  # Host without a port: the origin's own default port
        return origin_port in (None, default)
    return (origin_port or default) == port


# --- request bodies ---------------------------------------------------------------------


def json_depth(body: bytes) -> int:
    """How deeply arrays and objects nest in a JSON text (strings skipped, not parsed)."""
    depth = deepest = 0
    for match in _JSON_TOKENS.finditer(body):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in (b"]", b"}"):
            depth -= 1
    return deepest


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_INT_DIGITS:
        raise Refused(400, f"a number in the request body has over {MAX_JSON_INT_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused(400, f"the number {text[:30]} in the request body is too large")
    return value


def _parse_constant(text: str) -> Any:
    raise Refused(400, f"{text} is not JSON: numbers must be finite")


def check_json(body: bytes) -> None:
    """Raise ``Refused`` (400) unless ``body`` is UTF-8 JSON within our limits."""
    if json_depth(body) > MAX_JSON_DEPTH:
        raise Refused(400, f"the JSON in the request body nests deeper than {MAX_JSON_DEPTH}")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "the request body is not UTF-8") from None
    try:
        json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
        )
    except json.JSONDecodeError as error:
        raise Refused(
            400,
            f"the request body is not valid JSON ({error.msg} at line {error.lineno} "
            f"column {error.colno})",
        ) from None
    except (RecursionError, ValueError):  # kept out by the checks above; never a 500
        raise Refused(400, "the request body is not valid JSON") from None


def is_json(content_type: bytes | None) -> bool:
    """``application/json``, with parameters (``; charset=utf-8``) or without."""
    if content_type is None:
        return False
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == JSON_TYPE.encode()


class BodyTooLarge(Exception):
    pass


class BodyGuard:
    """Reads a request's body before the app does and refuses it when it is:

    - longer than ``max_bytes``, declared or streamed (413);
    - slower to arrive than ``timeout_s`` (408);
    - not ``application/json`` on a POST, PUT, PATCH or DELETE (415), so that a page
      of another site cannot send it without the browser asking first (CORS preflight);
    - JSON too deep, not UTF-8, malformed, with NaN, Infinity or a number too long (400).

    An accepted body is handed to the app as it came; requests without a body pass.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, timeout_s: float = BODY_TIMEOUT_S) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        chunked = header(scope, b"transfer-encoding") is not None
        if declared is not None:
            try:
                length = int(declared)
            except ValueError:
                await send_error(send, 400, "the Content-Length header is not a number")
                return
            if length > self.max_bytes:
                await send_error(send, 413, self._too_large())
                return
            if length <= 0 and not chunked:
                await self.app(scope, receive, send)
                return
        elif not chunked:
            await self.app(scope, receive, send)
            return
        try:
            async with asyncio.timeout(self.timeout_s):
                body = await self._read(receive)
        except BodyTooLarge:
            await send_error(send, 413, self._too_large())
            return
        except TimeoutError:
            await send_error(
                send, 408, f"the request body did not arrive within {self.timeout_s:g} s"
            )
            return
        if body is None:  # the client went away
            return
        if body:
            try:
                self.check(scope, body)
            except Refused as refusal:
                message = refusal.message
                if refusal.status == 400 and scope.get("path") in SAVE_FILE_PATHS:
                    message = f"this is not a saved game ({message})"  # the Load button's
                await send_error(send, refusal.status, message)
                return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                raise BodyTooLarge
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)

    def check(self, scope: Scope, body: bytes) -> None:
        content_type = header(scope, b"content-type")
        if is_json(content_type):
            check_json(body)
        elif scope.get("method", "GET") not in SAFE_METHODS:
            shown = "none" if content_type is None else content_type.decode("latin-1")[:60]
            raise Refused(415, f"send the request body as {JSON_TYPE} (Content-Type: {shown})")

    def _too_large(self) -> str:
        return f"the request body is larger than {self.max_bytes:,} bytes"


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read already, then the real one's messages
    (``http.disconnect`` for a streaming answer)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
