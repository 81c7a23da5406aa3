"""The routes of games between people: join by invitation, resign, offers, watching.

``/join`` claims the free seat of a ``friend`` game with its invitation (once);
``/watch`` and ``/watch/events`` show any game to anyone who has its id, read-only
and without anything private (``state_view.public_state``).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from abgames.ui.web.games_routes import (
    JSON,
    Game,
    Service,
    checked_id,
    created,
    event_stream,
    state_answer,
)
from abgames.ui.web.models import AnswerRequest, Created, JoinRequest, OfferRequest, State
from abgames.ui.web.ratelimit import CREATE, MOVES, limited
from abgames.ui.web.state_view import public_state

router = APIRouter(prefix="/api/games", tags=["people"])


@router.post(
    "/{game_id}/join",
    status_code=201,
    response_model=Created,
    summary="Take the free seat (invitation)",
    dependencies=[Depends(limited(CREATE))],
)
async def join(game_id: str, body: JoinRequest, service: Service) -> JSONResponse:
    """Claim the free seat of a game between devices with its invitation token, once.

    403 for a wrong token, 409 once the seat is taken."""
    live, secret, seat = await service.people.join(checked_id(game_id), body.invite)
    return await created(service, live, secret, seat)


@router.post(
    "/{game_id}/resign",
    response_model=State,
    summary="Resign",
    dependencies=[Depends(limited(MOVES))],
)
async def resign(caller: Game, service: Service) -> Response:
    """The caller's side resigns (on one device: the side to move)."""
    await service.people.resign(caller.live, caller.seat)
    return await state_answer(service, caller)


@router.post(
    "/{game_id}/offer",
    response_model=State,
    summary="Offer a draw, a take-back or a rematch",
    dependencies=[Depends(limited(MOVES))],
)
async def offer(body: OfferRequest, caller: Game, service: Service) -> Response:
    """Between people only (409 against the AI). The other side answers with ``/answer``;
    offering what the other side already offered accepts it; on one device the offer
    is accepted at once."""
    await service.people.offer(caller.live, caller.seat, body.kind)
    return await state_answer(service, caller)


@router.post(
    "/{game_id}/answer",
    response_model=State,
    summary="Accept or decline the pending offer",
    dependencies=[Depends(limited(MOVES))],
)
async def answer(body: AnswerRequest, caller: Game, service: Service) -> Response:
    await service.people.answer(caller.live, caller.seat, body.accept)
    return await state_answer(service, caller)


@router.get("/{game_id}/watch", response_model=State, summary="Watch: the game's state")
async def watch(game_id: str, service: Service) -> Response:
    """Any game by its id, read-only: no secret needed, nothing private shown."""
    live = await service.get(checked_id(game_id))
    await service.touch(live)
    state = public_state(await service.snapshot(live))
    return JSONResponse(state, media_type=JSON)


@router.get("/{game_id}/watch/events", summary="Watch: server-sent events")
async def watch_events(game_id: str, request: Request, service: Service) -> Response:
    """The game's ``state``, ``progress`` and ``queued`` events, as a watcher sees them."""
    live = await service.get(checked_id(game_id))
    return event_stream(request, service, live, watcher=True)
