"""Renju forbidden points against the 23 reference cases, and the rule as front-ends see it."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from abgames.games import renju
from abgames.games.base import IllegalMoveError
from abgames.games.gomoku import Gomoku, Rule
from abgames.games.renju import forbidden_kind, forbidden_points
from conftest import SHARED_DATA, needs_shared_data, shared_json_lines

DATA = SHARED_DATA / "gomoku"
FORBIDDEN_FILE = DATA / "renju_forbidden" / "quintet_forbidden.jsonl"


def board_state(rows: list[str], rule: Rule = Rule.RENJU) -> Gomoku:
    """A position from board strings (top row first); black is to move."""
    state = Gomoku(len(rows), rule)
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell in "XO":
                state.board[state.point(x, y)] = 1 if cell == "X" else 2
    state.key = state.compute_key()
    return state


CASES = shared_json_lines(FORBIDDEN_FILE)


@needs_shared_data
@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c.get('name', 'no-data')}-{i}" for i, c in enumerate(CASES)]
)
def test_reference_case(case: dict[str, Any]) -> None:
    state = board_state(case["board"])
    if case.get("complete"):
        expected = {state.point(f["x"], f["y"]): f["kind"] for f in case["forbidden"]}
        assert forbidden_points(state.board, state.size) == expected
    else:
        query = case["query"]
        point = state.point(query["x"], query["y"])
        assert forbidden_kind(state.board, state.size, point) == case["expected"]


@needs_shared_data
def test_all_23_cases_present() -> None:
    assert len(CASES) == 23


def parse_board(text: str) -> Gomoku:
    rows = [line.strip() for line in text.strip().splitlines()]
    return board_state(rows)


EMPTY_ROW = "..............."


def test_simple_double_three_is_refused_with_its_reason() -> None:
    rows = [EMPTY_ROW] * 15
    rows[6] = ".......X......."
    rows[7] = "......X.X......"
    rows[8] = ".......X......."
    state = board_state(rows)
    with pytest.raises(IllegalMoveError, match="double-three at h8"):
        state.play(state.parse_move("h8"))
    assert state.parse_move("h8") not in state.legal_moves()
    assert state.forbidden_points() == {state.parse_move("h8"): "double_three"}


def test_exact_five_wins_even_when_it_is_also_a_double_four() -> None:
    rows = [EMPTY_ROW] * 15
    rows[4] = ".......X..X...."  # h8: a vertical four and a diagonal four ...
    rows[5] = ".......X.X....."
    rows[6] = ".......XX......"
    rows[7] = "...XXXX........"  # ... and an exact five along the row
    state = board_state(rows)
    board_without_five = board_state([*rows[:7], "...............", *rows[8:]])
    assert forbidden_kind(board_without_five.board, 15, state.parse_move("h8")) == "double_four"
    assert forbidden_kind(state.board, 15, state.parse_move("h8")) is None
    state.play(state.parse_move("h8"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0


def test_overline_is_forbidden_for_black_but_wins_for_white() -> None:
    rows = [EMPTY_ROW] * 15
    rows[7] = "...XXX.XX......"
    state = board_state(rows)
    assert forbidden_kind(state.board, 15, state.point(6, 7)) == "overline"
    white_rows = [r.replace("X", "O") for r in rows]
    white = board_state(white_rows)
    white.to_move = 1
    white.play(white.point(6, 7))
    outcome = white.outcome()
    assert outcome is not None and outcome.winner == 1


def test_other_rules_forbid_nothing() -> None:
    rows = [EMPTY_ROW] * 15
    rows[6] = ".......X......."
    rows[7] = "......X.X......"
    rows[8] = ".......X......."
    state = board_state(rows, Rule.FREESTYLE)
    assert state.forbidden_points() == {}
    state.play(state.parse_move("h8"))


def test_the_rules_read_a_plain_board_and_its_size() -> None:
    # 7x7 cells, 0 empty, 1 black, 2 white: black at d5 would make two open threes.
    cells = bytes(int(c) for c in ("0000000000100000101000001000000000000000000000000"))
    centre = 2 * 7 + 3
    assert forbidden_points(cells, 7) == {centre: "double_three"}
    assert forbidden_kind(cells, 7, centre) == "double_three"
    assert forbidden_kind(cells, 7, 0) is None
    with pytest.raises(ValueError, match="7x7 board has 49 points, not 48"):
        forbidden_points(cells[:-1], 7)


def test_the_renju_rules_import_nothing_of_ours() -> None:
    # games/gomoku.py imports games/renju.py: the other way round would be a cycle.
    source = Path(renju.__file__).read_text(encoding="utf-8")
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not {name for name in imported if name and name.startswith("abgames")}
