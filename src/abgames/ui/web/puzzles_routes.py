"""The /api/puzzles routes of the /puzzles page: thin calls on ``PuzzleService``.

Every route reads the player's browser key from the ``X-Puzzle-Key`` header (the page
makes a random one and keeps it in localStorage; the server keeps only its hash).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import FileResponse

from abgames.ui.web.clients import client_key
from abgames.ui.web.errors import NotFound
from abgames.ui.web.puzzle_models import NextPuzzle, PuzzleHint, PuzzleMove
from abgames.ui.web.puzzle_service import PuzzleService, checked_key
from abgames.ui.web.ratelimit import HINTS, PUZZLES, limited

router = APIRouter(tags=["puzzles"])
API = "/api/puzzles"


def puzzles_of(request: Request) -> PuzzleService:
    """The app's ``PuzzleService`` (made on first use over the games' store, writer, pool)."""
    service: PuzzleService | None = getattr(request.app.state, "puzzles", None)
    games = request.app.state.service
    if service is None or service.store is not games.store:
        service = PuzzleService(games.store, games.writer, games.pool)
        request.app.state.puzzles = service
    return service


def player_key(
    x_puzzle_key: Annotated[
        str | None,
        Header(description="the browser's random key (22..86 characters of base64url)"),
    ] = None,
) -> str:
    """The hash of the caller's key (400 if missing or malformed)."""
    return checked_key(x_puzzle_key)


@router.get("/puzzles", include_in_schema=False)
async def page(request: Request) -> FileResponse:
    """The /puzzles page (``static/puzzles.html``), as ``pages.py`` serves ``/learn``."""
    path = request.app.state.static_dir / "puzzles.html"
    if not path.is_file():
        raise NotFound("puzzles.html is not there yet")
    return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})


Puzzles = Annotated[PuzzleService, Depends(puzzles_of)]
Key = Annotated[str, Depends(player_key)]


@router.get(
    API + "/player",
    summary="The player's rating, counts and streaks, and the puzzle in progress",
    description="`puzzle` is null when none is in progress. A new key is a new player "
    "(rating 1500, deviation 350).",
)
async def read_player(puzzles: Puzzles, key: Key) -> dict[str, Any]:
    return await puzzles.read(key)


@router.post(
    API + "/next",
    summary="Start a puzzle: the one named, or one near the player's rating",
    description="Chosen among the puzzles nearest the rating that the player has not "
    "been rated on lately. A puzzle left unfinished is not rated (a wrong move or a "
    "hint has counted already). 404 for an unknown puzzle id.",
    dependencies=[Depends(limited(PUZZLES))],
)
async def next_puzzle(request: NextPuzzle, puzzles: Puzzles, key: Key) -> dict[str, Any]:
    return await puzzles.start(key, request.game, request.id)


@router.post(
    API + "/move",
    summary="Play a move in the puzzle in progress",
    description="The engine judges it: any move that keeps a forced win is right "
    "(`verdict: correct`, and `reply` is the defender's best defence, played), a win "
    "ends the puzzle (`solved`), and a move that lets the win go is `wrong`: `reply` "
    "is the refutation (the defender's winning or saving answer) and the puzzle ends. "
    "400 for an illegal move, 409 when the puzzle is not the one in progress or is over.",
    dependencies=[Depends(limited(PUZZLES))],
)
async def play_move(
    request: PuzzleMove, http: Request, puzzles: Puzzles, key: Key
) -> dict[str, Any]:
    return await puzzles.move(key, client_key(http), request.puzzle, request.move)


@router.post(
    API + "/hint",
    summary="The engine's winning move in the puzzle in progress",
    description="A hint counts the puzzle as not solved (rated as a loss, once); the "
    "puzzle can still be finished.",
    dependencies=[Depends(limited(HINTS))],
)
async def hint(request: PuzzleHint, http: Request, puzzles: Puzzles, key: Key) -> dict[str, Any]:
    return await puzzles.hint(key, client_key(http), request.puzzle)
