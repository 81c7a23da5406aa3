"""The /api/games routes: create, import, read, move, undo, hint, move now, new, control,
record and the event stream. Each is a thin call on ``GameService``."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from abgames.ui.web.clients import client_key
from abgames.ui.web.errors import BadInput, NotFound
from abgames.ui.web.live import LiveGame
from abgames.ui.web.models import Analysis, ControlRequest, Created, CreateGame, MoveRequest, State
from abgames.ui.web.people import seat_of_secret
from abgames.ui.web.ratelimit import CREATE, HINTS, MOVES, SEARCHES, limited
from abgames.ui.web.service import GameService
from abgames.ui.web.state_view import public_state, with_fields

#: Seconds between keep-alive comments on an idle event stream.
PING_S = 15.0
#: What a game id looks like (``secrets.token_urlsafe``); anything else is unknown.
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
MAX_SECRET = 100
JSON = "application/json"

router = APIRouter(prefix="/api/games", tags=["games"])


def service_of(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(service_of)]


@dataclass(frozen=True)
class Caller:
    """Who asks: the game, and the seat the secret speaks for (``None``: every person's
    seat of a game played on one device)."""

    live: LiveGame
    seat: int | None


def checked_id(game_id: str) -> str:
    """``game_id`` if it looks like one (``NotFound`` otherwise: nothing is looked up)."""
    if not GAME_ID.match(game_id):
        raise NotFound("there is no such game")
    return game_id


async def caller_of(
    game_id: str,
    request: Request,
    service: Service,
    x_game_secret: Annotated[str | None, Header(max_length=MAX_SECRET)] = None,
) -> Caller:
    """The game named in the path, if the request carries a secret of it (403/404 otherwise)."""
    live, seat = await service.authorise(checked_id(game_id), x_game_secret, client_key(request))
    return Caller(live, seat)


Game = Annotated[Caller, Depends(caller_of)]


async def state_answer(service: GameService, caller: Caller) -> Response:
    """The game's ``State`` for the caller: ``you`` is the caller's seat."""
    body = await service.snapshot_json(caller.live)
    return Response(with_fields(body, you=caller.seat), media_type=JSON)


async def created(
    service: GameService, live: LiveGame, secret: str, seat: int | None = None
) -> JSONResponse:
    state = await service.snapshot(live)
    body = {"id": live.id, "secret": secret, "seat": seat, "invite": live.invite, "state": state}
    live.invite = None
    return JSONResponse(body, status_code=201)


@router.post(
    "",
    status_code=201,
    response_model=Created,
    summary="Start a game",
    dependencies=[Depends(limited(CREATE))],
)
async def create_game(body: CreateGame, request: Request, service: Service) -> JSONResponse:
    clock = None if body.clock is None else (body.clock.base_s, body.clock.increment_s)
    live, secret = await service.create(
        body.game,
        body.mode,
        body.first,
        body.level,
        dict(body.options),
        body.seed,
        body.delay_ms,
        client_key(request),
        clock,
    )
    return await created(service, live, secret, seat_of_secret(live, secret))


@router.post(
    "/import",
    status_code=201,
    response_model=Created,
    summary="Load a saved game",
    dependencies=[Depends(limited(CREATE))],
)
async def import_game(request: Request, service: Service) -> JSONResponse:
    """The body is a save file (docs/save-format.md); a bad one is refused naming the fault."""
    raw = await request.body()
    try:
        record = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        message = getattr(error, "msg", "not UTF-8 text")
        raise BadInput(f"this is not a saved game (bad JSON: {message})") from None
    live, secret = await service.import_record(record, client_key(request))
    return await created(service, live, secret)


@router.get("/{game_id}", response_model=State, summary="The game's state")
async def read_game(caller: Game, service: Service) -> Response:
    await service.touch(caller.live)
    return await state_answer(service, caller)


@router.post(
    "/{game_id}/moves",
    response_model=State,
    summary="Play a move",
    dependencies=[Depends(limited(MOVES))],
)
async def play_move(body: MoveRequest, caller: Game, service: Service) -> Response:
    """A person's move; the AI's reply, if any, starts in the background (follow /events)."""
    await service.play(caller.live, body.move, body.version, caller.seat)
    return await state_answer(service, caller)


@router.post(
    "/{game_id}/undo",
    response_model=State,
    summary="Take back a turn",
    dependencies=[Depends(limited(MOVES))],
)
async def undo(caller: Game, service: Service) -> Response:
    """On one device; between devices, ask for a take-back (``/offer``)."""
    await service.undo(caller.live)
    return await state_answer(service, caller)


@router.post(
    "/{game_id}/hint",
    response_model=Analysis,
    summary="Suggest a move",
    dependencies=[Depends(limited(HINTS))],
)
async def hint(caller: Game, service: Service) -> JSONResponse:
    return JSONResponse(await service.hint(caller.live))


@router.post(
    "/{game_id}/move-now",
    response_model=State,
    summary="Stop the AI's search",
    dependencies=[Depends(limited(SEARCHES))],
)
async def move_now(caller: Game, service: Service) -> Response:
    """The running search ends soon and plays its best move so far."""
    await service.move_now(caller.live)
    return await state_answer(service, caller)


@router.post(
    "/{game_id}/new",
    response_model=State,
    summary="Start over",
    dependencies=[Depends(limited(CREATE))],
)
async def new_game(caller: Game, service: Service) -> Response:
    await service.restart(caller.live)
    return await state_answer(service, caller)


@router.post(
    "/{game_id}/control",
    response_model=State,
    summary="AI vs AI: pause, step",
    dependencies=[Depends(limited(SEARCHES))],
)
async def control(body: ControlRequest, caller: Game, service: Service) -> Response:
    await service.control(caller.live, body.action, body.delay_ms)
    return await state_answer(service, caller)


@router.post(
    "/{game_id}/review",
    response_model=State,
    summary="Review the game with the engine",
    dependencies=[Depends(limited(SEARCHES))],
)
async def review(caller: Game, service: Service) -> Response:
    """Score every position in the worker pool (follow ``review`` events for the progress);
    the result is stored with the game and shown in its ``State`` (to watchers too). Exact
    for tic-tac-toe and Connect Four; Gomoku by the threat solvers, then a fixed depth.
    409 for an unfinished game between devices or a game without moves."""
    await service.reviews.start(caller.live)
    return await state_answer(service, caller)


@router.get("/{game_id}/record", summary="Download the save file")
async def record(caller: Game) -> JSONResponse:
    live = caller.live
    name = f"abgames-{live.match.game}-{live.id[:8]}.json"
    return JSONResponse(
        live.match.to_record(),
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/{game_id}/events", summary="Server-sent events: state, progress, queued")
async def events(request: Request, caller: Game, service: Service) -> StreamingResponse:
    """``text/event-stream`` of ``state``, ``progress`` and ``queued`` events."""
    return event_stream(request, service, caller.live, watcher=False)


def event_stream(
    request: Request, service: GameService, live: LiveGame, *, watcher: bool
) -> StreamingResponse:
    """The game's events as ``text/event-stream`` (a ``watcher`` gets the public view)."""

    async def stream() -> AsyncIterator[str]:
        async with service.subscription(live, watcher=watcher) as queue:
            await service.touch(live)
            state = await service.snapshot(live)
            yield _event("state", public_state(state) if watcher else state)
            while True:
                try:
                    kind, data = await asyncio.wait_for(queue.get(), PING_S)
                except TimeoutError:
                    if await request.is_disconnected():
                        break
                    yield ": ping\n\n"
                    continue
                if kind == "close":
                    break
                yield _event(kind, data)

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _event(kind: str, data: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
