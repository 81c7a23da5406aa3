"""``abgames arena GAME``: engine-vs-engine matches, judged, counted and recorded."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from abgames.arena.engines import check_limit_ms, parse_engine_spec
from abgames.arena.openings import (
    DEFAULT_RANDOM_PLIES,
    OpeningError,
    load_offset_openings,
    random_openings,
)
from abgames.arena.records import RecordWriter
from abgames.arena.runner import (
    DEFAULT_TOLERANCE_MS,
    ArenaResult,
    ArenaSettings,
    EngineMissingError,
    PairResult,
    format_table,
    run_arena,
)
from abgames.arena.stats import Sprt
from abgames.arguments import integer
from abgames.cluster import ClusterError
from abgames.commands.cluster_option import add_cluster_option, cluster_of
from abgames.games import GAMES
from abgames.games.gomoku import Rule

DEFAULT_GAMES = 10
DEFAULT_TURN_MS = 1000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="play engines against each other and measure the difference",
        description="Engine-vs-engine matches: built-in levels (--engine level=hard) and "
        "external Gomocup brains (--engine cmd=/path/to/pbrain-x). Every game is judged "
        "by abgames, written to a records file, and counted into W/D/L and Elo. "
        "See docs/arena.md.",
    )
    parser.add_argument("game", choices=list(GAMES))
    parser.add_argument(
        "--engine",
        action="append",
        required=True,
        metavar="SPEC",
        help="level=NAME[,time=S][,seed=N][,name=..] or cmd=COMMAND[,turn_ms=..]"
        "[,match_ms=..][,name=..][,KEY=VALUE sent as INFO]; give two or more",
    )
    parser.add_argument(
        "--games", type=integer, default=DEFAULT_GAMES, help="games per engine pair (default 10)"
    )
    parser.add_argument(
        "--openings", type=Path, help="Gomoku openings file (Gomocup offset format)"
    )
    parser.add_argument(
        "--random-plies",
        type=integer,
        help="random opening moves when there is no openings file "
        "(default: tictactoe 1, connect4 2, gomoku 0)",
    )
    parser.add_argument("--rule", choices=[r.value for r in Rule], help="Gomoku rule")
    parser.add_argument("--size", type=integer, help="Gomoku board size (5..22)")
    parser.add_argument("--width", type=integer, help="Connect Four columns")
    parser.add_argument("--height", type=integer, help="Connect Four rows")
    parser.add_argument(
        "--turn-ms",
        type=integer,
        default=DEFAULT_TURN_MS,
        help="per-move limit for engines whose spec sets none (default 1000)",
    )
    parser.add_argument(
        "--match-ms", type=integer, default=0, help="per-game limit per engine (default 0: none)"
    )
    parser.add_argument(
        "--tolerance-ms",
        type=integer,
        default=DEFAULT_TOLERANCE_MS,
        help=f"grace beyond the limits before a time forfeit (default {DEFAULT_TOLERANCE_MS})",
    )
    parser.add_argument("--concurrency", type=integer, default=1, help="games played at once")
    add_cluster_option(parser, "games")
    parser.add_argument("--sprt", metavar="elo0=0,elo1=10,alpha=0.05,beta=0.05", help="stop early")
    parser.add_argument("--records", type=Path, help="records file (default: arena-TIME.jsonl)")
    parser.add_argument("--sgf", type=Path, help="also write the Gomoku games to this SGF file")
    parser.add_argument("--seed", type=integer, help="seed for random openings and engine choices")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def board_options(args: argparse.Namespace) -> dict[str, object]:
    allowed = {"gomoku": ("rule", "size"), "connect4": ("width", "height")}.get(args.game, ())
    options: dict[str, object] = {}
    for name in ("rule", "size", "width", "height"):
        value = getattr(args, name)
        if value is None:
            continue
        if name not in allowed:
            raise ValueError(f"--{name} does not apply to {args.game}")
        options[name] = value
    return options


def settings_from(args: argparse.Namespace) -> tuple[ArenaSettings, str]:
    """The arena settings the arguments ask for, and a note on skipped openings."""
    options = board_options(args)
    GAMES[args.game](**options)  # validates the board options now
    check_limit_ms(args.turn_ms, "--turn-ms")
    check_limit_ms(args.match_ms, "--match-ms")
    check_limit_ms(args.tolerance_ms, "--tolerance-ms")
    engines = tuple(
        parse_engine_spec(text, game=args.game, turn_ms=args.turn_ms, match_ms=args.match_ms)
        for text in args.engine
    )
    note = ""
    if args.openings is not None:
        if args.game != "gomoku":
            raise ValueError("--openings files hold Gomoku openings")
        openings, skipped = load_offset_openings(args.openings, options)
        if skipped:
            note = f"{skipped} opening(s) of {args.openings} do not fit this board: skipped"
    else:
        plies = args.random_plies
        if plies is None:
            plies = DEFAULT_RANDOM_PLIES[args.game]
        openings = random_openings(
            args.game, options, plies, max(1, (args.games + 1) // 2), args.seed
        )
    settings = ArenaSettings(
        game=args.game,
        options=options,
        engines=engines,
        games=args.games,
        openings=tuple(openings),
        concurrency=args.concurrency,
        sprt=Sprt.parse(args.sprt) if args.sprt else None,
        tolerance_ms=args.tolerance_ms,
        seed=args.seed,
    )
    return settings, note


class ProgressLine:
    """One status line, rewritten in place on a terminal and one line a game elsewhere."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.in_place = stream.isatty()
        self.width = 0

    def __call__(self, result: ArenaResult, pair: PairResult) -> None:
        text = f"games {len(result.records)}/{result.planned}  {pair.progress()}"
        if self.in_place:
            padding = " " * max(0, self.width - len(text))
            self.stream.write(f"\r{text}{padding}")
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.in_place and self.width:
            self.stream.write("\n")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    try:
        settings, note = settings_from(args)
    except (ValueError, OpeningError) as error:
        print(f"abgames arena: {error}", file=sys.stderr)
        return 2
    if note:
        print(f"abgames arena: {note}", file=sys.stderr)
    records = args.records or Path(time.strftime("arena-%Y%m%d-%H%M%S.jsonl"))
    try:
        writer = RecordWriter(records, args.sgf)
    except OSError as error:
        print(f"abgames arena: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    progress = None if args.quiet else ProgressLine(sys.stderr)
    cluster = cluster_of(args)
    try:
        if cluster is None:
            result = run_arena(settings, writer, progress)
        else:
            with cluster:
                result = run_arena(settings, writer, progress, cluster)
    except (ClusterError, EngineMissingError) as error:
        print(f"abgames arena: {error}", file=sys.stderr)
        return 2
    finally:
        writer.close()
        if progress is not None:
            progress.finish()
    print(format_table(result, settings.sprt))
    print(f"games saved to {records}" + (f" and {args.sgf}" if args.sgf else ""))
    if result.cut_short:
        print(f"abgames arena: {result.cut_short}", file=sys.stderr)
        return 1
    return 0
