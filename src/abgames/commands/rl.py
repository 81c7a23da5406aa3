"""``abgames rl``: the reinforcement-learning side (the ``rl`` extra; docs/rl.md).

``abgames rl ladder AGENT`` rates a policy against our players on the calibrated
ladder: AGENT is ``random``, ``greedy``, a saved tabular policy (``policy.json``),
or ``module:function`` / ``file.py:function`` naming a policy (observation dict ->
action) or a function of no arguments that returns one.
``abgames rl rungs GAME`` prints the ladder's measured Elo and how it was measured.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from abgames.arguments import integer

LADDER_GAMES = ("tictactoe", "connect4")
INSTALL_HINT = "the rl extra is not installed: pip install 'abgames[rl]'"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rl",
        help="reinforcement learning: rate a policy on the calibrated ladder",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="rl_command", metavar="ACTION", required=True)
    ladder = actions.add_parser("ladder", help="rate a policy against our levels")
    ladder.add_argument("agent", metavar="AGENT", help="random, greedy, policy.json, module:fn")
    ladder.add_argument("--game", choices=LADDER_GAMES, default="connect4")
    ladder.add_argument("--games", type=integer, default=40, help="games per rung (default 40)")
    ladder.add_argument("--seed", type=integer, default=0)
    ladder.add_argument(
        "--stop-after",
        type=integer,
        default=2,
        help="stop climbing after this many rungs in a row scored nothing (default 2)",
    )
    ladder.set_defaults(run=run_ladder)
    rungs = actions.add_parser("rungs", help="the ladder's measured Elo")
    rungs.add_argument("game", choices=LADDER_GAMES)
    rungs.set_defaults(run=run_rungs)


def run_ladder(args: argparse.Namespace) -> int:
    try:
        from abgames.envs.ladder import rate
        from abgames.envs.policies import load_policy
    except ImportError:
        print(f"abgames rl: {INSTALL_HINT}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("abgames rl ladder: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        policy = load_policy(args.agent, args.game, args.seed)
    except (ValueError, OSError, ImportError) as error:
        print(f"abgames rl ladder: {error}", file=sys.stderr)
        return 2

    def progress(score: Any) -> None:
        print(
            f"  vs {score.rung.name}: +{score.wins} ={score.draws} -{score.losses}",
            file=sys.stderr,
            flush=True,
        )

    rating = rate(
        policy,
        args.game,
        args.games,
        seed=args.seed,
        stop_after=args.stop_after,
        progress=progress,
    )
    print(f"{args.agent} — {rating.describe()}")
    return 0


def run_rungs(args: argparse.Namespace) -> int:
    try:
        from abgames.envs.ladder import load_rungs, remeasure_command
    except ImportError:
        print(f"abgames rl: {INSTALL_HINT}", file=sys.stderr)
        return 2
    print(f"{args.game} ladder (arena, each rung against the next, random = 0):")
    for rung in load_rungs(args.game):
        if rung.bound:
            figure = f"above {rung.elo:.0f}"
        elif rung.ci95:
            figure = f"{rung.elo:.0f} ± {rung.ci95:.0f}"
        else:
            figure = f"{rung.elo:.0f}"
        print(f"  {rung.name:<8} {figure:>14}   ({rung.games} games against the rung below)")
    print(f"re-measure: {remeasure_command()}")
    return 0
