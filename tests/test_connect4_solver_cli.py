"""``abgames solve connect4`` and ``abgames analyze connect4``: output and bad lines."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from abgames.ai.connect4.book_builder import WORK_FILE, WorkFileError, build
from abgames.ai.connect4.kernel import INVALID_MOVE
from abgames.ai.connect4.solver import SolveProgress, Solver
from abgames.cli import main
from abgames.commands import connect4 as connect4_command
from abgames.commands.connect4 import ProgressLine, describe, solve_stream

#: Several chunks of the solver (some million nodes) without the book: progress shows.
LONG = "2416615552"
#: A generous bound for Ctrl-C to end a solve (it takes about a tenth of a second).
CTRL_C_SECONDS = 10


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


#: Positions of ``../shared/data/connect4/Test_L3_R1`` whose exact scores (6, -5) are no
#: weak answer (1, -1), so a ``--weak`` that was ignored could not pass.
STRONG_WIN = "67152117737262713366376314254"
STRONG_LOSS = "26512741647245111351472255277"


def test_weak_mode_prints_win_draw_or_loss() -> None:
    exact, _ = run(f"{STRONG_WIN}\n{STRONG_LOSS}\n")
    assert exact == [f"{STRONG_WIN} 6", f"{STRONG_LOSS} -5"]
    weak, _ = run(f"{STRONG_WIN}\n{STRONG_LOSS}\n", weak=True)
    assert weak == [f"{STRONG_WIN} 1", f"{STRONG_LOSS} -1"]
    weak_columns, _ = run(f"{STRONG_WIN}\n", analyze=True, weak=True)
    exact_columns, _ = run(f"{STRONG_WIN}\n", analyze=True)
    signs = [s if s == INVALID_MOVE else (s > 0) - (s < 0) for s in fields(exact_columns[0])]
    assert fields(weak_columns[0]) == signs
    assert 6 in fields(exact_columns[0])


def fields(line: str) -> list[int]:
    return [int(field) for field in line.split()[1:]]


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


def test_bytes_that_are_not_text_are_a_bad_line_like_any_other() -> None:
    out, err = io.StringIO(), io.StringIO()
    lines = [b"\xff\n", b"44\xc3\xa95\n", b"2252576253462244111563365343671351441\n"]
    assert solve_stream(Solver(16), lines, out, err, analyze=False, weak=False) == 2
    assert out.getvalue() == "2252576253462244111563365343671351441 -1\n"
    assert err.getvalue().splitlines() == [
        "line 1: byte 1 is not utf-8 text (invalid start byte) in b'\\xff'",
        "line 2: move 3: 'é' is not a column (1..7) in '44é5'",
    ]


def test_a_strict_utf8_stdin_with_other_bytes_does_not_crash() -> None:
    """The reported case: ``printf '\\xff\\n4\\n' | PYTHONIOENCODING=utf-8:strict abgames ...``."""
    result = subprocess.run(
        [sys.executable, "-m", "abgames", "solve", "connect4", "--table-bits", "16"],
        input=b"\xff\n4\n",
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
        timeout=120,
    )
    assert b"Traceback" not in result.stderr
    assert result.stdout.decode().split()[0] == "4"
    assert result.stderr.decode().startswith("line 1: byte 1 is not utf-8 text")
    assert result.returncode == 1


@pytest.mark.parametrize("command", ["solve", "analyze", "book"])
@pytest.mark.parametrize("bits", ["5", "30", "x", "99999999999999999999"])
def test_table_bits_outside_the_range_get_a_clear_message(
    command: str, bits: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "connect4", "--table-bits", bits])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "--table-bits: must be an integer from 10 to 27 (8 KiB to 1 GiB)" in err
    assert "Traceback" not in err


def test_help_states_the_table_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "10..27 (8 KiB to 1 GiB; default 22, 32 MiB)" in " ".join(
        capsys.readouterr().out.split()
    )


def test_the_solver_refuses_a_table_of_gigabytes() -> None:
    with pytest.raises(ValueError, match=r"10\.\.27"):
        Solver(30)


def test_a_garbled_work_file_is_named_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    text = "4 -2\nthis is not a line\n44 1\n"
    (work / WORK_FILE).write_text(text)
    args = ["book", "connect4", "--work", str(work), "--output", str(tmp_path / "book.bin")]
    assert main([*args, "--plies", "1", "--table-bits", "16"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{work / WORK_FILE} line 2: expected 'MOVES SCORE'" in err
    assert (work / WORK_FILE).read_text() == text


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("4 x", "expected 'MOVES SCORE'"),
        ("48 3", "MOVES:"),
        ("4 99", "a score is -18..18"),
        ("4 -2 8", "COLUMN must be 1..7"),
        ("4 -2 4 4", "expected 'MOVES SCORE'"),
        ("444444 0 4", "COLUMN 4 is full"),
    ],
)
def test_every_kind_of_bad_work_line_is_refused(tmp_path: Path, line: str, reason: str) -> None:
    (tmp_path / WORK_FILE).write_text(f"{line}\n44 1\n")
    with pytest.raises(WorkFileError, match=reason):
        build(plies=1, work_dir=tmp_path, output=tmp_path / "book.bin", table_bits=16)


def test_analyze_reports_progress_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(connect4_command, "LOGGED_PROGRESS_SECONDS", 0.0)
    assert main(["analyze", "connect4", LONG, "--no-book", "--table-bits", "16"]) == 0
    captured = capsys.readouterr()
    progress = captured.err.splitlines()
    assert len(progress) >= 2
    assert all(
        re.fullmatch(r"solving column [1-7]\.\.\. [\d.,]+ M nodes, \d+ s", p) for p in progress
    )
    assert "column 7:" in captured.out


def test_solve_shows_no_progress_when_stderr_is_not_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(connect4_command, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{LONG}\n"))
    assert main(["solve", "connect4", "--no-book", "--table-bits", "16"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{LONG} ") and captured.err == ""


def test_a_live_progress_line_is_rewritten_and_erased() -> None:
    stream = io.StringIO()
    line = ProgressLine(stream, live=True, interval=1.0)
    line.report("solving column 4", SolveProgress(5_000_000, 0.5, 3))  # too early: silent
    line.report("solving column 4", SolveProgress(12_400_000, 1.2, 3))
    line.report("solving column 4", SolveProgress(13_000_000, 1.3, 3))  # too soon again
    line.report("solving column 5", SolveProgress(30_000_000, 2.5, 4))
    line.clear()
    assert stream.getvalue() == (
        "\r\033[Ksolving column 4... 12.4 M nodes, 1 s"
        "\r\033[Ksolving column 5... 30.0 M nodes, 2 s"
        "\r\033[K"
    )


def _ctrl_c_as_in_a_terminal() -> None:
    """In the child: SIGINT's default action, as a terminal's foreground job has it. A
    shell without job control starts background jobs with SIGINT ignored, and a test
    run started that way would pass the ignoring on to the command under test."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["analyze", "connect4", "--no-book"], ""),
        (["solve", "connect4", "--no-book"], "\n"),
        # 16 plies: past the level book's 12 discs, so the build stays long however
        # complete the shipped level is (2 plies took 3 s with a near-complete one).
        (["book", "connect4", "--plies", "16", "--jobs", "2"], ""),
    ],
)
def test_ctrl_c_ends_a_long_solve_at_once(args: list[str], stdin: str, tmp_path: Path) -> None:
    """The empty board without a book takes hours to solve, and a 16-ply book build
    long: Ctrl-C must not wait for either."""
    if args[0] == "book":
        args = [*args, "--work", str(tmp_path), "--output", str(tmp_path / "book.bin")]
    (tmp_path / "stdin").write_text(stdin)
    with (tmp_path / "stdin").open() as source:
        process = subprocess.Popen(
            [sys.executable, "-m", "abgames", *args],
            stdin=source,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            preexec_fn=_ctrl_c_as_in_a_terminal,
        )
    time.sleep(3)  # started and solving (it takes far longer than this)
    assert process.poll() is None
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
    try:
        out, err = process.communicate(timeout=CTRL_C_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"still solving {CTRL_C_SECONDS} s after Ctrl-C")
    assert process.returncode == 130
    assert "Traceback" not in out + err
    assert err.splitlines()[-1].startswith(f"abgames {args[0]}: interrupted")
    if args[0] != "book":  # the book's log goes to stdout
        assert out == "" and len(err.splitlines()) == 1


def test_help_and_tictactoe_do_not_load_the_compiler() -> None:
    """The solver commands import the solver (and numba, about a second) only when they run."""
    script = (
        "import sys\n"
        "from abgames.cli import build_parser\n"
        "from abgames.match import Match, seats_for\n"
        "from abgames.games.tictactoe import TicTacToe\n"
        "build_parser().format_help()\n"
        "Match(TicTacToe(), seats_for('ai-ai', 'ai', 'perfect')).ai_move()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.strip() == "[]"
