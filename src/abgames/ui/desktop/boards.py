"""Board views: each draws one game's position on a Tk canvas and maps clicks to moves.

A view knows pixels, never rules: it reads the state to draw it and turns a
pixel into the move it points at (``move_at``); whether that move is legal is
the session's business. Layout is recomputed from the canvas size on every
draw, so the board scales with the window.
"""

from __future__ import annotations

import time
import tkinter as tk
import tkinter.font as tkfont
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from abgames.games import ConnectFour, GameState, Gomoku, Move, TicTacToe
from abgames.games.gomoku import EMPTY, LETTERS
from abgames.games.tictactoe import COLUMN_LETTERS as TTT_LETTERS
from abgames.games.tictactoe import SIZE as TTT_SIZE
from abgames.games.tictactoe import row_label as ttt_row_label
from abgames.ui.desktop import theme
from abgames.ui.desktop.controller import Analysis
from abgames.ui.desktop.geometry import (
    Grid,
    blend,
    cell_score,
    fit_grid,
    heat_fraction,
    star_points,
)

#: Canvas tags of the items tests and the window look for.
TAG_PIECE = "piece"
TAG_HOVER = "hover"
TAG_HINT = "hint"
TAG_HEAT = "heat"
TAG_PV = "pv"
TAG_WIN = "win"
TAG_LAST = "last"
TAG_FORBIDDEN = "forbidden"
TAG_DROP = "drop"
TAG_COORD = "coord"
FONT_FAMILY = "DejaVu Sans"
WHITE = (255, 255, 255)


@dataclass
class Overlay:
    """What is drawn over the stones: hint, analysis, numbers, forbidden points, hover."""

    hint: Move | None = None
    analysis: Analysis | None = None
    show_numbers: bool = False
    forbidden: dict[Move, str] = field(default_factory=dict)
    hover: tuple[float, float] | None = None
    can_play: bool = False


@dataclass(frozen=True)
class Drop:
    """A Connect Four disc falling into (column, row) since ``started`` (monotonic seconds)."""

    column: int
    row: int
    player: int
    started: float


def font(pixels: float, bold: bool = False) -> tuple[str, int, str]:
    """A Tk font of ``pixels`` height (negative sizes are pixels in Tk)."""
    return (FONT_FAMILY, -max(6, round(pixels)), "bold" if bold else "normal")


def pale(colour: tuple[int, int, int], amount: float = 0.45) -> str:
    """``colour`` mixed with white, for backgrounds under pieces and text."""
    return blend(colour, WHITE, amount)


def heat_colours(analysis: Analysis, open_moves: Iterable[Move]) -> dict[Move, tuple[str, str]]:
    """The fill colour and short score text of each candidate still in ``open_moves``.

    Colours run over all of the search's candidates, best hottest, so a cell keeps
    the colour it had when the search ended. A move played since (the AI's own, a
    reply) is left out: its score belongs to the position before it. When only the
    best score is exact the others are upper bounds, shown as ``≤+3``; a draw is
    ``D`` when the search solved the position, ``0`` when it is a heuristic even.
    """
    result = analysis.result
    root = result.root_scores
    if not root:
        return {}
    low, high = min(root.values()), max(root.values())
    still_open = set(open_moves)
    return {
        move: (
            blend(theme.HEAT_COLD, theme.HEAT_HOT, heat_fraction(value, low, high)),
            cell_score(
                value,
                bound=not result.root_scores_exact and move != result.move,
                solved=result.solved,
            ),
        )
        for move, value in root.items()
        if move in still_open
    }


