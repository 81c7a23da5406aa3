"""The Connect Four opening book: exact scores of early positions, in a compact checked file.

File format (version 2, all integers little-endian)::

    offset  size      field
    0       4         magic b"C4BK"
    4       2         version (2)
    6       1         board width (7)
    7       1         board height (6)
    8       1         max_moves: the most discs of any position in the book
    9       3         reserved, zero
    12      4         count: number of positions
    16      4         CRC-32 of everything after the header
    20      8*count   keys: canonical position keys, strictly increasing
    20+8*count count  scores: signed bytes, the exact score of each key's position
    20+9*count count  columns: unsigned bytes, a column (1-7, in the canonical key's
                      orientation) whose move keeps that score, or 0 where the
                      builder did not record one

A key is ``current + mask`` of the position (see ``kernel``), made canonical as the
smaller of the key and its mirror image, so one entry serves both. A score is the
exact score for the side to move (``../shared/data/README.md`` convention). The
columns let a position whose children are not in the book (the deepest level
built) be answered without search. Version 1, the same without the columns, is
still read (every column unknown).

``load`` checks everything (magic, version, size, checksum, key order, score
range) and raises ``BookError`` with a message saying what is wrong;
``load_default_book`` turns that error into a warning and returns ``None``, so a
damaged book never stops the solver.
"""

from __future__ import annotations

import struct
import warnings
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TypeVar

import numpy as np

from abgames.ai.connect4.constants import CELLS, HEIGHT, STRIDE, WIDTH
from abgames.ai.connect4.position import canonical_key
from abgames.files import open_regular, read_bytes, write_atomically

MAGIC = b"C4BK"
VERSION = 2
#: The version without the columns, still read.
VERSION_WITHOUT_COLUMNS = 1
HEADER = struct.Struct("<4sHBBB3sII")
#: File name of the book shipped inside the package.
DEFAULT_BOOK_NAME = "book-7x6.bin"
#: Keys are 49-bit numbers (``kernel`` explains why).
MAX_KEY = 1 << (WIDTH * STRIDE)
#: The largest magnitude of a score (a win with the winner's 4th disc).
MAX_ABS_SCORE = CELLS // 2 + 1 - 4
#: The largest book file read (some 215 million positions at 10 bytes each).
MAX_BOOK_BYTES = 1 << 31


class BookError(ValueError):
    """A book file that cannot be used, with the reason ("bad checksum", ...)."""


@dataclass(frozen=True)
class Book:
    """Sorted canonical keys, their exact scores (ready for the compiled search) and columns."""

    keys: np.ndarray  # int64, strictly increasing
    scores: np.ndarray  # int8
    max_moves: int
    #: uint8 per key: 1 + a column keeping the score, canonical orientation; 0 unknown.
    columns: np.ndarray

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def _index(self, canonical: int) -> int | None:
        """Where the canonical key ``canonical`` is in ``keys``, if the book has it."""
        index = int(np.searchsorted(self.keys, canonical))
        if index < len(self) and int(self.keys[index]) == canonical:
            return index
        return None

    def get(self, key: int) -> int | None:
        """The score of the position with (raw or canonical) ``key``, if the book has it."""
        index = self._index(canonical_key(key))
        return None if index is None else int(self.scores[index])

    def column(self, key: int) -> int | None:
        """A column (0-based, in ``key``'s own orientation) whose move keeps the score of
        the position with ``key``, if the book has the position and recorded one."""
        canonical = canonical_key(key)
        index = self._index(canonical)
        stored = 0 if index is None else int(self.columns[index])
        if stored == 0:
            return None
        return stored - 1 if canonical == key else WIDTH - stored

    @classmethod
    def from_scores(
        cls,
        scores: Mapping[int, int],
        max_moves: int,
        columns: Mapping[int, int] | None = None,
    ) -> Book:
        """A book from ``{canonical key: score}`` and ``{canonical key: column}`` (0-based,
        in the canonical orientation; a key without one has none recorded)."""
        keys = np.array(sorted(scores), dtype=np.int64)
        values = np.array([scores[int(k)] for k in keys], dtype=np.int8)
        known = columns or {}
        stored = np.array([known.get(int(k), -1) + 1 for k in keys], dtype=np.uint8)
        return cls(keys, values, max_moves, stored)

    def column_map(self) -> dict[int, int]:
        """``{canonical key: column}`` of every position with a recorded column (0-based,
        canonical orientation): the inverse of ``from_scores``'s ``columns``."""
        recorded = np.nonzero(self.columns)[0]
        return {int(self.keys[i]): int(self.columns[i]) - 1 for i in recorded}


def pack_image(
    magic: bytes, version: int, max_moves: int, keys: np.ndarray, values: bytes
) -> bytes:
    """A book file image (header, keys, then ``values``: a whole number of bytes a key);
    shared by every book format."""
    payload = keys.astype("<u8").tobytes() + values
    header = HEADER.pack(
        magic,
        version,
        WIDTH,
        HEIGHT,
        max_moves,
        b"\0\0\0",
        len(keys),
        zlib.crc32(payload),
    )
    return header + payload


