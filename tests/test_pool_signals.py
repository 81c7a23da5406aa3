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

from abgames import pool_signals
from abgames.ai.connect4.book_builder import WORK_FILE, _read_work
from abgames.ai.connect4.level_book import DEFAULT_LEVEL_DISCS, load
from abgames.pool_signals import (
    PARENT_STOPS,
    awake,
    become_pool_worker,
    stop_must_wait,
    stop_pool,
    worker_pool,
)

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
    # 16 plies, past the level book's 12 discs: still solving when the stop comes (to 8
    # plies the complete level makes the whole build take about a second).
    command = ["book", "connect4", "--plies", "16", "--work", str(work)]
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


def _stop_checks(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """A fresh worker's stop state, its retry timer replaced by a record of its checks."""
    checks: list[float] = []
    monkeypatch.setattr(pool_signals, "_stop_signal", None)
    monkeypatch.setattr(pool_signals, "_check_again_soon", lambda: checks.append(time.time()))
    return checks


def test_a_stop_right_after_a_pool_lock_is_taken_leaves_it_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SIGTERM handled just after the C acquire, still inside the lock's Python
    ``__enter__`` (the race that left a pool's task lock taken by a dead worker and
    hung the build): the handler does not raise there, the ``with`` block runs and
    releases the lock, and the stop stays pending for the next check."""
    checks = _stop_checks(monkeypatch)
    lock = multiprocessing.get_context("fork").Lock()

    def signal_after_the_acquire(frame: FrameType, event: str, arg: object) -> None:
        if event == "c_return" and frame.f_code.co_name == "__enter__":
            sys.setprofile(None)
            pool_signals._stop(signal.SIGTERM, frame)

    sys.setprofile(signal_after_the_acquire)
    try:
        with lock:
            pass
    finally:
        sys.setprofile(None)
    assert lock.acquire(block=False), "the stop stranded the lock"
    lock.release()
    assert len(checks) == 1  # the stop waits for its next check


def test_a_stop_in_the_tasks_code_raises_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    checks = _stop_checks(monkeypatch)
    with pytest.raises(SystemExit) as stopped:
        pool_signals._stop(signal.SIGTERM, sys._getframe())
    assert stopped.value.code == 128 + signal.SIGTERM
    assert len(checks) == 1  # checked again: a dropped exception is raised again


def test_a_stop_waits_inside_a_held_lock_and_a_pipe_write_only() -> None:
    lock = multiprocessing.get_context("fork").Lock()
    seen: dict[str, bool] = {}

    def look(frame: FrameType, event: str, arg: object) -> None:
        name = frame.f_code.co_name
        if event == "c_call" and name in ("__enter__", "__exit__", "_send", "_recv"):
            held = lock._semlock._is_mine()  # type: ignore[attr-defined]
            seen.setdefault(f"{name} {held}", stop_must_wait(frame))

    reader, writer = multiprocessing.get_context("fork").Pipe(duplex=False)
    sys.setprofile(look)
    try:
        with lock:
            writer.send("result")
            reader.recv()
    finally:
        sys.setprofile(None)
    assert seen == {
        "__enter__ False": False,  # before the acquire: nothing is held yet
        "__exit__ True": True,  # before the release: the lock is held
        "_send True": True,  # a message half written
        "_recv True": False,  # the with block releases the lock as the exception passes
    }
    assert stop_must_wait(None)
    assert not stop_must_wait(sys._getframe())


def _blocked_signals() -> set[int]:
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, []))


def _thread_blocks(native_id: int) -> set[int]:
    """The signals a thread of this process blocks, from ``/proc``."""
    status = Path(f"/proc/self/task/{native_id}/status").read_text(encoding="ascii")
    mask = int(
        next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16
    )
    return {number for number in range(1, 65) if mask >> (number - 1) & 1}


def test_the_pools_threads_leave_stops_to_the_main_thread_and_workers_take_them() -> None:
    """In the parent, every thread the pool makes blocks SIGINT and SIGTERM (the kernel
    gives them to the main thread, which a wait in ``Pool.join`` cannot then miss);
    the main thread's mask is as before; a worker unblocks them for its handler."""
    main_before = _blocked_signals()
    before = {thread.native_id for thread in threading.enumerate()}
    pool = worker_pool(1, become_pool_worker, ())
    try:
        threads = [t for t in threading.enumerate() if t.native_id not in before]
        assert threads, "the pool made no thread"
        for thread in threads:
            assert thread.native_id is not None
            assert set(PARENT_STOPS) <= _thread_blocks(thread.native_id), thread.name
        assert _blocked_signals() == main_before
        in_worker = pool.apply(_blocked_signals)
        assert not in_worker & (set(PARENT_STOPS) | {signal.SIGALRM})
    finally:
        pool.terminate()
        pool.join()


#: Set by the deaf worker's task once it runs (its SIGTERM is ignored by then).
_deaf_task_started = multiprocessing.get_context("fork").Event()


def _ignore_sigterm() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _start_a_long_task() -> None:
    _deaf_task_started.set()
    time.sleep(TASK_SECONDS)


def test_stop_pool_kills_a_worker_that_outlives_its_sigterm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Pool.terminate()`` alone would wait for this worker (busy, deaf to SIGTERM)
    forever; ``stop_pool`` kills it and returns."""
    monkeypatch.setattr(pool_signals, "KILL_AFTER_SECONDS", 0.1)
    before = set(multiprocessing.active_children())
    pool = multiprocessing.get_context("fork").Pool(1, _ignore_sigterm)
    _deaf_task_started.clear()
    pool.apply_async(_start_a_long_task)
    [worker] = set(multiprocessing.active_children()) - before
    assert _deaf_task_started.wait(HANG_GUARD)
    stopping = threading.Thread(target=stop_pool, args=(pool,), daemon=True)
    stopping.start()
    stopping.join(HANG_GUARD)
    assert not stopping.is_alive(), "stop_pool waited for the worker"
    worker.join(HANG_GUARD)
    assert worker.exitcode == -signal.SIGKILL, worker.exitcode
