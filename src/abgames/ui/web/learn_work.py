"""The /learn page's computations, apart from the routes: positions, traces, the experiment.

Plain functions over plain data, so that a search worker (a local process or a Ray
actor) can run the heavy ones (``run_learn``) and the routes only check the request.
``estimate_experiment_nodes`` lets a route refuse an experiment that cannot finish
within its budget before any worker is spent on it.
"""

from __future__ import annotations

from typing import Any

from abgames.games import GameState, IllegalMoveError, NotationError, connect4, gomoku
from abgames.games.connect4 import ConnectFour
from abgames.learn import (
    EXPERIMENT_TIME_LIMIT_S,
    MAX_EXPERIMENT_NODES,
    evaluation_for,
    experiment_json,
)
from abgames.learn.textbook import TEXTBOOK_DEPTH, TextbookTree, textbook_json
from abgames.match import new_state
from abgames.search.experiment import ExperimentTooBig, run_pruning_experiment
from abgames.search.trace import PRUNED, Trace, run_trace
from abgames.ui.web.errors import BadInput
from abgames.ui.web.matches import check_options
from abgames.ui.web.views import board_size, cell_of_move, cells_of, outcome_of, text_of

#: Deepest trace per game (the node cap keeps big trees in bounds anyway).
#: ``textbook`` is the textbook's tree (``learn_textbook``): searched from its root to
#: its leaves, two plies down, and nothing else.
MAX_TRACE_DEPTHS = {"tictactoe": 9, "connect4": 8, "gomoku": 4, "textbook": TEXTBOOK_DEPTH}
MIN_DEPTHS = {"textbook": TEXTBOOK_DEPTH}
#: Deepest pruning experiment per game, and its default.
MAX_EXPERIMENT_DEPTHS = {"tictactoe": 9, "connect4": 6, "gomoku": 3, "textbook": TEXTBOOK_DEPTH}
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
MAX_NODES = 5000
TRACE_TIME_LIMIT_S = 15.0
#: An experiment whose estimated minimax tree is this many times the node cap is
#: refused at once (the estimate ignores game ends: a full tic-tac-toe tree is estimated
#: at 986,410 positions and has 549,946).
ESTIMATE_MARGIN = 2
TRACE = "trace"
EXPERIMENT = "experiment"
LEARN_OPS = (TRACE, EXPERIMENT)
#: The key of a learn answer that is a refusal in words (a 400), not a result.
LEARN_ERROR = "error"


def position_of(game: str, options: dict[str, Any], moves: list[int | str]) -> GameState:
    """The position named by the request, or ``BadInput`` saying what is wrong."""
    if game not in MAX_TRACE_DEPTHS:
        raise BadInput(f"unknown game {game!r}: choose {', '.join(MAX_TRACE_DEPTHS)}")
    if game == "textbook":
        if options or moves:
            raise BadInput("the textbook tree has no options and is searched from its root")
        return TextbookTree()
    check_options(game, options)
    try:
        state = new_state(game, **options)
    except ValueError as error:
        raise BadInput(str(error)) from None
    for number, item in enumerate(moves, start=1):
        try:
            move = state.parse_move(item) if isinstance(item, str) else item
            state.play(move)
        except (IllegalMoveError, NotationError) as error:
            raise BadInput(f"move {number} ({item}): {error}") from None
    return state


def searchable(state: GameState) -> None:
    if state.outcome() is not None:
        raise BadInput("the game is over in that position: there is nothing to search")


def depth_of(
    game: str, depth: int | None, limits: dict[str, int], default: int | None
) -> int | None:
    """The depth asked for, else ``default`` (``None``: to the end of the game), checked."""
    chosen = default if depth is None else depth
    if chosen is None:
        return None
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


def estimate_experiment_nodes(state: GameState, depth: int) -> int:
    """Positions minimax would visit to ``depth`` plies, ignoring game ends (an upper bound).

    The branching is the search's own candidate count at the root and, on average, one
    ply down; it is taken to change by the same step at every further ply (it falls by
    one a ply in tic-tac-toe, stays level in Connect Four, grows in Gomoku)."""
    candidates = evaluation_for(state.name).candidates
    root = list(candidates(state))
    if depth <= 0 or not root:
        return 1
    below = []
    for move in root:
        state.play(move)
        below.append(len(list(candidates(state))) if state.outcome() is None else 0)
        state.undo()
    step = sum(below) / len(below) - len(root)
    total = level = 1
    for ply in range(depth):
        level *= max(round(len(root) + step * ply), 1)
        total += level
        if total > MAX_EXPERIMENT_NODES * ESTIMATE_MARGIN:
            break
    return total


def check_experiment_size(state: GameState, depth: int | None) -> None:
    """``BadInput`` for an experiment far past the node cap (refused before it runs)."""
    if isinstance(state, TextbookTree):
        return
    if depth is None:  # to the end of the game: at most the game's deepest experiment
        depth = MAX_EXPERIMENT_DEPTHS[state.name]
    if estimate_experiment_nodes(state, depth) > MAX_EXPERIMENT_NODES * ESTIMATE_MARGIN:
        raise BadInput(
            f"minimax would visit more than {MAX_EXPERIMENT_NODES:,} positions here "
            "(estimated before searching): choose a smaller depth"
        )


def run_learn(op: str, request: dict[str, Any]) -> dict[str, Any]:
    """Run a checked /learn request (``op`` "trace" or "experiment"); its JSON answer.

    ``request`` holds ``game``, ``options``, ``moves`` and ``depth`` (resolved), and for
    a trace ``method`` and ``max_nodes``. A request that turns out too big (or wrong)
    answers ``{"error": message}`` instead (``LEARN_ERROR``)."""
    try:
        return _run_learn(op, request)
    except BadInput as error:
        return {LEARN_ERROR: error.message}


def _run_learn(op: str, request: dict[str, Any]) -> dict[str, Any]:
    state = position_of(request["game"], request["options"], request["moves"])
    evaluation = evaluation_for(request["game"])
    depth: int | None = request["depth"]
    if op == TRACE:
        trace = run_trace(
            state,
            evaluation,
            request["method"],
            depth,
            max_nodes=request["max_nodes"],
            time_limit=TRACE_TIME_LIMIT_S,
        )
        return {"position": position_json(state), "trace": trace_json(state, trace)}
    if op == EXPERIMENT:
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
    raise BadInput(f"unknown learn operation {op!r}")
