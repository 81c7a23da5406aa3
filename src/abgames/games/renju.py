"""Renju forbidden points for black: double-three, double-four and overline."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from abgames.games.gomoku import Gomoku


def forbidden_kind(state: Gomoku, point: int) -> str | None:
    """Placeholder until the Renju rules land: nothing is forbidden yet."""
    raise NotImplementedError("Renju rules are not implemented yet")
