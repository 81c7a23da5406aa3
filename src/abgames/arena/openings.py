"""Arena openings: Gomocup offset files for Gomoku, random short openings for any game.

An offset file has one opening a line, ``dx,dy`` pairs separated by commas and
spaces (``0,0, 1,0, 1,3``), each an offset from the centre of the board in
Gomocup coordinates (x to the right, y down); black plays the first stone and the
colours alternate. Blank lines and lines starting with ``#`` are skipped. A file
that is not UTF-8 text, holds no opening or repeats a point in a line is refused
with its name and line (``OpeningError``); an opening that does not fit the board
(off it, a forbidden point, a finished game) is skipped and counted.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from abgames.files import read_bytes
from abgames.games.base import IllegalMoveError, Move
from abgames.games.gomoku import Gomoku
from abgames.match import new_state

_NUMBER = re.compile(r"-?\d+")

#: Plies of a random opening when none is asked for, per game.
DEFAULT_RANDOM_PLIES = {"tictactoe": 1, "connect4": 2, "gomoku": 0}
#: Tries to draw an opening that has not come up yet before accepting a repeat.
DISTINCT_TRIES = 20
#: The largest openings file read, and its longest line (a full 22x22 board of offsets
#: takes ~4 KB).
MAX_OPENINGS_BYTES = 16 * 1024 * 1024
MAX_OPENING_LINE_BYTES = 65_536


class OpeningError(ValueError):
    """An openings file that cannot be used for this board."""


def parse_offset_line(line: str) -> list[tuple[int, int]]:
    """The ``(dx, dy)`` offsets of one line; ``ValueError`` for an odd count of numbers
    or a point given twice."""
    numbers = [int(n) for n in _NUMBER.findall(line)]
    if len(numbers) % 2:
        raise ValueError(f"{line.strip()!r} has an odd count of numbers")
    offsets = list(zip(numbers[::2], numbers[1::2], strict=True))
    seen: set[tuple[int, int]] = set()
    for dx, dy in offsets:
        if (dx, dy) in seen:
            raise ValueError(f"the point {dx},{dy} comes twice in {line.strip()!r}")
        seen.add((dx, dy))
    return offsets


def load_offset_openings(
    path: Path, options: dict[str, object]
) -> tuple[list[tuple[Move, ...]], int]:
    """The Gomoku openings of ``path`` that fit the board, and how many were skipped.

    An opening is skipped when a stone falls off the board or the moves are not
    legal (a forbidden point, a finished game). ``OpeningError`` if none fits.
    """
    try:
        lines = read_bytes(path, MAX_OPENINGS_BYTES).splitlines()
    except OSError as error:  # a FIFO or device, a file over the cap: refused unread
        raise OpeningError(f"cannot read openings file {path}: {error.strerror}") from None
    openings: list[tuple[Move, ...]] = []
    skipped = 0
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_OPENING_LINE_BYTES:
            raise OpeningError(
                f"{path}:{number}: a line of over {MAX_OPENING_LINE_BYTES:,} bytes "
                "(an opening takes a few dozen)"
            )
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise OpeningError(f"{path}:{number}: not UTF-8 text") from None
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            offsets = parse_offset_line(line)
        except ValueError as error:
            raise OpeningError(f"{path}:{number}: {error}") from None
        state = new_state(Gomoku.name, **options)
        assert isinstance(state, Gomoku)
        centre_x, centre_y = state.xy(state.centre)
        try:
            for dx, dy in offsets:
                x, y = centre_x + dx, centre_y + dy
                if not state.on_board(x, y):
                    raise IllegalMoveError("off the board")
                state.play(state.point(x, y))
            if state.is_over():
                raise IllegalMoveError("the game is over")
        except IllegalMoveError:
            skipped += 1
            continue
        openings.append(tuple(state.moves))
    if not openings and not skipped:
        raise OpeningError(f"{path} holds no opening (one a line: dx,dy pairs from the centre)")
    if not openings:
        raise OpeningError(f"no opening in {path} fits this board ({skipped} skipped)")
    return openings, skipped


def random_openings(
    game: str, options: dict[str, object], plies: int, count: int, seed: int | None
) -> list[tuple[Move, ...]]:
    """``count`` openings of ``plies`` random legal moves that leave the game running.

    Distinct where the game allows (tic-tac-toe has only 9 one-move openings).
    ``OpeningError`` for a negative ``plies``, or when every try ends the game
    before ``plies`` moves (Connect Four's 42 cells end it long before 30 random moves).
    """
    if plies < 0:
        raise OpeningError(f"random opening plies must be 0 or more, not {plies}")
    if plies == 0:
        return [()]
    rng = random.Random(seed)
    openings: list[tuple[Move, ...]] = []
    for _ in range(count):
        for _ in range(DISTINCT_TRIES):
            state = new_state(game, **options)
            while state.ply < plies and not state.is_over():
                state.play(rng.choice(state.legal_moves()))
            opening = tuple(state.moves)
            if not state.is_over() and opening not in openings:
                break
        if not state.is_over():
            openings.append(opening)
    if not openings:
        raise OpeningError(
            f"no random opening of {plies} plies leaves a {game} game running "
            f"({count * DISTINCT_TRIES} tried): give fewer plies"
        )
    return openings
