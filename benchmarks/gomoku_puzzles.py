"""Solve the shared Gomoku puzzle sets and print solved/total and mean time per set.

Usage: python benchmarks/gomoku_puzzles.py [--time SECONDS] [--limit N] [--lfz FILE ...]
       python benchmarks/gomoku_puzzles.py --pbrain [--busy] [--turn-ms 1000] [--limit N]

- intro_vcf: every puzzle has a VCF for the side to move. Two figures: *answered*
  (the VCF solver returned a win within the time limit, whatever its line) and
  *solved* (answered, and its first move is Rapfi's stated move or its whole line is
  checked winning by ``vcf_line_wins``, an independent check by the game's rules).
  An answered line that fails the check is printed as a false claim.
- quintet_vcf: VCF puzzles must be found within ``max_depth`` attacker moves when
  a solution is stated, and not found within ``max_depth`` when none exists; a
  found VCF counts only if its first move is the stated solution's or its line
  passes the check. The VCT lines are reported separately; a found VCT counts as
  *checked* only if ``vct_claim_holds`` proves it by the rules: every legal defender
  move is answered (the engine only proposes the attacker's moves), within the
  claimed number of attacker moves. A claim that fails it is printed as false.
  (One line contradicts another: quintet's ``test_vct_fukumi_move`` says "none
  within 7" under a threat limit the data does not record, beside its 7-move
  solution; at most 30 of the 31 VCT lines can be correct.)

- ``--symmetries``: every VCF problem (intro_vcf and ``--lfz``) is solved in the 8
  orientations of the board, so an order of the solver's that suits one orientation
  shows no better than it is.
- ``--lfz FILE ...``: the VCF problems of lfz084's puzzle files, counted as
  intro_vcf's (the line checked by the rules; they state no solution). The shared
  intro set comes from one of them (``入门-四追い_puzzle.json``); the larger set of
  issue 14 is three more in ``puzzle/json/`` of the public repository
  lfz084/lfz084.github.io: ``黑先VCF_puzzle.json`` (black to move, 504),
  ``白先VCF_puzzle.json`` (white, 548) and ``实战VCF.json`` (from real games, 678),
  all Renju.

- ``--pbrain``: instead of the solver in this process, each VCF problem (intro_vcf
  and ``--lfz``) is sent to a FRESH ``abgames pbrain`` process as a manager sends an
  opening (c-gomoku-cli, Piskvork): ``START``, then once it answers ``OK``, ``INFO
  rule``, ``INFO timeout_turn`` (``--turn-ms``, default 1000) and ``BOARD`` ... ``DONE``.
  Printed: the median, 95th percentile and maximum (with its problem) of the answer
  time (``DONE`` to the move), of ``START`` to ``OK`` and of the process's start to the
  move, and the solve rate:
  a move counts when it came within the turn limit and begins a VCF (a five, or a
  four after whose forced block this process's solver finds a VCF that
  ``vcf_line_wins`` checks). ``--busy`` keeps one core busy (a spinning child
  process) meanwhile, as on a machine where the opponent thinks too.

Puzzle data: ``$ABGAMES_SHARED_DATA/gomoku/puzzles`` (default ``../shared/data``
beside the repo). Times are wall-clock on a shared machine: run under ``nice`` and
read the node counts (``--nodes`` caps each solve) as the reproducible figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median, quantiles
from typing import IO, Any

from abgames.ai.gomoku.engine import GomokuEngine, SolverResult
from abgames.ai.gomoku.tables import S_VCF_NODES
from abgames.games.base import IllegalMoveError, Move
from abgames.games.gomoku import DIRECTIONS, EMPTY, Gomoku, Rule


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
DATA = SHARED_DATA / "gomoku" / "puzzles"
UNLIMITED_DEPTH = 200
#: Solver nodes a puzzle may use (the clock usually binds first).
DEFAULT_NODES = 50_000_000


def position(case: dict[str, Any], attacker: str) -> Gomoku:
    """The puzzle's board with ``attacker`` ("black"/"white") to move."""
    rows: list[str] = case["board"]
    state = Gomoku(len(rows), Rule(case.get("rule", "renju")))
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell in "XO":
                state.board[state.point(x, y)] = 1 if cell == "X" else 2
    state.to_move = 0 if attacker == "black" else 1
    # The engine replays ``moves``; a list of stones in any order gives the same board.
    state.moves = [p for p, stone in enumerate(state.board) if stone]
    state.key = state.compute_key()
    return state


