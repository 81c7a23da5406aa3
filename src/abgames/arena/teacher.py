"""Positions from arena games, scored by a teacher: an external Gomocup brain.

``sample_positions`` takes positions from the games of arena records files.
``label_positions`` sends each quiet one (``features.is_quiet``) to the brain with
``BOARD`` and reads the score from the ``MESSAGE`` lines it writes while thinking
(the last match of ``score_pattern``; the default reads ``score 123`` as
``pbrain-abgames`` writes it, and ``估值: 123`` as Rapfi 2018 does). Scores are
from the side to move's view.

Labels go to a JSON-lines file, one ``{"moves", "score"}`` object a line, flushed as
each arrives: a run stopped in any way loses at most the positions under way, and
the same call resumes it (positions already labelled are skipped; a torn last line
is ignored). Positions the brain scores with no matching line are left out and
counted; a brain that dies is restarted. On a Ray cluster (``label_positions(...,
cluster=...)``) batches of positions are tasks, each scored by a brain started on its
node (the brain's command must work on every node), and the labels are written here
as each batch comes back.
"""

from __future__ import annotations

import io
import json
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku.features import is_quiet
from abgames.arena.engines import GAME_TYPE_ENGINE, RULE_BITS, board_stones
from abgames.arena.records import read_records
from abgames.files import open_output, read_lines
from abgames.games.base import IllegalMoveError
from abgames.games.gomoku import Gomoku, Rule
from abgames.protocols.client import EngineError, GomocupClient

if TYPE_CHECKING:
    from abgames.cluster import Cluster

#: Reads ``score -12`` (pbrain-abgames) and ``估值: -12`` (Rapfi 2018).
DEFAULT_SCORE_PATTERN = r"(?:score|估值)[:\s]+([+-]?\d+)"
#: Games are sampled from this many moves on (openings are the book's, not play).
DEFAULT_FIRST_PLY = 8
#: One position every this many moves, so both colours are to move in turn.
DEFAULT_EVERY = 2
#: Time a brain has to set up and answer beyond its move limit, in seconds.
ANSWER_GRACE_SECONDS = 5.0
#: ``timeout_match`` and ``time_left`` told to the brain: no game clock to keep.
UNLIMITED_MATCH_MS = 1_000_000_000
#: The largest labels file read, and its longest line (a full 22x22 game takes ~2 KB).
MAX_LABELS_BYTES = 1 << 30
MAX_LABEL_LINE_BYTES = 1 << 16


class TeacherError(ValueError):
    """Labelling that cannot start: the message says why."""


@dataclass(frozen=True)
class Label:
    """A position (moves from the empty board) and the teacher's score of it."""

    moves: str
    score: int


@dataclass
class LabelRun:
    """What a labelling call did."""

    labelled: int = 0  # new labels written
    skipped_loud: int = 0  # positions not quiet, never sent
    unscored: int = 0  # answered without a score the pattern reads
    failures: int = 0  # the brain died, timed out or refused


def sample_positions(
    paths: Iterable[Path],
    *,
    size: int = 15,
    rule: Rule = Rule.FREESTYLE,
    first_ply: int = DEFAULT_FIRST_PLY,
    every: int = DEFAULT_EVERY,
) -> list[str]:
    """Distinct positions (move strings) of the Gomoku games of ``size`` and ``rule``
    in the records files ``paths``: from ``first_ply`` moves on, one every
    ``every``, up to the move before the last. In the order first met."""
    wanted = Gomoku(size, rule).options()
    seen: dict[str, None] = {}
    for path in paths:
        try:
            games = read_records(path)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise TeacherError(f"cannot read the records file {path}: {reason}") from None
        for game in games:
            if game.get("variant") != Gomoku.name or game.get("options", {}) != wanted:
                continue
            moves = str(game.get("moves", "")).split()
            for ply in range(first_ply, len(moves) - 1, every):
                seen.setdefault(" ".join(moves[:ply]), None)
    return list(seen)


