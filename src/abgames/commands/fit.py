"""``abgames fit gomoku``: fit the evaluation's weights to a teacher engine's scores.

Positions come from arena records files (``--games``); a Gomocup brain
(``--teacher``) scores the quiet ones, resumably, into ``--labels``
(``abgames.arena.teacher``); the weights are fitted to those scores
(``abgames.arena.fit``). See docs/tuning.md.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from abgames.arena.engines import check_limit_ms
from abgames.arguments import integer
from abgames.games.base import IllegalMoveError
from abgames.games.gomoku import Gomoku, Rule

#: The weights fitted unless ``--params`` names others: every pattern weight below
#: the threats that win by force (but ``defence.d4``) and both sides' shapes. Not the
#: combinations: the side to move's are the search's static wins, and the opponent's,
#: like its double fours on one line, are rare in quiet positions, so a fit moves them
#: far on little evidence (docs/tuning.md).
DEFAULT_FITTED = (
    "attack.b1",
    "attack.f1",
    "attack.b2",
    "attack.f2",
    "attack.b3",
    "attack.f3",
    "attack.b4",
    "defence.b1",
    "defence.f1",
    "defence.b2",
    "defence.f2",
    "defence.b3",
    "defence.f3",
    "defence.b4",
    "defence.f4",
    "attack.four_plus",
    "attack.three_plus",
    "attack.block3_plus",
    "attack.double_two",
    "defence.four_plus",
    "defence.three_plus",
    "defence.block3_plus",
    "defence.double_two",
)
DEFAULT_TEACHER_MS = 300
#: Labels wanted before a fit is worth making.
MIN_LABELS = 200


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fit",
        help="fit the Gomoku evaluation's weights to a teacher engine's scores",
        description="Score positions of arena games with a Gomocup brain (resumably, "
        "into --labels), then fit the evaluation weights of `hard` to the scores and "
        "print them with the arena command that checks them. See docs/tuning.md.",
    )
    parser.add_argument("game", choices=["gomoku"])
    parser.add_argument(
        "--labels", type=Path, required=True, help="the scored positions (JSON lines)"
    )
    parser.add_argument("--teacher", help="the brain's command line (none: fit the labels)")
    parser.add_argument(
        "--games",
        type=Path,
        nargs="*",
        default=[],
        help="arena records files to take positions from",
    )
    parser.add_argument(
        "--teacher-ms",
        type=integer,
        default=DEFAULT_TEACHER_MS,
        help=f"the brain's time a position, ms (default {DEFAULT_TEACHER_MS})",
    )
    parser.add_argument("--positions", type=integer, help="new positions to score at most")
    parser.add_argument("--concurrency", type=integer, default=1, help="brains at once")
    parser.add_argument(
        "--score-pattern",
        help="regular expression with one group: the score in the brain's MESSAGE "
        "lines (default reads `score N` and Rapfi's `估值: N`)",
    )
    parser.add_argument(
        "--params", help="NAME,... the weights to fit (default: see `abgames fit --help`)"
    )
    parser.add_argument("--rule", choices=[r.value for r in Rule], default=Rule.FREESTYLE.value)
    parser.add_argument("--size", type=integer, default=15, help="board size")
    parser.set_defaults(run=run_command)


def _fitted_names(text: str | None) -> list[str]:
    from abgames.ai.gomoku.weights import EVAL_NAMES

    if text is None:
        return list(DEFAULT_FITTED)
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in EVAL_NAMES]
    if unknown or not names:
        raise ValueError(
            f"--params: {', '.join(unknown) or 'nothing'} is not a weight to fit "
            "(see `abgames tune gomoku --state x --list`)"
        )
    return names


def _label(args: argparse.Namespace, rule: Rule) -> None:
    from abgames.arena.teacher import DEFAULT_SCORE_PATTERN, label_positions, sample_positions

    command = shlex.split(args.teacher)
    if not command:
        raise ValueError("--teacher: give the brain's command line")
    positions = sample_positions(args.games, size=args.size, rule=rule)

    def progress(run: Any) -> None:
        if run.labelled % 500 == 0:
            print(f"{run.labelled} positions scored", file=sys.stderr, flush=True)

    run = label_positions(
        command,
        positions,
        args.labels,
        turn_ms=args.teacher_ms,
        size=args.size,
        rule=rule,
        workers=args.concurrency,
        score_pattern=args.score_pattern or DEFAULT_SCORE_PATTERN,
        limit=args.positions,
        progress=progress,
    )
    print(
        f"{len(positions)} positions in the games: {run.labelled} scored now, "
        f"{run.skipped_loud} not quiet, {run.unscored} without a score, "
        f"{run.failures} failures of the brain",
        file=sys.stderr,
    )


def _fit(args: argparse.Namespace, rule: Rule) -> int:
    import numpy as np

    from abgames.ai.gomoku.features import position_features
    from abgames.ai.gomoku.weights import EVAL_NAMES, EVAL_WEIGHTS
    from abgames.arena.fit import fit_weights
    from abgames.arena.teacher import load_labels

    names = _fitted_names(args.params)
    labels = load_labels(args.labels)
    if len(labels) < MIN_LABELS:
        raise ValueError(
            f"{args.labels} holds {len(labels)} scored positions; fit from {MIN_LABELS}"
        )
    options = Gomoku(args.size, rule).options()
    states, values = [], []
    for label in labels:
        try:
            states.append(Gomoku.from_notation(label.moves, **options))
        except (IllegalMoveError, ValueError):
            continue  # a position of another board, or a damaged line
        values.append(label.score)
    features, quiet = position_features(states)
    scores = np.array(values, np.float64)
    start = EVAL_WEIGHTS[: len(EVAL_NAMES)].astype(np.float64)
    free = np.array([name in names for name in EVAL_NAMES])
    result = fit_weights(features[quiet], scores[quiet], start, free)
    print(f"{result.positions} quiet positions the teacher did not score as decided")
    print(
        f"held-out correlation with the teacher: {result.holdout_before:.3f} before, "
        f"{result.holdout_after:.3f} after"
    )
    print(f"the teacher's mean edge for the side to move: {result.intercept:.0f} (not a weight)")
    changed = {}
    for index, name in enumerate(EVAL_NAMES):
        if free[index]:
            value = round(float(result.weights[index]))
            print(f"{name:<24} {int(start[index]):>8} -> {value:>8}")
            if value != int(start[index]):
                changed[name] = value
    overrides = ",".join(f"eval.{name}={value}" for name, value in changed.items())
    print(
        f"check it: abgames arena gomoku --engine level=hard,name=fitted,{overrides} "
        "--engine level=hard --games 400 --turn-ms 200 --concurrency 2"
    )
    return 0


def run_command(args: argparse.Namespace) -> int:
    from abgames.arena.fit import FitError
    from abgames.arena.teacher import TeacherError

    rule = Rule(args.rule)
    try:
        Gomoku(args.size, rule)
        if args.concurrency < 1:
            raise ValueError("--concurrency must be at least 1")
        check_limit_ms(args.teacher_ms, "--teacher-ms")
        _fitted_names(args.params)
        if args.teacher is not None:
            _label(args, rule)
        return _fit(args, rule)
    except (TeacherError, FitError, ValueError) as error:
        print(f"abgames fit: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"abgames fit: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nabgames fit: stopped; the same command resumes {args.labels}", file=sys.stderr)
        return 130
