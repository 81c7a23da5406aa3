"""Building the opening book: solve every position the ``perfect`` player can meet.

(Or, with ``every``, every position of one ply and all before it: see ``build``.)

Starting from a root (the empty board by default), the perfect player may sit on
either side. At each of its turns it needs the exact score of every column, so the
book gets every child of those positions; its (deterministic) choice then fixes
which positions it meets two plies later, one for every reply of the opponent.
Level by level, up to ``plies`` beyond the root:

- ``frontier[root] = {root}`` (the player to move) and ``frontier[root + 1]`` = every
  child of the root (the player answering);
- for each position of ``frontier[p]``: solve its children, choose the move, and add
  every reply to that move to ``frontier[p + 2]``.

Each solved position is appended to ``work_dir/solved.txt`` ("MOVES SCORE COLUMN",
the column a move of that score the solve found, 1-7 in the line's own orientation;
"MOVES SCORE" where it found none) as soon as it is known, so a build that is
stopped resumes where it stopped; the positions of an existing book at ``output``
count as solved too (with their columns), so a build can be carried on from the
shipped book on a machine without the work file; identical positions (mirror
images included) are solved once. Positions are spread over
``jobs`` processes, each with its own solver and table, or over a Ray cluster
(``cluster``): there each worker process keeps its solver between positions, and
the scores still come back to this process and its work file as they are found.
"""

from __future__ import annotations

import itertools
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from multiprocessing.pool import Pool
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from abgames.ai.connect4.book import MAGIC, MAX_ABS_SCORE, Book, BookError, load, save, starts_with
from abgames.ai.connect4.constants import BUILD_TABLE_BITS
from abgames.ai.connect4.kernel import COLUMN_ORDER, INVALID_MOVE, WIDTH
from abgames.ai.connect4.level_book import load_default_level
from abgames.ai.connect4.perfect import choose_column
from abgames.ai.connect4.position import (
    Position,
    canonical_key,
    known_child_scores,
    unfinished_children,
)
from abgames.ai.connect4.solver import CELLS, DEFAULT_TABLE_BITS, Solver
from abgames.files import check_output, kind_of, open_output, read_lines
from abgames.pool_signals import awake, become_pool_worker, stop_pool, worker_pool

if TYPE_CHECKING:
    from abgames.cluster import Cluster

WORK_FILE = "solved.txt"
#: Positions in flight per CPU of a cluster: a second one hides the round trip.
CLUSTER_TASKS_PER_CPU = 2
#: The largest work file read, and its longest line ("MOVES SCORE" takes under 50 bytes).
MAX_WORK_BYTES = 1 << 32
MAX_WORK_LINE_BYTES = 1000
#: The most plies ``every`` builds beyond its root: every position of 12 discs is some
#: 6 million (a cluster's work); more would not fit this process's memory.
EVERY_MAX_PLIES = 12
_COLUMN_NAMES = frozenset("1234567")
#: Positions a pool worker takes at a time (``_solve_lines``).
POOL_CHUNK = 16
#: Solved positions between two progress lines of a long ply.
PROGRESS_EVERY = 1000

Log = Callable[[str], None]

_worker_solver: Solver | None = None


def _init_worker(table_bits: int, pooled: bool = True) -> None:
    """Make this process's solver; a pool worker leaves Ctrl-C to the parent and ends
    on SIGTERM (``abgames.pool_signals``)."""
    global _worker_solver
    if pooled:
        become_pool_worker()
    # The shipped level book (if any) stops each search at its level: a position
    # with fewer discs is then solved by a short search.
    _worker_solver = Solver(table_bits, level=load_default_level())


#: What a worker is sent: a move string and a score its position is known to reach
#: at least (from its parents' scores), or ``None``.
_Job = tuple[str, int | None]
#: What a worker sends back: the move string, its score, a column of that score the
#: solve found (0-based, or ``None``), the seconds it took.
_Solved = tuple[str, int, int | None, float]


def _solve_line(job: _Job) -> _Solved:
    assert _worker_solver is not None
    start = time.perf_counter()
    moves, low = job
    score, column = solve_for_book(_worker_solver, Position.parse(moves), low)
    return moves, score, column, time.perf_counter() - start


def _solve_chunk(jobs: list[_Job]) -> list[_Solved]:
    """``_solve_line`` for each of ``jobs``, in order (one pool task)."""
    return [_solve_line(job) for job in jobs]


