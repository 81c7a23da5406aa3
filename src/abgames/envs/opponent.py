"""A single-agent Gymnasium environment: the agent against one of our players.

``OpponentEnv(game, opponent="perfect", first="random", **options)`` (registered as
``abgames/TicTacToe-v0``, ``abgames/ConnectFour-v0``, ``abgames/Gomoku-v0``): the
opponent is a level of ``abgames.ai.levels`` (``easy`` .. ``perfect``, Gomoku's
``medium`` .. ``classic``) or a one-ply baseline of ``abgames.ai.baselines``
(``random``, ``greedy``, ``safe``). ``first`` says who moves first: ``"agent"``,
``"opponent"`` or ``"random"`` (drawn each episode from the reset's seed).

Observations and actions are those of the PettingZoo environment of the same game
(``abgames.envs.boards``), always from the agent's view. ``step`` plays the agent's
action and then the opponent's answer; the reward is +1 / -1 / 0 when the game
ends (win / loss / draw), 0 before. An action the mask forbids ends the episode
with ``illegal_reward`` (-1), as PettingZoo's classic environments do.

The opponent is made anew at each reset with a seed drawn from the environment's
generator, so ``reset(seed=s)`` replays the same episode for the same actions
(levels limited by time — Gomoku's — depend on the machine's speed; give
``think_seconds=None`` and a depth-limited level for exact replays).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from abgames.ai.baselines import BASELINES, make_baseline
from abgames.ai.levels import LEVELS, make_player
from abgames.ai.player import AIPlayer
from abgames.envs.boards import BoardCore, Int8Array, make_core
from abgames.envs.render import RgbArray, rgb_array
from abgames.search.result import SearchResult

FIRST_CHOICES = ("agent", "opponent", "random")
RENDER_MODES = ["ansi", "rgb_array"]
ObsDict = dict[str, Int8Array]


def make_opponent(game: str, level: str, seed: int | None) -> AIPlayer:
    """A player of ``level`` (a search level or a baseline) for ``game``."""
    if level in BASELINES:
        return make_baseline(level, seed)
    if level not in LEVELS.get(game, ()):
        choices = ", ".join((*BASELINES, *LEVELS.get(game, ())))
        raise ValueError(f"{game} has no opponent {level!r}: choose {choices}")
    return make_player(game, level, seed)


#: Levels whose choice is a function of the position alone (depth-limited, exact root
#: scores; Connect Four's perfect player is deterministic): their best moves are kept
#: per position, and the environment's generator picks among equal ones, as the
#: level's own seed would. Training loops replay positions thousands of times.
CACHED_LEVELS: dict[str, tuple[str, ...]] = {
    "tictactoe": LEVELS["tictactoe"],
    "connect4": ("perfect",),
}
CACHE_LIMIT = 1_000_000
_BEST_MOVES: dict[tuple[str, str, tuple[tuple[str, object], ...], int], tuple[int, ...]] = {}


def best_moves(result: SearchResult) -> tuple[int, ...]:
    """The moves sharing the best root score of ``result`` (its own move if it has none)."""
    assert result.move is not None
    scores = result.root_scores
    if not result.root_scores_exact or not scores:
        return (result.move,)
    top = max(scores.values())
    best = tuple(sorted(move for move, score in scores.items() if score == top))
    return best if result.move in best else (result.move,)


class OpponentEnv(gymnasium.Env[ObsDict, np.int64]):
    """One of our players on the other side of the board; see the module docstring."""

    #: Gymnasium declares ``metadata`` an instance variable; a ClassVar would not type-check.
    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        game: str = "tictactoe",
        opponent: str = "perfect",
        first: str = "random",
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        think_seconds: float | None = None,
        **options: Any,
    ) -> None:
        if first not in FIRST_CHOICES:
            raise ValueError(f"first={first!r}: choose {', '.join(FIRST_CHOICES)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: choose {', '.join(RENDER_MODES)}")
        self.core: BoardCore = make_core(game, **options)
        self.game = game
        self.level = opponent
        make_opponent(game, opponent, 0)  # the name is checked now, not at the first reset
        self.first = first
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.think_seconds = think_seconds
        core = self.core
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(0, 1, (core.rows, core.cols, 2), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (core.actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(core.actions)
        self.agent_player = 0
        self.opponent: AIPlayer | None = None
        self._over = True

    # --- helpers -------------------------------------------------------------------
    def _observation(self) -> ObsDict:
        core = self.core
        mask = core.mask if core.to_move == self.agent_player else np.zeros_like(core.mask)
        return {
            "observation": core.planes[self.agent_player].copy(),
            "action_mask": mask.copy(),
        }

    def _info(self) -> dict[str, Any]:
        return {"agent_first": self.agent_player == 0, "moves": self.core.state.notation()}

    def _reward(self) -> float:
        outcome = self.core.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == self.agent_player else -1.0

    def opponent_action(self) -> int:
        """The opponent's action in the current position (the game must be running)."""
        assert self.opponent is not None
        state = self.core.state
        if self.think_seconds is None and self.level in CACHED_LEVELS.get(self.game, ()):
            key = (self.game, self.level, tuple(state.options().items()), state.key)
            best = _BEST_MOVES.get(key)
            if best is None:
                best = best_moves(self.opponent.choose(state))
                if len(_BEST_MOVES) >= CACHE_LIMIT:
                    _BEST_MOVES.clear()
                _BEST_MOVES[key] = best
            move = best[int(self.np_random.integers(len(best)))] if len(best) > 1 else best[0]
            return self.core.action_of(move)
        if self.think_seconds is None:
            result = self.opponent.choose(state)
        else:
            result = None
            for result in self.opponent.think_within(state, self.think_seconds):  # noqa: B007
                pass
        if result is None or result.move is None:
            raise RuntimeError(f"the {self.level} opponent found no move")
        return self.core.action_of(result.move)

    # --- the Gymnasium API ------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        self.core.reset()
        if self.first == "random":
            self.agent_player = int(self.np_random.integers(2))
        else:
            self.agent_player = 0 if self.first == "agent" else 1
        opponent_seed = int(self.np_random.integers(2**31))
        self.opponent = make_opponent(self.game, self.level, opponent_seed)
        self._over = False
        if self.agent_player == 1:
            self.core.play(self.opponent_action())
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        core = self.core
        index = int(action)
        info = self._info()
        if not (0 <= index < core.actions and core.mask[index]):
            self._over = True
            info["illegal_action"] = index
            return self._observation(), self.illegal_reward, True, False, info
        if core.play(index) is None:
            core.play(self.opponent_action())
        self._over = core.outcome() is not None
        return self._observation(), self._reward(), self._over, False, self._info()

    def render(self) -> str | RgbArray | None:
        if self.render_mode == "rgb_array":
            return rgb_array(self.core)
        if self.render_mode == "ansi":
            return self.core.render_text()
        return None

    def action_masks(self) -> Int8Array:
        """The legal actions now (the name sb3-contrib's MaskablePPO looks for)."""
        return self._observation()["action_mask"]


def opponent_env(game: str, level: str = "perfect", **options: Any) -> OpponentEnv:
    """``OpponentEnv(game, opponent=level, **options)``: the agent against ``level``.

    ``options`` are ``first``, ``render_mode``, ``illegal_reward``, ``think_seconds``
    and the game's own (``width``/``height``, ``size``/``rule``).
    """
    return OpponentEnv(game, level, **options)


#: Gymnasium ids and the game each plays.
GYM_IDS = {
    "abgames/TicTacToe-v0": "tictactoe",
    "abgames/ConnectFour-v0": "connect4",
    "abgames/Gomoku-v0": "gomoku",
}


def register_envs() -> None:
    """Register the ``abgames/...-v0`` ids with Gymnasium (once; done on import of envs)."""
    registry = gymnasium.envs.registration.registry
    for env_id, game in GYM_IDS.items():
        if env_id not in registry:
            gymnasium.register(
                id=env_id,
                entry_point="abgames.envs.opponent:OpponentEnv",
                kwargs={"game": game},
            )