def solve(
    engine: GomokuEngine, state: Gomoku, depth: int, threes: bool, seconds: float, nodes: int
) -> tuple[SolverResult | None, float, int]:
    """The solver's answer within ``seconds`` (a timer stops it), the time and nodes used."""
    timer = threading.Timer(seconds, engine.stop)
    start = time.perf_counter()
    timer.start()
    try:
        found = engine.solve(state, depth=depth, threes=threes, nodes=nodes)
    finally:
        timer.cancel()
    used = time.perf_counter() - start
    assert engine.tables is not None
    return found, used, int(engine.tables.stats[S_VCF_NODES])


def makes_five(state: Gomoku, point: Move, player: int) -> bool:
    """Whether ``player`` playing empty ``point`` makes a winning row under the rule."""
    stone = player + 1
    return any(
        state.wins_with_length(state.run_length(point, dx, dy, stone), player)
        for dx, dy in DIRECTIONS
    )


def five_points(state: Gomoku, player: int) -> list[Move]:
    return [
        p for p, stone in enumerate(state.board) if stone == EMPTY and makes_five(state, p, player)
    ]


def vcf_line_wins(state: Gomoku, line: tuple[Move, ...]) -> bool:
    """Whether the side to move wins by playing ``line``'s attacker moves (every other
    point) as continuous fours, whatever the defender does; checked by the game's
    rules alone (``Gomoku``), not the engine.

    Every attacker move must be legal, block any five point the defender has, and
    make a five or a four; the defender's reply is then forced (the single five
    point; the line's own defender moves are not trusted). The attacker has won on
    a five, on two five points, or when the forced block is forbidden (Renju black).
    """
    game = state.copy()
    attacker = game.to_move
    defender = 1 - attacker
    for move in line[::2]:
        threats = five_points(game, defender)
        if len(threats) > 1 or (threats and move != threats[0]):
            return False  # the defender fives first
        try:
            game.play(move)
        except IllegalMoveError:
            return False
        outcome = game.outcome()
        if outcome is not None:
            return outcome.winner == attacker
        fives = five_points(game, attacker)
        if not fives:
            return False  # not a four
        if len(fives) > 1 or (game.forbidden_kind(fives[0]) is not None and defender == 0):
            return True
        game.play(fives[0])
    # The line may stop before the final five (the solver's does): it must be there.
    return (
        game.to_move == attacker
        and not five_points(game, defender)
        and bool(five_points(game, attacker))
    )


# --- an independent check of a VCT claim ---------------------------------------------------
# The engine only proposes the attacker's moves; every legal defender move is answered,
# and wins, fives and forbidden points are read from the game's rules (``Gomoku``).

#: Solver nodes the check may give the engine for one attacker move.
CHECK_NODES = 2_000_000


def _line_five_points(game: Gomoku, point: Move, player: int) -> set[Move]:
    """``player``'s five points on the four lines through ``point`` (within 4 of it)."""
    stone = player + 1
    x, y = game.xy(point)
    found: set[Move] = set()
    for dx, dy in DIRECTIONS:
        for k in range(-4, 5):
            cx, cy = x + k * dx, y + k * dy
            if k == 0 or not game.on_board(cx, cy):
                continue
            cell = game.point(cx, cy)
            if game.board[cell] == EMPTY and game.wins_with_length(
                game.run_length(cell, dx, dy, stone), player
            ):
                found.add(cell)
    return found


