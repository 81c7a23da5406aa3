"""Make docs/screenshots/*.png: the desktop window on each game, under a virtual display.

Usage: ``.venv/bin/python scripts/screenshots.py [OUTPUT_DIR]``

Needs Xvfb and ImageMagick's ``import`` (Debian: ``apt-get install xvfb imagemagick
fonts-dejavu-core``). Each scene sets up a game through the same calls the window's
clicks make, lets the AI answer through its worker thread, draws, and grabs the
window (menu bar included) as PNG.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from abgames.games import Move
from abgames.ui.desktop.app import DesktopApp
from abgames.ui.desktop.controller import GameSettings
from abgames.ui.desktop.xvfb import VirtualDisplay

OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
WINDOW_SIZE = "760x800"
AI_TIMEOUT_S = 60.0
SEED = 7


@dataclass(frozen=True)
class Scene:
    """A file name, the game's settings, the human moves (space-separated) and view switches."""

    name: str
    settings: GameSettings
    moves: str
    analysis: bool = False
    numbers: bool = False
    hint: bool = False
    setup: Callable[[DesktopApp], None] | None = None


SCENES = (
    Scene(
        "tictactoe",
        GameSettings("tictactoe", "human-ai", level="perfect"),
        "a3 c1",
        analysis=True,
    ),
    Scene(
        "connect4",
        GameSettings("connect4", "human-ai", level="medium"),
        "4 4 3 5",
        analysis=True,
    ),
    Scene(
        "gomoku",
        GameSettings("gomoku", "human-human"),
        "h8 h9 i8 i9 j8 g8 j9 k10 j7 j10 j6 j5 k7 l6 i7 g7 h7 g9 l7",
        numbers=True,
    ),
    Scene(
        "gomoku-renju",
        GameSettings("gomoku", "human-human", rule="renju"),
        "h8 a1 g8 a2 i10 a3 i9 o15",
        analysis=True,
        hint=True,
    ),
)


def wait_for_ai(app: DesktopApp) -> None:
    deadline = time.monotonic() + AI_TIMEOUT_S
    while app.session.match.ai_to_move or app.session.thinking:
        if time.monotonic() > deadline:
            raise TimeoutError("the AI did not move in time")
        app.root.update()
        time.sleep(0.01)


def settle(app: DesktopApp, seconds: float = 0.4) -> None:
    """Let animations finish and the window draw."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.root.update()
        time.sleep(0.01)


def play(app: DesktopApp, text: str) -> None:
    state = app.session.match.state
    move: Move = state.parse_move(text)
    x, y = app.view.pixel_of(state, move)
    if not app.click_at(x, y):
        raise RuntimeError(f"{text} was refused: {app.session.note}")


def grab(app: DesktopApp, path: Path) -> None:
    frame = app.root.wm_frame()
    importer = shutil.which("import")
    if importer is None:
        raise SystemExit("ImageMagick's 'import' is missing: apt-get install imagemagick")
    subprocess.run([importer, "-window", frame, str(path)], check=True)


def shoot(display: str, scene: Scene, output: Path) -> Path:
    app = DesktopApp(scene.settings, screen=display, seed=SEED)
    try:
        app.root.geometry(WINDOW_SIZE)
        app.show_analysis.set(scene.analysis)
        app.show_numbers.set(scene.numbers)
        settle(app, 0.2)
        for text in scene.moves.split():
            wait_for_ai(app)
            play(app, text)
            settle(app, 0.05)
        wait_for_ai(app)
        if scene.hint:
            app.hint()
            while app.session.thinking:
                app.root.update()
        app.refresh()
        settle(app)
        path = output / f"{scene.name}.png"
        grab(app, path)
        return path
    finally:
        app.quit()


def main(argv: list[str]) -> int:
    output = Path(argv[0]) if argv else OUTPUT
    output.mkdir(parents=True, exist_ok=True)
    with VirtualDisplay() as display:
        for scene in SCENES:
            print(shoot(display, scene, output))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
