"""What a search reports after each completed depth."""

from __future__ import annotations

from dataclasses import dataclass, field

from abgames.games.base import Move
from abgames.search import score as scores

#: The ``note`` of a result an exact player could not prove and searched heuristically.
NOT_SOLVED = "not solved, best heuristic move"


@dataclass(frozen=True)
class SearchResult:
    """One completed iteration of a search (or the best partial answer if none completed).

    ``score`` is from the side to move's view (see ``abgames.search.score``).
    ``root_scores`` holds the score of every root move searched; they are exact
    when ``root_scores_exact`` is true, otherwise only the best one is exact and
    the others are upper bounds (alpha-beta proved them no better).
    ``solved`` means the score is exact to the end of the game: no leaf was cut
    off by the depth horizon, or the score is a proven win or loss (iterative
    deepening finds the shortest win first). A solved result can still hold
    heuristic scores for other root moves (the search stops once the best move is
    proven): ``heuristic_moves`` names the root moves whose score is an evaluation
    at the horizon rather than a game result (empty where an engine does not
    track it, as an exact solver need not).
    ``note`` is what a person should be told beyond the numbers, shown as is beside
    the score: ``"not solved, best heuristic move"`` when an exact player had to
    fall back on a heuristic search (``NOT_SOLVED``), ``"solving column 4"`` on the
    progress results of a solver still at work; empty otherwise.
    """

    move: Move | None
    score: int
    depth: int
    nodes: int
    elapsed: float
    pv: tuple[Move, ...] = ()
    root_scores: dict[Move, int] = field(default_factory=dict)
    root_scores_exact: bool = False
    heuristic_moves: frozenset[Move] = frozenset()
    cutoffs: int = 0
    tt_hits: int = 0
    complete: bool = True
    solved: bool = False
    note: str = ""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0

    def describe_score(self) -> str:
        return scores.describe(self.score, solved=self.solved)

    def best_candidates(self, count: int = 5) -> list[tuple[Move, int]]:
        """The ``count`` best root moves with their scores, best first."""
        ranked = sorted(self.root_scores.items(), key=lambda item: -item[1])
        return ranked[:count]

    def solved_candidates(self, count: int = 5) -> list[tuple[Move, int]]:
        """The ``count`` best root moves whose scores are game results, best first."""
        ranked = sorted(
            (
                (move, score)
                for move, score in self.root_scores.items()
                if move not in self.heuristic_moves
            ),
            key=lambda item: -item[1],
        )
        return ranked[:count]
