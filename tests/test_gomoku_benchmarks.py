"""The Gomoku benchmark scripts: the ladder against an external brain, the speed
benchmark's rule, the puzzle benchmark's independent check of a VCF line, the
report of where lost games were lost, the forced wins a judge brain announced, and the
moves' losses a judge brain sees."""

from __future__ import annotations

import importlib.util
import json
import shlex
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from abgames.ai.gomoku.engine import GomokuEngine, SolverResult
from abgames.arena.engines import parse_engine_spec
from abgames.arena.judge import GameRecord
from abgames.games.gomoku import Gomoku, Rule
from abgames.search.limit import Limit
from abgames.search.result import SearchResult
from conftest import RANDOM_BRAIN, needs_shared_data

REPO_ROOT = Path(__file__).resolve().parent.parent


def load_script(name: str) -> ModuleType:
    """A script of ``benchmarks/`` as a module (the folder is not on the path)."""
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


ladder = load_script("gomoku_ladder")
losses = load_script("gomoku_losses")
puzzles = load_script("gomoku_puzzles")
speed = load_script("gomoku_speed")
profile = load_script("gomoku_profile")
wins = load_script("gomoku_wins")
judging = load_script("gomoku_judge")


def test_speed_searches_its_positions_under_the_rule_asked_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    searched: list[Rule] = []
    search = GomokuEngine.search

    def recording_search(self: GomokuEngine, state: Gomoku, limit: Limit) -> Iterator[SearchResult]:
        searched.append(state.rule)
        return search(self, state, limit)

    monkeypatch.setattr(GomokuEngine, "search", recording_search)
    speed.fixed_depth(2, 1, "renju")
    out = capsys.readouterr().out
    assert searched == [Rule.RENJU] * 2 * len(speed.POSITIONS)  # with and without leaf VCF
    assert out.count("depth 2, renju") == 2 and out.count("nodes/s (best of 1)") == 2


def test_speed_reads_depth_and_nodes_from_our_brain_and_rapfis_messages() -> None:
    ours = [
        "MESSAGE depth 6 score +1306 nodes 82922 time 0.15s pv 8,6 7,8",
        "MESSAGE depth 7 score +934 nodes 191222 time 0.47s pv 8,6 7,8 6,9",
    ]
    assert speed.peer_figures(ours) == (7, 191222)
    rapfi = ["MESSAGE Speed 1281 | Depth 17-32 | Eval 211 | Node 1243K | Time 970ms"]
    assert speed.peer_figures(rapfi) == (17, 1_243_000)
    assert speed.peer_figures(["MESSAGE thinking"]) == (0, 0)


def test_speed_sends_every_position_to_each_peer_brain(
    capsys: pytest.CaptureFixture[str],
) -> None:
    brain = shlex.join([sys.executable, str(RANDOM_BRAIN)])
    speed.peers([brain], 0.2, "freestyle")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{brain}, 200 ms a move, freestyle"
    answered = [line for line in lines[1:] if " in " in line and "nodes/s" in line]
    assert len(answered) == len(speed.POSITIONS)  # a move each, no failure
    for line, text in zip(answered, speed.POSITIONS, strict=True):
        state = Gomoku.from_notation(text)
        move = line.split()[len(text[:28].split())]
        assert state.parse_move(move) in state.legal_moves()


#: Mangled names as numba gives its kernels (a closure's, a module function's).
UPDATE_CELLS = (
    "_ZN7abgames2ai6gomoku5board13_line_updater12_3clocals_3e12update_cellsB3v17B38c8tJTIeFIjx"
)
NEGAMAX = "_ZN7abgames2ai6gomoku6search7negamaxB3v67B38c8tJTIeFIjxB2IKS"


def test_profile_names_kernels_and_shares_their_samples() -> None:
    assert profile.readable(UPDATE_CELLS) == "board._line_updater.<locals>.update_cells"
    assert profile.readable(NEGAMAX) == "search.negamax"
    assert profile.readable("_ZN5numba7cpython4mathE") is None  # not ours
    assert profile.readable("gc_collect_main") is None
    listing = (
        f"0000000000000000 00000000000001a0 T {NEGAMAX}\n00000000000001b0 0000000000000010 t x\n"
    )
    assert profile.symbol_sizes(listing) == {NEGAMAX: (0, 0x1A0), "x": (0x1B0, 0x10)}
    report = "\n".join(
        [
            "# Samples: 1K",
            f"    30.00%  [.] {UPDATE_CELLS}",
            f"    10.00%  [.] {NEGAMAX}",
            "    50.00%  [.] _PyEval_EvalFrameDefault",  # compiling: not counted
            f"    10.00%  [.] {NEGAMAX}x",  # another overload of the same kernel
        ]
    )
    assert profile.kernel_shares(report) == [
        (60.0, "board._line_updater.<locals>.update_cells"),
        (40.0, "search.negamax"),
    ]


