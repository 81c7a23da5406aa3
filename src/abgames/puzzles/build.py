"""Building the packaged puzzle file: the shared puzzle sets, and the project's own.

Four sources, each written to its own file in a cache folder as it is made, so an
interrupted build starts again where it stopped (``build(..., cache=)``):

- ``intro``: ``gomoku/puzzles/intro_vcf.jsonl`` of the shared data (Renju VCF, black
  to move): the line is our VCF solver's, checked from its first move.
- ``quintet``: ``quintet_vcf.jsonl`` (Renju VCF/VCT tests of the quintet solver), the
  ones with a stated solution, one per position; the line is quintet's.
- ``mined``: Gomoku games the engine plays against itself (``abgames.arena``'s judge,
  easy against medium, and easy against itself); a position where the side to move had a VCF
  or VCT and its move let it go is a puzzle.
- ``connect4``: random Connect Four playouts; a position where exactly one column wins
  (the solver's exact scores) and the win is at most ``C4_MAX_MOVES`` moves away.

Every puzzle is checked the way the page checks a move (``check.judge``): its stored
line's first move, then each hint after the engine's defence, must keep the win to the
five or four, so the shipped file holds no puzzle that the page cannot see won.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from abgames.games.connect4 import ConnectFour
from abgames.games.gomoku import Gomoku
from abgames.puzzles import check
from abgames.puzzles.catalogue import VCF, VCT, WIN, Puzzle, dump_file

INTRO = "intro"
QUINTET = "quintet"
MINED = "mined"
CONNECT4 = "connect4"
SOURCES = (INTRO, QUINTET, MINED, CONNECT4)
SOURCE_NAMES = {
    INTRO: "lfz084 intro VCF (Renju)",
    QUINTET: "quintet solver tests (Renju)",
    MINED: "abgames engine games",
    CONNECT4: "abgames Connect Four solver",
}
#: Theme names shown on the page.
THEME_VCF = "VCF"
THEME_VCT = "VCT"
THEME_ONE_MOVE = "one winning move"

#: Puzzle ratings: a base per goal and a step per attacker move of the stored line.
BASE_RATING = {VCF: 900, VCT: 1300, WIN: 1000}
RATING_STEP = {VCF: 45, VCT: 90, WIN: 130}
MAX_RATING = 2600

#: Connect Four: plies of the random playouts, and the longest win kept (attacker moves).
C4_PLIES = (14, 32)
C4_MAX_MOVES = 5
#: Mined Gomoku: the board, the levels (weak side first), the per-move time.
MINED_OPTIONS: dict[str, Any] = {"size": 15, "rule": "freestyle"}
MINED_PAIRINGS = (("easy", "medium"), ("easy", "easy"))
MINED_TURN_MS = 300
#: Most attacker moves added to a stored line that stops before the five.
MAX_EXTRA_MOVES = 6
#: Most attacker moves a puzzle is played out to when it is checked (the longest
#: shipped VCF has 73).
MAX_PLAYED_OUT = 90
#: Shortest mined win kept (attacker moves, its five counted): a lone four is no puzzle.
MINED_MIN_MOVES = 3

Log = Callable[[str], None]


def rating_of(goal: str, length: int) -> int:
    return min(MAX_RATING, BASE_RATING[goal] + RATING_STEP[goal] * max(0, length - 1))


def _board_stones(rows: list[str]) -> tuple[list[int], list[int]]:
    size = len(rows)
    black = [y * size + x for y, row in enumerate(rows) for x, c in enumerate(row) if c == "X"]
    white = [y * size + x for y, row in enumerate(rows) for x, c in enumerate(row) if c == "O"]
    return black, white


def gomoku_puzzle(
    puzzle_id: str,
    state: Gomoku,
    source: str,
    line: tuple[int, ...],
    goal: str,
    note: str = "",
) -> Puzzle:
    black = [p for p in range(state.size * state.size) if state.board[p] == 1]
    white = [p for p in range(state.size * state.size) if state.board[p] == 2]
    line = completed(state, line)
    length = (len(line) + 1) // 2
    return Puzzle(
        id=puzzle_id,
        game=Gomoku.name,
        options={"size": state.size, "rule": str(state.rule)},
        position={"black": black, "white": white, "to_move": state.to_move},
        goal=goal,
        solution=line,
        source=SOURCE_NAMES[source],
        themes=(THEME_VCF if goal == VCF else THEME_VCT, SOURCE_NAMES[source]),
        rating=rating_of(goal, length),
        length=length,
        note=note,
    )


def completed(state: Gomoku, line: tuple[int, ...]) -> tuple[int, ...]:
    """``line`` carried on to the five: a solver's line may stop at the winning four
    (or four-three), and the page plays on to the five. The defender answers with the
    engine's best defence (``check.judge``), the attacker with the solver's move."""
    probe = state.copy()
    moves = list(line)
    try:
        for move in moves:
            probe.play(move)
    except ValueError:
        return line
    for _ in range(2 * MAX_EXTRA_MOVES):
        if probe.outcome() is not None:
            break
        if probe.to_move == state.to_move:
            win = check.gomoku_win(probe)
            if win is None:
                break
            move = win[1][0]
        else:
            probe.undo()
            verdict = check.judge(probe, moves[-1])
            probe.play(moves[-1])
            if verdict.reply is None:
                break
            move = verdict.reply
        probe.play(move)
        moves.append(move)
    return tuple(moves)


def replays(puzzle: Puzzle) -> bool:
    """Whether the stored line is legal and ends in the attacker's win."""
    try:
        state = puzzle.after(puzzle.solution)
    except ValueError:
        return False
    outcome = state.outcome()
    return outcome is not None and outcome.winner == puzzle.attacker


