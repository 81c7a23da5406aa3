"""Tic-tac-toe as a PettingZoo AEC environment, laid out as PettingZoo's ``tictactoe_v3``.

``env(render_mode=None)``; actions 0..8 column by column (``0 3 6 / 1 4 7 / 2 5 8``),
observation ``(3, 3, 2)`` indexed ``[action // 3, action % 3]``. See docs/rl.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from abgames.envs.aec import BoardGameEnv, ObsDict, classic_env
from abgames.envs.boards import TicTacToeCore


class raw_env(BoardGameEnv):
    """The environment without wrappers (PettingZoo's name for it)."""

    metadata: ClassVar[dict[str, Any]] = {**BoardGameEnv.metadata, "name": "abgames_tictactoe_v0"}

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(TicTacToeCore(), render_mode)


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment with PettingZoo's classic wrappers (illegal move: -1, game over)."""
    return classic_env(raw_env(**kwargs))
