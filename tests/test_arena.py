"""The arena: specs, judging, statistics, openings, records, and whole matches."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from abgames.arena.engines import (
    BAD_ANSWER,
    CRASH,
    ILLEGAL_MOVE,
    TIME_FORFEIT,
    Engine,
    EngineSpec,
    parse_engine_spec,
)
from abgames.arena.judge import (
    FORBIDDEN_MOVE,
    GameRecord,
    GameTask,
    _Game,
    check_move,
    play_game,
)
from abgames.arena.openings import (
    OpeningError,
    load_offset_openings,
    parse_offset_line,
    random_openings,
)
from abgames.arena.records import RecordWriter, read_records, to_sgf
from abgames.arena.runner import ArenaSettings, EngineMissingError, format_table, run_arena
from abgames.arena.stats import Sprt, Tally, describe_elo, elo_from_score
from abgames.cli import main
from abgames.games.base import GameState, Move
from abgames.games.gomoku import Gomoku
from abgames.protocols.timing import TimeControl
from conftest import RANDOM_BRAIN


def brain_spec(mode: str = "sane", name: str | None = None, **extra: object) -> str:
    spec = f"cmd={sys.executable} {RANDOM_BRAIN} --mode {mode}"
    spec += f",name={name or mode}"
    return spec + "".join(f",{k}={v}" for k, v in extra.items())


# --- engine specs ---------------------------------------------------------------
def test_engine_specs() -> None:
    spec = parse_engine_spec("level=easy,time=0.25,seed=3", game="gomoku", turn_ms=1000)
    assert (spec.kind, spec.target, spec.name, spec.turn_ms, spec.seed) == (
        "level",
        "easy",
        "easy",
        250,
        3,
    )
    spec = parse_engine_spec(
        "cmd=/opt/pbrain-x --flag a,b,turn_ms=300,match_ms=9000,max_memory=1000,name=X",
        game="gomoku",
        turn_ms=1000,
    )
    assert spec.command == ["/opt/pbrain-x", "--flag", "a,b"]
    assert (spec.turn_ms, spec.match_ms, spec.name) == (300, 9000, "X")
    assert spec.info == (("max_memory", "1000"),)
    assert parse_engine_spec("cmd=/x/pbrain-y.exe", game="gomoku", turn_ms=5).name == "pbrain-y"


@pytest.mark.parametrize(
    ("text", "game", "message"),
    [
        ("level=godlike", "gomoku", "no level 'godlike'"),
        ("hard", "gomoku", "is not key=value"),
        ("name=x,level=easy", "gomoku", "must start with level="),
        ("level=easy,depth=3", "gomoku", "unknown key"),
        ("level=easy,time=fast", "gomoku", "not a number"),
        ("cmd=/bin/x", "connect4", "Gomoku only"),
        ("level=easy,turn_ms=-5", "tictactoe", "a time limit is 0..86400000 ms"),
        ("level=easy,time=inf", "gomoku", "'inf' is not a time limit: give 0..86400 seconds"),
        ("level=easy,time=-inf", "gomoku", "is not a time limit"),
        ("level=easy,time=nan", "gomoku", "is not a time limit"),
        ("level=easy,time=1e400", "gomoku", "is not a time limit"),
        ("level=easy,time=-0.5", "gomoku", "is not a time limit"),
        ("level=easy,time=86401", "gomoku", "is not a time limit"),
        ("level=easy,turn_ms=99999999999999999999", "gomoku", "the turn limit is"),
        ("cmd=/bin/x,match_ms=1e9", "gomoku", "match_ms='1e9' is not a whole number"),
        ("cmd=/bin/x,match_ms=86400001", "gomoku", "the match limit is 86400001 ms"),
        ("level=easy,name=", "gomoku", "name= needs a value"),
        ("cmd=/bin/x,name= ,turn_ms=5", "gomoku", "name= needs a value"),
    ],
)
def test_bad_engine_specs(text: str, game: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_engine_spec(text, game=game, turn_ms=1000)


def test_time_limits_from_the_command_line_are_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for option in ("--turn-ms", "--match-ms", "--tolerance-ms"):
        engines = ["--engine", "level=easy", "--engine", "level=easy,name=b"]
        args = ["arena", "tictactoe", *engines, option, "99999999999999999999"]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"abgames arena: {option} is 99999999999999999999 ms"), err


def test_elo_is_not_available_until_both_engines_have_scored() -> None:
    assert describe_elo(Tally()) == "n/a"
    assert describe_elo(Tally(1, 0, 0)) == "n/a"  # was "+inf [+inf, +inf]"
    assert describe_elo(Tally(0, 0, 3)) == "n/a"
    assert describe_elo(Tally(0, 1, 0)) == "0 [n/a, n/a]"  # no spread yet: no interval
    assert describe_elo(Tally(1, 0, 1)) == "0 [n/a, n/a]"  # the interval reaches 0 % and 100 %
    assert describe_elo(Tally(3, 2, 0)) == "+241 [+60, n/a]"
    assert describe_elo(Tally(30, 40, 30)) == "0 [-53, +53]"
    assert "inf" not in describe_elo(Tally(9, 1, 0))


# --- statistics -----------------------------------------------------------------
def test_elo_and_interval() -> None:
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_from_score(1.0) == math.inf
    tally = Tally(wins=30, draws=40, losses=30)
    elo, low, high = tally.elo()
    assert elo == pytest.approx(0) and low < 0 < high
    assert high == pytest.approx(-low)
    stronger = Tally(wins=60, draws=20, losses=20)
    elo, low, high = stronger.elo()
    assert low < elo < high and elo == pytest.approx(elo_from_score(0.7))
    assert Tally().elo()[0] == 0


def test_sprt() -> None:
    sprt = Sprt.parse("elo0=0,elo1=50,alpha=0.05,beta=0.05")
    assert sprt.upper == pytest.approx(math.log(19)) and sprt.lower == pytest.approx(-math.log(19))
    assert sprt.decision(Tally(3, 0, 2)) is None
    assert sprt.decision(Tally(300, 100, 100)) == "H1"
    assert sprt.decision(Tally(100, 100, 300)) == "H0"
    assert Tally(5, 0, 0).llr(0, 50) > 0  # all wins still count (a virtual draw)
    with pytest.raises(ValueError, match="elo0"):
        Sprt(elo0=10, elo1=0)
    with pytest.raises(ValueError, match="SPRT setting"):
        Sprt.parse("elo2=3")


# --- judging ----------------------------------------------------------------------
class Scripted(Engine):
    """Plays given moves (in the game's notation); a move ``"!"`` raises an exception."""

    def __init__(self, name: str, moves: list[str]) -> None:
        super().__init__(EngineSpec("level", "easy", name, turn_ms=1000), 100)
        self.moves = list(moves)

    def new_game(self, state: GameState) -> None:
        pass

    def move(self, state: GameState, clock: TimeControl) -> Move:
        return state.parse_move(self.moves.pop(0))


def judged(game: str, options: dict[str, object], black: list[str], white: list[str]) -> GameRecord:
    specs = (EngineSpec("level", "easy", "black", 1000), EngineSpec("level", "easy", "white", 1000))
    match = _Game(GameTask(0, game, options, specs))
    return match.run([Scripted("black", black), Scripted("white", white)])


def test_judge_five_full_board_and_illegal_moves() -> None:
    record = judged("gomoku", {}, ["h8", "h9", "h10", "h11", "h12"], ["a1", "a2", "a3", "a4"])
    assert (record.winner, record.reason, record.result) == (0, "five", "1-0")
    record = judged("gomoku", {}, ["h8", "h9"], ["a1", "h8"])
    assert (record.winner, record.reason) == (0, ILLEGAL_MOVE)
    assert "h8 is already taken" in record.detail
    record = judged("tictactoe", {}, ["b2", "c2", "a3", "b1", "c3"], ["a1", "a2", "c1", "b3"])
    assert (record.winner, record.reason) == (None, "full board")
    record = judged("connect4", {}, ["1", "1", "1", "1"], ["2", "2", "2"])
    assert (record.winner, record.reason) == (0, "four in a row")


def test_judge_renju_forbidden_move_loses_and_a_five_wins() -> None:
    renju: dict[str, object] = {"rule": "renju"}
    # Black h8 i8 and j9 j10 (with white far away): j8 is a double-three.
    record = judged("gomoku", renju, ["h8", "i8", "j9", "j10", "j8"], ["a1", "a3", "a5", "a7"])
    assert (record.winner, record.reason) == (1, FORBIDDEN_MOVE)
    assert "double-three at j8" in record.detail
    # h8 makes an exact five and two open threes at once: the five wins.
    black = ["d8", "e8", "f8", "g8", "h9", "h10", "i9", "j10", "h8"]
    white = ["a1", "a3", "a5", "a7", "a9", "a11", "a13", "a15"]
    record = judged("gomoku", renju, black, white)
    assert (record.winner, record.reason) == (0, "five")
    # White's overline wins in Renju.
    record = judged(
        "gomoku",
        renju,
        black=["a1", "a3", "a5", "a7", "a9", "a11"],
        white=["h2", "h3", "h4", "h6", "h7", "h5"],
    )
    assert (record.winner, record.reason) == (1, "five")


def test_check_move_names_the_fault() -> None:
    state = Gomoku.from_notation("h8", rule="renju")
    assert check_move(state, state.parse_move("h8")) == ("illegal move", "h8 is already taken")
    assert check_move(state, state.parse_move("a1")) is None


# --- openings and records ------------------------------------------------------
def test_offset_openings(shared_data: Path, tmp_path: Path) -> None:
    assert parse_offset_line("0,0, 1,0, 1,3") == [(0, 0), (1, 0), (1, 3)]
    path = shared_data / "gomoku" / "openings" / "piskvork_openings_offset.txt"
    openings, skipped = load_offset_openings(path, {})
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    assert len(openings) + skipped == len(lines)
    assert skipped == 1  # the last opening reaches x = -1 on a 15x15 board
    board = Gomoku()
    assert openings[0] == (board.centre, board.point(8, 7), board.point(8, 10))  # 0,0 1,0 1,3
    small, skipped_small = load_offset_openings(path, {"size": 5})
    assert skipped_small > skipped and len(small) + skipped_small == len(lines)
    bad = tmp_path / "bad.txt"
    bad.write_text("0,0, 1\n")
    with pytest.raises(ValueError, match="odd count"):
        load_offset_openings(bad, {})


def test_openings_files_that_cannot_be_used_name_the_file_and_line(tmp_path: Path) -> None:
    cases = {
        "latin1.txt": (b"0,0, 1,0\n0,0, \xe9\n", "latin1.txt:2: not UTF-8 text"),
        "empty.txt": (b"", "empty.txt holds no opening"),
        "comments.txt": (b"# none yet\n\n", "comments.txt holds no opening"),
        "twice.txt": (b"0,0\n0,0, 1,1, 0,0\n", "twice.txt:2: the point 0,0 comes twice"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(OpeningError, match=re.escape(message)):
            load_offset_openings(path, {})
    off = tmp_path / "off.txt"
    off.write_bytes(b"0,0, 9,9\n")  # off a 15x15 board: a fault of the board, not the file
    with pytest.raises(OpeningError, match=r"no opening in .* fits this board \(1 skipped\)"):
        load_offset_openings(off, {})


def test_random_openings_are_distinct_and_unfinished() -> None:
    openings = random_openings("tictactoe", {}, 1, 5, seed=7)
    assert len(set(openings)) == 5 and all(len(o) == 1 for o in openings)
    assert random_openings("connect4", {}, 0, 3, seed=1) == [()]


@pytest.mark.parametrize(
    ("game", "plies", "message"),
    [
        ("connect4", -1, "must be 0 or more, not -1"),
        ("connect4", 42, "no random opening of 42 plies leaves a connect4 game running"),
        ("tictactoe", 9, "no random opening of 9 plies leaves a tictactoe game running"),
    ],
)
def test_random_openings_that_cannot_be_played_are_refused(
    game: str, plies: int, message: str
) -> None:
    with pytest.raises(OpeningError, match=message):
        random_openings(game, {}, plies, 3, seed=1)


def test_records_and_sgf(tmp_path: Path) -> None:
    record = judged("gomoku", {"size": 9}, ["e5", "e6", "e7", "e8", "e9"], ["a1", "a2", "a3", "a4"])
    writer = RecordWriter(tmp_path / "r.jsonl", tmp_path / "g.sgf")
    writer.write(record)
    writer.close()
    (saved,) = read_records(tmp_path / "r.jsonl")
    assert saved["moves"] == "e5 a1 e6 a2 e7 a3 e8 a4 e9"
    assert (saved["result"], saved["reason"], saved["winner"]) == ("1-0", "five", "black")
    sgf = (tmp_path / "g.sgf").read_text()
    assert sgf.startswith("(;GM[4]FF[4]") and "SZ[9]" in sgf and "RE[B+]" in sgf
    assert ";B[ee];W[ai]" in sgf
    assert to_sgf(record) == sgf


# --- whole matches ----------------------------------------------------------------
def specs(game: str, *texts: str, turn_ms: int = 1000) -> tuple[EngineSpec, ...]:
    return tuple(parse_engine_spec(t, game=game, turn_ms=turn_ms) for t in texts)


def test_match_between_built_in_levels_tictactoe() -> None:
    settings = ArenaSettings(
        game="tictactoe",
        options={},
        engines=specs("tictactoe", "level=perfect", "level=easy"),
        games=4,
        openings=tuple(random_openings("tictactoe", {}, 1, 2, seed=1)),
    )
    result = run_arena(settings)
    (pair,) = result.pairs
    assert pair.tally.games == 4 and pair.tally.losses == 0
    colours = [r.players for r in result.records]
    assert colours[0] == ("perfect", "easy") and colours[1] == ("easy", "perfect")
    assert result.records[0].opening == result.records[1].opening
    table = format_table(result)
    assert "perfect vs easy" in table and "Elo" in table


def test_match_between_built_in_levels_gomoku_with_openings(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("0,0, 1,0, 1,3\n0,0, 1,1, 0,3\n")
    loaded, _ = load_offset_openings(openings, {"size": 9})
    settings = ArenaSettings(
        game="gomoku",
        options={"size": 9},
        engines=specs("gomoku", "level=easy,name=a", "level=easy,name=b"),
        games=4,
        openings=tuple(loaded),
    )
    result = run_arena(settings)
    assert [r.opening for r in result.records] == ["e5 f5 f2", "e5 f5 f2", "e5 f4 e2", "e5 f4 e2"]
    assert all(r.reason in ("five", "full board") for r in result.records)


def test_misbehaving_external_engines_are_judged_and_the_match_goes_on(tmp_path: Path) -> None:
    settings = ArenaSettings(
        game="gomoku",
        options={"size": 9},
        engines=specs(
            "gomoku",
            brain_spec("sane"),
            brain_spec("crash"),
            brain_spec("garbage"),
            brain_spec("slow", turn_ms=200),
            turn_ms=1000,
        ),
        games=2,
        tolerance_ms=300,
    )
    writer = RecordWriter(tmp_path / "r.jsonl")
    result = run_arena(settings, writer)
    writer.close()
    assert len(result.records) == 12 == len(read_records(tmp_path / "r.jsonl"))
    by_pair = {(p.first, p.second): p for p in result.pairs}
    assert by_pair[("sane", "crash")].endings == {(CRASH, "crash"): 2}
    assert by_pair[("sane", "garbage")].endings == {(BAD_ANSWER, "garbage"): 2}
    assert by_pair[("sane", "slow")].endings == {(TIME_FORFEIT, "slow"): 2}
    assert by_pair[("sane", "crash")].tally.wins == 2
    slow = next(r for r in result.records if r.reason == TIME_FORFEIT)
    assert "slow" in slow.detail


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def test_an_engine_whose_child_hangs_is_ended_with_its_child(tmp_path: Path) -> None:
    """The brain's child holds the output pipe open: the judge must not wait for it."""
    pid_file = tmp_path / "child.pid"
    orphan, random = specs(
        "gomoku",
        f"cmd={sys.executable} {RANDOM_BRAIN} --mode orphan --after 1 --sleep 1000 "
        f"--pid-file {pid_file},name=orphan",
        "level=random",
        turn_ms=100,
    )
    task = GameTask(
        index=0,
        game="gomoku",
        options={"size": 9},
        engines=(orphan, random),
        tolerance_ms=100,
    )
    records: list[GameRecord] = []
    judge = threading.Thread(target=lambda: records.append(play_game(task)), daemon=True)
    judge.start()
    judge.join(timeout=60)  # a guard against a hang, not a measure: it returns at once
    child = int(pid_file.read_text()) if pid_file.exists() else None
    try:
        assert not judge.is_alive(), "the judge waited for the brain's child"
        (record,) = records
        assert (record.reason, record.winner) == (TIME_FORFEIT, 1)
        assert child is not None
        for _ in range(100):  # the child was killed with its group: it is gone or a zombie
            if not _running(child):
                break
            time.sleep(0.1)
        assert not _running(child)
    finally:
        if child is not None and _running(child):
            os.kill(child, signal.SIGKILL)


def test_an_engine_that_cannot_start_stops_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = specs("gomoku", "cmd=/nonexistent/brain", "level=random")
    with pytest.raises(EngineMissingError, match="brain: '/nonexistent/brain' not found"):
        run_arena(ArenaSettings(game="gomoku", options={}, engines=missing, games=4))
    args = ["arena", "gomoku", "--engine", "cmd=/nonexistent/brain", "--engine", "level=random"]
    assert main([*args, "--records", str(tmp_path / "r.jsonl"), "--quiet"]) == 2
    assert "cannot start: brain: '/nonexistent/brain' not found" in capsys.readouterr().err
    dies = specs("gomoku", "cmd=/bin/false,name=dies", "level=random")  # exits at once
    result = run_arena(ArenaSettings(game="gomoku", options={}, engines=dies, games=4))
    (record,) = result.records
    assert (record.reason, record.not_started) == (CRASH, "dies")
    assert result.cut_short is not None
    assert result.cut_short.startswith("the match stopped: dies: could not start: the engine")
    assert result.cut_short.endswith("; 3 game(s) not played")


def test_sprt_stops_early_and_concurrency() -> None:
    settings = ArenaSettings(
        game="tictactoe",
        options={},
        engines=specs("tictactoe", "level=perfect", "level=easy"),
        games=200,
        openings=((),),
        concurrency=2,
        sprt=Sprt(elo0=0, elo1=400, alpha=0.1, beta=0.1),
    )
    result = run_arena(settings)
    assert result.sprt_decision in ("H0", "H1")
    assert len(result.records) < 200
    assert "SPRT" in format_table(result, settings.sprt)


def test_arena_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "games.jsonl"
    code = main(
        [
            "arena",
            "connect4",
            "--engine",
            "level=easy",
            "--engine",
            "level=medium",
            "--games",
            "2",
            "--records",
            str(records),
            "--quiet",
            "--turn-ms",
            "500",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "easy vs medium" in out and f"games saved to {records}" in out
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(games) == 2 and all(g["variant"] == "connect4" for g in games)
    assert main(["arena", "tictactoe", "--engine", "level=easy", "--engine", "level=easy"]) == 2
    assert "names must differ" in capsys.readouterr().err
    assert main(["arena", "tictactoe", "--engine", "level=easy", "--size", "9"]) == 2
