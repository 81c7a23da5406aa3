"""Building a level book: solve every position of one level, resumably, on several processes.

The output file is also the work file: every ``checkpoint_seconds``, and when the
build stops (Ctrl-C; SIGTERM under ``abgames book``), the scores found so far are
written to it atomically, and a build started again on it solves only the slots
still ``UNSCORED``. So a
build that is stopped, or whose machine goes down, loses at most one checkpoint's
work, and a partial level can be shipped (and used: the search looks up what is
there and searches the rest).

A task is one shape's slots still to do (up to ``C(discs, discs // 2)``, 924 at 12
discs): the worker classifies each slot (``NO_POSITION`` for a board no game
reaches unfinished) and solves the positions in order with one solver, whose table
carries over from one position and one task to the next. Shapes go centre-heavy
first (``centre_weight``): the positions games meet most are in the level soonest.
(Positions of one shape share no node, their discs differing in colour; a table
that carries over serves neighbouring shapes instead. Handing out siblings
together, the children of one position one disc earlier, saved 3 % of the nodes on
1,200 positions: not worth its cost.) Tasks run in ``jobs`` processes or on a Ray
cluster (``cluster``), whose workers keep their solver between tasks; the scores
come back to this process either way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from abgames.ai.connect4.book import BookError
from abgames.ai.connect4.constants import LEVEL_TABLE_BITS, WIDTH
from abgames.ai.connect4.level_book import (
    NO_POSITION,
    UNSCORED,
    LevelBook,
    LevelIndex,
    level_index,
    load,
    save,
)
from abgames.ai.connect4.solver import Solver
from abgames.files import check_output
from abgames.pool_signals import awake, become_pool_worker, stop_pool, worker_pool

if TYPE_CHECKING:
    from abgames.cluster import Cluster

#: Seconds between two writes of the output while a build runs.
CHECKPOINT_SECONDS = 120.0
#: Tasks in flight per CPU of a cluster: a second one hides the round trip.
CLUSTER_TASKS_PER_CPU = 2
#: The centre column's index.
CENTRE = WIDTH // 2

Log = Callable[[str], None]
#: A task: the level and the slots to classify and solve, in order.
Task = tuple[int, np.ndarray]
#: A finished task: its slots and their scores (``NO_POSITION`` for a non-position).
Done = tuple[np.ndarray, np.ndarray]

_worker_solver: Solver | None = None


class LevelBuildError(BookError):
    """A level build that cannot start: an output that is not a level book of this level."""


def _init_worker(table_bits: int, pooled: bool = True) -> None:
    """Make this process's solver; a pool worker leaves Ctrl-C to the parent and ends
    on SIGTERM (``abgames.pool_signals``)."""
    global _worker_solver
    if pooled:
        become_pool_worker()
    _worker_solver = Solver(table_bits)


def solve_slots(task: Task) -> Done:
    """Classify and solve the slots of ``task``, in order, with this process's solver."""
    assert _worker_solver is not None
    discs, slots = task
    index = level_index(discs)
    scores = np.empty(len(slots), np.int8)
    for i, slot in enumerate(slots):
        position = index.position(int(slot))
        scores[i] = NO_POSITION if position is None else _worker_solver.solve(position)
    return slots, scores


def solve_slots_with_table(task: Task, table_bits: int) -> Done:
    """``solve_slots`` in a process without a pool initialiser (a Ray worker): the
    solver is made on the first call and kept for the following ones."""
    if _worker_solver is None or _worker_solver.table_bits != table_bits:
        _init_worker(table_bits, pooled=False)
    return solve_slots(task)


def centre_weight(heights: list[int]) -> int:
    """How far a shape's discs are from the centre column: smaller is built sooner."""
    return sum(height * abs(column - CENTRE) for column, height in enumerate(heights))


def centre_first_shapes(index: LevelIndex) -> list[int]:
    """The shapes of ``index`` by ``centre_weight``, then by number."""
    weights = [centre_weight(index.heights(shape)) for shape in range(index.shapes)]
    return sorted(range(index.shapes), key=lambda shape: (weights[shape], shape))


