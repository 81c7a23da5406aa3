"""Forced wins a stronger brain saw in games abgames lost: how many a search finds in time.

Against Rapfi at 1 s a move the games are decided by forced lines that Rapfi
announces (``Eval -M24``: the side to move is mated in 24 plies) long before ``hard``
sees them. This benchmark measures that gap directly, in a few minutes rather than
the ladder's half hour:

- **collect** (``--collect RECORDS --judge CMD``): replays each game the side lost by a
  five (``gomoku_ladder.py --records``), sends the positions where the side was to
  move to the judge brain (``BOARD`` with ``--judge-ms`` a move), and at the first one
  the judge calls lost writes the position after the side's move there: the judge's
  side is then to move and wins in at most ``N - 1`` plies. A game whose move there
  made a four is left out (the reply is forced and answered without a search).
- **measure** (the default): searches each collected position with a level
  (``--level``, and ``--search NAME=N`` for the settings the arena takes as
  ``search.NAME=N``) for ``--time`` seconds, the whole time used, and reports which
  wins the search proves (a won score) and after how long. The times depend on the
  machine: compare variants on one machine, one after the other.
- **solve** (``--solve DEPTH --nodes N``): the root VCT solver alone, ``DEPTH``
  attacker moves and ``N`` solver nodes a position: the depth-first one, or with
  ``--search proof_vct=1`` the proof-number one (``ai/gomoku/proof.py``).

Usage:
    python benchmarks/gomoku_wins.py --collect DIR/rung1.jsonl --judge pbrain-rapfi2022-st-ndebug \\
        --out data/gomoku-wins/rapfi-announced.jsonl
    python benchmarks/gomoku_wins.py [--positions FILE] [--time 1] [--level hard] \\
        [--search move_count_base=3]
    python benchmarks/gomoku_wins.py --solve 16 --nodes 300000 [--search proof_vct=1]
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import median

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku import tables as kt
from abgames.ai.gomoku.engine import GomokuEngine
from abgames.ai.gomoku.player import LEVEL_SETTINGS
from abgames.ai.gomoku.settings import EngineSettings, with_search_overrides
from abgames.ai.readiness import prepare
from abgames.arena.engines import board_stones
from abgames.arena.teacher import read_score, started_brain
from abgames.arguments import integer, real
from abgames.files import write_atomically
from abgames.games.base import IllegalMoveError
from abgames.games.gomoku import DEFAULT_SIZE, Gomoku, Rule
from abgames.protocols.client import EngineError, GomocupClient
from abgames.search.limit import Limit
from abgames.search.score import WIN_THRESHOLD

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))  # the records' replay is gomoku_losses's, a sibling script
from benchmarks.gomoku_losses import RecordError, lost_game, read_games, side_name  # noqa: E402

DEFAULT_POSITIONS = REPO_ROOT / "data" / "gomoku-wins" / "rapfi-announced.jsonl"
#: A judge's announcement that the side to move is mated in N plies (Rapfi's ``Eval -M24``).
MATED_IN = re.compile(r"\bEval -M(\d+)\b")
#: Seconds a judge may take past its turn before it is given up on.
JUDGE_GRACE_SECONDS = 2.0


class PositionsError(ValueError):
    """A positions file that cannot be read; the message says where."""


@dataclass(frozen=True)
class WinPosition:
    """A position whose side to move wins by force, as the judge announced.

    ``moves`` in the game's notation from the empty board; ``mate_plies`` the judge's
    bound on the plies to the five (the side to move's first move counted); ``game``
    the record's game number; ``size`` the board's (written only when not the default).
    """

    moves: str
    rule: Rule
    mate_plies: int
    game: int
    size: int = DEFAULT_SIZE

    def state(self) -> Gomoku:
        return Gomoku.from_notation(self.moves, size=self.size, rule=self.rule)

    def as_json(self) -> str:
        fields = {"moves": self.moves, "rule": self.rule.value, "mate_plies": self.mate_plies}
        size = {} if self.size == DEFAULT_SIZE else {"size": self.size}
        return json.dumps({**fields, "game": self.game, **size})


@dataclass(frozen=True)
class Attempt:
    """One position searched: when the search first proved the win (seconds, depth,
    nodes), or ``None``; and the deepest depth it finished. For the solver alone
    (``solve_attempt``): seconds, attacker moves and solver nodes; its depth."""

    position: WinPosition
    found: tuple[float, int, int] | None
    depth: int


def mated_in(chatter: Sequence[str]) -> int | None:
    """The plies to the side to move's loss that the judge announced last, if any."""
    return read_score(chatter, MATED_IN)


def _forced_reply(state: Gomoku) -> bool:
    """Whether the side to move must block a four (the side that just moved made one)."""
    board = nb.new_board(state.size, state.rule)
    nb.load(board, state)
    mover = 1 - int(board.info[nb.I_TO_MOVE])
    return bool(board.counts[mover, pt.F5] > 0)


def collect_game(
    record: dict[str, object], judge: Callable[[Gomoku], list[str]]
) -> WinPosition | None:
    """The position after the side's move at the first of its turns that ``judge`` (the
    brain's ``MESSAGE`` lines for a position) called lost; ``None`` if the side did
    not lose the game by a five, no turn was called lost, or the move made a four.
    ``RecordError`` for a record that cannot be replayed."""
    lost = lost_game(record, side_name(record, None))
    if lost is None:
        return None
    state = Gomoku(lost.size, lost.rule)
    for ply, move in enumerate(lost.moves):
        own_turn = (ply % 2 == 0) == lost.side_is_black
        if ply >= lost.opening_length and own_turn and not state.is_over():
            plies = mated_in(judge(state))
            if plies is not None:
                state.play(move)
                if state.is_over() or _forced_reply(state):
                    return None
                return WinPosition(
                    moves=state.notation(),
                    rule=lost.rule,
                    mate_plies=plies - 1,
                    game=lost.game,
                    size=lost.size,
                )
        state.play(move)
    return None


def read_positions(path: Path) -> list[WinPosition]:
    """The positions of a file ``collect`` wrote; ``PositionsError`` names a bad line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise PositionsError(f"{path}: cannot read it: {error}") from None
    positions = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            position = WinPosition(
                moves=str(entry["moves"]),
                rule=Rule(entry.get("rule", Rule.FREESTYLE.value)),
                mate_plies=int(entry["mate_plies"]),
                game=int(entry.get("game", 0)),
                size=int(entry.get("size", DEFAULT_SIZE)),
            )
            position.state()
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, IllegalMoveError) as error:
            raise PositionsError(f"{path}:{number}: not a position: {error}") from None
        positions.append(position)
    return positions


def attempt(position: WinPosition, settings: EngineSettings, seconds: float) -> Attempt:
    """``position`` searched with ``settings`` for ``seconds``, the whole time used."""
    engine = GomokuEngine(settings)
    start = time.perf_counter()
    found = None
    depth = 0
    for result in engine.search(position.state(), Limit(time=seconds), spend_all=True):
        depth = max(depth, result.depth)
        if found is None and result.score >= WIN_THRESHOLD:
            found = (time.perf_counter() - start, result.depth, result.nodes)
    return Attempt(position, found, depth)


def solve_attempt(
    position: WinPosition, settings: EngineSettings, depth: int, nodes: int
) -> Attempt:
    """``position`` given to the root VCT solver of ``settings`` (``proof_vct`` says
    which): ``found`` is (seconds, attacker moves, solver nodes) of a win proved."""
    engine = GomokuEngine(settings)
    start = time.perf_counter()
    found = engine.solve(position.state(), depth=depth, threes=True, nodes=nodes)
    elapsed = time.perf_counter() - start
    assert engine.tables is not None  # made by ``solve``
    spent = int(engine.tables.stats[kt.S_VCF_NODES])
    return Attempt(position, None if found is None else (elapsed, found.moves, spent), depth)


def report(attempts: list[Attempt], label: str, seconds: float | None) -> str:
    """The summary line: wins found (within the time, when one is given), and when."""
    times = sorted(a.found[0] for a in attempts if a.found is not None)
    within = "" if seconds is None else f" within {seconds:g} s"
    line = f"{label}: {len(times)} of {len(attempts)} wins found{within}"
    if times:
        line += f"; median {median(times):.2f} s, slowest {times[-1]:.2f} s"
    return line


def _judge_with(client: GomocupClient, judge_ms: int) -> Callable[[Gomoku], list[str]]:
    """The judge: ``client`` (a started brain) asked one position at a time."""

    def judge(state: Gomoku) -> list[str]:
        client.chatter.clear()
        client.board(board_stones(state), judge_ms / 1000 + JUDGE_GRACE_SECONDS)
        return list(client.chatter)

    return judge


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS)
    parser.add_argument("--time", type=real, default=1.0, help="seconds a position")
    parser.add_argument("--level", choices=sorted(LEVEL_SETTINGS), default="hard")
    parser.add_argument("--search", action="append", default=[], metavar="NAME=N")
    parser.add_argument("--collect", type=Path, nargs="+", metavar="RECORDS")
    parser.add_argument("--judge", help="the judge brain's command (with --collect)")
    parser.add_argument("--judge-ms", type=integer, default=1000)
    parser.add_argument("--out", type=Path, help="the positions file to write (with --collect)")
    parser.add_argument(
        "--games", type=integer, help="lost games to judge, the first (default all)"
    )
    parser.add_argument(
        "--solve", type=integer, metavar="DEPTH", help="the root VCT solver alone, this deep"
    )
    parser.add_argument("--nodes", type=integer, default=300_000, help="solver nodes (--solve)")
    args = parser.parse_args(argv)
    if args.time <= 0 or args.judge_ms <= 0 or (args.games is not None and args.games < 1):
        parser.error("--time, --judge-ms and --games must be positive")
    if (args.solve is not None and args.solve < 1) or args.nodes < 1:
        parser.error("--solve and --nodes must be positive")
    if args.collect and not (args.judge and args.out):
        parser.error("--collect needs --judge and --out")
    return args


def overrides(texts: list[str], option: str = "--search") -> tuple[tuple[str, int], ...]:
    """``NAME=N`` texts of ``option`` as (name, value) pairs; ``ValueError`` for one that
    is not (gomoku_judge's ``--eval`` too)."""
    pairs = []
    for text in texts:
        name, _, value = text.partition("=")
        try:
            pairs.append((name, int(value)))
        except ValueError:
            raise ValueError(f"{option} {text!r}: give NAME=N with a whole number") from None
    return tuple(pairs)


def _collect(records: list[dict[str, object]], args: argparse.Namespace) -> int:
    """``--collect``: judge the lost games of ``records`` and write the positions."""
    try:
        lost = [r for r in records if lost_game(r, side_name(r, None)) is not None]
    except RecordError as error:
        print(f"gomoku_wins: {error}", file=sys.stderr)
        return 2
    lost = lost[: args.games] if args.games is not None else lost
    if not lost:
        print("gomoku_wins: no game in the records was lost by a five", file=sys.stderr)
        return 2
    first = lost_game(lost[0], side_name(lost[0], None))
    assert first is not None
    positions = []
    try:
        client = started_brain(shlex.split(args.judge), first.size, first.rule, args.judge_ms)
    except (EngineError, OSError) as error:
        print(f"gomoku_wins: the judge {args.judge!r} did not start: {error}", file=sys.stderr)
        return 2
    try:
        judge = _judge_with(client, args.judge_ms)
        for record in lost:
            position = collect_game(record, judge)
            if position is not None:
                positions.append(position)
                plies = position.mate_plies
                print(
                    f"game {position.game}: the judge's side wins within {plies} plies", flush=True
                )
    except EngineError as error:
        print(f"gomoku_wins: the judge failed: {error}", file=sys.stderr)
        return 2
    finally:
        client.end()
    write_atomically(args.out, "".join(p.as_json() + "\n" for p in positions).encode())
    print(f"{len(lost)} lost games judged, {len(positions)} positions written to {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.collect:
        try:
            records = read_games(args.collect)
        except RecordError as error:
            print(f"gomoku_wins: {error}", file=sys.stderr)
            return 2
        return _collect(records, args)
    try:
        positions = read_positions(args.positions)
        settings = with_search_overrides(LEVEL_SETTINGS[args.level][0], overrides(args.search))
    except (PositionsError, ValueError) as error:
        print(f"gomoku_wins: {error}", file=sys.stderr)
        return 2
    label = " ".join([args.level, *(f"search.{text}" for text in args.search)])
    prepare("gomoku", args.level)  # the kernels compiled or loaded before any clock runs
    source = args.positions.name
    if args.solve is not None:
        solver = "proof numbers" if settings.proof_vct else "depth first"
        label += f", VCT by {solver}, {args.solve} moves, {args.nodes:,} nodes"
        print(f"{label}, {len(positions)} positions from {source}")
    else:
        print(f"{label}, {args.time:g} s a position, {len(positions)} positions from {source}")
    attempts = []
    for position in positions:
        if args.solve is not None:
            result = solve_attempt(position, settings, args.solve, args.nodes)
        else:
            result = attempt(position, settings, args.time)
        attempts.append(result)
        if result.found is None:
            verdict = "not found" if args.solve else f"not found (depth {result.depth})"
        elif args.solve is not None:
            seconds, moves, nodes = result.found
            verdict = f"proved in {seconds:.2f} s, {moves} moves, {nodes:,} nodes"
        else:
            seconds, depth, nodes = result.found
            verdict = f"found in {seconds:.2f} s at depth {depth}, {nodes:,} nodes"
        print(
            f"  game {position.game:>4}, mate in {position.mate_plies:>2} plies: {verdict}",
            flush=True,
        )
    print(report(attempts, label, None if args.solve is not None else args.time))
    return 0


if __name__ == "__main__":
    sys.exit(main())
