"""The manager side of the Gomocup protocol: run an external brain and talk to it.

``EngineProcess`` starts a command with pipes; a reader thread moves its output
lines into a queue so that every wait has a timeout. ``GomocupClient`` speaks the
protocol over it: ``start``, ``info``, ``board`` / ``turn`` / ``begin`` (each
returning the brain's move as ``(x, y)``), ``end``. ``MESSAGE``, ``DEBUG`` and
blank lines are collected, never taken for answers.

Failures are exceptions naming what went wrong, so a judge can say why a game
ended: ``EngineCrashed`` (the process died or closed its output),
``EngineTimeout`` (no answer in time; the process is killed), ``EngineRefused``
(it answered ``ERROR`` or ``UNKNOWN``) and ``EngineGarbage`` (an answer that is
not a move).

A brain runs in a process group of its own (a new session), and killing it ends
the whole group: a brain started by a script, or one that leaves a child behind,
holds no pipe open after its end (the reader would wait for that child).
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import subprocess
import threading
import time
from collections.abc import Sequence

#: How long a brain may take to answer START (loading, compiling), in seconds.
START_TIMEOUT_SECONDS = 30.0
#: How long END waits for the process to exit before killing it.
END_GRACE_SECONDS = 1.0
#: Informational lines a brain may write at any time.
CHATTER_PREFIXES = ("MESSAGE", "DEBUG")
_MOVE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


class EngineError(Exception):
    """An external engine failed; the message says how (for the game record)."""


class EngineCrashed(EngineError):
    pass


class EngineTimeout(EngineError):
    pass


class EngineRefused(EngineError):
    pass


class EngineGarbage(EngineError):
    pass


class EngineProcess:
    """A child process whose stdout lines can be awaited with a timeout."""

    def __init__(self, command: Sequence[str], *, cwd: str | None = None) -> None:
        if not command:
            raise ValueError("an engine command cannot be empty")
        self.command = list(command)
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=cwd,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                start_new_session=True,  # its own process group, ended as a whole
            )
        except OSError as error:
            raise EngineCrashed(f"cannot start {self.command[0]}: {error}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name="engine-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        stream = self._process.stdout
        assert stream is not None
        try:
            for line in stream:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(None)

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def send(self, line: str) -> None:
        """Write one line; ``EngineCrashed`` if the process no longer reads."""
        stream = self._process.stdin
        assert stream is not None
        try:
            stream.write(line + "\n")
            stream.flush()
        except (OSError, ValueError):
            raise EngineCrashed(self._death("stopped reading its input")) from None

    def read_line(self, timeout_seconds: float) -> str:
        """The next output line; ``EngineTimeout`` or ``EngineCrashed`` instead."""
        try:
            line = self._lines.get(timeout=max(0.0, timeout_seconds))
        except queue.Empty:
            raise EngineTimeout(f"no answer within {timeout_seconds:.3f}s") from None
        if line is None:
            self._lines.put(None)  # stay closed for later reads
            raise EngineCrashed(self._death("closed its output"))
        return line

    def _death(self, what: str) -> str:
        try:
            code = self._process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return f"the engine {what}"
        return f"the engine {what} (exit status {code})"

    def kill(self) -> None:
        """End the process and every process of its group (children it left behind)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)  # the group has the leader's id
        if self.alive:
            self._process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=END_GRACE_SECONDS)
        # The output closes once the group is gone; closing it while the reader still
        # reads would wait for that read (a child outside the group may hold the pipe).
        self._reader.join(timeout=END_GRACE_SECONDS)
        streams = [self._process.stdin]
        if not self._reader.is_alive():
            streams.append(self._process.stdout)
        for stream in streams:
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self, goodbye: str | None = None) -> None:
        """Send ``goodbye`` (if alive), give the process a moment to exit, then kill it."""
        if goodbye is not None and self.alive:
            try:
                self.send(goodbye)
                self._process.wait(timeout=END_GRACE_SECONDS)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()


class GomocupClient:
    """One external brain: its process and the protocol conversation with it."""

    def __init__(self, command: Sequence[str], *, cwd: str | None = None) -> None:
        self.process = EngineProcess(command, cwd=cwd)
        self.chatter: list[str] = []

    def _answer(self, timeout_seconds: float) -> str:
        """The next line that is not MESSAGE/DEBUG chatter."""
        deadline = time.perf_counter() + timeout_seconds
        while True:
            line = self.process.read_line(deadline - time.perf_counter()).strip()
            if not line:
                continue
            if line.upper().startswith(CHATTER_PREFIXES):
                self.chatter.append(line)
                continue
            return line

    def _expect_ok(self, command: str, timeout_seconds: float) -> None:
        self.process.send(command)
        answer = self._answer(timeout_seconds)
        if answer.upper() != "OK":
            raise EngineRefused(f"{command}: the engine answered {answer!r}")

    def start(self, size: int, timeout_seconds: float = START_TIMEOUT_SECONDS) -> None:
        """``START size``; ``EngineRefused`` unless the brain answers ``OK``."""
        self._expect_ok(f"START {size}", timeout_seconds)

    def info(self, key: str, value: object) -> None:
        self.process.send(f"INFO {key} {value}")

    def begin(self, timeout_seconds: float) -> tuple[int, int]:
        self.process.send("BEGIN")
        return self._move(timeout_seconds)

    def turn(self, x: int, y: int, timeout_seconds: float) -> tuple[int, int]:
        self.process.send(f"TURN {x},{y}")
        return self._move(timeout_seconds)

    def board(
        self, stones: Sequence[tuple[int, int, int]], timeout_seconds: float
    ) -> tuple[int, int]:
        """``BOARD`` with ``(x, y, field)`` stones in move order, then ``DONE``: the reply."""
        self.process.send("BOARD")
        for x, y, field in stones:
            self.process.send(f"{x},{y},{field}")
        self.process.send("DONE")
        return self._move(timeout_seconds)

    def about(self, timeout_seconds: float = START_TIMEOUT_SECONDS) -> str:
        self.process.send("ABOUT")
        return self._answer(timeout_seconds)

    def _move(self, timeout_seconds: float) -> tuple[int, int]:
        answer = self._answer(timeout_seconds)
        match = _MOVE.match(answer)
        if match:
            return int(match.group(1)), int(match.group(2))
        word = answer.split()[0].upper()
        if word in ("ERROR", "UNKNOWN"):
            raise EngineRefused(f"the engine answered {answer[:80]!r}")
        raise EngineGarbage(f"the engine answered {answer[:80]!r}, not a move")

    def end(self) -> None:
        """``END`` and make sure the process is gone."""
        self.process.close("END")

    def kill(self) -> None:
        self.process.kill()
