"""Match: seats, undo by turn, hints, analyses and save files."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abgames.games import ConnectFour, Gomoku, IllegalMoveError, TicTacToe
from abgames.match import AI, HUMAN, Match, SaveFileError, Seat, seats_for
from conftest import UNBLOCKABLE_FOUR


def human_vs_ai(state: object, level: str = "perfect", human_first: bool = True) -> Match:
    assert isinstance(state, TicTacToe | ConnectFour | Gomoku)
    return Match(state, seats_for("human-ai", HUMAN if human_first else AI, level))


def test_seats_for_each_mode() -> None:
    assert seats_for("human-ai", HUMAN, "hard") == (Seat(HUMAN), Seat(AI, "hard"))
    assert seats_for("human-ai", AI, "hard") == (Seat(AI, "hard"), Seat(HUMAN))
    assert seats_for("human-human", HUMAN, "hard") == (Seat(HUMAN), Seat(HUMAN))
    assert seats_for("ai-ai", HUMAN, "easy") == (Seat(AI, "easy"), Seat(AI, "easy"))
    with pytest.raises(ValueError, match="unknown mode"):
        seats_for("robots", HUMAN, "hard")


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="no level 'perfect'"):
        Match(Gomoku(), seats_for("human-ai", HUMAN, "perfect"))


def test_renju_black_ai_plays_on_when_its_only_block_is_forbidden() -> None:
    # The apps play the AI's move through Match; a forbidden one raised there.
    state = Gomoku.from_notation(UNBLOCKABLE_FOUR, rule="renju")
    match = Match(state, seats_for("human-ai", AI, "hard"))
    assert match.ai_to_move
    result = match.ai_move()
    assert result.move is not None and state.ply == len(UNBLOCKABLE_FOUR.split()) + 1
    assert state.moves[-1] != state.parse_move("j10")


def test_ai_move_keeps_its_analysis() -> None:
    match = human_vs_ai(TicTacToe())
    match.play(match.parse("a1"))
    assert match.ai_to_move
    result = match.ai_move()
    assert match.state.moves[-1] == result.move
    assert match.analyses == [None, result]
    last = match.last_ai_analysis()
    assert last is not None and last[1] is result


def test_undo_against_the_ai_takes_back_the_pair() -> None:
    match = human_vs_ai(TicTacToe())
    match.play(match.parse("a1"))
    match.ai_move()
    taken = match.undo()
    assert len(taken) == 2 and match.state.ply == 0
    assert match.analyses == []
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        match.undo()


def test_undo_when_the_ai_moved_first() -> None:
    match = human_vs_ai(ConnectFour(), level="easy", human_first=False)
    match.ai_move()
    with pytest.raises(IllegalMoveError, match="no move of yours"):
        match.undo()
    match.play(0)
    match.ai_move()
    assert match.undo() and match.state.ply == 1 and not match.ai_to_move


def test_undo_between_humans_is_one_move() -> None:
    match = Match(TicTacToe(), seats_for("human-human", HUMAN, "hard"))
    match.play(0)
    match.play(4)
    assert match.undo() == [4]
    assert match.state.moves == [0]


def test_undo_after_the_human_won() -> None:
    match = Match(TicTacToe.from_notation("a1 b1 a2 b2"), seats_for("human-ai", HUMAN, "easy"))
    match.play(match.parse("a3"))
    assert match.is_over
    assert match.undo() == [match.state.parse_move("a3")]
    assert not match.is_over


def test_hint_does_not_play() -> None:
    match = human_vs_ai(TicTacToe.from_notation("a1 b2 b1"), level="easy")
    hint = match.hint()
    assert hint.move == match.parse("c1")
    assert match.state.ply == 3


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    match = Match(Gomoku(size=9, rule="standard"), seats_for("human-ai", AI, "easy"))
    match.ai_move()
    match.play(match.parse("a1"))
    path = match.save(tmp_path / "game.json")
    record = json.loads(path.read_text())
    assert record["game"] == "gomoku"
    assert record["options"] == {"size": 9, "rule": "standard"}
    assert record["players"] == ["ai", "human"] and record["levels"] == ["easy", None]
    loaded = Match.load(path)
    assert loaded.state.moves == match.state.moves
    assert loaded.seats == match.seats
    assert loaded.state.key == match.state.key


def test_tictactoe_saves_name_cells_from_the_bottom_and_read_back(tmp_path: Path) -> None:
    # X takes the top-left corner (cell 0), O the centre, X the bottom-right (cell 8).
    match = Match(TicTacToe.from_moves([0, 4, 8]), seats_for("human-human", HUMAN, "easy"))
    path = match.save(tmp_path / "game.json")
    record = json.loads(path.read_text())
    assert record["version"] == 2
    assert record["moves"] == ["a3", "b2", "c1"]
    assert Match.load(path).state.moves == [0, 4, 8]


def test_version1_tictactoe_saves_count_rows_from_the_top(tmp_path: Path) -> None:
    # Version 1 wrote a1 for the top-left corner and c1 for the top-right.
    path = tmp_path / "old.json"
    path.write_text(
        '{"format": "abgames-game", "version": 1, "game": "tictactoe", "options": {},'
        ' "moves": ["a1", "b2", "c1", "1 2", "3 3"], "players": ["human", "ai"],'
        ' "levels": [null, "easy"]}'
    )
    loaded = Match.load(path)
    assert isinstance(loaded.state, TicTacToe)
    assert loaded.state.moves == [0, 4, 2, 1, 8]
    assert loaded.state.cells[:3] == [0, 1, 0]  # the top row: X O X
    # Saved again, it is a version 2 file naming the same cells the new way.
    again = json.loads(loaded.save(tmp_path / "new.json").read_text())
    assert again["version"] == 2
    assert again["moves"] == ["a3", "b2", "c3", "b3", "c1"]
    assert Match.load(tmp_path / "new.json").state.moves == [0, 4, 2, 1, 8]


@pytest.mark.parametrize(
    ("game", "options", "moves"),
    [("connect4", {}, ["4", "4", "3"]), ("gomoku", {"size": 9}, ["a1", "e5", "i9"])],
)
def test_version1_saves_of_other_games_read_as_before(
    tmp_path: Path, game: str, options: dict[str, int], moves: list[str]
) -> None:
    path = tmp_path / "old.json"
    record = {
        "format": "abgames-game",
        "game": game,
        "options": options,
        "moves": moves,
        "players": ["human", "human"],
        "levels": [None, None],
    }
    path.write_text(json.dumps(record | {"version": 1}))
    old = Match.load(path).state
    path.write_text(json.dumps(record | {"version": 2}))
    assert Match.load(path).state.moves == old.moves
    assert [old.format_move(move) for move in old.moves] == moves


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old contents")
    Match(TicTacToe(), seats_for("human-human", HUMAN, "hard")).save(target)
    assert json.loads(target.read_text())["game"] == "tictactoe"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_failed_save_leaves_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "game.json").mkdir()  # the rename over a folder fails
    match = Match(TicTacToe(), seats_for("human-human", HUMAN, "hard"))
    with pytest.raises(SaveFileError, match="cannot save"):
        match.save(tmp_path / "game.json")
    assert temporaries(tmp_path) == []


def test_save_removes_stale_temporaries_of_its_own_name_only(tmp_path: Path) -> None:
    stale = tmp_path / ".game.json.0123456789abcdef.tmp"  # a save killed an hour ago
    fresh = tmp_path / ".game.json.fedcba9876543210.tmp"  # a save running now
    other = tmp_path / ".notes.json.0123456789abcdef.tmp"
    unlike = tmp_path / ".game.json.mine.tmp"
    for path in (stale, fresh, other, unlike):
        path.write_text("{")
    hour_ago = time.time() - 3600
    for path in (stale, other, unlike):
        os.utime(path, (hour_ago, hour_ago))
    Match(TicTacToe(), seats_for("human-human", HUMAN, "hard")).save(tmp_path / "game.json")
    assert temporaries(tmp_path) == sorted(p.name for p in (fresh, other, unlike))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_save_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old")
    target.chmod(0o640)
    match = Match(TicTacToe(), seats_for("human-human", HUMAN, "hard"))
    match.save(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fresh = tmp_path / "new.json"
    umask = os.umask(0o022)
    try:
        match.save(fresh)
    finally:
        os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644  # as open() would make it


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
def test_save_writes_through_a_symbolic_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "game.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    Match(TicTacToe.from_notation("b2"), seats_for("human-human", HUMAN, "hard")).save(link)
    assert link.is_symlink()
    assert json.loads(real.read_text())["moves"] == ["b2"]
    assert temporaries(tmp_path) == [] and temporaries(tmp_path / "real") == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX directory sync")
def test_save_syncs_the_folder_after_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(descriptor).st_mode) else "file")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    Match(TicTacToe(), seats_for("human-human", HUMAN, "hard")).save(tmp_path / "game.json")
    assert synced == ["file", "folder"]


def test_save_to_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    match = Match(TicTacToe(), seats_for("human-human", HUMAN, "hard"))
    with pytest.raises(SaveFileError, match="cannot save"):
        match.save(tmp_path / "no" / "such" / "game.json")


@pytest.mark.parametrize(
    ("contents", "message"),
    [
        ("{not json", "not a saved game"),
        ('{"hello": 1}', "not an abgames save file"),
        ("[1, 2]", "not an abgames save file"),
        (
            '{"format": "abgames-game", "version": 9, "game": "tictactoe"}',
            "version 9 is not supported",
        ),
        (
            '{"format": "abgames-game", "version": 1, "game": "chess", "moves": []}',
            'game in the save file: "chess" is not one of tictactoe, connect4, gomoku',
        ),
        (
            '{"format": "abgames-game", "version": 1, "game": "tictactoe", "options": {},'
            ' "moves": ["b2", "b2"], "players": ["human", "human"], "levels": [null, null]}',
            "move 2 .'b2'. in the save file: b2 is already taken",
        ),
        (
            '{"format": "abgames-game", "version": 1, "game": "connect4", "options": {},'
            ' "moves": ["9"], "players": ["human", "human"], "levels": [null, null]}',
            "column 9 is off the board",
        ),
        (
            '{"format": "abgames-game", "version": 1, "game": "gomoku", "options": {"size": 99},'
            ' "moves": [], "players": ["human", "human"], "levels": [null, null]}',
            "options in the save file: a Gomoku board is 5..22 points wide, not 99",
        ),
        (
            '{"format": "abgames-game", "version": 1, "game": "tictactoe", "options": {},'
            ' "moves": [], "players": ["human", "robot"], "levels": [null, null]}',
            "players.1. in the save file must be 'human' or 'ai', not .robot.",
        ),
        (
            '{"format": "abgames-game", "version": 1, "game": "tictactoe", "options": {},'
            ' "moves": [], "players": ["human", "ai"], "levels": [null, "godlike"]}',
            'levels.1. in the save file: "godlike" is not a level of tictactoe',
        ),
    ],
)
def test_broken_save_files_are_refused_clearly(tmp_path: Path, contents: str, message: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(contents)
    with pytest.raises(SaveFileError, match=message):
        Match.load(path)


def saved(**fields: object) -> str:
    """A valid save file's JSON text with some fields replaced."""
    record: dict[str, object] = {
        "format": "abgames-game",
        "version": 1,
        "game": "connect4",
        "options": {},
        "moves": ["4"],
        "players": ["human", "ai"],
        "levels": [None, "easy"],
    }
    record.update(fields)
    return json.dumps(record)


