"""``create_app(settings)``: the web app (FastAPI) with its store, search pool and pages.

Nothing happens at import time: the store opens and the pool's workers start in
the app's lifespan, so each test can make a fresh app over a temporary database.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp

from abgames.cluster import Cluster
from abgames.ui.web import games_routes, learn_routes, pages, people_routes, puzzles_routes
from abgames.ui.web.cluster_workers import ON_THIS_MACHINE, search_workers
from abgames.ui.web.docs import add_docs
from abgames.ui.web.errors import WebError
from abgames.ui.web.guards import BodyGuard, HostGuard
from abgames.ui.web.limits import (
    BODY_TIMEOUT_S,
    HEADER_TIMEOUT_S,
    KEEP_ALIVE_TIMEOUT_S,
    LOOPBACK_HOSTS,
    MAX_CONNECTIONS,
    MAX_CONNECTIONS_PER_IP,
    MAX_HEADER_BYTES,
)
from abgames.ui.web.pool import MAX_WAITING_PER_CLIENT, SearchPool
from abgames.ui.web.ratelimit import RateLimiter, RateLimits
from abgames.ui.web.security import SecurityHeaders, ServerTiming
from abgames.ui.web.service import ORPHAN_GRACE_S, GameService
from abgames.ui.web.store import MAX_GAMES, GameStore, default_db_path

STATIC_DIR = Path(__file__).parent / "static"
#: Largest request body accepted (a 22x22 Gomoku save file is about 3 kB).
MAX_BODY_BYTES = 64 * 1024

log = logging.getLogger("abgames.web")


@dataclass(frozen=True)
class WebSettings:
    """How the app runs: where games are stored, how many searches run at once."""

    db_path: Path = field(default_factory=default_db_path)
    workers: int = 2
    max_queue: int = 200
    #: Searches one client may have waiting, and running at once (None: all workers but one).
    max_waiting_per_client: int = MAX_WAITING_PER_CLIENT
    max_running_per_client: int | None = None
    warm: bool = True
    max_body_bytes: int = MAX_BODY_BYTES
    static_dir: Path = STATIC_DIR
    orphan_grace_s: float = ORPHAN_GRACE_S
    #: Per-client rate limits (``RateLimits(enabled=False)``: none, for benchmarks).
    rate_limits: RateLimits = field(default_factory=RateLimits)
    #: The storage budget: most games kept (the oldest finished ones are pruned first).
    max_games: int = MAX_GAMES
    #: ``"module:name"`` of a stand-in for ``make_player`` in the workers (tests only).
    player_factory: str | None = None
    #: Host names the server answers to (the Host header, any port; ``*.example.com``
    #: allows its subdomains). ``abgames web`` adds the address it binds and
    #: ``--allowed-host``; a test client's ``testserver`` must be named.
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    #: Seconds a request body may take to arrive (408 after).
    body_timeout_s: float = BODY_TIMEOUT_S
    # The connection limits below are the server's (``server.py``), not the app's.
    #: Seconds a connection may take to send a whole request head (from connecting or
    #: from its previous answer) before it is closed.
    header_timeout_s: float = HEADER_TIMEOUT_S
    #: Seconds an idle keep-alive connection stays open.
    keep_alive_timeout_s: int = KEEP_ALIVE_TIMEOUT_S
    #: Connections open at once, in all and from one client address; more are closed.
    max_connections: int = MAX_CONNECTIONS
    max_connections_per_ip: int = MAX_CONNECTIONS_PER_IP
    #: Largest request head (request line and headers), bytes.
    max_header_bytes: int = MAX_HEADER_BYTES
    #: Addresses of reverse proxies whose X-Forwarded-For/-Proto are believed (uvicorn's
    #: ``forwarded_allow_ips``); None: no proxy headers are read.
    forwarded_allow_ips: str | None = None
    #: Where the AI searches run: None, local processes; else a Ray cluster (``HOST:PORT``,
    #: ``ray://HOST:PORT``, ``auto``, or ``local`` for a Ray of this machine), one actor
    #: a worker (``cluster_workers.py``, docs/cluster.md).
    cluster: str | None = None


def create_app(settings: WebSettings | None = None, *, cluster: Cluster | None = None) -> FastAPI:
    """The app; its lifespan opens the store and starts the pool (and closes them).

    ``cluster``: a connected cluster for the searches (``abgames web --cluster``
    connects it first, to report an unreachable one in a line), left connected at the
    end; otherwise the lifespan connects ``settings.cluster``, if any.
    """
    chosen = settings or WebSettings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        places = AsyncExitStack()
        worker_factory, app.state.workers_on = await places.enter_async_context(
            search_workers(
                chosen.cluster,
                cluster,
                workers=chosen.workers,
                warm=chosen.warm,
                player_factory=chosen.player_factory,
            )
        )
        store = GameStore(chosen.db_path, max_games=chosen.max_games)
        pool = SearchPool(
            chosen.workers,
            chosen.max_queue,
            warm=chosen.warm,
            player_factory=chosen.player_factory,
            max_waiting_per_client=chosen.max_waiting_per_client,
            max_running_per_client=chosen.max_running_per_client,
            worker_factory=worker_factory,
        )
        await pool.start()
        service = GameService(store, pool, orphan_grace_s=chosen.orphan_grace_s)
        service.start()
        app.state.service = service
        # What is loaded by now lives as long as the server: keep it out of the
        # collector's full passes, which would otherwise pause every request.
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            await service.close()
            await pool.close()
            await places.aclose()
            store.close()
            gc.unfreeze()

    app = _WebApp(
        title="abgames",
        summary="Tic-tac-toe, Connect Four and Gomoku against alpha-beta search",
        lifespan=lifespan,
        docs_url=None,  # served by docs.py, without a CDN or an inline script
        redoc_url=None,
    )
    app.state.settings = chosen
    app.state.workers_on = ON_THIS_MACHINE
    # Outside the lifespan, so an app driven without it (TestClient unentered) is limited too.
    app.state.rate_limiter = RateLimiter(chosen.rate_limits)
    app.state.static_dir = chosen.static_dir
    app.include_router(pages.router)
    app.include_router(games_routes.router)
    app.include_router(people_routes.router)
    app.include_router(learn_routes.router)
    app.include_router(puzzles_routes.router)
    app.mount("/static", StaticFiles(directory=chosen.static_dir, check_dir=False), name="static")
    add_docs(app)
    _add_error_handlers(app)
    # The last added runs first: who may ask (host, origin), then what the body may be.
    # SecurityHeaders is outside them all, Starlette's 500 handler included (_WebApp).
    app.add_middleware(BodyGuard, max_bytes=chosen.max_body_bytes, timeout_s=chosen.body_timeout_s)
    app.add_middleware(HostGuard, allowed_hosts=chosen.allowed_hosts)
    app.add_middleware(ServerTiming)
    return app


class _WebApp(FastAPI):
    """FastAPI with the security headers outermost: on every answer, 500s included
    (Starlette's ServerErrorMiddleware would otherwise answer outside any middleware)."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(WebError)
    async def web_error(_request: Request, error: WebError) -> JSONResponse:
        return JSONResponse(
            {"error": error.message}, status_code=error.status, headers=error.headers()
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": describe_validation(error)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        text = error.detail if isinstance(error.detail, str) else "request refused"
        if error.status_code == 404:
            text = "there is nothing here"
        return JSONResponse(
            {"error": text}, status_code=error.status_code, headers=getattr(error, "headers", None)
        )

    @app.exception_handler(Exception)
    async def crash(_request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=error)
        return JSONResponse({"error": "the server failed; the game is kept"}, status_code=500)


def describe_validation(error: RequestValidationError) -> str:
    """The first schema error in one line: ``body.move: Input should be a valid integer``."""
    problems = error.errors()
    if not problems:
        return "the request is not valid"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = str(first.get("msg", "is not valid"))
    if first.get("type") == "json_invalid":
        return "the request body is not valid JSON"
    if first.get("type") == "missing":
        return f"{where} is missing" if where else "the request body is missing"
    return f"{where}: {message}" if where else message
