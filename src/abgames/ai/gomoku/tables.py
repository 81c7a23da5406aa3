# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""The search's memory, and the slots the kernels and Python share.

- ``Tables``: transposition tables (``TT_BITS``; entries ``EXACT``/``LOWER``/``UPPER``),
  the solvers' failure table, killers and history, move buffers, the triangular
  principal variation, the stop flag, the counters (``S_*``: slots of ``stats``), the
  settings (``C_*``: slots of ``config``, one per ``CONFIG_FIELDS`` entry, each an
  ``EngineSettings`` field) and the evaluation's weights. ``new_tables`` makes them;
  ``TABLES_TYPE`` is their numba type, for the kernels' signatures.
- ``stop_requested``: the check every search kernel makes. The stop flag
  ``tables.stop[0]`` is read every ``CHECK_INTERVAL`` nodes, so another thread (the time
  keeper, or ``stop()``) can end a search; the result is then flagged aborted
  (``stats[S_ABORTED]``) and must be ignored.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, typeof

from abgames.ai import kernel_cache
from abgames.ai.gomoku.weights import EVAL_WEIGHTS

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

MAX_PLY = 256
MAX_MOVES = 512
CHECK_INTERVAL = 1023  # a mask: look at the stop flag every 1024 nodes
TT_BITS = 20
VCF_TT_BITS = 20
#: Entries of the proof-number solver's table (``proof.proof_vct``).
PROOF_BITS = 18

#: What a transposition-table entry's score is (``tt_flag``): exact, a lower or an upper bound.
EXACT = 0
LOWER = 1
UPPER = 2

# Indexes into ``Tables.stats``.
S_NODES = 0
S_TT_HITS = 1
S_CUTOFFS = 2
S_ABORTED = 3
S_VCF_NODES = 4
S_VCF_LIMIT = 5
S_VCF_EXHAUSTED = 6
S_SELDEPTH = 7
S_VCF_SPAN = 8  # set by a VCF's caller: ``C_LEAF_VCF_SPAN`` at the leaves, 0 elsewhere
S_VCF_ROOT = 9  # the ply a VCF started at (its first four is not restricted)
STATS_LEN = 10

#: The settings a search reads, one slot of ``Tables.config`` each, in slot order: the
#: ``EngineSettings`` field the slot holds (a switch as 0 or 1). The engine fills the
#: slots from these names; the kernels read them by the ``C_*`` indexes below.
CONFIG_FIELDS = (
    "beam",  # candidates kept at an ordinary node (0: all)
    "threats",  # 1: forced replies restrict the moves (four, open three)
    "leaf_vcf_depth",  # VCF depth tried at the leaves (0: none)
    "leaf_vcf_nodes",  # node budget of one leaf VCF
    "late_move_reductions",  # 1: late-move reductions of quiet moves
    "four_extension",  # plies the block of a four gains back (0, 1, 2: the pair is free)
    "three_extension",  # plies a plain answer to an open three gains back (0, 1, 2)
    "extension_limit",  # free pairs (gains of 2) allowed on one path
    "futility_depth",  # null-window nodes shallower than this may stand on the evaluation
    "futility_margin",  # per ply of depth: how far above beta the evaluation must be
    "razor_depth",  # null-window nodes shallower than this may fail low on the evaluation
    "razor_margin",  # per ply of depth: how far below alpha the evaluation must be
    "lmr_min_depth",  # late-move reductions at nodes of at least this depth
    "lmr_after",  # moves searched in full before reductions start
    "lmr_deep_after",  # moves searched at most one ply shallower before deep reductions
    "static_wins",  # 1: a node whose side to move has a shape that wins by force scores it
    "frontier_beam",  # candidates kept at a null-window frontier node (0: as C_BEAM)
    "leaf_vcf_span",  # a leaf VCF's later fours: this far along a line of the last (0: any)
    "frontier_near_beam",  # there, moves near the opponent's last kept up to this many
    "frontier_depth",  # frontier nodes: null-window nodes of at most this depth
    "keep_threats",  # moves past the beam kept when they build a threat for either side
    "move_count_base",  # null-window nodes try at most base + depth^1.5 moves (0: no limit)
)
CONFIG_LEN = len(CONFIG_FIELDS)
C_BEAM = CONFIG_FIELDS.index("beam")
C_THREATS = CONFIG_FIELDS.index("threats")
C_LEAF_VCF = CONFIG_FIELDS.index("leaf_vcf_depth")
C_LEAF_VCF_NODES = CONFIG_FIELDS.index("leaf_vcf_nodes")
C_LMR = CONFIG_FIELDS.index("late_move_reductions")
C_FOUR_EXTENSION = CONFIG_FIELDS.index("four_extension")
C_THREE_EXTENSION = CONFIG_FIELDS.index("three_extension")
C_EXTENSION_LIMIT = CONFIG_FIELDS.index("extension_limit")
C_FUTILITY_DEPTH = CONFIG_FIELDS.index("futility_depth")
C_FUTILITY_MARGIN = CONFIG_FIELDS.index("futility_margin")
C_RAZOR_DEPTH = CONFIG_FIELDS.index("razor_depth")
C_RAZOR_MARGIN = CONFIG_FIELDS.index("razor_margin")
C_LMR_MIN_DEPTH = CONFIG_FIELDS.index("lmr_min_depth")
C_LMR_AFTER = CONFIG_FIELDS.index("lmr_after")
C_LMR_DEEP_AFTER = CONFIG_FIELDS.index("lmr_deep_after")
C_STATIC_WINS = CONFIG_FIELDS.index("static_wins")
C_FRONTIER_BEAM = CONFIG_FIELDS.index("frontier_beam")
C_LEAF_VCF_SPAN = CONFIG_FIELDS.index("leaf_vcf_span")
C_FRONTIER_NEAR_BEAM = CONFIG_FIELDS.index("frontier_near_beam")
C_FRONTIER_DEPTH = CONFIG_FIELDS.index("frontier_depth")
C_KEEP_THREATS = CONFIG_FIELDS.index("keep_threats")
C_MOVE_COUNT_BASE = CONFIG_FIELDS.index("move_count_base")


