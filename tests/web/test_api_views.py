"""What the web app says about a search: the same facts the terminal's ``why`` gives."""

from __future__ import annotations

from abgames.ai.levels import make_player
from abgames.games import TicTacToe
from abgames.search.result import NOT_SOLVED, SearchResult
from abgames.ui.web.views import analysis_of, progress_of


def test_a_solved_search_shows_game_results_only() -> None:
    # a3 b2 c3 b3 a2: O's b1 wins at once; the search stopped there, so the other root
    # moves hold evaluations, which must not be shown as results.
    state = TicTacToe.from_notation("a3 b2 c3 b3 a2")
    result = make_player("tictactoe", "perfect").choose(state)
    assert result.solved and result.heuristic_moves
    analysis = analysis_of(state, result)
    assert analysis["text"] == "b1"
    assert [entry["text"] for entry in analysis["root_scores"]] == ["b1"]
    assert analysis["root_scores"][0]["score_text"] == "wins in 1 move"


def test_a_fallback_says_it_was_not_solved() -> None:
    state = TicTacToe.from_notation("b2")
    result = SearchResult(move=0, score=3, depth=4, nodes=100, elapsed=6.6, note=NOT_SOLVED)
    analysis = analysis_of(state, result)
    assert analysis["note"] == NOT_SOLVED
    assert "Not solved, best heuristic move." in analysis["why"]


def test_a_solver_at_work_reports_what_it_solves() -> None:
    state = TicTacToe()
    result = SearchResult(
        move=None, score=0, depth=0, nodes=5_000, elapsed=1.0, note="solving column 4"
    )
    progress = progress_of(state, result)
    assert progress["note"] == "solving column 4" and progress["text"] is None
