"""Puzzles: Glicko-2 against Glickman's worked example, the packaged file, and moves
judged by the engines (any winning line counts; a wrong move is refuted)."""

from __future__ import annotations

import random

import pytest

from abgames.games.base import IllegalMoveError
from abgames.games.connect4 import ConnectFour
from abgames.games.gomoku import Gomoku
from abgames.puzzles import check
from abgames.puzzles.catalogue import VCF, VCT, WIN, by_id, choose, load
from abgames.puzzles.glicko2 import Game, Rating, expected_score, rate

#: An intro VCF (Renju, black to move) that a first move other than the stored one wins too.
ALTERNATIVE_PUZZLE = "gi115"
ALTERNATIVE_FIRST = "g8"
#: A first move of that puzzle that lets the win go.
WRONG_FIRST = "f8"


# --- Glicko-2 ---------------------------------------------------------------------


def test_glicko2_matches_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system", section "Example calculation".
    player = Rating(1500.0, 200.0, 0.06)
    games = [Game(1400.0, 30.0, 1.0), Game(1550.0, 100.0, 0.0), Game(1700.0, 300.0, 0.0)]
    after = rate(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_without_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1500.0, 200.0, 0.06), [])
    assert after.rating == 1500.0
    assert after.deviation == pytest.approx(200.2714, abs=0.001)  # sqrt(phi^2 + sigma^2)


def test_glicko2_a_win_raises_a_loss_lowers_and_the_floor_holds() -> None:
    player = Rating(1500.0, 60.0, 0.06)
    puzzle = Game(1500.0, 80.0, 1.0)
    won = rate(player, [puzzle], min_deviation=50.0)
    lost = rate(player, [Game(1500.0, 80.0, 0.0)], min_deviation=50.0)
    assert won.rating > 1500.0 > lost.rating
    assert won.deviation >= 50.0
    assert expected_score(player, Rating(1500.0, 80.0)) == pytest.approx(0.5)


# --- the packaged puzzles -----------------------------------------------------------


