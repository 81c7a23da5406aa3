"""Which AI levels each game offers, and the factory that builds a player for one."""

from __future__ import annotations

from collections.abc import Callable

from abgames.ai.connect4 import heuristic as connect4_heuristic
from abgames.ai.gomoku import player as gomoku_player
from abgames.ai.player import AIPlayer
from abgames.ai.tictactoe import make_player as tictactoe_player
from abgames.games.base import GameState

PlayerFactory = Callable[[str, "int | None"], AIPlayer]

#: Level names per game, weakest first; the last is the default.
LEVELS: dict[str, tuple[str, ...]] = {
    "tictactoe": ("easy", "medium", "hard", "perfect"),
    "connect4": ("easy", "medium", "hard"),
    "gomoku": ("easy", "medium", "hard", "max", "classic"),
}

DEFAULT_LEVEL: dict[str, str] = {
    "tictactoe": "perfect",
    "connect4": "hard",
    "gomoku": "hard",
}

_FACTORIES: dict[str, PlayerFactory] = {
    "tictactoe": tictactoe_player,
    "connect4": connect4_heuristic.make_player,
    "gomoku": gomoku_player.make_player,
}


class UnknownLevelError(ValueError):
    """A level name the game does not offer."""


def make_player(game: str, level: str, seed: int | None = None) -> AIPlayer:
    """An AI player for ``game`` at ``level``; ``seed`` varies its choice among equal moves."""
    levels = LEVELS.get(game)
    if levels is None:
        raise UnknownLevelError(f"unknown game {game!r}: choose {', '.join(LEVELS)}")
    if level not in levels:
        raise UnknownLevelError(f"{game} has no level {level!r}: choose {', '.join(levels)}")
    return _FACTORIES[game](level, seed)


def player_for(state: GameState, level: str, seed: int | None = None) -> AIPlayer:
    return make_player(state.name, level, seed)
