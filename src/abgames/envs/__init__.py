"""The games as reinforcement-learning environments (the optional ``rl`` extra).

- PettingZoo AEC environments, classic conventions: ``tictactoe_v0``, ``connect4_v0``,
  ``gomoku_v0`` (``.env(...)``, ``.raw_env(...)``).
- ``opponent_env(game, level, **options)``: a Gymnasium environment against one of
  our players; importing this package registers ``abgames/TicTacToe-v0``,
  ``abgames/ConnectFour-v0`` and ``abgames/Gomoku-v0`` with Gymnasium.
- ``abgames.envs.openspiel.bot(game, level)``: our players as OpenSpiel bots
  (imported on its own: it needs ``pyspiel``).
- ``abgames.envs.ladder``: a policy rated against our levels' measured Elo.

See docs/rl.md. Imports ``ai``, ``games`` and ``match``, never ``ui``.
"""

from abgames.envs import connect4_v0, gomoku_v0, tictactoe_v0
from abgames.envs.opponent import GYM_IDS, OpponentEnv, opponent_env, register_envs

register_envs()

__all__ = [
    "GYM_IDS",
    "OpponentEnv",
    "connect4_v0",
    "gomoku_v0",
    "opponent_env",
    "register_envs",
    "tictactoe_v0",
]
