# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""Line patterns: what one stone makes along one line, read from a lookup table.

For every empty point, direction and player the engine keeps a *pattern code*:
what that player would have along that line after playing there. The code depends
only on the ten points around it on the line (five each side), so it is a table
lookup on a 20-bit key (2 bits a point: empty, black, white, wall) that play/undo
keep up to date incrementally.

The table is built once per (player, rule) by classifying every line shape from
the most stones to the fewest, each shape from its one-stone-more children:
``F5`` a winning five; ``D4`` two fours on one line (``X.XXX.X``); ``F4`` a
straight four (``.XXXX.``, both ends win); ``B4`` one four; ``F3`` a three that
becomes a straight four; ``B3`` one that becomes a four; ``F2``/``B2``, ``F1``/``B1``
likewise one step further; ``OL`` an overline that does not win; ``DEAD`` nothing.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from abgames.ai import kernel_cache
from abgames.games.gomoku import Rule

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

DEAD = 0
B1 = 1
F1 = 2
B2 = 3
F2 = 4
B3 = 5
F3 = 6
B4 = 7
F4 = 8
D4 = 9
F5 = 10
OL = 11
CODE_COUNT = 12
CODE_NAMES = ("DEAD", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "D4", "F5", "OL")

#: Cell shapes: what one stone at an empty cell builds across its four lines, below the
#: combinations that threaten a win by force (double four, four-three, double three):
#: ``FOUR_PLUS`` a four (``B4``) and a ``B3`` or ``F2`` on another line; ``THREE_PLUS``
#: a three that becomes a straight four (``F3``) and a ``B3`` or ``F2``; ``BLOCK3_PLUS``
#: a ``B3`` and another ``B3`` or an ``F2``; ``DOUBLE_TWO`` two ``F2``. The board
#: counts each player's cells of each shape (``SHAPE_NONE``: none of these).
SHAPE_NONE = -1
SHAPE_FOUR_PLUS = 0
SHAPE_THREE_PLUS = 1
SHAPE_BLOCK3_PLUS = 2
SHAPE_DOUBLE_TWO = 3
SHAPE_COUNT = 4
SHAPE_NAMES = ("four_plus", "three_plus", "block3_plus", "double_two")

#: Points read on each side of the centre.
REACH = 5
SLOTS = 2 * REACH
KEY_BITS = 2 * SLOTS
KEY_COUNT = 1 << KEY_BITS
#: Point values inside a key.
K_EMPTY = 0
K_BLACK = 1
K_WHITE = 2
K_WALL = 3

_LINE = SLOTS + 1
_CENTRE = REACH
_OWN = 1
_BLOCKED = 2


@njit(cache=True, nogil=True)
def _run(line: npt.NDArray[np.int8], at: int) -> tuple[int, int, int]:
    """Own stones in a row through ``at`` (counted as own): (length, first, last)."""
    low = at
    while low > 0 and line[low - 1] == _OWN:
        low -= 1
    high = at
    while high < _LINE - 1 and line[high + 1] == _OWN:
        high += 1
    return high - low + 1, low, high


@njit(cache=True, nogil=True)
def _is_win(length: int, overline_wins: bool) -> bool:
    return length == 5 or (length > 5 and overline_wins)


@njit(cache=True, nogil=True)
def _classify(
    line: npt.NDArray[np.int8],
    children: npt.NDArray[np.int8],
    overline_wins: bool,
    double_four_forbidden: bool,
) -> int:
    """The code of ``line`` (own stone at the centre); ``children[q]`` = code with q played."""
    length, _low, _high = _run(line, _CENTRE)
    if _is_win(length, overline_wins):
        return F5
    if length > 5:
        return OL
    fives = 0
    first = -1
    last = -1
    for q in range(_LINE):
        if line[q] != 0:
            continue
        line[q] = _OWN
        q_length, q_low, q_high = _run(line, q)
        line[q] = 0
        if _is_win(q_length, overline_wins) and q_low <= _CENTRE <= q_high:
            fives += 1
            if first < 0:
                first = q
            last = q
    if fives == 1:
        return B4
    if fives >= 2:
        straight = fives == 2 and last - first == 5
        return F4 if straight else D4
    best = DEAD
    for q in range(_LINE):
        if line[q] != 0:
            continue
        child = children[q]
        if child == F4:
            promoted = F3
        elif child == D4:
            promoted = B3 if double_four_forbidden else F3
        elif child == B4:
            promoted = B3
        elif child == F3:
            promoted = F2
        elif child == B3:
            promoted = B2
        elif child == F2:
            promoted = F1
        elif child in (B2, F1):
            promoted = B1
        else:
            promoted = DEAD
        best = max(best, promoted)
    return best


