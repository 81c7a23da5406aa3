"""Move quality as a stronger brain judges it: the evaluation each move gives away.

A ladder run of 160 games against Rapfi tells apart only differences of about 60
Elo. This benchmark scores moves rather than games, as chess players' average
centipawn loss does: a judge brain (Rapfi) scores a position before the side's move
(its own best move there) and after the side's move; what the move lost is the
difference, 0 where the side played the judge's move. Every position is a
measurement, so a few hundred positions resolve differences that thousands of games
would need; two variants measured on the same positions are compared move by move.

- **collect** (``--collect RECORDS --judge CMD --out FILE``): replays the games of
  ``gomoku_ladder.py --records`` and, at every ``--every``-th turn of the side past the
  opening, asks the judge (``BOARD``, ``--judge-ms`` a move) for its move and score.
  Left out: positions where the side must block a four (one move), and those the
  judge calls won or lost (``Eval +M19``): a move there decides nothing an evaluation
  measures.
- **measure** (the default, with ``--judge CMD``): each collected position searched by
  a level (``--level``, ``--search NAME=N`` as the arena's ``search.NAME=N``) for
  ``--time`` seconds, the whole time used, as in an engine match; the judge scores the
  position after a move that is not its own. A mate the judge announces after the
  move counts as ``DECIDED_SCORE`` either way. ``--out FILE`` keeps each position's
  loss; ``--concurrency`` positions run at once, each worker with its own judge.
- **compare** (``--compare A B``): two ``--out`` files of the same positions, the mean
  difference of their losses with its standard error.

Means are given with each loss capped at ``BLUNDER_LOSS`` (300): a mate given away
counts ±1,000, and a few of them would swamp the error of the mean.

The judge's score is its search's, not a truth: a loss is what the judge, thinking
``--judge-ms``, sees given away. Compare variants on one machine with one judge.

Usage:
    python benchmarks/gomoku_judge.py --collect DIR/rung1.jsonl \\
        --judge pbrain-rapfi2022-st-ndebug --out data/gomoku-judge/rapfi-300ms.jsonl
    python benchmarks/gomoku_judge.py --judge pbrain-rapfi2022-st-ndebug [--time 1] \\
        [--level hard] [--search move_count_base=5] [--out hard.jsonl] [--concurrency 2]
    python benchmarks/gomoku_judge.py --compare variant.jsonl hard.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import mean

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.engine import GomokuEngine
from abgames.ai.gomoku.player import LEVEL_SETTINGS
from abgames.ai.gomoku.settings import EngineSettings, with_search_overrides
from abgames.ai.gomoku.weights import eval_weights
from abgames.ai.readiness import prepare
from abgames.arena.engines import board_stones
from abgames.arena.teacher import started_brain
from abgames.arguments import integer, real
from abgames.files import write_atomically
from abgames.games.base import IllegalMoveError
from abgames.games.gomoku import DEFAULT_SIZE, Gomoku, Rule
from abgames.protocols.client import EngineError, GomocupClient
from abgames.search.limit import Limit

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))  # the records' reading is gomoku_losses's, a sibling script
from benchmarks.gomoku_losses import RecordError, read_games, side_name  # noqa: E402
from benchmarks.gomoku_wins import JUDGE_GRACE_SECONDS, overrides  # noqa: E402

DEFAULT_POSITIONS = REPO_ROOT / "data" / "gomoku-judge" / "rapfi-300ms.jsonl"
#: The judge's score of the side to move: ``Eval 133``, or a mate, ``Eval +M19`` /
#: ``Eval -M24`` (Rapfi's ``MESSAGE`` lines).
JUDGE_SCORE = re.compile(r"\bEval ([+-]?)(M?)(\d+)\b")
#: What a mate the judge announces counts for, in its evaluation's units (Rapfi's
#: scores of undecided positions stay within a few hundred).
DECIDED_SCORE = 1000
#: Losses from this many units on are counted as blunders in the report.
BLUNDER_LOSS = 300


class PositionsError(ValueError):
    """A positions or losses file that cannot be read; the message says where."""


@dataclass(frozen=True)
class JudgedPosition:
    """A position of a game with the side to move, the judge's move and score there.

    ``score`` is the judge's score for the side to move (not decided); ``game`` the
    record's number; ``size`` the board's (written only when not the default).
    """

    moves: str
    rule: Rule
    judge_move: str
    score: int
    game: int
    size: int = DEFAULT_SIZE

    def state(self) -> Gomoku:
        return Gomoku.from_notation(self.moves, size=self.size, rule=self.rule)

    def as_json(self) -> str:
        fields = {"moves": self.moves, "rule": self.rule.value, "judge_move": self.judge_move}
        size = {} if self.size == DEFAULT_SIZE else {"size": self.size}
        return json.dumps({**fields, "score": self.score, "game": self.game, **size})


#: A judge: (its move, its ``MESSAGE`` lines) for a position.
Judge = Callable[[Gomoku], tuple[str, list[str]]]


def judge_score(chatter: Sequence[str]) -> tuple[int, bool] | None:
    """The side to move's score the judge gave last, and whether it is a mate (then
    ``±DECIDED_SCORE``); ``None`` if it gave none."""
    for line in reversed(chatter):
        found = JUDGE_SCORE.findall(line)
        if found:
            sign, mate, number = found[-1]
            negative = sign == "-"
            if mate:
                return (-DECIDED_SCORE if negative else DECIDED_SCORE), True
            value = int(number)
            return max(-DECIDED_SCORE, min(DECIDED_SCORE, -value if negative else value)), False
    return None


def _must_block(state: Gomoku) -> bool:
    """Whether the side to move must block a four of the opponent's."""
    board = nb.new_board(state.size, state.rule)
    nb.load(board, state)
    opponent = 1 - int(board.info[nb.I_TO_MOVE])
    return bool(board.counts[opponent, pt.F5] > 0)


