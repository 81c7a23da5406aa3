"""A game as the environments see it: actions, observation planes and the action mask.

A ``BoardCore`` wraps a ``GameState`` of ``abgames.games`` (the rules stay there) and
keeps, move by move, what an environment hands out, so an observation costs a copy
and no recount:

- ``planes[p]``: an ``int8`` array ``(rows, cols, 2)`` from player ``p``'s view:
  channel 0 holds ``p``'s stones, channel 1 the opponent's.
- ``mask``: ``int8`` of length ``actions``, 1 where the side to move may play.

Action numbering follows PettingZoo's classic environments where they have a
counterpart, so code written for them runs unchanged:

- tic-tac-toe (``tictactoe_v3``): actions 0..8 column by column, ``0 3 6 / 1 4 7 /
  2 5 8``; the planes are indexed ``[action // 3, action % 3]``, as theirs are.
- Connect Four (``connect_four_v3``): the action is the column (0 = left); plane
  row 0 is the top row.
- Gomoku (no PettingZoo counterpart): the action is the point ``y * size + x``
  (``x`` from the left, ``y`` from the top), as in OpenSpiel's ``gomoku``; the
  planes are ``[y, x]``. In Renju, black's forbidden points are 0 in the mask.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np
import numpy.typing as npt

from abgames.games.base import GameState, IllegalMoveError, Move, Outcome, Player
from abgames.games.connect4 import DEFAULT_HEIGHT, DEFAULT_WIDTH, ConnectFour
from abgames.games.gomoku import DEFAULT_SIZE, EMPTY, Gomoku, Rule
from abgames.games.tictactoe import SIZE as TICTACTOE_SIZE
from abgames.games.tictactoe import TicTacToe

Int8Array = npt.NDArray[np.int8]
#: A black stone further than this along a line takes no part in a forbidden shape.
RENJU_REACH = 4
#: Fewest black stones near a point (within ``RENJU_REACH``) that can make it forbidden.
RENJU_MIN_STONES = 4


class BoardCore(ABC):
    """One game's state plus its planes and mask, kept in step with every move."""

    state: GameState
    rows: int
    cols: int
    actions: int

    def __init__(self) -> None:
        self.planes: tuple[Int8Array, Int8Array] = (
            np.zeros((self.rows, self.cols, 2), dtype=np.int8),
            np.zeros((self.rows, self.cols, 2), dtype=np.int8),
        )
        self.mask: Int8Array = np.ones(self.actions, dtype=np.int8)

    def reset(self) -> None:
        """Back to the empty board."""
        self.state = self.new_state()
        self.planes[0].fill(0)
        self.planes[1].fill(0)
        self.mask.fill(1)
        self._after_reset()

    @abstractmethod
    def new_state(self) -> GameState:
        """An empty state of this variant."""

    def _after_reset(self) -> None:  # noqa: B027 - most games need nothing here
        """Adjust ``mask`` for the empty board (a game whose first mask is not all ones)."""

    @abstractmethod
    def move_of(self, action: int) -> Move:
        """The game's move for ``action`` (any int in range; legality is ``play``'s)."""

    @abstractmethod
    def action_of(self, move: Move) -> int:
        """The action numbering ``move``."""

    @abstractmethod
    def _cell_played(self, move: Move) -> tuple[int, int]:
        """The plane cell (row, column) of the stone ``move`` just put down."""

    @abstractmethod
    def _update_mask(self, move: Move) -> None:
        """Bring ``mask`` up to date after ``move`` (the game still running)."""

    @property
    def to_move(self) -> Player:
        return self.state.to_move

    def outcome(self) -> Outcome | None:
        return self.state.outcome()

    def play(self, action: int) -> Outcome | None:
        """Play ``action`` for the side to move; ``IllegalMoveError`` (nothing changed) if
        the rules forbid it. Returns the outcome once the game is over."""
        if not 0 <= action < self.actions or not self.mask[action]:
            raise IllegalMoveError(f"action {action} is not legal here")
        player = self.state.to_move
        move = self.move_of(action)
        self.state.play(move)
        row, col = self._cell_played(move)
        self.planes[player][row, col, 0] = 1
        self.planes[1 - player][row, col, 1] = 1
        outcome = self.state.outcome()
        if outcome is None:
            self._update_mask(move)
        else:
            self.mask.fill(0)
        return outcome

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.mask)]

    def grid(self) -> npt.NDArray[np.int8]:
        """The board as shown to a person, top row first: 0 empty, 1 first player, 2 second."""
        first = self.planes[0]
        return (first[:, :, 0] + 2 * first[:, :, 1]).astype(np.int8)

    def render_text(self) -> str:
        return self.state.render()


