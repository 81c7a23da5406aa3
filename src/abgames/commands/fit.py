"""``abgames fit gomoku``: fit the evaluation to a teacher engine's scores.

Positions come from arena records files (``--games``); a Gomocup brain
(``--teacher``) scores the quiet ones, resumably, into ``--labels``
(``abgames.arena.teacher``). Then either the evaluation's weights are fitted to those
scores (``abgames.arena.fit``), or, with ``--model net``, the learned evaluation's
network is trained on them and the games' results (``abgames.arena.net_training``,
resumable from its checkpoint) and written to ``--out`` as a network file
(``abgames.ai.gomoku.netfile``). See docs/tuning.md.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from abgames.arena.engines import check_limit_ms
from abgames.arguments import integer, real
from abgames.commands.cluster_option import add_cluster_option, cluster_of
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
    add_cluster_option(parser, "teacher's positions (the brain installed on every node)")
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
    parser.add_argument(
        "--model",
        choices=["weights", "net"],
        default="weights",
        help="fit the weights (default) or train the network of the learned evaluation",
    )
    parser.add_argument("--out", type=Path, help="--model net: the network file to write")
    parser.add_argument(
        "--hidden", type=integer, default=8, help="--model net: hidden units (default 8)"
    )
    parser.add_argument(
        "--steps", type=integer, default=2000, help="--model net: training steps (default 2000)"
    )
    parser.add_argument(
        "--result-weight",
        type=real,
        default=0.25,
        help="--model net: the share of a position's target from its game's result "
        "(default 0.25; the rest from the teacher's score)",
    )
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

    cluster = cluster_of(args)
    with cluster if cluster is not None else contextlib.nullcontext():
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
            cluster=cluster,
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


def _train_net(args: argparse.Namespace, rule: Rule) -> int:
    import time

    import numpy as np

    from abgames.ai.gomoku import netfile
    from abgames.arena import net_training as nt
    from abgames.arena.records import read_records
    from abgames.arena.teacher import load_labels

    labels = load_labels(args.labels)
    games = [game for path in args.games for game in read_records(path)]
    data = nt.net_dataset(
        [(label.moves, label.score) for label in labels],
        nt.results_by_position(games),
        size=args.size,
        rule=rule,
    )
    settings = nt.TrainSettings(
        hidden=args.hidden, steps=args.steps, result_weight=args.result_weight
    )
    checkpoint = args.out.with_name(args.out.name + ".ckpt.npz")

    def progress(step: int, held_loss: float, train_loss: float) -> None:
        print(
            f"step {step}: training loss {train_loss:.5f}, best held-out {held_loss:.5f}",
            file=sys.stderr,
            flush=True,
        )

    started = time.perf_counter()
    result = nt.train(data, settings, checkpoint, progress)
    network = nt.quantize(result.net)
    known = int((~np.isnan(data.results)).sum()) if len(data.results) else 0
    training = {
        "labels": str(args.labels),
        "games": [str(path) for path in args.games],
        "positions": len(data.scores),
        "with_result": known,
        "train_positions": result.train_positions,
        "holdout_positions": result.holdout_positions,
        "settings": asdict(settings),
        "engine_scale": result.engine_scale,
        "steps": result.steps,
        "best_step": result.best_step,
        "holdout_loss": [round(result.holdout_loss_before, 6), round(result.holdout_loss_after, 6)],
        "holdout_correlation": [
            round(result.holdout_correlation_before, 4),
            round(result.holdout_correlation_after, 4),
        ],
        "seconds": round(time.perf_counter() - started, 1),
    }
    network = replace(network, training=training, check=nt.check_set(data, network))
    netfile.write(network, args.out)
    print(
        f"{len(data.scores)} quiet undecided positions ({known} with a game's result), "
        f"{result.holdout_positions} held out; engine scale {result.engine_scale:.0f}"
    )
    print(
        f"held-out loss {result.holdout_loss_before:.5f} -> {result.holdout_loss_after:.5f}; "
        f"correlation with the teacher {result.holdout_correlation_before:.3f} -> "
        f"{result.holdout_correlation_after:.3f} (best at step {result.best_step})"
    )
    print(f"wrote {args.out} ({network.hidden} hidden units)")
    print(
        f"check it: {netfile.NET_FILE_VARIABLE}={args.out} abgames arena gomoku --engine "
        "level=hard,name=net --engine level=hard,name=plain,search.eval_net=0 --games 400 "
        "--turn-ms 200 --concurrency 2 (against the shipped network: two `abgames pbrain` "
        f"engines, each with its own {netfile.NET_FILE_VARIABLE}; docs/tuning.md)"
    )
    return 0


def run_command(args: argparse.Namespace) -> int:
    from abgames.ai.gomoku.netfile import NetFileError
    from abgames.ai.gomoku.weights import NET_HIDDEN_MAX
    from abgames.arena.fit import FitError
    from abgames.arena.teacher import TeacherError
    from abgames.cluster import ClusterError

    rule = Rule(args.rule)
    try:
        Gomoku(args.size, rule)
        if args.concurrency < 1:
            raise ValueError("--concurrency must be at least 1")
        check_limit_ms(args.teacher_ms, "--teacher-ms")
        _fitted_names(args.params)
        if args.model == "net":
            if args.out is None:
                raise ValueError("--model net: give --out, the network file to write")
            if not 1 <= args.hidden <= NET_HIDDEN_MAX:
                raise ValueError(f"--hidden: 1 to {NET_HIDDEN_MAX} units")
            if args.steps < 1:
                raise ValueError("--steps must be at least 1")
            if not 0.0 <= args.result_weight <= 1.0:
                raise ValueError("--result-weight: a share from 0 to 1")
        if args.teacher is not None:
            _label(args, rule)
        if args.model == "net":
            return _train_net(args, rule)
        return _fit(args, rule)
    except (TeacherError, FitError, NetFileError, ClusterError, ValueError) as error:
        print(f"abgames fit: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"abgames fit: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nabgames fit: stopped; the same command resumes {args.labels}", file=sys.stderr)
        return 130
