"""The calibrated ladder: the stored rungs, the rating fit, and policies rated on it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from abgames.envs.ladder import Rung, RungScore, fit_elo, load_rungs, rate
from abgames.envs.policies import greedy_policy, random_policy


@pytest.mark.parametrize("game", ["tictactoe", "connect4"])
def test_stored_rungs(game: str) -> None:
    rungs = load_rungs(game)
    names = [r.name for r in rungs]
    assert names[:3] == ["random", "greedy", "safe"]
    assert "perfect" in names
    assert rungs[0].elo == 0.0
    for rung in rungs[1:]:
        assert rung.games > 0
        assert rung.bound in ("", "lower")


def rung(name: str, elo: float) -> Rung:
    return Rung(name, elo, 0.0, "", 100)


def test_fit_is_symmetric_and_exact_on_even_scores() -> None:
    # Half the points against a rung rated 300 is a rating of 300.
    even = fit_elo([RungScore(rung("a", 300.0), wins=10, draws=0, losses=10)])
    assert even.elo == pytest.approx(300.0, abs=0.01)
    # Scores mirrored about two rungs give a rating halfway between them.
    mirrored = fit_elo(
        [
            RungScore(rung("a", 0.0), wins=15, draws=0, losses=5),
            RungScore(rung("b", 400.0), wins=5, draws=0, losses=15),
        ]
    )
    assert mirrored.elo == pytest.approx(200.0, abs=0.01)
    assert mirrored.ci95 is not None and 0 < mirrored.ci95 < math.inf
    # 75 % against one rung is the logistic figure, 400 log10(3) above it.
    three_to_one = fit_elo([RungScore(rung("a", 100.0), wins=30, draws=0, losses=10)])
    assert three_to_one.elo == pytest.approx(100.0 + 400 * math.log10(3), abs=0.01)


def test_no_points_is_an_upper_bound_all_points_a_lower_one() -> None:
    nothing = fit_elo([RungScore(rung("a", 500.0), losses=20)])
    assert nothing.bound == "upper" and nothing.elo < 500.0
    everything = fit_elo([RungScore(rung("a", 500.0), wins=20)])
    assert everything.bound == "lower" and everything.elo > 500.0
    assert nothing.elo == pytest.approx(1000.0 - everything.elo, abs=0.01)


def test_random_policy_rates_near_the_random_rung_on_tictactoe() -> None:
    rating = rate(random_policy(1), "tictactoe", 60, seed=3)
    assert rating.ci95 is not None
    assert abs(rating.elo) < rating.ci95 + 60  # the random rung is 0 by definition
    assert rating.scores[0].rung.name == "random"


def test_greedy_rates_above_random_on_connect4() -> None:
    random_rating = rate(random_policy(2), "connect4", 40, seed=5)
    greedy_rating = rate(greedy_policy("connect4", 2), "connect4", 40, seed=5)
    assert greedy_rating.elo > random_rating.elo
    # Both stop climbing after two rungs in a row without a point.
    assert len(random_rating.scores) < len(load_rungs("connect4"))


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from abgames.cli import main

    assert main(["rl", "rungs", "connect4"]) == 0
    printed = capsys.readouterr().out
    assert "perfect" in printed and "scripts/calibrate_ladder.py" in printed
    assert main(["rl", "ladder", "greedy", "--game", "tictactoe", "--games", "6"]) == 0
    assert "greedy — tictactoe: Elo" in capsys.readouterr().out
    policy = tmp_path / "mine.py"
    policy.write_text(
        "import numpy as np\n"
        "def first_legal(observation):\n"
        "    return int(np.flatnonzero(observation['action_mask'])[0])\n"
    )
    assert (
        main(["rl", "ladder", f"{policy}:first_legal", "--game", "tictactoe", "--games", "4"]) == 0
    )
    assert "tictactoe: Elo" in capsys.readouterr().out
    assert main(["rl", "ladder", "nonsense", "--game", "tictactoe"]) == 2