def test_every_packaged_puzzle_starts_unfinished_and_its_stored_line_wins() -> None:
    puzzles = load()
    assert len({p.id for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        assert puzzle.goal in (VCF, VCT, WIN)
        start = puzzle.start()
        assert start.outcome() is None, puzzle.id
        end = puzzle.after(puzzle.solution)
        outcome = end.outcome()
        assert outcome is not None and outcome.winner == puzzle.attacker, puzzle.id
        assert puzzle.length == (len(puzzle.solution) + 1) // 2


def test_the_file_holds_every_source() -> None:
    sources = {p.source for p in load()}
    assert len(sources) == 4
    games = {p.game for p in load()}
    assert games == {"gomoku", "connect4"}


def test_choose_picks_near_the_rating_and_avoids_recent_puzzles() -> None:
    rng = random.Random(1)
    easy = choose(900, game="connect4", rng=rng)
    hard = choose(2600, game="connect4", rng=rng)
    assert easy is not None and hard is not None
    assert easy.game == hard.game == "connect4"
    assert easy.rating < hard.rating
    near = [p.id for p in load() if p.game == "connect4"]
    chosen = choose(900, game="connect4", avoid=near[:-1], rng=rng)
    assert chosen is not None and chosen.id == near[-1]
    assert choose(1500, game="tictactoe") is None


# --- judging moves ------------------------------------------------------------------


def _play_out(state: Gomoku, first: int) -> list[int]:
    """Play ``first`` and then the solver's moves, the engine defending: the moves."""
    moves = []
    move = first
    while True:
        verdict = check.judge(state, move)
        assert verdict.verdict in (check.CORRECT, check.SOLVED), (state.render(), move)
        state.play(move)
        moves.append(move)
        if verdict.verdict == check.SOLVED:
            return moves
        assert verdict.reply is not None
        state.play(verdict.reply)
        moves.append(verdict.reply)
        hint = check.hint(state)
        assert hint is not None
        move = hint
        assert len(moves) < 60


def test_a_gomoku_puzzle_is_solved_by_a_line_other_than_the_stored_one() -> None:
    puzzle = by_id()[ALTERNATIVE_PUZZLE]
    state = puzzle.start()
    assert isinstance(state, Gomoku)
    first = state.parse_move(ALTERNATIVE_FIRST)
    assert first != puzzle.solution[0]
    line = _play_out(state, first)
    assert tuple(line) != puzzle.solution
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == puzzle.attacker


def test_a_wrong_gomoku_move_is_refuted() -> None:
    puzzle = by_id()[ALTERNATIVE_PUZZLE]
    state = puzzle.start()
    move = state.parse_move(WRONG_FIRST)
    verdict = check.judge(state, move)
    assert verdict.verdict == check.WRONG
    assert verdict.reply is not None
    state.play(move)
    state.play(verdict.reply)  # the refutation is a legal answer ...
    assert isinstance(state, Gomoku)
    assert check.gomoku_win(state) is None  # ... after which the attacker has no win


def test_the_stored_first_move_and_the_hint_win() -> None:
    puzzle = by_id()[ALTERNATIVE_PUZZLE]
    verdict = check.judge(puzzle.start(), puzzle.solution[0])
    assert verdict.verdict == check.CORRECT
    hint = check.hint(puzzle.start())
    assert hint is not None
    assert check.judge(puzzle.start(), hint).verdict == check.CORRECT


def test_an_illegal_move_is_refused_in_the_rules_words() -> None:
    puzzle = by_id()[ALTERNATIVE_PUZZLE]
    state = puzzle.start()
    taken = next(p for p in range(225) if isinstance(state, Gomoku) and state.board[p])
    with pytest.raises(IllegalMoveError, match="already taken"):
        check.judge(state, taken)


def _connect4_puzzle() -> tuple[str, ConnectFour]:
    puzzle = next(p for p in load() if p.game == "connect4")
    state = puzzle.start()
    assert isinstance(state, ConnectFour)
    return puzzle.id, state


def test_connect4_the_one_winning_column_keeps_the_win_and_the_others_lose_it() -> None:
    puzzle_id, state = _connect4_puzzle()
    puzzle = by_id()[puzzle_id]
    scores = check.connect4_scores(state)
    winning = [c for c in state.legal_moves() if scores[c] > 0]
    assert winning == [puzzle.solution[0]]
    verdict = check.judge(state, winning[0])
    assert verdict.verdict in (check.CORRECT, check.SOLVED)
    wrong = next(c for c in state.legal_moves() if c != winning[0])
    refuted = check.judge(state, wrong)
    assert refuted.verdict == check.WRONG and refuted.reply is not None
    after = state.copy()
    after.play(wrong)
    after.play(refuted.reply)
    assert max(check.connect4_scores(after)) <= 0  # the win is gone for good


def test_connect4_any_winning_line_counts_to_the_four() -> None:
    puzzle_id, state = _connect4_puzzle()
    puzzle = by_id()[puzzle_id]
    attacker = state.to_move
    move = puzzle.solution[0]
    for _ in range(21):
        verdict = check.judge(state, move)
        assert verdict.verdict in (check.CORRECT, check.SOLVED)
        state.play(move)
        if verdict.verdict == check.SOLVED:
            break
        assert verdict.reply is not None
        state.play(verdict.reply)
        # Any winning column, the slowest first: not the stored line's choice.
        scores = check.connect4_scores(state)
        move = min((c for c in state.legal_moves() if scores[c] > 0), key=lambda c: scores[c])
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == attacker


def test_a_worker_job_answers_errors_as_data() -> None:
    assert "error" in check.run_puzzle_job("move", {"puzzle": "nope", "moves": [], "move": 1})
    puzzle = by_id()[ALTERNATIVE_PUZZLE]
    taken = puzzle.position["black"][0]
    answer = check.run_puzzle_job("move", {"puzzle": puzzle.id, "moves": [], "move": taken})
    assert "already taken" in answer["error"]
    hint = check.run_puzzle_job("hint", {"puzzle": puzzle.id, "moves": []})
    assert isinstance(hint["move"], int)
