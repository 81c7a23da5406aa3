"""The Gomoku analysis drawn legibly, and the window's title in a small window (Xvfb).

Measured on the canvas: every heat-map score fits inside its ghost stone (long
labels such as ``≤-1.4k`` spilt over the stones around), the expected line's numbers
never touch a stone and at most ``PV_BOARD_MOVES`` are drawn, and in a narrow window
the game's title wraps instead of being cut at the check boxes.
"""

from __future__ import annotations

import math
import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Iterator

import pytest

from abgames.games import Gomoku
from abgames.search.result import SearchResult
from abgames.ui.desktop import theme
from abgames.ui.desktop.app import DesktopApp
from abgames.ui.desktop.boards import TAG_HEAT, TAG_PIECE, TAG_PV, GomokuView, Overlay
from abgames.ui.desktop.controller import Analysis, GameSettings
from desktop_support import open_app, pump, settle, virtual_display

Box = tuple[float, float, float, float]


@pytest.fixture(scope="module")
def root() -> Iterator[tk.Tk]:
    window = tk.Tk(screenName=virtual_display())
    yield window
    window.destroy()


def kind(canvas: tk.Canvas, item: int) -> str:
    return str(canvas.type(item))


def text_of(canvas: tk.Canvas, item: int) -> str:
    options = canvas.itemconfigure(item)
    assert options is not None
    return str(options["text"][-1])


def box(canvas: tk.Canvas, item: int) -> Box:
    x0, y0, x1, y1 = canvas.bbox(item)
    return float(x0), float(y0), float(x1), float(y1)


def touches_circle(rect: Box, circle: Box) -> bool:
    """Whether a rectangle and the circle inscribed in ``circle``'s box overlap."""
    cx, cy = (circle[0] + circle[2]) / 2, (circle[1] + circle[3]) / 2
    radius = (circle[2] - circle[0]) / 2
    nearest_x = min(max(cx, rect[0]), rect[2])
    nearest_y = min(max(cy, rect[1]), rect[3])
    return math.hypot(nearest_x - cx, nearest_y - cy) < radius - 1


def draw_ai_analysis(root: tk.Tk) -> tuple[tk.Canvas, Gomoku, SearchResult]:
    """White's analysis before its move g7, around a small cluster of stones: the
    scores are bounds (``≤-1.4k`` and the like) and the line runs between the stones."""
    base = Gomoku.from_notation("h8 i9 h9 h7 j8")
    played = base.parse_move("g7")
    candidates = ["g7", "h10", "g9", "i8", "j7", "k8", "g8", "j9"]
    scores = [-1234, -1400, -1398, -1555, -2222, -1899, -1402, -1600]
    line = ["g7", "h10", "g8", "j9", "g9", "i8", "k8"]
    result = SearchResult(
        move=played,
        score=-1234,
        depth=9,
        nodes=1000,
        elapsed=1.0,
        pv=tuple(base.parse_move(m) for m in line),
        root_scores={base.parse_move(m): s for m, s in zip(candidates, scores, strict=True)},
    )
    analysis = Analysis(result=result, base=base.copy(), is_hint=False, level="hard", played=played)
    state = base.copy()
    state.play(played)
    canvas = tk.Canvas(root, width=560, height=560)
    canvas.pack()
    root.update()
    view = GomokuView(canvas)
    view.draw(state, Overlay(analysis=analysis))
    root.update()
    assert view.grid.cell >= theme.SCORE_TEXT_MIN_CELL_PX  # scores are drawn as text
    return canvas, state, result


def test_heat_map_scores_stay_inside_their_ghost_stones(root: tk.Tk) -> None:
    canvas, _, result = draw_ai_analysis(root)
    heat = canvas.find_withtag(TAG_HEAT)
    ghosts = [box(canvas, i) for i in heat if kind(canvas, i) == "oval"]
    labels = [box(canvas, i) for i in heat if kind(canvas, i) == "text"]
    assert len(ghosts) == len(result.root_scores) - 1  # all but the move played
    assert len(labels) == len(ghosts)
    for label in labels:
        centre = ((label[0] + label[2]) / 2, (label[1] + label[3]) / 2)
        ghost = next(g for g in ghosts if g[0] <= centre[0] <= g[2] and g[1] <= centre[1] <= g[3])
        assert ghost[0] <= label[0] and label[2] <= ghost[2], (label, ghost)
    canvas.destroy()


def test_the_expected_line_is_numbered_off_the_stones(root: tk.Tk) -> None:
    canvas, state, _ = draw_ai_analysis(root)
    stones = [box(canvas, i) for i in canvas.find_withtag(TAG_PIECE) if kind(canvas, i) == "oval"]
    assert len(stones) == state.ply
    pv_items = canvas.find_withtag(TAG_PV)
    numbers = [text_of(canvas, i) for i in pv_items if kind(canvas, i) == "text"]
    assert numbers and len(numbers) <= theme.PV_BOARD_MOVES
    for item in pv_items:
        for stone in stones:
            assert not touches_circle(box(canvas, item), stone), text_of(canvas, item)
    canvas.destroy()


def test_a_small_window_wraps_the_title_instead_of_cutting_it() -> None:
    app: DesktopApp = open_app(virtual_display(), settings=GameSettings("gomoku", "human-ai"))
    try:
        # Once on screen the window keeps its size (``DesktopApp._fix_size``, run by the
        # poll): let that happen first, or it may undo the resize below.
        pump(app, lambda: bool(app.root.winfo_ismapped()))
        settle(app, 3 * theme.POLL_MS / 1000)
        app.root.geometry("420x360")
        app.show_analysis.set(True)
        app.refresh()
        pump(app, lambda: app.root.winfo_width() == 420)
        app.root.update()
        title = app.info_text.get()
        [label] = [w for w in _widgets(app.root) if _shows(w, app.info_text)]
        pump(app, lambda: label.winfo_width() > 1)
        app.root.update()
        text_font = tkfont.nametofont(str(label.cget("font") or "TkDefaultFont"))
        width = label.winfo_width()
        assert text_font.measure(title) > width  # too long for one line here
        lines = math.ceil(text_font.measure(title) / width)
        assert label.winfo_height() >= lines * text_font.metrics("linespace")
    finally:
        app.quit()


def _shows(widget: tk.Widget, variable: tk.StringVar) -> bool:
    try:
        return str(widget.cget("textvariable")) == str(variable)
    except tk.TclError:
        return False


def _widgets(root: tk.Misc) -> list[tk.Widget]:
    found: list[tk.Widget] = []
    pending = list(root.winfo_children())
    while pending:
        widget = pending.pop()
        pending.extend(widget.winfo_children())
        if isinstance(widget, tk.Widget):
            found.append(widget)
    return found
