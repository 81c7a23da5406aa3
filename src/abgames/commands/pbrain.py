"""``abgames pbrain`` and the ``pbrain-abgames`` script: run abgames as a Gomocup brain
on stdin/stdout (the protocol itself is ``abgames.protocols.gomocup``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from abgames.ai.levels import LEVELS
from abgames.arguments import integer
from abgames.protocols.gomocup import GAME, default_level, serve


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "pbrain",
        help="run as a Gomocup (Piskvork) engine on stdin/stdout",
        description="Speak the Gomocup 'pbrain' protocol on stdin/stdout, so that "
        "tournament managers (Piskvork, c-gomoku-cli) can run abgames. "
        "See docs/protocol.md.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``abgames pbrain`` and ``pbrain-abgames``."""
    parser.add_argument(
        "--level",
        choices=LEVELS[GAME],
        help=f"Gomoku AI level (default: {default_level()})",
    )
    parser.add_argument("--debug", action="store_true", help="write DEBUG lines")
    parser.add_argument(
        "--seed", type=integer, help="seed for the choice among equal moves (any integer)"
    )


def run(args: argparse.Namespace) -> int:
    try:
        return serve(args.level, debug=args.debug, seed=args.seed)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The ``pbrain-abgames`` console script."""
    parser = argparse.ArgumentParser(
        prog="pbrain-abgames",
        description="abgames as a Gomocup (Piskvork) brain on stdin/stdout.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
