"""The Connect Four player of each level: ``perfect`` is the solver, the others the heuristic.

The solver (numba) is imported only when a ``perfect`` player is made, so the other
levels start without loading the compiler.
"""

from __future__ import annotations

from abgames.ai.connect4 import heuristic
from abgames.ai.connect4.constants import PERFECT_LEVEL
from abgames.ai.player import AIPlayer


def make_player(level: str, seed: int | None = None) -> AIPlayer:
    """A player of ``level``; ``seed`` varies the heuristic levels' choice among equal moves.

    The perfect player is deterministic (best score, then the centre) and ignores it.
    """
    if level == PERFECT_LEVEL:
        from abgames.ai.connect4.perfect import PerfectPlayer

        return PerfectPlayer(level)
    return heuristic.make_player(level, seed)
