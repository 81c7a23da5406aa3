"""The text menu and its wording: quit at any question, ABGAMES_UI, plurals, help per game."""

from __future__ import annotations

import io

import pytest

from abgames.cli import main
from abgames.commands.connect4 import analysis_text
from abgames.games.connect4 import ConnectFour
from abgames.games.gomoku import Gomoku
from abgames.games.tictactoe import TicTacToe
from abgames.match import HUMAN, Match, Seat
from abgames.search.result import SearchResult
from abgames.ui.terminal import explain, run_game, run_menu


def menu(answers: str) -> str:
    out = io.StringIO()
    assert run_menu(io.StringIO(answers), out) == 0
    return out.getvalue()


@pytest.mark.parametrize(
    "answers",
    ["quit\n", "Q\n", "exit\n", "2\nquit\n", "gomoku\n\n\n\n\nquit\n"],
)
def test_quit_at_any_menu_question_leaves(answers: str) -> None:
    out = menu(answers)
    assert "Please" not in out
    assert out.rstrip().endswith("Bye.")


def test_a_bad_menu_answer_says_quit_is_possible() -> None:
    assert "Please choose one of: tictactoe, connect4, gomoku (or quit)." in menu("chess\nquit\n")


def test_an_unknown_abgames_ui_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ABGAMES_UI", "nonsense")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main([]) == 0
    err = capsys.readouterr().err
    assert err == "abgames: ABGAMES_UI='nonsense' is neither gui nor terminal; ignored\n"


@pytest.mark.parametrize("value", ["terminal", "GUI ", ""])
def test_known_abgames_ui_values_say_nothing(
    value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ABGAMES_UI", value)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main([]) == 0
    assert "neither gui nor terminal" not in capsys.readouterr().err


def test_one_more_move_is_singular() -> None:
    state = ConnectFour.from_notation("112233")  # the fourth in row 1 wins at once
    text = analysis_text(state, [0, 0, 0, 18, 0, 0, 0])  # 18: wins with the 4th stone
    assert "ends in 1 more move (ply)." in text
    assert "more moves" not in text


def test_a_single_candidate_is_not_called_candidates() -> None:
    state = ConnectFour.from_notation("4")
    result = SearchResult(
        move=3, score=0, depth=4, nodes=9, elapsed=0.1, pv=(3,), root_scores={3: 0}
    )
    match = Match(state, (Seat(HUMAN), Seat(HUMAN)))
    match.play_ai_result(result)
    lines = explain(match).splitlines()
    assert lines[-1].startswith("Best candidate: 4 ")
    assert "others are upper bounds" not in lines[-1]


def help_text(match: Match) -> str:
    out = io.StringIO()
    run_game(match, io.StringIO("help\nquit\n"), out)
    return out.getvalue()


def test_help_lists_forbidden_for_gomoku_only() -> None:
    humans = (Seat(HUMAN), Seat(HUMAN))
    assert "forbidden" not in help_text(Match(TicTacToe(), humans))
    assert "forbidden" not in help_text(Match(ConnectFour(), humans))
    assert "forbidden    list black's forbidden points" in help_text(Match(Gomoku(), humans))
