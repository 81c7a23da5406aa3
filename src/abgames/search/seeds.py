"""Seeds: any integer a person gives (``--seed -1`` included) as a generator's seed.

numpy's generators refuse negative seeds and ``random.Random`` reads ``-n`` as ``n``;
``generator_seed`` maps every integer to ``0..2**64-1`` (``n mod 2**64``), so the
seeds a person can give ``0..2**64-1`` are kept as they are, a negative one is as good
as any other and differs from its opposite, and one mapping serves every engine.
"""

from __future__ import annotations

#: Seeds are taken modulo this (numpy's generators take any non-negative integer).
SEED_MODULUS = 2**64


def generator_seed(seed: int) -> int:
    """``seed`` mapped into ``0..2**64-1`` (unchanged if it already is)."""
    return seed % SEED_MODULUS
