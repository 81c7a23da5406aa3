"""Where abgames lost its Gomoku games: the first move after which the opponent had a forced win.

Reads game records written by the arena (``gomoku_ladder.py --records DIR`` or
``abgames arena ... --records FILE``) and, for each game the side lost by a five,
replays it and asks the engine's threat solver (VCT: fours and open threes) after
each of the side's moves whether the opponent now wins by force:

- **lost at**: the side's first move after which the opponent has a VCT within
  ``--depth`` attacker moves and ``--nodes``; how many plies before the end that was,
  the length of the shortest VCT found then, and whether ``hard``'s defence check
  (``EngineSettings.defence_vct_depth`` and ``defence_nodes``) finds one too;
- with ``--alternatives``, how many of the side's moves within two points of a stone
  at that moment leave the opponent no VCT found. The solver is bounded by its nodes,
  so this is "none found", not "none": 0 says the game was lost earlier (or by a VCT
  the solver does not find), a few that a defence may have existed that only a check
  far deeper than ``hard``'s would have told from the rest;
- **missed win**: the side's first move at which it had a VCT of its own (a win it did
  not play through, as the game was lost).

Usage:
    python benchmarks/gomoku_losses.py RECORDS.jsonl [...] [--side NAME] \\
        [--depth 10] [--nodes 400000] [--alternatives]

``--side`` defaults to the side that is not named ``opponent`` (the ladder's brain).
The solver is given far more than a move's search has (ten attacker moves and 400,000
nodes against the defence check's six and 30,000): the report asks where a game was
lost, not what the engine could have seen in its time.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from statistics import median

from abgames.ai.gomoku.engine import GomokuEngine
from abgames.ai.gomoku.settings import EngineSettings
from abgames.ai.gomoku.starter import neighbourhood
from abgames.games.base import IllegalMoveError
from abgames.games.gomoku import DEFAULT_SIZE, Gomoku, Rule

#: The ladder's name for the external brain; the other side is reported by default.
OPPONENT_NAME = "opponent"
#: Attacker moves and nodes the solver may use to find a VCT (far past ``hard``'s).
DEFAULT_DEPTH = 10
DEFAULT_NODES = 400_000
#: The shortest VCT is looked for this many attacker moves deeper at a time.
VCT_DEPTH_STEP = 2
#: Nodes for each alternative move's check (``--alternatives``).
ALTERNATIVE_NODES = 200_000
#: A record's game ended by this reason when a five was made.
FIVE = "five"


class RecordError(ValueError):
    """A records file that cannot be read or replayed; the message says where."""


@dataclass(frozen=True)
class LostGame:
    """One game the side lost by a five, replayed."""

    game: int
    side_is_black: bool
    moves: tuple[int, ...]
    opening_length: int
    rule: Rule
    size: int


@dataclass(frozen=True)
class LossPoint:
    """The side's first move after which the opponent had a VCT.

    ``ply`` is that move's index in the game (0 = black's first stone), ``vct_moves``
    the VCT's length (its five counted), ``plies_to_end`` the plies from that move to
    the game's last, ``check_finds`` whether the defence check's depth and nodes find
    a VCT there too.
    """

    ply: int
    vct_moves: int
    plies_to_end: int
    check_finds: bool


def side_name(record: dict[str, object], wanted: str | None) -> str:
    """The reported side of ``record``: ``wanted``, else the one not named ``opponent``."""
    names = (str(record.get("first")), str(record.get("second")))
    if wanted is not None:
        if wanted not in names:
            raise RecordError(f"game {record.get('game')}: no side named {wanted!r} in {names}")
        return wanted
    others = [name for name in names if name != OPPONENT_NAME]
    if len(others) != 1:
        raise RecordError(
            f"game {record.get('game')}: sides {names}; say which to report with --side"
        )
    return others[0]


def lost_game(record: dict[str, object], side: str) -> LostGame | None:
    """``record`` replayed when ``side`` lost it by a five, else ``None``.

    ``RecordError`` when the record is not a Gomoku game or its moves are not legal.
    """
    if record.get("variant") != Gomoku.name:
        raise RecordError(f"game {record.get('game')}: not a Gomoku record")
    if record.get("reason") != FIVE or record.get("winner") in (None, side):
        return None
    options = record.get("options")
    if not isinstance(options, dict):
        options = {}
    try:
        rule = Rule(options.get("rule", Rule.FREESTYLE.value))
        size = int(options.get("size", DEFAULT_SIZE))
        state = Gomoku(size, rule)
        moves = tuple(state.parse_move(text) for text in str(record["moves"]).split())
        for move in moves:
            state.play(move)
        opening_length = len(str(record.get("opening", "")).split())
        number = int(str(record.get("game", 0)))
    except (KeyError, ValueError, IllegalMoveError) as error:
        raise RecordError(f"game {record.get('game')}: cannot replay it: {error}") from None
    return LostGame(
        game=number,
        side_is_black=record.get("first") == side,
        size=size,
        moves=moves,
        opening_length=opening_length,
        rule=rule,
    )


def _positions_after_own_moves(lost: LostGame) -> list[tuple[int, Gomoku]]:
    """(ply, the position after it) for each of the side's moves past the opening."""
    state = Gomoku(lost.size, lost.rule)
    positions = []
    for ply, move in enumerate(lost.moves):
        state.play(move)
        if ply >= lost.opening_length and (ply % 2 == 0) == lost.side_is_black:
            positions.append((ply, state.copy()))
    return positions


