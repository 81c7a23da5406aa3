"""The one-ply baselines (the ladder's bottom rungs) and the arena playing them."""

from __future__ import annotations

import random

import pytest

from abgames.ai.baselines import BASELINES, baseline_move, make_baseline, safe_moves
from abgames.arena.engines import parse_engine_spec
from abgames.arena.judge import GameTask, play_game
from abgames.games import ConnectFour, TicTacToe


def test_greedy_and_safe_take_a_win_random_need_not() -> None:
    # X . X / O O . / . . .  X to move: b3 (cell 1) wins at once.
    state = TicTacToe.from_notation("a3 a2 c3 b2")
    for name in ("greedy", "safe"):
        for seed in range(10):
            assert baseline_move(name, state, random.Random(seed)) == 1
    moves = {baseline_move("random", state, random.Random(seed)) for seed in range(40)}
    assert moves == set(state.legal_moves())


def test_safe_blocks_the_only_threat_greedy_does_not_always() -> None:
    # Connect Four: Yellow has three in column 1 (index 0); Red must drop there.
    threat_state = ConnectFour.from_notation("414151")  # Red to move, Yellow threatens col 1
    assert safe_moves(threat_state) == [0]
    for seed in range(10):
        assert baseline_move("safe", threat_state, random.Random(seed)) == 0
    greedy = {baseline_move("greedy", threat_state, random.Random(seed)) for seed in range(40)}
    assert len(greedy) > 1


def test_baseline_player_leaves_the_state_unchanged() -> None:
    state = ConnectFour.from_notation("4444")
    before = state.notation()
    for name in BASELINES:
        result = make_baseline(name, seed=3).choose(state)
        assert result.move in state.legal_moves()
    assert state.notation() == before
    with pytest.raises(ValueError, match="unknown baseline"):
        make_baseline("clever")


@pytest.mark.parametrize("first", ["random", "safe"])
def test_arena_plays_baselines(first: str) -> None:
    specs = (
        parse_engine_spec(f"level={first}", game="tictactoe", turn_ms=1000),
        parse_engine_spec("level=perfect", game="tictactoe", turn_ms=1000),
    )
    record = play_game(
        GameTask(
            index=0,
            game="tictactoe",
            options={},
            engines=specs,
            opening=(),
            seed=1,
            tolerance_ms=500,
        )
    )
    assert record.winner != 0  # a baseline never beats the perfect player
