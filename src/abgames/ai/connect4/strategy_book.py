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

import struct
import warnings
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from abgames.ai.connect4 import kernel
from abgames.ai.connect4.book import MAX_KEY, BookError
from abgames.ai.connect4.solver import Position, canonical_key

MAGIC = b"C4ST"
VERSION = 1
HEADER = struct.Struct("<4sHBBB3sII")
#: File name of the strategy book shipped inside the package.
DEFAULT_STRATEGY_NAME = "strategy-7x6.bin"
_COLUMN_BITS = 3
_COLUMN_MASK = (1 << _COLUMN_BITS) - 1
#: The largest entry byte: a win (2 << 3) in the last column.
_MAX_ENTRY = (2 << _COLUMN_BITS) | (kernel.WIDTH - 1)


def pack(value: int, column: int) -> int:
    """The entry byte of a weak ``value`` (-1/0/1) and a ``column`` (0-based)."""
    if value not in (-1, 0, 1) or not 0 <= column < kernel.WIDTH:
        raise ValueError(f"no entry for value {value}, column {column}")
    return (value + 1) << _COLUMN_BITS | column


def mirrored(column: int) -> int:
    return kernel.WIDTH - 1 - column


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


def position_of_key(key: int) -> Position:
    """The unfinished position whose key (``current + mask``) is ``key``.

    A column of ``h`` discs with the side to move's discs ``c`` (as bits from the
    bottom) contributes ``2**h - 1 + c``, a number from ``2**h - 1`` to ``2**(h+1) - 2``:
    ``h`` and ``c`` follow from it.
    """
    current = mask = 0
    for column in range(kernel.WIDTH):
        bits = (key >> (column * kernel.STRIDE)) & kernel.COLUMN_BITS
        height = (bits + 1).bit_length() - 1
        filled = (1 << height) - 1
        mask |= filled << (column * kernel.STRIDE)
        current |= (bits - filled) << (column * kernel.STRIDE)
    return Position(current, mask, mask.bit_count())


def dumps(book: StrategyBook) -> bytes:
    """The file image of ``book`` (see the module docstring)."""
    payload = book.keys.astype("<u8").tobytes() + book.entries.astype(np.uint8).tobytes()
    header = HEADER.pack(
        MAGIC,
        VERSION,
        kernel.WIDTH,
        kernel.HEIGHT,
        book.max_moves,
        b"\0\0\0",
        len(book),
        zlib.crc32(payload),
    )
    return header + payload


def save(book: StrategyBook, path: Path) -> None:
    """Write ``book`` to ``path`` atomically (a temporary file, then a rename)."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(dumps(book))
    temporary.replace(path)


def loads(data: bytes, source: str = "strategy book") -> StrategyBook:
    """Parse and verify a strategy book image; ``BookError`` names the first problem found."""
    if len(data) < HEADER.size:
        raise BookError(f"{source}: too short for a book header ({len(data)} bytes)")
    magic, version, width, height, max_moves, _, count, checksum = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise BookError(f"{source}: not a Connect Four strategy book (magic {magic!r})")
    if version != VERSION:
        raise BookError(f"{source}: strategy book version {version}, this program reads {VERSION}")
    if (width, height) != (kernel.WIDTH, kernel.HEIGHT):
        raise BookError(f"{source}: a {width}x{height} book, the solver plays 7x6")
    expected = HEADER.size + 9 * count
    if len(data) != expected:
        raise BookError(f"{source}: {len(data)} bytes, the header promises {expected}")
    payload = data[HEADER.size :]
    if zlib.crc32(payload) != checksum:
        raise BookError(f"{source}: checksum mismatch, the file is damaged")
    keys = np.frombuffer(payload, dtype="<u8", count=count).astype(np.int64)
    entries = np.frombuffer(payload, dtype=np.uint8, offset=8 * count).copy()
    if count and (np.any(keys < 0) or np.any(keys >= MAX_KEY)):
        raise BookError(f"{source}: a key outside the board")
    if count > 1 and np.any(np.diff(keys) <= 0):
        raise BookError(f"{source}: keys are not strictly increasing")
    if count and (np.any(entries > _MAX_ENTRY) or np.any((entries & _COLUMN_MASK) >= kernel.WIDTH)):
        raise BookError(f"{source}: an entry that is no value and column")
    if max_moves > kernel.CELLS:
        raise BookError(f"{source}: max_moves {max_moves} exceeds the board")
    return StrategyBook(keys, entries, max_moves)


def load(path: Path) -> StrategyBook:
    """Read and verify the strategy book at ``path`` (``BookError``, ``OSError``)."""
    return loads(path.read_bytes(), str(path))


def default_strategy_path() -> Path:
    return Path(str(resources.files("abgames.ai.connect4").joinpath(DEFAULT_STRATEGY_NAME)))


def load_default_strategy() -> StrategyBook | None:
    """The shipped strategy book; ``None`` if there is none, or (with a warning) if damaged."""
    path = default_strategy_path()
    if not path.exists():
        return None
    try:
        return load(path)
    except (OSError, BookError) as error:
        warnings.warn(
            f"Connect Four strategy book unusable, solving without it: {error}",
            stacklevel=2,
        )
        return None