def _near(game: Gomoku, point: Move, player: int) -> bool:
    """Whether ``player`` has a stone within 4 of ``point`` on one of its lines."""
    x, y = game.xy(point)
    for dx, dy in DIRECTIONS:
        for k in (-4, -3, -2, -1, 1, 2, 3, 4):
            cx, cy = x + k * dx, y + k * dy
            if game.on_board(cx, cy) and game.board[game.point(cx, cy)] == player + 1:
                return True
    return False


def _winning_fours(game: Gomoku, player: int) -> dict[Move, set[Move]]:
    """``player``'s legal moves that make two five points, each with those points
    (``player`` has no five point now)."""
    stone = player + 1
    wins: dict[Move, set[Move]] = {}
    for point in range(game.size * game.size):
        if game.board[point] != EMPTY or not _near(game, point, player):
            continue
        if player == 0 and game.forbidden_kind(point) is not None:
            continue
        game.board[point] = stone
        fives = _line_five_points(game, point, player)
        game.board[point] = EMPTY
        if len(fives) >= 2:
            wins[point] = fives
    return wins


def _still_wins(game: Gomoku, attacker: int, wins: dict[Move, set[Move]], reply: Move) -> bool:
    """Whether after the defender's ``reply`` some move of ``wins`` still makes two five
    points while the defender has none: the reply is then lost at once."""
    game.board[reply] = 2 - attacker  # the defender's stone
    try:
        if _line_five_points(game, reply, 1 - attacker):
            return False
        for point, fives in wins.items():
            if point == reply or reply in fives:
                continue
            if attacker == 0 and game.forbidden_kind(point) is not None:
                continue
            return True
        return False
    finally:
        game.board[reply] = EMPTY


def _attacker_wins(engine: GomokuEngine, game: Gomoku, attacker: int, moves: int) -> bool:
    """The attacker (to move) wins within ``moves`` of its moves (the five included)
    against every defence, playing the engine's solver moves."""
    defender = 1 - attacker
    if five_points(game, attacker):
        return moves >= 1
    threats = five_points(game, defender)
    if len(threats) > 1:
        return False
    if threats:
        move = threats[0]  # the forced block
    else:
        found = engine.solve(game, depth=moves - 1, threes=True, nodes=CHECK_NODES)
        if found is None or found.moves > moves or not found.line:
            return False
        move = found.line[0]
    try:
        game.play(move)
    except IllegalMoveError:
        return False
    try:
        outcome = game.outcome()
        if outcome is not None:
            return outcome.winner == attacker
        return _defence_fails(engine, game, attacker, moves - 1)
    finally:
        game.undo()


def _defence_fails(engine: GomokuEngine, game: Gomoku, attacker: int, moves: int) -> bool:
    """Every legal defender move (the defender is to move) loses within ``moves``."""
    defender = 1 - attacker
    if moves < 1 or five_points(game, defender):
        return False
    fives = five_points(game, attacker)
    if len(fives) > 1 or (fives and defender == 0 and game.forbidden_kind(fives[0]) is not None):
        return True
    replies: list[Move]
    if fives:
        replies = fives
    else:
        wins = _winning_fours(game, attacker)
        if not wins or moves < 2:
            return False  # nothing forces the defender
        replies = [
            point
            for point in range(game.size * game.size)
            if game.board[point] == EMPTY and not _still_wins(game, attacker, wins, point)
        ]
    for reply in replies:
        try:
            game.play(reply)
        except IllegalMoveError:
            continue  # forbidden to black: not a defence
        try:
            if not _attacker_wins(engine, game, attacker, moves):
                return False
        finally:
            game.undo()
    return True