def test_ladder_rungs_cap_nodes_or_time_and_ask_for_one_thread() -> None:
    rungs = ladder.rungs("pbrain-x --fast", [5000, 1000], [1.0], 10_000)
    assert [r.label for r in rungs] == ["1,000 nodes a move", "5,000 nodes a move", "1 s a move"]
    capped = parse_engine_spec(rungs[0].spec, game="gomoku", turn_ms=1000)
    assert capped.command == ["pbrain-x", "--fast"]
    assert dict(capped.info) == {"max_node": "1000", "thread_num": "1"}
    assert capped.turn_ms == 10_000
    timed = parse_engine_spec(rungs[2].spec, game="gomoku", turn_ms=123)
    assert timed.turn_ms == 1000 and dict(timed.info) == {"thread_num": "1"}


def test_ladder_plays_each_rung_and_prints_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("0,0, 1,0\n")
    brain = shlex.join([sys.executable, str(RANDOM_BRAIN)])
    rungs = ["--nodes", "100", "--time", "0.5", "--games", "2"]
    files = ["--openings", str(openings), "--records", str(tmp_path)]
    code = ladder.main(["--engine", brain, *rungs, "--ours", "level=easy", *files])
    out = capsys.readouterr().out
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("| 100 nodes a move")]
    assert len(rows) == 2  # as it finished, and in the final table
    wins, draws, losses = (int(n) for n in rows[0].split("|")[2].split())
    assert wins + draws + losses == 2
    assert "instant" in rows[0].split("|")[5]  # the brain's think time
    assert any(line.startswith("| 0.5 s a move") for line in out.splitlines())
    assert "warning" not in out
    assert out.count("easy by colour: black ") == 2  # under each rung's row
    assert len((tmp_path / "rung1.jsonl").read_text().splitlines()) == 2


def record(
    players: tuple[str, str], opening: str, times: tuple[int, ...] = (), winner: int | None = None
) -> GameRecord:
    return GameRecord(0, "gomoku", {}, players, opening, "", winner, "", "", "", times)


def test_ladder_reads_each_sides_think_times_after_the_opening() -> None:
    records = [
        # Three opening stones: white (the second player) moves first after them.
        record(("hard", "opponent"), "h8 i8 i5", (10, 20, 11, 21, 12)),
        record(("opponent", "hard"), "h8 i8", (30, 40, 31)),
    ]
    assert ladder.think_times_ms(records, "opponent") == [10, 11, 12, 30, 31]
    assert ladder.think_times_ms(records, "hard") == [20, 21, 40]
    # Half of a strong brain's moves come at once; the median is of the others.
    assert ladder.describe_times([5, 1, 90, 200, 1000]) == "40% instant, 200 / 1000 ms"
    assert ladder.describe_times([5, 1]) == "100% instant"
    assert ladder.describe_times([]) == "-"


def test_ladder_counts_each_sides_results_by_colour() -> None:
    records = [
        record(("hard", "opponent"), "h8", winner=0),  # hard, black, wins
        record(("hard", "opponent"), "h8", winner=1),  # hard, black, loses
        record(("opponent", "hard"), "h8", winner=1),  # hard, white, wins
        record(("opponent", "hard"), "h8"),  # a draw with white
        record(("hard", "opponent"), "h8", winner=0),
    ]
    assert ladder.by_colour(records, "hard") == "black 2-0-1, white 1-1-0"
    assert ladder.by_colour(records, "opponent") == "black 0-1-1, white 1-0-2"
    assert ladder.by_colour([], "hard") == "black 0-0-0, white 0-0-0"


def test_ladder_flags_a_node_rung_the_brain_thought_through_to_its_clock() -> None:
    capped, timed = ladder.rungs("pbrain-x", [1000], [1.0], 10_000)
    assert ladder.ignored_cap(capped, [40, 60, 80]) is None
    warning = ladder.ignored_cap(capped, [9_000, 9_900, 9_950])
    assert warning is not None and "9900 ms (median) of its 10000 ms" in warning
    # Most moves instant (forced, or wins found): the searched ones still give it away.
    assert ladder.ignored_cap(capped, [0, 1, 2, 3, 9_000, 9_900, 9_950]) is not None
    assert ladder.ignored_cap(capped, [0, 1, 2]) is None
    assert ladder.ignored_cap(timed, [990, 995]) is None  # a time rung has no cap to ignore


