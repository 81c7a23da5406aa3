"""Helpers for the desktop tests: one Xvfb display per test run, pumping events, players.

The display is started on first use and stopped at exit. Without Xvfb the
tests that need it are skipped with the reason, except under CI, where a missing
Xvfb is a failure (``skips.missing``): .ci/run installs it.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable, Iterator

from abgames.ai.player import AIPlayer
from abgames.games import GameState, Move
from abgames.search.result import SearchResult
from abgames.ui.desktop.app import DesktopApp
from abgames.ui.desktop.xvfb import VirtualDisplay, xvfb_installed
from skips import missing

#: Longest wait for anything the window does (an easy AI move takes milliseconds).
WAIT_S = 20.0

_display: VirtualDisplay | None = None


def virtual_display() -> str:
    """The name of this run's Xvfb display (started on first call), or skip/fail."""
    global _display
    if _display is None:
        if not xvfb_installed():
            missing("Xvfb is not installed (apt-get install xvfb); the desktop tests need it")
        display = VirtualDisplay()
        display.start()
        atexit.register(display.stop)
        _display = display
    return _display.name


def pump(app: DesktopApp, until: Callable[[], bool], timeout_s: float = WAIT_S) -> None:
    """Process Tk events (so ``after`` callbacks run) until ``until()`` or fail on timeout."""
    deadline = time.monotonic() + timeout_s
    while not until():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out; status: {app.session.turn_text()!r}")
        app.root.update()
        time.sleep(0.002)


def settle(app: DesktopApp, seconds: float) -> None:
    end = time.monotonic() + seconds
    pump(app, lambda: time.monotonic() >= end, seconds + WAIT_S)


def ai_idle(app: DesktopApp) -> bool:
    session = app.session
    return not session.thinking and not (session.match.ai_to_move and not session.game_over)


def click(app: DesktopApp, x: float, y: float) -> None:
    """A real left click at canvas pixel (x, y), through Tk's event bindings."""
    app.canvas.event_generate("<Motion>", x=round(x), y=round(y), warp=False)
    app.canvas.event_generate("<Button-1>", x=round(x), y=round(y))
    app.canvas.event_generate("<ButtonRelease-1>", x=round(x), y=round(y))
    app.root.update()


def click_move(app: DesktopApp, move: Move) -> None:
    state = app.session.match.state
    x, y = app.view.pixel_of(state, move)
    click(app, x, y)


def open_app(display: str, **kwargs: object) -> DesktopApp:
    app = DesktopApp(screen=display, **kwargs)  # type: ignore[arg-type]
    app.root.geometry("640x700+0+0")
    pump(app, lambda: app.canvas.winfo_width() > 100)
    app.redraw()
    return app


class EndlessPlayer(AIPlayer):
    """Thinks until told to stop, reporting one deeper result every ``step_s`` seconds.

    Its best move is the last legal move in ``legal_moves()`` order, so tests can tell
    it apart from a first-move default.
    """

    def __init__(self, level: str, step_s: float = 0.02) -> None:
        self.level = level
        self.step_s = step_s
        self._stop = threading.Event()
        self.searches = 0

    def think(self, state: GameState) -> Iterator[SearchResult]:
        self._stop.clear()
        self.searches += 1
        moves = state.legal_moves()
        depth = 0
        while True:
            depth += 1
            yield SearchResult(
                move=moves[-1],
                score=depth,
                depth=depth,
                nodes=1000 * depth,
                elapsed=depth * self.step_s,
                pv=(moves[-1],),
                root_scores={move: index for index, move in enumerate(moves)},
            )
            if self._stop.wait(self.step_s):
                return

    def stop(self) -> None:
        self._stop.set()


def endless_factory(game: str, level: str, seed: int | None) -> AIPlayer:
    return EndlessPlayer(level)


class SilentSolver(AIPlayer):
    """Like the compiled ``perfect`` solver: reports nothing until it is done.

    It yields one result, with ``solved`` as given, once ``release`` is set (or
    ``stop()`` is called); its move is the last legal one.
    """

    def __init__(self, level: str = "perfect", *, solved: bool = True) -> None:
        self.level = level
        self.solved = solved
        self.release = threading.Event()

    def think(self, state: GameState) -> Iterator[SearchResult]:
        self.release.wait()
        moves = state.legal_moves()
        yield SearchResult(
            move=moves[-1],
            score=7,
            depth=4,
            nodes=4321,
            elapsed=0.01,  # the engine's own (partial) time, as a fallback reports it
            pv=(moves[-1],),
            root_scores={move: index for index, move in enumerate(moves)},
            solved=self.solved,
        )

    def stop(self) -> None:
        self.release.set()