class BoardView(ABC):
    """One game's drawing on ``canvas``; ``grid`` is the layout of the last draw."""

    def __init__(self, canvas: tk.Canvas) -> None:
        self.canvas = canvas
        self.grid = Grid(0, 0, 1, 1, 1)

    @property
    def animating(self) -> bool:
        """Whether the view wants to be drawn again soon (an animation is running)."""
        return False

    def size(self) -> tuple[int, int]:
        return max(1, self.canvas.winfo_width()), max(1, self.canvas.winfo_height())

    def draw(self, state: GameState, overlay: Overlay) -> None:
        """Redraw everything for ``state`` at the canvas's current size."""
        self.canvas.delete("all")
        width, height = self.size()
        self.grid = self.layout(state, width, height)
        self.paint(state, overlay)

    @abstractmethod
    def layout(self, state: GameState, width: int, height: int) -> Grid:
        """The grid for a canvas of ``width`` x ``height`` pixels."""

    @abstractmethod
    def paint(self, state: GameState, overlay: Overlay) -> None:
        """Draw ``state`` on the laid-out grid."""

    @abstractmethod
    def move_at(self, state: GameState, x: float, y: float) -> Move | None:
        """The move a click at (x, y) points at, or ``None`` off the board."""

    def draw_win_line(self, canvas: tk.Canvas, state: GameState, cell: float) -> None:
        """A thick line from the first to the last cell of the winning line, if any."""
        outcome = state.outcome()
        if outcome is None or not outcome.line:
            return
        x0, y0 = self.pixel_of(state, outcome.line[0])
        x1, y1 = self.pixel_of(state, outcome.line[-1])
        canvas.create_line(
            x0,
            y0,
            x1,
            y1,
            width=theme.WIN_HIGHLIGHT_WIDTH * cell,
            fill=theme.WIN_HIGHLIGHT,
            capstyle=tk.ROUND,
            tags=(TAG_WIN,),
        )

    @abstractmethod
    def pixel_of(self, state: GameState, move: Move) -> tuple[float, float]:
        """A pixel that ``move_at`` maps to ``move`` (the centre of its cell or point)."""

    def moved(self, state: GameState) -> None:  # noqa: B027 - optional hook
        """Called after a move was played on ``state`` (Connect Four animates it)."""

    # --- shared drawing helpers ------------------------------------------------
    def circle(self, x: float, y: float, diameter: float, **options: object) -> int:
        radius = diameter / 2
        return self.canvas.create_oval(x - radius, y - radius, x + radius, y + radius, **options)  # type: ignore[call-overload, no-any-return]

    def text(
        self,
        x: float,
        y: float,
        text: str,
        pixels: float,
        colour: str,
        tag: str,
        bold: bool = False,
    ) -> None:
        self.canvas.create_text(x, y, text=text, fill=colour, font=font(pixels, bold), tags=(tag,))

    def fitted_text(
        self,
        x: float,
        y: float,
        text: str,
        pixels: float,
        width: float,
        colour: str,
        tag: str,
        bold: bool = False,
    ) -> bool:
        """``text`` at most ``pixels`` high, shrunk until it is at most ``width`` wide;
        left out (``False``) if it does not fit at ``theme.SCORE_FONT_MIN_PX``."""
        size = round(pixels)
        while size >= theme.SCORE_FONT_MIN_PX:
            spec = font(size, bold)
            weight: Literal["normal", "bold"] = "bold" if bold else "normal"
            measure = tkfont.Font(
                root=self.canvas, family=FONT_FAMILY, size=spec[1], weight=weight
            ).measure(text)
            if measure <= width:
                self.canvas.create_text(x, y, text=text, fill=colour, font=spec, tags=(tag,))
                return True
            size -= 1
        return False

    def pv_labels(
        self, places: Iterable[tuple[float, float]], dx_cells: float, dy_cells: float
    ) -> None:
        """Numbers 1, 2, 3... of the principal variation, offset from the given centres."""
        cell = self.grid.cell
        for number, (x, y) in enumerate(places, start=1):
            self.text(
                x + dx_cells * cell,
                y + dy_cells * cell,
                str(number),
                theme.PV_FONT_SCALE * cell,
                theme.PV_COLOUR,
                TAG_PV,
                bold=True,
            )