@pytest.mark.parametrize(
    ("contents", "message"),
    [
        # Each of these raised TypeError, RecursionError or ValueError, or showed internals.
        (saved(levels=[None, [1]]), r"levels\[1\] in the save file: \[1\] is not a level"),
        (saved(game=["connect4"]), r'game in the save file: \["connect4"\] is not one of'),
        ("[" * 200_000 + "]" * 200_000, "not a saved game .nested too deeply."),
        (
            saved().replace('"version": 1', '"version": ' + "9" * 5000),
            "not a saved game .a number in it is too long.",
        ),
        (saved(version=True), "version true is not supported"),
        (saved(options={"colour": "red"}), r"options.colour in the save file: connect4 has no"),
        (
            saved(options={"width": "7"}),
            'options.width in the save file must be a whole number, not "7"',
        ),
        (saved(options={"width": True}), "options.width .* must be a whole number, not true"),
        (
            saved(game="gomoku", options={"rule": 3}, moves=[], levels=[None, "easy"]),
            "options.rule in the save file must be a string, not 3",
        ),
        (saved(moves=["4", 4]), "move 2 in the save file is not a string: 4"),
        (saved(moves="44"), 'moves in the save file: "44" is not a list'),
        (saved(players=["human"]), "players in the save file must be a list of two seats"),
        (saved(players=[{}, "ai"]), r"players\[0\] in the save file must be"),
        (saved(levels=[None, None]), r"levels\[1\] in the save file: an AI seat needs a level"),
        (saved(levels={"a": 1}), "levels in the save file must be a list of two levels"),
        (saved(moves=["x" * 100_000]), r"move 1 \('x{37}\.\.\.'\)"),
    ],
)
def test_corrupt_save_files_name_the_bad_field(tmp_path: Path, contents: str, message: str) -> None:
    path = tmp_path / "corrupt.json"
    path.write_text(contents)
    with pytest.raises(SaveFileError, match=message):
        Match.load(path)