def test_ladder_refuses_a_run_without_rungs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        ladder.main(["--engine", "pbrain-x"])
    assert "at least one rung" in capsys.readouterr().err


def position(rows: list[str], to_move: int, rule: Rule = Rule.FREESTYLE) -> Gomoku:
    """A 15x15 position from the top rows (``X`` black, ``O`` white)."""
    state = Gomoku(15, rule)
    black = [state.point(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "X"]
    white = [state.point(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "O"]
    return Gomoku.from_position(black, white, to_move, rule=rule)


def test_a_vcf_line_is_checked_by_the_rules() -> None:
    # Black: a four waiting for e1 (a five), and a three on row 3 that becomes a four.
    state = position(["OXXXX..", ".......", ".XXX...", "......."], 0)
    assert puzzles.vcf_line_wins(state, (state.point(5, 0),))  # the five
    assert not puzzles.vcf_line_wins(state, (state.point(6, 3),))  # no four: fails
    # A four (e3 makes b3-e3, five at a3 or f3: two five points) wins at once.
    assert puzzles.vcf_line_wins(state, (state.point(4, 2),))
    # The line may stop before the five the solver leaves out.
    assert puzzles.vcf_line_wins(state, ())
    # White to move in the same stones has no four: an empty line does not win.
    white = position(["OXXXX..", ".......", ".XXX...", "......."], 1)
    assert not puzzles.vcf_line_wins(white, ())


def test_a_vcf_line_that_ignores_the_defenders_four_fails() -> None:
    # White has a four (five at f1); black's four on row 3 does not stop it.
    state = position(["XOOOO..", ".......", "XXX....", "......."], 0)
    assert not puzzles.vcf_line_wins(state, (state.point(3, 2), state.point(4, 2)))
    # Blocking it first (f1) is a legal start, but then black has no four: fails.
    assert not puzzles.vcf_line_wins(state, (state.point(5, 0),))


def test_lfz_puzzle_files_are_read_as_vcf_cases(tmp_path: Path) -> None:
    # lfz084's format: stones alternate black and white (black first), a column letter
    # and a row from the bottom; side 1 black to move, 2 white; mode 32 a VCF page.
    entries = [
        {"side": 2, "rule": 2, "size": 15, "stones": "H8", "mode": 0, "comment": "cover"},
        {
            "side": 1,
            "rule": 2,
            "size": 15,
            "stones": "H8I9A1O15",
            "mode": 32,
            "//第007题模式": "VCF",
        },
        {
            "side": 1,
            "rule": 2,
            "size": 15,
            "stones": "H8I9",
            "mode": 32,
            "//第008题模式": "自由对弈",
        },
        {"side": 2, "rule": 1, "size": 15, "stones": "C3D4E5", "mode": 32},
    ]
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"puzzles": entries}, ensure_ascii=False), encoding="utf-8")
    first, second = puzzles.lfz_cases(path)
    assert (first["index"], first["rule"], first["side_to_move"]) == (7, "renju", "black")
    board = first["board"]
    assert board[7][7] == "X" and board[6][8] == "O"  # h8 black, i9 white (row 9: y = 6)
    assert board[14][0] == "X" and board[0][14] == "O"  # a1 black, o15 white
    assert sum(row.count("X") + row.count("O") for row in board) == 4
    assert (second["index"], second["rule"], second["side_to_move"]) == (4, "freestyle", "white")
    state = puzzles.position(second, second["side_to_move"])
    assert state.rule == Rule.FREESTYLE and state.to_move == 1
    assert state.board[state.point(2, 12)] == 1 and state.board[state.point(3, 11)] == 2


def test_puzzles_turn_under_the_eight_symmetries() -> None:
    rows = [".X" + "." * 13] + ["." * 15] * 14  # one stone at x=1, y=0

    def stone(board: list[str]) -> tuple[int, int]:
        (y,) = [y for y, row in enumerate(board) if "X" in row]
        return board[y].index("X"), y

    assert [stone(puzzles.turned(rows, k)) for k in range(8)] == [
        (1, 0),
        (13, 0),
        (1, 14),
        (13, 14),
        (0, 1),
        (0, 13),
        (14, 1),
        (14, 13),
    ]
    case = {"index": 3, "board": rows, "side_to_move": "black", "rapfi_move": [1, 2]}
    variants = puzzles.in_every_symmetry([case])
    assert [v["index"] for v in variants] == [f"3/{k}" for k in range(8)]
    assert len({tuple(v["board"]) for v in variants}) == 8
    assert "rapfi_move" in variants[0] and not any("rapfi_move" in v for v in variants[1:])


