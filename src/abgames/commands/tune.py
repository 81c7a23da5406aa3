"""``abgames tune gomoku``: SPSA tuning of the evaluation weights by engine games.

See ``abgames.arena.spsa`` for the method and docs/tuning.md for how to run,
resume and check a run.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from abgames.arena.engines import (
    EngineSpec,
    check_limit_ms,
    missing_commands,
    parse_engine_spec,
    seconds_to_ms,
)
from abgames.arena.openings import OpeningError, load_offset_openings, random_openings
from abgames.arena.records import RecordWriter
from abgames.arena.runner import EngineMissingError, check_commands_on
from abgames.arena.spsa import (
    Match,
    Param,
    Runner,
    TuneError,
    TuneState,
    describe,
    load_state,
    new_state,
    run,
    save_state,
)
from abgames.arguments import integer, real
from abgames.cluster import ClusterError
from abgames.commands.cluster_option import add_cluster_option, cluster_of
from abgames.files import check_output
from abgames.games.gomoku import Gomoku, Rule

#: The weights a run tunes unless ``--params`` names others: name -> perturbation
#: size (the start is the engine's current value, or the value given).
DEFAULT_SCALES: dict[str, float] = {
    "attack.b2": 1.0,
    "attack.f2": 2.0,
    "attack.b3": 3.0,
    "attack.f3": 10.0,
    "attack.b4": 12.0,
    "defence.f2": 2.0,
    "defence.b3": 2.0,
    "defence.f3": 8.0,
    "defence.b4": 8.0,
    "defence.f4": 100.0,
    "attack.double_three": 250.0,
    "defence.double_four": 200.0,
    "defence.four_three": 200.0,
    "defence.double_three": 80.0,
    "attack.four_plus": 20.0,
    "attack.three_plus": 30.0,
    "attack.block3_plus": 10.0,
    "attack.double_two": 7.5,
    "defence.four_plus": 15.0,
    "defence.three_plus": 20.0,
    "defence.block3_plus": 7.5,
    "defence.double_two": 5.0,
}
#: Where the combination weights start when the engine's value is 0 (not used yet).
COMBO_STARTS: dict[str, int] = {
    "attack.double_three": 1000,
    "defence.double_four": 800,
    "defence.four_three": 800,
    "defence.double_three": 300,
}
#: A weight's scale when ``--params`` names one without ``:SCALE``: this share of its start.
DEFAULT_SCALE_SHARE = 0.25
DEFAULT_STEPS = 500
DEFAULT_BATCH = 4
DEFAULT_RATE = 0.1
DEFAULT_TIME = "0.1"
DEFAULT_RANDOM_PLIES = 4
#: The levels whose evaluation weights a run can tune.
TUNABLE_LEVELS = ("medium", "hard", "max", "classic")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="tune the Gomoku engine's evaluation weights by SPSA over engine games",
        description="SPSA tuning: candidates with perturbed evaluation weights play game "
        "pairs through the arena's judge; the weights follow the winners. The run's "
        "state is saved after every batch, and the same command resumes it. "
        "See docs/tuning.md.",
    )
    parser.add_argument("game", choices=["gomoku"])
    parser.add_argument("--state", type=Path, required=True, help="the run's state file (JSON)")
    parser.add_argument("--level", default="hard", help="the engine level tuned (default hard)")
    parser.add_argument(
        "--params",
        help="NAME[=START][:SCALE],... weights to tune (default: the evaluation's main "
        "pattern and combination weights); names as in `abgames tune gomoku --list`",
    )
    parser.add_argument("--list", action="store_true", help="list the weights and exit")
    parser.add_argument("--steps", type=integer, default=DEFAULT_STEPS, help="game pairs in all")
    parser.add_argument(
        "--batch", type=integer, default=DEFAULT_BATCH, help="game pairs played at once per update"
    )
    parser.add_argument("--rate", type=real, default=DEFAULT_RATE, help="SPSA learning rate")
    parser.add_argument(
        "--time", default=DEFAULT_TIME, help=f"seconds a move (default {DEFAULT_TIME})"
    )
    parser.add_argument(
        "--opponent",
        metavar="SPEC",
        help="play every candidate against this engine (an arena engine spec, such as "
        "cmd=/path/pbrain-x or cmd=/path/pbrain-x,time=0.3) instead of against each "
        "other; kept in the state file for the rest of the run",
    )
    parser.add_argument("--openings", type=Path, help="openings file (Gomocup offset format)")
    parser.add_argument(
        "--random-plies",
        type=integer,
        default=DEFAULT_RANDOM_PLIES,
        help="random opening moves without an openings file (default 4)",
    )
    parser.add_argument("--rule", choices=[r.value for r in Rule], help="Gomoku rule")
    parser.add_argument("--size", type=integer, help="board size (5..22)")
    parser.add_argument("--concurrency", type=integer, default=1, help="local games at once")
    add_cluster_option(parser, "games")
    parser.add_argument("--records", type=Path, help="also write every game to this file")
    parser.add_argument("--seed", type=integer, default=1, help="seed of the perturbations")
    parser.set_defaults(run=run_command)


def parse_params(text: str | None) -> list[Param]:
    """The weights to tune: ``--params`` or the defaults, with starts and scales."""
    from abgames.ai.gomoku.weights import EVAL_NAMES, EVAL_WEIGHT_LIMIT, EVAL_WEIGHTS

    current = dict(zip(EVAL_NAMES, (int(v) for v in EVAL_WEIGHTS[: len(EVAL_NAMES)]), strict=True))
    wanted: list[tuple[str, float | None, float | None]] = []
    if text is None:
        wanted = [(name, None, scale) for name, scale in DEFAULT_SCALES.items()]
    else:
        for piece in text.split(","):
            spec, _, scale_text = piece.strip().partition(":")
            name, _, start_text = spec.partition("=")
            try:
                start = real(start_text) if start_text else None
                scale = real(scale_text) if scale_text else None
            except argparse.ArgumentTypeError:
                raise TuneError(f"--params: {piece!r} is not NAME[=START][:SCALE]") from None
            wanted.append((name.strip().lower(), start, scale))
    params: list[Param] = []
    for name, start, scale in wanted:
        if name not in current:
            raise TuneError(f"--params: {name!r} is not a weight (see --list)")
        if start is None:
            start = float(current[name] or COMBO_STARTS.get(name, 0))
        if scale is None:
            scale = max(1.0, abs(start) * DEFAULT_SCALE_SHARE)
        if not (abs(start) <= EVAL_WEIGHT_LIMIT and 0 < scale <= EVAL_WEIGHT_LIMIT):
            raise TuneError(f"--params: {name} start or scale out of range")
        params.append(Param(name, start, scale, 0.0, float(EVAL_WEIGHT_LIMIT)))
    return params


def list_weights() -> str:
    from abgames.ai.gomoku.weights import EVAL_NAMES, EVAL_WEIGHTS

    return "\n".join(
        f"{name:<24} {int(value):>8}{'  (tuned by default)' if name in DEFAULT_SCALES else ''}"
        for name, value in zip(EVAL_NAMES, EVAL_WEIGHTS[: len(EVAL_NAMES)], strict=True)
    )


def opponent_from(text: str | None, turn_ms: int) -> EngineSpec | None:
    """The engine spec ``text`` (``--opponent`` or a state's), checked it can start here."""
    if text is None:
        return None
    try:
        spec = parse_engine_spec(text, game="gomoku", turn_ms=turn_ms)
    except ValueError as error:
        raise TuneError(f"--opponent: {error}") from None
    problems = missing_commands((spec,))
    if problems:
        raise TuneError(f"--opponent: {'; '.join(problems)}")
    return spec


def match_from(args: argparse.Namespace, opponent: str | None) -> Match:
    options: dict[str, object] = {}
    if args.rule is not None:
        options["rule"] = args.rule
    if args.size is not None:
        options["size"] = args.size
    Gomoku(**options)  # type: ignore[arg-type]  # validates rule and size now
    turn_ms = check_limit_ms(seconds_to_ms(args.time, "--time"), "--time")
    if args.openings is not None:
        openings, _ = load_offset_openings(args.openings, options)
    else:
        openings = random_openings("gomoku", options, args.random_plies, 200, args.seed)
    return Match(options, turn_ms, tuple(openings), opponent=opponent_from(opponent, turn_ms))


def start_or_resume(args: argparse.Namespace) -> TuneState:
    """The run in ``--state`` (checked to be one this engine can resume), or a new one
    whose state file can be written there (a regular file or a new name in an existing
    folder: ``OSError`` otherwise, before any game)."""
    if args.state.exists():
        state = load_state(args.state)
        check_resumable(state, args.state)
        if args.opponent is not None and args.opponent != state.opponent:
            playing = "of the candidates against each other"
            if state.opponent is not None:
                playing = f"against {state.opponent}"
            raise TuneError(
                f"{args.state} is a run {playing}, not against {args.opponent}: "
                "leave --opponent out to resume it, or start a new state file"
            )
        print(
            f"abgames tune: resuming {args.state} at step {state.step}/{state.steps} "
            f"({state.games} games played)",
            file=sys.stderr,
        )
        return state
    if args.level not in TUNABLE_LEVELS:
        raise TuneError(f"gomoku level {args.level!r} has no evaluation weights to tune")
    check_output(args.state)
    return new_state(
        args.level, parse_params(args.params), args.steps, args.rate, args.seed, args.opponent
    )


def check_resumable(state: TuneState, path: Path) -> None:
    """``TuneError`` if a state file names a level or weight this engine does not have."""
    from abgames.ai.gomoku.weights import EVAL_NAMES

    if state.level not in TUNABLE_LEVELS:
        raise TuneError(f"{path}: gomoku level {state.level!r} has no evaluation weights to tune")
    for param in state.params:
        if param.name not in EVAL_NAMES:
            raise TuneError(f"{path}: {param.name!r} is not a weight (see --list)")


def run_command(args: argparse.Namespace) -> int:
    if args.list:
        print(list_weights())
        return 0
    try:
        if args.batch < 1 or args.concurrency < 1:
            raise TuneError("--batch and --concurrency must be at least 1")
        state = start_or_resume(args)
        match = match_from(args, state.opponent)
        writer = RecordWriter(args.records, append=True) if args.records is not None else None
    except (TuneError, ValueError, OpeningError) as error:
        print(f"abgames tune: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"abgames tune: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    started = time.monotonic()

    def report(current: TuneState) -> None:
        minutes = (time.monotonic() - started) / 60
        against = ""
        if current.opponent is not None and current.games:
            share = 100 * current.points_against_opponent / current.games
            against = f"  candidates scored {share:.1f} % against the opponent"
        print(
            f"step {current.step}/{current.steps}  games {current.games}  "
            f"{minutes:.1f} min  plus scored {current.points_plus:.1f}{against}",
            file=sys.stderr,
            flush=True,
        )

    cluster = cluster_of(args)
    runner: Runner | None = None
    on_record = writer.write if writer is not None else lambda record: None
    try:
        with cluster if cluster is not None else contextlib.nullcontext():
            if cluster is not None and match.opponent is not None:
                check_commands_on(cluster, (match.opponent,))
            runner = Runner(args.concurrency, cluster)
            run(state, match, runner, args.batch, lambda s: save_state(s, args.state),
                on_record, report)  # fmt: skip
    except (ClusterError, EngineMissingError) as error:
        print(f"abgames tune: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nabgames tune: stopped; {args.state} resumes the run", file=sys.stderr)
        return 130
    finally:
        if runner is not None:
            runner.close()
        if writer is not None:
            writer.close()
    print(f"tuned after {state.games} games:\n{describe(state)}")
    overrides = ",".join(f"eval.{name}={value}" for name, value in state.values().items())
    against = state.opponent if state.opponent is not None else f"level={state.level}"
    print(f"check it: abgames arena gomoku --engine level={state.level},name=tuned,{overrides} "
          f"--engine {shlex.quote(against)} --games 200 --concurrency 2")  # fmt: skip
    return 0
