"""``abgames solve | analyze | book connect4``: the exact Connect Four solver on the command line.

``solve`` follows the established solver format (Pons): move strings on stdin, one
a line, and ``MOVES SCORE`` (or ``MOVES`` and seven scores with ``--analyze``, with
``-1000`` for a full column) on stdout. A bad line (bytes that are not text in the
input's encoding included) gets a message on stderr naming the line, and the
following lines are still solved.

A long solve shows its progress on stderr: ``solve`` on a terminal only (its
output is for programs), ``analyze`` always (on a terminal one line rewritten in
place, elsewhere a line every few seconds). Ctrl-C ends any of the three commands
within a fraction of a second: a one-line message and exit status 130.

The solver (and numba) is imported only when a command runs, so ``abgames --help``
and the other games start without loading the compiler.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, AnyStr, TextIO

from abgames.ai.connect4.constants import (
    BUILD_TABLE_BITS,
    DEFAULT_TABLE_BITS,
    INVALID_MOVE,
    LEVEL_TABLE_BITS,
    MAX_TABLE_BITS,
    MIN_TABLE_BITS,
    WIDTH,
    check_table_bits,
    table_size_text,
)
from abgames.arguments import integer
from abgames.cluster import ClusterError, ClusterLost
from abgames.commands.cluster_option import add_cluster_option, cluster_of
from abgames.files import EndlessLineError, read_line
from abgames.games.base import IllegalMoveError, NotationError
from abgames.games.connect4 import ConnectFour

if TYPE_CHECKING:
    from abgames.ai.connect4.solver import Position, SolveProgress, Solver

GAME = "connect4"
COLUMN_DIGITS = frozenset("1234567")
#: ``22``: a win with the winner's k-th stone scores ``22 - k``.
SCORE_BASE = 22
DEFAULT_WORK_DIR = Path("book-work")
DEFAULT_BOOK_PLIES = 4
#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED_STATUS = 130
#: Seconds between progress updates on a terminal (the first after as long).
PROGRESS_SECONDS = 1.0
#: Seconds between progress lines when stderr is not a terminal (``analyze`` only).
LOGGED_PROGRESS_SECONDS = 5.0
#: Longest bad input line echoed whole in an error message.
SHOWN_LINE_CHARS = 60
#: Longest input line ``solve`` reads (a position has at most 42 moves); a longer one
#: is a bad line, and one with no end within ``files.MAX_DISCARD_CHARS`` ends the input.
MAX_LINE_CHARS = 1000


def table_bits_argument(text: str) -> int:
    """``--table-bits``: an integer in ``MIN_TABLE_BITS..MAX_TABLE_BITS``."""
    try:
        return check_table_bits(integer(text))
    except (ValueError, argparse.ArgumentTypeError):
        raise argparse.ArgumentTypeError(
            f"must be an integer from {MIN_TABLE_BITS} to {MAX_TABLE_BITS} "
            f"({table_size_text(MIN_TABLE_BITS)} to {table_size_text(MAX_TABLE_BITS)}), "
            f"not {text[:SHOWN_LINE_CHARS]!r}"
        ) from None


def _table_bits_help(default: int) -> str:
    return (
        f"transposition table of 2**BITS entries, 8 bytes each: {MIN_TABLE_BITS}..{MAX_TABLE_BITS} "
        f"({table_size_text(MIN_TABLE_BITS)} to {table_size_text(MAX_TABLE_BITS)}; "
        f"default {default}, {table_size_text(default)})"
    )


def register(subparsers: Any) -> None:
    solve = subparsers.add_parser(
        "solve",
        help="solve positions read from stdin (one move string a line)",
        description="Read move strings (like 4453; an empty line is the empty board) "
        "and print 'MOVES SCORE' for each, SCORE from the side to move's view: "
        "22 - the winner's stone count for a win, negative for a loss, 0 for a draw.",
    )
    solve.add_argument("game", choices=(GAME,))
    solve.add_argument(
        "--analyze",
        action="store_true",
        help=f"print the score of each of the 7 columns ({INVALID_MOVE} for a full one)",
    )
    solve.add_argument("--weak", action="store_true", help="only win (1), draw (0), loss (-1)")
    _solver_options(solve)
    solve.set_defaults(run=run_solve)

    analyze = subparsers.add_parser(
        "analyze",
        help="show a position and what every column leads to",
        description="Show the board after MOVES and each column's outcome with perfect play.",
    )
    analyze.add_argument("game", choices=(GAME,))
    analyze.add_argument("moves", nargs="?", default="", help="move string, like 4453")
    _solver_options(analyze)
    analyze.set_defaults(run=run_analyze)

    book = subparsers.add_parser(
        "book",
        help="build the opening book (resumable, several processes)",
        description="Solve every position the perfect player can meet within PLIES "
        "of the root, as either player, and write the book file. Results are kept in "
        "WORK/solved.txt, so an interrupted build resumes where it stopped.",
    )
    book.add_argument("game", choices=(GAME,))
    book.add_argument("--plies", type=integer, default=DEFAULT_BOOK_PLIES, help="book depth")
    book.add_argument("--root", default="", help="start from this move string")
    book.add_argument("--jobs", type=integer, default=1, help="processes to solve with")
    book.add_argument("--work", type=Path, default=DEFAULT_WORK_DIR, help="work directory")
    book.add_argument("--output", type=Path, default=None, help="book file to write")
    book.add_argument(
        "--table-bits",
        type=table_bits_argument,
        default=None,
        metavar="BITS",
        help=_table_bits_help(BUILD_TABLE_BITS) + f" per process; {LEVEL_TABLE_BITS} with --level",
    )
    book.add_argument(
        "--every",
        action="store_true",
        help="solve every position PLIES moves after the root, not only the perfect "
        "player's lines, and score each earlier one from them (at most 12 plies: "
        "from the empty board some 6 million positions, a cluster's work)",
    )
    book.add_argument(
        "--write-only",
        action="store_true",
        help="solve nothing: write the book from the positions already in WORK "
        "(with --every, and each earlier position they decide)",
    )
    book.add_argument(
        "--level",
        type=integer,
        metavar="DISCS",
        help="build a level book instead: the exact score of every position of DISCS "
        "discs, looked up by the search (the output, by default the shipped level "
        "file, is written every few minutes; run again to resume)",
    )
    add_cluster_option(book, "positions")
    book.set_defaults(run=run_book)


def _solver_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-book", action="store_true", help="solve without the opening and level books"
    )
    parser.add_argument(
        "--table-bits",
        type=table_bits_argument,
        default=DEFAULT_TABLE_BITS,
        metavar="BITS",
        help=_table_bits_help(DEFAULT_TABLE_BITS),
    )


class NoMemoryError(Exception):
    """The transposition table asked for does not fit in memory."""


def _make_solver(args: argparse.Namespace) -> Solver:
    from abgames.ai.connect4.book import Book, load_default_book
    from abgames.ai.connect4.level_book import load_default_level
    from abgames.ai.connect4.solver import Solver

    book: Book | None = None if args.no_book else load_default_book()
    level = None if args.no_book else load_default_level()
    try:
        return Solver(args.table_bits, book, level)
    except MemoryError:
        raise NoMemoryError(
            f"not enough memory for a table of {table_size_text(args.table_bits)} "
            f"(--table-bits {args.table_bits}): choose fewer bits"
        ) from None


def parse_line(line: str) -> Position:
    """The position of one input line; ``ValueError`` with a message naming the bad move."""
    from abgames.ai.connect4.solver import Position

    for index, char in enumerate(line, start=1):
        if char not in COLUMN_DIGITS:
            raise NotationError(f"move {index}: {char!r} is not a column (1..{WIDTH})")
    return Position.parse(line)


def shorten(text: str) -> str:
    """``text``, cut to ``SHOWN_LINE_CHARS`` characters (and marked) if longer."""
    if len(text) <= SHOWN_LINE_CHARS:
        return text
    return text[: SHOWN_LINE_CHARS - 3] + "..."


class ProgressLine:
    """A long solve's progress on a stream, at most every ``interval`` seconds of a solve.

    ``live`` (a terminal): one line rewritten in place and erased by ``clear()``;
    otherwise a plain line each time. Nothing is shown in a solve's first
    ``interval`` seconds, so quick solves stay silent.
    """

    def __init__(self, stream: TextIO, *, live: bool, interval: float) -> None:
        self.stream = stream
        self.live = live
        self.interval = interval
        self._shown = False
        self._next = interval

    def start(self) -> None:
        """A new solve begins: its first update comes ``interval`` seconds in."""
        self._next = self.interval

    def report(self, label: str, progress: SolveProgress) -> None:
        if progress.elapsed < self._next:
            return
        self._next = progress.elapsed + self.interval
        text = f"{label}... {progress.nodes / 1e6:,.1f} M nodes, {progress.elapsed:.0f} s"
        if self.live:
            self.stream.write(f"\r\033[K{text}")
            self._shown = True
        else:
            self.stream.write(f"{text}\n")
        self.stream.flush()

    def clear(self) -> None:
        """Erase the live line, if one is shown (before other output)."""
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._shown = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _decode(raw: str | bytes, encoding: str) -> str:
    """An input line as text; ``ValueError`` naming the first byte that is not ``encoding``."""
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as error:
        raise ValueError(
            f"byte {error.start + 1} is not {encoding} text ({error.reason})"
        ) from None


def _strip_end(raw: str | bytes) -> str | bytes:
    return raw.rstrip("\r\n") if isinstance(raw, str) else raw.rstrip(b"\r\n")


def bounded_lines(stream: IO[AnyStr]) -> Iterator[AnyStr]:
    """The lines of ``stream``, each read within ``MAX_LINE_CHARS`` (``files.read_line``:
    a longer line comes cut but still too long); ``EndlessLineError`` naming the line
    for one that does not end."""
    number = 0
    while True:
        number += 1
        try:
            line, _ = read_line(stream, MAX_LINE_CHARS)
        except EndlessLineError as error:
            raise EndlessLineError(f"line {number}: {error}") from None
        if not line:
            return
        yield line


def solve_stream(
    solver: Solver,
    source: Iterable[str | bytes],
    out: TextIO,
    err: TextIO,
    *,
    analyze: bool,
    weak: bool,
    encoding: str = "utf-8",
    progress: ProgressLine | None = None,
) -> int:
    """Solve every line of ``source``; return how many lines were bad.

    Lines may be bytes (read from a binary stream), decoded with ``encoding``: a
    line that does not decode is a bad line like any other. ``progress`` shows
    long solves.
    """
    bad = 0
    for number, raw in enumerate(source, start=1):
        line: str | None = None
        try:
            if len(raw) > MAX_LINE_CHARS and len(_strip_end(raw)) > MAX_LINE_CHARS:
                raise ValueError(
                    f"over {MAX_LINE_CHARS:,} characters (a position has at most 42 moves)"
                )
            line = _decode(raw, encoding).rstrip("\r\n")
            position = parse_line(line)
        except ValueError as error:
            bad += 1
            if line is None:  # not text: show the bytes
                assert isinstance(raw, bytes)
                shown = repr(raw.rstrip(b"\r\n")[:SHOWN_LINE_CHARS])
            else:
                shown = repr(shorten(line))
            print(f"line {number}: {error} in {shown}", file=err, flush=True)
            continue
        label = f"line {number}: solving {shorten(line) or '(the empty board)'}"

        def report(state: SolveProgress, label: str = label) -> None:
            if progress is not None:
                progress.report(label, state)

        if progress is not None:
            progress.start()
        if analyze:
            scores = solver.analyze(position, weak=weak, progress=report)
            fields = [str(score) for score in scores]
        else:
            fields = [str(solver.solve(position, weak=weak, progress=report))]
        if progress is not None:
            progress.clear()
        print(line, *fields, file=out, flush=True)
    return bad


def _interrupted(command: str, progress: ProgressLine | None, detail: str = "") -> int:
    if progress is not None:
        progress.clear()
    print(f"abgames {command}: interrupted{detail}", file=sys.stderr, flush=True)
    return INTERRUPTED_STATUS


def run_solve(args: argparse.Namespace) -> int:
    progress: ProgressLine | None = None
    try:
        solver = _make_solver(args)
        if _is_terminal(sys.stderr):
            progress = ProgressLine(sys.stderr, live=True, interval=PROGRESS_SECONDS)
        stdin = sys.stdin
        # Read bytes when we can, so that a line that is not text is reported, not fatal.
        binary = getattr(stdin, "buffer", None)
        bad = solve_stream(
            solver,
            bounded_lines(binary if binary is not None else stdin),
            sys.stdout,
            sys.stderr,
            analyze=args.analyze,
            weak=args.weak,
            encoding=getattr(stdin, "encoding", None) or "utf-8",
            progress=progress,
        )
    except NoMemoryError as error:
        print(f"abgames solve: {error}", file=sys.stderr)
        return 2
    except EndlessLineError as error:
        if progress is not None:
            progress.clear()
        print(f"abgames solve: {error}; the input ends there", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return _interrupted("solve", progress)
    return 1 if bad else 0


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def describe(score: int) -> str:
    """A column's score in words, for the player about to move."""
    if score == INVALID_MOVE:
        return "full"
    if score > 0:
        return f"wins with your {ordinal(SCORE_BASE - score)} stone"
    if score < 0:
        return f"loses (to the opponent's {ordinal(SCORE_BASE + score)} stone)"
    return "draw"


