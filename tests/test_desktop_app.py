"""The desktop window under a virtual display, driven by real Tk events on its canvas."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import tkinter as tk
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from abgames.games import ConnectFour, Gomoku
from abgames.match import AI, HUMAN, Match
from abgames.ui.desktop import theme
from abgames.ui.desktop.app import VIEW_MENU_ENTRIES, DesktopApp
from abgames.ui.desktop.boards import (
    TAG_COORD,
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
    SilentSolver,
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


def test_tictactoe_coordinates_name_the_cells_as_the_moves_do(make_app: AppMaker) -> None:
    app = make_app(GameSettings("tictactoe", "human-human"))
    canvas = app.canvas
    where = {
        canvas.itemcget(item, "text"): canvas.coords(item)  # type: ignore[no-untyped-call]
        for item in items(app, TAG_COORD)
    }
    assert sorted(where) == ["1", "2", "3", "a", "b", "c"]
    state = app.session.match.state
    corner_x, corner_y = app.view.pixel_of(state, state.parse_move("a1"))
    assert app.view.pixel_of(state, 6) == (corner_x, corner_y)  # the bottom-left cell
    assert abs(where["a"][0] - corner_x) < 1 and where["a"][1] > corner_y  # "a" under it
    assert abs(where["1"][1] - corner_y) < 1 and where["1"][0] < corner_x  # "1" beside it
    click_move(app, 6)
    assert state.moves == [6] and state.format_move(6) == "a1"
    # Connect Four: the columns numbered under the rack, as its moves are written.
    app.new_game(GameSettings("connect4", "human-human"))
    numbers = {
        app.canvas.itemcget(item, "text"): app.canvas.coords(item)  # type: ignore[no-untyped-call]
        for item in items(app, TAG_COORD)
    }
    assert sorted(numbers) == ["1", "2", "3", "4", "5", "6", "7"]
    grid = app.view.grid
    assert abs(numbers["5"][0] - app.view.pixel_of(app.session.match.state, 4)[0]) < 1
    assert numbers["5"][1] > grid.top + grid.rows * grid.cell  # under the rack


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
    from abgames.ui.desktop.app import VIEW_MENU_ENTRIES, DesktopApp
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


# --- hardening (issue 9) ---------------------------------------------------------------
def solver_factory(solver: SilentSolver) -> Callable[[str, str, int | None], SilentSolver]:
    return lambda _game, _level, _seed: solver


def test_the_solving_time_ticks_while_the_solver_says_nothing(
    make_app: AppMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    from abgames.ui.desktop import worker

    monkeypatch.setattr(worker, "prepare", lambda *_args: None)  # the stand-in needs no kernels
    solver = SilentSolver()
    app = make_app(
        GameSettings("connect4", "human-ai", first=AI, level="perfect"),
        player_factory=solver_factory(solver),
    )
    pump(app, lambda: app.search_text.get().startswith("solving… 0.3"))
    pump(app, lambda: app.search_text.get().startswith("solving… 0.6"))  # the window's own timer
    assert app.session.progress is None and app.session.match.state.ply == 0
    solver.release.set()
    pump(app, lambda: app.session.match.state.ply == 1)
    assert app.search_text.get() == ""


def test_a_real_perfect_fallback_says_not_solved(make_app: AppMaker) -> None:
    # The solver does not handle 6x5: the perfect player searches heuristically.
    app = make_app(
        GameSettings("connect4", "human-ai", first=AI, level="perfect", width=6, height=5)
    )
    # The first reports may be the kernels' readiness notice (a note, no nodes).
    pump(app, lambda: app.session.progress is not None and app.session.progress.nodes > 0)
    assert app.search_text.get().startswith("solving… depth ")
    app.buttons["move_now"].invoke()
    pump(app, lambda: app.session.match.state.ply == 1)
    assert app.note_text.get().endswith(": not solved, best heuristic move.")
    app.show_analysis.set(True)
    app.refresh()
    assert "not solved, best heuristic move" in app.analysis_text.get()


def heat_at(app: DesktopApp, move: int) -> list[int]:
    x, y = app.view.pixel_of(app.session.match.state, move)
    near = app.canvas.find_overlapping(x - 1, y - 1, x + 1, y + 1)
    return [item for item in near if TAG_HEAT in app.canvas.gettags(item)]


def test_the_ai_view_is_labelled_and_kept_off_the_cells_played_since(make_app: AppMaker) -> None:
    app = make_app(GameSettings("tictactoe", "human-ai", first=AI, level="hard"))
    pump(app, lambda: ai_idle(app) and app.session.match.state.ply == 1)
    app.show_analysis.set(True)
    app.refresh()
    state = app.session.match.state
    ai_move = state.moves[0]
    assert len(app.session.match.analyses[0].root_scores) == 9  # type: ignore[union-attr]
    assert not heat_at(app, ai_move)  # nothing under the mark just played
    assert len(items(app, TAG_HEAT)) == 2 * 8  # a cell and a score on each open cell
    assert app.analysis_title.get().startswith(
        f"X's view before its move {state.format_move(ai_move)}: its scores"
    )
    app.buttons["hint"].invoke()
    pump(app, lambda: app.session.hint is not None)
    assert app.analysis_title.get() == "Hint for O: O's score for each move now."
    assert len(items(app, TAG_HEAT)) == 2 * 8 and not heat_at(app, ai_move)
    texts = [i for i in items(app, TAG_HEAT) if str(app.canvas.type(i)) == "text"]
    labels = {app.canvas.itemcget(i, "text") for i in texts}  # type: ignore[no-untyped-call]
    # O's scores, marked as O's, and solved: no heuristic values.
    assert labels and labels <= {"O: D", "O: L1", "O: L2", "O: L3", "O: L4"}, labels


def test_gomoku_scores_are_not_drawn_under_stones(make_app: AppMaker) -> None:
    app = make_app(GameSettings("gomoku", "human-ai", level="easy", size=9))
    state = app.session.match.state
    click_move(app, state.parse_move("e5"))
    pump(app, lambda: ai_idle(app) and state.ply == 2)
    app.show_analysis.set(True)
    app.refresh()
    assert items(app, TAG_HEAT)
    for move in state.moves:
        assert not heat_at(app, move)


def labels_showing(app: DesktopApp, variable: object) -> list[tk.Widget]:
    """The widgets of the window whose text is ``variable``."""
    found = []
    pending: list[tk.Misc] = [app.root]
    while pending:
        widget = pending.pop()
        pending.extend(widget.winfo_children())
        try:
            if widget.cget("textvariable") == str(variable):
                found.append(widget)
        except tk.TclError:
            continue
    return found  # type: ignore[return-value]


def test_a_long_status_never_runs_into_the_clocks(make_app: AppMaker) -> None:
    app = make_app(GameSettings("gomoku", "human-human"))
    [clocks] = labels_showing(app, app.clock_text)
    [turn] = labels_showing(app, app.turn_text)
    app.turn_text.set("Black to move (AI, classic): " + "thinking… " * 30)
    app.root.update_idletasks()
    assert clocks.winfo_width() >= clocks.winfo_reqwidth()  # the clocks are whole
    assert turn.winfo_x() + turn.winfo_width() <= clocks.winfo_x()  # and not overlapped
    assert app.root.winfo_width() == 640


def test_the_window_keeps_its_width_from_game_to_game(display: str) -> None:
    app = DesktopApp(GameSettings("tictactoe", "human-human"), screen=display)
    try:
        pump(app, lambda: app.canvas.winfo_width() > 100)
        width = app.root.winfo_width()
        for settings in (
            GameSettings("gomoku", "human-ai", rule="renju"),
            GameSettings("connect4", "ai-ai", level="easy"),
            GameSettings("gomoku", "human-human", size=19),
            GameSettings("tictactoe", "human-ai"),
        ):
            app.new_game(settings)
            app.show_analysis.set(not app.show_analysis.get())
            app.refresh()
            settle(app, 0.05)
            assert app.root.winfo_width() == width, settings
    finally:
        app.quit()


def test_numbers_and_forbidden_are_offered_only_where_they_mean_something(
    make_app: AppMaker,
) -> None:
    app = make_app(GameSettings("tictactoe", "human-human"))
    offered = {
        "tictactoe": set(),
        "connect4": set(),
        "gomoku": {"numbers"},
        "renju": {"numbers", "forbidden"},
    }
    for game, expected in offered.items():
        if game == "renju":
            app.new_game(GameSettings("gomoku", "human-human", rule="renju"))
        else:
            app.new_game(GameSettings(game, "human-human"))
        app.root.update()
        shown = {name for name, toggle in app.toggles.items() if toggle.winfo_ismapped()}
        assert shown == expected | {"analysis"}, game
        for name in ("numbers", "forbidden"):
            state = app.view_menu.entrycget(VIEW_MENU_ENTRIES[name], "state")
            assert state == ("normal" if name in expected else "disabled"), (game, name)


def cancel_file_dialog(app: DesktopApp) -> None:
    """Press Cancel in Tk's own file dialog (or close it if there is no such button)."""
    tcl = app.root.tk
    pending = [".__tk_filedialog"]
    while pending:
        path = pending.pop()
        pending.extend(str(child) for child in tcl.splitlist(tcl.call("winfo", "children", path)))
        is_button = tcl.call("winfo", "class", path) in ("Button", "TButton")
        if is_button and tcl.call(path, "cget", "-text") == "Cancel":
            tcl.call(path, "invoke")
            return
    tcl.call("destroy", ".__tk_filedialog")


