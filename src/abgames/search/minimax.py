"""Plain minimax (negamax form) with no pruning: the slow, obviously correct oracle."""

from __future__ import annotations

from dataclasses import dataclass, field

from abgames.games.base import GameState, Move
from abgames.search.evaluation import Evaluation
from abgames.search.score import DRAW, INFINITY, WIN


@dataclass
class MinimaxResult:
    """The value of the root, every root move's score, the best moves and the node count."""

    value: int
    scores: dict[Move, int] = field(default_factory=dict)
    nodes: int = 0

    @property
    def best_moves(self) -> set[Move]:
        return {move for move, score in self.scores.items() if score == self.value}


def minimax(
    state: GameState, depth: int | None = None, evaluation: Evaluation | None = None
) -> MinimaxResult:
    """Search every line to ``depth`` plies (``None``: to the end of the game).

    Scores follow ``abgames.search.score``: the side to move's view, wins and
    losses as ``WIN`` minus the plies to the winning move. ``state`` is restored.
    """
    evaluator = evaluation or Evaluation()
    result = MinimaxResult(value=-INFINITY)
    max_depth = depth if depth is not None else 1 << 30

    def value(ply: int) -> int:
        result.nodes += 1
        outcome = state.outcome()
        if outcome is not None:
            return DRAW if outcome.winner is None else -(WIN - ply)
        if ply >= max_depth:
            return evaluator.evaluate(state)
        best = -INFINITY
        for move in evaluator.candidates(state):
            state.play(move)
            score = -value(ply + 1)
            state.undo()
            if ply == 0:
                result.scores[move] = score
            best = max(best, score)
        return best

    result.value = value(0)
    return result
