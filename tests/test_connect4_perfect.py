"""The ``perfect`` player from any position: the best exact score, never a fallback.

Positions are handed over after random openings (a game between people, then
"let the AI play") and played out against random and perfect opponents; every
move of ``perfect`` is checked against every column's exact score.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from abgames.ai.connect4.book import load_default_book
from abgames.ai.connect4.constants import INVALID_MOVE
from abgames.ai.connect4.perfect import PerfectPlayer, to_search_score
from abgames.ai.connect4.position import Position, random_game
from abgames.ai.connect4.solver import Solver
from abgames.ai.connect4.strategy_book import load_default_strategy
from abgames.games.connect4 import ConnectFour

#: A lost position (17 discs, -9): column 7 loses slowest, column 3 is the centre-most
#: column that does not lose at once (what the old rule played): it loses sooner (-10).
LOST = "35531254275547623"
#: A lost position (11 discs, -9) from the reference data, where knowing the score
#: after the player's move and the best reply saves most of the next solve.
NARROWED = "37416146447"
#: Random openings handed to ``perfect``: this many discs (cheap enough for a test).
OPENING_DISCS = (12, 16)
#: Games per opponent in the hand-over test, ``perfect`` on alternate sides.
GAMES = 8
#: Chance that the perfect opponent plays a random move instead.
OPPONENT_SLIP = 0.2
#: The shipped exact book holds every position of this many discs (and every earlier
#: one): ``abgames book connect4 --every --plies 8``.
COMPLETE_DISCS = 8
#: The deepest level the shipped book was built to, whose positions carry the column
#: that keeps their score (all 91,295).
COLUMN_DISCS = 8


@pytest.fixture(scope="module")
def checker() -> Solver:
    return Solver(20)


def best_score(checker: Solver, position: Position) -> int:
    return max(s for s in checker.analyze(position) if s != INVALID_MOVE)


def check_move(checker: Solver, player: PerfectPlayer, state: ConnectFour) -> int:
    """``player``'s move in ``state``, asserted to have the best exact score."""
    position = Position.from_state(state)
    scores = checker.analyze(position)
    result = player.choose(state)
    assert result.move is not None and result.solved and not result.note, state.notation()
    assert scores[result.move] == max(scores), (state.notation(), scores, result.move)
    assert result.score == to_search_score(max(scores), position.moves), state.notation()
    return result.move


def test_a_lost_position_is_defended_as_long_as_possible(checker: Solver) -> None:
    state = ConnectFour.from_notation(LOST)
    scores = checker.analyze(Position.from_state(state))
    assert max(scores) == -9 and scores[2] == -10
    assert check_move(checker, PerfectPlayer(book=None, table_bits=18), state) == 6


def test_a_won_position_is_won_fastest(checker: Solver, shared_data: Path) -> None:
    rows = (shared_data / "connect4" / "Test_L2_R1").read_text().splitlines()
    won = [row.split()[0] for row in rows if int(row.split()[1]) > 0][:10]
    player = PerfectPlayer(book=None, table_bits=18)
    for moves in won:
        check_move(checker, player, ConnectFour.from_notation(moves))


@pytest.mark.parametrize("opponent", ["random", "perfect"])
def test_handed_over_positions_are_played_with_the_best_exact_score(
    checker: Solver, opponent: str
) -> None:
    """Random openings, then ``perfect`` on one side to the end: every move checked.

    The perfect opponent picks at random among its best moves and slips to a random
    move now and then, so ``perfect`` meets won, drawn and lost positions.
    """
    rng = random.Random(46)
    checked = 0
    for game in range(GAMES):
        state = random_game(rng, *OPENING_DISCS)
        player = PerfectPlayer(table_bits=18)
        side = game % 2
        while state.outcome() is None:
            if state.to_move == side:
                move = check_move(checker, player, state)
                checked += 1
            elif opponent == "random" or rng.random() < OPPONENT_SLIP:
                move = rng.choice(state.legal_moves())
            else:
                scores = checker.analyze(Position.from_state(state))
                move = rng.choice([c for c, s in enumerate(scores) if s == max(scores)])
            state.play(move)
    assert checked > GAMES  # at least one move a game, most games more


def test_perfect_has_no_node_limit_on_seven_by_six() -> None:
    assert PerfectPlayer().node_limit is None