class Tables(NamedTuple):
    """The search's memory: transposition tables, ordering tables, buffers, flags."""

    tt_key: npt.NDArray[np.int64]
    tt_score: npt.NDArray[np.int32]
    tt_depth: npt.NDArray[np.int16]
    tt_flag: npt.NDArray[np.int8]
    tt_move: npt.NDArray[np.int32]
    vcf_key: npt.NDArray[np.int64]
    vcf_depth: npt.NDArray[np.int16]
    killers: npt.NDArray[np.int32]  # [ply, 2]
    history: npt.NDArray[np.int64]  # [player, cell]
    moves: npt.NDArray[np.int32]  # [ply, MAX_MOVES] move lists
    order: npt.NDArray[np.int64]  # [ply, MAX_MOVES] their ordering keys
    pv: npt.NDArray[np.int32]  # [ply, MAX_PLY] triangular principal variations
    pv_length: npt.NDArray[np.int32]
    stop: npt.NDArray[np.int64]  # [1], set non-zero from any thread to stop
    stats: npt.NDArray[np.int64]
    config: npt.NDArray[np.int64]
    weights: npt.NDArray[np.int64]  # the evaluation's weights (``weights.EVAL_NAMES``)
    free_pairs: npt.NDArray[np.int32]  # [ply] free pairs on the path to the node at ply
    proof_key: npt.NDArray[np.int64]  # the proof-number solver's table: keys,
    proof_numbers: npt.NDArray[np.int32]  # [entry, 2] proof and disproof numbers,
    proof_length: npt.NDArray[np.int16]  # attacker moves to the five of a proved node


def new_tables(cells: int, tt_bits: int = TT_BITS) -> Tables:
    """Fresh tables for a board of ``cells`` engine cells (as ``reset_tables`` leaves them).

    Every page is written here, where the tables are made (an engine's warm-up), rather
    than on the first touch of each inside a timed search.
    """
    size = 1 << tt_bits
    tables = Tables(
        tt_key=np.empty(size, np.int64),
        tt_score=np.empty(size, np.int32),
        tt_depth=np.empty(size, np.int16),
        tt_flag=np.empty(size, np.int8),
        tt_move=np.empty(size, np.int32),
        vcf_key=np.empty(1 << VCF_TT_BITS, np.int64),
        vcf_depth=np.empty(1 << VCF_TT_BITS, np.int16),
        killers=np.empty((MAX_PLY, 2), np.int32),
        history=np.empty((2, cells), np.int64),
        moves=np.empty((MAX_PLY + 1, MAX_MOVES), np.int32),
        order=np.empty((MAX_PLY + 1, MAX_MOVES), np.int64),
        pv=np.empty((MAX_PLY + 1, MAX_PLY + 1), np.int32),
        pv_length=np.empty(MAX_PLY + 1, np.int32),
        stop=np.empty(1, np.int64),
        stats=np.empty(STATS_LEN, np.int64),
        config=np.empty(CONFIG_LEN, np.int64),
        weights=np.empty_like(EVAL_WEIGHTS),
        free_pairs=np.empty(MAX_PLY + 2, np.int32),
        proof_key=np.empty(1 << PROOF_BITS, np.int64),
        proof_numbers=np.empty((1 << PROOF_BITS, 2), np.int32),
        proof_length=np.empty(1 << PROOF_BITS, np.int16),
    )
    reset_tables(tables)
    return tables


def reset_tables(tables: Tables) -> None:
    """Forget everything ``tables`` learnt: as ``new_tables`` made them (for a board of
    another rule, whose positions the tables' entries do not describe)."""
    tables.tt_key.fill(0)
    tables.tt_score.fill(0)
    tables.tt_depth.fill(-1)
    tables.tt_flag.fill(0)
    tables.tt_move.fill(-1)
    tables.vcf_key.fill(0)
    tables.vcf_depth.fill(0)
    tables.killers.fill(-1)
    tables.history.fill(0)
    tables.moves.fill(0)
    tables.order.fill(0)
    tables.pv.fill(0)
    tables.pv_length.fill(0)
    tables.stop.fill(0)
    tables.stats.fill(0)
    tables.config.fill(0)
    tables.weights[:] = EVAL_WEIGHTS
    tables.free_pairs.fill(0)
    tables.proof_key.fill(0)
    tables.proof_numbers.fill(0)
    tables.proof_length.fill(0)


TABLES_TYPE = typeof(new_tables(1, tt_bits=1))


@njit(cache=True, nogil=True, _nrt=False)
def stop_requested(stats: npt.NDArray[np.int64], stop: npt.NDArray[np.int64]) -> bool:
    """Whether to stop: already aborted, or the stop flag is up (polled every 1024 nodes)."""
    if stats[S_ABORTED] != 0:
        return True
    polled = (stats[S_NODES] + stats[S_VCF_NODES]) & CHECK_INTERVAL == 0
    if polled and stop[0] != 0:
        stats[S_ABORTED] = 1
        return True
    return False
