"""Measure the rating ladder's rungs with the arena and store them (src/abgames/ai/ladder.json).

The rungs of a game are the one-ply baselines (``random``, ``greedy``, ``safe``,
abgames.ai.baselines) and the game's search levels, weakest first. The arena plays
each rung against the next (colours alternate, random opening plies as
``abgames arena`` uses by default); the Elo difference of each pair is chained from
``random``, which is 0 by definition. A rung's error bar is the 95 % interval of
that chain (the pairs' variances added). A pair won (or lost) every game says only
that the gap is at least the one-sided 95 % bound; the rungs above it are then
lower bounds and say so (``"bound": "lower"``).

    .venv/bin/python scripts/calibrate_ladder.py                 # both games
    .venv/bin/python scripts/calibrate_ladder.py --game connect4 --games 200

Run it under ``nice``: one core for about a quarter of an hour with the defaults (14
minutes on the development machine, 9 of them ``hard`` against ``perfect``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

from abgames.ai.baselines import BASELINES
from abgames.ai.levels import LEVELS
from abgames.arena.engines import parse_engine_spec
from abgames.arena.openings import random_openings
from abgames.arena.runner import ArenaSettings, run_arena
from abgames.arena.stats import ELO_SCALE, Z_95, Tally, elo_from_score

OUT = Path(__file__).resolve().parent.parent / "src" / "abgames" / "ai" / "ladder.json"
#: Games per adjacent pair, per game (the strong Connect Four pairs are slow).
PAIR_GAMES: dict[str, dict[tuple[str, str], int]] = {
    "tictactoe": {},
    "connect4": {("medium", "hard"): 160, ("hard", "perfect"): 100},
}
DEFAULT_PAIR_GAMES = 400
#: Random opening plies, as ``abgames arena`` plays by default.
RANDOM_PLIES = {"tictactoe": 1, "connect4": 2}
TURN_MS = 5000
METHOD = (
    "abgames arena (abgames.arena.runner.run_arena): each rung against the next, colours "
    "alternating, random opening plies; Elo gaps chained from random = 0; ci95 is the 95 % "
    "interval of the chain; games are those against the rung below"
)
#: Tic-tac-toe's hard and perfect levels search the same depth (the whole game):
#: one rung, ``perfect``.
SKIP = {"tictactoe": ("hard",)}


def rungs(game: str) -> list[str]:
    return [*BASELINES, *(lv for lv in LEVELS[game] if lv not in SKIP.get(game, ()))]


def pair_elo(tally: Tally) -> tuple[float, float, str]:
    """(difference, 95 % half-width, bound) of the second engine over the first.

    bound is "" for an estimate, "lower" when the second won every decisive game
    and no draw happened (the difference is then at least the returned figure).
    """
    n = tally.games
    if tally.wins == 0 and tally.draws == 0:  # the second won all: one-sided bound
        score = 0.05 ** (1.0 / n)
        return elo_from_score(score), math.nan, "lower"
    score = 1.0 - tally.score
    if tally.wins == tally.games or tally.draws == tally.games:
        return elo_from_score(score), 0.0, "" if tally.draws == tally.games else "upper"
    # The delta method: d(Elo)/d(score) = 400 / (ln 10 · s (1 - s)).
    slope = ELO_SCALE / (math.log(10.0) * score * (1.0 - score))
    return elo_from_score(score), Z_95 * slope * math.sqrt(tally.variance / n), ""


def calibrate(game: str, games_scale: float, seed: int) -> dict[str, object]:
    names = rungs(game)
    elo, variance, bound = 0.0, 0.0, ""
    table: dict[str, dict[str, object]] = {
        names[0]: {"elo": 0.0, "ci95": 0.0, "bound": "", "games": 0}
    }
    pairs: list[dict[str, object]] = []
    for weaker, stronger in itertools.pairwise(names):
        games = PAIR_GAMES[game].get((weaker, stronger), DEFAULT_PAIR_GAMES)
        games = max(2, round(games * games_scale))
        specs = tuple(
            parse_engine_spec(f"level={name}", game=game, turn_ms=TURN_MS)
            for name in (weaker, stronger)
        )
        openings = random_openings(game, {}, RANDOM_PLIES[game], (games + 1) // 2, seed)
        settings = ArenaSettings(
            game=game, options={}, engines=specs, games=games, openings=tuple(openings), seed=seed
        )
        started = time.perf_counter()
        result = run_arena(settings)
        tally = result.pairs[0].tally
        diff, half, pair_bound = pair_elo(tally)
        elo += diff
        if pair_bound or bound:
            bound = "lower"
        else:
            variance += (half / Z_95) ** 2
        table[stronger] = {
            "elo": round(elo, 1),
            "ci95": round(Z_95 * math.sqrt(variance), 1) if not bound else None,
            "bound": bound,
            "games": tally.games,
        }
        pairs.append(
            {
                "first": weaker,
                "second": stronger,
                "wins": tally.wins,
                "draws": tally.draws,
                "losses": tally.losses,
                "elo_gap": round(diff, 1),
                "ci95": None if math.isnan(half) else round(half, 1),
                "bound": pair_bound,
            }
        )
        print(
            f"{game}: {weaker} vs {stronger}: +{tally.wins} ={tally.draws} -{tally.losses} "
            f"gap {diff:+.0f} ({time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    return {
        "rungs": table,
        "pairs": pairs,
        "random_plies": RANDOM_PLIES[game],
        "turn_ms": TURN_MS,
        "seed": seed,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(RANDOM_PLIES), action="append")
    parser.add_argument("--scale", type=float, default=1.0, help="games per pair x this")
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    data: dict[str, object] = json.loads(args.out.read_text()) if args.out.exists() else {}
    data["command"] = "nice .venv/bin/python scripts/calibrate_ladder.py"
    data["method"] = METHOD
    for game in args.game or sorted(RANDOM_PLIES, reverse=True):
        data[game] = calibrate(game, args.scale, args.seed)
        args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"written {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