def test_the_score_of_the_last_move_narrows_the_next_solve(checker: Solver) -> None:
    """After its move and the best reply, the player knows its score: fewer nodes."""
    state = ConnectFour.from_notation(NARROWED)
    playing = PerfectPlayer(book=None, strategy=None, level_book=None, table_bits=18)
    move = check_move(checker, playing, state)
    state.play(move)
    scores = checker.analyze(Position.from_state(state))
    state.play(scores.index(max(scores)))
    remembering = playing.choose(state)
    fresh = PerfectPlayer(book=None, strategy=None, level_book=None, table_bits=18)
    fresh_result = fresh.choose(state)
    assert (remembering.move, remembering.score) == (fresh_result.move, fresh_result.score)
    playing_nodes, fresh_nodes = remembering.nodes, fresh_result.nodes
    assert playing_nodes < fresh_nodes


def reference_rows(shared_data: Path, most_discs: int) -> Iterator[tuple[str, int]]:
    """``(moves, score)`` of every reference position with at most ``most_discs`` discs."""
    for path in sorted((shared_data / "connect4").glob("Test_*")):
        for row in path.read_text().splitlines():
            moves, score = row.split()
            if len(moves) <= most_discs:
                yield moves, int(score)


def test_the_exact_book_agrees_with_the_reference_data(shared_data: Path) -> None:
    """Every reference position the shipped exact book holds has the reference score."""
    book = load_default_book()
    assert book is not None
    stored = [
        (book.get(Position.parse(moves).key), score)
        for moves, score in reference_rows(shared_data, book.max_moves)
    ]
    held = [(got, score) for got, score in stored if got is not None]
    assert held and all(got == score for got, score in held)


def test_the_strategy_book_agrees_with_the_reference_data(shared_data: Path) -> None:
    """Every reference position the strategy book holds has the reference score's sign."""
    book = load_default_strategy()
    assert book is not None
    stored = [
        (book.get(Position.parse(moves)), score)
        for moves, score in reference_rows(shared_data, book.max_moves)
    ]
    held = [(entry[0], score) for entry, score in stored if entry is not None]
    assert held and all(value == (score > 0) - (score < 0) for value, score in held)


@pytest.mark.parametrize("moves", ["", "1", "4", "7", "44", "41"])
def test_the_first_plies_come_from_the_book_without_search(moves: str) -> None:
    """Where the perfect player meets the exact book, it scores every column: no search."""
    result = PerfectPlayer(table_bits=16).choose(ConnectFour.from_notation(moves))
    assert result.solved and result.root_scores_exact
    assert result.nodes < 100


def test_the_book_holds_every_position_of_its_complete_level() -> None:
    """Every position of ``COMPLETE_DISCS`` discs, however reached, is in the shipped book
    (``abgames book connect4 --every``), with its exact score (a few solved again)."""
    book = load_default_book()
    assert book is not None
    rng = random.Random(COMPLETE_DISCS)
    positions = [
        Position.from_state(random_game(rng, COMPLETE_DISCS, COMPLETE_DISCS)) for _ in range(500)
    ]
    assert all(book.get(position.key) is not None for position in positions)
    solver = Solver(22)
    for position in positions[:3]:
        assert book.get(position.key) == solver.solve(position)


def test_any_position_before_the_complete_level_is_answered_from_the_book() -> None:
    """Handed over with fewer than ``COMPLETE_DISCS`` discs (a game between people, a
    hint), ``perfect`` has every column's exact score from the book: no search."""
    rng = random.Random(461)
    player = PerfectPlayer(table_bits=16)
    for _ in range(300):
        state = random_game(rng, 0, COMPLETE_DISCS - 1)
        result = player.choose(state)
        assert result.solved and result.root_scores_exact, state.notation()
        assert result.nodes == 0, state.notation()


def test_positions_of_the_deepest_level_are_played_from_their_book_column(
    checker: Solver,
) -> None:
    """The shipped book holds every position of its deepest level with a column that
    keeps its score (``abgames book connect4 --every --plies 8``): ``perfect`` plays
    it with no search, a move of the best exact score. (With a complete level book it
    analyses such a position instead, every column to the level: so no level here.)"""
    book = load_default_book()
    assert book is not None
    rng = random.Random(COLUMN_DISCS)
    player = PerfectPlayer(table_bits=16, level_book=None)
    played = 0
    for index in range(200):
        state = random_game(rng, COLUMN_DISCS, COLUMN_DISCS)
        if state.outcome() is not None or state.ply != COLUMN_DISCS:
            continue
        position = Position.from_state(state)
        column = book.column(position.key)
        assert column is not None, state.notation()
        result = player.choose(state)
        assert result.solved and result.nodes == 0, state.notation()
        assert result.score == to_search_score(book.get(position.key) or 0, position.moves)
        if not result.root_scores_exact:  # not every child in the book: the column
            assert result.move == column, state.notation()
        if index < 4:
            check_move(checker, player, state)
        played += 1
    assert played >= 190