def analysis_text(state: ConnectFour, scores: list[int]) -> str:
    """The board, then one line per column with its outcome; the best marked."""
    from abgames.ai.connect4.perfect import plies_to_end

    lines = [state.render(), ""]
    if state.outcome() is not None:
        winner = state.outcome()
        assert winner is not None
        result = (
            "a draw" if winner.winner is None else f"won by {state.player_names[winner.winner]}"
        )
        lines.append(f"The game is over: {result}.")
        return "\n".join(lines)
    mover = state.player_names[state.to_move]
    lines.append(f"{mover} to move ({state.player_marks[state.to_move]}):")
    best = max(scores)
    for column, score in enumerate(scores):
        marker = "  <- best" if score == best else ""
        lines.append(f"  column {column + 1}: {describe(score)}{marker}")
    plies = plies_to_end(best, state.ply)
    moves = "move (ply)" if plies == 1 else "moves (plies)"
    lines.append(f"With perfect play the game ends in {plies} more {moves}.")
    return "\n".join(lines)


def run_analyze(args: argparse.Namespace) -> int:
    from abgames.ai.connect4.solver import Position

    try:
        line = args.moves.strip()
        parse_line(line)
        state = ConnectFour.from_notation(line)
    except (NotationError, IllegalMoveError) as error:
        print(f"abgames analyze: {error} in {shorten(args.moves)!r}", file=sys.stderr)
        return 2
    live = _is_terminal(sys.stderr)
    progress = ProgressLine(
        sys.stderr, live=live, interval=PROGRESS_SECONDS if live else LOGGED_PROGRESS_SECONDS
    )

    def report(step: SolveProgress) -> None:
        progress.report(f"solving column {(step.column or 0) + 1}", step)

    try:
        solver = _make_solver(args)
        scores = solver.analyze(Position.from_state(state), progress=report)
    except NoMemoryError as error:
        print(f"abgames analyze: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return _interrupted("analyze", progress)
    progress.clear()
    print(analysis_text(state, scores))
    return 0


def _no_memory_for_tables(table_bits: int) -> int:
    """``book``'s message for tables the machine cannot allocate; the exit status."""
    print(
        f"abgames book: not enough memory for a table of {table_size_text(table_bits)} "
        f"(--table-bits {table_bits}) per process: choose fewer bits or --jobs",
        file=sys.stderr,
    )
    return 2


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Within: SIGTERM (a scheduler's or ``kill``'s stop) ends the build as Ctrl-C does,
    with everything found written first. (A build started in the background by a
    script has Ctrl-C ignored, and a batch system stops jobs with SIGTERM.)

    A worker process forked meanwhile inherits the handler until its pool's
    initialiser replaces it (``abgames.pool_signals``); a stop that reaches it
    before then ends it at once: it holds no lock of the pool yet, and the
    exception would be lost in the fork's own start-up code. Outside the main thread
    (where Python cannot take signals: the command run by a program's thread) it
    changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    builder = os.getpid()

    def interrupt(signal_number: int, _frame: object) -> None:
        if os.getpid() != builder:
            os._exit(128 + signal_number)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_level(args: argparse.Namespace) -> int:
    """``abgames book connect4 --level DISCS``: build (or carry on) a level book."""
    from abgames.ai.connect4.level_book import MAX_LEVEL_DISCS, default_level_path
    from abgames.ai.connect4.level_builder import LevelBuildError, build_level

    if not 1 <= args.level <= MAX_LEVEL_DISCS:
        print(f"abgames book: --level must be 1 to {MAX_LEVEL_DISCS}", file=sys.stderr)
        return 2
    others = {
        "--every": args.every,
        "--write-only": args.write_only,
        "--root": args.root != "",
        "--plies": args.plies != DEFAULT_BOOK_PLIES,
        "--work": args.work != DEFAULT_WORK_DIR,
    }
    if any(others.values()):
        named = ", ".join(name for name, given in others.items() if given)
        print(
            f"abgames book: --level builds a level book, {named} belong to the opening book",
            file=sys.stderr,
        )
        return 2
    if args.jobs < 1:
        print("abgames book: --jobs must be at least 1", file=sys.stderr)
        return 2
    output = args.output or default_level_path()
    start = time.perf_counter()
    cluster = cluster_of(args)
    kept = f"; every score found is in {output}: run again to resume"
    try:
        with (
            cluster if cluster is not None else contextlib.nullcontext(),
            _terminate_as_interrupt(),
        ):
            build_level(
                discs=args.level,
                output=output,
                jobs=args.jobs,
                table_bits=args.table_bits,
                log=lambda text: print(text, flush=True),
                cluster=cluster,
            )
    except ClusterLost as error:
        print(f"abgames book: {error}{kept}", file=sys.stderr)
        return 1
    except (ClusterError, LevelBuildError, OSError) as error:
        print(f"abgames book: {error}", file=sys.stderr)
        return 2
    except MemoryError:
        return _no_memory_for_tables(args.table_bits)
    except KeyboardInterrupt:
        return _interrupted("book", None, kept)
    print(f"built in {time.perf_counter() - start:.1f}s")
    return 0


def run_book(args: argparse.Namespace) -> int:
    from abgames.ai.connect4.book import default_book_path
    from abgames.ai.connect4.book_builder import WORK_FILE, BuildError, build

    if args.level is not None:
        if args.table_bits is None:
            args.table_bits = LEVEL_TABLE_BITS
        return run_level(args)
    if args.table_bits is None:
        args.table_bits = BUILD_TABLE_BITS
    if args.plies < 1:
        print("abgames book: --plies must be at least 1", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("abgames book: --jobs must be at least 1", file=sys.stderr)
        return 2
    output = args.output or default_book_path()
    start = time.perf_counter()
    try:
        parse_line(args.root)
    except ValueError as error:
        print(f"abgames book: --root: {error}", file=sys.stderr)
        return 2
    cluster = cluster_of(args)
    try:
        with (
            cluster if cluster is not None else contextlib.nullcontext(),
            _terminate_as_interrupt(),
        ):
            build(
                root=args.root,
                plies=args.plies,
                work_dir=args.work,
                output=output,
                jobs=args.jobs,
                table_bits=args.table_bits,
                log=lambda text: print(text, flush=True),
                write_only=args.write_only,
                cluster=cluster,
                every=args.every,
            )
    except ClusterLost as error:
        print(f"abgames book: {error}; every score found is in {args.work}", file=sys.stderr)
        return 1
    except ClusterError as error:
        print(f"abgames book: {error}", file=sys.stderr)
        return 2
    except BuildError as error:  # a finished root, an output not a book, a bad work file
        print(f"abgames book: {error}", file=sys.stderr)
        return 2
    except MemoryError:
        return _no_memory_for_tables(args.table_bits)
    except OSError as error:
        print(f"abgames book: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        kept = f"; what was solved is kept in {args.work / WORK_FILE}: run again to resume"
        return _interrupted("book", None, kept)
    print(f"built in {time.perf_counter() - start:.1f}s")
    return 0
