"""Gomoku ladder: abgames against an external Gomocup brain at several strengths.

Reproduces issue 14's table ("Rapfi at 1,000 / 5,000 / 20,000 nodes a move, and at
1 s a move") against any brain given by its command, with the project's own arena
(``abgames.arena``): each opening of ``--openings`` is played twice, colours
swapped, and every rung prints W/D/L, the score and the Elo difference with its
95 % interval from abgames' side.

Usage:
    python benchmarks/gomoku_ladder.py --engine "/path/to/pbrain-rapfi" \\
        --nodes 1000 5000 20000 --time 1 --games 10 --rule freestyle \\
        [--openings FILE] [--ours level=hard,time=1] [--concurrency 1]

- ``--nodes N ...``: one rung a node cap; the brain is told ``INFO max_node N``
  and ``INFO thread_num 1`` (Yixin-Board extensions that Rapfi and
  ``pbrain-abgames`` read) and gets ``--node-turn-ms`` a move as a safety limit.
- ``--time S ...``: one rung a per-move time (``INFO timeout_turn``), one thread.
- ``--ours``: abgames' side as an arena spec (default ``level=hard,time=1``,
  which thinks in the arena's process; ``cmd=pbrain-abgames`` also works).
- Openings default to the shared piskvork set (freestyle, standard) or the
  shared renju26 set (renju). Games run ``--concurrency`` at a time: on a
  loaded machine keep it at 1 and say so with the figures.
- ``--records DIR`` keeps every game as JSON lines (one file a rung).

Under each row: how the games ended, and abgames' W-D-L as black and as white
(Renju's black is much the stronger side). Each row also gives the brain's think
time (from the arena's clock), so a node cap can be read as time: the share of its
moves answered within ``INSTANT_MS`` (forced replies, wins already found: about half
of a strong brain's moves), then the median and the slowest of the others (a median
of all moves lands on either side of that split by chance). A brain that ignores
``max_node`` (Rapfi's 2018 Gomocup version does) thinks to its safety limit instead:
when its searched moves' median takes ``IGNORED_CAP_SHARE`` of ``--node-turn-ms`` or
more, the rung is flagged.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from statistics import median_high

from abgames.arena.engines import EngineSpec, parse_engine_spec
from abgames.arena.judge import GameRecord
from abgames.arena.openings import OpeningError, load_offset_openings
from abgames.arena.records import RecordWriter
from abgames.arena.runner import ArenaResult, ArenaSettings, PairResult, run_arena
from abgames.arena.stats import describe_elo
from abgames.games.gomoku import Gomoku, Rule


def _shared_data() -> Path:
    """``$ABGAMES_SHARED_DATA``, else the first ``shared/data`` beside the repo or above it."""
    if "ABGAMES_SHARED_DATA" in os.environ:
        return Path(os.environ["ABGAMES_SHARED_DATA"])
    here = Path(__file__).resolve()
    for folder in here.parents[1].parents:
        if (folder / "shared" / "data").is_dir():
            return folder / "shared" / "data"
    return here.parents[1].parent / "shared" / "data"


SHARED_DATA = _shared_data()
DATA = SHARED_DATA / "gomoku" / "openings"
DEFAULT_OPENINGS = {
    Rule.FREESTYLE: DATA / "piskvork_openings_offset.txt",
    Rule.STANDARD: DATA / "piskvork_openings_offset.txt",
    Rule.RENJU: DATA / "renju26_offset.txt",
}
DEFAULT_OURS = "level=hard,time=1"
#: Per-move safety limit of a node-capped brain (the cap, not the clock, should bind).
DEFAULT_NODE_TURN_MS = 10_000
#: The game's limit for engines whose spec sets none (the brain's time rungs set theirs).
DEFAULT_TURN_MS = 1000
#: A node rung whose brain's searched moves take this share of its safety limit or more
#: (their median) was bound by the clock, not by the cap.
IGNORED_CAP_SHARE = 0.5
#: A brain's move answered within this many ms was forced or already found, not searched.
INSTANT_MS = 50


@dataclass(frozen=True)
class Rung:
    """One opponent setting: its label and the brain's arena spec."""

    label: str
    spec: str
    #: The brain's per-move safety limit on a node rung; ``None`` on a time rung.
    cap_turn_ms: int | None = None


def rungs(engine: str, nodes: list[int], times: list[float], node_turn_ms: int) -> list[Rung]:
    """The opponent settings asked for: node caps first (weakest first), then times."""
    result = []
    for count in sorted(nodes):
        result.append(
            Rung(
                f"{count:,} nodes a move",
                f"cmd={engine},name=opponent,turn_ms={node_turn_ms},max_node={count},thread_num=1",
                node_turn_ms,
            )
        )
    for seconds in sorted(times):
        result.append(
            Rung(f"{seconds:g} s a move", f"cmd={engine},name=opponent,time={seconds},thread_num=1")
        )
    return result


def settings_for(
    ours: EngineSpec, rung: Rung, rule: Rule, openings: Path, games: int, concurrency: int
) -> ArenaSettings:
    """The arena settings of one rung: ``ours`` first, so tallies are from its side."""
    opponent = parse_engine_spec(rung.spec, game=Gomoku.name, turn_ms=DEFAULT_TURN_MS)
    options: dict[str, object] = {"rule": rule.value}
    book, _ = load_offset_openings(openings, options)
    return ArenaSettings(
        game=Gomoku.name,
        options=options,
        engines=(ours, opponent),
        games=games,
        openings=tuple(book),
        concurrency=concurrency,
    )


