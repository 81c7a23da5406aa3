"""Every scoring weight of the Gomoku engine, in one place.

Arrays are indexed by pattern code (``abgames.ai.gomoku.patterns``):
DEAD, B1, F1, B2, F2, B3, F3, B4, F4, D4, F5, OL.

The evaluation's weights are a runtime vector (``EVAL_WEIGHTS``, named entry by entry
in ``EVAL_NAMES``) that the engine copies into its tables, so a tuning run can play
engines with other weights without recompiling the kernels. The move-ordering weights
are compile-time constants.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from abgames.ai.gomoku.patterns import CODE_COUNT, CODE_NAMES, SHAPE_COUNT, SHAPE_NAMES

# --- move ordering: the value of playing a cell, per direction's code -------------------
ORDER_WEIGHTS = np.array([0, 1, 3, 6, 20, 25, 120, 140, 1500, 1500, 0, 0], np.int32)
#: Bonuses for combinations across the four directions of one cell.
CELL_FIVE = 1_000_000
CELL_STRAIGHT_FOUR = 100_000
CELL_DOUBLE_FOUR = 100_000
CELL_FOUR_THREE = 50_000
CELL_DOUBLE_THREE = 10_000
#: Defending a cell (the opponent's value there) counts this share of attacking it.
DEFENCE_ORDER_PERCENT = 80

# --- evaluation: pattern counts over empty cells (a cell x direction each) --------------
#: For the side to move: its threats are worth more because it moves first. The
#: building patterns (``B2`` to ``F3``) weigh about 1.5 times their defence weights:
#: with less the side that has just moved looks hundreds of units better, and the
#: scores of odd and even depths alternate, so lines whose leaves have different
#: sides to move (reductions, extensions) are misjudged (docs/tuning.md).
ATTACK_WEIGHTS = np.array([0, 0, 1, 3, 9, 12, 60, 50, 4000, 4000, 20000, 0], np.int64)
#: For the opponent: threats the side to move must answer.
DEFENCE_WEIGHTS = np.array([0, 0, 1, 2, 5, 6, 25, 30, 400, 400, 4000, 0], np.int64)

# --- evaluation: combinations of the four lines at one empty cell -----------------------
#: Cells where one stone makes two fours (or a double four on one line).
COMBO_DOUBLE_FOUR = 0
#: Cells where one stone makes a four and a three that becomes a straight four.
COMBO_FOUR_THREE = 1
#: Cells where one stone makes two such threes.
COMBO_DOUBLE_THREE = 2
COMBO_COUNT = 3
COMBO_NAMES = ("double_four", "four_three", "double_three")
#: Per combination cell, for the side to move and for the opponent. The side to move's
#: own combinations are read by the search as static wins where they force one
#: (``search._static_win``); the opponent's are threats to answer, weighted by the
#: matches in docs/tuning.md.
ATTACK_COMBO_WEIGHTS = np.array([0, 0, 0], np.int64)
DEFENCE_COMBO_WEIGHTS = np.array([720, 640, 400], np.int64)

# --- evaluation: cell shapes (``patterns.SHAPE_*``), per cell of each shape --------------
#: What a stone would build across a cell's lines below the combinations above (a four
#: or an open three with a second line, two blocked threes, two open twos): the
#: ground a side's next threats grow from. Read from the board's incremental counts.
ATTACK_SHAPE_WEIGHTS = np.array([80, 120, 40, 30], np.int64)
DEFENCE_SHAPE_WEIGHTS = np.array([60, 80, 30, 20], np.int64)

# --- evaluation: the move in hand ------------------------------------------------------
#: Added for the side to move. At a search's leaves after the root side's move the
#: position judged is the best of many, its errors picked in the root side's favour;
#: with weights that leave this uncorrected the scores of odd depths run hundreds above
#: those of even depths, and this evens them out. The default weights need none: their
#: building patterns favour the side to move instead (``ATTACK_WEIGHTS``; docs/tuning.md).
TEMPO_WEIGHT = 0

#: The evaluation is clamped well inside the heuristic range.
EVAL_LIMIT = 200_000

# --- the runtime vector ------------------------------------------------------------------
#: Offsets of each block in the vector.
EVAL_ATTACK = 0
EVAL_DEFENCE = CODE_COUNT
EVAL_ATTACK_COMBO = 2 * CODE_COUNT
EVAL_DEFENCE_COMBO = 2 * CODE_COUNT + COMBO_COUNT
EVAL_ATTACK_SHAPE = 2 * CODE_COUNT + 2 * COMBO_COUNT
EVAL_DEFENCE_SHAPE = EVAL_ATTACK_SHAPE + SHAPE_COUNT
EVAL_TEMPO = EVAL_DEFENCE_SHAPE + SHAPE_COUNT
#: Not a weight: 1 when some combination weight is not 0 (``eval_weights`` sets it), so
#: the evaluation skips reading the threat sets when they count for nothing.
EVAL_COMBO_ON = EVAL_TEMPO + 1

# --- evaluation: the learned correction (``evaluate.net_score``) -------------------------
#: A small network over the board's counts adds a correction to the weighted sum above
#: when ``NET_ON`` is 1 (``abgames.ai.gomoku.netfile`` loads one into the vector). Its
#: inputs, from the side to move's view: its 16 count columns (pattern codes, then cell
#: shapes) and its three combination counts, the same for the opponent, and the number
#: of stones: ``NET_INPUTS``.
NET_SIDE_COLUMNS = CODE_COUNT + SHAPE_COUNT
NET_SIDE_INPUTS = NET_SIDE_COLUMNS + COMBO_COUNT
NET_INPUTS = 2 * NET_SIDE_INPUTS + 1
#: Most hidden units a network may have (its own count is ``vector[NET_HIDDEN]``); the
#: kernel sums all of them in registers, a smaller network's others at 0.
NET_HIDDEN_MAX = 8
#: Fixed point of the hidden layer: a unit's activation is clipped to 0..NET_SCALE (1.0).
#: Fine enough that the rounding of the input weights moves an evaluation by a few units.
NET_SCALE = 1 << 16
#: Offsets of the network's block: the flag, the hidden count, the output bias, each
#: hidden unit's bias, each one's output weight, then the input weights input by input
#: (``NET_IN + input * NET_HIDDEN_MAX + unit``).
NET_ON = EVAL_COMBO_ON + 1
NET_HIDDEN = NET_ON + 1
NET_OUT_BIAS = NET_HIDDEN + 1
NET_HIDDEN_BIAS = NET_OUT_BIAS + 1
NET_OUT = NET_HIDDEN_BIAS + NET_HIDDEN_MAX
NET_IN = NET_OUT + NET_HIDDEN_MAX
EVAL_LEN = NET_IN + NET_HIDDEN_MAX * NET_INPUTS
#: ``attack.f3``, ``defence.b4``, ``attack.four_three``, ... : one name per weight (the
#: vector's entries from ``EVAL_COMBO_ON`` on are a flag and the network, not weights).
EVAL_NAMES: tuple[str, ...] = (
    tuple(f"attack.{name.lower()}" for name in CODE_NAMES)
    + tuple(f"defence.{name.lower()}" for name in CODE_NAMES)
    + tuple(f"attack.{name}" for name in COMBO_NAMES)
    + tuple(f"defence.{name}" for name in COMBO_NAMES)
    + tuple(f"attack.{name}" for name in SHAPE_NAMES)
    + tuple(f"defence.{name}" for name in SHAPE_NAMES)
    + ("tempo",)
)
EVAL_WEIGHTS: npt.NDArray[np.int64] = np.concatenate(
    (
        ATTACK_WEIGHTS,
        DEFENCE_WEIGHTS,
        ATTACK_COMBO_WEIGHTS,
        DEFENCE_COMBO_WEIGHTS,
        ATTACK_SHAPE_WEIGHTS,
        DEFENCE_SHAPE_WEIGHTS,
        [TEMPO_WEIGHT],
        [int(ATTACK_COMBO_WEIGHTS.any() or DEFENCE_COMBO_WEIGHTS.any())],
        np.zeros(EVAL_LEN - NET_ON),  # no network
    )
).astype(np.int64)
#: The largest magnitude one weight may take (keeps sums far from overflow and WIN).
EVAL_WEIGHT_LIMIT = 1_000_000


def eval_weights(overrides: Mapping[str, int] | None = None) -> npt.NDArray[np.int64]:
    """The default evaluation vector with ``overrides`` (name -> value) applied.

    ``ValueError`` names an unknown entry or a value beyond ``EVAL_WEIGHT_LIMIT``.
    """
    vector = EVAL_WEIGHTS.copy()
    for name, value in (overrides or {}).items():
        if name not in EVAL_NAMES:
            raise ValueError(
                f"{name!r} is not an evaluation weight: choose from {', '.join(EVAL_NAMES)}"
            )
        if not -EVAL_WEIGHT_LIMIT <= value <= EVAL_WEIGHT_LIMIT:
            raise ValueError(f"evaluation weight {name} = {value} is beyond ±{EVAL_WEIGHT_LIMIT:,}")
        vector[EVAL_NAMES.index(name)] = value
    vector[EVAL_COMBO_ON] = int(vector[EVAL_ATTACK_COMBO:EVAL_ATTACK_SHAPE].any())
    return vector
