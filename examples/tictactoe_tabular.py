"""Train a tabular policy for tic-tac-toe against our ``perfect`` player, then measure it.

Q-learning over the Gymnasium environment ``abgames/TicTacToe-v0`` (the agent moves
first or second at random each episode), then a greedy run of the learnt table
against ``perfect`` in both orders: a perfect player can only be drawn, so the draw
rate is the measure. The table is saved as a policy the ladder reads:

    .venv/bin/python examples/tictactoe_tabular.py --episodes 4000 --save policy.json
    .venv/bin/abgames rl ladder policy.json --game tictactoe

Nothing heavy: a few thousand episodes take seconds (the opponent's answers are
kept per position by the environment).
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from pathlib import Path

import gymnasium
import numpy as np

import abgames.envs  # noqa: F401 - registers abgames/TicTacToe-v0
from abgames.envs.policies import TabularPolicy, legal_actions, observation_key

LEARNING_RATE = 0.5
DISCOUNT = 1.0
EPSILON_START = 0.5
EPSILON_END = 0.02


def train(episodes: int, seed: int) -> dict[str, dict[int, float]]:
    """Q-values learnt over ``episodes`` games against ``perfect`` (first player random)."""
    env = gymnasium.make("abgames/TicTacToe-v0", opponent="perfect", first="random")
    rng = random.Random(seed)
    q: dict[str, dict[int, float]] = defaultdict(dict)
    for episode in range(episodes):
        epsilon = EPSILON_START + (EPSILON_END - EPSILON_START) * episode / max(1, episodes - 1)
        observation, _ = env.reset(seed=seed + episode)
        done = False
        while not done:
            key, legal = observation_key(observation), legal_actions(observation)
            values = q[key]
            if rng.random() < epsilon:
                action = rng.choice(legal)
            else:
                action = max(legal, key=lambda a: (values.get(a, 0.0), -a))
            observation, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            target = float(reward)
            if not done:
                following = q[observation_key(observation)]
                target += DISCOUNT * max(following.get(a, 0.0) for a in legal_actions(observation))
            old = values.get(action, 0.0)
            values[action] = old + LEARNING_RATE * (target - old)
    env.close()
    return q


def greedy_table(q: dict[str, dict[int, float]]) -> TabularPolicy:
    table = {key: max(values, key=lambda a: (values[a], -a)) for key, values in q.items() if values}
    return TabularPolicy("tictactoe", table, seed=0)


def evaluate(policy: TabularPolicy, episodes: int, seed: int) -> dict[str, int]:
    """Wins, draws and losses against ``perfect``, half the games moving first."""
    results = {"wins": 0, "draws": 0, "losses": 0}
    for index in range(episodes):
        first = "agent" if index % 2 == 0 else "opponent"
        env = gymnasium.make("abgames/TicTacToe-v0", opponent="perfect", first=first)
        observation, _ = env.reset(seed=seed + 1_000_000 + index)
        done, reward = False, 0.0
        while not done:
            observation, step_reward, terminated, truncated, _ = env.step(policy(observation))
            reward = float(step_reward)
            done = terminated or truncated
        results["wins" if reward > 0 else "losses" if reward < 0 else "draws"] += 1
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=4000, help="training games")
    parser.add_argument("--eval-episodes", type=int, default=200, help="measuring games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", type=Path, help="write the learnt policy here (JSON)")
    args = parser.parse_args(argv)
    np.random.seed(args.seed)
    q = train(args.episodes, args.seed)
    policy = greedy_table(q)
    results = evaluate(policy, args.eval_episodes, args.seed)
    draw_rate = results["draws"] / args.eval_episodes
    print(
        f"after {args.episodes} training games, {len(policy.table)} positions: "
        f"against perfect +{results['wins']} ={results['draws']} -{results['losses']} "
        f"(draw rate {draw_rate:.1%})"
    )
    if args.save:
        policy.save(args.save)
        print(f"policy saved to {args.save}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
