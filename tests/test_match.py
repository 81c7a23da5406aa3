"""Match: seats, undo by turn, hints, analyses and save files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from abgames.games import ConnectFour, Gomoku, IllegalMoveError, TicTacToe
from abgames.match import AI, HUMAN, Match, SaveFileError, Seat, seats_for


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


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old contents")
    Match(TicTacToe(), seats_for("human-human", HUMAN, "hard")).save(target)
    assert json.loads(target.read_text())["game"] == "tictactoe"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


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
            "unknown game",
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
            "bad settings",
        ),
        (
            '{"format": "abgames-game", "version": 1, "game": "tictactoe", "options": {},'
            ' "moves": [], "players": ["human", "robot"], "levels": [null, null]}',
            "bad settings",
        ),
        (
            '{"format": "abgames-game", "version": 1, "game": "tictactoe", "options": {},'
            ' "moves": [], "players": ["human", "ai"], "levels": [null, "godlike"]}',
            "bad players",
        ),
    ],
)
def test_broken_save_files_are_refused_clearly(tmp_path: Path, contents: str, message: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(contents)
    with pytest.raises(SaveFileError, match=message):
        Match.load(path)


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