def solve_for_book(solver: Solver, position: Position, low: int | None) -> tuple[int, int]:
    """The exact score of ``position`` and a column whose move keeps it.

    ``low``, a score the position is known to reach at least (a parent's score,
    negated, where its side to move could play into this position), is tried first:
    when it is the score, as it is for any best reply, one null-window test proves it
    and one more finds the column (a probe that fails high names its move), in place
    of the solve's search for the score from 0.
    """
    if low is None:
        score = solver.solve(position)
    elif solver.solve(position, low=low, high=low + 1) == low:
        score = low
        solver.solve(position, low=low - 1, high=low)  # fails high: its move keeps ``low``
    else:
        score = solver.solve(position, low=low + 1)
    column = solver.best_column
    if column is None:
        column = keeping_column(solver, position, score)
    return score, column


def keeping_column(solver: Solver, position: Position, score: int) -> int:
    """A column of ``position`` whose move keeps its exact ``score``, centre first.

    For the solves that end without their probes meeting one (a win in one move,
    a loss every move delays equally, the score from the table): one null-window
    test a column, cheap after the solve. ``ValueError`` if no column keeps it.
    """
    for column in COLUMN_ORDER:
        if not position.can_play(column):
            continue
        child = position.play(column)
        if child.is_over:
            kept = -child.finished_score()
        else:
            kept = -solver.solve(child, low=-score, high=1 - score)
        if kept == score:
            return column
    raise ValueError(f"no column keeps the score {score}")


def solve_with_table(moves: str, table_bits: int, low: int | None = None) -> _Solved:
    """``_solve_line`` in a process without a pool initialiser (a Ray worker).

    The solver is made on the first call and kept for the following ones.
    """
    if _worker_solver is None or _worker_solver.table_bits != table_bits:
        _init_worker(table_bits, pooled=False)
    return _solve_line((moves, low))


def _solved_on(cluster: Cluster, jobs: list[_Job], table_bits: int) -> Iterator[_Solved]:
    tasks = ((moves, (moves, table_bits, low)) for moves, low in jobs)
    for _, solved in cluster.stream(solve_with_table, tasks, per_cpu=CLUSTER_TASKS_PER_CPU):
        yield solved


@dataclass(frozen=True)
class _Solving:
    """Where a build's positions are solved and where each score goes as it is found."""

    pool: Pool | None
    cluster: Cluster | None
    table_bits: int
    work: BinaryIO
    log: Log
    #: Canonical key -> a column keeping its score (canonical orientation), as found.
    columns: dict[int, int]


def _solve_lines(
    lines: list[str],
    solving: _Solving,
    solved: dict[int, int],
    lows: Mapping[str, int] | None = None,
) -> None:
    """Solve ``lines`` (move strings): each score into ``solved`` (its column into
    ``solving.columns``) and the work file at once. ``lows`` gives, for some lines, a
    score their position is known to reach (``solve_for_book``).

    A pool worker takes ``POOL_CHUNK`` lines in a row: neighbours in ``lines``
    share much of their trees, so its table serves the next one.
    """
    known = lows or {}
    jobs = [(moves, known.get(moves)) for moves in lines]
    if solving.cluster is not None:
        results: Iterable[_Solved] = _solved_on(solving.cluster, jobs, solving.table_bits)
    elif solving.pool is not None:
        chunks = [jobs[at : at + POOL_CHUNK] for at in range(0, len(jobs), POOL_CHUNK)]
        results = itertools.chain.from_iterable(
            awake(solving.pool.imap_unordered(_solve_chunk, chunks))
        )
    else:
        results = map(_solve_line, jobs)
    start = time.perf_counter()
    for done, (moves, score, column, seconds) in enumerate(results, start=1):
        key = Position.parse(moves).key
        solved[canonical_key(key)] = score
        shown = ""
        if column is not None:
            solving.columns[canonical_key(key)] = _canonical_column(key, column)
            shown = f" {column + 1}"
        solving.work.write(f"{moves} {score}{shown}\n".encode())
        solving.work.flush()
        if seconds > 1:
            solving.log(f"  {done}/{len(lines)} {moves or '(empty)'} {score} {seconds:.1f}s")
        elif done % PROGRESS_EVERY == 0:
            solving.log(f"  {done}/{len(lines)} in {time.perf_counter() - start:.0f}s")