def tasks_to_do(level: LevelBook) -> Iterator[Task]:
    """One task per shape with ``UNSCORED`` slots, centre-heavy shapes first."""
    index = level.index
    patterns = len(index.patterns)
    for shape in centre_first_shapes(index):
        block = level.scores[shape * patterns : (shape + 1) * patterns]
        ranks = np.nonzero(block == UNSCORED)[0]
        if len(ranks):
            yield level.discs, (shape * patterns + ranks).astype(np.int64)


def _limited(tasks: Iterator[Task], max_slots: int | None) -> Iterator[Task]:
    """``tasks`` until ``max_slots`` slots are handed out (the last task cut to fit)."""
    if max_slots is None:
        yield from tasks
        return
    left = max_slots
    for discs, slots in tasks:
        if left <= 0:
            return
        yield discs, slots[:left]
        left -= len(slots)


def _start_level(discs: int, output: Path, log: Log) -> LevelBook:
    """The level to carry on: the output's, if it is one of this level, else an empty one."""
    check_output(output)
    if not output.exists():
        return LevelBook.empty(discs)
    try:
        level = load(output)
    except BookError as error:
        raise LevelBuildError(f"{output} is not a level book to carry on: {error}") from None
    if level.discs != discs:
        raise LevelBuildError(
            f"{output} is a level of {level.discs} discs, not {discs}: name another --output"
        )
    scored, positions = level.counts()
    log(f"resuming: {scored} of {positions} positions solved ({output})")
    return level


def _results(
    tasks: Iterator[Task], jobs: int, table_bits: int, cluster: Cluster | None
) -> Iterator[Done]:
    if cluster is not None:
        keyed = ((number, (task, table_bits)) for number, task in enumerate(tasks))
        for _, done in cluster.stream(solve_slots_with_table, keyed, per_cpu=CLUSTER_TASKS_PER_CPU):
            yield done
        return
    if jobs <= 1:
        _init_worker(table_bits, pooled=False)
        yield from map(solve_slots, tasks)
        return
    pool = worker_pool(jobs, _init_worker, (table_bits,))
    try:
        yield from awake(pool.imap_unordered(solve_slots, tasks))
    except BaseException:
        stop_pool(pool)  # Ctrl-C or an error: the workers' running solves are dropped
        raise
    finally:
        pool.close()
        pool.join()


def build_level(
    *,
    discs: int,
    output: Path,
    jobs: int = 1,
    table_bits: int = LEVEL_TABLE_BITS,
    log: Log = print,
    cluster: Cluster | None = None,
    checkpoint_seconds: float = CHECKPOINT_SECONDS,
    clock: Callable[[], float] = time.monotonic,
    max_slots: int | None = None,
) -> LevelBook:
    """Solve every position of ``discs`` discs not yet in ``output``; return the level written.

    ``output`` is written every ``checkpoint_seconds`` and at the end, however the
    build ends (Ctrl-C, a lost cluster, an error): a build started again carries on.
    ``max_slots`` stops after that many slots (a partial build, for tests and trials).
    ``LevelBuildError`` if ``output`` exists and is not a level book of ``discs``.
    """
    level = _start_level(discs, output, log)
    todo = int(np.count_nonzero(level.scores == UNSCORED))
    if max_slots is not None:
        todo = min(todo, max_slots)
    log(f"level {discs}: {level.index.slots} slots, {todo} to do")
    start = last_save = clock()
    done_slots = 0
    tasks = _limited(tasks_to_do(level), max_slots)
    try:
        for slots, scores in _results(tasks, jobs, table_bits, cluster):
            level.scores[slots] = scores
            done_slots += len(slots)
            now = clock()
            if now - last_save >= checkpoint_seconds:
                save(level, output)
                last_save = now
                scored, positions = level.counts()
                rate = done_slots / max(now - start, 1e-9)
                log(
                    f"  {done_slots}/{todo} slots done, {scored}/{positions} positions "
                    f"scored, {rate:.0f} slots/s (saved)"
                )
    finally:
        save(level, output)
    scored, positions = level.counts()
    state = "complete" if level.complete else "partial"
    log(f"level {discs}: {scored} of {positions} positions scored ({state}), written to {output}")
    return level
