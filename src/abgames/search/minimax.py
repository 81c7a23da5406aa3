"""Plain minimax (negamax form) with no pruning: the slow, obviously correct oracle."""

from __future__ import annotations

from dataclasses import dataclass, field

from abgames.games.base import GameState, Move
from abgames.search.evaluation import Evaluation
from abgames.search.observer import SearchObserver
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
    state: GameState,
    depth: int | None = None,
    evaluation: Evaluation | None = None,
    observer: SearchObserver | None = None,
) -> MinimaxResult:
    """Search every line to ``depth`` plies (``None``: to the end of the game).

    Scores follow ``abgames.search.score``: the side to move's view, wins and
    losses as ``WIN`` minus the plies to the winning move. ``state`` is restored.
    ``observer`` (optional) is told every node, with the open window at each.
    """
    evaluator = evaluation or Evaluation()
    result = MinimaxResult(value=-INFINITY)
    max_depth = depth if depth is not None else 1 << 30

    def value(ply: int) -> int:
        result.nodes += 1
        if observer is not None:
            observer.enter(state, -INFINITY, INFINITY, max_depth - ply)
        outcome = state.outcome()
        if outcome is not None:
            leaf = DRAW if outcome.winner is None else -(WIN - ply)
            if observer is not None:
                observer.leaf(leaf, True)
            return leaf
        if ply >= max_depth:
            leaf = evaluator.evaluate(state)
            if observer is not None:
                observer.leaf(leaf, False)
            return leaf
        best = -INFINITY
        for move in evaluator.candidates(state):
            state.play(move)
            score = -value(ply + 1)
            state.undo()
            if ply == 0:
                result.scores[move] = score
            best = max(best, score)
        if observer is not None:
            observer.exit(best)
        return best

    result.value = value(0)
    return result
