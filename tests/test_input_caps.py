"""Endless and oversized input (issue 48, item 5): every reader has a cap on its lines
and files, says so in one line, and holds bounded memory (``solve``, ``tune --state``,
``fit --labels``, ``arena --openings``; the terminal and ``load`` in test_files.py)."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import os
import re
import resource
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from abgames.ai.connect4.solver import Solver
from abgames.arena import spsa
from abgames.arena.openings import MAX_OPENING_LINE_BYTES, OpeningError, load_offset_openings
from abgames.arena.records import MAX_RECORD_LINE_BYTES, RecordWriter, read_records
from abgames.arena.teacher import MAX_LABEL_LINE_BYTES, label_positions, load_labels
from abgames.cli import main
from abgames.commands import tune as tune_command
from abgames.commands.connect4 import MAX_LINE_CHARS, bounded_lines, solve_stream
from abgames.files import NotRegularFileError
from abgames.games import TicTacToe
from abgames.match import HUMAN, Match, seats_for
from blocking import finishes as finishes_within

#: Address space a command under test may take: a runaway reader fails here instead of
#: filling the machine (the solver's table and numba fit well within it).
MEMORY_CAP = 2 * 1024**3
#: Seconds a command gets (a hang guard, not a measure).
HANG_GUARD = 120
#: Two positions late in a game: solved in a moment without a book.
LATE = "667461761176361457517574413235"
LATER = LATE + "4"


def cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def abgames_on(stdin_path: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m abgames ARGS < stdin_path`` under ``MEMORY_CAP``."""
    with open(stdin_path, "rb") as source:
        return subprocess.run(
            [sys.executable, "-m", "abgames", *args],
            stdin=source,
            capture_output=True,
            text=True,
            timeout=HANG_GUARD,
            preexec_fn=cap_memory,
        )


# --- solve connect4 --------------------------------------------------------------------------
def test_solve_reports_a_long_line_and_solves_the_next() -> None:
    source = io.BytesIO(f"{LATE}\n{'4' * (MAX_LINE_CHARS * 5)}\n{LATER}\n".encode())
    out, err = io.StringIO(), io.StringIO()
    bad = solve_stream(Solver(16), bounded_lines(source), out, err, analyze=False, weak=False)
    assert bad == 1
    assert [line.split()[0] for line in out.getvalue().splitlines()] == [LATE, LATER]
    assert err.getvalue().startswith("line 2: over 1,000 characters (a position has at most 42")
    assert err.getvalue().count("\n") == 1


def test_solve_on_endless_input_stops_with_one_line() -> None:
    result = abgames_on("/dev/zero", "solve", "connect4", "--table-bits", "16")
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    assert result.stderr == (
        "abgames solve: line 1: a line of over 1,000,000 characters without an end of line; "
        "the input ends there\n"
    )


def test_solve_reads_the_lines_of_a_file(tmp_path: Path) -> None:
    lines = tmp_path / "positions.txt"
    lines.write_text(f"{LATE}\n" + "4" * 2000 + "\n")
    result = abgames_on(str(lines), "solve", "connect4", "--table-bits", "16")
    assert result.returncode == 1
    assert result.stdout.split()[0] == LATE
    assert result.stderr.startswith("line 2: over 1,000 characters")


def finishes(call: Callable[[], object], fifo: Path | None = None) -> object:
    """``call()``'s outcome, failing the test if it blocks for ``HANG_GUARD`` s."""
    return finishes_within(call, fifo, HANG_GUARD)


