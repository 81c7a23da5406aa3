"""Connect Four as a PettingZoo AEC environment, laid out as PettingZoo's ``connect_four_v3``.

``env(width=7, height=6, render_mode=None)``; the action is the column (0 = left),
observation ``(height, width, 2)`` with row 0 at the top. See docs/rl.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from abgames.envs.aec import BoardGameEnv, ObsDict, classic_env
from abgames.envs.boards import ConnectFourCore
from abgames.games.connect4 import DEFAULT_HEIGHT, DEFAULT_WIDTH


class raw_env(BoardGameEnv):
    """The environment without wrappers (PettingZoo's name for it)."""

    metadata: ClassVar[dict[str, Any]] = {**BoardGameEnv.metadata, "name": "abgames_connect4_v0"}

    def __init__(
        self,
        width: int = DEFAULT_WIDTH,
        height: int = DEFAULT_HEIGHT,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(ConnectFourCore(width, height), render_mode, width=width, height=height)


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment with PettingZoo's classic wrappers (illegal move: -1, game over)."""
    return classic_env(raw_env(**kwargs))
