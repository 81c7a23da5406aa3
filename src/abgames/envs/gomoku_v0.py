"""Gomoku (freestyle, standard, Renju) as a PettingZoo AEC environment.

``env(size=15, rule="freestyle", render_mode=None)``; the action is the point
``y * size + x`` (``x`` from the left, ``y`` from the top, as OpenSpiel's ``gomoku``),
observation ``(size, size, 2)`` indexed ``[y, x]``. In Renju black's forbidden points
are masked; playing one anyway is an illegal move (-1, game over). See docs/rl.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from abgames.envs.aec import BoardGameEnv, ObsDict, classic_env
from abgames.envs.boards import GomokuCore
from abgames.games.gomoku import DEFAULT_SIZE, Rule


class raw_env(BoardGameEnv):
    """The environment without wrappers (PettingZoo's name for it)."""

    metadata: ClassVar[dict[str, Any]] = {**BoardGameEnv.metadata, "name": "abgames_gomoku_v0"}

    def __init__(
        self,
        size: int = DEFAULT_SIZE,
        rule: Rule | str = Rule.FREESTYLE,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(GomokuCore(size, rule), render_mode, size=size, rule=str(rule))


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment with PettingZoo's classic wrappers (illegal move: -1, game over)."""
    return classic_env(raw_env(**kwargs))
