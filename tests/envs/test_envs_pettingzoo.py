"""The PettingZoo AEC environments: PettingZoo's own checks, then the rules through them."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test

from abgames.envs import connect4_v0, gomoku_v0, tictactoe_v0
from abgames.envs.aec import classic_wrappers
from abgames.games import Gomoku

VARIANTS = [
    (tictactoe_v0, {}),
    (connect4_v0, {}),
    (connect4_v0, {"width": 5, "height": 4}),
    (gomoku_v0, {"size": 9}),
    (gomoku_v0, {"size": 9, "rule": "standard"}),
    (gomoku_v0, {"size": 9, "rule": "renju"}),
]


@pytest.mark.parametrize(("module", "options"), VARIANTS)
def test_pettingzoo_checks(module: ModuleType, options: dict[str, Any]) -> None:
    api_test(module.env(**options), num_cycles=300)

    def make(**kw: Any) -> Any:
        return module.env(**options, **kw)

    seed_test(make, num_cycles=100)
    render_test(make)


def test_gomoku_15x15_passes_the_api_test() -> None:
    api_test(gomoku_v0.env(), num_cycles=100)


def play(env: Any, actions: list[int]) -> Any:
    env.reset(seed=1)
    for action in actions:
        env.step(action)
    return env


def test_tictactoe_numbers_actions_column_by_column_as_pettingzoo() -> None:
    # tictactoe_v3's layout: 0 3 6 / 1 4 7 / 2 5 8. X takes 0, 3, 6: the top row.
    env = play(tictactoe_v0.env(), [0, 1, 3, 4, 6])
    # The first line of the text board is the top row: row 3, as a1 is the bottom-left cell.
    assert env.unwrapped.core.state.render(win_line=False, last_move=False).splitlines()[
        0
    ].split() == ["3", "X", "X", "X"]
    assert env.rewards == {"player_0": 1, "player_1": -1}
    assert all(env.terminations.values())
    planes = env.observe("player_0")["observation"]
    assert planes[:, :, 0][0].tolist() == [1, 0, 0]  # [action // 3, action % 3]
    assert [int(planes[a // 3, a % 3, 0]) for a in range(9)] == [1, 0, 0, 1, 0, 0, 1, 0, 0]


def test_tictactoe_draw_gives_zero_to_both() -> None:
    # X: 4 0 5 7 6 ... a drawn game in tictactoe_v3's numbering (our cells transposed).
    env = play(tictactoe_v0.env(), [4, 0, 2, 6, 3, 5, 7, 1, 8])
    assert env.unwrapped.core.outcome().is_draw
    assert env.rewards == {"player_0": 0, "player_1": 0}
    assert all(env.terminations.values())


def test_connect4_observation_rows_from_the_top_and_channels_by_viewer() -> None:
    env = play(connect4_v0.env(), [3, 3, 2])
    first = env.observe("player_0")["observation"]
    second = env.observe("player_1")["observation"]
    assert first.shape == (6, 7, 2)
    assert first[5, 3, 0] == 1 and first[4, 3, 1] == 1 and first[5, 2, 0] == 1
    # The other agent's view swaps the channels: the same board, roles exchanged.
    assert np.array_equal(first[:, :, ::-1], second)
    assert env.observe("player_1")["action_mask"].tolist() == [1] * 7  # its turn
    assert env.observe("player_0")["action_mask"].tolist() == [0] * 7


@pytest.mark.parametrize("first_column", [0, 6])
def test_connect4_vertical_four_wins_for_either_side(first_column: int) -> None:
    other = 6 - first_column
    env = play(connect4_v0.env(), [first_column, other] * 3 + [first_column])
    assert env.rewards == {"player_0": 1, "player_1": -1}
    # The second player wins when the first wastes a move.
    env = play(connect4_v0.env(), [3] + [first_column, other] * 3 + [first_column])
    assert env.rewards == {"player_0": -1, "player_1": 1}


def test_connect4_full_column_is_masked_and_playing_it_loses() -> None:
    env = play(connect4_v0.env(), [0, 0, 0, 0, 0, 0])
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.tolist() == [0, 1, 1, 1, 1, 1, 1]
    mover = env.agent_selection
    env.step(0)
    other = "player_1" if mover == "player_0" else "player_0"
    assert env.rewards[mover] == -1 and env.rewards[other] == 0
    assert all(env.terminations.values())


def test_renju_masks_black_double_three_and_playing_it_loses() -> None:
    # Black stones on i8 j8 and h9 h10 (15x15): h8 would make two open threes.
    state = Gomoku(15, "renju")
    h8 = state.parse_move("h8")
    moves = ["i8", "a1", "j8", "a3", "h9", "a5", "h10", "a7"]
    env = play(gomoku_v0.env(rule="renju"), [state.parse_move(m) for m in moves])
    assert env.agent_selection == "player_0"
    mask = env.observe("player_0")["action_mask"]
    assert mask[h8] == 0
    assert mask.sum() == 15 * 15 - len(moves) - 1
    env.step(h8)
    assert env.rewards == {"player_0": -1, "player_1": 0}
    # Under the freestyle rule the same point is open to black.
    env = play(gomoku_v0.env(), [state.parse_move(m) for m in moves])
    assert env.observe("player_0")["action_mask"][h8] == 1


def test_renju_does_not_mask_white() -> None:
    state = Gomoku(15, "renju")
    moves = ["i8", "a1", "j8", "a3", "h9", "a5", "h10"]
    env = play(gomoku_v0.env(rule="renju"), [state.parse_move(m) for m in moves])
    assert env.agent_selection == "player_1"
    assert env.observe("player_1")["action_mask"][state.parse_move("h8")] == 1


def test_gomoku_standard_overline_does_not_win_freestyle_does() -> None:
    # Black: a1 b1 c1 e1 f1 then d1 makes six; white plays far away on row 9.
    state = Gomoku(9)
    black = [state.parse_move(p) for p in ("a1", "b1", "c1", "e1", "f1", "d1")]
    white = [state.parse_move(p) for p in ("a9", "c9", "e9", "g9", "i9")]
    actions = [a for pair in zip(black, white, strict=False) for a in pair] + [black[-1]]
    free = play(gomoku_v0.env(size=9), actions)
    assert free.rewards == {"player_0": 1, "player_1": -1}
    standard = play(gomoku_v0.env(size=9, rule="standard"), actions)
    assert standard.rewards == {"player_0": 0, "player_1": 0}
    assert not any(standard.terminations.values())


@pytest.mark.parametrize(("module", "options"), VARIANTS[:4])
def test_random_games_agree_with_the_rules(module: ModuleType, options: dict[str, Any]) -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        env = module.env(**options)
        env.reset(seed=int(rng.integers(1000)))
        totals = {"player_0": 0, "player_1": 0}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            state = env.unwrapped.core.state
            assert sorted(env.unwrapped.core.move_of(int(a)) for a in legal) == sorted(
                state.legal_moves()
            )
            env.step(int(rng.choice(legal)))
        outcome = env.unwrapped.core.outcome()
        expected = (
            (0, 0) if outcome.winner is None else ((1, -1) if outcome.winner == 0 else (-1, 1))
        )
        assert (totals["player_0"], totals["player_1"]) == expected


def test_rgb_array_shape_and_ansi_text() -> None:
    env = connect4_v0.env(render_mode="rgb_array")
    env.reset()
    env.step(3)
    image = env.render()
    assert image.shape == (6 * 48, 7 * 48, 3) and image.dtype == np.uint8
    text = tictactoe_v0.env(render_mode="ansi")
    text.reset()
    text.step(4)
    assert "X" in text.render()


def test_renju_mask_is_exactly_the_rules_legal_moves_in_crowded_positions() -> None:
    # Stones dropped near the centre make threes and fours; the mask's shortcut must
    # agree with the full rule (Gomoku.legal_moves, every empty point judged).
    rng = np.random.default_rng(3)
    forbidden_seen = 0
    for _ in range(12):
        env = gomoku_v0.env(size=15, rule="renju")
        env.reset()
        core = env.unwrapped.core
        while core.outcome() is None and core.state.ply < 60:
            legal = sorted(core.state.legal_moves())
            assert np.flatnonzero(core.mask).tolist() == legal
            forbidden_seen += len(core.state.forbidden_points()) if core.to_move == 0 else 0
            near = [p for p in legal if abs(p % 15 - 7) <= 3 and abs(p // 15 - 7) <= 3]
            env.step(int(rng.choice(near or legal)))
    assert forbidden_seen > 0


def illegal_game(env: Any) -> list[tuple[str, float, bool, bool]]:
    """Three legal moves, then an illegal one (a taken cell), then the dead agents' steps."""
    env.reset(seed=0)
    seen = []
    for action in [4, 0, 8, 4]:
        env.step(action)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        seen.append((agent, reward, terminated, truncated))
        env.step(None)
    return seen


def test_illegal_moves_are_handled_as_pettingzoos_own_wrappers_handle_them() -> None:
    ours = illegal_game(tictactoe_v0.env())
    theirs = illegal_game(classic_wrappers(tictactoe_v0.raw_env()))
    assert ours == theirs
    # The mover (player_1, whose turn it was) gets -1, the other 0; both are done.
    assert sorted(ours) == [("player_0", 0, True, True), ("player_1", -1, True, True)]


def test_out_of_range_actions_and_calls_before_reset_are_refused() -> None:
    env = connect4_v0.env()
    with pytest.raises(AttributeError):
        env.agent_selection  # noqa: B018 - the access is the test
    env.reset()
    with pytest.raises(AssertionError):
        env.step(7)
