"""Calling something that must not block, with a hang guard (not a measure of time)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

#: Seconds a call that must not block gets by default.
HANG_GUARD_S = 20.0


def finishes(
    call: Callable[[], object], fifo: Path | None = None, guard_s: float = HANG_GUARD_S
) -> object:
    """``call()``'s result or exception, failing the test if it blocks.

    If it blocks on ``fifo`` the FIFO is opened at both ends so the call returns.
    """
    outcome: list[object] = []

    def target() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # handed to the test
            outcome.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(guard_s)
    if thread.is_alive():
        if fifo is not None:
            os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))
        pytest.fail(f"blocked for {guard_s} s")
    return outcome[0]
