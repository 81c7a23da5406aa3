"""The tkinter desktop app: one window for tic-tac-toe, Connect Four and Gomoku.

Importing this package does not import tkinter, so the terminal keeps working
on a Python built without Tk; ``display_available()`` says whether a window
can be opened at all.
"""

from __future__ import annotations

import importlib.util
import os
import sys


def display_available() -> bool:
    """Whether tkinter is importable and there is a screen to open a window on.

    On X11 systems that means ``$DISPLAY`` (or ``$WAYLAND_DISPLAY``, through
    XWayland) is set; Windows and macOS always have a screen.
    """
    if importlib.util.find_spec("tkinter") is None:
        return False
    if sys.platform.startswith(("win", "darwin")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


#: Set to "terminal" or "gui" to override the choice ``abgames`` makes with no command.
UI_ENVIRONMENT_VARIABLE = "ABGAMES_UI"


def gui_wanted() -> bool:
    """Whether ``abgames`` with no command should open the window rather than the menu.

    ``$ABGAMES_UI`` decides when set (``gui`` or ``terminal``); otherwise the
    window opens when a display is available and standard input is a terminal
    (a person started it: piped input always gets the text menu).
    """
    choice = os.environ.get(UI_ENVIRONMENT_VARIABLE, "").strip().lower()
    if choice == "terminal":
        return False
    if choice == "gui":
        return display_available()
    return display_available() and sys.stdin is not None and sys.stdin.isatty()


def run_if_possible() -> int | None:
    """Open the window if ``gui_wanted()``; the exit code, or ``None`` if no window opened."""
    if not gui_wanted():
        return None
    import tkinter

    from abgames.ui.desktop.app import DesktopApp

    try:
        app = DesktopApp()
    except tkinter.TclError as error:  # e.g. $DISPLAY names a display that is gone
        print(f"abgames: cannot open a window ({error}); using the terminal", file=sys.stderr)
        return None
    return app.run()
