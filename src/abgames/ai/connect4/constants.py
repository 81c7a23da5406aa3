"""The solver's numbers that its callers need without loading the compiler (numba).

The command line, for instance, shows the table sizes in ``--help``: importing
this module costs nothing, importing ``kernel`` or ``solver`` loads numba.
"""

from __future__ import annotations

#: The name of the solver's level (``players.make_player``, the front ends' hint).
PERFECT_LEVEL = "perfect"

#: The board the compiled solver plays (columns x rows).
WIDTH = 7
HEIGHT = 6
#: Bits per column in a bitboard: the column's cells and a guard bit above them.
STRIDE = HEIGHT + 1
CELLS = WIDTH * HEIGHT
#: The bits of column 0, guard bit included (shift by ``c * STRIDE`` for column c).
COLUMN_BITS = (1 << STRIDE) - 1
#: Marker for a column that cannot be played, as in Pons' ``analyze`` output.
INVALID_MOVE = -1000

#: Bytes per transposition-table entry (one ``int64``).
TABLE_ENTRY_BYTES = 8
#: Default table: 2**22 entries of 8 bytes = 32 MiB.
DEFAULT_TABLE_BITS = 22
#: Default book-build table: 2**24 entries = 128 MiB per process.
BUILD_TABLE_BITS = 24
#: Default level-build table: 2**21 entries = 16 MiB per process. A 12-disc solve
#: takes some 100,000 nodes; on 1,000 of them in a row the smaller table searched 5 %
#: more nodes than 2**24 entries, in 30 % less time (it stays in the caches).
LEVEL_TABLE_BITS = 21
#: The smallest table: 2**10 entries = 8 KiB.
MIN_TABLE_BITS = 10
#: The largest table: 2**27 entries = 1 GiB. Larger tables barely help the solver
#: (it already keeps the deepest results) and would take memory a desktop needs.
MAX_TABLE_BITS = 27


def table_size_text(table_bits: int) -> str:
    """The memory of a ``2**table_bits``-entry table in words: ``"32 MiB"``."""
    size = (1 << table_bits) * TABLE_ENTRY_BYTES
    unit = "B"
    for bigger in ("KiB", "MiB", "GiB"):
        if size < 1024:
            break
        size //= 1024
        unit = bigger
    return f"{size} {unit}"


def check_table_bits(table_bits: int) -> int:
    """``table_bits`` if it is in ``MIN_TABLE_BITS..MAX_TABLE_BITS``; else ``ValueError``."""
    if not MIN_TABLE_BITS <= table_bits <= MAX_TABLE_BITS:
        raise ValueError(
            f"table_bits must be {MIN_TABLE_BITS}..{MAX_TABLE_BITS} "
            f"({table_size_text(MIN_TABLE_BITS)} .. {table_size_text(MAX_TABLE_BITS)}), "
            f"not {table_bits}"
        )
    return table_bits
