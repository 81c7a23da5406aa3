"""What the teaching tools share (``abgames experiment`` and the /learn web page):
the evaluation each game's experiments search with, default depths, the size caps,
and the pruning experiment's figures as JSON.

Front-ends call this module; it calls ``search`` (the trace and the experiment)
and ``ai`` (each game's evaluation), so both show the same searches.
"""

from __future__ import annotations

from typing import Any

from abgames.ai.connect4.heuristic import ConnectFourEvaluation
from abgames.ai.gomoku.starter import StarterEvaluation
from abgames.ai.tictactoe import TicTacToeEvaluation
from abgames.games import GameState
from abgames.learn.textbook import TEXTBOOK_DEPTH, LeafValues
from abgames.search.evaluation import Evaluation
from abgames.search.experiment import METHODS, ExperimentRow
from abgames.search.trace import value_text

# The teaching defaults: ``abgames experiment`` and the /learn page (its meta and its
# API) both take these, so the same request shows the same figures in either.
#: Depth of the pruning experiment when none is given: the whole game (``None``, no
#: horizon) for tic-tac-toe, a few plies elsewhere.
EXPERIMENT_DEPTHS: dict[str, int | None] = {
    "tictactoe": None,
    "connect4": 5,
    "gomoku": 2,
    "textbook": TEXTBOOK_DEPTH,
}
#: Depth of a trace when none is given: a tree a class can read. ``textbook`` is the
#: textbook's tree (``learn.textbook``), searched to its leaves.
TRACE_DEPTHS: dict[str, int] = {
    "tictactoe": 3,
    "connect4": 3,
    "gomoku": 2,
    "textbook": TEXTBOOK_DEPTH,
}
#: Nodes a trace may hold when no cap is given (``--max-nodes``, the page's "Node cap").
TRACE_MAX_NODES = 1_500
#: How many candidate points the Gomoku experiments search at each node.
GOMOKU_EXPERIMENT_BEAM = 8
#: The pruning experiment's minimax (the largest of its searches) may visit this many
#: positions (the whole tic-tac-toe tree is 549,946) and take this long.
MAX_EXPERIMENT_NODES = 600_000
EXPERIMENT_TIME_LIMIT_S = 20.0


def evaluation_for(game: str) -> Evaluation:
    """The evaluation the experiments and traces of ``game`` search with."""
    if game == "tictactoe":
        return TicTacToeEvaluation()
    if game == "connect4":
        return ConnectFourEvaluation()
    if game == "textbook":
        return LeafValues()
    return StarterEvaluation(GOMOKU_EXPERIMENT_BEAM)


def experiment_json(
    state: GameState, rows: list[ExperimentRow], depth: int | None
) -> dict[str, Any]:
    """The pruning experiment's figures, one row per method, minimax first."""
    minimax_nodes = rows[0].nodes
    return {
        "game": state.name,
        "position": state.notation(),
        "depth": depth,
        "agree": all(row.agrees for row in rows),
        "rows": [
            {
                "method": key,
                "label": row.method,
                "nodes": row.nodes,
                "share": row.nodes / minimax_nodes,
                "seconds": round(row.seconds, 4),
                "value": row.value,
                "value_text": value_text(row.value),
                "move": row.move,
                "move_text": None if row.move is None else state.format_move(row.move),
                "agrees": row.agrees,
            }
            for key, row in zip(METHODS, rows, strict=True)
        ],
    }
