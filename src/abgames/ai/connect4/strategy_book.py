"""The Connect Four strategy book: for each position the ``perfect`` player meets, its move.

The exact book (``book``) holds exact scores for the solver; this one holds what
perfect play needs and nothing more: for every position the player can meet at
its turn (as first or second player, against any replies) within the book's
depth, the position's weak value and the column to play. One byte per position
besides its key, and only the positions the player's own strategy reaches
(about ``7**(d/2)`` per side at depth ``d``) instead of every child of them.

File format (version 1, all integers little-endian)::

    offset  size      field
    0       4         magic b"C4ST"
    4       2         version (1)
    6       1         board width (7)
    7       1         board height (6)
    8       1         max_moves: the most discs of any position in the book
    9       3         reserved, zero
    12      4         count: number of positions
    16      4         CRC-32 of everything after the header
    20      8*count   keys: canonical position keys, strictly increasing
    20+8*count count  entries: (value + 1) << 3 | column

A key is the canonical key of ``book`` (the smaller of the position's key and its
mirror image's); the column is for the position of that key: a position whose
mirror image is the canonical one plays ``6 - column``. ``value`` is 1 (win),
0 (draw) or -1 (loss) for the side to move; the column keeps it.

``load`` checks everything (magic, version, board size, length, checksum, key
order and range, entry range) and raises ``BookError`` naming the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from abgames.ai.connect4.book import (
    BookError,
    load_shipped,
    pack_image,
    read_image,
    save_image,
    unpack_image,
)
from abgames.ai.connect4.constants import WIDTH
from abgames.ai.connect4.position import Position, canonical_key, mirrored

MAGIC = b"C4ST"
VERSION = 1
#: File name of the strategy book shipped inside the package.
DEFAULT_STRATEGY_NAME = "strategy-7x6.bin"
_COLUMN_BITS = 3
_COLUMN_MASK = (1 << _COLUMN_BITS) - 1
#: The largest entry byte: a win (2 << 3) in the last column.
_MAX_ENTRY = (2 << _COLUMN_BITS) | (WIDTH - 1)


def pack(value: int, column: int) -> int:
    """The entry byte of a weak ``value`` (-1/0/1) and a ``column`` (0-based)."""
    if value not in (-1, 0, 1) or not 0 <= column < WIDTH:
        raise ValueError(f"no entry for value {value}, column {column}")
    return (value + 1) << _COLUMN_BITS | column


@dataclass(frozen=True)
class StrategyBook:
    """Sorted canonical keys and their packed (value, column) entries."""

    keys: np.ndarray  # int64, strictly increasing
    entries: np.ndarray  # uint8
    max_moves: int

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def get(self, position: Position) -> tuple[int, int] | None:
        """``(value, column)`` for ``position`` (mirrored as needed), if the book has it.

        An entry whose column is full (only a damaged book has one) counts as absent.
        """
        key = position.key
        canonical = canonical_key(key)
        index = int(np.searchsorted(self.keys, canonical))
        if index >= len(self) or int(self.keys[index]) != canonical:
            return None
        entry = int(self.entries[index])
        value, column = (entry >> _COLUMN_BITS) - 1, entry & _COLUMN_MASK
        if canonical != key:
            column = mirrored(column)
        if not position.can_play(column):
            return None  # a damaged entry: never play it (the player solves instead)
        return value, column

    @classmethod
    def from_moves(cls, moves: Mapping[int, tuple[int, int]], max_moves: int) -> StrategyBook:
        """A book from ``{canonical key: (value, column of the canonical position)}``."""
        keys = np.array(sorted(moves), dtype=np.int64)
        entries = np.array([pack(*moves[int(k)]) for k in keys], dtype=np.uint8)
        return cls(keys, entries, max_moves)


def dumps(book: StrategyBook) -> bytes:
    """The file image of ``book`` (see the module docstring)."""
    return pack_image(
        MAGIC, VERSION, book.max_moves, book.keys, book.entries.astype(np.uint8).tobytes()
    )


def save(book: StrategyBook, path: Path) -> None:
    """Write ``book`` to ``path`` atomically (a temporary file, then a rename)."""
    save_image(dumps(book), path)


def loads(data: bytes, source: str = "strategy book") -> StrategyBook:
    """Parse and verify a strategy book image; ``BookError`` names the first problem found."""
    keys, values, max_moves = unpack_image(data, MAGIC, VERSION, "strategy book", source)
    entries = np.frombuffer(values, dtype=np.uint8).copy()
    if len(entries) and (np.any(entries > _MAX_ENTRY) or np.any((entries & _COLUMN_MASK) >= WIDTH)):
        raise BookError(f"{source}: an entry that is no value and column")
    return StrategyBook(keys, entries, max_moves)


def load(path: Path) -> StrategyBook:
    """Read and verify the strategy book at ``path`` (``BookError``, ``OSError``)."""
    return loads(read_image(path), str(path))


def default_strategy_path() -> Path:
    return Path(str(resources.files("abgames.ai.connect4").joinpath(DEFAULT_STRATEGY_NAME)))


def load_default_strategy() -> StrategyBook | None:
    """The shipped strategy book; ``None`` if there is none, or (with a warning) if damaged."""
    return load_shipped(default_strategy_path(), load, "strategy book")
