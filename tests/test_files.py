"""abgames.files: regular files only, bounded reads, atomic writes; and its users in
``Match.save``/``load`` and the terminal (issue 48, items 1 and 5)."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest

from abgames import files
from abgames.files import (
    EndlessLineError,
    FileRefusedError,
    FileTooLargeError,
    NotRegularFileError,
    check_output,
    open_output,
    read_bytes,
    read_line,
    read_lines,
    write_atomically,
)
from abgames.games import TicTacToe
from abgames.match import HUMAN, Match, SaveFileError, seats_for
from abgames.ui.terminal import run_game
from blocking import finishes


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "f"
    os.mkfifo(path)
    return path


def _is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.stat(path).st_mode)


# --- Match.save / Match.load -------------------------------------------------------------
def test_save_onto_a_fifo_is_refused_and_leaves_it_a_fifo(fifo: Path) -> None:
    match = Match(TicTacToe(), seats_for("human-human", HUMAN, "hard"))
    with pytest.raises(
        SaveFileError, match=r"cannot save to .*f: a FIFO \(named pipe\), not a regular file"
    ):
        match.save(fifo)
    assert _is_fifo(fifo)
    assert sorted(p.name for p in fifo.parent.iterdir()) == ["f"]


def test_save_onto_a_folder_or_a_device_is_refused(tmp_path: Path) -> None:
    match = Match(TicTacToe(), seats_for("human-human", HUMAN, "hard"))
    with pytest.raises(SaveFileError, match="a directory, not a regular file"):
        match.save(tmp_path)
    # check_output is what save consults first; /dev/null is never written here.
    with pytest.raises(NotRegularFileError, match="a character device, not a regular file"):
        check_output("/dev/null")


def test_load_from_a_fifo_is_refused_without_blocking(fifo: Path) -> None:
    outcome = finishes(lambda: Match.load(fifo), fifo)
    assert isinstance(outcome, SaveFileError)
    assert "a FIFO (named pipe), not a regular file" in str(outcome)
    assert _is_fifo(fifo)


def test_load_from_a_device_is_refused_unread() -> None:
    outcome = finishes(lambda: Match.load("/dev/zero"))
    assert isinstance(outcome, SaveFileError)
    assert "a character device, not a regular file" in str(outcome)


def test_the_terminal_says_why_a_fifo_is_neither_saved_nor_loaded(fifo: Path) -> None:
    match = Match(TicTacToe(), seats_for("human-human", HUMAN, "hard"))
    out = io.StringIO()
    commands = io.StringIO(f"save {fifo}\nload {fifo}\nquit\n")
    finishes(lambda: run_game(match, commands, out), fifo)
    text = out.getvalue()
    assert f"cannot save to {fifo}: a FIFO (named pipe), not a regular file." in text
    assert f"cannot read {fifo}: a FIFO (named pipe), not a regular file" in text
    assert _is_fifo(fifo)


# --- reading -------------------------------------------------------------------------------
def test_read_bytes_caps_the_size_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 101)
    assert read_bytes(path, 101) == b"x" * 101
    with pytest.raises(FileTooLargeError, match="over 100 bytes"):
        read_bytes(path, 100)


def test_read_lines_caps_each_line_and_the_whole(tmp_path: Path) -> None:
    path = tmp_path / "lines"
    path.write_bytes(b"ab\n" + b"c" * 10 + b"\nd\n")
    reader = read_lines(path, limit=1000, line_limit=5)
    assert next(reader) == b"ab\n"
    with pytest.raises(FileTooLargeError, match="line 2 is over 5 bytes"):
        next(reader)
    with pytest.raises(FileTooLargeError, match="over 10 bytes"):
        list(read_lines(path, limit=10, line_limit=50))
    assert list(read_lines(path, limit=100, line_limit=11)) == [b"ab\n", b"c" * 10 + b"\n", b"d\n"]


def test_readers_refuse_fifos_and_devices(fifo: Path) -> None:
    for path in (fifo, Path("/dev/zero")):

        def whole(path: Path = path) -> bytes:
            return read_bytes(path, 10)

        def lines(path: Path = path) -> list[bytes]:
            return list(read_lines(path, limit=10, line_limit=5))

        assert isinstance(finishes(whole, fifo), NotRegularFileError)
        assert isinstance(finishes(lines, fifo), NotRegularFileError)


def test_read_line_cuts_long_lines_and_goes_on() -> None:
    text = "abc\n" + "x" * 50 + "\nlast"
    expected = [("abc\n", False), ("x" * 11, True), ("last", False), ("", False)]
    stream = io.StringIO(text)
    assert [read_line(stream, 10) for _ in range(4)] == expected
    binary = io.BytesIO(text.encode())
    assert [read_line(binary, 10) for _ in range(4)] == [(t.encode(), c) for t, c in expected]


def test_read_line_stops_an_endless_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_DISCARD_CHARS", 200_000)
    with open("/dev/zero", "rb") as zeros, pytest.raises(EndlessLineError):
        read_line(zeros, 1000)


def test_the_terminal_skips_a_long_line_and_ends_an_endless_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    match = Match(TicTacToe(), seats_for("human-human", HUMAN, "hard"))
    out = io.StringIO()
    run_game(match, io.StringIO("x" * 1_200_000 + "\nb2\nquit\n"), out)
    assert "Input line 1 is longer than 1,000,000 characters; it was skipped." in out.getvalue()
    assert match.state.moves == [4]
    monkeypatch.setattr(files, "MAX_DISCARD_CHARS", 200_000)
    out = io.StringIO()
    with open("/dev/zero", encoding="utf-8") as zeros:
        finishes(lambda: run_game(match, zeros, out))
    assert "Input line 1 has no end" in out.getvalue()


# --- writing -------------------------------------------------------------------------------
def test_check_output_takes_regular_files_and_new_names_only(tmp_path: Path) -> None:
    (tmp_path / "old").write_text("kept")
    check_output(tmp_path / "old")
    check_output(tmp_path / "new")
    with pytest.raises(FileRefusedError, match="there is no folder"):
        check_output(tmp_path / "no" / "new")
    with pytest.raises(FileRefusedError, match="a folder in that path is a file"):
        check_output(tmp_path / "old" / "new")
    assert (tmp_path / "old").read_text() == "kept"


def test_open_output_refuses_a_fifo_without_blocking(fifo: Path, tmp_path: Path) -> None:
    for append in (False, True):

        def opened(append: bool = append) -> object:
            return open_output(fifo, append=append)

        assert isinstance(finishes(opened, fifo), NotRegularFileError)
    with open_output(tmp_path / "log", append=True) as out:
        out.write(b"one\n")
    with open_output(tmp_path / "log", append=True) as out:
        out.write(b"two\n")
    assert (tmp_path / "log").read_bytes() == b"one\ntwo\n"
    with open_output(tmp_path / "log", append=False) as out:
        out.write(b"new\n")
    assert (tmp_path / "log").read_bytes() == b"new\n"


def test_write_atomically_refuses_a_fifo_and_a_missing_folder(fifo: Path, tmp_path: Path) -> None:
    with pytest.raises(NotRegularFileError):
        write_atomically(fifo, b"data")
    assert _is_fifo(fifo)
    with pytest.raises(FileRefusedError, match="there is no folder"):
        write_atomically(tmp_path / "missing" / "x.json", b"data")
    assert not (tmp_path / "missing").exists()


def test_read_bytes_sets_aside_what_the_file_holds_not_its_cap(tmp_path: Path) -> None:
    path = tmp_path / "small"
    path.write_bytes(b"abc")
    assert read_bytes(path, 1 << 50) == b"abc"  # read(cap) would ask for a petabyte


def test_a_name_holding_a_nul_is_refused_in_one_line(tmp_path: Path) -> None:
    match = Match(TicTacToe(), seats_for("human-human", HUMAN, "hard"))
    with pytest.raises(SaveFileError, match="cannot hold a NUL character"):
        match.save(tmp_path / "a\0b")
    with pytest.raises(SaveFileError):
        Match.load(tmp_path / "a\0b")
    out = io.StringIO()
    run_game(match, io.StringIO("save a\0b\nquit\n"), out)
    assert "a file name cannot hold a NUL character." in out.getvalue()
    assert list(tmp_path.iterdir()) == []