def sound(puzzle: Puzzle) -> bool:
    """Whether the stored line replays to a win and the page can be won from the start:
    its first move passes ``check.judge``, and so does each hint after the defender's
    answers (as the page plays it) until the win is on the board."""
    if not puzzle.solution or not replays(puzzle):
        return False
    state = puzzle.start()
    move: int | None = puzzle.solution[0]
    for _ in range(MAX_PLAYED_OUT):
        if move is None:
            return False
        verdict = check.judge(state, move)
        if verdict.verdict == check.SOLVED:
            return True
        if verdict.verdict != check.CORRECT or verdict.reply is None:
            return False
        state.play(move)
        state.play(verdict.reply)
        move = check.hint(state)
    return False


# --- the shared sets -------------------------------------------------------------


def intro_puzzles(path: Path, log: Log) -> Iterator[Puzzle]:
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        case = json.loads(text)
        black, white = _board_stones(case["board"])
        to_move = 0 if case["side_to_move"] == "black" else 1
        state = Gomoku.from_position(
            black, white, to_move, size=len(case["board"]), rule=case["rule"]
        )
        win = check.gomoku_win(state)
        if win is None:
            log(f"intro {number}: no win found, skipped")
            continue
        note = f"{case['source']} #{case['index']}"
        yield gomoku_puzzle(f"gi{number:03d}", state, INTRO, win[1], VCF, note)


def quintet_puzzles(path: Path, log: Log) -> Iterator[Puzzle]:
    seen: set[tuple[str, ...]] = set()
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        case = json.loads(text)
        key = (*case["board"], case["attacker"])
        if case["expected"] != "solution" or key in seen:
            continue
        seen.add(key)
        black, white = _board_stones(case["board"])
        to_move = 0 if case["attacker"] == "black" else 1
        state = Gomoku.from_position(
            black, white, to_move, size=len(case["board"]), rule=case["rule"]
        )
        line = tuple(state.point(step["x"], step["y"]) for step in case["solution"])
        goal = VCF if str(case["solver"]).startswith("VCF") else VCT
        note = f"{case['source']}: {case['name']}"
        yield gomoku_puzzle(f"gq{number:03d}", state, QUINTET, line, goal, note)


# --- mined Gomoku games ---------------------------------------------------------


