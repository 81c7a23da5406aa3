"""Gomoku on a square board (15x15 by default, 5..22): five in a row wins.

Points are numbered ``y * size + x`` with Gomocup coordinates: ``x`` is the column
from the left and ``y`` the row from the top, both from 0. The move notation is
Renju notation, a letter for the column and a number for the row counted from the
bottom (``h8`` is the centre of the 15x15 board); Gomocup's ``"x,y"`` is read too.

Rules:
- ``freestyle``: five or more in a row wins.
- ``standard``: exactly five wins; an overline (six or more) does not.
- ``renju``: black (the first player) may not make a double-three, a double-four
  or an overline; a move that makes an exact five wins even so. White has no
  restriction and white's overline wins. Forbidden points come from
  ``abgames.games.renju``.

A position can also be set up stone by stone (``Gomoku.from_position``: a puzzle,
an analysis position sent by a GUI), whatever the stone counts; moves played after
the set-up are played and undone as usual.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Self

from abgames.games import renju
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

DEFAULT_SIZE = 15
MIN_SIZE = 5
MAX_SIZE = 22
WIN_LENGTH = 5
EMPTY = 0
BLACK_STONE = 1  # stone values on the board: player + 1
WHITE_STONE = 2
LETTERS = "abcdefghijklmnopqrstuvwxyz"
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (1, -1))

_KEYS = zobrist_table(2 * MAX_SIZE * MAX_SIZE + 1, seed=0x607)
_SIDE_KEY = _KEYS[-1]
_RENJU_POINT = re.compile(r"^([a-z])([0-9]{1,2})$", re.ASCII)
_GOMOCUP_POINT = re.compile(r"^(-?)([0-9]+)\s*,\s*(-?)([0-9]+)$", re.ASCII)


class Rule(StrEnum):
    FREESTYLE = "freestyle"
    STANDARD = "standard"
    RENJU = "renju"


class Gomoku(GameState):
    """A Gomoku position; ``board[point]`` is ``EMPTY`` or the player's number + 1."""

    name = "gomoku"
    player_names = ("Black", "White")
    player_marks = ("X", "O")

    def __init__(self, size: int = DEFAULT_SIZE, rule: Rule | str = Rule.FREESTYLE) -> None:
        super().__init__()
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"a Gomoku board is {MIN_SIZE}..{MAX_SIZE} points wide, not {size}")
        try:
            self.rule = Rule(rule)
        except ValueError:
            choices = ", ".join(r.value for r in Rule)
            raise ValueError(f"unknown Gomoku rule {rule!r}: choose {choices}") from None
        self.size = size
        self.board = bytearray(size * size)
        #: The first ``setup_stones`` entries of ``moves`` were placed by
        #: ``from_position``, not played: ``undo`` stops there.
        self.setup_stones = 0

    @classmethod
    def from_position(
        cls,
        black: Iterable[Move],
        white: Iterable[Move],
        to_move: Player,
        *,
        size: int = DEFAULT_SIZE,
        rule: Rule | str = Rule.FREESTYLE,
    ) -> Self:
        """A position set up by placing stones, with ``to_move`` to play next.

        The stones are placed, not played: any counts are accepted and no Renju
        restriction is checked (a puzzle or an analysis position need not come from
        alternating legal moves). ``IllegalMoveError`` for a point off the board or
        given twice, and when both sides have a winning row; a winning row of one
        side ends the game (``outcome()``), as does a full board.

        ``moves`` lists the set-up stones (black's, then white's) and then the moves
        played afterwards; only those can be undone. The move notation of such a
        state lists the set-up stones too, so ``from_notation`` cannot rebuild it:
        rebuild it with ``from_position`` and the moves played since.
        """
        state = cls(size, rule)
        for player, points in ((0, black), (1, white)):
            for point in points:
                if not 0 <= point < size * size:
                    raise IllegalMoveError(f"point {point} is off the {size}x{size} board")
                if state.board[point] != EMPTY:
                    raise IllegalMoveError(f"{state.format_move(point)} is given twice")
                state.board[point] = player + 1
                state.moves.append(point)
        if to_move not in (0, 1):
            raise ValueError(f"the side to move is 0 (black) or 1 (white), not {to_move}")
        state.setup_stones = len(state.moves)
        state.to_move = to_move
        state.key = state.compute_key()
        winners: dict[Player, tuple[Move, ...]] = {}
        for point in state.moves:
            player = state.board[point] - 1
            line = state._winning_line(point, player)
            if line:
                winners.setdefault(player, line)
        if len(winners) == 2:
            raise IllegalMoveError("both black and white have five in a row")
        for player, line in winners.items():
            state._outcome = Outcome(player, line)
        if state._outcome is None and len(state.moves) == size * size:
            state._outcome = Outcome(None)
        return state

    def options(self) -> dict[str, object]:
        options: dict[str, object] = {}
        if self.size != DEFAULT_SIZE:
            options["size"] = self.size
        if self.rule is not Rule.FREESTYLE:
            options["rule"] = self.rule.value
        return options

    def point(self, x: int, y: int) -> Move:
        return y * self.size + x

    def xy(self, point: Move) -> tuple[int, int]:
        return point % self.size, point // self.size

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    @property
    def centre(self) -> Move:
        return self.point(self.size // 2, self.size // 2)

    # --- rules -----------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every empty point (in Renju, black's forbidden points are left out)."""
        if self._outcome is not None:
            return []
        empty = [p for p, stone in enumerate(self.board) if stone == EMPTY]
        if self.rule is Rule.RENJU and self.to_move == 0:
            forbidden = self.forbidden_points()
            return [p for p in empty if p not in forbidden]
        return empty

    def run_length(self, point: Move, dx: int, dy: int, stone: int) -> int:
        """Stones equal to ``stone`` in a row through ``point`` along (dx, dy)."""
        x, y = self.xy(point)
        count = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while self.on_board(cx, cy) and self.board[self.point(cx, cy)] == stone:
                count += 1
                cx += sign * dx
                cy += sign * dy
        return count

    def forbidden_kind(self, point: Move) -> str | None:
        """For black in Renju: ``"double_three"``, ``"double_four"``, ``"overline"`` or None.

        Always ``None`` under the other rules and for white.
        """
        if self.rule is not Rule.RENJU or self.board[point] != EMPTY:
            return None
        return renju.forbidden_kind(self.board, self.size, point)

    def forbidden_points(self) -> dict[Move, str]:
        """Every empty point where black may not play (Renju only), with its kind.

        The kinds are those of ``forbidden_kind``; empty under the other rules.
        Judged for black whoever is to move, so a front-end can show them any time.
        """
        if self.rule is not Rule.RENJU:
            return {}
        return renju.forbidden_points(self.board, self.size)

    def play(self, move: Move) -> None:
        if not 0 <= move < self.size * self.size:
            raise IllegalMoveError(f"point {move} is off the {self.size}x{self.size} board")
        if self._outcome is not None:
            raise IllegalMoveError("the game is over")
        if self.board[move] != EMPTY:
            raise IllegalMoveError(f"{self.format_move(move)} is already taken")
        player = self.to_move
        if player == 0 and self.rule is Rule.RENJU:
            kind = self.forbidden_kind(move)
            if kind is not None:
                raise IllegalMoveError(
                    f"{kind.replace('_', '-')} at {self.format_move(move)} is forbidden for black"
                )
        self._place(move, player)

    def _place(self, move: Move, player: Player) -> None:
        self.board[move] = player + 1
        self.moves.append(move)
        self.key ^= _KEYS[2 * move + player] ^ _SIDE_KEY
        self.to_move = 1 - player
        line = self._winning_line(move, player)
        if line:
            self._outcome = Outcome(player, line)
        elif len(self.moves) == self.size * self.size:
            self._outcome = Outcome(None)

    def undo(self) -> Move:
        if len(self.moves) <= self.setup_stones:
            raise IllegalMoveError("there is no move to take back")
        move = self.moves.pop()
        player = 1 - self.to_move
        self.board[move] = EMPTY
        self.key ^= _KEYS[2 * move + player] ^ _SIDE_KEY
        self.to_move = player
        self._outcome = None
        return move

    def wins_with_length(self, length: int, player: Player) -> bool:
        """Whether a row of ``length`` stones wins for ``player`` under this rule."""
        if length == WIN_LENGTH:
            return True
        if length < WIN_LENGTH:
            return False
        if self.rule is Rule.FREESTYLE:
            return True
        if self.rule is Rule.RENJU:
            return player == 1
        return False

    def _winning_line(self, move: Move, player: Player) -> tuple[Move, ...]:
        stone = player + 1
        x, y = self.xy(move)
        for dx, dy in DIRECTIONS:
            line = [move]
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while self.on_board(cx, cy) and self.board[self.point(cx, cy)] == stone:
                    line.append(self.point(cx, cy))
                    cx += sign * dx
                    cy += sign * dy
            if self.wins_with_length(len(line), player):
                return tuple(sorted(line))
        return ()

    def _copy_stones_into(self, clone: Self) -> None:
        clone.board = self.board.copy()
        clone.setup_stones = self.setup_stones

    def compute_key(self) -> int:
        key = 0
        for point, stone in enumerate(self.board):
            if stone != EMPTY:
                key ^= _KEYS[2 * point + stone - 1]
        if self.to_move == 1:
            key ^= _SIDE_KEY
        return key

    # --- notation --------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """``h8`` (Renju notation) or ``7,7`` (Gomocup x,y) to a point on this board."""
        cleaned = text.strip().lower()
        if match := _RENJU_POINT.match(cleaned):
            x = LETTERS.index(match.group(1))
            row = int(match.group(2))
            if x >= self.size or not 1 <= row <= self.size:
                raise NotationError(f"{cleaned} is off the {self.size}x{self.size} board")
            return self.point(x, self.size - row)
        if match := _GOMOCUP_POINT.match(cleaned):
            x_sign, x_digits, y_sign, y_digits = match.groups()
            x_value, y_value = ascii_number(x_digits), ascii_number(y_digits)
            assert x_value is not None and y_value is not None  # the pattern allows 0-9 only
            x = -x_value if x_sign else x_value
            y = -y_value if y_sign else y_value
            if not self.on_board(x, y):
                shown = clip(f"{x_sign}{x_digits},{y_sign}{y_digits}")
                raise NotationError(f"{shown} is off the {self.size}x{self.size} board")
            return self.point(x, y)
        last = LETTERS[self.size - 1]
        raise NotationError(
            f"{clip(text.strip())!r} is not a point: use a letter a..{last} and a number "
            f"1..{self.size} like h8, or x,y like 7,7"
        )

    def format_move(self, move: Move) -> str:
        x, y = self.xy(move)
        if not self.on_board(x, y) or move < 0:
            raise NotationError(f"point {move} is off the {self.size}x{self.size} board")
        return f"{LETTERS[x]}{self.size - y}"

    def format_gomocup(self, move: Move) -> str:
        x, y = self.xy(move)
        return f"{x},{y}"

    def render(self, *, last_move: bool = True, win_line: bool = True) -> str:
        """The board, top row first; the last stone in brackets, a winning row in lowercase."""
        outcome = self._outcome
        highlight = set(outcome.line) if (win_line and outcome) else set()
        last = self.last_move if last_move else None
        header = "   " + "".join(f" {LETTERS[x]}" for x in range(self.size))
        lines = [header]
        for y in range(self.size):
            label = f"{self.size - y:>2}"
            cells = []
            for x in range(self.size):
                point = self.point(x, y)
                stone = self.board[point]
                mark = "." if stone == EMPTY else self.player_marks[stone - 1]
                cells.append(mark.lower() if point in highlight else mark)
            separators = [" "] * (self.size + 1)
            if last is not None and last // self.size == y:
                separators[last % self.size] = "("
                separators[last % self.size + 1] = ")"
            row = "".join(sep + cell for sep, cell in zip(separators, cells, strict=False))
            lines.append(f"{label} {row}{separators[-1]}{label}")
        lines.append(header)
        return "\n".join(lines)
