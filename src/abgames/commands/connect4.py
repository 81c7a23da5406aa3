"""``abgames solve | analyze | book connect4``: the exact Connect Four solver on the command line.

``solve`` follows the established solver format (Pons): move strings on stdin, one
a line, and ``MOVES SCORE`` (or ``MOVES`` and seven scores with ``--analyze``, with
``-1000`` for a full column) on stdout. A bad line gets a message on stderr naming
the line, and the following lines are still solved.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from abgames.ai.connect4.book import Book, default_book_path, load_default_book
from abgames.ai.connect4.book_builder import BUILD_TABLE_BITS, build
from abgames.ai.connect4.kernel import INVALID_MOVE, WIDTH
from abgames.ai.connect4.perfect import plies_to_end
from abgames.ai.connect4.solver import DEFAULT_TABLE_BITS, Position, Solver
from abgames.cluster import Cluster, ClusterError, ClusterLost
from abgames.commands.cluster_option import add_cluster_option, cluster_of
from abgames.games.base import IllegalMoveError, NotationError
from abgames.games.connect4 import ConnectFour

GAME = "connect4"
COLUMN_DIGITS = frozenset("1234567")
#: ``22``: a win with the winner's k-th stone scores ``22 - k``.
SCORE_BASE = 22
DEFAULT_WORK_DIR = Path("book-work")
DEFAULT_BOOK_PLIES = 4


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
    book.add_argument("--plies", type=int, default=DEFAULT_BOOK_PLIES, help="book depth")
    book.add_argument("--root", default="", help="start from this move string")
    book.add_argument("--jobs", type=int, default=1, help="processes to solve with")
    book.add_argument("--work", type=Path, default=DEFAULT_WORK_DIR, help="work directory")
    book.add_argument("--output", type=Path, default=None, help="book file to write")
    book.add_argument("--table-bits", type=int, default=BUILD_TABLE_BITS)
    book.add_argument(
        "--write-only",
        action="store_true",
        help="solve nothing: write the book from the positions already in WORK",
    )
    add_cluster_option(book, "positions")
    book.set_defaults(run=run_book)


def _solver_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-book", action="store_true", help="solve without the opening book")
    parser.add_argument(
        "--table-bits",
        type=int,
        default=DEFAULT_TABLE_BITS,
        help=f"transposition table of 2**BITS entries, 8 bytes each (default {DEFAULT_TABLE_BITS})",
    )


def _make_solver(args: argparse.Namespace) -> Solver:
    book: Book | None = None if args.no_book else load_default_book()
    return Solver(args.table_bits, book)


def parse_line(line: str) -> Position:
    """The position of one input line; ``ValueError`` with a message naming the bad move."""
    for index, char in enumerate(line, start=1):
        if char not in COLUMN_DIGITS:
            raise NotationError(f"move {index}: {char!r} is not a column (1..{WIDTH})")
    return Position.parse(line)


def solve_stream(
    solver: Solver, source: TextIO, out: TextIO, err: TextIO, *, analyze: bool, weak: bool
) -> int:
    """Solve every line of ``source``; return how many lines were bad."""
    bad = 0
    for number, raw in enumerate(source, start=1):
        line = raw.rstrip("\r\n")
        try:
            position = parse_line(line)
        except ValueError as error:
            bad += 1
            print(f"line {number}: {error} in {line!r}", file=err, flush=True)
            continue
        if analyze:
            scores = solver.analyze(position, weak=weak)
            print(line, *scores, file=out, flush=True)
        else:
            print(line, solver.solve(position, weak=weak), file=out, flush=True)
    return bad


def run_solve(args: argparse.Namespace) -> int:
    solver = _make_solver(args)
    bad = solve_stream(
        solver, sys.stdin, sys.stdout, sys.stderr, analyze=args.analyze, weak=args.weak
    )
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
    lines.append(f"With perfect play the game ends in {plies} more moves (plies).")
    return "\n".join(lines)


def run_analyze(args: argparse.Namespace) -> int:
    try:
        line = args.moves.strip()
        parse_line(line)
        state = ConnectFour.from_notation(line)
    except (NotationError, IllegalMoveError) as error:
        print(f"abgames analyze: {error} in {args.moves!r}", file=sys.stderr)
        return 2
    solver = _make_solver(args)
    scores = solver.analyze(Position.from_state(state))
    print(analysis_text(state, scores))
    return 0


def run_book(args: argparse.Namespace) -> int:
    if args.plies < 1:
        print("abgames book: --plies must be at least 1", file=sys.stderr)
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
        if cluster is None:
            _build(args, output)
        else:
            with cluster:
                _build(args, output, cluster)
    except ClusterLost as error:
        print(f"abgames book: {error}; every score found is in {args.work}", file=sys.stderr)
        return 1
    except ClusterError as error:
        print(f"abgames book: {error}", file=sys.stderr)
        return 2
    print(f"built in {time.perf_counter() - start:.1f}s")
    return 0


def _build(args: argparse.Namespace, output: Path, cluster: Cluster | None = None) -> None:
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
    )