class BuildError(ValueError):
    """A build that cannot start (a finished root, an output that is not a book, a work
    folder that is not a folder) or a work file it cannot use: the message says why."""


class WorkFileError(BuildError):
    """A work file line that is not ``MOVES SCORE``; the message names the file and line."""


def _work_lines(path: Path) -> list[str]:
    """The lines of the work file ``path`` (none if it does not exist), read within caps:
    ``OSError`` for a file that is not a regular one, over ``MAX_WORK_BYTES``, or with a
    line over ``MAX_WORK_LINE_BYTES``."""
    try:
        return [
            raw.decode(errors="replace").rstrip("\r\n")
            for raw in read_lines(path, limit=MAX_WORK_BYTES, line_limit=MAX_WORK_LINE_BYTES)
        ]
    except FileNotFoundError:
        return []


def _canonical_column(key: int, column: int) -> int:
    """``column`` of the position with ``key`` as seen in the canonical orientation."""
    return column if canonical_key(key) == key else WIDTH - 1 - column


def _read_work(path: Path) -> tuple[dict[int, int], dict[int, int]]:
    """Canonical key -> score of every position already solved in ``path``, and canonical
    key -> column (canonical orientation) of those whose line records one.

    A last line cut short (an interrupted write) is ignored: that position is
    solved again. Any other bad line raises ``WorkFileError``; the file is left as
    it is, so nothing solved is lost.
    """
    solved: dict[int, int] = {}
    columns: dict[int, int] = {}
    lines = _work_lines(path)
    for number, line in enumerate(lines, start=1):
        try:
            key, score, column = _work_line(line)
        except ValueError as error:
            if number == len(lines):
                continue  # a last line cut short by an interruption: solve it again
            shown = line if len(line) <= 60 else line[:57] + "..."
            raise WorkFileError(
                f"{path} line {number}: {error}, got {shown!r}; "
                "correct or delete that line (the other lines are kept) and run again"
            ) from None
        solved[key] = score
        if column is not None:
            columns[key] = column
    return solved, columns


def work_scores(path: Path) -> dict[int, int]:
    """Canonical key -> score of every position solved in the work file ``path``
    (``_read_work``'s checks and errors)."""
    return _read_work(path)[0]


def _work_line(line: str) -> tuple[int, int, int | None]:
    """The canonical key, score and column (canonical orientation, if recorded) of one
    ``MOVES SCORE [COLUMN]`` line; ``ValueError`` if malformed."""
    parts = line.split()
    if (
        len(parts) not in (2, 3)
        or not parts[1].lstrip("-").isascii()
        or not parts[1].lstrip("-").isdigit()
    ):
        raise ValueError("expected 'MOVES SCORE' or 'MOVES SCORE COLUMN'")
    moves, score = parts[0], int(parts[1])
    if len(parts) == 3 and parts[2] not in _COLUMN_NAMES:
        raise ValueError("COLUMN must be 1..7")
    if abs(score) > MAX_ABS_SCORE:
        raise ValueError(f"a score is -{MAX_ABS_SCORE}..{MAX_ABS_SCORE}")
    if not moves.isascii() or not moves.isdigit():
        raise ValueError("MOVES must be columns 1..7")
    try:
        position = Position.parse(moves)
    except ValueError as error:  # a full column, a move after a win, a digit 8 ...
        raise ValueError(f"MOVES: {error}") from None
    if position.is_over:
        raise ValueError("MOVES: the game is over")
    if len(parts) == 2:
        return canonical_key(position.key), score, None
    column = int(parts[2]) - 1
    if not position.can_play(column):
        raise ValueError(f"COLUMN {column + 1} is full")
    return canonical_key(position.key), score, _canonical_column(position.key, column)


def child_scores(position: Position, score_of: Callable[[int], int | None]) -> list[int] | None:
    """Each column's score for the side to move, or ``None`` if a child is unknown.

    ``score_of(canonical key)`` gives a solved position's score, or ``None``.
    """
    known = known_child_scores(position, score_of)
    if any(position.can_play(column) and column not in known for column in range(WIDTH)):
        return None
    return [known.get(column, INVALID_MOVE) for column in range(WIDTH)]


