"""Numbers on the command line: the argparse types every ``abgames`` option uses.

``int()`` and ``float()`` read any Unicode digit ("２０", "٤٢") and ``_`` separators,
so ``--size ２０`` started a 20x20 game although the prompts and move notations take
ASCII digits only (``abgames.games.numbers``). These types take an optional sign and
ASCII digits (``real`` also a decimal point and an exponent) and refuse the rest, with
argparse's one-line error naming the option. ``real`` refuses ``nan`` and infinities.
"""

from __future__ import annotations

import argparse
import math
import re

from abgames.games.numbers import clip

#: More digits than any option needs (``int()`` itself refuses over 4300).
MAX_DIGITS = 100

_INTEGER = re.compile(r"[+-]?[0-9]+")
_REAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def integer(text: str) -> int:
    """An argparse type: a whole number in ASCII digits, with an optional sign."""
    stripped = text.strip()
    if not _INTEGER.fullmatch(stripped):
        raise argparse.ArgumentTypeError(
            f"must be a whole number in ASCII digits (0-9), not {clip(text)!r}"
        )
    if len(stripped) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{clip(text)!r} has too many digits")
    return int(stripped)


def real(text: str) -> float:
    """An argparse type: a finite decimal number in ASCII (``0.5``, ``-2``, ``1e-3``)."""
    stripped = text.strip()
    if len(stripped) > MAX_DIGITS or not _REAL.fullmatch(stripped):
        raise argparse.ArgumentTypeError(
            f"must be a number in ASCII digits (0-9, like 0.5 or 1e-3), not {clip(text)!r}"
        )
    value = float(stripped)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{clip(text)!r} is too large")
    return value