def load_labels(path: Path) -> list[Label]:
    """The labels in ``path`` (none if it does not exist); a torn line is skipped.

    ``OSError`` for a file that is not a regular one (a FIFO, ``/dev/zero``), over
    ``MAX_LABELS_BYTES`` or with a line over ``MAX_LABEL_LINE_BYTES``.
    """
    labels = []
    try:
        for line in read_lines(path, limit=MAX_LABELS_BYTES, line_limit=MAX_LABEL_LINE_BYTES):
            try:
                entry = json.loads(line.decode("utf-8"))
                labels.append(Label(str(entry["moves"]), int(entry["score"])))
            except (ValueError, KeyError, TypeError, RecursionError):
                continue
    except FileNotFoundError:
        return []
    return labels


def read_score(chatter: Sequence[str], pattern: re.Pattern[str]) -> int | None:
    """The last score ``pattern`` finds in the brain's ``MESSAGE`` lines, if any."""
    for line in reversed(chatter):
        found = pattern.findall(line)
        if found:
            return int(found[-1])
    return None


def started_brain(command: Sequence[str], size: int, rule: Rule, turn_ms: int) -> GomocupClient:
    """A brain started for one position at a time: ``START``, then ``turn_ms`` a move and
    no match limit under ``rule``. ``EngineError`` (the process killed) if it refuses."""
    client = GomocupClient(command)
    try:
        client.start(size)
    except EngineError:
        client.kill()
        raise
    client.info("timeout_turn", turn_ms)
    client.info("timeout_match", UNLIMITED_MATCH_MS)
    client.info("time_left", UNLIMITED_MATCH_MS)
    client.info("game_type", GAME_TYPE_ENGINE)
    client.info("rule", RULE_BITS[rule])
    return client


class _Teacher:
    """One brain process, restarted when it fails."""

    def __init__(self, command: Sequence[str], state: Gomoku, turn_ms: int) -> None:
        self.command = command
        self.size = state.size
        self.rule = state.rule
        self.turn_ms = turn_ms
        self.client: GomocupClient | None = None

    def _started(self) -> GomocupClient:
        if self.client is None:
            self.client = started_brain(self.command, self.size, self.rule, self.turn_ms)
        return self.client

    def chatter_for(self, state: Gomoku) -> list[str]:
        """The brain's ``MESSAGE`` lines while it chose a move in ``state``."""
        client = self._started()
        client.chatter.clear()
        try:
            client.board(board_stones(state), self.turn_ms / 1000 + ANSWER_GRACE_SECONDS)
        except EngineError:
            self.close()
            raise
        return list(client.chatter)

    def close(self) -> None:
        if self.client is not None:
            self.client.end()
            self.client = None


#: What became of one position sent to label (``score_position``).
LABELLED, LOUD, UNSCORED, FAILED = "labelled", "loud", "unscored", "failed"
#: Positions one cluster task scores with one brain, so its start-up is paid once a batch.
CLUSTER_BATCH = 16


def _compiled(score_pattern: str) -> re.Pattern[str]:
    try:
        pattern = re.compile(score_pattern)
    except re.error as error:
        raise TeacherError(f"the score pattern {score_pattern!r} is not valid: {error}") from None
    if pattern.groups != 1:
        raise TeacherError(f"the score pattern {score_pattern!r} needs exactly one group")
    return pattern


def score_position(
    teacher: _Teacher, board: nb.Board, template: Gomoku, moves: str, pattern: re.Pattern[str]
) -> tuple[str, int | None, str]:
    """(``LABELLED`` and the score, or ``LOUD``, ``UNSCORED`` or ``FAILED``; the
    brain's error) for one position."""
    try:
        state = Gomoku.from_notation(moves, **template.options())
    except (IllegalMoveError, ValueError):
        return LOUD, None, ""
    nb.load(board, state)
    if state.outcome() is not None or not is_quiet(board):
        return LOUD, None, ""
    try:
        chatter = teacher.chatter_for(state)
    except EngineError as error:
        return FAILED, None, str(error)
    score = read_score(chatter, pattern)
    return (UNSCORED, None, "") if score is None else (LABELLED, score, "")