@needs_shared_data
def test_a_vcf_is_found_and_checked_in_every_orientation() -> None:
    # The intro set's puzzle that takes the most nodes, in its 8 orientations.
    cases = [json.loads(line) for line in (puzzles.DATA / "intro_vcf.jsonl").open()]
    (case,) = [c for c in cases if c["index"] == 39]
    engine = GomokuEngine()
    lengths = set()
    for variant in puzzles.in_every_symmetry([case]):
        state = puzzles.position(variant, case["side_to_move"])
        found = engine.solve(state, depth=puzzles.UNLIMITED_DEPTH, nodes=1_000_000)
        assert found is not None and puzzles.vcf_line_wins(state, found.line)
        lengths.add(found.moves)
    assert min(lengths) >= 3  # a real line each time, not a five on the board


# Black's double three at h8 (x=7, y=7); white's four-three at m14 then m11 (top rows).
DOUBLE_THREE_ROWS = [
    "...............",
    "........XOOO...",
    "............O..",
    "............O..",
    "...............",
    ".......X.......",
    ".......X.......",
    ".....XX........",
]


class ProposeFirst:
    """An engine stand-in that proposes ``first`` at the start and the engine's moves after."""

    def __init__(self, engine: GomokuEngine, root: Gomoku, first: int) -> None:
        self.engine, self.root_key, self.first = engine, root.key, first

    def solve(self, state: Gomoku, **limits: int | bool) -> SolverResult | None:
        if state.key == self.root_key:
            return SolverResult(3, (self.first,))
        return self.engine.solve(state, **limits)  # type: ignore[arg-type]


def test_a_vct_claim_is_checked_against_every_defence() -> None:
    engine = GomokuEngine()
    calm = position(["." * 15] * 4 + DOUBLE_THREE_ROWS[4:], 0)
    assert puzzles.vct_claim_holds(engine, calm, 3)  # h8, a straight four, the five
    assert not puzzles.vct_claim_holds(engine, calm, 2)  # one move short
    # With white's four-three on the board the same double three loses: the check
    # finds white's counter-fours even when told to try h8.
    state = position(DOUBLE_THREE_ROWS, 0)
    told = ProposeFirst(engine, state, state.point(7, 7))
    assert not puzzles.vct_claim_holds(told, state, 6)
    assert puzzles.vct_claim_holds(ProposeFirst(engine, calm, calm.point(7, 7)), calm, 3)


def lost_by_us(moves: str, *, black: bool = True, index: int = 0) -> dict[str, object]:
    """An arena record (as the records file holds it) that ``us`` lost by a five."""
    players = ("us", "opponent") if black else ("opponent", "us")
    winner = 1 if black else 0
    record = GameRecord(
        index,
        "gomoku",
        {"rule": "freestyle"},
        players,
        "",
        moves,
        winner,
        "0-1" if black else "1-0",
        "five",
    )
    return record.as_json()


#: Black ignores white's open three h8-j8 at ply 6 (o1) and loses: only g8 or k8 held.
IGNORED_THREE = "a1 h8 o15 i8 a15 j8 o1 k8 c1 l8"
#: Black has an open three to play on at ply 6, plays away, then ignores a four.
THROWN_AWAY = "h8 b1 i8 b2 j8 b3 o15 b4 o14 b5"


def test_the_loss_is_the_first_move_after_which_the_opponent_wins_by_force() -> None:
    lost = losses.lost_game(lost_by_us(IGNORED_THREE), "us")
    assert lost is not None and lost.side_is_black
    engine = GomokuEngine()
    point = losses.loss_point(engine, lost, 10, 400_000, losses.EngineSettings())
    # Open four at k8 (or g8), then the five: two attacker moves, three plies to the end.
    assert point == losses.LossPoint(ply=6, vct_moves=2, plies_to_end=3, check_finds=True)
    # Only the adjacent blocks hold: after f8 or l8 white's g8 or k8 is an open four.
    assert losses.safe_alternatives(engine, lost, 6, 10) == ["g8", "k8"]
    assert losses.missed_win(engine, lost, 10, 400_000) is None


def test_a_win_the_side_had_and_played_away_is_reported() -> None:
    lost = losses.lost_game(lost_by_us(THROWN_AWAY), "us")
    assert lost is not None
    engine = GomokuEngine()
    # The four b1-b4 is answered by nothing: the loss comes after o14, one move deep.
    point = losses.loss_point(engine, lost, 10, 400_000, losses.EngineSettings())
    assert point is not None and (point.ply, point.vct_moves) == (8, 1)
    assert losses.missed_win(engine, lost, 10, 400_000) == 6  # k8 or g8 made an open four


