"""``abgames solve connect4`` and ``abgames analyze connect4``: output and bad lines."""

from __future__ import annotations

import io

import pytest

from abgames.ai.connect4.kernel import INVALID_MOVE
from abgames.ai.connect4.solver import Solver
from abgames.cli import main
from abgames.commands.connect4 import describe, solve_stream


def run(text: str, *, analyze: bool = False, weak: bool = False) -> tuple[list[str], list[str]]:
    out, err = io.StringIO(), io.StringIO()
    solve_stream(Solver(16), io.StringIO(text), out, err, analyze=analyze, weak=weak)
    return out.getvalue().splitlines(), err.getvalue().splitlines()


def test_solves_each_line_in_the_established_format() -> None:
    out, err = run("2252576253462244111563365343671351441\n4455443\n")
    assert out[0] == "2252576253462244111563365343671351441 -1"
    assert out[1].startswith("4455443 ")
    assert err == []


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("44448", "'8' is not a column"),
        ("4440", "'0' is not a column"),
        ("4444444", "column 4 is full"),
        ("1212121" + "3", "the game is over"),
        ("44a5", "'a' is not a column"),
        ("44 5", "' ' is not a column"),
    ],
)
def test_a_bad_line_is_reported_and_the_next_still_solved(line: str, reason: str) -> None:
    good = "2252576253462244111563365343671351441"
    out, err = run(f"{good}\n{line}\n{good}\n")
    assert out == [f"{good} -1", f"{good} -1"]
    assert len(err) == 1
    assert err[0].startswith("line 2: ")
    assert reason in err[0]


def test_analyze_prints_every_column_and_marks_full_ones() -> None:
    out, _ = run("111111234\n", analyze=True)
    fields = out[0].split()
    assert fields[0] == "111111234"
    scores = [int(f) for f in fields[1:]]
    assert len(scores) == 7
    assert scores[0] == INVALID_MOVE
    assert all(s != INVALID_MOVE for s in scores[1:])


def test_weak_mode_prints_win_draw_or_loss() -> None:
    out, _ = run("2252576253462244111563365343671351441\n", weak=True)
    assert out == ["2252576253462244111563365343671351441 -1"]


def test_command_line_solve(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("2252576253462244111563365343671351441\n9\n"))
    assert main(["solve", "connect4", "--no-book", "--table-bits", "16"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "2252576253462244111563365343671351441 -1\n"
    assert "line 2" in captured.err


def test_analyze_command_describes_each_column(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "connect4", "2252576253462244111563365343671351", "--no-book"]) == 0
    text = capsys.readouterr().out
    assert "column 1:" in text and "column 7:" in text
    assert "|" in text  # the board


def test_analyze_command_rejects_a_bad_move_string(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "connect4", "44x", "--no-book"]) == 2
    assert "'x' is not a column" in capsys.readouterr().err


def test_outcomes_in_words() -> None:
    assert describe(22 - 9) == "wins with your 9th stone"
    assert describe(0) == "draw"
    assert describe(-(22 - 11)).startswith("loses")
    assert describe(INVALID_MOVE) == "full"
