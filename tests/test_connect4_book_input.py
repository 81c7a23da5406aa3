"""``abgames book connect4`` under odd input (issue 48, items 1, 2, 6 and 12): every
refusal is one line on stderr and exit status 2, before any solving, losing nothing."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from abgames.ai.connect4.book import MAGIC, Book, load, save
from abgames.ai.connect4.book_builder import WORK_FILE, BuildError, build
from abgames.ai.connect4.position import Position, canonical_key
from abgames.cli import main

#: Seconds a command that must not block gets (a hang guard, not a measure).
HANG_GUARD = 60.0
#: A drawn game that fills the board, and a won one (the last move makes four).
FULL_BOARD = "667461761176361457517574413235434533522222"
WON = "1212121"
#: 30 discs: the rest of the game solves in a moment.
LATE_ROOT = FULL_BOARD[:30]


def book_command(
    capsys: pytest.CaptureFixture[str], *args: str, fifo: Path | None = None
) -> tuple[int, str]:
    """``abgames book connect4 ARGS`` in this process: its status and stderr (its stdout
    stays in ``capsys``)."""
    status: list[int] = []
    thread = threading.Thread(
        target=lambda: status.append(main(["book", "connect4", "--table-bits", "16", *args])),
        daemon=True,
    )
    thread.start()
    thread.join(HANG_GUARD)
    if thread.is_alive():
        if fifo is not None:  # let the blocked open return
            os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))
        pytest.fail(f"abgames book {' '.join(args)} blocked for {HANG_GUARD} s")
    captured = capsys.readouterr()
    print(captured.out, end="")
    return status[0], captured.err


def assert_one_line(err: str, *parts: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for part in parts:
        assert part in err, err


def test_a_fifo_as_the_output_is_refused_without_blocking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    work = str(tmp_path / "W")
    status, err = book_command(capsys, "--write-only", "--work", work, "--output", str(fifo))
    assert status == 2
    assert_one_line(err, f"{fifo}: a FIFO (named pipe), not a regular file")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_fifo_as_the_work_file_is_refused_without_blocking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "W"
    work.mkdir()
    os.mkfifo(work / WORK_FILE)
    output = str(tmp_path / "b.bin")
    status, err = book_command(
        capsys, "--write-only", "--work", str(work), "--output", output, fifo=work / WORK_FILE
    )
    assert status == 2
    assert_one_line(err, "a FIFO (named pipe), not a regular file")
    assert not os.path.exists(output)


def test_a_file_that_is_not_a_book_is_not_written_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "somefile"
    other.write_text("hello\n")
    work = str(tmp_path / "W")
    status, err = book_command(capsys, "--write-only", "--work", work, "--output", str(other))
    assert status == 2
    assert_one_line(err, f"{other} is not a Connect Four book")
    assert other.read_text() == "hello\n"
    with pytest.raises(BuildError, match="not a Connect Four book"):
        build(plies=1, work_dir=tmp_path / "W", output=other, write_only=True)


def test_a_book_of_ours_is_carried_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ours = tmp_path / "book.bin"
    save(Book.from_scores({5: 1}, max_moves=3), ours)
    assert ours.read_bytes().startswith(MAGIC)
    work = str(tmp_path / "W")
    status, _ = book_command(capsys, "--write-only", "--work", work, "--output", str(ours))
    assert status == 0
    assert load(ours).get(5) == 1


@pytest.mark.parametrize(
    ("root", "reason"), [(WON, "is a won game"), (FULL_BOARD, "fills the board")]
)
def test_a_finished_root_is_one_line(
    root: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work, output = tmp_path / "W", tmp_path / "b.bin"
    args = ("--plies", "2", "--root", root, "--work", str(work), "--output", str(output))
    status, err = book_command(capsys, *args)
    assert status == 2
    assert_one_line(err, f"the root {root!r} {reason}")
    assert not output.exists()


def test_a_huge_plies_stops_at_the_last_ply_the_board_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work, output = tmp_path / "W", tmp_path / "b.bin"
    args = ("--root", LATE_ROOT, "--work", str(work), "--output", str(output))
    status, _ = book_command(capsys, "--plies", "99999999999999999999", *args)
    assert status == 0
    logged = capsys.readouterr().out
    assert "ply 41: done" in logged and "ply 42" not in logged
    assert f"-> {output}" in logged
    book = load(output)
    assert len(book) > 0 and book.max_moves <= 42
    # The same book as with just enough plies to reach the end.
    again = tmp_path / "again.bin"
    build(root=LATE_ROOT, plies=12, work_dir=tmp_path / "W2", output=again, table_bits=16)
    assert load(again).keys.tolist() == book.keys.tolist()


def test_a_work_folder_that_is_not_a_folder_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = str(tmp_path / "b.bin")
    status, err = book_command(capsys, "--write-only", "--work", "/dev/null", "--output", output)
    assert status == 2
    assert_one_line(err, "the work folder /dev/null is a character device, not a folder")
    plain = tmp_path / "plain"
    plain.write_text("kept")
    status, err = book_command(capsys, "--write-only", "--work", str(plain), "--output", output)
    assert status == 2
    assert_one_line(err, f"the work folder {plain} is a regular file, not a folder")
    assert plain.read_text() == "kept"


def test_an_output_in_a_missing_folder_is_refused_before_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "W"
    output = tmp_path / "nonexistent" / "x.bin"
    args = ("--plies", "2", "--root", LATE_ROOT, "--work", str(work), "--output", str(output))
    status, err = book_command(capsys, *args)
    assert status == 2
    assert_one_line(err, f"{output}: there is no folder {output.parent}")
    assert not work.exists()  # nothing was solved, no folder left behind


def test_the_output_may_go_into_the_work_folder_it_creates(tmp_path: Path) -> None:
    work = tmp_path / "new" / "W"
    build(root=LATE_ROOT, plies=1, work_dir=work, output=work / "b.bin", table_bits=16)
    assert len(load(work / "b.bin")) > 0


@pytest.mark.parametrize("jobs", ["0", "-1"])
def test_jobs_below_one_are_refused(
    jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "W"
    args = ("--jobs", jobs, "--root", LATE_ROOT, "--work", str(work))
    status, err = book_command(capsys, *args, "--output", str(tmp_path / "b.bin"))
    assert status == 2
    assert_one_line(err, "--jobs must be at least 1")
    assert not work.exists()


def test_the_strategy_builder_refuses_a_fifo_as_its_work_file(tmp_path: Path) -> None:
    from abgames.ai.connect4 import strategy_builder
    from abgames.files import NotRegularFileError

    work = tmp_path / "W"
    work.mkdir()
    fifo = work / strategy_builder.WORK_FILE
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def target() -> None:
        try:
            strategy_builder.build_strategy(plies=1, work_dir=work, output=tmp_path / "s.bin")
        except BaseException as error:  # handed to the test
            outcome.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(HANG_GUARD)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))
        pytest.fail("the strategy builder blocked on a FIFO")
    assert outcome and isinstance(outcome[0], NotRegularFileError)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_every_past_its_depth_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work, output = tmp_path / "W", tmp_path / "b.bin"
    args = ("--every", "--plies", "13", "--work", str(work), "--output", str(output))
    status, err = book_command(capsys, *args)
    assert status == 2
    assert_one_line(err, "--every builds at most 12 plies beyond the root")
    assert not output.exists()


def test_every_from_a_late_root_builds_the_whole_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work, output = tmp_path / "W", tmp_path / "b.bin"
    args = ("--every", "--plies", "2", "--root", LATE_ROOT, "--work", str(work))
    status, _ = book_command(capsys, *args, "--output", str(output))
    assert status == 0
    logged = capsys.readouterr().out
    assert f"ply {len(LATE_ROOT) + 2}:" in logged and "scored from their children" in logged
    book = load(output)
    assert book.max_moves == len(LATE_ROOT) + 2
    assert book.get(canonical_key(Position.parse(LATE_ROOT).key)) is not None
