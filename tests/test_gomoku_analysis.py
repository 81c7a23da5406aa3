"""What ``why`` and the heat map get from the Gomoku engine when the clock cuts a depth short.

When the clock stops an iteration after a root move beat the previous best, the
engine plays that move at the new depth. Its result used to carry only the move
(``pv=(move,)``, no root scores): ``why`` showed "Expected line: i8" and no
candidates after a depth-9 search, and the window drew no heat map. The clock is
made deterministic here: the real kernel searches the depth, then the wrapper
marks it stopped right after the new best, with the later moves unfinished.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from abgames.ai.gomoku import search as ks
from abgames.ai.gomoku.engine import GomokuEngine
from abgames.ai.gomoku.tables import S_ABORTED
from abgames.games.gomoku import Gomoku
from abgames.match import AI, HUMAN, Match, Seat
from abgames.search.limit import Limit
from abgames.search.score import WIN
from abgames.ui.terminal import explain


class CutAfterANewBest:
    """``search_root`` stopped, at the first depth whose best is not the first move,
    just after that best was searched (as a clock running out there would)."""

    def __init__(self) -> None:
        self.real = ks.search_root
        self.cut_depth: int | None = None
        self.finished: list[int] = []
        self.line: list[int] = []

    def __call__(
        self,
        board: Any,
        tables: Any,
        depth: int,
        root: np.ndarray[Any, Any],
        scores: np.ndarray[Any, Any],
    ) -> int:
        best = int(self.real(board, tables, depth, root, scores))
        if self.cut_depth is None and depth >= 2 and best != 0:
            self.cut_depth = depth
            scores[best + 1 :] = -WIN - 1
            tables.stats[S_ABORTED] = 1
            self.finished = [int(c) for c in root[: best + 1]]
            self.line = [int(c) for c in tables.pv[0, : tables.pv_length[0]]]
        return best


@pytest.fixture
def cut(monkeypatch: pytest.MonkeyPatch) -> CutAfterANewBest:
    wrapper = CutAfterANewBest()
    monkeypatch.setattr(ks, "search_root", wrapper)  # the engine calls ks.search_root
    return wrapper


POSITION = "h8 i9 i8 g8 h9 h10 j7"


def test_a_depth_cut_short_keeps_its_line_and_the_scores_it_finished(
    cut: CutAfterANewBest,
) -> None:
    state = Gomoku.from_notation(POSITION)
    last = list(GomokuEngine().search(state, Limit(depth=6)))[-1]
    assert cut.cut_depth is not None, "no depth changed its best move: pick another position"
    assert last.depth == cut.cut_depth and not last.complete
    assert len(last.pv) == len(cut.line) > 1 and last.pv[0] == last.move
    assert len(last.root_scores) == len(cut.finished) >= 2
    assert max(last.root_scores.values()) == last.root_scores[last.move] == last.score


def test_why_lists_the_line_and_candidates_of_a_depth_cut_short(cut: CutAfterANewBest) -> None:
    state = Gomoku.from_notation(POSITION)
    result = list(GomokuEngine().search(state, Limit(depth=6)))[-1]
    assert result.move is not None
    match = Match(state, (Seat(HUMAN), Seat(AI, "hard")))
    match.play_ai_result(result)
    lines = explain(match).splitlines()
    assert lines[0].startswith(f"The AI played {state.format_move(result.move)}: ")
    assert lines[1].startswith("Expected line: ") and len(lines[1].split()) == 2 + len(cut.line)
    assert lines[2].startswith("Best candidates (others are upper bounds): ")
