"""The one policy for what a test needs from the machine and may not find there (the
shared data, Debian's Chromium, Xvfb): the test is skipped, saying what is missing;
under CI (``CI`` set, not to ``0``/``false``/``no``), which provides all of it, it fails.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def in_ci() -> bool:
    """Whether the tests run under CI."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(message: str) -> NoReturn:
    """Skip the test for want of ``message``'s thing, or fail it under CI."""
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)
