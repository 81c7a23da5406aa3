"""Match statistics: score, Elo difference with a 95 % interval, and an SPRT.

All figures are from the first engine's view of a pair. With ``n`` games, a
mean score ``s`` and per-game variance ``v`` (of the trinomial win/draw/loss
outcome, 1 / ½ / 0), the standard error of ``s`` is ``sqrt(v / n)``. The Elo
difference is the logistic ``-400 log10(1/s - 1)``, and its 95 % interval maps
``s ± 1.96 · sqrt(v / n)`` through the same curve.

At a score of 0 % or 100 % the difference is infinite, and a bound whose score
reaches 0 % or 100 % (or an interval of zero width, when every game ended alike)
says nothing; ``describe_elo`` prints those as ``n/a``. (cutechess-cli and
fastchess use the same formulas and print ``inf +/- nan`` there.)

The SPRT tests H0 "the difference is ``elo0``" against H1 "it is ``elo1``" with
the normal approximation of the log-likelihood ratio used by the generalised
SPRT of fishtest:

    LLR = n · ((s - s0)² - (s - s1)²) / (2 v),   s_i = 1 / (1 + 10^(-elo_i / 400))

It stops for H1 once LLR ≥ ln((1 - β) / α) and for H0 once LLR ≤ ln(β / (1 - α)).
Draws count as half points; one virtual draw is added to the counts for the
LLR (so a run of wins has a variance); no pentanomial (game-pair) statistics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Two-sided 95 % quantile of the normal distribution.
Z_95 = 1.959963984540054
#: Virtual draws added to a tally for the SPRT (see ``Tally.llr``).
PRIOR_DRAWS = 1
ELO_SCALE = 400.0


def elo_from_score(score: float) -> float:
    """The Elo difference that expects ``score`` (0..1); ±inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return float(-ELO_SCALE * math.log10(1.0 / score - 1.0))


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + float(10.0 ** (-elo / ELO_SCALE)))


@dataclass
class Tally:
    """Wins, draws and losses of the first engine of a pair."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        """Mean points a game (0.5 before any game)."""
        return self.points / self.games if self.games else 0.5

    @property
    def variance(self) -> float:
        """Per-game variance of the points (trinomial)."""
        if not self.games:
            return 0.0
        s = self.score
        return (
            self.wins * (1.0 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2
        ) / self.games

    def elo(self) -> tuple[float, float, float]:
        """Elo difference with its 95 % interval: (elo, low, high)."""
        if not self.games:
            return 0.0, -math.inf, math.inf
        error = math.sqrt(self.variance / self.games)
        s = self.score
        low = elo_from_score(max(0.0, s - Z_95 * error))
        high = elo_from_score(min(1.0, s + Z_95 * error))
        return elo_from_score(s), low, high

    def llr(self, elo0: float, elo1: float) -> float:
        """The SPRT log-likelihood ratio of H1 (``elo1``) over H0 (``elo0``); 0 before a game.

        Counted with ``PRIOR_DRAWS`` virtual draws added, so that a run of equal
        results (all wins, say) has a variance and the ratio grows step by step.
        """
        if not self.games:
            return 0.0
        padded = Tally(self.wins, self.draws + PRIOR_DRAWS, self.losses)
        variance = padded.variance
        if variance <= 0.0:
            return 0.0
        s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
        s = padded.score
        return padded.games * ((s - s0) ** 2 - (s - s1) ** 2) / (2.0 * variance)


@dataclass(frozen=True)
class Sprt:
    """SPRT settings: the two hypotheses (Elo) and the error rates."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0.0 < self.alpha < 1.0 and 0.0 < self.beta < 1.0):
            raise ValueError("alpha and beta must lie between 0 and 1")
        if self.elo0 >= self.elo1:
            raise ValueError(f"elo0 ({self.elo0}) must be below elo1 ({self.elo1})")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def decision(self, tally: Tally) -> str | None:
        """``"H1"`` (elo1 accepted), ``"H0"`` (elo0 accepted) or ``None`` (play on)."""
        llr = tally.llr(self.elo0, self.elo1)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``elo0=0,elo1=10,alpha=0.05,beta=0.05`` (any subset; the rest default)."""
        values: dict[str, float] = {}
        for piece in text.split(","):
            key, sep, value = piece.partition("=")
            key = key.strip().lower()
            if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"SPRT setting {piece.strip()!r}: use elo0=, elo1=, alpha=, beta=")
            try:
                values[key] = float(value)
            except ValueError:
                raise ValueError(f"SPRT setting {piece.strip()!r}: not a number") from None
        return cls(**values)


#: Printed for an Elo figure the games so far cannot give.
NOT_AVAILABLE = "n/a"


def format_elo(value: float) -> str:
    """A finite difference as ``+72`` / ``-15`` / ``0``; ``n/a`` for an infinite one."""
    if not math.isfinite(value):
        return NOT_AVAILABLE
    rounded = round(value)
    return f"{rounded:+d}" if rounded else "0"


def describe_elo(tally: Tally) -> str:
    """The Elo difference and its 95 % interval for a table: ``+72 [-120, +264]``.

    ``n/a`` until both engines have scored (no finite estimate at 0 % or 100 %);
    a bound the games cannot give yet (its score reaches 0 % or 100 %, or all
    games ended alike) is ``n/a`` inside the brackets.
    """
    if not tally.games or tally.score in (0.0, 1.0):
        return NOT_AVAILABLE
    elo, low, high = tally.elo()
    if tally.variance <= 0.0:
        low = high = math.inf
    return f"{format_elo(elo)} [{format_elo(low)}, {format_elo(high)}]"
