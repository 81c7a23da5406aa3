"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012/2022).

A player is a rating ``r``, a rating deviation ``rd`` (how unsure the rating is) and a
volatility ``sigma`` (how erratic the player is). ``rate`` applies one rating period's
games to a player; a puzzle is an opponent whose rating and deviation are its own.
The steps below are numbered as in Glickman's paper; the paper's worked example
(a 1500/200/0.06 player against 1400/30, 1550/100 and 1700/300: win, loss, loss)
gives 1464.06 / 151.52 / 0.05999, which ``tests/test_puzzles_glicko2.py`` checks.

DESIGN.md names the ``glicko2`` package on PyPI: it is a 2012 module of one class that
mutates its player in place and keeps the rating period's games as lists of floats;
the 60 lines below are the same formulas, pure and typed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-1 scale to Glicko-2 scale: ``mu = (r - 1500) / SCALE``.
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant: how much the volatility may change (the paper suggests 0.3..1.2).
TAU = 0.5
#: Convergence tolerance of step 5's iteration.
EPSILON = 0.000001
#: The deviation never falls below this, so a long-time player still moves a little.
MIN_DEVIATION = 45.0


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko-1 scale: rating, deviation, volatility."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Game:
    """One game of a rating period: the opponent's rating and deviation, and the score
    (1 a win, 0.5 a draw, 0 a loss)."""

    rating: float
    deviation: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on ``f``."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    player: Rating, games: Sequence[Game], *, tau: float = TAU, min_deviation: float = 0.0
) -> Rating:
    """The player's rating after one rating period with ``games`` (steps 2 to 8).

    With no games only the deviation grows (step 6 alone). ``min_deviation`` keeps the
    new deviation at least that (0: the paper's system exactly).
    """
    mu = (player.rating - DEFAULT_RATING) / SCALE  # step 2
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, max(min_deviation, phi_star * SCALE), sigma)
    opponents = [
        ((game.rating - DEFAULT_RATING) / SCALE, game.deviation / SCALE, game.score)
        for game in games
    ]
    v_inverse = 0.0  # step 3
    improvement = 0.0  # step 4's sum
    for mu_j, phi_j, score in opponents:
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement  # step 4
    new_sigma = _new_volatility(phi, sigma, delta, v, tau)  # step 5
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(  # step 8
        new_mu * SCALE + DEFAULT_RATING, max(min_deviation, new_phi * SCALE), new_sigma
    )


def expected_score(player: Rating, opponent: Rating) -> float:
    """The chance that ``player`` beats ``opponent`` (the deviation of the opponent counted)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
    return _expected(mu, mu_j, opponent.deviation / SCALE)
