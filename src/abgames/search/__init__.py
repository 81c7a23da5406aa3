"""Game-independent search: limits, results, the minimax oracle and the alpha-beta engine."""

from abgames.search.alphabeta import AlphaBeta, SearchOptions
from abgames.search.evaluation import Evaluation
from abgames.search.limit import Limit
from abgames.search.minimax import MinimaxResult, minimax
from abgames.search.result import SearchResult

__all__ = [
    "AlphaBeta",
    "Evaluation",
    "Limit",
    "MinimaxResult",
    "SearchOptions",
    "SearchResult",
    "minimax",
]