def test_a_loss_as_white_is_replayed_from_whites_moves() -> None:
    # The same game one ply later: white (us) plays a first stone far away.
    lost = losses.lost_game(lost_by_us("o8 " + IGNORED_THREE, black=False), "us")
    assert lost is not None and not lost.side_is_black
    point = losses.loss_point(GomokuEngine(), lost, 10, 400_000, losses.EngineSettings())
    assert point is not None and point.ply == 7


def test_games_not_lost_by_a_five_are_left_out() -> None:
    won = lost_by_us(IGNORED_THREE) | {"winner": "us", "result": "1-0"}
    drawn = lost_by_us(IGNORED_THREE) | {"winner": None, "reason": "full board"}
    assert losses.lost_game(won, "us") is None
    assert losses.lost_game(drawn, "us") is None


def test_the_report_counts_the_lost_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [
        lost_by_us(IGNORED_THREE, index=0),
        lost_by_us(THROWN_AWAY, index=1),
        lost_by_us(IGNORED_THREE, index=2) | {"winner": "us"},
    ]
    path = tmp_path / "rung1.jsonl"
    path.write_text("".join(json.dumps(game) + "\n" for game in games))
    assert losses.main([str(path), "--alternatives"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 games, 2 lost by a five")
    assert "game    0 (black): lost at ply 6 (3 plies before the end), shortest VCT 2 moves" in out
    assert "2 safe moves (g8 k8)" in out
    assert "game    1 (black): lost at ply 8" in out and "missed a win of its own at ply 6" in out
    assert "missed wins of its own: 1 of 2 lost games" in out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "rung1.jsonl:2: not JSON"),
        ("[1, 2]", "rung1.jsonl:2: not a game record"),
        (json.dumps(lost_by_us("h8 h8")), "cannot replay it"),  # an occupied point
        (json.dumps(lost_by_us("h8 z99")), "cannot replay it"),  # malformed notation
        (json.dumps(lost_by_us("h8") | {"variant": "connect4"}), "not a Gomoku record"),
        (json.dumps(lost_by_us("h8") | {"first": "a", "second": "b"}), "say which"),
    ],
)
def test_a_broken_records_file_is_refused_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    path = tmp_path / "rung1.jsonl"
    path.write_text(json.dumps(lost_by_us(IGNORED_THREE)) + "\n" + line + "\n")
    assert losses.main([str(path)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.out == ""


def test_a_side_that_is_not_in_the_records_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rung1.jsonl"
    path.write_text(json.dumps(lost_by_us(IGNORED_THREE)) + "\n")
    assert losses.main([str(path), "--side", "hard"]) == 2
    assert "no side named 'hard'" in capsys.readouterr().err


def test_a_missing_records_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert losses.main([str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl: cannot read it" in capsys.readouterr().err


def test_pbrain_set_reports_the_slowest_answer_and_its_problem(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [{"index": index, "side_to_move": "black"} for index in (3, 8, 5)]
    seconds = [0.04, 0.31, 0.05]  # problem 8 the slowest
    state = Gomoku(15)
    monkeypatch.setattr(puzzles, "position", lambda case, side: state)
    monkeypatch.setattr(puzzles, "begins_vcf", lambda engine, state, move: True)
    answers = iter(seconds)

    def answer(command: list[str], state: Gomoku, turn_ms: int) -> object:
        taken = next(answers)
        return puzzles.BrainAnswer(state.centre, taken, 0.7, 0.7 + taken)

    monkeypatch.setattr(puzzles, "ask_fresh_brain", answer)
    puzzles.pbrain_set(GomokuEngine(), "set", cases, ["pbrain"], 1000)
    out = capsys.readouterr().out
    assert "set: answer (DONE to move): median 0.050 s, p95 0.284 s, max 0.310 s (#8)" in out
    assert "set: START to OK: median 0.700 s" in out
    assert "set: solved 3/3 (100.0 %)" in out


def test_wins_reads_the_loss_the_judge_announces_for_the_side_to_move() -> None:
    assert wins.mated_in(["MESSAGE Depth 15-30 | Eval -M24 | Time 960ms | Node 1100K"]) == 24
    assert (
        wins.mated_in(["MESSAGE Depth 9-20 | Eval -M30", "MESSAGE Depth 10-22 | Eval -M26"]) == 26
    )
    assert wins.mated_in(["MESSAGE Depth 12-28 | Eval -35 | Time 950ms"]) is None
    assert wins.mated_in(["MESSAGE Depth 12-28 | Eval +M9"]) is None  # a win, not a loss
    assert wins.mated_in([]) is None


def judge_after(stones: int) -> Callable[[Gomoku], list[str]]:
    """A judge that calls every position of ``stones`` stones or more lost in 5 plies."""

    def judge(state: Gomoku) -> list[str]:
        lost = len(state.moves) >= stones
        return ["MESSAGE Depth 14 | Eval -M5" if lost else "MESSAGE Depth 14 | Eval 40"]

    return judge


def test_wins_collects_the_position_after_the_move_the_judge_called_lost() -> None:
    record = lost_by_us(IGNORED_THREE, index=7)
    # Us (black) to move at plies 0, 2, 4, 6: the first with 6 stones is ply 6 (o1).
    assert wins.collect_game(record, judge_after(6)) == wins.WinPosition(
        moves="a1 h8 o15 i8 a15 j8 o1", rule=Rule.FREESTYLE, mate_plies=4, game=7
    )
    assert wins.collect_game(record, judge_after(99)) is None  # never called lost
    won = record | {"winner": "us", "result": "1-0"}
    assert wins.collect_game(won, judge_after(0)) is None


def test_wins_leaves_out_a_loss_called_where_the_side_then_made_a_four() -> None:
    # Ply 6: black's a4 makes a four (a1-a4), so white's reply a5 is forced.
    record = lost_by_us("a1 h8 a2 i8 a3 j8 a4 a5 o15 k8 o1 l8")
    assert wins.collect_game(record, judge_after(6)) is None
    assert wins.collect_game(record, judge_after(8)) == wins.WinPosition(
        moves="a1 h8 a2 i8 a3 j8 a4 a5 o15", rule=Rule.FREESTYLE, mate_plies=4, game=0
    )


@pytest.fixture
def readiness_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """``gomoku_wins`` readies the kernels (``readiness.prepare``): what that records of
    this process is put back after the test, for the tests that expect a new process."""
    from abgames.ai import readiness

    monkeypatch.setattr(readiness, "_ready", set(readiness._ready))
    monkeypatch.setattr(readiness, "_jobs", dict(readiness._jobs))


def test_wins_finds_the_forced_win_of_a_collected_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], readiness_restored: None
) -> None:
    won = wins.WinPosition("a1 h8 o15 i8 a15 j8 o1", Rule.FREESTYLE, 4, 7)  # white's open three
    quiet = wins.WinPosition("h8 i8", Rule.FREESTYLE, 40, 8)  # no forced win (a wrong claim)
    path = tmp_path / "wins.jsonl"
    path.write_text(won.as_json() + "\n" + quiet.as_json() + "\n")
    assert wins.read_positions(path) == [won, quiet]
    small = wins.WinPosition("h8 i8 h9 i9 h10", Rule.FREESTYLE, 3, 9, size=13)
    assert "size" not in won.as_json() and json.loads(small.as_json())["size"] == 13
    assert small.state().size == 13
    assert wins.main(["--positions", str(path), "--time", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "game    7, mate in  4 plies: found in" in out
    assert "game    8, mate in 40 plies: not found" in out
    assert "hard: 1 of 2 wins found within 0.3 s" in out


@pytest.mark.parametrize(
    ("search", "solver"), [([], "depth first"), (["--search", "proof_vct=1"], "proof numbers")]
)
def test_wins_solve_gives_the_positions_to_the_vct_solver_alone(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    readiness_restored: None,
    search: list[str],
    solver: str,
) -> None:
    won = wins.WinPosition("a1 h8 o15 i8 a15 j8 o1", Rule.FREESTYLE, 4, 7)  # white's open three
    quiet = wins.WinPosition("h8 i8", Rule.FREESTYLE, 40, 8)
    path = tmp_path / "wins.jsonl"
    path.write_text(won.as_json() + "\n" + quiet.as_json() + "\n")
    argv = ["--positions", str(path), "--solve", "4", "--nodes", "20000", *search]
    assert wins.main(argv) == 0
    out = capsys.readouterr().out
    assert f"VCT by {solver}, 4 moves, 20,000 nodes" in out
    assert "game    7, mate in  4 plies: proved in" in out and "2 moves" in out
    assert "game    8, mate in 40 plies: not found" in out
    assert "1 of 2 wins found\n" in out or "1 of 2 wins found;" in out
    with pytest.raises(SystemExit):
        wins.main(["--positions", str(path), "--solve", "0"])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "wins.jsonl:2: not a position"),
        (json.dumps({"moves": "h8 i8"}), "wins.jsonl:2: not a position"),  # no mate_plies
        (json.dumps({"moves": "h8 h8", "mate_plies": 3}), "wins.jsonl:2: not a position"),
        (json.dumps({"moves": "h8", "rule": "go", "mate_plies": 3}), "wins.jsonl:2"),
        (json.dumps({"moves": "o15", "mate_plies": 3, "size": 9}), "wins.jsonl:2"),  # off board
    ],
)
def test_wins_refuses_a_broken_positions_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    path = tmp_path / "wins.jsonl"
    good = wins.WinPosition("a1 h8 o15 i8 a15 j8 o1", Rule.FREESTYLE, 4, 7)
    path.write_text(good.as_json() + "\n" + line + "\n")
    assert wins.main(["--positions", str(path)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err


@pytest.mark.parametrize(
    ("setting", "message"),
    [("beam", "give NAME=N"), ("beam=wide", "give NAME=N"), ("no_such=1", "no_such")],
)
def test_wins_refuses_a_search_setting_it_cannot_apply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: str, message: str
) -> None:
    path = tmp_path / "wins.jsonl"
    path.write_text(wins.WinPosition("h8 i8", Rule.FREESTYLE, 4, 1).as_json() + "\n")
    assert wins.main(["--positions", str(path), "--search", setting]) == 2
    assert message in capsys.readouterr().err


def collect_with(tmp_path: Path, judge: str) -> tuple[int, Path]:
    """``gomoku_wins --collect`` over one lost game with ``judge``; (exit, out path)."""
    records = tmp_path / "rung1.jsonl"
    records.write_text(json.dumps(lost_by_us(IGNORED_THREE)) + "\n")
    out = tmp_path / "wins.jsonl"
    argv = ["--collect", str(records), "--judge", judge, "--judge-ms", "100", "--out", str(out)]
    return wins.main(argv), out


def test_wins_collects_nothing_from_a_judge_that_announces_no_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = collect_with(tmp_path, shlex.join([sys.executable, str(RANDOM_BRAIN)]))
    assert code == 0 and out.read_text() == ""
    assert "1 lost games judged, 0 positions written" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("judge", "message"),
    [
        ([str(RANDOM_BRAIN), "--mode", "crash", "--after", "1"], "the judge failed"),
        (["/nonexistent/brain"], "did not start"),
    ],
)
def test_wins_stops_with_a_message_when_the_judge_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], judge: list[str], message: str
) -> None:
    command = [sys.executable, *judge] if judge[0].endswith(".py") else judge
    code, out = collect_with(tmp_path, shlex.join(command))
    assert code == 2 and not out.exists()
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# --- gomoku_judge: what a move gives away in a judge's eyes ------------------------------

