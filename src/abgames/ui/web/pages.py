"""The pages (/, /learn) and /api/meta: what the page needs before any game exists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from abgames.ai.levels import DEFAULT_LEVEL, LEVELS
from abgames.games import connect4, gomoku
from abgames.match import MODES
from abgames.ui.web.clocks import CLOCK_PRESETS
from abgames.ui.web.errors import NotFound
from abgames.ui.web.people import FRIEND

router = APIRouter()


def _page(request: Request, name: str) -> FileResponse:
    static: Path = request.app.state.static_dir
    path = static / name
    if not path.is_file():
        raise NotFound(f"{name} is not there yet")
    return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
async def index(request: Request) -> FileResponse:
    return _page(request, "index.html")


@router.get("/learn", include_in_schema=False)
async def learn(request: Request) -> FileResponse:
    return _page(request, "learn.html")


def meta() -> dict[str, Any]:
    def levels(game: str) -> dict[str, Any]:
        return {"levels": list(LEVELS[game]), "default_level": DEFAULT_LEVEL[game]}

    return {
        "games": {
            "tictactoe": levels("tictactoe") | {"options": {}},
            "connect4": levels("connect4")
            | {
                "options": {
                    "width": {
                        "min": connect4.MIN_SIZE,
                        "max": connect4.MAX_WIDTH,
                        "default": connect4.DEFAULT_WIDTH,
                    },
                    "height": {
                        "min": connect4.MIN_SIZE,
                        "max": connect4.MAX_HEIGHT,
                        "default": connect4.DEFAULT_HEIGHT,
                    },
                }
            },
            "gomoku": levels("gomoku")
            | {
                "options": {
                    "rule": {
                        "choices": [rule.value for rule in gomoku.Rule],
                        "default": gomoku.Rule.FREESTYLE.value,
                    },
                    "size": {
                        "min": gomoku.MIN_SIZE,
                        "max": gomoku.MAX_SIZE,
                        "default": gomoku.DEFAULT_SIZE,
                    },
                }
            },
        },
        # A game against a friend on another device comes second: after the AI.
        "modes": [MODES[0], FRIEND, *MODES[1:]],
        "clocks": [{"base_s": base, "increment_s": increment} for base, increment in CLOCK_PRESETS],
    }


@router.get("/api/meta", tags=["meta"], summary="Games, levels, options and modes")
async def read_meta() -> dict[str, Any]:
    return meta()


@router.get("/api/health", tags=["meta"], summary="The search pool's load")
async def health(request: Request) -> dict[str, Any]:
    """Workers (and how many are warm, and where they run), searches running and waiting,
    AI moves played."""
    service = request.app.state.service
    pool = service.pool
    return {
        "workers": pool.size,
        "ready": pool.ready,
        "running": pool.running,
        "waiting": pool.waiting,
        "max_queue": pool.max_queue,
        "ai_moves": service.ai_moves,
        # "local" (processes of this machine) or "cluster HOST:PORT" (Ray actors)
        "workers_on": getattr(request.app.state, "workers_on", "local"),
    }
