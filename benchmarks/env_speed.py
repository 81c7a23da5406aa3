"""Environment steps per second for random play: ours beside PettingZoo's own, in one run.

Every environment is driven by the same loop, PettingZoo's documented one: ``env.last()``,
then ``env.action_space(agent).sample(action_mask)`` (or ``None`` once done), then
``env.step(action)``; episodes are played back to back for ``--seconds`` each, with
``reset(seed=...)`` between them. A step is one ``env.step`` call, the dead agents'
``None`` steps at the end of a game included (both sides have them).

PettingZoo's ``connect_four_v3`` and ``tictactoe_v3`` import pygame (``pip install
pygame`` if it is missing; they are skipped, and said so, without it). Gomoku has no
PettingZoo counterpart: its figures stand alone.

    .venv/bin/python benchmarks/env_speed.py [--seconds 3] [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from abgames.envs import connect4_v0, gomoku_v0, tictactoe_v0


def steps_per_second(make: Callable[[], Any], seconds: float) -> tuple[float, int]:
    """(steps per second, games) of random play for ``seconds``."""
    env = make()
    steps = games = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=games)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                action = env.action_space(agent).sample(observation["action_mask"])
            env.step(action)
            steps += 1
        games += 1
    return steps / (time.perf_counter() - started), games


def side_by_side(
    ours: Callable[[], Any], theirs: Callable[[], Any] | None, seconds: float, repeat: int
) -> tuple[float, float | None]:
    """The best steps/s of each, measured in turns (ours, theirs, ours, ...) so that a
    change in the machine's load falls on both."""
    ours_best, theirs_best = 0.0, None
    for _ in range(repeat):
        ours_best = max(ours_best, steps_per_second(ours, seconds)[0])
        if theirs is not None:
            theirs_rate = steps_per_second(theirs, seconds)[0]
            theirs_best = max(theirs_best or 0.0, theirs_rate)
    return ours_best, theirs_best


def pettingzoo_env(name: str) -> Callable[[], Any] | None:
    try:
        module = importlib.import_module(f"pettingzoo.classic.{name}")
    except ImportError as error:
        print(f"PettingZoo's {name}: not measured ({error})")
        return None
    return module.env  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="measurements; the best is kept")
    args = parser.parse_args()
    import pettingzoo

    print(
        f"random play, {args.seconds:g} s x {args.repeat} (best) each; Python "
        f"{platform.python_version()}, PettingZoo {pettingzoo.__version__}, numpy {np.__version__}"
    )
    rows: list[tuple[str, str, Callable[[], Any] | None, Callable[[], Any] | None]] = [
        ("tic-tac-toe", "tictactoe_v3", tictactoe_v0.env, pettingzoo_env("tictactoe_v3")),
        ("Connect Four 7x6", "connect_four_v3", connect4_v0.env, pettingzoo_env("connect_four_v3")),
        ("Gomoku 15x15 freestyle", "", gomoku_v0.env, None),
        ("Gomoku 15x15 renju", "", lambda: gomoku_v0.env(rule="renju"), None),
    ]
    header = f"{'game':<24}{'abgames steps/s':>16}{'PettingZoo steps/s':>20}{'ratio':>8}"
    print(header)
    print("-" * len(header))
    for label, theirs_name, ours_env, theirs in rows:
        assert ours_env is not None
        ours = ours_env
        ours_rate, theirs_rate = side_by_side(ours, theirs, args.seconds, args.repeat)
        if theirs_rate is None:
            note = f"({theirs_name} not measured)" if theirs_name else "(no PettingZoo counterpart)"
            print(f"{label:<24}{ours_rate:>16,.0f}  {note}", flush=True)
            continue
        ratio = ours_rate / theirs_rate
        print(f"{label:<24}{ours_rate:>16,.0f}{theirs_rate:>20,.0f}{ratio:>7.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
