"""The teaching side, shared by ``abgames experiment`` and the /learn web page.

``defaults``: each game's experiment evaluation, default depths, the size caps and
the pruning experiment's figures as JSON; ``textbook``: the textbook's game tree as
a tiny game. The names front-ends use are importable from here.
"""

from abgames.learn.defaults import (
    EXPERIMENT_DEPTHS,
    EXPERIMENT_TIME_LIMIT_S,
    GOMOKU_EXPERIMENT_BEAM,
    MAX_EXPERIMENT_NODES,
    TRACE_DEPTHS,
    TRACE_MAX_NODES,
    evaluation_for,
    experiment_json,
)
from abgames.learn.textbook import (
    LEAF_VALUES,
    TEXTBOOK_DEPTH,
    LeafValues,
    TextbookTree,
    textbook_json,
)

__all__ = [
    "EXPERIMENT_DEPTHS",
    "EXPERIMENT_TIME_LIMIT_S",
    "GOMOKU_EXPERIMENT_BEAM",
    "LEAF_VALUES",
    "MAX_EXPERIMENT_NODES",
    "TEXTBOOK_DEPTH",
    "TRACE_DEPTHS",
    "TRACE_MAX_NODES",
    "LeafValues",
    "TextbookTree",
    "evaluation_for",
    "experiment_json",
    "textbook_json",
]
