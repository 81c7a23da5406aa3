"""Every scoring weight of the Gomoku engine, in one place.

Arrays are indexed by pattern code (``abgames.ai.gomoku.patterns``):
DEAD, B1, F1, B2, F2, B3, F3, B4, F4, D4, F5, OL.
"""

from __future__ import annotations

import numpy as np

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
#: For the side to move: its threats are worth more because it moves first.
ATTACK_WEIGHTS = np.array([0, 0, 1, 2, 6, 8, 40, 50, 4000, 4000, 20000, 0], np.int32)
#: For the opponent: threats the side to move must answer.
DEFENCE_WEIGHTS = np.array([0, 0, 1, 2, 5, 6, 25, 30, 400, 400, 4000, 0], np.int32)
#: The evaluation is clamped well inside the heuristic range.
EVAL_LIMIT = 200_000
