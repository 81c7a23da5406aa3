"""A level book: the exact score of every position of exactly ``discs`` discs, found by rank.

The opening book (``book``) stores a 49-bit key per position; a whole level of 12
discs (some 6 million positions after mirror images) would take 55 MB that way. A
level book stores no keys: a position's *slot* is computed from the position, and
the file is one signed byte a slot. The compiled search looks the level up at every
node of that many discs (``kernel.level_lookup``), so any position with fewer discs
is solved by a search that stops at the level, as BitBully's 12-ply book does.

A position's slot is ``base(shape) + rank(pattern)``:

- its *shape* is its column heights ``h`` (seven numbers 0-6 summing to ``discs``),
  coded ``sum(h[c] * 7**c)``. Only canonical shapes have slots: those whose code is
  at most the code of the mirrored heights. A position of another shape is looked
  up as its mirror image; a symmetric shape keeps both orientations (its slots
  are few). Canonical shapes are numbered in increasing code order, and
  ``base(shape) = number * patterns``;
- its *pattern* is the side to move's discs read column by column from the left,
  bottom to top: a ``discs``-bit number with ``discs // 2`` ones. Its *rank* is its
  place among all such numbers in increasing order (``patterns = C(discs, discs // 2)``).

A slot holds the position's exact score for the side to move
(``../shared/data/README.md`` convention), ``UNSCORED`` while it is not known yet
(a build in progress), or ``NO_POSITION`` where the slot's board is not a position
of a game (a four on the board, or an order of discs no game plays).

File format (all integers little-endian)::

    offset  size   field
    0       4      magic b"C4LV"
    4       2      version (1)
    6       1      board width (7)
    7       1      board height (6)
    8       1      discs: the level
    9       3      reserved, zero
    12      4      slots
    16      4      CRC-32 of the scores
    20      slots  scores: signed bytes, as above

``load`` checks everything and raises ``BookError`` naming the first problem;
``load_default_level`` warns and returns ``None`` where the shipped file is missing or
damaged, so the solver runs without it.
"""

from __future__ import annotations

import functools
import struct
import zlib
from dataclasses import dataclass
from importlib import resources
from math import comb
from pathlib import Path

import numpy as np

from abgames.ai.connect4.book import MAX_ABS_SCORE, BookError, load_shipped
from abgames.ai.connect4.constants import CELLS, HEIGHT, STRIDE, WIDTH
from abgames.ai.connect4.position import Position, mirror_bits
from abgames.files import read_bytes, write_atomically
from abgames.games.connect4 import has_four

MAGIC = b"C4LV"
VERSION = 1
HEADER = struct.Struct("<4sHBBB3sII")
#: A slot whose score is not known yet.
UNSCORED = -128
#: A slot whose board no game reaches unfinished.
NO_POSITION = 127
#: Heights a column can have (0 to ``HEIGHT``): the radix of shape codes.
RADIX = HEIGHT + 1
#: Shape codes run below this.
SHAPE_CODES = RADIX**WIDTH
#: The deepest level this module ranks (a pattern table of ``2**discs`` entries).
MAX_LEVEL_DISCS = 16
#: The level shipped in the package and its file.
DEFAULT_LEVEL_DISCS = 12
DEFAULT_LEVEL_NAME = f"level-{DEFAULT_LEVEL_DISCS}-7x6.bin"
#: The largest level file read (a 16-disc level is some 95 million slots).
MAX_LEVEL_BYTES = 1 << 28


