"""Connect Four: discs drop to the lowest free cell of a column; four in a row wins.

The board is kept as two bitboards in the layout of Pascal Pons' solver: column
``c`` owns bits ``c*(height+1) .. c*(height+1)+height-1`` from the bottom up, plus
one always-empty guard bit on top so that shifts never wrap into the next column.
A move is a 0-based column; its notation is the 1-based column number, and a
position's notation is the string of those digits (``"4453"``), as in the shared
benchmark files.
"""

from __future__ import annotations

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

DEFAULT_WIDTH = 7
DEFAULT_HEIGHT = 6
MIN_SIZE = 4
MAX_WIDTH = 9
MAX_HEIGHT = 9
CONNECT = 4

_KEYS = zobrist_table(2 * MAX_WIDTH * (MAX_HEIGHT + 1) + 1, seed=0xC4C4)
_SIDE_KEY = _KEYS[-1]


def has_four(bits: int, height: int) -> bool:
    """Whether ``bits`` (one player's discs) holds four in a row in any direction."""
    for shift in (1, height + 1, height, height + 2):  # vertical, horizontal, two diagonals
        pairs = bits & (bits >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


class ConnectFour(GameState):
    """A Connect Four position on a ``width`` x ``height`` rack (7x6 by default)."""

    name = "connect4"
    player_names = ("Red", "Yellow")
    player_marks = ("X", "O")

    def __init__(self, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT) -> None:
        super().__init__()
        if not (MIN_SIZE <= width <= MAX_WIDTH and MIN_SIZE <= height <= MAX_HEIGHT):
            raise ValueError(
                f"a Connect Four board is {MIN_SIZE}..{MAX_WIDTH} columns wide and "
                f"{MIN_SIZE}..{MAX_HEIGHT} rows high, not {width}x{height}"
            )
        self.width = width
        self.height = height
        self.stride = height + 1
        self.heights = [0] * width
        self.discs = [0, 0]  # bitboard of each player's discs
        # Columns from the centre outwards: the order search tries them in.
        self.centre_order = sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))

    def options(self) -> dict[str, object]:
        if (self.width, self.height) == (DEFAULT_WIDTH, DEFAULT_HEIGHT):
            return {}
        return {"width": self.width, "height": self.height}

    def bit(self, column: int, row: int) -> int:
        """The bit of the cell in ``column`` (0 = left) and ``row`` (0 = bottom)."""
        return 1 << (column * self.stride + row)

    def cell(self, column: int, row: int) -> Player | None:
        mask = self.bit(column, row)
        if self.discs[0] & mask:
            return 0
        if self.discs[1] & mask:
            return 1
        return None

    # --- rules -----------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self._outcome is not None:
            return []
        return [c for c in self.centre_order if self.heights[c] < self.height]

    def can_play(self, column: Move) -> bool:
        return (
            self._outcome is None
            and 0 <= column < self.width
            and self.heights[column] < self.height
        )

    def play(self, move: Move) -> None:
        if not 0 <= move < self.width:
            raise IllegalMoveError(f"column {move + 1} is off the board (1..{self.width})")
        if self._outcome is not None:
            raise IllegalMoveError("the game is over")
        row = self.heights[move]
        if row >= self.height:
            raise IllegalMoveError(f"column {move + 1} is full")
        player = self.to_move
        self.discs[player] |= self.bit(move, row)
        self.heights[move] = row + 1
        self.moves.append(move)
        self.key ^= _KEYS[2 * (move * self.stride + row) + player] ^ _SIDE_KEY
        self.to_move = 1 - player
        if has_four(self.discs[player], self.height):
            self._outcome = Outcome(player, self._winning_line(player))
        elif len(self.moves) == self.width * self.height:
            self._outcome = Outcome(None)

    def undo(self) -> Move:
        if not self.moves:
            raise IllegalMoveError("there is no move to take back")
        move = self.moves.pop()
        player = 1 - self.to_move
        row = self.heights[move] - 1
        self.heights[move] = row
        self.discs[player] &= ~self.bit(move, row)
        self.key ^= _KEYS[2 * (move * self.stride + row) + player] ^ _SIDE_KEY
        self.to_move = player
        self._outcome = None
        return move

    def _winning_line(self, player: Player) -> tuple[Move, ...]:
        """Cells (as ``column * stride + row`` bit indices) of a four of ``player``.

        Directions in the order horizontal, vertical, the two diagonals; within one,
        the four starting at the lowest bit (leftmost column, then lowest row). A bit
        of ``starts`` marks a cell followed by three more of ``player`` ``shift``
        bits apart; the guard bits keep a four from wrapping into the next column.
        """
        bits = self.discs[player]
        for shift in (self.stride, 1, self.stride + 1, self.stride - 1):
            starts = bits & (bits >> shift) & (bits >> (2 * shift)) & (bits >> (3 * shift))
            if starts:
                first = (starts & -starts).bit_length() - 1
                return tuple(first + i * shift for i in range(CONNECT))
        return ()

    def _copy_stones_into(self, clone: Self) -> None:
        clone.heights = self.heights.copy()
        clone.discs = self.discs.copy()

    def compute_key(self) -> int:
        key = 0
        for column in range(self.width):
            for row in range(self.height):
                player = self.cell(column, row)
                if player is not None:
                    key ^= _KEYS[2 * (column * self.stride + row) + player]
        if self.to_move == 1:
            key ^= _SIDE_KEY
        return key

    # --- notation --------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        cleaned = text.strip()
        column = ascii_number(cleaned)
        if column is None:
            raise NotationError(f"{clip(cleaned)!r} is not a column: type a number 1..{self.width}")
        if not 1 <= column <= self.width:
            raise NotationError(f"column {clip(cleaned)} is off the board (1..{self.width})")
        return column - 1

    def format_move(self, move: Move) -> str:
        return str(move + 1)

    def notation(self) -> str:
        """The move string, like ``"4453"`` (space-separated on boards over 9 wide)."""
        return "".join(str(m + 1) for m in self.moves)

    @classmethod
    def from_notation(cls, text: str, **options: object) -> Self:
        """The position reached by a move string such as ``"4453"``.

        Raises ``NotationError`` for a character that is not a column digit and
        ``IllegalMoveError`` (naming the move's position) for a full column or a
        move after the game was won.
        """
        width = options.get("width", DEFAULT_WIDTH)
        height = options.get("height", DEFAULT_HEIGHT)
        assert isinstance(width, int) and isinstance(height, int)
        state = cls(width, height)
        moves = [char for char in text if not char.isspace()]  # "4 4 8" is three moves
        for index, char in enumerate(moves, start=1):
            column = ascii_number(char)
            if column is None or not 1 <= column <= state.width:
                raise NotationError(f"move {index}: {char!r} is not a column (1..{state.width})")
            try:
                state.play(column - 1)
            except IllegalMoveError as error:
                raise IllegalMoveError(f"move {index}: {error}") from None
        return state

    def render(self, *, last_move: bool = True, win_line: bool = True) -> str:
        outcome = self._outcome
        highlight = set(outcome.line) if (win_line and outcome) else set()
        last_cell = -1
        if last_move and self.moves:
            column = self.moves[-1]
            last_cell = column * self.stride + self.heights[column] - 1
        lines = []
        for row in range(self.height - 1, -1, -1):
            parts = []
            for column in range(self.width):
                index = column * self.stride + row
                player = self.cell(column, row)
                mark = "." if player is None else self.player_marks[player]
                if index in highlight:
                    parts.append(f"<{mark}>")
                elif index == last_cell:
                    parts.append(f"[{mark}]")
                else:
                    parts.append(f" {mark} ")
            lines.append("|" + "".join(parts) + "|")
        lines.append("+" + "---" * self.width + "+")
        lines.append(" " + "".join(f" {c + 1} " for c in range(self.width)))
        return "\n".join(line.rstrip() for line in lines)
