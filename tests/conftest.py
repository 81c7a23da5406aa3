"""Shared fixtures and helpers: where the public reference data lives, the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from skips import missing

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("ABGAMES_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))
#: The Gomocup test brain (random moves, and ways to misbehave: see its docstring).
RANDOM_BRAIN = Path(__file__).parent / "engines" / "random_brain.py"
#: A Renju game of ``hard`` against Rapfi (2026-12-02): white's j11 makes a four whose
#: only block, j10, is a double three for black, so black has lost. ``hard`` used to
#: answer j10 (forfeited as a forbidden move; the apps raised on it).
UNBLOCKABLE_FOUR = "h8 h9 h7 j8 g8 i6 e8 i8 f8 d8 i7 j7 k6 j9 j6 g9 k9 k8 l4 k5 h5 f9 i9 m8 l8 j11"


def require_shared_data() -> Path:
    """``SHARED_DATA``, or the one policy for its absence (``skips.missing``): the test
    is skipped, and fails under CI (where the data must be laid out)."""
    if not SHARED_DATA.is_dir():
        missing(f"the shared data folder {SHARED_DATA} is missing")
    return SHARED_DATA


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` beside the repository (where CI lays it): ``require_shared_data``."""
    return require_shared_data()


#: For a test that reads the shared data through its own paths (``SHARED_DATA / ...``).
needs_shared_data = pytest.mark.usefixtures("shared_data")


def shared_json_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of a shared-data file, read at collection to parametrize a test
    (which must be ``needs_shared_data``). Without the data folder: one empty
    placeholder, so that the test is skipped (failed under CI) by the one policy
    instead of vanishing as an empty parameter set. A file missing from a folder that
    is there is an error."""
    if not SHARED_DATA.is_dir():
        return [{}]
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def abgames(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m abgames ARGS`` in ``cwd``, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "abgames", *args], capture_output=True, text=True, cwd=cwd
    )