def label_batch(
    command: Sequence[str],
    batch: Sequence[str],
    turn_ms: int,
    size: int,
    rule: str,
    score_pattern: str,
) -> list[tuple[str, str, int | None, str]]:
    """(moves, outcome, score, error) for each position of ``batch``, scored by one
    brain ``command`` started for the batch (a cluster task: ``Cluster.stream``)."""
    template = Gomoku(size, Rule(rule))
    teacher = _Teacher(command, template, turn_ms)
    board = nb.new_board(size, Rule(rule))
    pattern = _compiled(score_pattern)
    try:
        return [
            (moves, *score_position(teacher, board, template, moves, pattern)) for moves in batch
        ]
    finally:
        teacher.close()


def label_positions(
    command: Sequence[str],
    positions: Sequence[str],
    labels_path: Path,
    *,
    turn_ms: int,
    size: int = 15,
    rule: Rule = Rule.FREESTYLE,
    workers: int = 1,
    score_pattern: str = DEFAULT_SCORE_PATTERN,
    limit: int | None = None,
    progress: Callable[[LabelRun], None] | None = None,
    cluster: Cluster | None = None,
) -> LabelRun:
    """Label the quiet ``positions`` not yet in ``labels_path`` with the brain
    ``command`` at ``turn_ms`` a move, ``workers`` brains at once (or, on ``cluster``,
    one per task of ``CLUSTER_BATCH`` positions, as many as it has CPUs), up to
    ``limit`` new labels; appends to ``labels_path`` as each arrives. ``TeacherError``
    for a pattern that does not compile or a brain that cannot start at all."""
    pattern = _compiled(score_pattern)
    done = {label.moves for label in load_labels(labels_path)}
    todo = [moves for moves in positions if moves not in done]
    pending = iter(todo)
    run = LabelRun()
    lock = threading.Lock()
    labels_path.parent.mkdir(parents=True, exist_ok=True)
    template = Gomoku(size, rule)
    start_failures: list[str] = []

    def record(out: TextIO, moves: str, outcome: str, score: int | None, error: str) -> None:
        """Count one answer (under ``lock``) and write a label."""
        if outcome == LOUD:
            run.skipped_loud += 1
        elif outcome == UNSCORED:
            run.unscored += 1
        elif outcome == FAILED:
            run.failures += 1
            if run.labelled == 0 and run.failures >= 3:
                start_failures.append(error)
                for _ in pending:  # the others stop too
                    pass
        else:
            out.write(json.dumps({"moves": moves, "score": score}) + "\n")
            out.flush()
            run.labelled += 1
            if progress is not None:
                progress(run)

    def work(out: TextIO) -> None:
        teacher = _Teacher(command, template, turn_ms)
        board = nb.new_board(size, rule)
        try:
            while True:
                with lock:
                    moves = next(pending, None)
                    if moves is None or (limit is not None and run.labelled >= limit):
                        return
                answer = score_position(teacher, board, template, moves, pattern)
                with lock:
                    record(out, moves, *answer)
        finally:
            teacher.close()

    with io.TextIOWrapper(open_output(labels_path, append=True), encoding="utf-8") as out:
        if cluster is not None:
            batches = [todo[i : i + CLUSTER_BATCH] for i in range(0, len(todo), CLUSTER_BATCH)]
            jobs = (
                (index, (tuple(command), batch, turn_ms, size, rule.value, score_pattern))
                for index, batch in enumerate(batches)
            )

            def stop() -> bool:
                return bool(start_failures) or (limit is not None and run.labelled >= limit)

            for _, answers in cluster.stream(label_batch, jobs, stop=stop):
                for moves, outcome, score, error in answers:
                    if limit is not None and run.labelled >= limit and outcome == LABELLED:
                        continue
                    record(out, moves, outcome, score, error)
        else:
            threads = [threading.Thread(target=work, args=(out,)) for _ in range(max(1, workers))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    if start_failures:
        raise TeacherError(f"the teacher {' '.join(command)} fails: {start_failures[0]}")
    return run