def loss_point(
    engine: GomokuEngine, lost: LostGame, depth: int, nodes: int, check: EngineSettings
) -> LossPoint | None:
    """The side's first move after which the opponent wins by a VCT the solver finds."""
    for ply, state in _positions_after_own_moves(lost):
        if state.is_over():
            continue
        found = shortest_vct(engine, state, depth, nodes)
        if found is not None:
            seen = engine.solve(
                state, depth=check.defence_vct_depth, threes=True, nodes=check.defence_nodes
            )
            return LossPoint(ply, found, len(lost.moves) - 1 - ply, seen is not None)
    return None


def shortest_vct(engine: GomokuEngine, state: Gomoku, depth: int, nodes: int) -> int | None:
    """The length (its five counted) of the shortest VCT the solver finds for the side to
    move within ``depth`` attacker moves, deepening ``VCT_DEPTH_STEP`` at a time (the
    solver returns the first line it finds, not the shortest); ``None`` if none."""
    deepest = engine.solve(state, depth=depth, threes=True, nodes=nodes)
    if deepest is None:
        return None
    for limit in range(VCT_DEPTH_STEP, depth, VCT_DEPTH_STEP):
        found = engine.solve(state, depth=limit, threes=True, nodes=nodes)
        if found is not None:
            return found.moves
    return deepest.moves


def safe_alternatives(engine: GomokuEngine, lost: LostGame, ply: int, depth: int) -> list[str]:
    """The side's moves at ``ply`` (within ``starter.NEIGHBOURHOOD`` of a stone) after which
    no opponent VCT is found."""
    state = Gomoku(lost.size, lost.rule)
    for move in lost.moves[:ply]:
        state.play(move)
    legal = set(state.legal_moves())
    safe = []
    for move in neighbourhood(state):
        if move not in legal:
            continue
        after = state.copy()
        after.play(move)
        if after.is_over() or (
            engine.solve(after, depth=depth, threes=True, nodes=ALTERNATIVE_NODES) is None
        ):
            safe.append(state.format_move(move))
    return safe


def missed_win(engine: GomokuEngine, lost: LostGame, depth: int, nodes: int) -> int | None:
    """The first ply past the opening at which the side, to move, had a VCT of its own."""
    state = Gomoku(lost.size, lost.rule)
    for ply, move in enumerate(lost.moves):
        own_turn = (ply % 2 == 0) == lost.side_is_black
        if (
            ply >= lost.opening_length
            and own_turn
            and not state.is_over()
            and engine.solve(state, depth=depth, threes=True, nodes=nodes) is not None
        ):
            return ply
        state.play(move)
    return None


def read_games(paths: list[Path]) -> list[dict[str, object]]:
    """Every record of ``paths``, in order; ``RecordError`` names a file or line that
    is not a JSON object."""
    records: list[dict[str, object]] = []
    for path in paths:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise RecordError(f"{path}: cannot read it: {error}") from None
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise RecordError(f"{path}:{number}: not JSON: {error.msg}") from None
            if not isinstance(record, dict):
                raise RecordError(f"{path}:{number}: not a game record")
            records.append(record)
    return records


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, nargs="+", help="arena records (JSON lines)")
    parser.add_argument("--side", help=f"the side to report (default: not {OPPONENT_NAME!r})")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="VCT attacker moves")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="solver nodes a check")
    parser.add_argument("--alternatives", action="store_true", help="count safe moves at the loss")
    args = parser.parse_args(argv)
    if args.depth < 1 or args.nodes < 1:
        parser.error("--depth and --nodes must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    check = EngineSettings()
    engine = GomokuEngine()
    try:
        records = read_games(args.records)
        replayed = [lost_game(r, side_name(r, args.side)) for r in records]
    except RecordError as error:
        print(f"gomoku_losses: {error}", file=sys.stderr)
        return 2
    lost = [game for game in replayed if game is not None]
    print(
        f"{len(records)} games, {len(lost)} lost by a five; VCT within {args.depth} attacker "
        f"moves and {args.nodes:,} nodes; defence check {check.defence_vct_depth} moves, "
        f"{check.defence_nodes:,} nodes"
    )
    points: list[LossPoint] = []
    missed = 0
    safe_counts: Counter[str] = Counter()
    for game in lost:
        point = loss_point(engine, game, args.depth, args.nodes, check)
        missed_at = missed_win(engine, game, args.depth, args.nodes)
        missed += missed_at is not None
        colour = "black" if game.side_is_black else "white"
        line = f"game {game.game:>4} ({colour}): "
        if point is None:
            line += "no VCT found"
        else:
            points.append(point)
            verdict = "finds" if point.check_finds else "misses"
            line += (
                f"lost at ply {point.ply} ({point.plies_to_end} plies before the end), "
                f"shortest VCT {point.vct_moves} moves, defence check {verdict} it"
            )
            if args.alternatives:
                safe = safe_alternatives(engine, game, point.ply, args.depth)
                safe_counts["none" if not safe else "1-3" if len(safe) <= 3 else "4+"] += 1
                line += f"; {len(safe)} safe moves" + (f" ({' '.join(safe[:6])})" if safe else "")
        if missed_at is not None:
            line += f"; missed a win of its own at ply {missed_at}"
        print(line, flush=True)
    if points:
        lengths = Counter(point.vct_moves for point in points)
        print(
            f"lost at a found VCT: {len(points)} of {len(lost)}; "
            f"plies before the end, median {median(p.plies_to_end for p in points):g}; "
            f"VCT lengths {dict(sorted(lengths.items()))}; "
            f"the defence check finds {sum(p.check_finds for p in points)}"
        )
    if args.alternatives:
        print(f"safe moves at the loss: {dict(safe_counts)}")
    print(f"missed wins of its own: {missed} of {len(lost)} lost games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
