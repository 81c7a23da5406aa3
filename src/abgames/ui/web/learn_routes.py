"""The /api/learn/* routes of the /learn page: positions, traces and the pruning experiment.

The searches are the real engine's (``search.trace``, ``search.experiment``) on small
trees: each runs on a thread of the server (never on the event loop), at most
``MAX_CONCURRENT`` at once (429 beyond), with a node cap and a time limit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.concurrency import run_in_threadpool

from abgames.games import GameState, IllegalMoveError, NotationError, connect4, gomoku
from abgames.games.connect4 import ConnectFour
from abgames.learn import (
    EXPERIMENT_TIME_LIMIT_S,
    MAX_EXPERIMENT_NODES,
    TRACE_DEPTHS,
    evaluation_for,
    experiment_json,
)
from abgames.learn_textbook import TEXTBOOK_DEPTH, TextbookTree, textbook_json
from abgames.match import new_state
from abgames.search.experiment import METHODS, ExperimentTooBig, run_pruning_experiment
from abgames.search.trace import PRUNED, Trace, run_trace
from abgames.ui.web.errors import BadInput, Busy
from abgames.ui.web.ratelimit import LEARN, POSITION, limited
from abgames.ui.web.service import check_options
from abgames.ui.web.views import board_size, cell_of_move, cells_of, outcome_of, text_of

router = APIRouter(prefix="/api/learn", tags=["learn"])

#: Deepest trace per game (the node cap keeps big trees in bounds anyway).
#: ``textbook`` is the textbook's tree (``learn_textbook``): searched from its root to
#: its leaves, two plies down, and nothing else.
MAX_TRACE_DEPTHS = {"tictactoe": 9, "connect4": 8, "gomoku": 4, "textbook": TEXTBOOK_DEPTH}
MIN_DEPTHS = {"textbook": TEXTBOOK_DEPTH}
#: Deepest pruning experiment per game, and its default.
MAX_EXPERIMENT_DEPTHS = {"tictactoe": 9, "connect4": 6, "gomoku": 3, "textbook": TEXTBOOK_DEPTH}
EXPERIMENT_DEPTHS = {"tictactoe": 9, "connect4": 4, "gomoku": 2, "textbook": TEXTBOOK_DEPTH}
#: Board options the page starts from ("small boards" for Gomoku).
LEARN_OPTIONS: dict[str, dict[str, Any]] = {
    "tictactoe": {},
    "connect4": {"width": 7, "height": 6},
    "gomoku": {"size": 9, "rule": "freestyle"},
    "textbook": {},
}
#: The board options the page's pickers offer, with the games' own defaults (what an
#: option left out means); the games' constructors check the values.
OPTION_CHOICES: dict[str, dict[str, Any]] = {
    "tictactoe": {},
    "connect4": {
        "width": {"min": connect4.MIN_SIZE, "max": connect4.MAX_WIDTH, "game_default": 7},
        "height": {"min": connect4.MIN_SIZE, "max": connect4.MAX_HEIGHT, "game_default": 6},
    },
    "gomoku": {
        "size": {"min": gomoku.MIN_SIZE, "max": gomoku.MAX_SIZE, "game_default": 15},
        "rule": {"choices": [rule.value for rule in gomoku.Rule], "game_default": "freestyle"},
    },
    "textbook": {},
}
DEFAULT_MAX_NODES = 1500
MAX_NODES = 5000
TRACE_TIME_LIMIT_S = 15.0
#: Searches running at once on the server's threads; more are refused with 429.
MAX_CONCURRENT = 2
MAX_MOVES = 484  # a full 22x22 Gomoku board
MAX_NAME = 40

_running = threading.BoundedSemaphore(MAX_CONCURRENT)
T = TypeVar("T")

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
        DEFAULT_MAX_NODES
    )


class ExperimentRequest(PositionRequest):
    depth: Annotated[int | None, Field(description="plies to search (default: per game)")] = None


def position_of(request: PositionRequest) -> GameState:
    """The position named by the request, or ``BadInput`` saying what is wrong."""
    if request.game not in MAX_TRACE_DEPTHS:
        raise BadInput(f"unknown game {request.game!r}: choose {', '.join(MAX_TRACE_DEPTHS)}")
    if request.game == "textbook":
        if request.options or request.moves:
            raise BadInput("the textbook tree has no options and is searched from its root")
        return TextbookTree()
    check_options(request.game, request.options)
    try:
        state = new_state(request.game, **request.options)
    except ValueError as error:
        raise BadInput(str(error)) from None
    for number, item in enumerate(request.moves, start=1):
        try:
            move = state.parse_move(item) if isinstance(item, str) else item
            state.play(move)
        except (IllegalMoveError, NotationError) as error:
            raise BadInput(f"move {number} ({item}): {error}") from None
    return state


def searchable(state: GameState) -> None:
    if state.outcome() is not None:
        raise BadInput("the game is over in that position: there is nothing to search")


def depth_of(game: str, depth: int | None, limits: dict[str, int], default: int) -> int:
    chosen = default if depth is None else depth
    lowest = MIN_DEPTHS.get(game, 1)
    if not lowest <= chosen <= limits[game]:
        if lowest == limits[game]:
            raise BadInput(f"depth must be {lowest} for {game}")
        raise BadInput(f"depth must be {lowest}..{limits[game]} for {game}")
    return chosen


def position_json(state: GameState) -> dict[str, Any]:
    """The board as cells (row 0 at the top), the moves, the side to move, the legal
    moves with the cells a click may choose them by. The textbook tree has no board:
    ``tree`` holds its MIN nodes and leaf values instead."""
    if isinstance(state, TextbookTree):
        return {
            "game": state.name,
            "options": {},
            "board": None,
            "tree": textbook_json(),
            "moves": [{"move": m, "text": text_of(state, m)} for m in state.moves],
            "notation": state.notation(),
            "to_move": state.to_move,
            "player_names": list(type(state).player_names),
            "player_marks": list(type(state).player_marks),
            "outcome": None,
            "legal": [],
        }
    width, height = board_size(state)
    legal = []
    for move in state.legal_moves():
        if isinstance(state, ConnectFour):
            cells = [row * width + move for row in range(height)]
        else:
            cells = [move]
        legal.append({"move": move, "text": text_of(state, move), "cells": cells})
    return {
        "game": state.name,
        "options": state.options(),
        "board": {"width": width, "height": height, "cells": cells_of(state)},
        "moves": [{"move": m, "text": text_of(state, m)} for m in state.moves],
        "notation": state.notation(),
        "to_move": state.to_move,
        "player_names": list(type(state).player_names),
        "player_marks": list(type(state).player_marks),
        "outcome": outcome_of(state),
        "legal": legal,
    }


def trace_json(state: GameState, trace: Trace) -> dict[str, Any]:
    """The trace with, on every node, the board cell its move fills (for the board view)."""
    document = trace.to_json()
    cells: dict[int, int] = {}
    probe = state.copy()

    def visit(node_id: int) -> None:
        for child_id in trace.nodes[node_id].children:
            child = trace.nodes[child_id]
            assert child.move is not None
            probe.play(child.move)
            cells[child_id] = cell_of_move(probe, child.move, probe.ply - 1)
            if child.kind != PRUNED:
                visit(child_id)
            probe.undo()

    if not isinstance(state, TextbookTree):
        for root in trace.roots:
            visit(root)
    for node in document["nodes"]:
        node["cell"] = cells.get(node["id"])
    return document


def _guarded(work: Callable[[], T]) -> T:
    """Run ``work`` if fewer than MAX_CONCURRENT searches are running, else 429."""
    if not _running.acquire(blocking=False):
        raise Busy("the learning searches are all busy: try again in a moment")
    try:
        return work()
    finally:
        _running.release()


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
        "max_nodes": {"min": 1, "max": MAX_NODES, "default": DEFAULT_MAX_NODES},
    }


@router.post(
    "/position",
    summary="A position's board and legal moves",
    dependencies=[Depends(limited(POSITION))],
)
async def read_position(request: PositionRequest) -> dict[str, Any]:
    return position_json(position_of(request))


@router.post(
    "/trace",
    summary="The tree one search visits, node by node",
    dependencies=[Depends(limited(LEARN))],
)
async def trace(request: TraceRequest) -> dict[str, Any]:
    state = position_of(request)
    searchable(state)
    if request.method not in METHODS:
        raise BadInput(f"unknown method {request.method!r}: choose {', '.join(METHODS)}")
    depth = depth_of(request.game, request.depth, MAX_TRACE_DEPTHS, TRACE_DEPTHS[request.game])
    if not 1 <= request.max_nodes <= MAX_NODES:
        raise BadInput(f"max_nodes must be 1..{MAX_NODES}")
    evaluation = evaluation_for(request.game)

    def work() -> Trace:
        return run_trace(
            state,
            evaluation,
            request.method,
            depth,
            max_nodes=request.max_nodes,
            time_limit=TRACE_TIME_LIMIT_S,
        )

    result = await run_in_threadpool(_guarded, work)
    return {"position": position_json(state), "trace": trace_json(state, result)}


@router.post(
    "/experiment",
    summary="The pruning experiment's figures for a position",
    dependencies=[Depends(limited(LEARN))],
)
async def experiment(request: ExperimentRequest) -> dict[str, Any]:
    state = position_of(request)
    searchable(state)
    depth = depth_of(
        request.game, request.depth, MAX_EXPERIMENT_DEPTHS, EXPERIMENT_DEPTHS[request.game]
    )
    evaluation = evaluation_for(request.game)

    def work() -> dict[str, Any]:
        try:
            rows = run_pruning_experiment(
                state,
                evaluation,
                depth,
                max_nodes=MAX_EXPERIMENT_NODES,
                time_limit=EXPERIMENT_TIME_LIMIT_S,
            )
        except ExperimentTooBig as error:
            raise BadInput(f"{error} here: choose a smaller depth") from None
        return experiment_json(state, rows, depth)

    return await run_in_threadpool(_guarded, work)
