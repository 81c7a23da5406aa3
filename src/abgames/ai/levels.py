"""Which AI levels each game offers, and the factory that builds a player for one."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import cast

from abgames.ai.connect4.constants import PERFECT_LEVEL
from abgames.ai.player import AIPlayer
from abgames.games.base import GameState

PlayerFactory = Callable[[str, "int | None"], AIPlayer]

#: Level names per game, in the order menus offer them: weakest first, except that
#: Gomoku's ``classic`` (the textbook baseline) comes last. The default is not the
#: last level: ``DEFAULT_LEVEL`` names it for each game.
LEVELS: dict[str, tuple[str, ...]] = {
    "tictactoe": ("easy", "medium", "hard", "perfect"),
    "connect4": ("easy", "medium", "hard", "perfect"),
    "gomoku": ("easy", "medium", "hard", "max", "classic"),
}

DEFAULT_LEVEL: dict[str, str] = {
    "tictactoe": "perfect",
    "connect4": "hard",
    "gomoku": "hard",
}

#: The level that answers a hint (and labels its analysis): Connect Four's is the
#: solver, so a hint shows the exact scores the ``perfect`` player plays by.
HINT_LEVEL: dict[str, str] = {**DEFAULT_LEVEL, "connect4": PERFECT_LEVEL}

__all__ = [
    "DEFAULT_LEVEL",
    "HINT_LEVEL",
    "LEVELS",
    "PERFECT_LEVEL",
    "PlayerFactory",
    "UnknownLevelError",
    "make_player",
    "player_for",
]

#: The module holding each game's ``make_player(level, seed)``. Imported on first use,
#: so that choosing tic-tac-toe never loads (or compiles) another game's kernels.
_FACTORY_MODULES: dict[str, str] = {
    "tictactoe": "abgames.ai.tictactoe",
    "connect4": "abgames.ai.connect4.players",
    "gomoku": "abgames.ai.gomoku.player",
}


def _factory(game: str) -> PlayerFactory:
    module = importlib.import_module(_FACTORY_MODULES[game])
    return cast(PlayerFactory, module.make_player)


class UnknownLevelError(ValueError):
    """A level name the game does not offer."""


def make_player(
    game: str,
    level: str,
    seed: int | None = None,
    eval_overrides: tuple[tuple[str, int], ...] = (),
    search_overrides: tuple[tuple[str, int], ...] = (),
) -> AIPlayer:
    """An AI player for ``game`` at ``level``; ``seed`` varies its choice among equal moves.

    ``eval_overrides`` and ``search_overrides`` (Gomoku engine levels only) replace
    evaluation weights (``abgames.ai.gomoku.weights.EVAL_NAMES``) and search settings
    (``abgames.ai.gomoku.settings.SEARCH_SWITCHES``, ``SEARCH_NUMBERS``) by name, as a
    tuning run's candidates and arena experiments do; ``ValueError`` names a weight,
    setting, value or level that cannot take them.
    """
    levels = LEVELS.get(game)
    if levels is None:
        raise UnknownLevelError(f"unknown game {game!r}: choose {', '.join(LEVELS)}")
    if level not in levels:
        raise UnknownLevelError(f"{game} has no level {level!r}: choose {', '.join(levels)}")
    if eval_overrides or search_overrides:
        if game != "gomoku":
            what = "evaluation weights" if eval_overrides else "search settings"
            raise ValueError(f"{what} are for Gomoku levels, not {game}")
        from abgames.ai.gomoku.player import make_tuned_player

        return make_tuned_player(level, seed, eval_overrides, search_overrides)
    return _factory(game)(level, seed)


def player_for(state: GameState, level: str, seed: int | None = None) -> AIPlayer:
    return make_player(state.name, level, seed)