def test_huge_save_files_are_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(saved(padding=" " * 1_000_000))
    with pytest.raises(SaveFileError, match="over 1,000,000 bytes"):
        Match.load(path)


@settings(max_examples=300, deadline=None)
@given(
    field=st.sampled_from(["format", "version", "game", "options", "moves", "players", "levels"]),
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=6,
    ),
)
def test_load_raises_only_save_file_errors(field: str, value: object) -> None:
    # from_record is what load runs after parsing; any field of any JSON type.
    record = json.loads(saved())
    record[field] = value
    with contextlib.suppress(SaveFileError):
        Match.from_record(record)


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="there is no file"):
        Match.load(tmp_path / "nothing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(SaveFileError, match="cannot read"):
        Match.load(binary)


def test_restart_keeps_settings_and_clears_the_game() -> None:
    match = Match(ConnectFour(width=6, height=5), seats_for("human-ai", HUMAN, "easy"))
    match.play(2)
    match.ai_move()
    match.restart()
    assert match.state.ply == 0 and match.analyses == []
    assert match.state.options() == {"width": 6, "height": 5}


def test_choosing_a_game_does_not_load_the_other_games_kernels() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from abgames.match import Match, new_state, seats_for\n"
        "Match(new_state('tictactoe'), seats_for('human-ai', 'human', 'perfect')).hint()\n"
        "print('numba' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