def _mined_game(index: int, seed: int) -> list[int]:
    """One engine game (of the pairings in turn, each side first in turn): its moves."""
    from abgames.arena.engines import parse_engine_spec
    from abgames.arena.judge import GameTask, play_game

    rng = random.Random(seed)
    state = Gomoku(MINED_OPTIONS["size"], MINED_OPTIONS["rule"])
    centre = state.centre
    cx, cy = state.xy(centre)
    opening = [centre]
    while len(opening) < 3:
        point = state.point(cx + rng.randint(-2, 2), cy + rng.randint(-2, 2))
        if point not in opening:
            opening.append(point)
    pairing = MINED_PAIRINGS[index // 2 % len(MINED_PAIRINGS)]
    levels = pairing if index % 2 == 0 else pairing[::-1]
    specs = tuple(
        parse_engine_spec(f"level={level}", game=Gomoku.name, turn_ms=MINED_TURN_MS)
        for level in levels
    )
    record = play_game(
        GameTask(
            index=index,
            game=Gomoku.name,
            options=dict(MINED_OPTIONS),
            engines=(specs[0], specs[1]),
            opening=tuple(opening),
            seed=seed,
        )
    )
    replay = Gomoku(MINED_OPTIONS["size"], MINED_OPTIONS["rule"])
    moves = []
    for text in record.moves.split():
        move = replay.parse_move(text)
        replay.play(move)
        moves.append(move)
    return moves


def missed_wins(moves: list[int], game_number: int, log: Log) -> Iterator[Puzzle]:
    """Puzzles from one game: positions whose side to move had a win and let it go."""
    state = Gomoku(MINED_OPTIONS["size"], MINED_OPTIONS["rule"])
    found = 0
    for ply, move in enumerate(moves):
        if ply >= 4 and found < 2:
            win = check.gomoku_win(state)
            if win is not None and win[0] >= MINED_MIN_MOVES:
                verdict = check.judge(state, move)
                if verdict.verdict == check.WRONG:
                    goal = VCF if _has_vcf(state) else VCT
                    position = Gomoku.from_position(
                        [p for p in range(state.size**2) if state.board[p] == 1],
                        [p for p in range(state.size**2) if state.board[p] == 2],
                        state.to_move,
                        size=state.size,
                        rule=state.rule,
                    )
                    note = f"engine game {game_number}, move {ply + 1}"
                    puzzle_id = f"gm{game_number:03d}{ply:03d}"
                    yield gomoku_puzzle(puzzle_id, position, MINED, win[1], goal, note)
                    found += 1
        state.play(move)


def _has_vcf(state: Gomoku) -> bool:
    engine = check._gomoku_engine()
    return engine.solve(state, depth=check.VCF_DEPTH, nodes=check.VCF_NODES) is not None


# --- Connect Four ---------------------------------------------------------------


def _connect4_line(state: ConnectFour) -> tuple[int, ...]:
    """A winning line from ``state``: the attacker's fastest win, the defender's longest
    resistance, to the four."""
    probe = state.copy()
    line: list[int] = []
    while probe.outcome() is None:
        scores = check.connect4_scores(probe)
        legal = probe.legal_moves()
        column = max(legal, key=lambda c: (scores[c], -abs(c - 3)))
        probe.play(column)
        line.append(column)
    return tuple(line)


def connect4_puzzles(count: int, seed: int, log: Log) -> Iterator[Puzzle]:
    rng = random.Random(seed)
    made = 0
    seen: set[str] = set()
    tries = 0
    while made < count and tries < 200 * count:
        tries += 1
        state = ConnectFour()
        plies = rng.randint(*C4_PLIES)
        while state.ply < plies:
            quiet = [c for c in state.legal_moves() if not _wins_now(state, c)]
            if not quiet:
                break
            state.play(rng.choice(quiet))
        if state.outcome() is not None or state.ply < plies:
            continue
        notation = "".join(str(c + 1) for c in state.moves)
        if notation in seen:
            continue
        seen.add(notation)
        scores = check.connect4_scores(state)
        legal = state.legal_moves()
        winning = [c for c in legal if scores[c] > 0]
        if len(winning) != 1 or any(_wins_now(state, c) for c in legal):
            continue
        line = _connect4_line(state)
        length = (len(line) + 1) // 2
        if not 2 <= length <= C4_MAX_MOVES:
            continue
        made += 1
        yield Puzzle(
            id=f"c4{made:03d}",
            game=ConnectFour.name,
            options={"width": state.width, "height": state.height},
            position={"moves": notation},
            goal=WIN,
            solution=line,
            source=SOURCE_NAMES[CONNECT4],
            themes=(THEME_ONE_MOVE, SOURCE_NAMES[CONNECT4]),
            rating=rating_of(WIN, length),
            length=length,
            note=f"random playout of {state.ply} moves, seed {seed}",
        )


def _wins_now(state: ConnectFour, column: int) -> bool:
    probe = state.copy()
    probe.play(column)
    return probe.outcome() is not None


# --- the build ------------------------------------------------------------------


def _cached(cache: Path, name: str) -> list[Puzzle] | None:
    path = cache / f"{name}.jsonl"
    if not path.exists():
        return None
    return [Puzzle.from_json(json.loads(line)) for line in path.read_text().splitlines()]


def _keep(cache: Path, name: str, puzzles: list[Puzzle]) -> None:
    path = cache / f"{name}.jsonl"
    text = "".join(json.dumps(p.to_json(), ensure_ascii=False) + "\n" for p in puzzles)
    path.with_suffix(".tmp").write_text(text, encoding="utf-8")
    path.with_suffix(".tmp").replace(path)


def _checked(puzzles: Iterator[Puzzle], log: Log) -> list[Puzzle]:
    kept = []
    for puzzle in puzzles:
        if sound(puzzle):
            kept.append(puzzle)
        else:
            log(f"{puzzle.id}: the stored line does not check, skipped")
    return kept


def mine_games(cache: Path, games: int, seed: int, log: Log) -> list[Puzzle]:
    """Play ``games`` engine games (resumable: each game's moves kept in the cache as
    it ends) and collect their missed wins."""
    record = cache / "mined-games.jsonl"
    played = (
        [json.loads(line) for line in record.read_text().splitlines()] if record.exists() else []
    )
    with record.open("a", encoding="utf-8") as out:
        for index in range(len(played), games):
            start = time.perf_counter()
            moves = _mined_game(index, seed + index)
            played.append(moves)
            out.write(json.dumps(moves) + "\n")
            out.flush()
            log(
                f"engine game {index + 1}/{games}: {len(moves)} moves, "
                f"{time.perf_counter() - start:.1f} s"
            )
    puzzles: list[Puzzle] = []
    for number, moves in enumerate(played[:games], start=1):
        puzzles += _checked(missed_wins(moves, number, log), log)
    return puzzles


def build(
    shared: Path,
    out: Path,
    cache: Path,
    *,
    games: int = 300,
    connect4: int = 60,
    seed: int = 2026,
    log: Log = print,
) -> dict[str, int]:
    """Make the puzzle file ``out``; per source, the puzzles kept. Sources already in
    ``cache`` are reused (delete a source's file there to make it again)."""
    cache.mkdir(parents=True, exist_ok=True)
    data = shared / "gomoku" / "puzzles"
    makers: dict[str, Callable[[], list[Puzzle]]] = {
        INTRO: lambda: _checked(intro_puzzles(data / "intro_vcf.jsonl", log), log),
        QUINTET: lambda: _checked(quintet_puzzles(data / "quintet_vcf.jsonl", log), log),
        MINED: lambda: mine_games(cache, games, seed, log),
        CONNECT4: lambda: _checked(connect4_puzzles(connect4, seed, log), log),
    }
    everything: list[Puzzle] = []
    counts: dict[str, int] = {}
    for name in SOURCES:
        start = time.perf_counter()
        puzzles = _cached(cache, name)
        if puzzles is None:
            puzzles = makers[name]()
            _keep(cache, name, puzzles)
            log(f"{name}: {len(puzzles)} puzzles in {time.perf_counter() - start:.0f} s")
        else:
            log(f"{name}: {len(puzzles)} puzzles (kept from {cache})")
        counts[name] = len(puzzles)
        everything += puzzles
    about = {
        "made_by": "scripts/build_puzzles.py",
        "sources": {SOURCE_NAMES[name]: counts[name] for name in SOURCES},
        "engine_games": games,
        "seed": seed,
    }
    out.write_text(dump_file(everything, about), encoding="utf-8")
    return counts
