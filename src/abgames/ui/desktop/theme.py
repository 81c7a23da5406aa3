"""Colours, sizes and timings of the desktop window, in one place.

Sizes are fractions of a board cell unless their name says ``_PX``; timings are
in milliseconds (``_MS``) or seconds (``_S``).
"""

from __future__ import annotations

# --- window ----------------------------------------------------------------------
WINDOW_TITLE = "abgames"
INITIAL_CANVAS_PX = (640, 640)
MIN_CANVAS_PX = (240, 240)
BACKGROUND = "#2b2f36"
STATUS_FONT = ("TkDefaultFont", 10)

#: How often the window drains the AI worker's queue.
POLL_MS = 30
#: Pause before an AI plays in AI-AI games, so a person can follow the game.
AI_AI_PAUSE_S = 0.4

# --- player colours ----------------------------------------------------------------
PLAYER_FILL = {
    "tictactoe": ("#e8503a", "#3a8fe8"),
    "connect4": ("#d7263d", "#f4d03f"),
    "gomoku": ("#111111", "#f7f7f2"),
}
#: The outline that makes a white stone visible on wood.
STONE_OUTLINE = ("#000000", "#3c3c3c")
STONE_OUTLINE_PX = 1.2

#: Coordinates drawn on the window's background (tic-tac-toe, Connect Four).
COORD_ON_WINDOW = "#a9b1bd"

# --- tic-tac-toe -----------------------------------------------------------------------
TTT_BACKGROUND = "#fafafa"
TTT_GRID = "#333333"
TTT_GRID_WIDTH = 0.04
TTT_MARK_WIDTH = 0.08
TTT_MARK_INSET = 0.22
#: Room around the grid: the coordinates stand in it (letters under, numbers left).
TTT_MARGIN_CELLS = 0.36
#: The coordinates' size beside the grid, of a cell.
TTT_COORD_FONT_SCALE = 0.2

# --- Connect Four --------------------------------------------------------------------
RACK_COLOUR = "#1f4fbf"
RACK_HOLE = "#e9eef7"
DISC_DIAMETER = 0.8
#: Room above the rack for the hover marker, in cells.
RACK_HEADROOM_CELLS = 1.0
RACK_MARGIN_CELLS = 0.3
#: The column numbers' size in the margin under the rack, of a cell.
C4_COORD_FONT_SCALE = 0.2
HOVER_DIAMETER = 0.6
DROP_MS = 240
DROP_FRAME_MS = 16

# --- Gomoku ---------------------------------------------------------------------------
WOOD = "#dcb35c"
WOOD_EDGE = "#b8893a"
GRID_LINE = "#3d2b12"
GRID_WIDTH_PX = 1.0
STAR_DIAMETER = 0.2
STONE_DIAMETER = 0.8
#: Room for the coordinates around the outer lines, in cells.
GOMOKU_MARGIN_CELLS = 1.1
COORD_FONT_SCALE = 0.38
NUMBER_FONT_SCALE = 0.36
LAST_MOVE_MARK = "#e23c2c"
LAST_MOVE_DIAMETER = 0.26
FORBIDDEN_MARK = "#c0182a"
FORBIDDEN_SIZE = 0.28

# --- overlays (all games) ---------------------------------------------------------
WIN_HIGHLIGHT = "#27c93f"
WIN_HIGHLIGHT_WIDTH = 0.1
HINT_COLOUR = "#1db954"
HINT_WIDTH = 0.08
PV_COLOUR = "#6a1b9a"
PV_FONT_SCALE = 0.34
#: Heat map: the worst candidate's colour, the best one's, and the stipple-free alpha blend.
HEAT_COLD = (70, 110, 220)
HEAT_HOT = (230, 50, 40)
#: The ghost piece of the player whose score a heat-map cell shows: a disc inside
#: the heat square (Connect Four), a hollow stone ringed in its colour (Gomoku).
GHOST_DIAMETER = 0.62
GHOST_RING = 0.09
#: Score text on a Connect Four ghost disc of each player (the contrasting colour).
SCORE_INK = {"connect4": ("#ffffff", "#222222")}
SCORE_FONT_SCALE = 0.26
#: Smallest score text in pixels: a label that does not fit its ghost at this size is
#: left out (the heat colour stays).
SCORE_FONT_MIN_PX = 6
#: Gomoku's expected line: how many of its moves are numbered on the board (the text
#: above the board has all of them), and the badges that carry the numbers: on an
#: empty point, or at the upper right of a heat-map ghost (the fraction of a cell).
PV_BOARD_MOVES = 5
PV_BADGE_DIAMETER = 0.36
PV_BADGE_ON_GHOST = 0.3
PV_BADGE_GHOST_DIAMETER = 0.3
#: Scores are drawn as text only where a cell is at least this many pixels wide.
SCORE_TEXT_MIN_CELL_PX = 34