def think_times_ms(records: list[GameRecord], name: str) -> list[int]:
    """How long ``name`` took for each of its moves in ``records`` (the moves after
    each opening; the first is the side to move after it)."""
    times: list[int] = []
    for record in records:
        if name not in record.players:
            continue
        first = len(record.opening.split()) % 2
        side = record.players.index(name)
        times.extend(t for i, t in enumerate(record.move_times_ms) if (first + i) % 2 == side)
    return times


def by_colour(records: list[GameRecord], name: str) -> str:
    """``name``'s wins, draws and losses as black and as white in ``records`` (black is
    the first player: it placed the opening's first stone)."""
    tallies = [[0, 0, 0], [0, 0, 0]]  # black, white: wins, draws, losses
    for record in records:
        if name not in record.players:
            continue
        side = record.players.index(name)
        outcome = 1 if record.winner is None else 0 if record.winner == side else 2
        tallies[side][outcome] += 1
    return ", ".join(
        f"{colour} {wins}-{draws}-{losses}"
        for colour, (wins, draws, losses) in zip(("black", "white"), tallies, strict=True)
    )


def searched(times: list[int]) -> list[int]:
    """The think times of the moves not answered at once (``INSTANT_MS`` or more)."""
    return [t for t in times if t >= INSTANT_MS]


def describe_times(times: list[int]) -> str:
    """``N% instant, median / slowest ms`` of the searched moves, or ``-`` for no moves."""
    if not times:
        return "-"
    slow = searched(times)
    instant = f"{round(100 * (len(times) - len(slow)) / len(times))}% instant"
    if not slow:
        return instant
    return f"{instant}, {median_high(slow)} / {max(slow)} ms"


def ignored_cap(rung: Rung, times: list[int]) -> str | None:
    """A warning when a node rung's brain thought as if it had no cap, else ``None``."""
    slow = searched(times)
    if rung.cap_turn_ms is None or not slow:
        return None
    middle = median_high(slow)
    if middle < IGNORED_CAP_SHARE * rung.cap_turn_ms:
        return None
    return (
        f"    warning: the brain's searched moves took {middle} ms (median) of its "
        f"{rung.cap_turn_ms} ms safety limit: it seems to ignore INFO max_node, so this "
        "rung is not a node cap"
    )


def row(rung: Rung, pair: PairResult, times: list[int]) -> str:
    t = pair.tally
    return (
        f"| {rung.label:<22} | {t.wins:>3} {t.draws:>3} {t.losses:>3} | "
        f"{100 * t.score:5.1f}% | {describe_elo(t):<20} | {describe_times(times):>28} |"
    )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, metavar="CMD", help="the brain's command")
    parser.add_argument("--nodes", type=int, nargs="+", default=[], metavar="N")
    parser.add_argument("--time", type=float, nargs="+", default=[], metavar="S")
    parser.add_argument("--games", type=int, default=10, help="games per rung (default 10)")
    parser.add_argument("--rule", choices=[r.value for r in Rule], default=Rule.FREESTYLE.value)
    parser.add_argument("--openings", type=Path, help="Gomocup offset file (default: shared set)")
    parser.add_argument("--ours", default=DEFAULT_OURS, help=f"default {DEFAULT_OURS}")
    parser.add_argument("--node-turn-ms", type=int, default=DEFAULT_NODE_TURN_MS)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--records", type=Path, help="folder for the games (JSON lines)")
    args = parser.parse_args(argv)
    if not args.nodes and not args.time:
        parser.error("give at least one rung: --nodes N ... and/or --time S ...")
    if any(n < 1 for n in args.nodes) or any(not 0 < s <= 3600 for s in args.time):
        parser.error("--nodes must be positive and --time within (0, 3600] seconds")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rule = Rule(args.rule)
    openings = args.openings or DEFAULT_OPENINGS[rule]
    try:
        ours = parse_engine_spec(args.ours, game=Gomoku.name, turn_ms=DEFAULT_TURN_MS)
        ladder = rungs(args.engine, args.nodes, args.time, args.node_turn_ms)
        plans = [
            settings_for(ours, rung, rule, openings, args.games, args.concurrency)
            for rung in ladder
        ]
    except (ValueError, OpeningError) as error:
        print(f"gomoku_ladder: {error}", file=sys.stderr)
        return 2
    print(
        f"{ours.name} ({args.ours}) vs {args.engine}, {rule.value}, {args.games} games a rung "
        f"from {openings.name} (colours swapped), concurrency {args.concurrency}"
    )
    lines = []
    for index, (rung, settings) in enumerate(zip(ladder, plans, strict=True)):
        writer = None
        if args.records is not None:
            args.records.mkdir(parents=True, exist_ok=True)
            writer = RecordWriter(args.records / f"rung{index + 1}.jsonl")
        try:
            result: ArenaResult = run_arena(settings, writer)
        finally:
            if writer is not None:
                writer.close()
        pair = result.pairs[0]
        times = think_times_ms(result.records, settings.engines[1].name)
        lines.append(row(rung, pair, times))
        print(lines[-1], flush=True)
        if pair.endings:
            print(f"    endings: {pair.describe_endings()}", flush=True)
        print(f"    {ours.name} by colour: {by_colour(result.records, ours.name)}", flush=True)
        warning = ignored_cap(rung, times)
        if warning is not None:
            print(warning, flush=True)
    print()
    print(
        "| opponent | W D L | score | Elo [95% CI] "
        "| opponent's moves: instant, searched median / slowest |"
    )
    print("|---|---|---|---|---|")
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
