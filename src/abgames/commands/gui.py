"""``abgames gui [GAME]``: open the desktop window, optionally with a game set up."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from abgames.ai.levels import LEVELS
from abgames.arguments import integer
from abgames.games import GAMES
from abgames.games.gomoku import Rule
from abgames.match import AI, HUMAN, MODES, new_state

ALL_LEVELS = sorted({level for levels in LEVELS.values() for level in levels})


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "gui",
        help="play in a desktop window",
        description="Open the desktop window (tkinter). The options set up the first "
        "game; the New game dialog changes them later.",
    )
    parser.add_argument("game", nargs="?", default="tictactoe", choices=list(GAMES))
    parser.add_argument("--mode", choices=MODES, default="human-ai")
    parser.add_argument("--first", choices=(HUMAN, AI), default=HUMAN, help="who moves first")
    parser.add_argument(
        "--level", help=f"AI strength: {', '.join(ALL_LEVELS)} (as the game offers)"
    )
    parser.add_argument("--rule", choices=[r.value for r in Rule], default=Rule.FREESTYLE.value)
    parser.add_argument("--size", type=integer, default=15, help="Gomoku board size (5..22)")
    parser.add_argument("--width", type=integer, default=7, help="Connect Four columns")
    parser.add_argument("--height", type=integer, default=6, help="Connect Four rows")
    parser.add_argument("--seed", type=integer, help="seed for the AI's choice among equal moves")
    parser.add_argument("--load", metavar="FILE", help="open a saved game (JSON)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from abgames.ui.desktop import display_available

    if not display_available():
        print(
            "abgames gui: no display to open a window on (is DISPLAY set, and tkinter "
            "installed?); try 'abgames play GAME' in the terminal",
            file=sys.stderr,
        )
        return 2
    import tkinter

    from abgames.ui.desktop.app import DesktopApp
    from abgames.ui.desktop.controller import GameSettings

    try:
        settings = GameSettings(
            game=args.game,
            mode=args.mode,
            first=args.first,
            level=args.level,
            rule=args.rule,
            size=args.size,
            width=args.width,
            height=args.height,
        )
        new_state(settings.game, **settings.options())  # checks the board options
    except ValueError as error:
        print(f"abgames gui: {error}", file=sys.stderr)
        return 2
    try:
        app = DesktopApp(settings, seed=args.seed)
    except tkinter.TclError as error:
        print(f"abgames gui: cannot open a window: {error}", file=sys.stderr)
        return 2
    if args.load and not app.load_from(args.load):
        message = app.load_failure
        app.quit()
        print(f"abgames gui: {message}", file=sys.stderr)
        return 2
    return app.run()
