"""The single-agent Gymnasium environments: check_env, then games against our players."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from abgames.ai.levels import make_player  # noqa: E402
from abgames.envs import GYM_IDS, OpponentEnv, opponent_env  # noqa: E402

CASES: list[tuple[str, dict[str, Any]]] = [
    ("abgames/TicTacToe-v0", {"opponent": "perfect"}),
    ("abgames/ConnectFour-v0", {"opponent": "perfect"}),
    ("abgames/ConnectFour-v0", {"opponent": "easy", "width": 5, "height": 4}),
    ("abgames/Gomoku-v0", {"opponent": "safe", "size": 9, "rule": "renju"}),
]


@pytest.mark.parametrize(("env_id", "options"), CASES)
@pytest.mark.parametrize("first", ["agent", "opponent", "random"])
def test_check_env(env_id: str, options: dict[str, Any], first: str) -> None:
    env = gymnasium.make(env_id, first=first, **options)
    check_env(env.unwrapped, skip_render_check=False)
    observation, info = env.reset(seed=5)
    assert info["agent_first"] == (first == "agent") or first == "random"
    assert observation["action_mask"].sum() > 0


def test_the_three_ids_are_registered() -> None:
    assert set(GYM_IDS) <= set(gymnasium.registry)


def random_episode(env: OpponentEnv, seed: int) -> float:
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return float(reward)


@pytest.mark.parametrize("first", ["agent", "opponent"])
def test_random_agent_never_beats_tictactoe_perfect(first: str) -> None:
    env = opponent_env("tictactoe", "perfect", first=first)
    rewards = [random_episode(env, seed) for seed in range(60)]
    assert max(rewards) <= 0.0
    assert min(rewards) == -1.0


def test_connect4_perfect_moving_first_beats_a_random_agent() -> None:
    # Connect Four is a first-player win: perfect as first player wins every game.
    env = opponent_env("connect4", "perfect", first="opponent")
    assert [random_episode(env, seed) for seed in range(8)] == [-1.0] * 8


@pytest.mark.parametrize("first", ["agent", "opponent"])
def test_perfect_against_perfect_is_a_draw_in_tictactoe(first: str) -> None:
    # Tic-tac-toe's value is a draw: our perfect player as the agent draws every game.
    env = opponent_env("tictactoe", "perfect", first=first)
    for seed in range(6):
        me = make_player("tictactoe", "perfect", seed)
        env.reset(seed=seed)
        done, reward = False, None
        while not done:
            move = me.choose(env.core.state).move
            assert move is not None
            _, reward, done, _, _ = env.step(env.core.action_of(move))
        assert reward == 0.0
        assert env.core.outcome() is not None and env.core.outcome().is_draw  # type: ignore[union-attr]


def test_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = opponent_env("tictactoe", "perfect", first="agent")
    env.reset(seed=0)
    observation, reward, done, _, _ = env.step(4)  # the centre; perfect answers
    assert (reward, done) == (0.0, False) and observation["action_mask"][4] == 0
    observation, reward, terminated, truncated, info = env.step(4)  # taken
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == 4
    with pytest.raises(RuntimeError, match="reset"):
        env.step(1)


def test_same_seed_same_episode() -> None:
    env = opponent_env("connect4", "medium", first="random")
    first = [random_episode(env, 11), env.core.state.notation()]
    second = [random_episode(env, 11), env.core.state.notation()]
    assert first == second


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="no opponent"):
        opponent_env("tictactoe", "grandmaster")
    with pytest.raises(ValueError, match="first="):
        opponent_env("tictactoe", "perfect", first="both")
    with pytest.raises(ValueError, match="Connect Four board"):
        opponent_env("connect4", "easy", width=12)


def test_render_modes() -> None:
    env = opponent_env("gomoku", "random", size=9, render_mode="rgb_array")
    env.reset(seed=1)
    image = env.render()
    assert isinstance(image, np.ndarray) and image.shape == (9 * 24, 9 * 24, 3)
    text_env = opponent_env("tictactoe", "perfect", first="opponent", render_mode="ansi")
    text_env.reset(seed=1)
    assert isinstance(text_env.render(), str)