def unpack_image(
    data: bytes, magic: bytes, version: int, kind: str, source: str, value_bytes: int = 1
) -> tuple[np.ndarray, bytes, int]:
    """Verify a book file image of ``magic`` and ``version`` (a ``kind`` of book); split it.

    Returns ``(keys, values, max_moves)``: the keys (``int64``, checked to be on the
    board and strictly increasing) and ``value_bytes`` value bytes a key, for the
    format to check. ``BookError`` names the first problem found.
    """
    if len(data) < HEADER.size:
        raise BookError(f"{source}: too short for a book header ({len(data)} bytes)")
    found, found_version, width, height, max_moves, _, count, checksum = HEADER.unpack_from(data)
    if found != magic:
        raise BookError(f"{source}: not a Connect Four {kind} (magic {found!r})")
    if found_version != version:
        raise BookError(f"{source}: {kind} version {found_version}, this program reads {version}")
    if (width, height) != (WIDTH, HEIGHT):
        raise BookError(f"{source}: a {width}x{height} book, the solver plays 7x6")
    expected = HEADER.size + (8 + value_bytes) * count
    if len(data) != expected:
        raise BookError(f"{source}: {len(data)} bytes, the header promises {expected}")
    payload = data[HEADER.size :]
    if zlib.crc32(payload) != checksum:
        raise BookError(f"{source}: checksum mismatch, the file is damaged")
    keys = np.frombuffer(payload, dtype="<u8", count=count).astype(np.int64)
    # The empty board's key is 0: a book may hold it.
    if count and (np.any(keys < 0) or np.any(keys >= MAX_KEY)):
        raise BookError(f"{source}: a key outside the board")
    if count > 1 and np.any(np.diff(keys) <= 0):
        raise BookError(f"{source}: keys are not strictly increasing")
    if max_moves > CELLS:
        raise BookError(f"{source}: max_moves {max_moves} exceeds the board")
    return keys, payload[8 * count :], max_moves


def save_image(image: bytes, path: Path) -> None:
    """Write a book image to ``path`` atomically (``files.write_atomically``: a regular
    file or a new name only, a temporary file beside it, synced, then a rename)."""
    write_atomically(path, image)


def read_image(path: Path) -> bytes:
    """The bytes of the book file at ``path``: a regular file of at most
    ``MAX_BOOK_BYTES`` (``OSError`` otherwise, before anything is read)."""
    return read_bytes(path, MAX_BOOK_BYTES)


def starts_with(path: Path, magic: bytes) -> bool:
    """Whether the regular file at ``path`` begins with ``magic`` (a book of that kind)."""
    with open_regular(path) as handle:
        return handle.read(len(magic)) == magic


def dumps(book: Book) -> bytes:
    """The file image of ``book`` (see the module docstring)."""
    values = book.scores.astype(np.int8).tobytes() + book.columns.astype(np.uint8).tobytes()
    return pack_image(MAGIC, VERSION, book.max_moves, book.keys, values)


def save(book: Book, path: Path) -> None:
    """Write ``book`` to ``path`` atomically (a temporary file, then a rename)."""
    save_image(dumps(book), path)


def loads(data: bytes, source: str = "book") -> Book:
    """Parse and verify a book image; ``BookError`` names the first problem found."""
    version = VERSION
    if data[:4] == MAGIC and data[4:6] == VERSION_WITHOUT_COLUMNS.to_bytes(2, "little"):
        version = VERSION_WITHOUT_COLUMNS
    value_bytes = 2 if version == VERSION else 1
    keys, values, max_moves = unpack_image(data, MAGIC, version, "book", source, value_bytes)
    count = len(keys)
    scores = np.frombuffer(values, dtype=np.int8, count=count).copy()
    if count and np.any(np.abs(scores.astype(np.int64)) > MAX_ABS_SCORE):
        raise BookError(f"{source}: a score outside -{MAX_ABS_SCORE}..{MAX_ABS_SCORE}")
    if version == VERSION_WITHOUT_COLUMNS:
        return Book(keys, scores, max_moves, np.zeros(count, np.uint8))
    columns = np.frombuffer(values, dtype=np.uint8, offset=count).copy()
    if count and np.any(columns > WIDTH):
        raise BookError(f"{source}: a column outside 0..{WIDTH}")
    return Book(keys, scores, max_moves, columns)


def load(path: Path) -> Book:
    """Read and verify the book at ``path``.

    Raises ``BookError`` if the file is not a usable book, ``OSError`` if unreadable,
    not a regular file or over ``MAX_BOOK_BYTES``.
    """
    return loads(read_image(path), str(path))


_Loaded = TypeVar("_Loaded")


def load_shipped(path: Path, loader: Callable[[Path], _Loaded], kind: str) -> _Loaded | None:
    """A book file shipped in the package: ``None`` if the package has none, and (with a
    warning naming the problem) if it is unreadable or damaged, so the solver carries
    on without it."""
    if not path.exists():
        return None
    try:
        return loader(path)
    except (OSError, BookError) as error:
        warnings.warn(f"Connect Four {kind} unusable, solving without it: {error}", stacklevel=3)
        return None


def default_book_path() -> Path:
    return Path(str(resources.files("abgames.ai.connect4").joinpath(DEFAULT_BOOK_NAME)))


def load_default_book() -> Book | None:
    """The book shipped with the package, or ``None`` (with a warning) if missing or damaged."""
    path = default_book_path()
    try:
        return load(path)
    except (OSError, BookError) as error:
        warnings.warn(
            f"Connect Four opening book unusable, solving without it: {error}",
            stacklevel=2,
        )
        return None
