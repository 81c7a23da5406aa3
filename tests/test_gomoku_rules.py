"""Gomoku rules: fives in every direction and at every edge, overlines, notation, errors."""

from __future__ import annotations

import pytest

from abgames.games import Gomoku, IllegalMoveError, NotationError
from abgames.games.gomoku import Rule


def play_black_line(
    state: Gomoku, start: tuple[int, int], step: tuple[int, int], count: int
) -> None:
    """Black plays ``count`` stones from ``start`` along ``step``; white answers far away."""
    white_spots = [(x, y) for y in range(state.size) for x in range(state.size)]
    line = {(start[0] + i * step[0], start[1] + i * step[1]) for i in range(count)}
    spare = iter(
        p
        for p in white_spots
        if all(abs(p[0] - a) > 1 or abs(p[1] - b) > 1 for a, b in line)
        and state.board[state.point(*p)] == 0
    )
    for i in range(count):
        state.play(state.point(start[0] + i * step[0], start[1] + i * step[1]))
        if state.outcome() is None and i < count - 1:
            state.play(state.point(*next(spare)))


@pytest.mark.parametrize(
    ("start", "step"),
    [
        ((0, 0), (1, 0)),  # top edge, from the top-left corner
        ((10, 14), (1, 0)),  # bottom edge, to the bottom-right corner
        ((0, 10), (0, 1)),  # left edge, down to the bottom-left corner
        ((14, 0), (0, 1)),  # right edge, from the top-right corner
        ((0, 0), (1, 1)),  # main diagonal from a corner
        ((10, 10), (1, 1)),  # main diagonal into the opposite corner
        ((14, 0), (-1, 1)),  # anti-diagonal from the top-right corner
        ((4, 10), (-1, 1)),  # anti-diagonal into the bottom-left corner
        ((5, 7), (1, 0)),  # the middle of the board
    ],
)
def test_five_wins_in_every_direction_and_edge(
    start: tuple[int, int], step: tuple[int, int]
) -> None:
    state = Gomoku()
    play_black_line(state, start, step, 5)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0
    assert len(outcome.line) == 5
    assert state.legal_moves() == []


def test_four_is_not_a_win() -> None:
    state = Gomoku()
    play_black_line(state, (3, 3), (1, 0), 4)
    assert state.outcome() is None


def make_overline(rule: Rule) -> Gomoku:
    """Black has x x x . x x on row 8 and fills the gap: six in a row."""
    state = Gomoku(rule=rule)
    for black, white in zip(
        ["c8", "d8", "e8", "g8", "h8"], ["c2", "e2", "g2", "j2", "l2"], strict=True
    ):
        state.play(state.parse_move(black))
        state.play(state.parse_move(white))
    state.play(state.parse_move("f8"))
    return state


def test_overline_wins_in_freestyle() -> None:
    outcome = make_overline(Rule.FREESTYLE).outcome()
    assert outcome is not None and outcome.winner == 0
    assert len(outcome.line) == 6


def test_overline_does_not_win_in_standard() -> None:
    state = make_overline(Rule.STANDARD)
    assert state.outcome() is None
    assert state.to_move == 1


def test_exact_five_wins_in_standard() -> None:
    state = Gomoku(rule=Rule.STANDARD)
    play_black_line(state, (2, 2), (0, 1), 5)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0


def test_notation() -> None:
    state = Gomoku()
    assert state.parse_move("h8") == state.point(7, 7)
    assert state.parse_move("H8") == state.centre
    assert state.parse_move("7,7") == state.centre
    assert state.parse_move("a15") == 0
    assert state.parse_move("a1") == state.point(0, 14)
    assert state.parse_move("0, 14") == state.point(0, 14)
    assert state.format_move(state.point(0, 0)) == "a15"
    big = Gomoku(size=22)
    assert big.format_move(big.point(21, 21)) == "v1"


def test_errors_speak_plainly() -> None:
    state = Gomoku()
    state.play(state.parse_move("h8"))
    with pytest.raises(IllegalMoveError, match="h8 is already taken"):
        state.play(state.parse_move("h8"))
    with pytest.raises(NotationError, match="k16 is off the 15x15 board"):
        state.parse_move("k16")
    with pytest.raises(NotationError, match="p1 is off the 15x15 board"):
        state.parse_move("p1")
    with pytest.raises(NotationError, match="15,0 is off the 15x15 board"):
        state.parse_move("15,0")
    with pytest.raises(NotationError, match="not a point"):
        state.parse_move("hello")
    with pytest.raises(ValueError, match=r"5\.\.22"):
        Gomoku(size=23)
    with pytest.raises(ValueError, match="unknown Gomoku rule"):
        Gomoku(rule="pente")


def test_small_board_fills_to_a_draw() -> None:
    # 5x5 filled in a pattern with no five: columns alternate in pairs.
    state = Gomoku(size=5)
    order = [state.point(x, y) for y in range(5) for x in range(5)]
    # Colour of (x, y): black where (x // 2 + y) is even, which leaves no five of either.
    black = [p for p in order if ((p % 5) // 2 + p // 5) % 2 == 0]
    white = [p for p in order if p not in black]
    assert (len(black), len(white)) == (13, 12)
    for i in range(25):
        assert state.outcome() is None
        state.play((black if i % 2 == 0 else white).pop(0))
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw
    assert state.legal_moves() == []


def test_a_position_set_up_with_any_counts_plays_and_undoes() -> None:
    size = 15
    black = [7 * size + x for x in (3, 4, 5)]  # d8 e8 f8: three black stones, no white
    state = Gomoku.from_position(black, [], 1, size=size)  # white to move
    assert (state.ply, state.setup_stones, state.to_move) == (3, 3, 1)
    assert state.key == state.compute_key() and state.outcome() is None
    state.play(0)
    state.play(7 * size + 6)  # g8: black four
    assert state.key == state.compute_key()
    assert state.undo() == 7 * size + 6 and state.undo() == 0
    assert state.key == state.compute_key() and state.to_move == 1
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        state.undo()  # the set-up stones stay
    clone = state.copy()
    assert clone.setup_stones == 3 and clone.key == state.key
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        clone.undo()


def test_a_set_up_position_places_stones_renju_would_forbid() -> None:
    # h8 last would be a double-three if it were played; placed, it is fine.
    points = [Gomoku().parse_move(m) for m in ("g8", "i8", "h7", "h9", "h8")]
    state = Gomoku.from_position(points, [0], 1, rule=Rule.RENJU)
    assert state.board[Gomoku().parse_move("h8")] == 1 and state.outcome() is None


def test_a_set_up_five_ends_the_game_and_two_fives_are_refused() -> None:
    row = [Gomoku().parse_move(f"{c}1") for c in "abcde"]
    other = [Gomoku().parse_move(f"{c}3") for c in "abcde"]
    state = Gomoku.from_position(row, [100], 1)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and set(outcome.line) == set(row)
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="both"):
        Gomoku.from_position(row, other, 0)
    with pytest.raises(IllegalMoveError, match="given twice"):
        Gomoku.from_position([0], [0], 0)
