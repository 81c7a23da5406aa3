"""The /api/learn/* routes of the /learn page: positions, traces and the pruning experiment.

The searches are the real engine's (``search.trace``, ``search.experiment``) on small
trees, with a node cap and a time limit. A position is answered at once; a trace or an
experiment is checked here (an experiment far past its node cap is refused by an
estimate before it runs) and then runs in the search pool like the AI's searches:
queued fairly with the client's other jobs, dropped if the client goes away while it
waits, never on the server's event loop or its request threads.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from abgames.learn import EXPERIMENT_DEPTHS, TRACE_DEPTHS, TRACE_MAX_NODES
from abgames.search.experiment import METHODS
from abgames.ui.web.clients import client_key
from abgames.ui.web.errors import BadInput
from abgames.ui.web.jobs import LearnSpec
from abgames.ui.web.learn_work import (
    EXPERIMENT,
    LEARN_ERROR,
    LEARN_OPTIONS,
    MAX_EXPERIMENT_DEPTHS,
    MAX_NODES,
    MAX_TRACE_DEPTHS,
    MIN_DEPTHS,
    OPTION_CHOICES,
    TRACE,
    check_experiment_size,
    depth_of,
    position_json,
    position_of,
    searchable,
)
from abgames.ui.web.pool import SearchPool
from abgames.ui.web.pool_answers import submit_for_answer
from abgames.ui.web.ratelimit import LEARN, POSITION, limited

router = APIRouter(prefix="/api/learn", tags=["learn"])

MAX_MOVES = 484  # a full 22x22 Gomoku board
MAX_NAME = 40
#: How often a request waiting for its learn job checks that its client is still there.
DISCONNECT_POLL_S = 0.5
#: The pool job purpose of a /learn computation.
LEARN_PURPOSE = "learn"


MoveItem = StrictInt | Annotated[StrictStr, Field(max_length=MAX_NAME)]


class PositionRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    game: Annotated[str, Field(max_length=MAX_NAME, description="tictactoe, connect4 or gomoku")]
    options: Annotated[
        dict[Annotated[str, Field(max_length=MAX_NAME)], StrictInt | StrictStr],
        Field(max_length=4, description="connect4 {width, height}; gomoku {size, rule}"),
    ] = {}
    moves: Annotated[
        list[MoveItem],
        Field(
            max_length=MAX_MOVES,
            description="the moves from the empty board: numbers (as in State.moves) or text",
        ),
    ] = []


class TraceRequest(PositionRequest):
    method: Annotated[str, Field(max_length=MAX_NAME, description=", ".join(METHODS))] = "alphabeta"
    depth: Annotated[int | None, Field(description="plies to search (default: per game)")] = None
    max_nodes: Annotated[int, Field(description=f"nodes the trace may hold (1..{MAX_NODES})")] = (
        TRACE_MAX_NODES
    )


class ExperimentRequest(PositionRequest):
    depth: Annotated[int | None, Field(description="plies to search (default: per game)")] = None


@router.get("/meta", summary="What /learn offers: games, depths, methods, caps")
async def read_meta() -> dict[str, Any]:
    return {
        "games": {
            game: {
                "options": LEARN_OPTIONS[game],
                "option_choices": OPTION_CHOICES[game],
                "trace_depth": {
                    "min": MIN_DEPTHS.get(game, 1),
                    "max": MAX_TRACE_DEPTHS[game],
                    "default": default,
                },
                "experiment_depth": {
                    "min": MIN_DEPTHS.get(game, 1),
                    "max": MAX_EXPERIMENT_DEPTHS[game],
                    "default": EXPERIMENT_DEPTHS[game],
                },
            }
            for game, default in TRACE_DEPTHS.items()
        },
        "methods": [{"key": key, "label": label} for key, label in METHODS.items()],
        "max_nodes": {"min": 1, "max": MAX_NODES, "default": TRACE_MAX_NODES},
    }


def _position(request: PositionRequest) -> Any:
    return position_of(request.game, dict(request.options), list(request.moves))


async def run_in_pool(request: Request, op: str, fields: dict[str, Any]) -> dict[str, Any]:
    """Run a checked learn request in the search pool; its answer (``WebError`` as raised).

    The job waits in the client's line of the pool's fair queue; if the client goes away
    meanwhile, it is dropped (or, once running, its answer is discarded)."""
    pool: SearchPool = request.app.state.service.pool
    key, answer = submit_for_answer(
        pool,
        LearnSpec(op, fields),
        prefix="learn",
        purpose=LEARN_PURPOSE,
        client=client_key(request),
        error_field=LEARN_ERROR,
        failed="the search failed",
        busy="the learning searches are all busy: try again in a moment",
    )
    try:
        while True:
            done, _ = await asyncio.wait({answer}, timeout=DISCONNECT_POLL_S)
            if done:
                return answer.result()
            if await request.is_disconnected():
                pool.cancel(key)
                raise BadInput("the client went away")
    finally:
        if not answer.done():
            pool.cancel(key)


@router.post(
    "/position",
    summary="A position's board and legal moves",
    dependencies=[Depends(limited(POSITION))],
)
async def read_position(request: PositionRequest) -> dict[str, Any]:
    return position_json(_position(request))


@router.post(
    "/trace",
    summary="The tree one search visits, node by node",
    dependencies=[Depends(limited(LEARN))],
)
async def trace(request: TraceRequest, http: Request) -> dict[str, Any]:
    state = _position(request)
    searchable(state)
    if request.method not in METHODS:
        raise BadInput(f"unknown method {request.method!r}: choose {', '.join(METHODS)}")
    depth = depth_of(request.game, request.depth, MAX_TRACE_DEPTHS, TRACE_DEPTHS[request.game])
    if not 1 <= request.max_nodes <= MAX_NODES:
        raise BadInput(f"max_nodes must be 1..{MAX_NODES}")
    fields = request.model_dump() | {"depth": depth}
    return await run_in_pool(http, TRACE, fields)


@router.post(
    "/experiment",
    summary="The pruning experiment's figures for a position",
    dependencies=[Depends(limited(LEARN))],
)
async def experiment(request: ExperimentRequest, http: Request) -> dict[str, Any]:
    state = _position(request)
    searchable(state)
    depth = depth_of(
        request.game, request.depth, MAX_EXPERIMENT_DEPTHS, EXPERIMENT_DEPTHS[request.game]
    )
    check_experiment_size(state, depth)
    fields = request.model_dump() | {"depth": depth}
    return await run_in_pool(http, EXPERIMENT, fields)
