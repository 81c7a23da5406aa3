"""``abgames play GAME``: start a game in the terminal with the given settings."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from abgames.ai.levels import DEFAULT_LEVEL, LEVELS
from abgames.arguments import integer
from abgames.games import GAMES
from abgames.games.gomoku import Rule
from abgames.match import AI, HUMAN, MODES, Match, new_state, seats_for
from abgames.ui.terminal import run_game, wants_colour

ALL_LEVELS = sorted({level for levels in LEVELS.values() for level in levels})


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play tic-tac-toe, Connect Four or Gomoku in the terminal. "
        "Type 'help' at the prompt for the commands.",
    )
    parser.add_argument("game", choices=list(GAMES))
    parser.add_argument("--mode", choices=MODES, default="human-ai")
    parser.add_argument("--first", choices=(HUMAN, AI), default=HUMAN, help="who moves first")
    parser.add_argument(
        "--level", help=f"AI strength: {', '.join(ALL_LEVELS)} (as the game offers)"
    )
    parser.add_argument("--rule", choices=[r.value for r in Rule], help="Gomoku rule")
    parser.add_argument("--size", type=integer, help="Gomoku board size (5..22)")
    parser.add_argument("--width", type=integer, help="Connect Four columns")
    parser.add_argument("--height", type=integer, help="Connect Four rows")
    parser.add_argument("--seed", type=integer, help="seed for the AI's choice among equal moves")
    colour = parser.add_mutually_exclusive_group()
    colour.add_argument("--colour", "--color", dest="colour", action="store_true", default=None)
    colour.add_argument("--no-colour", "--no-color", dest="colour", action="store_false")
    parser.set_defaults(run=run)


def game_options(args: argparse.Namespace) -> dict[str, object]:
    """The board options the arguments ask for; ``ValueError`` for ones the game lacks."""
    options: dict[str, object] = {}
    given = {name: getattr(args, name) for name in ("rule", "size", "width", "height")}
    allowed = {"gomoku": {"rule", "size"}, "connect4": {"width", "height"}}.get(args.game, set())
    for name, value in given.items():
        if value is None:
            continue
        if name not in allowed:
            raise ValueError(f"--{name} does not apply to {args.game}")
        options[name] = value
    return options


def run(args: argparse.Namespace) -> int:
    level = args.level or DEFAULT_LEVEL[args.game]
    try:
        if level not in LEVELS[args.game]:
            raise ValueError(
                f"{args.game} has no level {level!r}: choose {', '.join(LEVELS[args.game])}"
            )
        state = new_state(args.game, **game_options(args))
        match = Match(state, seats_for(args.mode, args.first, level), seed=args.seed)
    except ValueError as error:
        print(f"abgames play: {error}", file=sys.stderr)
        return 2
    colour = wants_colour(sys.stdout) if args.colour is None else args.colour
    return run_game(match, colour=colour)
