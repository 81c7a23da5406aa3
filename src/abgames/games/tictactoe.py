"""Tic-tac-toe on a 3x3 grid.

Cells are numbered 0..8 row by row from the top left. Notation, as on a chess or
Gomoku board and as ``render()`` labels the grid: a letter for the column from the
left and a number for the row from the bottom (``a1`` is the bottom-left corner,
``c3`` the top-right, ``b2`` the centre). ``"row col"`` with the same 1-based row and
column numbers (``"1 3"`` is ``c1``) and a bare cell number ``1..9`` in reading order
(1 the top left, 9 the bottom right) are accepted as input too.

Save files before version 2 wrote cells with rows counted from the top (``a1`` was
the top-left corner): ``parse_version1_move`` reads them.
"""

from __future__ import annotations

import re
from typing import Self

from abgames.games.base import (
    GameState,
    IllegalMoveError,
    Move,
    NotationError,
    Outcome,
    Player,
    zobrist_table,
)
from abgames.games.numbers import ascii_number, clip

SIZE = 3
CELLS = SIZE * SIZE
COLUMN_LETTERS = "abc"

#: Every line of three cells: rows, columns, then the two diagonals, each in the order
#: its cells are read (left to right, bottom to top: a winning line reads "a1 a2 a3").
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (6, 3, 0),
    (7, 4, 1),
    (8, 5, 2),
    (6, 4, 2),
    (0, 4, 8),
)
LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if cell in line) for cell in range(CELLS)
)

_KEYS = zobrist_table(2 * CELLS + 1, seed=0x7173)
_SIDE_KEY = _KEYS[-1]
_LETTER_NUMBER = re.compile(r"^([a-c])([1-3])$", re.ASCII)
_ROW_COL = re.compile(r"^([1-3])[\s,]+([1-3])$", re.ASCII)


def _cell_key(cell: int, player: Player) -> int:
    return _KEYS[2 * cell + player]


class TicTacToe(GameState):
    """The 3x3 game; ``cells[i]`` is ``None`` or the player who holds cell ``i``."""

    name = "tictactoe"
    player_names = ("X", "O")
    player_marks = ("X", "O")

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[Player | None] = [None] * CELLS

    def options(self) -> dict[str, object]:
        return {}

    # --- rules -----------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self._outcome is not None:
            return []
        return [cell for cell in range(CELLS) if self.cells[cell] is None]

    def play(self, move: Move) -> None:
        if not 0 <= move < CELLS:
            raise IllegalMoveError(f"cell {move} is off the 3x3 board")
        if self._outcome is not None:
            raise IllegalMoveError("the game is over")
        if self.cells[move] is not None:
            raise IllegalMoveError(f"{self.format_move(move)} is already taken")
        player = self.to_move
        self.cells[move] = player
        self.moves.append(move)
        self.key ^= _cell_key(move, player) ^ _SIDE_KEY
        self.to_move = 1 - player
        self._outcome = self._outcome_after(move, player)

    def undo(self) -> Move:
        if not self.moves:
            raise IllegalMoveError("there is no move to take back")
        move = self.moves.pop()
        player = 1 - self.to_move
        self.cells[move] = None
        self.key ^= _cell_key(move, player) ^ _SIDE_KEY
        self.to_move = player
        self._outcome = None
        return move

    def _outcome_after(self, move: Move, player: Player) -> Outcome | None:
        cells = self.cells
        for line in LINES_THROUGH[move]:
            if cells[line[0]] == player and cells[line[1]] == player and cells[line[2]] == player:
                return Outcome(player, line)
        if len(self.moves) == CELLS:
            return Outcome(None)
        return None

    def _copy_stones_into(self, clone: Self) -> None:
        clone.cells = self.cells.copy()

    def compute_key(self) -> int:
        key = 0
        for cell, player in enumerate(self.cells):
            if player is not None:
                key ^= _cell_key(cell, player)
        if self.to_move == 1:
            key ^= _SIDE_KEY
        return key

    # --- notation --------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return _parse_cell(text, rows_from_top=False)

    def format_move(self, move: Move) -> str:
        if not 0 <= move < CELLS:
            raise NotationError(f"cell {move} is off the 3x3 board")
        return f"{COLUMN_LETTERS[move % SIZE]}{row_label(move // SIZE)}"

    def render(self, *, last_move: bool = True, win_line: bool = True) -> str:
        outcome = self._outcome
        highlight = set(outcome.line) if (win_line and outcome) else set()
        last = self.last_move if last_move else None
        rows = []
        for row in range(SIZE):
            parts = []
            for col in range(SIZE):
                cell = row * SIZE + col
                player = self.cells[cell]
                mark = "." if player is None else self.player_marks[player]
                if cell in highlight:
                    parts.append(f"<{mark}>")
                elif cell == last:
                    parts.append(f"[{mark}]")
                else:
                    parts.append(f" {mark} ")
            rows.append(f"{row_label(row)} " + " ".join(parts))
        rows.append("   " + "   ".join(COLUMN_LETTERS))  # under the rows: a1 is bottom left
        return "\n".join(row.rstrip() for row in rows)


def row_label(row: int) -> int:
    """The number a row is called by (1 the bottom row) from its index (0 the top row)."""
    return SIZE - row


def parse_version1_move(text: str) -> Move:
    """A cell as save files before version 2 wrote it: rows counted from the top
    (``a1`` the top-left corner, ``"1 3"`` the top-right); bare numbers as today."""
    return _parse_cell(text, rows_from_top=True)


def _parse_cell(text: str, *, rows_from_top: bool) -> Move:
    """``a1``, ``"row col"`` or ``1..9`` to a cell; rows count from the bottom unless
    ``rows_from_top``."""
    cleaned = text.strip().lower()

    def cell(row_number: str, column: int) -> Move:
        row = int(row_number) - 1 if rows_from_top else SIZE - int(row_number)
        return row * SIZE + column

    if match := _LETTER_NUMBER.match(cleaned):
        return cell(match.group(2), COLUMN_LETTERS.index(match.group(1)))
    if match := _ROW_COL.match(cleaned):
        return cell(match.group(1), int(match.group(2)) - 1)
    number = ascii_number(cleaned)
    if number is not None and 1 <= number <= CELLS:
        return number - 1
    raise NotationError(
        f"{clip(text.strip())!r} is not a cell: use a1..c3 (column letter, row number; "
        "a1 is the bottom-left corner), 'row col' like '2 2', or 1..9"
    )