#: The test brain as a judge: ``Eval`` is seven times the stones, negative for white to
#: move (so every move other than the judge's loses 7 for black and gains 7 for white).
EVAL_BRAIN = [sys.executable, str(RANDOM_BRAIN), "--eval"]


def test_judge_reads_the_score_and_the_mates_the_judge_announces() -> None:
    assert judging.judge_score(["MESSAGE Speed 1336 | Depth 15-22 | Eval 133 | Node 1296K"]) == (
        133,
        False,
    )
    assert judging.judge_score(["MESSAGE Eval 40", "MESSAGE Depth 9 | Eval -35"]) == (-35, False)
    assert judging.judge_score(["MESSAGE Depth 9-20 | Eval +M19"]) == (judging.DECIDED_SCORE, True)
    assert judging.judge_score(["MESSAGE Eval -M24 | Time 960ms"]) == (-judging.DECIDED_SCORE, True)
    assert judging.judge_score(["MESSAGE Eval 5000"]) == (judging.DECIDED_SCORE, False)
    assert judging.judge_score(["MESSAGE thinking hard", "MESSAGE Evaluation 12"]) is None
    assert judging.judge_score([]) is None


def scripted_judge(scores: dict[int, str]) -> Callable[[Gomoku], tuple[str, list[str]]]:
    """A judge that plays o15 and scores a position of N stones ``scores[N]`` (or 10)."""

    def judge(state: Gomoku) -> tuple[str, list[str]]:
        return "o15", [f"MESSAGE Depth 3 | Eval {scores.get(len(state.moves), '10')}"]

    return judge