@dataclass(frozen=True)
class LevelIndex:
    """The tables that turn a position of ``discs`` discs into its slot and back.

    ``bases[code]`` is the first slot of a canonical shape's block (-1 for any other
    code); ``ranks[pattern]`` a pattern's rank (-1 for a number with the wrong count
    of ones); ``shape_codes`` and ``patterns`` list them in slot order, for decoding.
    """

    discs: int
    bases: np.ndarray  # int32, SHAPE_CODES entries
    ranks: np.ndarray  # int32, 2**discs entries
    shape_codes: np.ndarray  # int64, one per canonical shape
    patterns: np.ndarray  # int64, one per rank

    @property
    def slots(self) -> int:
        return len(self.shape_codes) * len(self.patterns)

    @property
    def shapes(self) -> int:
        return len(self.shape_codes)

    def heights(self, shape: int) -> list[int]:
        """The column heights of canonical shape number ``shape``."""
        code = int(self.shape_codes[shape])
        return [(code // RADIX**column) % RADIX for column in range(WIDTH)]

    def slot(self, position: Position) -> int | None:
        """The slot of ``position`` (or of its mirror image); ``None`` for another level
        or a board whose sides' disc counts no game gives."""
        if position.moves != self.discs:
            return None
        heights = column_heights(position.mask)
        code = shape_code(heights)
        current = position.current
        if self.bases[code] < 0:
            heights = heights[::-1]
            code = shape_code(heights)
            current = mirror_bits(current)
        rank = int(self.ranks[read_pattern(current, heights)])
        if rank < 0:  # not a position of a game: the sides' disc counts are off
            return None
        return int(self.bases[code]) + rank

    def board(self, slot: int) -> tuple[int, int]:
        """``(current, mask)`` of the board in ``slot`` (a position or not)."""
        shape, rank = divmod(slot, len(self.patterns))
        heights = self.heights(shape)
        pattern = int(self.patterns[rank])
        current = mask = 0
        offset = 0
        for column, height in enumerate(heights):
            bits = (1 << height) - 1
            mask |= bits << (column * STRIDE)
            current |= ((pattern >> offset) & bits) << (column * STRIDE)
            offset += height
        return current, mask

    def position(self, slot: int) -> Position | None:
        """The position in ``slot``, or ``None`` if its board is not a position of a
        game: a four on it, or discs in an order no game plays."""
        current, mask = self.board(slot)
        opponent = current ^ mask
        if has_four(current, HEIGHT) or has_four(opponent, HEIGHT):
            return None
        if not reachable(current, mask, self.discs):
            return None
        return Position(current, mask, self.discs)


def column_heights(mask: int) -> list[int]:
    column_mask = (1 << STRIDE) - 1
    return [((mask >> (column * STRIDE)) & column_mask).bit_count() for column in range(WIDTH)]


def shape_code(heights: list[int]) -> int:
    return sum(height * RADIX**column for column, height in enumerate(heights))


def read_pattern(current: int, heights: list[int]) -> int:
    """The side to move's discs column by column from the left, bottom to top."""
    pattern = offset = 0
    for column, height in enumerate(heights):
        pattern |= ((current >> (column * STRIDE)) & ((1 << height) - 1)) << offset
        offset += height
    return pattern


def reachable(current: int, mask: int, discs: int) -> bool:
    """Whether some order of play, alternating from the first player, builds this board.

    Taking discs off from the last: the last disc is the last mover's, on top of its
    column; a search over which column to take from, remembering the column heights
    already found to lead nowhere.
    """
    heights = column_heights(mask)
    # owner[column][row]: 0 the first player's disc, 1 the second's.
    side_to_move = discs % 2
    owner = [
        [
            side_to_move if (current >> (column * STRIDE + row)) & 1 else 1 - side_to_move
            for row in range(heights[column])
        ]
        for column in range(WIDTH)
    ]
    dead_ends: set[tuple[int, ...]] = set()

    def peel(tops: tuple[int, ...], left: int) -> bool:
        if left == 0:
            return True
        if tops in dead_ends:
            return False
        last_mover = (left - 1) % 2
        for column in range(WIDTH):
            top = tops[column]
            if top and owner[column][top - 1] == last_mover:
                lower = (*tops[:column], top - 1, *tops[column + 1 :])
                if peel(lower, left - 1):
                    return True
        dead_ends.add(tops)
        return False

    return peel(tuple(heights), discs)


def canonical_shape_codes(discs: int) -> np.ndarray:
    """The codes of the canonical shapes of ``discs`` discs, ascending: every vector of
    column heights (0 to ``HEIGHT``) summing to ``discs`` whose code is at most its
    mirror image's. All ``SHAPE_CODES`` codes at once, a column at a time."""
    heights = np.arange(RADIX, dtype=np.int8)
    # From the rightmost column (the code's most significant digit, the mirror
    # image's least) to the leftmost: index i of each array is code i.
    sums = heights
    mirrored = heights.astype(np.int32)
    for column in range(WIDTH - 2, -1, -1):
        sums = np.add.outer(sums, heights).ravel()
        digit_values = heights.astype(np.int32) * RADIX ** (WIDTH - 1 - column)
        mirrored = np.add.outer(mirrored, digit_values).ravel()
    codes = np.arange(SHAPE_CODES, dtype=np.int32)
    return np.nonzero((sums == discs) & (codes <= mirrored))[0].astype(np.int64)


@functools.lru_cache(maxsize=4)
def level_index(discs: int) -> LevelIndex:
    """The slot tables of the level of ``discs`` discs (computed once per process)."""
    if not 1 <= discs <= MAX_LEVEL_DISCS:
        raise ValueError(f"a level book has 1 to {MAX_LEVEL_DISCS} discs, not {discs}")
    shape_codes = canonical_shape_codes(discs)
    numbers = np.arange(1 << discs, dtype=np.int64)
    ones = np.zeros(1 << discs, np.int64)
    for bit in range(discs):
        ones += (numbers >> bit) & 1
    patterns = np.nonzero(ones == discs // 2)[0].astype(np.int64)
    assert len(patterns) == comb(discs, discs // 2)
    bases = np.full(SHAPE_CODES, -1, np.int32)
    bases[shape_codes] = np.arange(len(shape_codes), dtype=np.int32) * len(patterns)
    ranks = np.full(1 << discs, -1, np.int32)
    ranks[patterns] = np.arange(len(patterns), dtype=np.int32)
    return LevelIndex(discs, bases, ranks, shape_codes, patterns)


@dataclass(frozen=True)
class LevelBook:
    """One level's scores by slot (``UNSCORED``/``NO_POSITION`` where none), and its index."""

    index: LevelIndex
    scores: np.ndarray  # int8, index.slots entries

    @property
    def discs(self) -> int:
        return self.index.discs

    @classmethod
    def empty(cls, discs: int) -> LevelBook:
        index = level_index(discs)
        return cls(index, np.full(index.slots, UNSCORED, np.int8))

    def get(self, position: Position) -> int | None:
        """The exact score of ``position``, if this level holds it."""
        slot = self.index.slot(position)
        if slot is None:
            return None
        score = int(self.scores[slot])
        return None if abs(score) > MAX_ABS_SCORE else score

    def counts(self) -> tuple[int, int]:
        """``(scored, positions)``: slots with a score; slots that are (or may be) positions."""
        scores = self.scores
        scored = int(np.count_nonzero((scores >= -MAX_ABS_SCORE) & (scores <= MAX_ABS_SCORE)))
        return scored, int(np.count_nonzero(self.scores != NO_POSITION))

    @property
    def complete(self) -> bool:
        return not bool(np.any(self.scores == UNSCORED))


def dumps(level: LevelBook) -> bytes:
    payload = level.scores.astype(np.int8).tobytes()
    header = HEADER.pack(
        MAGIC, VERSION, WIDTH, HEIGHT, level.discs, b"\0\0\0", len(payload), zlib.crc32(payload)
    )
    return header + payload


def save(level: LevelBook, path: Path) -> None:
    """Write ``level`` to ``path`` atomically (``files.write_atomically``)."""
    write_atomically(path, dumps(level))


def loads(data: bytes, source: str = "level book") -> LevelBook:
    """Parse and verify a level book image; ``BookError`` names the first problem found."""
    if len(data) < HEADER.size:
        raise BookError(f"{source}: too short for a level book header ({len(data)} bytes)")
    magic, version, width, height, discs, _, slots, checksum = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise BookError(f"{source}: not a Connect Four level book (magic {magic!r})")
    if version != VERSION:
        raise BookError(f"{source}: level book version {version}, this program reads {VERSION}")
    if (width, height) != (WIDTH, HEIGHT):
        raise BookError(f"{source}: a {width}x{height} book, the solver plays 7x6")
    if not 1 <= discs <= min(MAX_LEVEL_DISCS, CELLS):
        raise BookError(
            f"{source}: a level of {discs} discs, this program reads 1-{MAX_LEVEL_DISCS}"
        )
    index = level_index(discs)
    if slots != index.slots:
        raise BookError(f"{source}: {slots} slots, a level of {discs} discs has {index.slots}")
    if len(data) != HEADER.size + slots:
        raise BookError(f"{source}: {len(data)} bytes, the header promises {HEADER.size + slots}")
    payload = data[HEADER.size :]
    if zlib.crc32(payload) != checksum:
        raise BookError(f"{source}: checksum mismatch, the file is damaged")
    scores = np.frombuffer(payload, dtype=np.int8).copy()
    # Scores run from -MAX_ABS_SCORE to MAX_ABS_SCORE, the two marks lie outside.
    outside = (scores < -MAX_ABS_SCORE) | (scores > MAX_ABS_SCORE)
    if np.any(outside & (scores != UNSCORED) & (scores != NO_POSITION)):
        raise BookError(f"{source}: a score outside -{MAX_ABS_SCORE}..{MAX_ABS_SCORE}")
    return LevelBook(index, scores)


def load(path: Path) -> LevelBook:
    """Read and verify the level book at ``path`` (``BookError``, or ``OSError`` if unreadable,
    not a regular file or over ``MAX_LEVEL_BYTES``)."""
    return loads(read_bytes(path, MAX_LEVEL_BYTES), str(path))


def default_level_path() -> Path:
    return Path(str(resources.files("abgames.ai.connect4").joinpath(DEFAULT_LEVEL_NAME)))


#: The shipped level as last loaded in this process, by (path, modification time, size):
#: every player of a process shares one copy (7 MB). Writable, as the compiled search
#: takes it (a read-only array would compile the kernels again), but never written.
_loaded: dict[tuple[Path, int, int], LevelBook] = {}


def load_default_level() -> LevelBook | None:
    """The level book shipped with the package, or ``None``: silently when the package
    ships none, with a warning when the file is there but damaged. Loaded once per
    process (again if the file changes) and shared: do not write to it."""
    path = default_level_path()
    try:
        status = path.stat()
    except OSError:
        return None
    stamp = (path, status.st_mtime_ns, status.st_size)
    if stamp not in _loaded:
        level = load_shipped(path, load, "level book")
        if level is None:
            return None
        _loaded.clear()
        _loaded[stamp] = level
    return _loaded[stamp]
