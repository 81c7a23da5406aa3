"""The brain as a process, as managers run it: pipes, timing, self-play, termination."""

from __future__ import annotations

import os
import re
import resource
import select
import subprocess
import sys
import time

import pytest

from abgames.arena.engines import parse_engine_spec
from abgames.arena.judge import FULL_BOARD, LINE_REASONS, GameTask, play_game
from abgames.protocols.client import EngineCrashed, EngineProcess, GomocupClient
from abgames.protocols.gomocup import MAX_LINE_BYTES

BRAIN = [sys.executable, "-m", "abgames.commands.pbrain"]
MOVE = re.compile(r"^\d+,\d+$")
#: Generous bound for a process to notice END or the end of its input.
EXIT_SECONDS = 5.0


def replies(process: EngineProcess, count: int, timeout: float = 30.0) -> list[str]:
    return [process.read_line(timeout) for _ in range(count)]


def test_conversation_over_pipes_never_shows_a_traceback() -> None:
    process = EngineProcess([*BRAIN, "--level", "easy"])
    try:
        for line in (
            "START 10",
            "ABOUT",
            "FROB",
            "TURN x,y",
            "TURN 99,99",
            "INFO rule 77",
            "BOARD",
            "1,1,1",
            "ABOUT",
            "TAKEBACK 3,3",
        ):
            process.send(line)
        answers = replies(process, 9)
        assert answers[0] == "OK"
        assert answers[1].startswith('name="abgames"')
        assert answers[2].startswith("UNKNOWN")
        assert all(a.startswith("ERROR") for a in answers[3:6]), answers
        assert answers[6].startswith("ERROR BOARD ended without DONE")
        assert answers[7].startswith('name="abgames"')
        assert answers[8].startswith("ERROR")
        assert not any("Traceback" in a for a in answers)
        process.send("END")
        with pytest.raises(EngineCrashed):
            process.read_line(EXIT_SECONDS)
    finally:
        process.kill()


def test_end_of_input_ends_the_brain_promptly() -> None:
    process = EngineProcess([*BRAIN, "--level", "easy"])
    try:
        process.send("START 15")
        assert process.read_line(30.0) == "OK"
        process.send("INFO timeout_turn 5000")
        process._process.stdin.close()  # type: ignore[union-attr]
        started = time.perf_counter()
        with pytest.raises(EngineCrashed):
            process.read_line(EXIT_SECONDS)
        assert time.perf_counter() - started < EXIT_SECONDS
    finally:
        process.kill()


def test_turn_limit_is_honoured_as_the_manager_measures_it() -> None:
    """The default (strongest) level, cold: every answer within a 300 ms turn."""
    client = GomocupClient(BRAIN)
    try:
        client.start(15)
        client.info("timeout_turn", 300)
        client.info("timeout_match", 0)
        points = [(7, 7), (3, 3), (11, 4), (2, 12), (12, 12)]
        for x, y in points:
            started = time.perf_counter()
            answer = client.turn(x, y, timeout_seconds=5.0)
            elapsed = time.perf_counter() - started
            assert elapsed < 0.3, f"{elapsed:.3f}s for a 300 ms turn"
            assert answer not in points
    finally:
        client.end()


def test_a_whole_game_against_itself_through_two_processes() -> None:
    command = f"{sys.executable} -m abgames.commands.pbrain --level easy"
    first, second = (
        parse_engine_spec(f"cmd={command},name={name}", game="gomoku", turn_ms=2000)
        for name in ("first", "second")
    )
    record = play_game(GameTask(0, "gomoku", {"size": 9}, (first, second), tolerance_ms=1000))
    assert record.reason in (LINE_REASONS["gomoku"], FULL_BOARD), record
    assert len(record.moves.split()) >= 9


def test_bytes_that_are_not_utf8_are_answered_under_a_strict_locale() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    done = subprocess.run(
        [*BRAIN, "--level", "easy"],
        input=b"\xff\nSTART 15\nSTART \xd9\xa1\xd9\xa5\nEND\n",
        capture_output=True,
        env=env,
        timeout=60,
    )
    lines = done.stdout.decode("ascii").splitlines()
    assert done.returncode == 0, done.stderr
    assert lines[0].startswith("ERROR the line is not UTF-8 text")
    assert lines[1] == "OK"
    assert lines[2].startswith("ERROR START size: '\\u0661\\u0665' is not a whole number")
    assert b"Traceback" not in done.stderr


def test_a_closed_stdout_ends_the_brain_quietly() -> None:
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", *BRAIN, "--level", "easy"],
        input=b"START 15\nINFO timeout_turn 300\nBEGIN\nABOUT\n",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()[-2000:]


def test_endless_input_without_a_newline_is_answered_and_holds_no_memory() -> None:
    """``pbrain < /dev/zero``: one ERROR, then reading on with memory that does not grow."""

    def cap_memory() -> None:  # a runaway brain fails here instead of filling the machine
        limit = 2 * 1024**3
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    with open("/dev/zero", "rb") as zeros:
        process = subprocess.Popen(
            [*BRAIN, "--level", "easy"],
            stdin=zeros,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=cap_memory,
        )
    try:
        assert process.stdout is not None and process.stderr is not None
        ready, _, _ = select.select([process.stdout], [], [], 60.0)
        assert ready, "no answer within 60 s"
        first = process.stdout.readline().decode("ascii")
        assert first.startswith(f"ERROR the line is longer than {MAX_LINE_BYTES:,} bytes"), first
        sizes = []
        for _ in range(3):
            time.sleep(0.5)
            assert process.poll() is None, process.stderr.read().decode()[-2000:]
            sizes.append(resident_kb(process.pid))
        assert sizes[-1] - sizes[0] < 20_000, sizes  # kB: it reads on, holding nothing
    finally:
        process.kill()
        process.wait()


def resident_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for process {pid}")
