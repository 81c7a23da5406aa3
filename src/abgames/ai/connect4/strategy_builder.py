"""Building the strategy book: the ``perfect`` player's move at every position it can meet.

Level by level from a root (the empty board by default), as either player, up to
``plies`` beyond it: the player's turns at the root and after each child of the
root; at each such position ``P`` it decides a move, and every reply to that move
is a position it meets two plies later. The move is

- the exact choice (best score, then the centre: ``perfect.choose_column``) when
  every child's exact score is already known (from an exact work file or book:
  the running exact build's results are reused this way);
- otherwise ``strategy.decide``: the weak value of ``P`` and of its children in
  centre order until one keeps it. After the player's winning move every reply
  is still won, so those positions need no solve of their own.

Every weak value solved goes to ``work_dir/weak.txt`` (``MOVES VALUE``) at once,
so a stopped build resumes where it stopped; decisions are recomputed from the
values (they need no solve then). Positions are spread over ``jobs`` processes,
each with its own table. The book (``strategy_book``) is written after every
ply, so it can be shipped at any complete depth; exact results are read again at
every ply, so an exact build running beside this one still helps.

Run it as ``python -m abgames.ai.connect4.strategy_builder --plies N ...``
(``--help`` lists the options).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from abgames.ai.connect4.book import BookError
from abgames.ai.connect4.book import load as load_exact_book
from abgames.ai.connect4.book_builder import _work_lines as read_work_lines
from abgames.ai.connect4.book_builder import work_scores as read_exact_work
from abgames.ai.connect4.kernel import INVALID_MOVE, WIDTH
from abgames.ai.connect4.perfect import choose_column
from abgames.ai.connect4.position import Position, canonical_key, mirrored, unfinished_children
from abgames.ai.connect4.solver import CELLS, Solver
from abgames.ai.connect4.strategy import WIN, Decision, decide
from abgames.ai.connect4.strategy_book import StrategyBook, save
from abgames.arguments import integer
from abgames.files import open_output

WORK_FILE = "weak.txt"
#: Default table per process: 2**25 entries = 256 MiB.
STRATEGY_TABLE_BITS = 25

Log = Callable[[str], None]

_worker_solver: Solver | None = None


def _init_worker(table_bits: int) -> None:
    global _worker_solver
    _worker_solver = Solver(table_bits)


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


def read_weak_work(path: Path) -> dict[int, int]:
    """Canonical key -> weak value of every position in a ``MOVES VALUE`` work file.

    A last line cut short by an interruption is ignored (solved again); any other
    bad line raises ``ValueError`` naming the file and line.
    """
    values: dict[int, int] = {}
    lines = read_work_lines(path)  # a regular file within caps, or none
    for number, line in enumerate(lines, start=1):
        parts = line.split()
        try:
            if len(parts) != 2 or parts[1] not in ("-1", "0", "1"):
                raise ValueError("expected 'MOVES VALUE' with VALUE -1, 0 or 1")
            position = Position.parse(parts[0])
        except ValueError as error:
            if number == len(lines):
                continue
            raise ValueError(f"{path} line {number}: {error}, got {line[:60]!r}") from None
        values[canonical_key(position.key)] = int(parts[1])
    return values


def read_exact(sources: Iterable[Path], log: Log) -> dict[int, int]:
    """Exact scores from exact work files (``MOVES SCORE``) and exact book files."""
    scores: dict[int, int] = {}
    for source in sources:
        if not source.exists():
            log(f"no exact results at {source}")
            continue
        if source.suffix == ".bin":
            try:
                book = load_exact_book(source)
            except (OSError, BookError) as error:
                log(f"not using {source}: {error}")
                continue
            scores.update(zip(book.keys.tolist(), book.scores.tolist(), strict=True))
        else:
            scores.update(read_exact_work(source))
        log(f"exact results: {len(scores)} positions after {source}")
    return scores


def exact_choice(position: Position, exact: Mapping[int, int]) -> Decision | None:
    """The exact player's choice when every child's exact score is known, else ``None``."""
    scores = [INVALID_MOVE] * WIDTH
    for column in range(WIDTH):
        if not position.can_play(column):
            continue
        child = position.play(column)
        if child.won:
            scores[column] = (CELLS + 1 - position.moves) // 2
        elif child.is_over:
            scores[column] = 0
        else:
            known = exact.get(canonical_key(child.key))
            if known is None:
                return None
            scores[column] = -known
    column = choose_column(scores)
    values = {c: sign(s) for c, s in enumerate(scores) if s != INVALID_MOVE}
    return Decision(column, values[column], values)


class _Unknown(Exception):
    """A weak value that is not known yet (the position must be solved)."""


def _decide_known(
    position: Position, known: Mapping[int, int], exact: Mapping[int, int], hint: int | None
) -> Decision | None:
    """The decision if every value it needs is known, else ``None``."""
    chosen = exact_choice(position, exact)
    if chosen is not None:
        return chosen

    def value_of(child: Position) -> int:
        value = known.get(canonical_key(child.key))
        if value is None:
            raise _Unknown
        return value

    try:
        return decide(position, value_of, hint)
    except _Unknown:
        return None


def _solve_decision(
    task: tuple[str, dict[int, int], int | None],
) -> tuple[str, Decision, list[tuple[str, int]], float]:
    """In a worker: decide ``moves``, solving what ``known`` lacks; the new values too."""
    moves, known, hint = task
    assert _worker_solver is not None
    solver = _worker_solver
    position = Position.parse(moves)
    solved: list[tuple[str, int]] = []
    start = time.perf_counter()

    def value_of(child: Position) -> int:
        key = canonical_key(child.key)
        if key not in known:
            known[key] = solver.solve(child, weak=True)
            solved.append((_moves_to(moves, position, child), known[key]))
        return known[key]

    decision = decide(position, value_of, hint)
    return moves, decision, solved, time.perf_counter() - start


def _moves_to(moves: str, position: Position, target: Position) -> str:
    """The move string of ``target``: ``position`` itself or one of its children."""
    if target.key == position.key:
        return moves
    for column in range(WIDTH):
        if position.can_play(column) and position.play(column).key == target.key:
            return moves + str(column + 1)
    raise ValueError("not a child")


def _neighbourhood(position: Position, values: Mapping[int, int]) -> dict[int, int]:
    """The known values of ``position`` and its children (what a worker may need)."""
    keys = [canonical_key(position.key)]
    keys += [canonical_key(position.play(c).key) for c in range(WIDTH) if position.can_play(c)]
    return {key: values[key] for key in keys if key in values}


def build_strategy(
    *,
    root: str = "",
    plies: int,
    work_dir: Path,
    output: Path,
    exact_sources: Iterable[Path] = (),
    jobs: int = 1,
    table_bits: int = STRATEGY_TABLE_BITS,
    log: Log = print,
) -> StrategyBook:
    """Decide every position the perfect player meets within ``plies`` of ``root``; save it.

    Returns the book written to ``output``.
    """
    work_dir.mkdir(parents=True, exist_ok=True)
    work_path = work_dir / WORK_FILE
    sources = list(exact_sources)
    exact = read_exact(sources, log)
    values = {key: sign(score) for key, score in exact.items()}
    values.update(read_weak_work(work_path))
    log(f"known weak values: {len(values)}")
    root_position = Position.parse(root)
    last_ply = root_position.moves + plies
    frontier: dict[str, int | None] = {root: None}
    frontier.update({moves: None for moves in unfinished_children(root, root_position)})
    decisions: dict[int, tuple[int, int]] = {}
    pool = (
        multiprocessing.get_context("fork").Pool(jobs, _init_worker, (table_bits,))
        if jobs > 1
        else None
    )
    if pool is None:
        _init_worker(table_bits)
    try:
        with open_output(work_path, append=True) as work:
            for ply in range(root_position.moves, last_ply):
                if ply > root_position.moves and sources:
                    # An exact build running beside this one may have solved more.
                    exact = read_exact(sources, lambda _: None)
                    for key, score in exact.items():
                        values.setdefault(key, sign(score))
                met = {m: h for m, h in frontier.items() if len(m) == ply}
                start = time.perf_counter()
                decided: dict[str, Decision] = {}
                tasks: list[tuple[str, dict[int, int], int | None]] = []
                for moves, hint in sorted(met.items()):
                    position = Position.parse(moves)
                    key = canonical_key(position.key)
                    if key in decisions:
                        continue  # a transposition or mirror image already decided
                    known = _decide_known(position, values, exact, hint)
                    if known is not None:
                        decided[moves] = known
                    else:
                        tasks.append((moves, _neighbourhood(position, values), hint))
                    decisions[key] = (0, 0)  # placeholder, set below
                log(
                    f"ply {ply}: {len(met)} positions met, {len(decided)} decided from "
                    f"known values, {len(tasks)} to solve"
                )
                results = (
                    pool.imap_unordered(_solve_decision, tasks)
                    if pool
                    else map(_solve_decision, tasks)
                )
                for done, (moves, decision, solved, seconds) in enumerate(results, start=1):
                    for line, value in solved:
                        values[canonical_key(Position.parse(line).key)] = value
                        work.write(f"{line} {value}\n".encode())
                    work.flush()
                    decided[moves] = decision
                    if seconds > 1:
                        log(f"  {done}/{len(tasks)} {moves or '(empty)'} {seconds:.1f}s")
                log(f"ply {ply}: done in {time.perf_counter() - start:.1f}s")
                for moves, decision in decided.items():
                    position = Position.parse(moves)
                    canonical = canonical_key(position.key)
                    column = decision.column
                    if canonical != position.key:
                        column = mirrored(column)
                    decisions[canonical] = (decision.value, column)
                    after = position.play(decision.column)
                    if after.is_over:
                        continue
                    hint = WIN if decision.value == WIN else None
                    after_moves = moves + str(decision.column + 1)
                    for reply in unfinished_children(after_moves, after):
                        frontier[reply] = hint
                # A transposition or mirror image met again was skipped above: its
                # replies are (mirror images of) the replies of the one decided.
                save(StrategyBook.from_moves(decisions, ply), output)
                log(f"strategy book: {len(decisions)} positions up to {ply} discs -> {output}")
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    book = StrategyBook.from_moves(decisions, min(last_ply - 1, CELLS))
    save(book, output)
    log(f"strategy book: {len(book)} positions up to {book.max_moves} discs -> {output}")
    return book


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m abgames.ai.connect4.strategy_builder",
        description="Build the Connect Four strategy book (resumable: WORK/weak.txt).",
    )
    parser.add_argument("--plies", type=integer, required=True, help="book depth beyond the root")
    parser.add_argument("--root", default="", help="start from this move string")
    parser.add_argument("--jobs", type=integer, default=1, help="processes to solve with")
    parser.add_argument("--work", type=Path, required=True, help="work directory")
    parser.add_argument("--output", type=Path, required=True, help="strategy book to write")
    parser.add_argument(
        "--exact",
        type=Path,
        action="append",
        default=[],
        help="exact results to reuse: a solved.txt work file or an exact book (repeatable)",
    )
    parser.add_argument("--table-bits", type=integer, default=STRATEGY_TABLE_BITS)
    args = parser.parse_args(argv)
    if not 10 <= args.table_bits <= 30:
        parser.error(f"--table-bits must be 10..30, not {args.table_bits}")
    build_strategy(
        root=args.root,
        plies=args.plies,
        work_dir=args.work,
        output=args.output,
        exact_sources=args.exact,
        jobs=args.jobs,
        table_bits=args.table_bits,
        log=lambda text: print(text, flush=True),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