def test_judge_collects_every_nth_turn_of_the_side_past_the_opening() -> None:
    record = lost_by_us("h8 i8 h9 a1 h10 a2 b1 a3 c1 a4 d1 a5", black=False) | {
        "opening": "h8 i8 h9"
    }
    # ``us`` is white, to move past the opening at plies 3, 5, 7, 9 and 11; every 2nd turn
    # is 3, 7 and 11, and the judge calls the position of 7 stones won (a mate, left out).
    found = judging.collect_game(record, scripted_judge({7: "+M9"}), 2)
    assert [len(p.moves.split()) for p in found] == [3, 11]
    assert found[0] == judging.JudgedPosition("h8 i8 h9", Rule.FREESTYLE, "o15", 10, 0)
    every = judging.collect_game(record, scripted_judge({}), 1)
    assert [len(p.moves.split()) for p in every] == [3, 5, 7, 9, 11]


def test_judge_leaves_out_a_turn_where_the_side_must_block_a_four() -> None:
    # White to move at ply 7 must block black's four a1-a4 at a5.
    record = lost_by_us("a1 h8 a2 i8 a3 j8 a4 a5 o15 k8 o1 l8", black=False)
    found = judging.collect_game(record, scripted_judge({}), 1)
    assert [len(p.moves.split()) for p in found] == [1, 3, 5, 9, 11]


