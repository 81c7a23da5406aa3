"""The desktop window under a virtual display, driven by real Tk events on its canvas."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from abgames.games import ConnectFour, Gomoku
from abgames.match import AI, HUMAN, Match
from abgames.ui.desktop import theme
from abgames.ui.desktop.app import DesktopApp
from abgames.ui.desktop.boards import (
    TAG_DROP,
    TAG_FORBIDDEN,
    TAG_HEAT,
    TAG_HINT,
    TAG_HOVER,
    TAG_PV,
    TAG_WIN,
)
from abgames.ui.desktop.controller import GameSettings
from desktop_support import (
    ai_idle,
    click,
    click_move,
    endless_factory,
    open_app,
    pump,
    settle,
    virtual_display,
)

SEED = 3
AppMaker = Callable[..., DesktopApp]
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def display() -> str:
    return virtual_display()


@pytest.fixture
def make_app(display: str) -> Iterator[AppMaker]:
    apps: list[DesktopApp] = []

    def make(settings: GameSettings, **kwargs: object) -> DesktopApp:
        kwargs.setdefault("seed", SEED)
        kwargs.setdefault("ai_pause_s", 0.0)
        app = open_app(display, settings=settings, **kwargs)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.quit()


def items(app: DesktopApp, tag: str) -> tuple[int, ...]:
    return app.canvas.find_withtag(tag)


def play_out(app: DesktopApp, max_moves: int = 100) -> None:
    """Click the first legal move (in board order) for the human until the game ends."""
    for _ in range(max_moves):
        pump(app, lambda: ai_idle(app) or app.session.game_over)
        if app.session.game_over:
            return
        state = app.session.match.state
        move = min(state.legal_moves())
        ply = state.ply
        click_move(app, move)
        # The AI may already have answered by the time the click is handled.
        assert app.session.match.state.moves[ply : ply + 1] == [move], app.session.note
    raise AssertionError("the game did not end")


def test_full_tictactoe_game_against_the_ai(make_app: AppMaker) -> None:
    app = make_app(GameSettings("tictactoe", "human-ai", level="easy"))
    play_out(app)
    match = app.session.match
    assert match.is_over
    assert any(result is not None for result in match.analyses)  # the AI moved, via its worker
    assert app.turn_text.get() == app.session.result_text()
    if match.state.outcome().winner is not None:  # type: ignore[union-attr]
        assert items(app, TAG_WIN)


def test_full_connect4_game_against_the_ai_with_hover_and_drop(make_app: AppMaker) -> None:
    app = make_app(GameSettings("connect4", "human-ai", first=AI, level="easy"))
    pump(app, lambda: ai_idle(app))
    assert app.session.match.state.ply == 1
    x, y = app.view.pixel_of(app.session.match.state, 0)
    app.canvas.event_generate("<Motion>", x=round(x), y=round(y))
    app.root.update()
    assert items(app, TAG_HOVER)
    click_move(app, 0)
    assert items(app, TAG_DROP)  # the disc is falling
    settle(app, 2 * theme.DROP_MS / 1000)
    assert not items(app, TAG_DROP)
    play_out(app)
    assert app.session.match.is_over
    assert isinstance(app.session.match.state, ConnectFour)


def test_full_gomoku_game_between_humans_highlights_the_five(make_app: AppMaker) -> None:
    app = make_app(GameSettings("gomoku", "human-human"))
    app.show_numbers.set(True)
    state = app.session.match.state
    for text in ("h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"):
        click_move(app, state.parse_move(text))
    assert app.session.game_over
    assert app.turn_text.get() == "Black wins."
    assert len(items(app, TAG_WIN)) == 1 + 5  # the line and a ring on each stone
    assert app.session.clocks.running is None


def test_gomoku_against_the_ai_on_a_small_board(make_app: AppMaker) -> None:
    app = make_app(GameSettings("gomoku", "human-ai", level="easy", size=9))
    for _ in range(3):
        pump(app, lambda: ai_idle(app))
        state = app.session.match.state
        click_move(app, min(state.legal_moves()))
    pump(app, lambda: ai_idle(app))
    assert app.session.match.state.ply == 6


def test_undo_button_takes_back_the_pair(make_app: AppMaker) -> None:
    app = make_app(GameSettings("tictactoe", "human-ai", level="easy"))
    click_move(app, 4)
    pump(app, lambda: ai_idle(app) and app.session.match.state.ply == 2)
    app.buttons["undo"].invoke()
    assert app.session.match.state.ply == 0
    assert "Took back" in app.note_text.get()
    app.buttons["undo"].invoke()
    assert app.note_text.get() == "There is no move to take back."


def test_new_game_dialog_resets_everything(make_app: AppMaker) -> None:
    app = make_app(
        GameSettings("connect4", "human-ai", first=AI, level="easy"),
        player_factory=endless_factory,
    )
    pump(app, lambda: app.session.progress is not None)  # the AI is thinking
    app.hint()
    app.show_analysis.set(True)
    app.buttons["new"].invoke()
    dialog = app.dialog
    assert dialog is not None
    dialog.game.set("Gomoku")
    dialog.game_changed()
    dialog.mode.set("human-human")
    dialog.first.set(HUMAN)
    dialog.rule.set("standard")
    dialog.size.set("13")
    dialog.ok_button.invoke()
    app.root.update()
    session = app.session
    state = session.match.state
    assert isinstance(state, Gomoku) and state.size == 13 and state.rule.value == "standard"
    assert [seat.kind for seat in session.match.seats] == [HUMAN, HUMAN]
    assert state.ply == 0 and state.to_move == 0
    assert not session.game_over and not session.thinking
    assert session.clocks.used_s == [0.0, 0.0] and session.clocks.running == 0
    assert session.hint is None and session.progress is None
    assert app.turn_text.get() == "Black to move (human)"
    settle(app, 0.2)  # the old search's answer must not land on the new board
    assert session.match.state.ply == 0
    click_move(app, state.centre)
    assert session.match.state.ply == 1


def test_a_bad_size_in_the_dialog_is_explained(make_app: AppMaker) -> None:
    app = make_app(GameSettings("tictactoe", "human-human"))
    dialog = app.open_new_game()
    dialog.game.set("Gomoku")
    dialog.game_changed()
    dialog.size.set("40")
    dialog.ok_button.invoke()
    assert "5..22" in dialog.error.get()
    assert app.session.match.game == "tictactoe"
    dialog.close()


def test_clicks_at_the_edges_and_corners_of_each_board(make_app: AppMaker) -> None:
    app = make_app(GameSettings("gomoku", "human-human"))
    grid = app.view.grid
    half = grid.cell / 2
    far = (grid.columns - 1) * grid.cell
    state = app.session.match.state
    assert isinstance(state, Gomoku)
    click(app, grid.left - half + 2, grid.top - half + 2)  # outside the corner, within reach
    assert state.moves == [state.point(0, 0)]
    click(app, grid.left + far + half - 2, grid.top + far + half - 2)
    assert state.moves[-1] == state.point(14, 14)
    click(app, grid.left + 2.6 * grid.cell, grid.top + far)  # 2.6 spacings: rounds to d1
    assert state.moves[-1] == state.point(3, 14)
    click(app, grid.left - half - 3, grid.top + 3 * grid.cell)  # off the board
    assert state.ply == 3 and "off the board" in app.note_text.get()
    click(app, *app.view.pixel_of(state, state.point(0, 0)))  # on a stone
    assert state.ply == 3 and app.note_text.get() == "a15 is already taken."

    app.new_game(GameSettings("tictactoe", "human-human"))
    grid = app.view.grid
    click(app, grid.left + 1, grid.top + 1)
    click(app, grid.left + 3 * grid.cell - 1, grid.top + 3 * grid.cell - 1)
    click(app, grid.left - 2, grid.top + 2)  # left of the grid
    assert app.session.match.state.moves == [0, 8]

    app.new_game(GameSettings("connect4", "human-human"))
    grid = app.view.grid
    click(app, grid.left + 1, grid.top - 0.5 * grid.cell)  # the hover row of column 1
    click(app, grid.left + 7 * grid.cell - 1, grid.top + 6 * grid.cell - 1)  # bottom-right
    click(app, grid.left - 2, grid.top + grid.cell)  # left of the rack
    assert app.session.match.state.moves == [0, 6]


def test_renju_forbidden_point_is_shown_and_refused(make_app: AppMaker) -> None:
    app = make_app(GameSettings("gomoku", "human-human", rule="renju"))
    state = app.session.match.state
    assert isinstance(state, Gomoku)
    for text in ("h8", "a1", "g8", "a2", "i10", "a3", "i9", "o15"):
        click_move(app, state.parse_move(text))
    assert state.ply == 8 and state.to_move == 0
    forbidden = state.parse_move("i8")
    assert len(items(app, TAG_FORBIDDEN)) == 2 * len(state.forbidden_points())
    assert forbidden in state.forbidden_points()
    click_move(app, forbidden)
    assert state.ply == 8
    assert "double-three" in app.note_text.get() and "forbidden" in app.note_text.get()
    app.show_forbidden.set(False)
    app.refresh()
    assert not items(app, TAG_FORBIDDEN)


def test_hint_and_analysis_are_drawn(make_app: AppMaker) -> None:
    app = make_app(GameSettings("tictactoe", "human-ai", level="easy"))
    app.buttons["hint"].invoke()
    pump(app, lambda: app.session.hint is not None)
    assert items(app, TAG_HINT)
    hint = app.session.hint
    assert hint is not None and hint.move is not None
    click_move(app, hint.move)
    pump(app, lambda: ai_idle(app))
    app.show_analysis.set(True)
    app.refresh()
    assert items(app, TAG_HEAT) and items(app, TAG_PV)
    assert "view before its move" in app.analysis_title.get()


def test_window_answers_events_while_the_ai_thinks(make_app: AppMaker) -> None:
    app = make_app(
        GameSettings("connect4", "human-ai", first=AI, level="easy"),
        player_factory=endless_factory,
    )
    pump(app, lambda: app.session.progress is not None and app.session.progress.depth >= 2)
    assert "thinking" in app.search_text.get() and "depth" in app.search_text.get()
    depth = app.session.progress.depth  # type: ignore[union-attr]
    cell = app.view.grid.cell
    app.root.geometry("900x950")
    pump(app, lambda: app.view.grid.cell > cell)  # resized and redrawn mid-search
    click_move(app, 3)
    assert app.session.match.state.ply == 0
    assert "AI is thinking" in app.note_text.get()
    pump(app, lambda: app.session.progress.depth > depth)  # type: ignore[union-attr]
    assert app.session.thinking
    app.buttons["move_now"].invoke()
    pump(app, lambda: app.session.match.state.ply == 1)
    state = app.session.match.state
    assert isinstance(state, ConnectFour)
    assert state.moves == [ConnectFour().legal_moves()[-1]]  # the scripted player's choice
    assert not app.session.thinking


def test_save_and_load_use_the_terminal_format(make_app: AppMaker, tmp_path: Path) -> None:
    app = make_app(GameSettings("connect4", "human-human", width=6, height=5))
    for column in (2, 3, 2):
        click_move(app, column)
    path = tmp_path / "game.json"
    assert app.save_to(str(path))
    record = json.loads(path.read_text())
    assert record["moves"] == ["3", "4", "3"]
    assert Match.load(path).state.moves == [2, 3, 2]
    app.new_game(GameSettings("tictactoe", "human-human"))
    assert app.load_from(str(path))
    state = app.session.match.state
    assert isinstance(state, ConnectFour) and (state.width, state.height) == (6, 5)
    assert state.moves == [2, 3, 2] and app.session.settings.width == 6
    assert not app.load_from(str(tmp_path / "missing.json"))
    assert "no file" in app.note_text.get()


CLOSE_DURING_SEARCH = textwrap.dedent(
    """
    import sys, time
    from abgames.ai.player import AIPlayer
    from abgames.ui.desktop.app import DesktopApp
    from abgames.ui.desktop.controller import GameSettings

    class Stubborn(AIPlayer):
        level = "easy"
        def think(self, state):
            while True:          # never yields, never stops
                time.sleep(0.01)
            yield
        def stop(self):
            pass

    app = DesktopApp(GameSettings("tictactoe", "human-ai", first="ai", level="easy"),
                     screen=sys.argv[1], player_factory=lambda g, l, s: Stubborn())
    def close():
        assert app.session.thinking
        print("closing", flush=True)
        app.root.tk.call(app.root.protocol("WM_DELETE_WINDOW"))
    app.root.after(300, close)
    sys.exit(app.run())
    """
)


def test_closing_the_window_during_a_search_exits_at_once(display: str) -> None:
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-c", CLOSE_DURING_SEARCH, display],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "closing" in out
    assert time.monotonic() - started < 20