def vct_claim_holds(engine: GomokuEngine, state: Gomoku, moves: int) -> bool:
    """Whether the side to move wins within ``moves`` attacker moves (the five
    included) whatever the defender does, by threats the engine's solver finds;
    every defender move is tried, the game's rules decide (slow, exhaustive)."""
    return _attacker_wins(engine, state.copy(), state.to_move, moves)


def counted(state: Gomoku, found: SolverResult | None, solution: Move | None) -> bool:
    """Whether an answer counts: its first move is the stated one, or its line is checked."""
    if found is None or not found.line:
        return False
    return found.line[0] == solution or vcf_line_wins(state, found.line)


def load(name: str) -> list[dict[str, Any]]:
    path = DATA / name
    if not path.exists():
        sys.exit(
            f"puzzle data not found: {path} (set ABGAMES_SHARED_DATA to the shared data folder)"
        )
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def rapfi_move(case: dict[str, Any], state: Gomoku) -> Move | None:
    """Rapfi's first move, if the case states one: ``rapfi_move`` is (x, y from the bottom)."""
    if "rapfi_move" not in case:
        return None
    x, y = case["rapfi_move"]
    return state.point(x, state.size - 1 - y)


#: lfz084's puzzle files: ``mode`` 32 is a VCF problem, ``side`` 1 black to move and 2
#: white, ``rule`` 1 freestyle and 2 Renju.
LFZ_VCF_MODE = 32
LFZ_SIDES = {1: "black", 2: "white"}
LFZ_RULES = {1: "freestyle", 2: "renju"}
LFZ_STONE = re.compile(r"([A-Za-z])(\d{1,2})")
LFZ_LABEL = re.compile(r"^//第(\d+)题模式$")


def lfz_cases(path: Path) -> list[dict[str, Any]]:
    """The VCF problems of one of lfz084's puzzle files (lfz084/lfz084.github.io,
    ``puzzle/json/*.json``) as cases of ``intro_vcf.jsonl``'s shape.

    Its ``stones`` are alternately black and white, black first, each a column letter
    and a row number from the bottom. Entries of another mode, or whose
    ``//第NNN题模式`` label names another mode (a "free play" page), are left out; the
    case's ``index`` is that label's number where there is one, else its place (from 1).
    """
    entries = json.loads(path.read_text(encoding="utf-8"))["puzzles"]
    cases: list[dict[str, Any]] = []
    for place, entry in enumerate(entries, start=1):
        label = next((m for m in map(LFZ_LABEL.match, entry) if m is not None), None)
        if entry.get("mode") != LFZ_VCF_MODE or (label and entry[label.string] != "VCF"):
            continue
        size = int(entry.get("size", 15))
        rows = [["."] * size for _ in range(size)]
        for number, (column, row) in enumerate(LFZ_STONE.findall(entry["stones"])):
            x, y = ord(column.upper()) - ord("A"), size - int(row)
            rows[y][x] = "X" if number % 2 == 0 else "O"
        index = int(label.group(1)) if label else place
        cases.append(
            {
                "index": index,
                "rule": LFZ_RULES[int(entry["rule"])],
                "side_to_move": LFZ_SIDES[int(entry["side"])],
                "board": ["".join(row) for row in rows],
            }
        )
    return cases


def turned(rows: list[str], symmetry: int) -> list[str]:
    """``rows`` (a square board, top row first) under one of its 8 symmetries: bit 0
    mirrors the columns, bit 1 the rows, bit 2 swaps the axes (after the mirrors)."""
    size = len(rows)
    out = [["."] * size for _ in range(size)]
    for y, row in enumerate(rows):
        for x, mark in enumerate(row):
            tx = size - 1 - x if symmetry & 1 else x
            ty = size - 1 - y if symmetry & 2 else y
            if symmetry & 4:
                tx, ty = ty, tx
            out[ty][tx] = mark
    return ["".join(row) for row in out]


