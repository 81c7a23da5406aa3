"""Stopping a pool of workers: SIGTERM to the parent alone or to the whole process
group ends ``abgames book connect4`` (both builders) as Ctrl-C does, with nothing
lost and no hang; ``awake`` lets the parent see a signal while no result comes."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import FrameType

import pytest

from abgames.ai.connect4.book_builder import WORK_FILE, _read_work
from abgames.ai.connect4.level_book import DEFAULT_LEVEL_DISCS, load
from abgames.pool_signals import awake

#: Seconds a stopped build gets to end (a hang guard, not a measure).
HANG_GUARD = 60.0
#: Seconds before the other thread takes the signal.
SIGNAL_AFTER = 0.3


#: Seconds the pool's task takes: far longer than ``awake`` needs to see the signal.
TASK_SECONDS = 20.0
#: Set by the pool's task just before it returns (the workers are forked: they share it).
_returned = multiprocessing.get_context("fork").Event()


class Stopped(Exception):
    pass


def _slow_task(name: str) -> str:
    time.sleep(TASK_SECONDS)
    _returned.set()
    return name


def test_a_signal_another_thread_took_reaches_the_parent_waiting_for_nothing() -> None:
    """The kernel may give a process's signal to any thread; ``awake`` wakes the main
    thread to run its handler long before the pool's only result comes (waiting
    for the result alone, the handler would run only then)."""
    handled_after_the_result: list[bool] = []

    def stop(_signal_number: int, _frame: FrameType | None) -> None:
        handled_after_the_result.append(_returned.is_set())
        raise Stopped

    def signal_this_thread_soon() -> None:
        time.sleep(SIGNAL_AFTER)  # the main thread is waiting by then
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)

    _returned.clear()
    previous = signal.signal(signal.SIGUSR1, stop)
    pool = multiprocessing.get_context("fork").Pool(1)
    other = threading.Thread(target=signal_this_thread_soon)
    try:
        results = pool.imap_unordered(_slow_task, ["slow"])
        other.start()
        with pytest.raises(Stopped):
            for _ in awake(results):
                pytest.fail("the task's result came first")
        other.join()
        assert handled_after_the_result == [False]
    finally:
        pool.terminate()
        pool.join()
        signal.signal(signal.SIGUSR1, previous)


def test_awake_passes_every_result_on() -> None:
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert sorted(awake(pool.imap_unordered(abs, range(-20, 0)))) == list(range(1, 21))


def _stop_build(command: list[str], whole_group: bool) -> tuple[int, str]:
    """Start ``abgames`` with ``command``, stop it with SIGTERM once it is solving, and
    return its exit status and stderr."""
    build = subprocess.Popen(
        [sys.executable, "-m", "abgames", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert build.stdout is not None
    build.stdout.readline()  # the build has begun: its pool is being made or solving
    time.sleep(1)
    if whole_group:
        os.killpg(build.pid, signal.SIGTERM)  # the parent and every worker at once
    else:
        build.send_signal(signal.SIGTERM)
    try:
        _, errors = build.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(build.pid, signal.SIGKILL)
        build.communicate()
        pytest.fail(f"abgames {' '.join(command)} did not end on SIGTERM")
    return build.returncode, errors


@pytest.mark.parametrize("whole_group", [False, True], ids=["parent", "process-group"])
def test_sigterm_ends_an_opening_book_build_keeping_its_work(
    tmp_path: Path, whole_group: bool
) -> None:
    work = tmp_path / "work"
    command = ["book", "connect4", "--plies", "8", "--work", str(work)]
    command += ["--output", str(tmp_path / "book.bin"), "--jobs", "2", "--table-bits", "16"]
    status, errors = _stop_build(command, whole_group)
    assert status == 130, errors
    assert f"interrupted; what was solved is kept in {work / WORK_FILE}" in errors
    assert "Traceback" not in errors
    _read_work(work / WORK_FILE)  # readable: the same command resumes from it
    assert not (tmp_path / "book.bin").exists()


@pytest.mark.parametrize("whole_group", [False, True], ids=["parent", "process-group"])
def test_sigterm_ends_a_level_build_writing_what_it_found(
    tmp_path: Path, whole_group: bool
) -> None:
    output = tmp_path / "level.bin"
    command = ["book", "connect4", "--level", "12", "--output", str(output)]
    status, errors = _stop_build([*command, "--table-bits", "16", "--jobs", "2"], whole_group)
    assert status == 130, errors
    assert f"interrupted; every score found is in {output}" in errors
    assert "Traceback" not in errors
    assert load(output).discs == DEFAULT_LEVEL_DISCS
