"""Matches on the server: rebuilt from save files without AI players, options checked.

The server's ``Match`` never searches (searches run in the pool's workers); its AI
seats hold a stand-in that only checks the level. The settings that describe a match
(mode, first, level) come from ``abgames.match.describe_seats``, as the desktop's do.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from abgames.ai.levels import DEFAULT_LEVEL, LEVELS, UnknownLevelError
from abgames.ai.player import AIPlayer
from abgames.games import GameState
from abgames.match import HUMAN, Match, SaveFileError, Seat, describe_seats
from abgames.search.result import SearchResult
from abgames.ui.web.errors import BadInput

#: Each game's board options and their types.
OPTION_TYPES: dict[str, dict[str, type]] = {
    "tictactoe": {},
    "connect4": {"width": int, "height": int},
    "gomoku": {"size": int, "rule": str},
}


class NoSearch(AIPlayer):
    """The server's stand-in for an AI player: it checks the level, never searches."""

    def __init__(self, level: str) -> None:
        self.level = level

    def think(self, state: GameState) -> Iterator[SearchResult]:
        raise RuntimeError("the web server never searches on its own process")

    def stop(self) -> None:
        return None


def no_search_player(game: str, level: str, seed: int | None) -> AIPlayer:
    """``NoSearch`` at ``level``; ``UnknownLevelError`` for a level the game lacks."""
    levels = LEVELS.get(game, ())
    if level not in levels:
        raise UnknownLevelError(f"{game} has no level {level!r}: choose {', '.join(levels)}")
    return NoSearch(level)


def rebuild(record: object, seed: int | None = None) -> Match:
    """A ``Match`` from a save-file dictionary, without making AI players.

    ``SaveFileError`` names what is wrong (as ``Match.from_record`` does).
    """
    if not isinstance(record, dict):
        raise SaveFileError("this is not an abgames save file")
    players = record.get("players")
    levels = record.get("levels", [None, None])
    rules = Match.from_record(dict(record, players=[HUMAN, HUMAN], levels=[None, None]))
    if not (isinstance(players, list) and len(players) == 2):
        raise SaveFileError("the save file must name two players")
    if not (isinstance(levels, list) and len(levels) == 2):
        raise SaveFileError("the save file must name two levels")
    try:
        seats = (Seat(players[0], levels[0]), Seat(players[1], levels[1]))
        return Match(rules.state, seats, seed=seed, player_factory=no_search_player)
    except (TypeError, ValueError) as error:
        raise SaveFileError(f"bad players in the save file: {error}") from None


def check_options(game: str, options: dict[str, Any]) -> None:
    """``BadInput`` for an option the game does not have or of the wrong type."""
    known = OPTION_TYPES[game]
    for name, value in options.items():
        kind = known.get(name)
        if kind is None:
            allowed = ", ".join(known) or "none"
            raise BadInput(f"{game} has no option {name!r} (its options: {allowed})")
        if type(value) is not kind:
            raise BadInput(f"option {name!r} must be {'a number' if kind is int else 'text'}")


def settings_of(match: Match) -> tuple[str, str, str]:
    """(mode, first, level) describing a match's seats (the game's default level if no AI)."""
    mode, first, level = describe_seats(match.seats)
    return mode, first, level or DEFAULT_LEVEL[match.game]