def screen_box(app: DesktopApp, path: str) -> tuple[int, int, int, int]:
    """Left, top, right and bottom of the window ``path`` on the screen."""
    x, y, width, height = (
        int(app.root.tk.call("winfo", what, path)) for what in ("rootx", "rooty", "width", "height")
    )
    return x, y, x + width, y + height


def test_the_file_dialogs_leave_the_board_in_view(make_app: AppMaker) -> None:
    app = make_app(GameSettings("gomoku", "human-human"))
    state = app.session.match.state
    for text in ("h8", "h9", "i8"):  # an early game: all in the middle of the board
        click_move(app, state.parse_move(text))
    seen: list[tuple[int, bool]] = []

    def look_and_cancel() -> None:
        try:
            app.redraw()  # what the poll loop and a resize do while the dialog is open
            app.root.update()
            left, top, right, bottom = screen_box(app, ".__tk_filedialog")
            c_left, c_top, c_right, c_bottom = screen_box(app, str(app.canvas))
            apart = right <= c_left or left >= c_right or bottom <= c_top or top >= c_bottom
            seen.append((len(items(app, "piece")), apart))
        finally:
            cancel_file_dialog(app)

    for button in ("load", "save"):
        app.root.after(400, look_and_cancel)
        app.buttons[button].invoke()  # returns when the dialog is cancelled
    assert seen == [(3, True), (3, True)]  # drawn, and not hidden by the dialog
    assert len(items(app, "piece")) == 3 and app.note_text.get() == ""