def collect_game(record: dict[str, object], judge: Judge, every: int) -> list[JudgedPosition]:
    """The positions of ``record`` where its side (the one not named ``opponent``) was to
    move past the opening, every ``every``-th such turn, with the judge's move and score;
    ``RecordError`` for a record that is not a Gomoku game or cannot be replayed."""
    if record.get("variant") != Gomoku.name:
        raise RecordError(f"game {record.get('game')}: not a Gomoku record")
    side_is_black = record.get("first") == side_name(record, None)
    options = record.get("options")
    options = options if isinstance(options, dict) else {}
    try:
        rule = Rule(options.get("rule", Rule.FREESTYLE.value))
        size = int(options.get("size", DEFAULT_SIZE))
        state = Gomoku(size, rule)
        moves = [state.parse_move(text) for text in str(record["moves"]).split()]
        opening_length = len(str(record.get("opening", "")).split())
        number = int(str(record.get("game", 0)))
    except (KeyError, ValueError) as error:
        raise RecordError(f"game {record.get('game')}: cannot replay it: {error}") from None
    positions = []
    turns = 0
    for ply, move in enumerate(moves):
        own_turn = (ply % 2 == 0) == side_is_black
        if ply >= opening_length and own_turn and not state.is_over():
            turns += 1
            if (turns - 1) % every == 0 and not _must_block(state):
                judge_move, chatter = judge(state)
                scored = judge_score(chatter)
                if scored is not None and not scored[1]:
                    positions.append(
                        JudgedPosition(state.notation(), rule, judge_move, scored[0], number, size)
                    )
        try:
            state.play(move)
        except IllegalMoveError as error:
            raise RecordError(f"game {number}: cannot replay it: {error}") from None
    return positions


def read_positions(path: Path) -> list[JudgedPosition]:
    """The positions of a file ``collect`` wrote; ``PositionsError`` names a bad line."""
    positions = []
    for number, entry in _json_lines(path):
        try:
            position = JudgedPosition(
                moves=str(entry["moves"]),
                rule=Rule(str(entry.get("rule", Rule.FREESTYLE.value))),
                judge_move=str(entry["judge_move"]),
                score=int(str(entry["score"])),
                game=int(str(entry.get("game", 0))),
                size=int(str(entry.get("size", DEFAULT_SIZE))),
            )
            position.state().parse_move(position.judge_move)
        except (KeyError, TypeError, ValueError, IllegalMoveError) as error:
            raise PositionsError(f"{path}:{number}: not a position: {error}") from None
        positions.append(position)
    return positions


