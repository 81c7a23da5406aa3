"""The rules of each game and nothing else; this package imports nothing of ours."""

from abgames.games.base import (
    FIRST,
    SECOND,
    GameState,
    IllegalMoveError,
    Move,
    NotationError,
    Outcome,
    Player,
)
from abgames.games.connect4 import ConnectFour
from abgames.games.gomoku import Gomoku, Rule
from abgames.games.tictactoe import TicTacToe

GAMES: dict[str, type[GameState]] = {
    TicTacToe.name: TicTacToe,
    ConnectFour.name: ConnectFour,
    Gomoku.name: Gomoku,
}

__all__ = [
    "FIRST",
    "GAMES",
    "SECOND",
    "ConnectFour",
    "GameState",
    "Gomoku",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Outcome",
    "Player",
    "Rule",
    "TicTacToe",
]