def assert_one_line(err: str, *parts: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for part in parts:
        assert part in err, err


def in_process(
    capsys: pytest.CaptureFixture[str], *args: str, fifo: Path | None = None
) -> tuple[int, str]:
    """``abgames ARGS`` in this process (a hang guard around it): status and stderr."""
    status = finishes(lambda: main(list(args)), fifo)
    if isinstance(status, BaseException):
        raise status
    assert isinstance(status, int)
    return status, capsys.readouterr().err


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tuning run that gets as far as its first game fails the test."""

    def play(*args: object, **kwargs: object) -> None:
        raise AssertionError("a batch of games was started")

    monkeypatch.setattr(tune_command, "run", play)


# --- tune --state, --rate -------------------------------------------------------------------
def test_tune_refuses_a_saved_game_as_its_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    game = tmp_path / "game.json"
    Match(TicTacToe(), seats_for("human-human", HUMAN, "hard")).save(game)
    before = game.read_bytes()
    status, err = in_process(capsys, "tune", "gomoku", "--state", str(game))
    assert status == 2
    assert_one_line(err, f"abgames tune: {game}: a saved game, not a tuning state")
    assert game.read_bytes() == before


def _state(**changes: object) -> str:
    state = dataclasses.asdict(
        spsa.new_state("hard", [spsa.Param("attack.f3", 10.0, 2.0, 0.0, 100.0)], 5, 0.1, 1)
    )
    state.update(changes)
    return json.dumps(state)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[1]", "not a tuning state of version 1"),
        (_state(params=[{"x": 1}]), "params[0] is not {name, start, scale, low, high}"),
        (_state(theta=[float("nan")]), "a value of 'theta' is not a finite number"),
        (_state(theta=[10**400]), "a value of 'theta' is not a finite number"),
        (_state(theta=[]), "'theta' is not a list of 1 values"),
        (_state(rate=-1), "the learning rate must be a positive number"),
        (_state(rate="0.1"), "'rate' is not a finite number"),
        (_state(step=6), "'step' 6 is beyond 'steps' 5"),
        (_state(games=True), "'games' is not a whole number"),
        (_state(history=[["x"]]), "a value of 'history' is not a finite number"),
        (_state(level=3), "'level' is not a string"),
    ],
)
def test_tune_names_what_is_wrong_in_a_state_file(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "run.json"
    path.write_text(text)
    with pytest.raises(spsa.TuneError, match=re.escape(reason)):
        spsa.load_state(path)


def test_tune_refuses_a_state_of_an_unknown_level_or_weight(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    path = tmp_path / "run.json"
    for text, reason in (
        (_state(level="easy"), "gomoku level 'easy' has no evaluation weights"),
        (_state(params=[dict(name="zz", start=1, scale=1, low=0, high=2)]), "'zz' is not a weight"),
    ):
        path.write_text(text)
        status, err = in_process(capsys, "tune", "gomoku", "--state", str(path))
        assert status == 2
        assert_one_line(err, reason)


def test_tune_refuses_a_state_in_a_missing_folder_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    state = tmp_path / "nonexistent" / "s.json"
    status, err = in_process(capsys, "tune", "gomoku", "--state", str(state))
    assert status == 2
    assert_one_line(err, f"cannot write {state}: there is no folder {state.parent}")


@pytest.mark.parametrize("rate", ["-1", "0"])
def test_tune_refuses_a_rate_that_is_not_positive(
    rate: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    state = tmp_path / "s.json"
    status, err = in_process(capsys, "tune", "gomoku", "--state", str(state), f"--rate={rate}")
    assert status == 2
    assert_one_line(err, "the learning rate must be a positive number")
    assert not state.exists()
    with pytest.raises(spsa.TuneError, match="positive number, not nan"):
        spsa.new_state("hard", [spsa.Param("attack.f3", 10.0, 2.0, 0.0, 100.0)], 5, math.nan, 1)


def test_tune_refuses_a_fifo_as_its_state_without_blocking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    status, err = in_process(capsys, "tune", "gomoku", "--state", str(fifo), fifo=fifo)
    assert status == 2
    assert_one_line(err, f"{fifo}: a FIFO (named pipe), not a regular file")


# --- endless files: tune --state, fit --labels, arena --openings --------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tune", "gomoku", "--state"], "abgames tune: /dev/zero: "),
        (["fit", "gomoku", "--labels"], "abgames fit: /dev/zero: "),
        (
            ["arena", "gomoku", "--engine", "level=easy", "--engine", "level=easy", "--openings"],
            "abgames arena: cannot read openings file /dev/zero: ",
        ),
    ],
)
def test_dev_zero_as_an_input_file_is_refused_unread(args: list[str], message: str) -> None:
    result = abgames_on("/dev/null", *args, "/dev/zero")
    assert result.returncode == 2
    assert result.stderr == f"{message}a character device, not a regular file\n"


def test_oversized_lines_in_labels_openings_and_records_are_refused(tmp_path: Path) -> None:
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"moves": "h8", "score": 3}\n' + "x" * (MAX_LABEL_LINE_BYTES + 1) + "\n")
    with pytest.raises(OSError, match=f"line 2 is over {MAX_LABEL_LINE_BYTES:,} bytes"):
        load_labels(labels)
    openings = tmp_path / "openings.txt"
    openings.write_text("0,0, 1,0\n" + "0,0, " * MAX_OPENING_LINE_BYTES + "\n")
    with pytest.raises(
        OpeningError, match=f"openings.txt:2: a line of over {MAX_OPENING_LINE_BYTES:,}"
    ):
        load_offset_openings(openings, {})
    records = tmp_path / "records.jsonl"
    records.write_text("{}\n" + "[" * (MAX_RECORD_LINE_BYTES + 1) + "\n")
    with pytest.raises(OSError, match="line 2 is over"):
        read_records(records)


# --- output files: arena --records, --sgf; tune --records; fit --labels ----------------------
def test_record_and_label_outputs_refuse_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    for opened in (
        lambda: RecordWriter(fifo),
        lambda: RecordWriter(None, fifo, append=True),
        lambda: label_positions(["true"], [], fifo, turn_ms=100),
    ):
        assert isinstance(finishes(opened, fifo), NotRegularFileError)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_saved_policy_is_read_and_written_as_a_regular_file_only(tmp_path: Path) -> None:
    from abgames.envs.policies import TabularPolicy

    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    policy = TabularPolicy("tictactoe", {"x........": 4})
    assert isinstance(finishes(lambda: TabularPolicy.load(fifo), fifo), NotRegularFileError)
    assert isinstance(finishes(lambda: policy.save(fifo), fifo), NotRegularFileError)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    saved = tmp_path / "policy.json"
    policy.save(saved)
    assert TabularPolicy.load(saved).table == policy.table
    saved.write_text('{"kind": "tabular"}')
    with pytest.raises(ValueError, match="is not a saved tabular policy"):
        TabularPolicy.load(saved)


def test_a_bad_sgf_path_leaves_the_records_file_as_it_was(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    records.write_text('{"game": 1}\n')
    with pytest.raises(OSError, match="there is no folder"):
        RecordWriter(records, tmp_path / "missing" / "games.sgf")
    assert records.read_text() == '{"game": 1}\n'
