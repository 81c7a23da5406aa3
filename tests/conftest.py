"""Shared fixtures: where the public reference data lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("ABGAMES_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` beside the repository (where CI lays it); skipped if absent."""
    if not SHARED_DATA.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the shared data folder {SHARED_DATA} is missing")
        pytest.skip(f"the shared data folder {SHARED_DATA} is missing")
    return SHARED_DATA
