"""The ``abgames`` command: ``abgames play ...``, ``abgames experiment ...`` and friends."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence

from abgames import __version__

#: Modules under ``abgames.commands`` that add sub-commands, in help order.
COMMAND_MODULES = (
    "abgames.commands.play",
    "abgames.commands.experiment",
    "abgames.commands.connect4",
    "abgames.commands.gui",
    "abgames.commands.web",
    "abgames.commands.warmup",
    "abgames.commands.pbrain",
    "abgames.commands.arena",
    "abgames.commands.tune",
    "abgames.commands.fit",
    "abgames.commands.rl",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="abgames",
        description="Tic-tac-toe, Connect Four and Gomoku against alpha-beta search. "
        "With no command, the desktop window opens when there is a display "
        "(and input is a terminal), otherwise an interactive text menu starts; "
        "ABGAMES_UI=terminal or ABGAMES_UI=gui chooses.",
    )
    parser.add_argument("--version", action="version", version=f"abgames {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def gui_refused_reason() -> str | None:
    """Why the window asked for with ``ABGAMES_UI=gui`` cannot open, or ``None``."""
    if os.environ.get("ABGAMES_UI", "").strip().lower() != "gui":
        return None
    from abgames.ui.desktop import display_available

    if display_available():
        return None
    if importlib.util.find_spec("tkinter") is None:
        return "this Python has no tkinter (on Debian or Ubuntu: apt install python3-tk)"
    return "there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"


def unknown_ui_note() -> str | None:
    """A line for an ``ABGAMES_UI`` that is neither ``gui`` nor ``terminal``, or ``None``."""
    value = os.environ.get("ABGAMES_UI", "").strip()
    if not value or value.lower() in ("gui", "terminal"):
        return None
    from abgames.games.numbers import clip

    return f"abgames: ABGAMES_UI={clip(value)!r} is neither gui nor terminal; ignored"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    try:
        if run is None:
            from abgames.ui.desktop import run_if_possible

            note = unknown_ui_note()
            if note:
                print(note, file=sys.stderr)
            reason = gui_refused_reason()
            if reason:
                print(f"abgames: ABGAMES_UI=gui, but {reason}; using the terminal", file=sys.stderr)
            opened = run_if_possible()
            if opened is not None:
                return opened
            from abgames.ui.terminal import run_menu

            return run_menu()
        code: int = run(args)
        return code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
