"""A live game as the API's ``State`` JSON (docs/web.md), cached while nothing changes.

``state_of`` is called while no change is half-written (under the game's lock or
from the event loop between changes). The parts that change only with the position
are cached per version, and the whole JSON body per (version, status, queue place,
message, hint), so polling a game costs a dictionary lookup.
"""

from __future__ import annotations

import json
from typing import Any

from abgames.ui.web import clocks, views
from abgames.ui.web.endings import Ending, outcome_view
from abgames.ui.web.live import LiveGame
from abgames.ui.web.pool import SearchPool

#: The purposes of a game's pool job: the AI's move, or a hint for the human.
MOVE = "move"
HINT = "hint"


def status_of(live: LiveGame, pool: SearchPool) -> str:
    """your-turn, thinking, queued, paused or over."""
    match = live.match
    if live.over:
        return "over"
    job = pool.job_of(live.id)
    if match.seat_to_move.is_ai:
        if job is not None and job.purpose == MOVE:
            return "queued" if pool.position(live.id) is not None else "thinking"
        if live.stored.paused:
            return "paused"
        return "thinking"
    return "your-turn"


def state_of(live: LiveGame, pool: SearchPool) -> dict[str, Any]:
    """The ``State`` of docs/web.md."""
    match = live.match
    state = match.state
    stored = live.stored
    board = _board(live)
    human_to_move = not live.over and not match.seat_to_move.is_ai
    analysis = live.hint if live.hint_ply == state.ply else _last_analysis(live)
    return {
        "id": live.id,
        "game": match.game,
        "options": state.options(),
        "mode": stored.mode,
        "first": stored.first,
        "level": stored.level,
        "version": stored.version,
        "seats": [{"kind": s.kind, "level": s.level} for s in match.seats],
        "board": board["board"],
        "moves": board["moves"],
        "to_move": state.to_move,
        "last_move": state.last_move,
        "outcome": board["outcome"],
        "legal": board["legal"] if human_to_move else [],
        "forbidden": board["forbidden"],
        "status": status_of(live, pool),
        "queue_position": pool.position(live.id),
        "paused": stored.paused,
        "delay_ms": stored.delay_ms,
        "analysis": analysis,
        "message": live.message,
        "people": people_of(live),
        "clock": clock_of(live),
        "review": review_of(live),
    }


def people_of(live: LiveGame) -> dict[str, Any]:
    """The ``People`` of docs/web.md: seats claimed, the pending offer, the rematch."""
    stored = live.stored
    hashes = stored.seat_hashes
    return {
        "between_devices": hashes is not None,
        "joined": [True, True] if hashes is None else [h is not None for h in hashes],
        "offer": stored.offer,
        "rematch": stored.rematch,
    }


def clock_of(live: LiveGame) -> dict[str, Any] | None:
    """The ``Clock`` of docs/web.md as of now, or ``None`` for an untimed game."""
    clock = live.clock
    return None if clock is None else clock.view(clocks.wall_time())


def review_of(live: LiveGame) -> dict[str, Any] | None:
    """The ``Review`` of docs/web.md: running (with its progress) or done (with the
    result); ``None`` before one is asked for or once the moves have changed."""
    stored = live.stored.review
    if stored is not None and stored.get("plies") == live.match.state.ply:
        return {"status": "done", "done": stored["plies"] + 1, "total": stored["plies"] + 1} | {
            "result": stored
        }
    if live.review_progress is not None:
        done, total = live.review_progress
        return {"status": "running", "done": done, "total": total, "result": None}
    return None


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """What a watcher sees of a ``State``: no hint the player asked for, no message
    meant for the player."""
    analysis = state.get("analysis")
    hidden = analysis is not None and analysis.get("hint")
    return state | {"analysis": None if hidden else analysis, "message": None, "legal": []}


def state_json(live: LiveGame, pool: SearchPool) -> bytes:
    """``state_of`` as JSON, reused while nothing it shows has changed (the clock,
    which changes with time, is read anew each time)."""
    key = (
        live.stored.version,
        status_of(live, pool),
        pool.position(live.id),
        live.message,
        live.hint_ply,
        id(live.hint),
        live.review_progress,
    )
    if live.json_cache is None or live.json_cache[0] != key:
        state = state_of(live, pool)
        del state["clock"]
        body = json.dumps(state, separators=(",", ":")).encode()
        live.json_cache = (key, body)
    return with_fields(live.json_cache[1], clock=clock_of(live))


def with_fields(body: bytes, **fields: Any) -> bytes:
    """A JSON object's text with ``fields`` added at its end."""
    extra = json.dumps(fields, separators=(",", ":")).encode()
    return body[:-1] + b"," + extra[1:]


def _board(live: LiveGame) -> dict[str, Any]:
    """The parts of the state that change only with the position (cached per version)."""
    version = live.stored.version
    if live.board_cache is not None and live.board_cache[0] == version:
        return live.board_cache[1]
    state = live.match.state
    width, height = views.board_size(state)
    last = state.last_move
    part = {
        "board": {
            "width": width,
            "height": height,
            "cells": views.cells_of(state),
            "last_cell": None if last is None else views.cell_of_move(state, last, state.ply - 1),
        },
        "moves": views.moves_of(state),
        "outcome": outcome_view(state, _ending(live)),
        "legal": sorted(state.legal_moves()),
        "forbidden": views.forbidden_of(state),
    }
    live.board_cache = (version, part)
    return part


def _ending(live: LiveGame) -> Ending | None:
    data = live.stored.ending
    return None if data is None else Ending.from_json(data)


def _last_analysis(live: LiveGame) -> dict[str, Any] | None:
    found: dict[str, Any] | None = None
    for entry in reversed(live.stored.analyses):
        if entry is not None:
            found = entry
            break
    return found
