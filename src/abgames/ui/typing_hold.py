"""Keys typed while the AI thinks: not echoed (they would garble the progress line).

On a terminal, ``held_typing(stream)`` turns the echo off for its duration and,
at the end, discards whatever was typed meanwhile (a move typed before the AI's
reply was shown is rarely the move meant), telling the caller whether anything
was. Ctrl-C still interrupts. Anywhere else (a pipe, a file, Windows) it does
nothing, so scripted input is never lost.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TextIO


@dataclass
class HeldTyping:
    """What ``held_typing`` found when it ended: ``discarded`` if keys had been typed."""

    discarded: bool = False


@contextlib.contextmanager
def held_typing(stream: TextIO) -> Iterator[HeldTyping]:
    """Hold back typing on ``stream`` (a terminal) while the body runs; see the module."""
    held = HeldTyping()
    if sys.platform == "win32":
        yield held
        return
    import fcntl
    import termios

    try:
        descriptor = stream.fileno()
        if not os.isatty(descriptor):
            raise OSError("not a terminal")
        saved = termios.tcgetattr(descriptor)
    except (AttributeError, ValueError, OSError, termios.error):
        yield held
        return
    quiet = list(saved)
    # Not canonical either, so that a half-typed line counts as typed too.
    quiet[3] &= ~(termios.ECHO | termios.ECHONL | termios.ICANON)
    termios.tcsetattr(descriptor, termios.TCSANOW, quiet)
    try:
        yield held
    finally:
        with contextlib.suppress(OSError, termios.error):
            pending = bytearray(4)
            fcntl.ioctl(descriptor, termios.FIONREAD, pending)
            held.discarded = int.from_bytes(pending, sys.byteorder) > 0
            termios.tcflush(descriptor, termios.TCIFLUSH)
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(descriptor, termios.TCSANOW, saved)