def _json_lines(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise PositionsError(f"{path}: cannot read it: {error}") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as error:
            raise PositionsError(f"{path}:{number}: not JSON: {error}") from None
        if not isinstance(entry, dict):
            raise PositionsError(f"{path}:{number}: not a JSON object")
        yield number, entry


def move_loss(position: JudgedPosition, move: str, judge: Judge) -> int:
    """What ``move`` gives away in the judge's eyes: its score before the move less the
    side's score after it (the judge's own, negated); 0 for the judge's own move."""
    if move == position.judge_move:
        return 0
    after = position.state()
    after.play(after.parse_move(move))
    if after.is_over():  # the side made five: nothing given away
        return 0
    scored = judge_score(judge(after)[1])
    if scored is None:
        raise EngineError(f"the judge gave no score after {move} in game {position.game}")
    return position.score + scored[0]


def choose(position: JudgedPosition, settings: EngineSettings, seconds: float) -> str:
    """The level's move in ``position`` after ``seconds``, the whole time used."""
    state = position.state()
    move = None
    for result in GomokuEngine(settings).search(state, Limit(time=seconds), spend_all=True):
        move = result.move
    assert move is not None
    return state.format_move(move)


# --- one worker process: its own judge, started once ------------------------------------

_worker_judge: Judge | None = None
_worker_error = ""


def _judge_with(client: GomocupClient, judge_ms: int) -> Judge:
    """The judge: ``client`` (a started brain) asked one position at a time."""

    def judge(state: Gomoku) -> tuple[str, list[str]]:
        client.chatter.clear()
        x, y = client.board(board_stones(state), judge_ms / 1000 + JUDGE_GRACE_SECONDS)
        return state.format_move(state.point(x, y)), list(client.chatter)

    return judge


def _start_worker(command: str, size: int, rule: str, judge_ms: int, level: str) -> None:
    """A worker's judge, started once; a failure is kept for its first job to report
    (an initializer that raises would print a traceback and break the pool)."""
    global _worker_judge, _worker_error
    try:
        client = started_brain(shlex.split(command), size, Rule(rule), judge_ms)
    except (EngineError, OSError) as error:
        _worker_error = f"did not start: {error}"
        return
    _worker_judge = _judge_with(client, judge_ms)
    prepare("gomoku", level)  # the kernels ready before any clock runs


def _started_judge() -> Judge:
    if _worker_judge is None:
        raise EngineError(_worker_error)
    return _worker_judge


def _measure_one(job: tuple[JudgedPosition, EngineSettings, float]) -> tuple[str, int]:
    position, settings, seconds = job
    judge = _started_judge()
    move = choose(position, settings, seconds)
    return move, move_loss(position, move, judge)


def _collect_one(job: tuple[dict[str, object], int]) -> list[JudgedPosition]:
    record, every = job
    return collect_game(record, _started_judge(), every)


# --- reports ------------------------------------------------------------------------


def capped(loss: int) -> int:
    """``loss`` within ±``BLUNDER_LOSS``: a few mates given away or missed (±1000 each)
    otherwise swamp the mean's error."""
    return max(-BLUNDER_LOSS, min(BLUNDER_LOSS, loss))


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (0 for fewer than two)."""
    if not values:
        return 0.0, 0.0
    centre = mean(values)
    if len(values) < 2:
        return centre, 0.0
    variance = sum((v - centre) ** 2 for v in values) / (len(values) - 1)
    return centre, math.sqrt(variance / len(values))


def summary(losses: Sequence[int], same: int, label: str) -> str:
    """The report line: the mean loss with its standard error, capped and not, and how
    many moves lost ``BLUNDER_LOSS`` or more."""
    count = len(losses)
    raw, raw_error = mean_and_error(losses)
    cut, cut_error = mean_and_error([capped(loss) for loss in losses])
    blunders = sum(loss >= BLUNDER_LOSS for loss in losses)
    return (
        f"{label}: {count} positions, the judge's move in {same} "
        f"({100 * same / max(count, 1):.0f} %); mean loss {cut:.1f} ± {cut_error:.1f} "
        f"capped at {BLUNDER_LOSS} ({raw:.1f} ± {raw_error:.1f} not), "
        f"{blunders} of {BLUNDER_LOSS} or more"
    )


def paired(first: dict[str, int], second: dict[str, int]) -> tuple[int, float, float]:
    """(positions in both, the mean of first − second with each loss capped, its
    standard error)."""
    shared = sorted(set(first) & set(second))
    differences = [capped(first[key]) - capped(second[key]) for key in shared]
    centre, error = mean_and_error(differences)
    return len(differences), centre, error


def read_losses(path: Path) -> dict[str, int]:
    """A ``--out`` file of the measure mode: position (its moves) → loss."""
    losses = {}
    for number, entry in _json_lines(path):
        try:
            losses[str(entry["moves"])] = int(str(entry["loss"]))
        except (KeyError, TypeError, ValueError) as error:
            raise PositionsError(f"{path}:{number}: not a loss: {error}") from None
    return losses


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS)
    parser.add_argument("--judge", help="the judge brain's command")
    parser.add_argument("--judge-ms", type=integer, default=300)
    parser.add_argument("--time", type=real, default=1.0, help="seconds a position")
    parser.add_argument("--level", choices=sorted(LEVEL_SETTINGS), default="hard")
    parser.add_argument("--search", action="append", default=[], metavar="NAME=N")
    parser.add_argument(
        "--eval", action="append", default=[], metavar="NAME=N", help="an evaluation weight"
    )
    parser.add_argument("--collect", type=Path, nargs="+", metavar="RECORDS")
    parser.add_argument("--every", type=integer, default=2, help="every Nth turn (--collect)")
    parser.add_argument("--out", type=Path, help="positions (--collect) or losses to write")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"))
    parser.add_argument("--concurrency", type=integer, default=1)
    args = parser.parse_args(argv)
    if args.time <= 0 or args.judge_ms <= 0 or args.every < 1 or args.concurrency < 1:
        parser.error("--time, --judge-ms, --every and --concurrency must be positive")
    if args.compare is None and not args.judge:
        parser.error("--judge is needed, except with --compare")
    if args.collect and not args.out:
        parser.error("--collect needs --out")
    return args


def level_settings(args: argparse.Namespace) -> EngineSettings:
    """The level's settings with ``--search`` and ``--eval`` applied; ``ValueError``
    names a setting or weight that does not exist or a value it cannot take."""
    settings = LEVEL_SETTINGS[args.level][0]
    settings = with_search_overrides(settings, overrides(args.search))
    weights = overrides(args.eval, "--eval")
    eval_weights(dict(settings.eval_overrides + weights))  # refused here, not in a worker
    return replace(settings, eval_overrides=settings.eval_overrides + weights)


def _pool(args: argparse.Namespace, size: int, rule: Rule) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        args.concurrency,
        initializer=_start_worker,
        initargs=(args.judge, size, rule.value, args.judge_ms, args.level),
    )


def _collect(args: argparse.Namespace) -> int:
    records = read_games(args.collect)
    for record in records:
        side_name(record, None)  # each record names its side (RecordError if not)
    if not records:
        print("gomoku_judge: the records hold no game", file=sys.stderr)
        return 2
    options = records[0].get("options")
    options = options if isinstance(options, dict) else {}
    rule = Rule(options.get("rule", Rule.FREESTYLE.value))
    size = int(options.get("size", DEFAULT_SIZE))
    positions: dict[str, JudgedPosition] = {}  # a position met in several games once
    with _pool(args, size, rule) as pool:
        for found in pool.map(_collect_one, [(record, args.every) for record in records]):
            for position in found:
                positions.setdefault(position.moves, position)
    lines = "".join(p.as_json() + "\n" for p in positions.values())
    write_atomically(args.out, lines.encode())
    print(f"{len(records)} games judged, {len(positions)} positions written to {args.out}")
    return 0


def _measure(args: argparse.Namespace) -> int:
    positions = read_positions(args.positions)
    if not positions:
        print(f"gomoku_judge: {args.positions} holds no position", file=sys.stderr)
        return 2
    settings = level_settings(args)
    label = " ".join(
        [args.level, *(f"search.{text}" for text in args.search), *(f"eval.{t}" for t in args.eval)]
    )
    print(
        f"{label}, {args.time:g} s a position, {len(positions)} positions from "
        f"{args.positions.name}, judged at {args.judge_ms} ms",
        flush=True,
    )
    first = positions[0]
    jobs = [(position, settings, args.time) for position in positions]
    lines, losses, same = [], [], 0
    with _pool(args, first.size, first.rule) as pool:
        for position, (move, loss) in zip(positions, pool.map(_measure_one, jobs), strict=True):
            losses.append(loss)
            same += move == position.judge_move
            lines.append(json.dumps({"moves": position.moves, "move": move, "loss": loss}) + "\n")
    if args.out is not None:
        write_atomically(args.out, "".join(lines).encode())
    print(summary(losses, same, label))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.compare is not None:
            first, second = (read_losses(path) for path in args.compare)
            count, difference, error = paired(first, second)
            if count == 0:
                print("gomoku_judge: the two files share no position", file=sys.stderr)
                return 2
            names = f"{args.compare[0].name} − {args.compare[1].name}"
            print(
                f"{names}: {count} positions, mean loss difference {difference:+.1f} ± "
                f"{error:.1f} (losses capped at {BLUNDER_LOSS})"
            )
            return 0
        if args.collect:
            return _collect(args)
        return _measure(args)
    except (RecordError, PositionsError, ValueError) as error:
        print(f"gomoku_judge: {error}", file=sys.stderr)
        return 2
    except (EngineError, OSError, BrokenProcessPool) as error:
        print(f"gomoku_judge: the judge {args.judge!r} failed: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
