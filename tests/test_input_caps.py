"""Endless and oversized input (issue 48, item 5): every reader has a cap on its lines
and files, says so in one line, and holds bounded memory (``solve``, ``tune --state``,
``fit --labels``, ``arena --openings``; the terminal and ``load`` in test_files.py)."""

from __future__ import annotations

import io
import resource
import subprocess
import sys
from pathlib import Path

from abgames.ai.connect4.solver import Solver
from abgames.commands.connect4 import MAX_LINE_CHARS, bounded_lines, solve_stream

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