def build(
    *,
    root: str = "",
    plies: int,
    work_dir: Path,
    output: Path,
    jobs: int = 1,
    table_bits: int = BUILD_TABLE_BITS,
    log: Log = print,
    write_only: bool = False,
    cluster: Cluster | None = None,
    every: bool = False,
) -> Book:
    """Solve every position the perfect player meets within ``plies`` of ``root``; save the book.

    With ``every``, solve instead every position ``plies`` moves after ``root`` (all
    of them, whoever played them) and score every position between from those: the
    book then answers any position up to that depth, not only the perfect player's
    own lines (``EVERY_MAX_PLIES`` at most).

    Returns the book written to ``output`` (every position solved so far in ``work_dir``).
    With ``write_only`` nothing is solved: the book is written from the work file
    (with ``every``, together with each earlier position all of whose children it
    scores: a stopped build's part of the level is of use at once).
    With a connected ``cluster`` the positions are solved there instead of in ``jobs``
    processes; a cluster lost mid-build raises ``ClusterLost`` with every score found
    so far already in the work file.
    """
    if every or not write_only:
        root_position = _root_position(root)
    created = _make_work_dir(work_dir)
    try:
        _check_output(output)  # after the work folder: the output may be in it
    except BaseException:
        for folder in created:  # refused: leave no empty folder behind
            try:
                folder.rmdir()
            except OSError:
                break
        raise
    work_path = work_dir / WORK_FILE
    earlier, earlier_columns, earlier_max_moves = _read_book(output, log)
    worked, worked_columns = _read_work(work_path)
    solved = {**earlier, **worked}
    columns = {**earlier_columns, **worked_columns}
    if solved:
        log(f"resuming: {len(solved)} positions already solved ({output}, {work_path})")
    if write_only and not every:
        return _write_book(solved, columns, work_path, output, log, earlier_max_moves)
    # The board has CELLS plies: a larger ``plies`` stops there (or where nothing is left).
    last_ply = min(root_position.moves + plies, CELLS)
    if every and last_ply - root_position.moves > EVERY_MAX_PLIES:
        raise BuildError(
            f"every position {last_ply - root_position.moves} plies deep is too many to "
            f"list here: --every builds at most {EVERY_MAX_PLIES} plies beyond the root"
        )
    if write_only:  # and every: what the solved part of the level decides goes in too
        _score_earlier(positions_by_ply(root, last_ply), solved, log)
        return _write_book(solved, columns, work_path, output, log, earlier_max_moves)
    pool = worker_pool(jobs, _init_worker, (table_bits,)) if jobs > 1 and cluster is None else None
    if pool is None and cluster is None:
        _init_worker(table_bits, pooled=False)
    try:
        with open_output(work_path, append=True) as work:
            solving = _Solving(pool, cluster, table_bits, work, log, columns)
            if every:
                _solve_every(root, last_ply, solving, solved)
            else:
                _solve_met(root, root_position, last_ply, solving, solved, work_path)
    except BaseException:
        if pool is not None:
            stop_pool(pool)  # Ctrl-C or an error: the workers' running solves are dropped
        raise
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return _write_book(solved, columns, work_path, output, log, earlier_max_moves)


def _solve_met(
    root: str,
    root_position: Position,
    last_ply: int,
    solving: _Solving,
    solved: dict[int, int],
    work_path: Path,
) -> None:
    """Solve the children of every position the perfect player meets up to ``last_ply``."""
    log = solving.log
    frontier: dict[int, dict[str, Position]] = {root_position.moves: {root: root_position}}
    frontier[root_position.moves + 1] = {
        line: Position.parse(line) for line in unfinished_children(root, root_position)
    }
    for ply in range(root_position.moves, last_ply):
        if not any(frontier.values()):
            log(f"ply {ply}: no position left to meet: every line has ended")
            break
        more, more_columns = _read_work(work_path)  # other builders may have added some
        solved.update(more)
        solving.columns.update(more_columns)
        met = frontier.pop(ply, {})
        todo: dict[int, str] = {}
        for moves, position in met.items():
            for child in unfinished_children(moves, position):
                key = canonical_key(Position.parse(child).key)
                if key not in solved:
                    todo.setdefault(key, child)
        start = time.perf_counter()
        log(f"ply {ply}: {len(met)} positions met, {len(todo)} children to solve")
        _solve_lines(list(todo.values()), solving, solved)
        log(f"ply {ply}: done in {time.perf_counter() - start:.1f}s")
        following = frontier.setdefault(ply + 2, {})
        for moves, position in met.items():
            scores = child_scores(position, solved.get)
            assert scores is not None
            column = choose_column(scores)
            reply_root = position.play(column)
            if reply_root.is_over:
                continue
            for reply in unfinished_children(moves + str(column + 1), reply_root):
                following[reply] = Position.parse(reply)