def in_every_symmetry(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each case under the 8 symmetries of the board (index ``N/k``, ``k`` as in
    ``turned``; a stated first move is kept only for the case itself)."""
    out: list[dict[str, Any]] = []
    for case in cases:
        out.append({**case, "index": f"{case['index']}/0"})
        for symmetry in range(1, 8):
            variant = {k: v for k, v in case.items() if k != "rapfi_move"}
            variant["board"] = turned(case["board"], symmetry)
            variant["index"] = f"{case['index']}/{symmetry}"
            out.append(variant)
    return out


def vcf_set(
    engine: GomokuEngine, name: str, cases: list[dict[str, Any]], seconds: float, nodes: int
) -> None:
    """Solve VCF problems that each have a win for ``side_to_move``; print one line."""
    answered = solved = in_set = stated = 0
    total_time = 0.0
    total_nodes = 0
    worst: list[tuple[int, float, Any]] = []
    for case in cases:
        state = position(case, case["side_to_move"])
        found, used, spent = solve(engine, state, UNLIMITED_DEPTH, False, seconds, nodes)
        total_time += used
        total_nodes += spent
        worst.append((spent, used, case["index"]))
        if found is None or used > seconds:
            print(f"  unsolved: {name} #{case['index']} ({spent} nodes, {used:.3f} s)")
            continue
        answered += 1
        expected = rapfi_move(case, state)
        if expected is not None:
            stated += 1
            in_set += int(bool(found.line) and found.line[0] == expected)
        if counted(state, found, expected):
            solved += 1
        else:
            print(f"  FALSE CLAIM: {name} #{case['index']} line {found.line}")
    worst.sort(reverse=True)
    slowest = ", ".join(f"#{i} {n} nodes {t:.3f} s" for n, t, i in worst[:3])
    check = (
        f"first move Rapfi's {in_set}, the rest checked by the rules"
        if stated
        else "every line checked by the rules"
    )
    print(
        f"{name}: answered {answered}/{len(cases)} within {seconds:g} s each; "
        f"solved {solved}/{len(cases)} ({check}); mean {total_time / max(1, len(cases)):.3f} s, "
        f"{total_nodes / max(1, len(cases)):.0f} nodes; most nodes: {slowest}"
    )


def quintet(engine: GomokuEngine, seconds: float, nodes: int) -> None:
    cases = load("quintet_vcf.jsonl")
    tallies: dict[str, list[int]] = {"VCF": [0, 0, 0], "VCT": [0, 0, 0]}
    times: dict[str, float] = {"VCF": 0.0, "VCT": 0.0}
    for case in cases:
        kind = "VCT" if case["solver"].startswith("VCT") else "VCF"
        state = position(case, case["attacker"])
        depth = case["max_depth"] or UNLIMITED_DEPTH
        found, used, _ = solve(engine, state, depth, kind == "VCT", seconds, nodes)
        times[kind] += used
        expected = case["expected"] == "solution"
        loose = (found is not None) == expected
        if expected and found is not None:
            # quintet's depth counts the attacker's fours, not the final five.
            loose = found.moves - 1 <= depth
        strict = loose
        if loose and found is not None and kind == "VCF":
            first = state.parse_move(case["solution"][0]["move"])
            strict = counted(state, found, first)
        elif loose and found is not None:
            strict = vct_claim_holds(engine, state, found.moves)
        if found is not None and loose and not strict:
            print(f"  FALSE CLAIM: {case['name']} {case['solver']} depth {depth} line {found.line}")
        tallies[kind][0] += int(loose)
        tallies[kind][1] += int(strict)
        tallies[kind][2] += 1
        if not strict:
            print(
                f"  miss: {case['name']} {case['solver']} depth {depth} expected {case['expected']}"
            )
    for kind, (loose_count, strict_count, total) in tallies.items():
        print(
            f"quintet_vcf {kind}: correct {loose_count}/{total}, checked {strict_count}/{total}, "
            f"mean time {times[kind] / total:.3f} s"
        )


# --- a fresh brain per puzzle -----------------------------------------------------------

#: Gomocup's INFO rule bits for each rule name of the puzzle files.
PBRAIN_RULE_BITS = {"freestyle": 0, "standard": 1, "renju": 4}
#: How long a brain may take to say OK to START before the puzzle counts as failed.
START_TIMEOUT_SECONDS = 60.0
#: Solver nodes the check of an answer may use (untimed).
ANSWER_CHECK_NODES = 5_000_000
#: A busy loop for ``--busy``: the other core of a two-core machine spends its time here.
BUSY_LOOP = "while True: pass"


@dataclass
class BrainAnswer:
    """One fresh brain's answer to a puzzle: the move (``None``: no move), seconds from
    ``DONE`` to the move, from ``START`` to ``OK`` and from the spawn to the move."""

    move: Move | None
    answer_seconds: float
    start_seconds: float
    total_seconds: float


def _read_reply(stdout: IO[str]) -> str:
    """The next line that is not a MESSAGE or DEBUG line ('' at the end of output)."""
    while True:
        line = stdout.readline()
        if not line or not line.startswith(("MESSAGE", "DEBUG")):
            return line.strip()


def ask_fresh_brain(command: list[str], state: Gomoku, turn_ms: int) -> BrainAnswer:
    """Start ``command`` (a pbrain), send ``state`` as a manager sends an opening and
    read the brain's move. The brain's stones are the side to move's; black's are
    listed first (the first stone listed is black's)."""
    spawned = time.perf_counter()
    brain = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert brain.stdin is not None and brain.stdout is not None
    try:
        brain.stdin.write(f"START {state.size}\n")
        brain.stdin.flush()
        started = time.perf_counter()
        if _read_reply(brain.stdout) != "OK":
            return BrainAnswer(None, float("inf"), float("inf"), float("inf"))
        start_seconds = time.perf_counter() - started
        own = 1 if state.to_move == 0 else 2  # field of black's stones
        lines = [
            f"INFO rule {PBRAIN_RULE_BITS[state.rule.value]}",
            f"INFO timeout_turn {turn_ms}",
            "BOARD",
        ]
        for stone, field in ((1, own), (2, 3 - own)):
            for point in (p for p, s in enumerate(state.board) if s == stone):
                x, y = state.xy(point)
                lines.append(f"{x},{y},{field}")
        brain.stdin.write("\n".join(lines) + "\n")
        brain.stdin.flush()
        brain.stdin.write("DONE\n")
        brain.stdin.flush()
        asked = time.perf_counter()
        reply = _read_reply(brain.stdout)
        answered = time.perf_counter()
        move: Move | None = None
        if re.fullmatch(r"[0-9]+,[0-9]+", reply):
            x, y = (int(v) for v in reply.split(","))
            move = state.point(x, y) if state.on_board(x, y) else None
        return BrainAnswer(move, answered - asked, start_seconds, answered - spawned)
    finally:
        try:
            brain.stdin.write("END\n")
            brain.stdin.close()
        except OSError:
            pass
        try:
            brain.wait(timeout=5)
        except subprocess.TimeoutExpired:
            brain.kill()
            brain.wait()


def begins_vcf(engine: GomokuEngine, state: Gomoku, move: Move) -> bool:
    """Whether ``move`` by the side to move begins a VCF: a five, or a four whose forced
    block leaves a VCF the solver finds and ``vcf_line_wins`` checks (untimed)."""
    if state.board[move] != EMPTY:
        return False
    line: tuple[Move, ...] = (move,)
    if vcf_line_wins(state, line):
        return True  # a five, two five points, or a block black may not play
    game = state.copy()
    try:
        game.play(move)
    except IllegalMoveError:
        return False
    fives = five_points(game, state.to_move)
    if len(fives) != 1:
        return False  # not a four (two five points were counted above)
    game.play(fives[0])
    found = engine.solve(game, depth=UNLIMITED_DEPTH, nodes=ANSWER_CHECK_NODES)
    return found is not None and vcf_line_wins(state, (move, fives[0], *found.line))


def percentile_95(values: list[float]) -> float:
    return quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]


def pbrain_set(
    engine: GomokuEngine,
    name: str,
    cases: list[dict[str, Any]],
    command: list[str],
    turn_ms: int,
) -> None:
    """Each case to a fresh brain (``ask_fresh_brain``); print the times and solve rate."""
    answers: list[BrainAnswer] = []
    solved = 0
    for case in cases:
        state = position(case, case["side_to_move"])
        answer = ask_fresh_brain(command, state, turn_ms)
        answers.append(answer)
        in_time = answer.answer_seconds <= turn_ms / 1000.0
        good = answer.move is not None and begins_vcf(engine, state, answer.move)
        solved += int(in_time and good)
        if not (in_time and good):
            shown = "no move" if answer.move is None else state.format_move(answer.move)
            print(
                f"  unsolved: {name} #{case['index']} {shown} "
                f"in {answer.answer_seconds:.3f} s ({'a VCF' if good else 'no VCF'})"
            )
    for title, values in (
        ("answer (DONE to move)", [a.answer_seconds for a in answers]),
        ("START to OK", [a.start_seconds for a in answers]),
        ("spawn to move", [a.total_seconds for a in answers]),
    ):
        slowest = max(range(len(values)), key=values.__getitem__)
        print(
            f"{name}: {title}: median {median(values):.3f} s, p95 {percentile_95(values):.3f} s, "
            f"max {values[slowest]:.3f} s (#{cases[slowest]['index']})"
        )
    print(
        f"{name}: solved {solved}/{len(cases)} ({100.0 * solved / max(1, len(cases)):.1f} %) "
        f"by a fresh brain each, within {turn_ms} ms a move"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per puzzle")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="solver nodes per puzzle")
    parser.add_argument("--limit", type=int, default=None, help="only the first N intro puzzles")
    parser.add_argument(
        "--lfz",
        nargs="+",
        type=Path,
        default=[],
        metavar="FILE",
        help="also solve the VCF problems of these lfz084 puzzle files (see above)",
    )
    parser.add_argument(
        "--symmetries",
        action="store_true",
        help="solve each VCF problem in the 8 orientations of the board",
    )
    parser.add_argument(
        "--pbrain",
        action="store_true",
        help="send each VCF problem to a fresh 'abgames pbrain' process instead (see above)",
    )
    parser.add_argument("--level", default=None, help="the brain's --level (with --pbrain)")
    parser.add_argument(
        "--turn-ms", type=int, default=1000, help="INFO timeout_turn (with --pbrain)"
    )
    parser.add_argument(
        "--busy", action="store_true", help="keep one core busy meanwhile (with --pbrain)"
    )
    args = parser.parse_args()
    engine = GomokuEngine()
    warm = Gomoku(15, Rule.RENJU)
    engine.solve(warm, depth=2)  # compile or load the kernels outside the timings
    if not args.pbrain:
        quintet(engine, args.time, args.nodes)
    sets = [("intro_vcf", load("intro_vcf.jsonl")[: args.limit])]
    sets += [(path.stem, lfz_cases(path)) for path in args.lfz]
    command = [sys.executable, "-m", "abgames", "pbrain"]
    if args.level is not None:
        command += ["--level", args.level]
    busy = subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) if args.busy else None
    try:
        for name, cases in sets:
            if args.symmetries:
                name, cases = f"{name} (8 symmetries)", in_every_symmetry(cases)
            if args.pbrain:
                pbrain_set(engine, name, cases, command, args.turn_ms)
            else:
                vcf_set(engine, name, cases, args.time, args.nodes)
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()


if __name__ == "__main__":
    main()