@njit(cache=True, nogil=True)
def _ternary_table(overline_wins: bool, double_four_forbidden: bool) -> npt.NDArray[np.int8]:
    """Codes for every line of 10 points each empty/own/blocked (base-3 key), centre own."""
    count = 3**SLOTS
    empties = np.zeros(count, np.int64)
    for key in range(count):
        rest = key
        for _ in range(SLOTS):
            if rest % 3 == 0:
                empties[key] += 1
            rest //= 3
    table = np.zeros(count, np.int8)
    line = np.zeros(_LINE, np.int8)
    children = np.zeros(_LINE, np.int8)
    powers = np.zeros(SLOTS, np.int64)
    for j in range(SLOTS):
        powers[j] = 3**j
    # Fewest empty points first, so every child is classified before its parent
    # (a pass per count, not an argsort: numba's sort costs seconds to compile).
    for wanted in range(SLOTS + 1):
        for key in range(count):
            if empties[key] != wanted:
                continue
            rest = key
            for j in range(SLOTS):
                q = j if j < REACH else j + 1
                line[q] = rest % 3
                rest //= 3
            line[_CENTRE] = _OWN
            for j in range(SLOTS):
                q = j if j < REACH else j + 1
                children[q] = table[key + powers[j]] if line[q] == 0 else DEAD
            table[key] = _classify(line, children, overline_wins, double_four_forbidden)
    return table


@njit(cache=True, nogil=True)
def _absolute_table(ternary: npt.NDArray[np.int8], own: int) -> npt.NDArray[np.int8]:
    table = np.zeros(KEY_COUNT, np.int8)
    for key in range(KEY_COUNT):
        key3 = 0
        power = 1
        for j in range(SLOTS):
            value = (key >> (2 * j)) & 3
            if value == K_EMPTY:
                digit = 0
            elif value == own:
                digit = _OWN
            else:
                digit = _BLOCKED
            key3 += digit * power
            power *= 3
        table[key] = ternary[key3]
    return table


_CACHE: dict[Rule, npt.NDArray[np.int8]] = {}
_TERNARY_CACHE: dict[Rule, npt.NDArray[np.int8]] = {}
#: Entries of a base-3 table (one digit a point: empty, own, blocked).
TERNARY_COUNT = 3**SLOTS
#: Base-3 digits of a point in a player's ternary key.
T_EMPTY = 0
T_OWN = _OWN
T_BLOCKED = _BLOCKED


def ternary_tables(rule: Rule) -> npt.NDArray[np.int8]:
    """``table[player, key3]``: the code of ``player`` playing the centre of a line whose
    ten points are, from that player's view, ``T_EMPTY``/``T_OWN``/``T_BLOCKED`` (an
    opponent stone or the edge), digit ``slot`` worth ``3 ** slot``.

    The same codes as ``pattern_table`` in 1/18 of the memory (2 x 59,049 bytes), so
    the lookups of play/undo stay in the processor's cache.
    """
    cached = _TERNARY_CACHE.get(rule)
    if cached is not None:
        return cached
    tables = np.zeros((2, TERNARY_COUNT), np.int8)
    for player in (0, 1):
        overline_wins = rule is Rule.FREESTYLE or (rule is Rule.RENJU and player == 1)
        double_four_forbidden = rule is Rule.RENJU and player == 0
        tables[player] = _ternary_table(overline_wins, double_four_forbidden)
    _TERNARY_CACHE[rule] = tables
    return tables


def pattern_table(rule: Rule) -> npt.NDArray[np.int8]:
    """``table[player, key]``: the code of ``player`` playing the centre of line ``key``."""
    cached = _CACHE.get(rule)
    if cached is not None:
        return cached
    tables = np.zeros((2, KEY_COUNT), np.int8)
    for player in (0, 1):
        overline_wins = rule is Rule.FREESTYLE or (rule is Rule.RENJU and player == 1)
        double_four_forbidden = rule is Rule.RENJU and player == 0
        ternary = _ternary_table(overline_wins, double_four_forbidden)
        tables[player] = _absolute_table(ternary, player + 1)
    _CACHE[rule] = tables
    return tables