def positions_by_ply(root: str, last_ply: int) -> list[dict[int, str]]:
    """Every unfinished position from ``root`` on, one move string per canonical key.

    Entry ``i`` holds the positions with ``root``'s discs plus ``i``, up to ``last_ply``
    discs; a position reached by several orders (or as a mirror image) is there once.
    """
    level = {canonical_key(Position.parse(root).key): root}
    levels = [level]
    for _ in range(Position.parse(root).moves, last_ply):
        following: dict[int, str] = {}
        for moves in level.values():
            for child in unfinished_children(moves, Position.parse(moves)):
                following.setdefault(canonical_key(Position.parse(child).key), child)
        level = following
        levels.append(level)
    return levels


def _solve_every(root: str, last_ply: int, solving: _Solving, solved: dict[int, int]) -> None:
    """Solve every position with ``last_ply`` discs; score every earlier one from them.

    Each solved position gets a column that keeps its score: one solved by an
    earlier version of the builder, which kept none, is solved again once every
    other position is. Positions are solved centre first (``centre_first``): the
    openings people play most are in the book soonest, should the build stop early,
    and one process meets neighbours one after another, so its table helps.
    """
    log = solving.log
    levels = positions_by_ply(root, last_ply)
    deepest = levels[-1]
    todo = sorted((moves for key, moves in deepest.items() if key not in solved), key=centre_first)
    again = sorted(
        (moves for key, moves in deepest.items() if key in solved and key not in solving.columns),
        key=centre_first,
    )
    log(
        f"ply {last_ply}: {len(deepest)} positions, {len(todo)} to solve, then {len(again)} "
        "solved without a column to solve again for one"
    )
    todo += again
    start = time.perf_counter()
    lows = _parent_bounds(levels[-2], solved) if len(levels) > 1 else {}
    _solve_lines(
        todo, solving, solved, {moves: lows[key] for key, moves in deepest.items() if key in lows}
    )
    log(f"ply {last_ply}: done in {time.perf_counter() - start:.1f}s")
    _score_earlier(levels, solved, log)


def _parent_bounds(parents: dict[int, str], solved: dict[int, int]) -> dict[int, int]:
    """Canonical key -> the least score of each child of ``parents`` (canonical key ->
    move string) that a solved parent proves: a parent of score ``s`` has no child
    scoring below ``-s`` for the side then to move. The best of its parents' bounds."""
    lows: dict[int, int] = {}
    for key, moves in parents.items():
        score = solved.get(key)
        if score is None:
            continue
        position = Position.parse(moves)
        for column in range(WIDTH):
            if position.can_play(column):
                child = position.play(column)
                if not child.is_over:
                    child_key = canonical_key(child.key)
                    lows[child_key] = max(lows.get(child_key, -score), -score)
    return lows


_CENTRE_RANK = {str(column + 1): str(rank) for rank, column in enumerate(COLUMN_ORDER)}


def centre_first(moves: str) -> str:
    """A sort key of move strings: by the first move's column, centre first, then the
    second's, and so on (``"4..."`` before ``"3..."`` before ``"5..."``)."""
    return "".join(_CENTRE_RANK[move] for move in moves)


def _score_earlier(levels: list[dict[int, str]], solved: dict[int, int], log: Log) -> None:
    """Score each position of ``levels`` but the deepest from its children, deepest first.

    A position's score is the best of its children's, each read from ``solved`` (or a
    win at once): no search. A position with a child not yet known is left out (a
    stopped build written with ``write_only``); one already in ``solved`` is kept.
    """
    scored = waiting = 0
    for level in reversed(levels[:-1]):
        for key, moves in level.items():
            if key in solved:
                continue
            scores = child_scores(Position.parse(moves), solved.get)
            if scores is None:
                waiting += 1
                continue
            solved[key] = max(score for score in scores if score != INVALID_MOVE)
            scored += 1
    first = Position.parse(next(iter(levels[0].values()))).moves
    wait = f"; {waiting} wait for a child's score" if waiting else ""
    last = first + len(levels) - 2
    log(f"plies {first}-{last}: {scored} positions scored from their children{wait}")