class TicTacToeView(BoardView):
    """The 3x3 grid; cell ``row * 3 + column``."""

    def layout(self, state: GameState, width: int, height: int) -> Grid:
        return fit_grid(width, height, TTT_SIZE, TTT_SIZE, margin_cells=theme.TTT_MARGIN_CELLS)

    def move_at(self, state: GameState, x: float, y: float) -> Move | None:
        hit = self.grid.cell_at(x, y)
        return None if hit is None else hit[1] * TTT_SIZE + hit[0]

    def pixel_of(self, state: GameState, move: Move) -> tuple[float, float]:
        return self.grid.cell_centre(move % TTT_SIZE, move // TTT_SIZE)

    def paint(self, state: GameState, overlay: Overlay) -> None:
        assert isinstance(state, TicTacToe)
        grid, canvas, cell = self.grid, self.canvas, self.grid.cell
        right, bottom = grid.left + 3 * cell, grid.top + 3 * cell
        canvas.create_rectangle(
            grid.left, grid.top, right, bottom, fill=theme.TTT_BACKGROUND, width=0
        )
        # The coordinates, as the moves are written: a1 is the bottom-left cell.
        offset = theme.TTT_MARGIN_CELLS * cell / 2
        size, ink = theme.TTT_COORD_FONT_SCALE * cell, theme.COORD_ON_WINDOW
        for i in range(TTT_SIZE):
            x, y = grid.cell_centre(i, i)
            self.text(x, bottom + offset, TTT_LETTERS[i], size, ink, TAG_COORD)
            self.text(grid.left - offset, y, str(ttt_row_label(i)), size, ink, TAG_COORD)
        if overlay.analysis is not None:
            empty = (move for move, player in enumerate(state.cells) if player is None)
            for move, (colour, label) in heat_colours(overlay.analysis, empty).items():
                x, y = self.pixel_of(state, move)
                half = cell / 2
                canvas.create_rectangle(
                    x - half,
                    y - half,
                    x + half,
                    y + half,
                    fill=pale_hex(colour),
                    width=0,
                    tags=(TAG_HEAT,),
                )
                # The score is the viewer's: "O: L2" in O's colour reads "O here loses in 2".
                viewer = overlay.analysis.viewer
                self.text(
                    x,
                    y + 0.36 * cell,
                    f"{state.player_names[viewer]}: {label}",
                    theme.SCORE_FONT_SCALE * cell,
                    theme.PLAYER_FILL["tictactoe"][viewer],
                    TAG_HEAT,
                    bold=True,
                )
        line_width = max(2.0, theme.TTT_GRID_WIDTH * cell)
        for i in (1, 2):
            canvas.create_line(
                grid.left + i * cell,
                grid.top,
                grid.left + i * cell,
                bottom,
                width=line_width,
                fill=theme.TTT_GRID,
            )
            canvas.create_line(
                grid.left,
                grid.top + i * cell,
                right,
                grid.top + i * cell,
                width=line_width,
                fill=theme.TTT_GRID,
            )
        inset = theme.TTT_MARK_INSET * cell
        mark_width = max(2.0, theme.TTT_MARK_WIDTH * cell)
        for move, player in enumerate(state.cells):
            if player is None:
                continue
            x, y = self.pixel_of(state, move)
            half = cell / 2 - inset
            colour = theme.PLAYER_FILL["tictactoe"][player]
            tags = (TAG_PIECE, f"{TAG_PIECE}{move}")
            if player == 0:
                canvas.create_line(
                    x - half,
                    y - half,
                    x + half,
                    y + half,
                    width=mark_width,
                    fill=colour,
                    capstyle=tk.ROUND,
                    tags=tags,
                )
                canvas.create_line(
                    x - half,
                    y + half,
                    x + half,
                    y - half,
                    width=mark_width,
                    fill=colour,
                    capstyle=tk.ROUND,
                    tags=tags,
                )
            else:
                canvas.create_oval(
                    x - half,
                    y - half,
                    x + half,
                    y + half,
                    width=mark_width,
                    outline=colour,
                    tags=tags,
                )
        if state.last_move is not None:
            x, y = self.pixel_of(state, state.last_move)
            self.circle(
                x + 0.38 * cell,
                y + 0.38 * cell,
                0.08 * cell,
                fill=theme.LAST_MOVE_MARK,
                width=0,
                tags=(TAG_LAST,),
            )
        if overlay.hint is not None:
            x, y = self.pixel_of(state, overlay.hint)
            half = cell / 2 - 0.06 * cell
            canvas.create_rectangle(
                x - half,
                y - half,
                x + half,
                y + half,
                outline=theme.HINT_COLOUR,
                width=theme.HINT_WIDTH * cell,
                tags=(TAG_HINT,),
            )
        if overlay.analysis is not None:
            self.pv_labels(
                (self.pixel_of(state, m) for m in overlay.analysis.result.pv), -0.33, -0.3
            )
        self.draw_win_line(canvas, state, cell)


def pale_hex(colour: str) -> str:
    """A ``#rrggbb`` colour mixed with white (heat-map cell backgrounds)."""
    rgb = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
    return pale(rgb)


class ConnectFourView(BoardView):
    """The rack, a hover disc over the column under the pointer, and falling discs."""

    def __init__(self, canvas: tk.Canvas) -> None:
        super().__init__(canvas)
        self.drop: Drop | None = None

    @property
    def animating(self) -> bool:
        return self.drop is not None

    def layout(self, state: GameState, width: int, height: int) -> Grid:
        assert isinstance(state, ConnectFour)
        return fit_grid(
            width,
            height,
            state.width,
            state.height,
            margin_cells=theme.RACK_MARGIN_CELLS,
            top_extra_cells=theme.RACK_HEADROOM_CELLS,
        )

    def move_at(self, state: GameState, x: float, y: float) -> Move | None:
        """The column under ``x``, anywhere from the hover row down to the rack's bottom."""
        grid = self.grid
        top = grid.top - theme.RACK_HEADROOM_CELLS * grid.cell
        if not top <= y < grid.top + grid.rows * grid.cell:
            return None
        return grid.column_at(x)

    def pixel_of(self, state: GameState, move: Move) -> tuple[float, float]:
        return self.grid.cell_centre(move, 0)

    def cell_pixel(self, state: ConnectFour, column: int, row: int) -> tuple[float, float]:
        """The centre of the hole in ``column`` and ``row`` (0 = bottom)."""
        return self.grid.cell_centre(column, state.height - 1 - row)

    def moved(self, state: GameState) -> None:
        assert isinstance(state, ConnectFour)
        column = state.last_move
        if column is None:
            return
        self.drop = Drop(column, state.heights[column] - 1, 1 - state.to_move, time.monotonic())

    def paint(self, state: GameState, overlay: Overlay) -> None:
        assert isinstance(state, ConnectFour)
        grid, canvas, cell = self.grid, self.canvas, self.grid.cell
        colours = theme.PLAYER_FILL["connect4"]
        right, bottom = grid.left + state.width * cell, grid.top + state.height * cell
        hole = theme.DISC_DIAMETER * cell
        drop = self.drop
        if drop is not None and time.monotonic() - drop.started >= theme.DROP_MS / 1000:
            drop = self.drop = None
        hidden = (drop.column, drop.row) if drop is not None else None
        canvas.create_rectangle(grid.left, grid.top, right, bottom, fill=theme.RACK_COLOUR, width=0)
        # The column numbers under the rack, as the moves are written (1 on the left).
        below = bottom + theme.RACK_MARGIN_CELLS * cell / 2
        for column in range(state.width):
            x, _ = self.pixel_of(state, column)
            self.text(
                x,
                below,
                str(column + 1),
                theme.C4_COORD_FONT_SCALE * cell,
                theme.COORD_ON_WINDOW,
                TAG_COORD,
            )
        heat = {}
        if overlay.analysis is not None:
            playable = (c for c in range(state.width) if state.can_play(c))
            heat = heat_colours(overlay.analysis, playable)
        for column in range(state.width):
            for row in range(state.height):
                x, y = self.cell_pixel(state, column, row)
                player = state.cell(column, row)
                if player is None or (column, row) == hidden:
                    fill = theme.RACK_HOLE
                    tags: tuple[str, ...] = ()
                else:
                    fill = colours[player]
                    tags = (TAG_PIECE,)
                self.circle(x, y, hole, fill=fill, outline="", tags=tags)
        for column, (colour, label) in heat.items():
            # A ghost disc of the viewer's colour carries its score, in a square of heat.
            assert overlay.analysis is not None
            viewer = overlay.analysis.viewer
            x, _ = self.pixel_of(state, column)
            y = grid.top - theme.RACK_HEADROOM_CELLS * cell / 2
            half = 0.45 * cell
            canvas.create_rectangle(
                x - half, y - half, x + half, y + half, fill=colour, width=0, tags=(TAG_HEAT,)
            )
            self.circle(
                x,
                y,
                theme.GHOST_DIAMETER * cell,
                fill=colours[viewer],
                outline="",
                tags=(TAG_HEAT,),
            )
            ink = theme.SCORE_INK["connect4"][viewer]
            self.text(x, y, label, theme.SCORE_FONT_SCALE * 1.2 * cell, ink, TAG_HEAT, bold=True)
        if overlay.analysis is not None:
            self.pv_labels(
                self.replay_places(overlay.analysis.base, overlay.analysis.result.pv), 0.0, 0.0
            )
        if state.moves and drop is None and overlay.analysis is None:
            column = state.moves[-1]
            x, y = self.cell_pixel(state, column, state.heights[column] - 1)
            self.circle(x, y, 0.16 * cell, fill="#ffffff", outline="", tags=(TAG_LAST,))
        if overlay.hint is not None and state.can_play(overlay.hint):
            x, y = self.cell_pixel(state, overlay.hint, state.heights[overlay.hint])
            self.circle(
                x,
                y,
                hole,
                outline=theme.HINT_COLOUR,
                width=theme.HINT_WIDTH * cell,
                tags=(TAG_HINT,),
            )
        outcome = state.outcome()
        if outcome is not None and outcome.line and drop is None:
            for index in outcome.line:
                column, row = divmod(index, state.stride)
                x, y = self.cell_pixel(state, column, row)
                self.circle(
                    x,
                    y,
                    hole,
                    outline=theme.WIN_HIGHLIGHT,
                    width=theme.WIN_HIGHLIGHT_WIDTH * cell,
                    tags=(TAG_WIN,),
                )
        if overlay.hover is not None and overlay.can_play and not heat:
            hovered = self.move_at(state, *overlay.hover)
            if hovered is not None:
                x = grid.cell_centre(hovered, 0)[0]
                y = grid.top - theme.RACK_HEADROOM_CELLS * cell / 2
                self.circle(
                    x,
                    y,
                    theme.HOVER_DIAMETER * cell,
                    fill=colours[state.to_move],
                    outline="",
                    tags=(TAG_HOVER,),
                )
        if drop is not None:  # the falling disc, over the rack, ending in its hole
            fraction = min(1.0, (time.monotonic() - drop.started) / (theme.DROP_MS / 1000))
            x, end_y = self.cell_pixel(state, drop.column, drop.row)
            start_y = grid.top - theme.RACK_HEADROOM_CELLS * cell / 2
            y = start_y + (end_y - start_y) * fraction * fraction  # accelerating fall
            self.circle(x, y, hole, fill=colours[drop.player], outline="", tags=(TAG_DROP,))

    def replay_places(self, base: GameState, moves: Iterable[Move]) -> list[tuple[float, float]]:
        """Pixel centres where the discs of ``moves`` land when played from ``base``."""
        assert isinstance(base, ConnectFour)
        probe = base.copy()
        places = []
        for column in moves:
            if not probe.can_play(column):
                break
            places.append(self.cell_pixel(probe, column, probe.heights[column]))
            probe.play(column)
        return places


class GomokuView(BoardView):
    """A wood board with lines, star points, coordinates, stones, numbers and marks."""

    def layout(self, state: GameState, width: int, height: int) -> Grid:
        assert isinstance(state, Gomoku)
        span = state.size - 1
        return fit_grid(
            width,
            height,
            state.size,
            state.size,
            margin_cells=theme.GOMOKU_MARGIN_CELLS,
            span_columns=span,
            span_rows=span,
        )

    def move_at(self, state: GameState, x: float, y: float) -> Move | None:
        assert isinstance(state, Gomoku)
        hit = self.grid.nearest_intersection(x, y)
        return None if hit is None else state.point(*hit)

    def pixel_of(self, state: GameState, move: Move) -> tuple[float, float]:
        assert isinstance(state, Gomoku)
        return self.grid.intersection(*state.xy(move))

    def paint(self, state: GameState, overlay: Overlay) -> None:
        assert isinstance(state, Gomoku)
        grid, canvas, cell, size = self.grid, self.canvas, self.grid.cell, state.size
        last = (size - 1) * cell
        pad = theme.GOMOKU_MARGIN_CELLS * cell
        canvas.create_rectangle(
            grid.left - pad,
            grid.top - pad,
            grid.left + last + pad,
            grid.top + last + pad,
            fill=theme.WOOD,
            outline=theme.WOOD_EDGE,
            width=2,
        )
        for i in range(size):
            width = theme.GRID_WIDTH_PX * (2 if i in (0, size - 1) else 1)
            canvas.create_line(
                grid.left + i * cell,
                grid.top,
                grid.left + i * cell,
                grid.top + last,
                fill=theme.GRID_LINE,
                width=width,
            )
            canvas.create_line(
                grid.left,
                grid.top + i * cell,
                grid.left + last,
                grid.top + i * cell,
                fill=theme.GRID_LINE,
                width=width,
            )
        for x, y in star_points(size):
            px, py = grid.intersection(x, y)
            self.circle(
                px, py, max(4.0, theme.STAR_DIAMETER * cell), fill=theme.GRID_LINE, outline=""
            )
        coord = theme.COORD_FONT_SCALE * cell
        offset = 0.62 * pad
        for i in range(size):
            px, py = grid.intersection(i, i)
            self.text(px, grid.top - offset, LETTERS[i].upper(), coord, theme.GRID_LINE, TAG_COORD)
            self.text(
                px, grid.top + last + offset, LETTERS[i].upper(), coord, theme.GRID_LINE, TAG_COORD
            )
            self.text(grid.left - offset, py, str(size - i), coord, theme.GRID_LINE, TAG_COORD)
            self.text(
                grid.left + last + offset, py, str(size - i), coord, theme.GRID_LINE, TAG_COORD
            )
        if overlay.analysis is not None:
            show_text = cell >= theme.SCORE_TEXT_MIN_CELL_PX
            empty = (
                move for move in overlay.analysis.result.root_scores if state.board[move] == EMPTY
            )
            ghost = theme.PLAYER_FILL["gomoku"][overlay.analysis.viewer]
            for move, (colour, label) in heat_colours(overlay.analysis, empty).items():
                # A hollow stone of the viewer's colour, filled with heat, holds its score:
                # unlike a real stone it is hollow and smaller.
                px, py = self.pixel_of(state, move)
                self.circle(
                    px,
                    py,
                    theme.GHOST_DIAMETER * cell,
                    fill=colour,
                    outline=ghost,
                    width=max(2.0, theme.GHOST_RING * cell),
                    tags=(TAG_HEAT,),
                )
                if show_text:
                    # Within the ghost: a long label (``≤-1.4k``) is shrunk rather than
                    # spilt over the stones around; if even so it is too wide, its bound
                    # mark goes rather than the score.
                    for text in (label, label.removeprefix("≤")):
                        if self.fitted_text(
                            px,
                            py,
                            text,
                            theme.SCORE_FONT_SCALE * cell,
                            theme.GHOST_DIAMETER * cell,
                            "#ffffff",
                            TAG_HEAT,
                            bold=True,
                        ):
                            break
        self.draw_win_line(canvas, state, cell)  # under the stones, rings on top later
        colours = theme.PLAYER_FILL["gomoku"]
        numbers = {move: index for index, move in enumerate(state.moves, start=1)}
        stone = theme.STONE_DIAMETER * cell
        for move in state.moves:
            player = state.board[move] - 1
            px, py = self.pixel_of(state, move)
            self.circle(
                px,
                py,
                stone,
                fill=colours[player],
                outline=theme.STONE_OUTLINE[player],
                width=theme.STONE_OUTLINE_PX,
                tags=(TAG_PIECE, f"{TAG_PIECE}{move}"),
            )
            if overlay.show_numbers:
                ink = colours[1 - player] if move != state.last_move else theme.LAST_MOVE_MARK
                self.text(
                    px, py, str(numbers[move]), theme.NUMBER_FONT_SCALE * cell, ink, TAG_PIECE
                )
        if state.last_move is not None and not overlay.show_numbers:
            px, py = self.pixel_of(state, state.last_move)
            self.circle(
                px,
                py,
                theme.LAST_MOVE_DIAMETER * cell,
                fill=theme.LAST_MOVE_MARK,
                outline="",
                tags=(TAG_LAST,),
            )
        half = theme.FORBIDDEN_SIZE * cell
        for move in overlay.forbidden:
            px, py = self.pixel_of(state, move)
            for dx in (-1, 1):
                canvas.create_line(
                    px - half,
                    py - dx * half,
                    px + half,
                    py + dx * half,
                    fill=theme.FORBIDDEN_MARK,
                    width=max(2.0, 0.08 * cell),
                    tags=(TAG_FORBIDDEN,),
                )
        if overlay.analysis is not None:
            self.pv_badges(state, overlay.analysis)
        if overlay.hint is not None:
            px, py = self.pixel_of(state, overlay.hint)
            self.circle(
                px,
                py,
                stone,
                outline=theme.HINT_COLOUR,
                width=theme.HINT_WIDTH * cell,
                tags=(TAG_HINT,),
            )
        outcome = state.outcome()
        if outcome is not None and outcome.line:
            for move in outcome.line:
                px, py = self.pixel_of(state, move)
                self.circle(
                    px,
                    py,
                    stone,
                    outline=theme.WIN_HIGHLIGHT,
                    width=theme.WIN_HIGHLIGHT_WIDTH * cell * 0.6,
                    tags=(TAG_WIN,),
                )

    def pv_badges(self, state: Gomoku, analysis: Analysis) -> None:
        """The first ``PV_BOARD_MOVES`` moves of the expected line, numbered in small
        badges: on the point when it is empty, at the upper right of its heat-map ghost
        when it has one, none where a stone stands (the line's move was played)."""
        cell = self.grid.cell
        for number, move in enumerate(analysis.result.pv[: theme.PV_BOARD_MOVES], start=1):
            if not 0 <= move < len(state.board) or state.board[move] != EMPTY:
                continue
            px, py = self.pixel_of(state, move)
            diameter = theme.PV_BADGE_DIAMETER * cell
            if move in analysis.result.root_scores:  # a heat-map ghost is drawn there
                px += theme.PV_BADGE_ON_GHOST * cell
                py -= theme.PV_BADGE_ON_GHOST * cell
                diameter = theme.PV_BADGE_GHOST_DIAMETER * cell
            self.circle(px, py, diameter, fill=theme.PV_COLOUR, outline="", tags=(TAG_PV,))
            self.fitted_text(
                px, py, str(number), 0.8 * diameter, diameter, "#ffffff", TAG_PV, bold=True
            )


VIEWS: dict[str, type[BoardView]] = {
    "tictactoe": TicTacToeView,
    "connect4": ConnectFourView,
    "gomoku": GomokuView,
}
