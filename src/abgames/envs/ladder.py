"""The calibrated ladder: a policy's Elo against our players, on a measured scale.

The rungs of a game are the one-ply baselines (``random``, ``greedy``, ``safe``) and
the game's search levels. Their Elo was measured once by the arena, each rung against
the next, chained from ``random`` = 0, and is stored in ``abgames/ai/ladder.json``
with the games it rests on and its 95 % interval; re-measure with

    nice .venv/bin/python scripts/calibrate_ladder.py

(``abgames rl rungs GAME`` prints the stored figures and that command.)

``rate(policy, game)`` plays the policy against the rungs from the bottom up
(``games_per_rung`` each, colours alternating) through ``OpponentEnv``, and stops
climbing after ``stop_after`` rungs in a row where it scored nothing (stronger rungs
would add games it loses and almost no information). The Elo is the maximum
likelihood rating given the rungs' Elo (draws as half points); its 95 % interval
comes from the likelihood's curvature and leaves out the rungs' own error bars. A
policy that scores nothing (or everything) gets a one-sided 95 % bound instead.

Tic-tac-toe and Connect Four have ladders; Gomoku has none (every rung above
``safe`` beats a one-ply policy in every game, and its engine levels are
time-limited, so a measured Elo would be the machine's as much as theirs).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from abgames.envs.opponent import OpponentEnv
from abgames.envs.policies import Policy

Z_95 = 1.959963984540054
ELO_SCALE = 400.0
_SLOPE = math.log(10.0) / ELO_SCALE
#: The widest rating the search looks at.
ELO_RANGE = (-3000.0, 6000.0)


@dataclass(frozen=True)
class Rung:
    """A player of the ladder with its measured Elo."""

    name: str
    elo: float
    ci95: float | None
    bound: str  # "" for an estimate, "lower" when the figure is only a lower bound
    games: int


def load_rungs(game: str) -> list[Rung]:
    """The rungs of ``game``, weakest first; ``ValueError`` for a game with no ladder."""
    text = resources.files("abgames.ai").joinpath("ladder.json").read_text()
    data: dict[str, Any] = json.loads(text)
    if game not in data:
        games = ", ".join(k for k in data if isinstance(data[k], dict))
        raise ValueError(f"{game} has no ladder: choose {games}")
    return [
        Rung(name, float(rung["elo"]), rung["ci95"], str(rung["bound"]), int(rung["games"]))
        for name, rung in data[game]["rungs"].items()
    ]


def remeasure_command() -> str:
    text = resources.files("abgames.ai").joinpath("ladder.json").read_text()
    return str(json.loads(text)["command"])


@dataclass
class RungScore:
    rung: Rung
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws


@dataclass
class Rating:
    """A policy's rating: ``elo`` with a 95 % interval, or a one-sided ``bound``."""

    game: str
    elo: float
    ci95: float | None
    bound: str  # "", "upper" (scored nothing) or "lower" (scored everything)
    scores: list[RungScore] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(score.games for score in self.scores)

    def describe(self) -> str:
        if self.bound == "upper":
            head = f"Elo below {self.elo:.0f} (95 %: it scored nothing)"
        elif self.bound == "lower":
            head = f"Elo above {self.elo:.0f} (95 %: it won every game)"
        else:
            head = f"Elo {self.elo:.0f} ± {self.ci95:.0f} (95 %)"
        lines = [f"{self.game}: {head}, {self.games} games"]
        for s in self.scores:
            rung = s.rung
            rung_elo = f"{rung.elo:.0f}" + ("+" if rung.bound else "")
            lines.append(
                f"  vs {rung.name:<8} (Elo {rung_elo:>5}): +{s.wins} ={s.draws} -{s.losses}"
            )
        return "\n".join(lines)


def expected(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / ELO_SCALE)))


def _bisect(function: Callable[[float], float], low: float, high: float) -> float:
    """A root of ``function``, decreasing from positive at ``low`` to negative at ``high``."""
    for _ in range(100):
        middle = (low + high) / 2.0
        if function(middle) > 0.0:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def fit_elo(scores: list[RungScore], game: str = "") -> Rating:
    """The maximum-likelihood Elo for ``scores`` (see the module docstring)."""
    played = [s for s in scores if s.games]
    if not played:
        raise ValueError("no games were played")
    points = sum(s.points for s in played)
    total = sum(s.games for s in played)
    low, high = ELO_RANGE
    if points == 0 or points == total:
        # The rating at which scoring that way has probability 5 %.
        def log_probability(r: float) -> float:
            if points == 0:
                return sum(s.games * math.log(1.0 - expected(r, s.rung.elo)) for s in played)
            return sum(s.games * math.log(expected(r, s.rung.elo)) for s in played)

        target = math.log(0.05)
        if points == 0:
            elo = _bisect(lambda r: log_probability(r) - target, low, high)
            return Rating(game, elo, None, "upper", list(scores))
        elo = _bisect(lambda r: target - log_probability(r), low, high)
        return Rating(game, elo, None, "lower", list(scores))

    def gradient(r: float) -> float:
        return sum(s.points - s.games * expected(r, s.rung.elo) for s in played)

    elo = _bisect(gradient, low, high)
    information = sum(
        s.games * expected(elo, s.rung.elo) * (1.0 - expected(elo, s.rung.elo)) for s in played
    )
    ci95 = Z_95 / (_SLOPE * math.sqrt(information)) if information > 0 else math.inf
    return Rating(game, elo, ci95, "", list(scores))


def play_rung(
    policy: Policy, game: str, rung: Rung, games: int, seed: int, **options: Any
) -> RungScore:
    """``games`` games of ``policy`` against ``rung``, the policy first in the even ones."""
    score = RungScore(rung)
    for index in range(games):
        env = OpponentEnv(
            game, rung.name, first="agent" if index % 2 == 0 else "opponent", **options
        )
        observation, _ = env.reset(seed=seed + index)
        reward, over = 0.0, False
        while not over:
            observation, reward, over, _, _ = env.step(policy(observation))
        if reward > 0:
            score.wins += 1
        elif reward < 0:
            score.losses += 1
        else:
            score.draws += 1
    return score


def rate(
    policy: Policy,
    game: str = "connect4",
    games_per_rung: int = 40,
    *,
    seed: int = 0,
    stop_after: int = 2,
    rungs: list[str] | None = None,
    progress: Callable[[RungScore], None] | None = None,
    **options: Any,
) -> Rating:
    """The Elo of ``policy`` on ``game``'s ladder (see the module docstring).

    ``rungs`` limits the opponents to those names; rungs whose Elo is only a lower
    bound are left out of the fit. ``options`` go to ``OpponentEnv``.
    """
    ladder = [r for r in load_rungs(game) if not r.bound and (rungs is None or r.name in rungs)]
    if not ladder:
        raise ValueError(
            f"no rung of {game} to play: choose from {[r.name for r in load_rungs(game)]}"
        )
    scores: list[RungScore] = []
    blanks = 0
    for number, rung in enumerate(ladder):
        score = play_rung(policy, game, rung, games_per_rung, seed + 10_000 * number, **options)
        scores.append(score)
        if progress is not None:
            progress(score)
        blanks = blanks + 1 if score.points == 0 else 0
        if blanks >= stop_after:
            break
    return fit_elo(scores, game)
