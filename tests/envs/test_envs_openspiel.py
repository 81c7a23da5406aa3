"""Our players as OpenSpiel bots, against OpenSpiel's MCTS bot on OpenSpiel's own games."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from abgames.envs.openspiel import bot, state_from_openspiel  # noqa: E402


def mcts_bot(game: object, simulations: int, seed: int) -> object:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    return mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)


@pytest.mark.parametrize("ours_first", [True, False])
def test_tictactoe_perfect_never_loses_to_mcts(ours_first: bool) -> None:
    game = pyspiel.load_game("tic_tac_toe")
    rng = np.random.RandomState(0)
    for seed in range(4):
        ours = bot(game, "perfect", seed=seed)
        theirs = mcts_bot(game, 200, seed)
        bots = [ours, theirs] if ours_first else [theirs, ours]
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        assert returns[0 if ours_first else 1] >= 0.0


def test_connect4_perfect_first_never_loses_to_mcts() -> None:
    game = pyspiel.load_game("connect_four")
    rng = np.random.RandomState(1)
    for seed in range(3):
        returns = evaluate_bots(
            game.new_initial_state(), [bot(game, "perfect"), mcts_bot(game, 100, seed)], rng
        )
        assert returns[0] == 1.0  # the first player wins Connect Four with perfect play


def test_action_numbers_match_ours() -> None:
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for action in (4, 0, 8):
        state.apply_action(action)
    ours = state_from_openspiel(game, state)
    assert ours.notation() == "b2 a3 c1"  # cells 4, 0 and 8: a1 is the bottom-left corner
    # Gomoku: OpenSpiel's row 0 is on top, as our y; our engine finds the win on its board.
    gomoku = pyspiel.load_game("gomoku", {"size": 9})
    g = gomoku.new_initial_state()
    for x in range(4):
        g.apply_action(4 * 9 + x)  # black on row 4, x = 0..3
        g.apply_action(8 * 9 + 2 * x)  # white on the bottom row, apart
    assert bot(gomoku, "greedy", seed=0).step(g) == 4 * 9 + 4
    connect4 = pyspiel.load_game("connect_four", {"rows": 5, "columns": 6})
    c = connect4.new_initial_state()
    for action in (0, 5, 0, 5, 0, 5):
        c.apply_action(action)
    assert bot(connect4, "easy").step(c) == 0


def test_games_we_cannot_play_are_refused() -> None:
    with pytest.raises(ValueError, match="four"):
        bot(pyspiel.load_game("connect_four", {"x_in_row": 5}), "perfect")
    with pytest.raises(ValueError, match="anti"):
        bot(pyspiel.load_game("gomoku", {"anti": True}), "medium")
    with pytest.raises(ValueError, match="not ours"):
        bot("kuhn_poker", "perfect")