class TicTacToeCore(BoardCore):
    rows = cols = TICTACTOE_SIZE
    actions = TICTACTOE_SIZE * TICTACTOE_SIZE
    name = "tictactoe"

    def __init__(self) -> None:
        super().__init__()
        self.state = self.new_state()

    def new_state(self) -> TicTacToe:
        return TicTacToe()

    def move_of(self, action: int) -> Move:
        # Column-major actions to our row-major cells: the same transposition both ways.
        return (action % TICTACTOE_SIZE) * TICTACTOE_SIZE + action // TICTACTOE_SIZE

    def action_of(self, move: Move) -> int:
        return self.move_of(move)

    def _cell_played(self, move: Move) -> tuple[int, int]:
        return divmod(self.action_of(move), TICTACTOE_SIZE)

    def _update_mask(self, move: Move) -> None:
        self.mask[self.action_of(move)] = 0

    def grid(self) -> npt.NDArray[np.int8]:
        return super().grid().T.copy()  # planes are [column, row]; people read rows


class ConnectFourCore(BoardCore):
    name = "connect4"

    def __init__(self, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT) -> None:
        self.width, self.height = width, height
        self.state = self.new_state()  # checks the size
        self.rows, self.cols, self.actions = height, width, width
        super().__init__()

    def new_state(self) -> ConnectFour:
        return ConnectFour(self.width, self.height)

    def move_of(self, action: int) -> Move:
        return action

    def action_of(self, move: Move) -> int:
        return move

    def _cell_played(self, move: Move) -> tuple[int, int]:
        state = self.state
        assert isinstance(state, ConnectFour)
        return self.height - state.heights[move], move

    def _update_mask(self, move: Move) -> None:
        state = self.state
        assert isinstance(state, ConnectFour)
        if state.heights[move] == self.height:
            self.mask[move] = 0


class GomokuCore(BoardCore):
    name = "gomoku"

    def __init__(self, size: int = DEFAULT_SIZE, rule: Rule | str = Rule.FREESTYLE) -> None:
        state = Gomoku(size, rule)  # checks size and rule
        self.size, self.rule = size, state.rule
        self.state = state
        self.rows = self.cols = size
        self.actions = size * size
        super().__init__()

    def new_state(self) -> Gomoku:
        return Gomoku(self.size, self.rule)

    def move_of(self, action: int) -> Move:
        return action

    def action_of(self, move: Move) -> int:
        return move

    def _cell_played(self, move: Move) -> tuple[int, int]:
        return divmod(move, self.size)

    def _update_mask(self, move: Move) -> None:
        self.mask[move] = 0
        if self.rule is Rule.RENJU:
            self._renju_mask()

    def _after_reset(self) -> None:
        if self.rule is Rule.RENJU:
            self._renju_mask()

    def _renju_mask(self) -> None:
        """Black to move: every empty point but the forbidden ones; white: every empty point."""
        state = self.state
        assert isinstance(state, Gomoku)
        empty = np.frombuffer(bytes(state.board), dtype=np.uint8) == EMPTY
        self.mask[:] = empty
        if state.to_move == 0:
            for point in np.flatnonzero(empty & self._may_be_forbidden()):
                if state.forbidden_kind(int(point)) is not None:
                    self.mask[point] = 0

    def _may_be_forbidden(self) -> npt.NDArray[np.bool_]:
        """Points with 4 or more black stones within 4 points along their lines (flat).

        Only those can be forbidden: a double-three needs two stones in each of two
        lines, a double-four three in each four, an overline four on one side. The
        exact rule (``Gomoku.forbidden_kind``) then judges these few points.
        """
        black = np.pad(self.planes[0][:, :, 0].astype(np.int16), RENJU_REACH)
        size, reach = self.size, RENJU_REACH
        near = np.zeros((size, size), dtype=np.int16)
        for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for step in range(-reach, reach + 1):
                if step:
                    y, x = reach + step * dy, reach + step * dx
                    near += black[y : y + size, x : x + size]
        result: npt.NDArray[np.bool_] = (near >= RENJU_MIN_STONES).ravel()
        return result


def make_core(game: str, **options: object) -> BoardCore:
    """The core of ``game`` ("tictactoe", "connect4", "gomoku") with its options."""
    if game == "tictactoe":
        if options:
            raise TypeError(f"tic-tac-toe takes no options, not {', '.join(options)}")
        return TicTacToeCore()
    if game == "connect4":
        return ConnectFourCore(**options)  # type: ignore[arg-type]
    if game == "gomoku":
        return GomokuCore(**options)  # type: ignore[arg-type]
    raise ValueError(f"unknown game {game!r}: choose tictactoe, connect4, gomoku")


def move_text(core: BoardCore, action: int) -> str:
    """The game's notation for ``action`` ("b2", "4", "h8")."""
    return core.state.format_move(core.move_of(action))


def check_action(core: BoardCore, action: object) -> int:
    """``action`` as an int in range, or ``ValueError`` naming it."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if not isinstance(action, int | np.integer) or not 0 <= int(action) < core.actions:
        raise ValueError(f"action {action!r} is not an integer 0..{core.actions - 1}")
    return int(action)
