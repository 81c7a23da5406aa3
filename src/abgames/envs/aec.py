"""The PettingZoo AEC environment shared by the three games (classic conventions).

``BoardGameEnv`` is the raw environment. PettingZoo's classic ``env()`` constructors
wrap theirs in three wrappers: an illegal move ends the game with -1 for the mover
and 0 for the other, terminated and truncated (``TerminateIllegalWrapper``); an
action out of range is an assertion error (``AssertOutOfBoundsWrapper``); calls out
of order are refused (``OrderEnforcingWrapper``). Ours do the same in one layer,
``ClassicEnv`` (an ``OrderEnforcingWrapper`` whose step checks the action and
handles illegal moves as ``TerminateIllegalWrapper`` does): each wrapper level costs
an attribute look-up chain on every access, which in random play is most of the
time a step takes. ``classic_wrappers`` builds PettingZoo's own three-wrapper stack
instead; the tests check that both behave alike.

Agents are ``player_0`` (moves first: X, Red, Black) and ``player_1``. Observations
are ``{"observation": int8 (rows, cols, 2), "action_mask": int8 (actions,)}`` from
the observing agent's view (channel 0 its own stones); the mask is all zeros for
the agent not to move. Rewards are +1 / -1 for the winner / loser, 0 for a draw,
given on the move that ends the game. There is no truncation: every game ends.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers
from pettingzoo.utils.env_logger import EnvLogger

from abgames.envs.boards import BoardCore, Int8Array
from abgames.envs.render import RgbArray, rgb_array

AGENTS = ("player_0", "player_1")
RENDER_MODES = ["human", "ansi", "rgb_array"]
ObsDict = dict[str, Int8Array]


class BoardGameEnv(AECEnv[str, ObsDict, int], EzPickle):  # type: ignore[misc]
    """A two-player board game of ``abgames`` as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "name": "abgames_board_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, core: BoardCore, render_mode: str | None = None, **ezpickle: Any) -> None:
        EzPickle.__init__(self, render_mode=render_mode, **ezpickle)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: choose {', '.join(RENDER_MODES)}")
        self.core = core
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        shape = (core.rows, core.cols, 2)
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=0, high=1, shape=shape, dtype=np.int8),
                    "action_mask": spaces.Box(low=0, high=1, shape=(core.actions,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self._action_spaces = {agent: spaces.Discrete(core.actions) for agent in AGENTS}
        self._no_moves = np.zeros(core.actions, dtype=np.int8)
        self._selector = AgentSelector(self.agents)
        self.reset()

    # --- spaces ---------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # --- the AEC cycle ----------------------------------------------------------
    def observe(self, agent: str) -> ObsDict:
        player = 0 if agent == AGENTS[0] else 1
        mask = self.core.mask if agent == self.agent_selection else self._no_moves
        return {"observation": self.core.planes[player].copy(), "action_mask": mask.copy()}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Back to the empty board. The games hold no chance: ``seed`` seeds the action spaces
        (what ``action_space(agent).sample()`` draws), as Gymnasium's ``reset`` does."""
        if seed is not None:
            for index, agent in enumerate(AGENTS):
                self._action_spaces[agent].seed(seed + index)
        self.core.reset()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._selector.reinit(self.agents)
        self.agent_selection = self._selector.reset()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None, "a live agent's action is an int, not None"
        outcome = self.core.play(int(action))  # legal: the wrappers checked the mask
        self._cumulative_rewards[agent] = 0
        if outcome is not None:
            if outcome.winner is not None:
                winner = AGENTS[outcome.winner]
                self.rewards[winner] = 1
                self.rewards[AGENTS[1 - outcome.winner]] = -1
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self.agent_selection = self._selector.next()
        if self.render_mode == "human":
            self.render()

    def step_checked(self, action: int | None, illegal_reward: float) -> None:
        """``step`` with the classic wrappers' checks: the action in range (assertion),
        and an illegal one ending the game as ``TerminateIllegalWrapper`` ends it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        core = self.core
        assert action is not None and 0 <= action < core.actions, (
            f"action {action!r} is not in the action space (0..{core.actions - 1})"
        )
        if core.mask[action]:
            self.step(action)
            return
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0)
        self.rewards[agent] = illegal_reward  # type: ignore[assignment]
        self._accumulate_rewards()
        self._deads_step_first()

    # --- pictures ---------------------------------------------------------------
    def render(self) -> str | RgbArray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self.render_mode == "rgb_array":
            return rgb_array(self.core)
        text = self.core.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window)."""


class ClassicEnv(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's classic wrapper stack in one layer (see the module docstring).

    An ``OrderEnforcingWrapper``: calls before ``reset`` are refused as there. The
    calls a training loop makes every step (``step``, ``observe``, ``last``,
    ``action_space``) go straight to the raw environment.
    """

    def __init__(self, raw: BoardGameEnv, illegal_reward: float = -1.0) -> None:
        super().__init__(raw)
        self._raw = raw
        self._illegal_reward = illegal_reward

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self._raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self._raw.step_checked(action, self._illegal_reward)

    def observe(self, agent: str) -> ObsDict:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def last(
        self, observe: bool = True
    ) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        result: tuple[ObsDict | None, float, bool, bool, dict[str, Any]] = self._raw.last(observe)
        return result

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._raw.action_space(agent)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._raw.observation_space(agent)

    # The two attributes ``agent_iter`` reads every step, without the look-up chain.
    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self._raw.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        selection: str = self._raw.agent_selection
        return selection


def classic_env(raw: BoardGameEnv) -> AECEnv[str, ObsDict, int]:
    """``raw`` as the classic ``env()`` constructors hand it out (``ClassicEnv``)."""
    return ClassicEnv(raw, illegal_reward=-1.0)


def classic_wrappers(raw: BoardGameEnv) -> AECEnv[str, ObsDict, int]:
    """``raw`` in PettingZoo's own three classic wrappers (slower; the same behaviour)."""
    wrapped: AECEnv[str, ObsDict, int] = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped
