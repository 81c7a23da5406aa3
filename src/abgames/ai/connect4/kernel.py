"""The compiled heart of the Connect Four solver: bitboards, negamax, null-window narrowing.

This follows Pascal Pons' solver (Position / Solver / TranspositionTable / MoveSorter),
written for numba. Everything that runs per node is compiled (``@njit(cache=True)``):
Python calls one entry point per position (``solve`` or ``analyze``).

Board layout (7 columns x 6 rows, the layout of ``abgames.games.connect4``)::

    .  .  .  .  .  .  .     <- guard row (bit 6 of each column), always empty
    5 12 19 26 33 40 47
    4 11 18 25 32 39 46
    3 10 17 24 31 38 45
    2  9 16 23 30 37 44
    1  8 15 22 29 36 43
    0  7 14 21 28 35 42

A position is two bitboards: ``current`` (the side to move's discs) and ``mask``
(every disc). ``current + mask`` is a unique key: in each column, adding ``mask``
(a run of ones from the bottom) to ``current`` sets the bit just above the top
disc and keeps the side to move's discs below it; no carry crosses a column
because the guard bit absorbs it. Keys fit in 49 bits, so signed 64-bit ints hold
every bitboard here (left shifts may overflow past bit 63, which only drops bits
that the board mask removes anyway; right shifts are only applied to boards).

Scores follow Pons (and ``../shared/data/README.md``): from the side to move's
view, a win with the winner's ``k``-th disc scores ``22 - k``, a loss the negative
of the opponent's, a draw 0.

The transposition table is a flat ``int64`` array of ``2**bits`` entries; one entry
packs ``key << 15 | generation << 7 | value``. A value of 1..63 is an upper bound
``value - 32``; 64..127 a lower bound ``value - 96``. "Clearing" the table bumps the
generation (entries of other generations read as empty), so a clear costs nothing
until the 8-bit generation wraps, when the array is zeroed.

Positions with ``NEAR_LEAF_MOVES`` discs or more hash into the table's first
sixteenth only (2 MiB of the default 32 MiB: it stays in the processor's cache);
the others into the whole table. The near-leaf nodes are most of a search and
cheap to search again; kept apart they no longer push out the entries near the
root, which are dear. Measured (``benchmarks/connect4_solver.py`` and deep
6-8 disc solves): about 1.3 times fewer nodes on deep solves and 1.5 to 4 times
faster, as the hot entries stay in cache.

Nodes with fewer than ``ETC_BEFORE_MOVES`` discs first read their children's
table entries (enhanced transposition cutoffs): a child's upper bound can cut the
node at once, and a child whose lower bound cannot raise alpha is not searched. On
random positions of 8-16 discs and on 12-disc positions that saves about a third of
the nodes and a sixth of the time.

The optional book is two sorted arrays (canonical keys, exact scores) consulted at
nodes with at most ``book_max_moves`` discs; see ``abgames.ai.connect4.book``. The
optional level book holds the exact score of every position of ``level_moves``
discs by slot, looked up at nodes of that many discs (``level_lookup``; see
``abgames.ai.connect4.level_book``): a search from fewer discs stops there.

The entry points release the GIL (``nogil=True``): other Python threads (a window,
a progress printer) keep running during a solve; twins that hold it
(``*_holding_gil``) serve a solve's first short chunk, where releasing the GIL
would cost more than the search. A long solve runs in chunks: the entry points
*pause* when the node count reaches ``counters[PAUSE_AT]``, leaving where they were
in ``counters`` and ``stack``, and a call with ``resume=True`` carries on exactly
there, so the caller can report progress, notice Ctrl-C or give up between chunks
at no cost to the search.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from abgames.ai import kernel_cache
from abgames.ai.connect4.constants import CELLS as CELLS
from abgames.ai.connect4.constants import COLUMN_BITS as COLUMN_BITS
from abgames.ai.connect4.constants import HEIGHT as HEIGHT
from abgames.ai.connect4.constants import INVALID_MOVE as INVALID_MOVE
from abgames.ai.connect4.constants import STRIDE as STRIDE
from abgames.ai.connect4.constants import WIDTH as WIDTH

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

#: Heights a column can have (0 to ``HEIGHT``): the radix of a level book's shape codes.
SHAPE_RADIX = HEIGHT + 1
MIN_SCORE = -(CELLS // 2) + 3
MAX_SCORE = (CELLS + 1) // 2 - 3
#: Columns from the centre outwards: the tie-break of move ordering.
COLUMN_ORDER = (3, 2, 4, 1, 5, 0, 6)
#: One bit at the bottom of each column.
BOTTOM_MASK = sum(1 << (c * STRIDE) for c in range(WIDTH))
#: Every playable cell (guard bits excluded).
BOARD_MASK = BOTTOM_MASK * ((1 << HEIGHT) - 1)

# Transposition-table entry packing.
_VALUE_BITS = 7
_VALUE_MASK = (1 << _VALUE_BITS) - 1
_GEN_SHIFT = _VALUE_BITS
_KEY_SHIFT = 15
_UPPER_OFFSET = 32  # upper bound u stored as u + 32 (1..63)
_LOWER_OFFSET = 96  # lower bound l stored as l + 96 (64..127)
_LOWER_FLOOR = 64
#: Fibonacci hashing multiplier (2**64 / golden ratio, as a signed 64-bit int).
_HASH_MULTIPLIER = 0x9E3779B97F4A7C15 - (1 << 64)
MAX_GENERATION = 255
#: Positions with at least this many discs are stored in the near-leaf region.
NEAR_LEAF_MOVES = 24
#: The near-leaf region is the first ``1 / 2**NEAR_LEAF_SHIFT`` of the table.
NEAR_LEAF_SHIFT = 4
#: Nodes with fewer discs look up their children in the table before searching any
#: (enhanced transposition cutoffs). Nearer the leaves the lookups cost more time
#: than the nodes they save (``benchmarks/connect4_solver.py``).
ETC_BEFORE_MOVES = 36

#: Deepest recursion: one frame per disc still to play, plus the root.
MAX_FRAMES = CELLS + 2
# Slots of the ``counters`` array every entry point takes. The caller sets
# ``PAUSE_AT`` (0: never pause); the kernel keeps ``NODES`` and, when it pauses,
# sets ``PAUSED`` and saves its place: the column being analyzed, the window
# ``[LOW, HIGH]`` of ``_solve`` with the probe ``MIDDLE`` under way, and the
# ``DEPTH`` of the node ``_negamax`` enters next (its path is in ``stack``).
# ``ROOT_CUT`` is the root's move (a bitboard, 0: none) that ended the last probe
# with a cut-off; ``BEST_MOVE`` the root's move of the last probe that failed high:
# when ``_solve`` ends it is a move of the exact score, or 0 if no probe found one.
NODES, PAUSE_AT, PAUSED, COLUMN, LOW, HIGH, MIDDLE, DEPTH, ROOT_CUT, BEST_MOVE = range(10)
COUNTER_SLOTS = 10
# Columns of the explicit stack of ``_negamax``: one row per frame (node on the path).
_CURRENT, _MASK, _ALPHA, _BETA, _KEY, _SLOT, _COUNT, _TRIED, _ORDER = range(9)
STACK_COLUMNS = _ORDER + WIDTH


@njit(cache=True, nogil=True, inline="always")
def popcount(bits: int) -> int:
    """Number of set bits of a non-negative board (numba has no portable popcount)."""
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def _line_spots(position: int, shift: int) -> int:
    """Empty-or-not cells that would complete a four of ``position`` along ``shift``.

    For a direction with bit distance ``shift`` a cell x completes a four when three
    neighbours in that direction are owned: xooo, oxoo, ooxo or ooox.
    """
    pair = (position << shift) & (position << (2 * shift))
    spots = pair & (position << (3 * shift))
    spots |= pair & (position >> shift)
    pair = (position >> shift) & (position >> (2 * shift))
    spots |= pair & (position << shift)
    spots |= pair & (position >> (3 * shift))
    return spots


@njit(cache=True, nogil=True, inline="always")
def winning_spots(position: int, mask: int) -> int:
    """Empty cells where one more disc of ``position`` makes four (reachable or not)."""
    spots = (position << 1) & (position << 2) & (position << 3)  # vertical: only upwards
    spots |= _line_spots(position, STRIDE)  # horizontal
    spots |= _line_spots(position, HEIGHT)  # diagonal going down to the right
    spots |= _line_spots(position, HEIGHT + 2)  # diagonal going up to the right
    return spots & (BOARD_MASK ^ mask)


@njit(cache=True, nogil=True, inline="always")
def playable(mask: int) -> int:
    """The lowest empty cell of every column that is not full."""
    return (mask + BOTTOM_MASK) & BOARD_MASK


@njit(cache=True, nogil=True, inline="always")
def column_mask(column: int) -> int:
    return ((1 << HEIGHT) - 1) << (column * STRIDE)


@njit(cache=True, nogil=True, inline="always")
def can_win_next(current: int, mask: int) -> bool:
    return (winning_spots(current, mask) & playable(mask)) != 0


@njit(cache=True, nogil=True, inline="always")
def non_losing_moves(current: int, mask: int) -> int:
    """Moves that do not let the opponent win at once (call only if we cannot win now).

    If the opponent has two immediate wins, nothing saves us (0). If one, we must
    block it. Never play directly below a cell where the opponent would win.
    """
    possible = playable(mask)
    opponent_win = winning_spots(current ^ mask, mask)
    forced = possible & opponent_win
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return possible & ~(opponent_win >> 1)


@njit(cache=True, nogil=True, inline="always")
def mirror(bits: int) -> int:
    """The board reflected left to right."""
    result = 0
    for column in range(WIDTH):
        part = (bits >> (column * STRIDE)) & COLUMN_BITS
        result |= part << ((WIDTH - 1 - column) * STRIDE)
    return result


@njit(cache=True, nogil=True, inline="always")
def canonical_key(key: int) -> int:
    """The smaller of a key and its mirror image: one book entry serves both."""
    reflected = mirror(key)
    return reflected if reflected < key else key


@njit(cache=True, nogil=True, inline="always")
def _trunc_half(value: int) -> int:
    """``value / 2`` rounded toward zero (C semantics; Python's ``//`` floors)."""
    return -((-value) // 2) if value < 0 else value // 2


@njit(cache=True, nogil=True)
def book_lookup(book_keys: np.ndarray, book_scores: np.ndarray, key: int) -> int:
    """The book score of canonical ``key``, or ``INVALID_MOVE`` when it is not in the book."""
    low = 0
    high = book_keys.shape[0]
    while low < high:
        middle = (low + high) >> 1
        if book_keys[middle] < key:
            low = middle + 1
        else:
            high = middle
    if low < book_keys.shape[0] and book_keys[low] == key:
        return int(book_scores[low])
    return INVALID_MOVE


@njit(cache=True, nogil=True)
def level_lookup(
    level_scores: np.ndarray,
    level_bases: np.ndarray,
    level_ranks: np.ndarray,
    current: int,
    mask: int,
) -> int:
    """The level book's score of a position of the level's discs, or ``INVALID_MOVE``.

    The slot is ``level_bases[shape code] + level_ranks[pattern]`` (see
    ``abgames.ai.connect4.level_book``): a shape with no block is looked up as its
    mirror image. A slot without a score (not built yet) reads as ``INVALID_MOVE``.
    """
    own = 0  # sum(height[c] * SHAPE_RADIX**c)
    reflected = 0  # the same for the mirror image: column c counts as WIDTH - 1 - c
    place = 1
    for column in range(WIDTH):
        height = popcount((mask >> (column * STRIDE)) & COLUMN_BITS)
        own += height * place
        reflected = reflected * SHAPE_RADIX + height
        place *= SHAPE_RADIX
    base = level_bases[own]
    flip = False
    if base < 0:
        base = level_bases[reflected]
        flip = True
        if base < 0:
            return INVALID_MOVE
    pattern = 0
    offset = 0
    for i in range(WIDTH):
        column = WIDTH - 1 - i if flip else i
        height = popcount((mask >> (column * STRIDE)) & COLUMN_BITS)
        pattern |= ((current >> (column * STRIDE)) & ((1 << height) - 1)) << offset
        offset += height
    rank = level_ranks[pattern]
    if rank < 0:
        return INVALID_MOVE
    score = int(level_scores[base + rank])
    if score < -CELLS or score > CELLS:
        return INVALID_MOVE
    return score


@njit(cache=True, nogil=True)
def _negamax(
    root_current: int,
    root_mask: int,
    root_moves: int,
    root_alpha: int,
    root_beta: int,
    table: np.ndarray,
    hash_shift: int,
    generation: int,
    book_keys: np.ndarray,
    book_scores: np.ndarray,
    book_max_moves: int,
    level_scores: np.ndarray,
    level_bases: np.ndarray,
    level_ranks: np.ndarray,
    level_moves: int,
    counters: np.ndarray,
    stack: np.ndarray,
    resume: bool,
) -> int:
    """Pons' negamax with alpha-beta, iterative (an explicit stack, no recursion).

    Precondition: the side to move cannot win at once. Contract (fail-soft on
    the window [alpha, beta]): a result ``<= alpha`` is an upper bound, ``>= beta``
    a lower bound, anything between is exact. ``counters[NODES]`` counts nodes;
    when it reaches ``counters[PAUSE_AT]`` (if positive) the search pauses: it sets
    ``counters[PAUSED]`` and ``counters[DEPTH]`` and returns a meaningless result,
    and a call with ``resume`` (and the same arguments and ``stack``) goes on.
    """
    current = stack[:, _CURRENT]
    mask = stack[:, _MASK]
    alpha = stack[:, _ALPHA]
    beta = stack[:, _BETA]
    keys = stack[:, _KEY]
    slots = stack[:, _SLOT]
    move_count = stack[:, _COUNT]
    tried_count = stack[:, _TRIED]
    order = stack[:, _ORDER:]
    order_scores = np.empty(WIDTH, np.int64)
    gen_bits = generation << _GEN_SHIFT
    table_mask = table.shape[0] - 1
    near_mask = table_mask >> NEAR_LEAF_SHIFT
    near_shift = hash_shift + NEAR_LEAF_SHIFT
    use_book = book_keys.shape[0] > 0
    budget = -1  # nodes never reach it: no pause
    if counters[PAUSE_AT] > 0:
        budget = max(counters[PAUSE_AT] - counters[NODES], 1)

    nodes = 0
    if resume:  # enter again the node the pause stopped at (it was counted then)
        depth = counters[DEPTH]
        nodes = -1
    else:
        depth = 0
        current[0] = root_current
        mask[0] = root_mask
        alpha[0] = root_alpha
        beta[0] = root_beta
    entering = True
    result = 0
    while True:
        if entering:
            # --- a new node: bounds, table, book, then generate sorted moves ----
            nodes += 1
            if nodes == budget:
                counters[PAUSED] = 1
                counters[DEPTH] = depth
                break
            cur = current[depth]
            msk = mask[depth]
            moves = root_moves + depth
            a = alpha[depth]
            b = beta[depth]
            possible = non_losing_moves(cur, msk)
            if possible == 0:  # the opponent wins next move
                result = -((CELLS - moves) // 2)
                entering = False
                continue
            if moves >= CELLS - 2:  # neither side can still make four
                result = 0
                entering = False
                continue
            low = -((CELLS - 2 - moves) // 2)  # the opponent cannot win next move
            if a < low:
                a = low
                if a >= b:
                    result = a
                    entering = False
                    continue
            high = (CELLS - 1 - moves) // 2  # we cannot win with the next disc
            if b > high:
                b = high
                if a >= b:
                    result = b
                    entering = False
                    continue
            key = cur + msk
            if moves >= NEAR_LEAF_MOVES:
                slot = ((key * _HASH_MULTIPLIER) >> near_shift) & near_mask
            else:
                slot = ((key * _HASH_MULTIPLIER) >> hash_shift) & table_mask
            tag = (key << _KEY_SHIFT) | gen_bits
            entry = table[slot]
            if (entry & ~_VALUE_MASK) == tag:
                value = entry & _VALUE_MASK
                if value >= _LOWER_FLOOR:
                    bound = value - _LOWER_OFFSET
                    if a < bound:
                        a = bound
                        if a >= b:
                            result = a
                            entering = False
                            continue
                else:
                    bound = value - _UPPER_OFFSET
                    if b > bound:
                        b = bound
                        if a >= b:
                            result = b
                            entering = False
                            continue
            if use_book and moves <= book_max_moves:
                score = book_lookup(book_keys, book_scores, canonical_key(key))
                if score != INVALID_MOVE:
                    result = score
                    entering = False
                    continue
            if moves == level_moves:
                score = level_lookup(level_scores, level_bases, level_ranks, cur, msk)
                if score != INVALID_MOVE:
                    result = score
                    entering = False
                    continue
            if moves < ETC_BEFORE_MOVES:
                # Enhanced transposition cutoffs: the table's bounds on the children,
                # before any is searched. A child bounded above by ``u`` makes this
                # node at least ``-u`` (a cutoff if that reaches beta); a child
                # bounded below by ``l`` with ``-l <= alpha`` cannot raise alpha and
                # is not searched.
                child_current = cur ^ msk
                cut = INVALID_MOVE
                for i in range(WIDTH):
                    move = possible & column_mask(i)
                    if move:
                        child_key = child_current + (msk | move)
                        hashed = child_key * _HASH_MULTIPLIER
                        if moves + 1 >= NEAR_LEAF_MOVES:
                            child_slot = (hashed >> near_shift) & near_mask
                        else:
                            child_slot = (hashed >> hash_shift) & table_mask
                        child_entry = table[child_slot]
                        if (child_entry & ~_VALUE_MASK) == (child_key << _KEY_SHIFT) | gen_bits:
                            value = child_entry & _VALUE_MASK
                            if value < _LOWER_FLOOR:
                                if _UPPER_OFFSET - value >= b:
                                    cut = _UPPER_OFFSET - value
                                    break
                            elif _LOWER_OFFSET - value <= a:
                                possible &= ~move
                if cut != INVALID_MOVE:
                    if depth == 0:
                        counters[ROOT_CUT] = move  # the move of the cutoff, as below
                    table[slot] = tag | (cut + _LOWER_OFFSET)
                    result = cut
                    entering = False
                    continue
                if possible == 0:  # no child can raise alpha: ``a`` bounds this node
                    table[slot] = tag | (a + _UPPER_OFFSET)
                    result = a
                    entering = False
                    continue
            # Move ordering: most new winning spots first, centre first on ties
            # (insertion sort, stable, filled in centre-first order).
            count = 0
            for i in range(WIDTH):
                move = possible & column_mask(COLUMN_ORDER[i])
                if move:
                    score = popcount(winning_spots(cur | move, msk))
                    position = count
                    while position > 0 and order_scores[position - 1] < score:
                        order[depth, position] = order[depth, position - 1]
                        order_scores[position] = order_scores[position - 1]
                        position -= 1
                    order[depth, position] = move
                    order_scores[position] = score
                    count += 1
            alpha[depth] = a
            beta[depth] = b
            keys[depth] = key
            slots[depth] = slot
            move_count[depth] = count
            tried_count[depth] = 1
            move = order[depth, 0]
            # Descend into the first child: the opponent's view, window [-b, -a].
            current[depth + 1] = cur ^ msk
            mask[depth + 1] = msk | move
            alpha[depth + 1] = -b
            beta[depth + 1] = -a
            depth += 1
            continue

        # --- a child returned ``result``: back in its parent -------------------
        if depth == 0:
            break
        depth -= 1
        score = -result
        b = beta[depth]
        if score >= b:
            table[slots[depth]] = (keys[depth] << _KEY_SHIFT) | gen_bits | (score + _LOWER_OFFSET)
            if depth == 0:
                counters[ROOT_CUT] = order[0, tried_count[0] - 1]
            result = score
            continue
        if score > alpha[depth]:
            alpha[depth] = score
        tried = tried_count[depth]
        if tried == move_count[depth]:
            a = alpha[depth]
            table[slots[depth]] = (keys[depth] << _KEY_SHIFT) | gen_bits | (a + _UPPER_OFFSET)
            result = a
            continue
        tried_count[depth] = tried + 1
        move = order[depth, tried]
        msk = mask[depth]
        current[depth + 1] = current[depth] ^ msk
        mask[depth + 1] = msk | move
        alpha[depth + 1] = -b
        beta[depth + 1] = -alpha[depth]
        depth += 1
        entering = True
    counters[NODES] += nodes
    return result


@njit(cache=True, nogil=True)
def _solve(
    current: int,
    mask: int,
    moves: int,
    weak: bool,
    window_low: int,
    window_high: int,
    table: np.ndarray,
    hash_shift: int,
    generation: int,
    book_keys: np.ndarray,
    book_scores: np.ndarray,
    book_max_moves: int,
    level_scores: np.ndarray,
    level_bases: np.ndarray,
    level_ranks: np.ndarray,
    level_moves: int,
    counters: np.ndarray,
    stack: np.ndarray,
    resume: bool,
) -> int:
    """The exact score of an unfinished position (``weak``: only its sign, -1/0/1).

    Null-window searches narrow ``[low, high]`` until it closes, probing first near
    0 (where most positions lie) and halving toward the bounds, as Pons does. The
    window starts as the scores the position allows, narrowed to ``[window_low,
    window_high]``: a score known to lie there is found sooner. If the score lies
    below ``window_low`` the result is ``window_low``; if above ``window_high``, a
    lower bound of it that is at least ``window_high``. ``counters[BEST_MOVE]``
    is then a move of that score, if a probe found one (see ``COUNTER_SLOTS``).
    ``counters``, ``stack`` and ``resume`` as for ``_negamax``: on a pause the
    result is meaningless and the window and probe are saved in ``counters``.
    """
    if resume:
        low = int(counters[LOW])
        high = int(counters[HIGH])
    else:
        if can_win_next(current, mask):
            return 1 if weak else (CELLS + 1 - moves) // 2
        low = max(-((CELLS - moves) // 2), window_low)
        high = min((CELLS + 1 - moves) // 2, window_high)
        if weak:
            low = max(low, -1)
            high = min(high, 1)
        counters[BEST_MOVE] = 0
    resuming = resume
    while low < high:
        if resuming:
            middle = int(counters[MIDDLE])
        else:
            counters[ROOT_CUT] = 0
            middle = low + (high - low) // 2
            if middle <= 0 and _trunc_half(low) < middle:
                middle = _trunc_half(low)
            elif middle >= 0 and _trunc_half(high) > middle:
                middle = _trunc_half(high)
        result = _negamax(
            current,
            mask,
            moves,
            middle,
            middle + 1,
            table,
            hash_shift,
            generation,
            book_keys,
            book_scores,
            book_max_moves,
            level_scores,
            level_bases,
            level_ranks,
            level_moves,
            counters,
            stack,
            resuming,
        )
        resuming = False
        if counters[PAUSED]:
            counters[LOW] = low
            counters[HIGH] = high
            counters[MIDDLE] = middle
            return 0
        if result <= middle:
            high = result
        else:
            low = result
            counters[BEST_MOVE] = counters[ROOT_CUT]
    if weak:
        return (low > 0) - (low < 0)
    return low


# The entry points. Each exists twice: releasing the GIL (for long solves, so other
# threads run) and holding it (for a solve's first few thousand nodes, where releasing
# and taking back the GIL would cost more than the search itself: small solves take
# a microsecond or two). Pausing and resuming lets one solve use both. One factory
# makes both pairs, each variant named apart (``kernel_cache.named_variant``).


def _entry_points(release_gil: bool) -> tuple[Any, Any]:
    """``(solve, analyze)`` compiled to release the GIL or to hold it."""
    variant = "releasing_gil" if release_gil else "holding_gil"

    @njit(cache=True, nogil=release_gil)
    @kernel_cache.named_variant(variant)
    def solve(
        current: int,
        mask: int,
        moves: int,
        weak: bool,
        window_low: int,
        window_high: int,
        table: np.ndarray,
        hash_shift: int,
        generation: int,
        book_keys: np.ndarray,
        book_scores: np.ndarray,
        book_max_moves: int,
        level_scores: np.ndarray,
        level_bases: np.ndarray,
        level_ranks: np.ndarray,
        level_moves: int,
        counters: np.ndarray,
        stack: np.ndarray,
        resume: bool,
    ) -> int:
        """The score of an unfinished position: the entry point for one position.

        ``window_low`` and ``window_high`` narrow the search as in ``_solve`` (pass
        ``-CELLS`` and ``CELLS`` for none).

        A fresh call (``resume`` false) counts nodes from 0 in ``counters``. If the
        count reaches ``counters[PAUSE_AT]`` (when positive), the call returns early
        with ``counters[PAUSED]`` set and a meaningless result; calling again with
        ``resume`` true (same position, ``counters`` and ``stack``) carries on.
        ``stack`` is an ``int64`` array of shape ``(MAX_FRAMES, STACK_COLUMNS)``.
        """
        counters[PAUSED] = 0
        if not resume:
            counters[NODES] = 0
        return _solve(
            current,
            mask,
            moves,
            weak,
            window_low,
            window_high,
            table,
            hash_shift,
            generation,
            book_keys,
            book_scores,
            book_max_moves,
            level_scores,
            level_bases,
            level_ranks,
            level_moves,
            counters,
            stack,
            resume,
        )

    @njit(cache=True, nogil=release_gil)
    @kernel_cache.named_variant(variant)
    def analyze(
        current: int,
        mask: int,
        moves: int,
        weak: bool,
        table: np.ndarray,
        hash_shift: int,
        generation: int,
        book_keys: np.ndarray,
        book_scores: np.ndarray,
        book_max_moves: int,
        level_scores: np.ndarray,
        level_bases: np.ndarray,
        level_ranks: np.ndarray,
        level_moves: int,
        counters: np.ndarray,
        stack: np.ndarray,
        scores: np.ndarray,
        resume: bool,
    ) -> None:
        """Fill ``scores[c]`` with the score of playing column ``c`` (``INVALID_MOVE`` if full).

        Scores are from the side to move's view, in the same convention as ``solve``.
        Pauses and resumes as ``solve`` does; ``counters[COLUMN]`` is the column
        being solved at the pause (the columns before it are already in ``scores``).
        """
        counters[PAUSED] = 0
        first_column = 0
        if resume:
            first_column = counters[COLUMN]
        else:
            counters[NODES] = 0
        own_wins = winning_spots(current, mask)
        for column in range(first_column, WIDTH):
            move = playable(mask) & column_mask(column)
            resuming = resume and column == first_column
            if move == 0:
                scores[column] = INVALID_MOVE
            elif own_wins & move:
                scores[column] = 1 if weak else (CELLS + 1 - moves) // 2
            else:
                if not resuming:
                    counters[NODES] += 1
                score = _solve(
                    current ^ mask,
                    mask | move,
                    moves + 1,
                    weak,
                    -CELLS,
                    CELLS,
                    table,
                    hash_shift,
                    generation,
                    book_keys,
                    book_scores,
                    book_max_moves,
                    level_scores,
                    level_bases,
                    level_ranks,
                    level_moves,
                    counters,
                    stack,
                    resuming,
                )
                if counters[PAUSED]:
                    counters[COLUMN] = column
                    return
                scores[column] = -score

    return solve, analyze


solve, analyze = _entry_points(release_gil=True)
solve_holding_gil, analyze_holding_gil = _entry_points(release_gil=False)
