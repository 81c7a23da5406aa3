"""Tic-tac-toe, exhaustively: rules, values, the perfect player, symmetry."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import pytest

from abgames.ai.tictactoe import TicTacToeEvaluation, make_player
from abgames.games import IllegalMoveError, NotationError, TicTacToe
from abgames.games.tictactoe import LINES
from abgames.search import AlphaBeta, Limit, SearchOptions, minimax
from abgames.search.score import DRAW, WIN


def all_positions() -> list[TicTacToe]:
    """Every position reachable from the empty board, once each."""
    seen: dict[int, TicTacToe] = {}
    state = TicTacToe()

    def visit() -> None:
        if state.key in seen:
            return
        seen[state.key] = state.copy()
        for move in state.legal_moves():
            state.play(move)
            visit()
            state.undo()

    visit()
    return list(seen.values())


POSITIONS = all_positions()
RUNNING = [p for p in POSITIONS if p.outcome() is None]


@cache
def exact_value(cells: tuple[int | None, ...], to_move: int) -> int:
    """Memoised plain negamax over cells: distance-scored like the engine, no pruning."""
    state = TicTacToe()
    state.cells = list(cells)
    state.to_move = to_move
    state.moves = [c for c in range(9) if cells[c] is not None]
    # Recompute the outcome from the board alone.
    for line in LINES:
        marks = {cells[i] for i in line}
        if len(marks) == 1 and None not in marks:
            return -WIN  # the previous player completed a line: the side to move has lost
    empty = [c for c in range(9) if cells[c] is None]
    if not empty:
        return DRAW
    best = -WIN - 1
    for cell in empty:
        child = list(cells)
        child[cell] = to_move
        value = -exact_value(tuple(child), 1 - to_move)
        # A decisive value moves one ply further from the root with each level.
        if value > 0:
            value -= 1
        elif value < 0:
            value += 1
        best = max(best, value)
    return best


def test_reachable_position_count() -> None:
    assert len(POSITIONS) == 5478


def test_empty_board_is_a_draw() -> None:
    assert minimax(TicTacToe()).value == DRAW
    assert make_player("perfect").choose(TicTacToe()).score == DRAW


def test_minimax_matches_memoised_oracle_on_a_sample() -> None:
    rng = random.Random(5)
    for state in rng.sample(RUNNING, 150):
        assert minimax(state).value == exact_value(tuple(state.cells), state.to_move)


@pytest.mark.parametrize(
    "options",
    [
        SearchOptions(transposition_table=False, move_ordering=False, exact_root=False),
        SearchOptions(exact_root=False),
    ],
    ids=["plain", "full"],
)
def test_alphabeta_equals_minimax_everywhere(options: SearchOptions) -> None:
    for state in RUNNING:
        engine = AlphaBeta(TicTacToeEvaluation(), options)
        result = engine.fixed_depth(state, 9)
        assert result.score == exact_value(tuple(state.cells), state.to_move), repr(state)


def test_exact_root_scores_equal_minimax_scores() -> None:
    rng = random.Random(7)
    for state in rng.sample(RUNNING, 200):
        evaluation = TicTacToeEvaluation()
        result = AlphaBeta(evaluation).best(state, Limit(depth=9))
        oracle = minimax(state, result.depth, evaluation)
        assert result.root_scores == oracle.scores
        assert result.move in oracle.best_moves
        assert result.solved


def _rotate(cell: int) -> int:
    row, col = divmod(cell, 3)
    return col * 3 + (2 - row)


def _reflect(cell: int) -> int:
    row, col = divmod(cell, 3)
    return row * 3 + (2 - col)


def _symmetries() -> list[Callable[[int], int]]:
    maps: list[Callable[[int], int]] = []
    for reflect in (False, True):
        for turns in range(4):

            def mapping(cell: int, turns: int = turns, reflect: bool = reflect) -> int:
                if reflect:
                    cell = _reflect(cell)
                for _ in range(turns):
                    cell = _rotate(cell)
                return cell

            maps.append(mapping)
    return maps


def test_symmetric_positions_give_symmetric_best_moves() -> None:
    rng = random.Random(11)
    for state in rng.sample(RUNNING, 60):
        base = AlphaBeta(TicTacToeEvaluation()).best(state, Limit(depth=9))
        best = {m for m, s in base.root_scores.items() if s == base.score}
        for mapping in _symmetries():
            image = TicTacToe.from_moves([mapping(m) for m in state.moves])
            result = AlphaBeta(TicTacToeEvaluation()).best(image, Limit(depth=9))
            image_best = {m for m, s in result.root_scores.items() if s == result.score}
            assert result.score == base.score
            assert image_best == {mapping(m) for m in best}


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("a1 a2 b1 b2 c1", 0),  # bottom row
        ("a3 a1 b3 b1 c2 c1", 1),  # second player, bottom row
        ("a1 b1 a2 b2 a3", 0),  # left column
        ("c1 a1 c2 a2 c3", 0),  # right column (edge)
        ("a1 b1 b2 c1 c3", 0),  # diagonal
        ("c1 a1 b2 a2 a3", 0),  # anti-diagonal
    ],
)
def test_wins_in_every_direction(moves: str, winner: int) -> None:
    state = TicTacToe.from_notation(moves)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == winner
    assert len(outcome.line) == 3
    assert state.legal_moves() == []


def test_full_board_draw() -> None:
    state = TicTacToe.from_notation("b2 a1 c3 a3 a2 c2 b1 b3 c1")
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw


def test_errors_speak_plainly() -> None:
    state = TicTacToe.from_notation("b2")
    with pytest.raises(IllegalMoveError, match="b2 is already taken"):
        state.play(state.parse_move("b2"))
    with pytest.raises(NotationError, match="not a cell"):
        state.parse_move("d4")
    done = TicTacToe.from_notation("a1 a2 b1 b2 c1")
    with pytest.raises(IllegalMoveError, match="over"):
        done.play(8)
    assert isinstance(IllegalMoveError("x"), ValueError)


def test_parse_accepts_each_notation() -> None:
    state = TicTacToe()
    assert state.parse_move("b2") == 4
    assert state.parse_move("B2") == 4
    assert state.parse_move("2 2") == 4
    assert state.parse_move("a1") == 6  # the bottom-left corner, as on a chess board
    assert state.parse_move("c3") == 2  # the top-right corner
    assert state.parse_move("1 3") == 8  # row 1 (the bottom row), column 3
    assert state.parse_move("c1") == 8
    assert state.parse_move("9") == 8  # bare numbers: reading order, 1 the top left


def test_moves_are_named_as_the_board_is_labelled() -> None:
    # Row numbers count from the bottom, column letters from the left (Gomoku's way).
    state = TicTacToe()
    assert [state.format_move(cell) for cell in range(9)] == (
        ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
    )
    for cell in range(9):
        assert state.parse_move(state.format_move(cell)) == cell


def test_version1_notation_counted_rows_from_the_top() -> None:
    from abgames.games.tictactoe import parse_version1_move

    assert parse_version1_move("a1") == 0
    assert parse_version1_move("c3") == 8
    assert parse_version1_move("1 3") == 2
    assert parse_version1_move("5") == 4
    with pytest.raises(NotationError, match="not a cell"):
        parse_version1_move("d4")


def beatable(level: str, ai_side: int) -> bool:
    """Whether some line of the opponent's moves wins against the (deterministic) AI."""
    player = make_player(level)
    state = TicTacToe()

    def opponent_wins() -> bool:
        outcome = state.outcome()
        if outcome is not None:
            return outcome.winner == 1 - ai_side
        if state.to_move == ai_side:
            move = player.choose(state).move
            assert move is not None
            state.play(move)
            won = opponent_wins()
            state.undo()
            return won
        for move in state.legal_moves():
            state.play(move)
            won = opponent_wins()
            state.undo()
            if won:
                return True
        return False

    return opponent_wins()


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_lower_levels_can_be_beaten(level: str) -> None:
    assert beatable(level, ai_side=1)


@pytest.mark.parametrize("level", ["hard", "perfect"])
def test_top_levels_cannot_be_beaten(level: str) -> None:
    assert not beatable(level, ai_side=0)
    assert not beatable(level, ai_side=1)


def test_easy_misses_a_block_that_perfect_makes() -> None:
    state = TicTacToe.from_notation("a1 b1 a2")  # X threatens a3
    assert make_player("perfect").choose(state).move == state.parse_move("a3")
    easy = make_player("easy").choose(state)
    assert easy.depth == 1
    assert easy.move == state.parse_move("b2")  # the centre's open lines look better
    state.play(easy.move)
    state.play(state.parse_move("a3"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0  # and X wins at once


def test_render_puts_each_column_letter_below_its_cells() -> None:
    lines = TicTacToe.from_notation("a1 b2 c3").render(last_move=False).splitlines()
    header, rows = lines[-1], lines[:-1]
    for letter in "abc":
        assert {row[header.index(letter)] for row in rows} <= {"X", "O", "."}, letter
    # a1 is the bottom-left corner: the top row holds c3, the bottom row a1.
    assert [row[header.index(letter)] for row, letter in zip(rows, "cba", strict=True)] == [
        "X",
        "O",
        "X",
    ]