def _check_output(output: Path) -> None:
    """Refuse an output that is not a regular file or a new name in an existing
    folder (``OSError``), or a file that is not a book of ours (``BuildError``):
    the build would write over it."""
    check_output(output)
    if os.path.exists(output) and not starts_with(output, MAGIC):
        raise BuildError(
            f"{output} is not a Connect Four book: it is left as it is; "
            "name a new file or a book to carry on as the output"
        )


def _make_work_dir(work_dir: Path) -> list[Path]:
    """Create the work folder if it is missing; ``BuildError`` if the name is not a folder.

    Returns the folders created, innermost first.
    """
    try:
        mode = os.stat(work_dir).st_mode
    except FileNotFoundError:
        mode = None
    except NotADirectoryError:
        raise BuildError(f"the work folder {work_dir}: a folder in that path is a file") from None
    if mode is not None and not stat.S_ISDIR(mode):
        raise BuildError(f"the work folder {work_dir} is {kind_of(mode)}, not a folder")
    missing = []
    for folder in (work_dir, *work_dir.parents):
        if os.path.lexists(folder):
            break
        missing.append(folder)
    work_dir.mkdir(parents=True, exist_ok=True)
    return missing


def _root_position(root: str) -> Position:
    """The position of ``root``; ``BuildError`` for a finished game (nothing to book)."""
    try:
        position = Position.parse(root)
    except ValueError as error:
        raise BuildError(f"the root {root!r}: {error}") from None
    if position.won:
        raise BuildError(f"the root {root!r} is a won game: there is nothing to book")
    if position.is_over:
        raise BuildError(f"the root {root!r} fills the board: there is nothing to book")
    return position


def _read_book(path: Path, log: Log) -> tuple[dict[int, int], dict[int, int], int]:
    """The scores and columns of an existing book at ``path`` and its depth; nothing if
    there is none."""
    if not path.exists():
        return {}, {}, 0
    try:
        book = load(path)
    except (OSError, BookError) as error:
        log(f"not resuming from {path}: {error}")
        return {}, {}, 0
    scores = {int(key): int(score) for key, score in zip(book.keys, book.scores, strict=True)}
    return scores, book.column_map(), book.max_moves


def _write_book(
    solved: dict[int, int],
    columns: dict[int, int],
    work_path: Path,
    output: Path,
    log: Log,
    earlier_max_moves: int = 0,
) -> Book:
    max_moves = max(earlier_max_moves, *_moves_of(work_path), 0)
    book = Book.from_scores(solved, max_moves, columns)
    save(book, output)
    log(f"book: {len(book)} positions up to {book.max_moves} discs -> {output}")
    return book


def book_tree(book: Book, root: str = "") -> tuple[list[str], list[str]]:
    """The positions the perfect player meets from ``root``, split by whether the book decides.

    Returns ``(inside, outside)``: ``inside`` holds the positions (move strings) at
    the player's turn whose every column the book scores, walked as in ``build``;
    ``outside`` the first positions met where the book no longer has every column.
    """
    root_position = Position.parse(root)
    frontier = [root, *unfinished_children(root, root_position)]
    inside: list[str] = []
    outside: list[str] = []
    while frontier:
        moves = frontier.pop()
        position = Position.parse(moves)
        scores = child_scores(position, book.get)
        if scores is None:
            outside.append(moves)
            continue
        inside.append(moves)
        column = choose_column(scores)
        reply_root = position.play(column)
        if not reply_root.is_over:
            frontier.extend(unfinished_children(moves + str(column + 1), reply_root))
    return inside, outside


def _moves_of(path: Path) -> Iterable[int]:
    for line in _work_lines(path):
        parts = line.split()
        if len(parts) in (2, 3):
            yield len(parts[0])


__all__ = [
    "BUILD_TABLE_BITS",
    "DEFAULT_TABLE_BITS",
    "WORK_FILE",
    "BuildError",
    "WorkFileError",
    "book_tree",
    "build",
    "child_scores",
    "work_scores",
]
