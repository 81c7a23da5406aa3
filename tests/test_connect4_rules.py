"""Connect Four rules: gravity, wins in every direction and at every edge, full columns, draws."""

from __future__ import annotations

import pytest

from abgames.games import ConnectFour, IllegalMoveError, NotationError


def test_discs_drop_to_the_bottom() -> None:
    state = ConnectFour.from_notation("444")
    assert [state.cell(3, row) for row in range(4)] == [0, 1, 0, None]
    assert state.heights[3] == 3


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("1122334", 0),  # horizontal, from the left edge
        ("7766554", 0),  # horizontal, to the right edge
        ("1212121", 0),  # vertical, left edge
        ("7676767", 0),  # vertical, right edge
        ("4354166147477317367246572", 0),  # rising diagonal from the bottom-left corner
        ("61115257344666633544", 1),  # falling diagonal from the bottom-right corner
        ("332557723547546166426727746", 0),  # diagonal into the top-right corner
        ("424574535333474452261116361165715367622772", 1),  # top row, last cell of the board
        ("121212", None),  # nobody yet
    ],
)
def test_four_in_a_row(moves: str, winner: int | None) -> None:
    state = ConnectFour.from_notation(moves)
    outcome = state.outcome()
    if winner is None:
        assert outcome is None
    else:
        assert outcome is not None and outcome.winner == winner
        assert len(outcome.line) == 4
        assert state.legal_moves() == []


def test_full_column_is_refused_with_a_reason() -> None:
    state = ConnectFour.from_notation("444444")
    with pytest.raises(IllegalMoveError, match="column 4 is full"):
        state.play(3)
    assert state.ply == 6  # nothing changed
    assert 3 not in state.legal_moves()


def test_full_board_draw() -> None:
    # Rows (bottom first) XXOOXXO / OOXXOOX repeated: no four anywhere.
    moves = "111111222222533333344444455555666667777776"
    state = ConnectFour()
    for digit in moves:
        state.play(int(digit) - 1)
        assert state.outcome() is None or state.ply == 42
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw
    assert state.legal_moves() == []


def test_notation_errors() -> None:
    with pytest.raises(NotationError, match="'8' is not a column"):
        ConnectFour.from_notation("448")
    with pytest.raises(NotationError, match="not a column"):
        ConnectFour.from_notation("4x")
    with pytest.raises(IllegalMoveError, match="move 7: column 4 is full"):
        ConnectFour.from_notation("4444444")
    with pytest.raises(IllegalMoveError, match="move 8: the game is over"):
        ConnectFour.from_notation("12121215")
    state = ConnectFour()
    with pytest.raises(NotationError, match="column 9 is off the board"):
        state.parse_move("9")
    with pytest.raises(NotationError, match="not a column"):
        state.parse_move("four")


@pytest.mark.parametrize("text", ["4²", "4٤", "４"])
def test_only_ascii_digits_name_columns(text: str) -> None:
    # "²".isdigit() is true but int("²") raises; "٤" and "４" int() reads as 4.
    with pytest.raises(NotationError, match="is not a column"):
        ConnectFour.from_notation(text)
    with pytest.raises(NotationError, match="is not a column"):
        ConnectFour().parse_move(text[-1])


def test_other_sizes() -> None:
    state = ConnectFour(width=9, height=7)
    assert len(state.legal_moves()) == 9
    assert state.options() == {"width": 9, "height": 7}
    with pytest.raises(ValueError, match=r"4\.\.9 columns"):
        ConnectFour(width=3)


def test_legal_moves_run_from_the_centre() -> None:
    assert ConnectFour().legal_moves() == [3, 2, 4, 1, 5, 0, 6]
