"""Our players as OpenSpiel bots, on OpenSpiel's own games and action numbering.

``bot(game, level)`` returns a ``pyspiel.Bot`` for OpenSpiel's ``tic_tac_toe``,
``connect_four`` or ``gomoku`` (a loaded ``pyspiel.Game`` or its name), so
``evaluate_bots``, ``MCTSBot`` and the rest of OpenSpiel's tools play against ours.
The bot reads the position from the state's action history each move; OpenSpiel's
numbering matches ours here:

- ``tic_tac_toe``: action ``row * 3 + column``, row 0 on top: our cell numbers.
- ``connect_four``: the column; any ``rows``/``columns`` our rack allows (4..9),
  ``x_in_row`` 4.
- ``gomoku``: action ``row * size + column``, row 0 on top: our points. OpenSpiel's
  rule is five or more (``connect`` 5, an overline wins): our freestyle. Its
  ``anti``, ``wrap`` and more than 2 ``dims`` have no counterpart and are refused.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from abgames.envs.opponent import make_opponent
from abgames.games.base import GameState
from abgames.games.connect4 import ConnectFour
from abgames.games.gomoku import Gomoku, Rule
from abgames.games.tictactoe import TicTacToe

#: OpenSpiel's game names and ours.
OPENSPIEL_NAMES = {"tic_tac_toe": "tictactoe", "connect_four": "connect4", "gomoku": "gomoku"}


def _params(game: Any) -> dict[str, Any]:
    return dict(game.get_parameters())


def new_state_for(game: Any) -> GameState:
    """An empty state of ours matching the OpenSpiel ``game``; ``ValueError`` if none does."""
    name = game.get_type().short_name
    params = _params(game)
    if name == "tic_tac_toe":
        return TicTacToe()
    if name == "connect_four":
        if params.get("x_in_row", 4) != 4:
            raise ValueError(f"connect_four with x_in_row={params['x_in_row']}: ours is four")
        return ConnectFour(int(params.get("columns", 7)), int(params.get("rows", 6)))
    if name == "gomoku":
        if params.get("connect", 5) != 5 or params.get("anti") or params.get("wrap"):
            raise ValueError(f"gomoku with {params}: ours is five or more, no wrap, no anti")
        if params.get("dims", 2) != 2:
            raise ValueError(f"gomoku with dims={params['dims']}: ours is a 2-D board")
        return Gomoku(int(params.get("size", 15)), Rule.FREESTYLE)
    raise ValueError(f"OpenSpiel's {name!r} is not ours: choose {', '.join(OPENSPIEL_NAMES)}")


def state_from_openspiel(game: Any, spiel_state: Any) -> GameState:
    """Our state after the moves of ``spiel_state`` (the action numbers are our moves)."""
    state = new_state_for(game)
    for action in spiel_state.history():
        state.play(int(action))
    return state


class AbgamesBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our levels (or baselines) answering OpenSpiel states."""

    def __init__(
        self, game: Any, level: str, seed: int | None = None, think_seconds: float | None = None
    ) -> None:
        pyspiel.Bot.__init__(self)
        self.game = game
        self.level = level
        self.think_seconds = think_seconds
        ours = new_state_for(game).name
        self.player = make_opponent(ours, level, seed)

    def step(self, state: Any) -> int:
        ours = state_from_openspiel(self.game, state)
        if self.think_seconds is None:
            result = self.player.choose(ours)
        else:
            result = None
            for result in self.player.think_within(ours, self.think_seconds):  # noqa: B007
                pass
        if result is None or result.move is None:
            return int(pyspiel.INVALID_ACTION)
        return int(result.move)

    def restart_at(self, state: Any) -> None:
        """Nothing to do: each step reads the whole history."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to do: each step reads the whole history."""

    def provides_policy(self) -> bool:
        return False


def bot(
    game: Any, level: str, seed: int | None = None, think_seconds: float | None = None
) -> AbgamesBot:
    """A ``pyspiel.Bot`` playing ``level`` on OpenSpiel's ``game`` (a ``pyspiel.Game`` or
    ``"tic_tac_toe"``, ``"connect_four"``, ``"gomoku"``, or ours: ``"tictactoe"``...).

    ``think_seconds`` caps each move (Gomoku's engine levels); ``seed`` varies the
    choice among equal moves.
    """
    if isinstance(game, str):
        ours_to_theirs = {ours: theirs for theirs, ours in OPENSPIEL_NAMES.items()}
        game = pyspiel.load_game(ours_to_theirs.get(game, game))
    return AbgamesBot(game, level, seed, think_seconds)