def test_judge_counts_a_move_loss_from_the_judges_scores_before_and_after() -> None:
    position = judging.JudgedPosition("h8 i8", Rule.FREESTYLE, "h9", 60, 0)
    # The judge's own move gives nothing away (the judge is not asked again).
    assert judging.move_loss(position, "h9", scripted_judge({})) == 0
    # After i9 the judge (white) scores +25: black's 60 became -25, a loss of 85.
    assert judging.move_loss(position, "i9", scripted_judge({3: "25"})) == 85
    assert judging.move_loss(position, "i9", scripted_judge({3: "-M7"})) == 60 - 1000
    assert judging.move_loss(position, "i9", scripted_judge({3: "+M7"})) == 60 + 1000


def test_judge_compares_two_variants_move_by_move(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(
        "".join(
            json.dumps({"moves": m, "move": "h9", "loss": x}) + "\n"
            for m, x in (("h8", 10), ("h8 i8", 30), ("h8 i9", 0))
        )
    )
    second.write_text(
        "".join(
            json.dumps({"moves": m, "move": "h9", "loss": x}) + "\n"
            for m, x in (("h8", 0), ("h8 i8", 10), ("a1", 99))
        )
    )
    count, difference, error = judging.paired(
        judging.read_losses(first), judging.read_losses(second)
    )
    assert (count, difference, round(error, 6)) == (2, 15.0, 5.0)
    assert judging.main(["--compare", str(first), str(second)]) == 0


def test_judge_collects_and_measures_with_a_judge_brain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], readiness_restored: None
) -> None:
    records = tmp_path / "rung1.jsonl"
    records.write_text(json.dumps(lost_by_us(IGNORED_THREE) | {"opening": "a1 h8"}) + "\n")
    positions, losses = tmp_path / "positions.jsonl", tmp_path / "losses.jsonl"
    judge = ["--judge", shlex.join(EVAL_BRAIN), "--judge-ms", "100"]
    assert judging.main(["--collect", str(records), *judge, "--out", str(positions)]) == 0
    read = judging.read_positions(positions)
    # Black (``us``) to move past the two-stone opening at plies 2, 4, 6, 8: each every 2nd.
    assert [len(p.moves.split()) for p in read] == [2, 6]
    assert [p.score for p in read] == [14, 42]  # black to move: + 7 a stone
    argv = ["--positions", str(positions), *judge, "--time", "0.2", "--out", str(losses)]
    assert judging.main(argv) == 0
    out = capsys.readouterr().out
    assert "hard, 0.2 s a position, 2 positions from positions.jsonl, judged at 100 ms" in out
    kept = [json.loads(line) for line in losses.read_text().splitlines()]
    for entry, position in zip(kept, read, strict=True):
        assert entry["moves"] == position.moves
        # The random judge's move is rarely ours; any other loses black 7 units.
        assert entry["loss"] == (0 if entry["move"] == position.judge_move else -7)
    assert "2 positions" in out.splitlines()[-1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--judge", "x", "--positions", "{bad}"], "not a position"),
        (["--judge", "/nonexistent/brain", "--positions", "{good}"], "failed"),
        (["--compare", "{bad}", "{good}"], "not a loss"),
    ],
)
def test_judge_refuses_broken_files_and_a_judge_that_does_not_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"moves": "h8 h8", "judge_move": "a1", "score": 3}) + "\n")
    good = tmp_path / "good.jsonl"
    good.write_text(judging.JudgedPosition("h8", Rule.FREESTYLE, "i9", 5, 1).as_json() + "\n")
    paths = {"{bad}": str(bad), "{good}": str(good)}
    assert judging.main([paths.get(word, word) for word in argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        judging.main(["--positions", str(good)])  # no judge


def test_judge_positions_shipped_are_legal_undecided_and_each_once() -> None:
    positions = judging.read_positions(judging.DEFAULT_POSITIONS)
    assert len(positions) == 740
    assert len({p.moves for p in positions}) == len(positions)
    for position in positions:
        state = position.state()
        assert not state.is_over() and state.parse_move(position.judge_move) in state.legal_moves()
        assert abs(position.score) < judging.DECIDED_SCORE