CORRUPT_SAVES = {
    "bad JSON": '{"format": "abgames-game", "version": 1,',
    "moves of the wrong type": (
        '{"format": "abgames-game", "version": 1, "game": "connect4", "options": {},'
        ' "moves": 5, "players": ["human", "ai"], "levels": [null, "easy"]}'
    ),
    "options of the wrong type": (
        '{"format": "abgames-game", "version": 1, "game": "connect4",'
        ' "options": {"width": "seven"}, "moves": [],'
        ' "players": ["human", "ai"], "levels": [null, "easy"]}'
    ),
    "a list as a level": (
        '{"format": "abgames-game", "version": 1, "game": "connect4", "options": {},'
        ' "moves": [], "players": ["human", "ai"], "levels": [null, [1]]}'
    ),
    "a list as the game": (
        '{"format": "abgames-game", "version": 1, "game": ["connect4"], "options": {},'
        ' "moves": [], "players": ["human", "ai"], "levels": [null, "easy"]}'
    ),
    "deeply nested brackets": "[" * 200_000 + "]" * 200_000,
    "an illegal move": (
        '{"format": "abgames-game", "version": 1, "game": "connect4", "options": {},'
        ' "moves": ["9"], "players": ["human", "ai"], "levels": [null, "easy"]}'
    ),
}


def test_a_corrupt_save_file_is_explained_and_the_game_goes_on(
    make_app: AppMaker, tmp_path: Path
) -> None:
    app = make_app(
        GameSettings("tictactoe", "human-ai", level="easy"), player_factory=endless_factory
    )
    click_move(app, 4)
    pump(app, lambda: app.session.progress is not None)  # the AI is thinking about its reply
    generation = app.session.generation
    paths = {"no such file": tmp_path / "missing.json", "a directory": tmp_path}
    for name, text in CORRUPT_SAVES.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(text)
    for name, path in paths.items():
        assert not app.load_from(str(path)), name
        note = app.note_text.get()
        assert note.startswith("Not loaded: ") and note.endswith("The game goes on."), note
        assert "\n" not in note, note
        assert app.session.match.game == "tictactoe" and app.session.match.state.moves == [4]
        assert app.session.thinking and app.session.generation == generation, name


def test_gui_with_a_missing_save_file_says_so_and_exits(display: str, tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    completed = subprocess.run(
        [sys.executable, "-m", "abgames", "gui", "--load", str(missing)],
        capture_output=True,
        text=True,
        env={**os.environ, "DISPLAY": display},
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stderr == f"abgames gui: there is no file {missing}\n"
