"""Numbers and echoed text in move notation: the one place that decides what a digit is.

A move may use ASCII digits ``0-9`` only, in every game and notation and at every
prompt: ``str.isdigit()`` also accepts "²" and "٤", which ``int()`` then refuses or
reads, so notations that relied on it disagreed with each other. Numbers too long
to be any coordinate are not converted (``int()`` refuses over 4300 digits); they
come back as ``TOO_LARGE``, which every range check refuses.
"""

from __future__ import annotations

#: The digits a move or a menu answer may use.
ASCII_DIGITS = frozenset("0123456789")
#: More significant digits than any board coordinate or menu choice can have.
MAX_DIGITS = 9
#: What ``ascii_number`` returns for a number of more than ``MAX_DIGITS`` digits.
TOO_LARGE: int = 10**MAX_DIGITS
#: How much of a piece of user text an error message repeats.
ECHO_LIMIT = 40
#: What marks a cut in echoed text (ASCII, so any output encoding can print it).
ELLIPSIS = "..."


def is_ascii_number(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits and nothing else."""
    return bool(text) and all(char in ASCII_DIGITS for char in text)


def ascii_number(text: str) -> int | None:
    """The value of ``text`` if it is all ASCII digits, else ``None``.

    A value of more than ``MAX_DIGITS`` digits comes back as ``TOO_LARGE``.
    """
    if not is_ascii_number(text):
        return None
    significant = text.lstrip("0")
    if len(significant) > MAX_DIGITS:
        return TOO_LARGE
    return int(text)


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)] + ELLIPSIS
