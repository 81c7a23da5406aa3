"""Terminal sessions through a pipe: whole games, every command, every bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ENV = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}


def run_abgames(
    args: list[str], script: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abgames", *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )


def assert_clean(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 0, result.stderr


def test_tictactoe_full_games_between_humans() -> None:
    won = run_abgames(["play", "tictactoe", "--mode", "human-human"], "a1\nb1\na2\nb2\na3\n")
    assert_clean(won)
    assert "X wins: a1 a2 a3." in won.stdout
    drawn = run_abgames(
        ["play", "tictactoe", "--mode", "human-human"], "b2\na1\nc3\na3\na2\nc2\nb1\nb3\nc1\n"
    )
    assert_clean(drawn)
    assert "The game is a draw." in drawn.stdout


def test_tictactoe_against_the_perfect_ai_never_wins() -> None:
    # Try every cell in turn; taken cells are refused and the next is tried.
    script = "\n".join(["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"] * 2) + "\n"
    result = run_abgames(["play", "tictactoe", "--level", "perfect"], script)
    assert_clean(result)
    assert "X wins" not in result.stdout
    assert "is already taken." in result.stdout
    assert "The game is a draw." in result.stdout or "O (AI, perfect) wins" in result.stdout
    assert "O (AI) plays" in result.stdout and "depth" in result.stdout and "nodes" in result.stdout


def test_tictactoe_ai_against_ai_plays_to_a_draw() -> None:
    result = run_abgames(["play", "tictactoe", "--mode", "ai-ai"], "quit\n")
    assert_clean(result)
    assert "The game is a draw." in result.stdout
    assert result.stdout.count("(AI) plays") == 9


def test_connect4_full_game_between_humans() -> None:
    result = run_abgames(
        ["play", "connect4", "--mode", "human-human"], "1\n2\n1\n2\n1\n2\n1\nquit\n"
    )
    assert_clean(result)
    assert "Red wins" in result.stdout


def test_connect4_against_the_ai_to_the_end() -> None:
    script = "\n".join(["4", "3", "5", "2", "6", "1", "7"] * 8) + "\nquit\n"
    result = run_abgames(["play", "connect4", "--level", "easy"], script)
    assert_clean(result)
    assert "game over>" in result.stdout


def test_gomoku_full_game_between_humans() -> None:
    script = "h8\na1\nj8\na2\nk8\na3\nl8\na4\ni8\nquit\n"
    result = run_abgames(["play", "gomoku", "--mode", "human-human"], script)
    assert_clean(result)
    assert "Black wins: h8 i8 j8 k8 l8." in result.stdout


def test_gomoku_against_the_ai_to_the_end() -> None:
    points = [f"{c}{r}" for r in range(1, 8) for c in "abcdefg"]
    result = run_abgames(
        ["play", "gomoku", "--level", "easy", "--size", "9"], "\n".join(points) + "\nquit\n"
    )
    assert_clean(result)
    assert "game over>" in result.stdout  # the game reached its end


def test_every_bad_input_gets_one_line_and_a_new_prompt() -> None:
    script = "\n".join(
        [
            "",  # empty line
            "garbage!",
            "10",  # out of range
            "d1",
            "b2",
            "b2",  # occupied
            "save",  # missing file name
            "load",
            "load /no/such/file.json",
        ]
    )
    result = run_abgames(["play", "tictactoe", "--mode", "human-human"], script + "\n")
    assert_clean(result)
    out = result.stdout
    assert "Type a move or a command" in out
    assert "'garbage!' is not a cell" in out
    assert "'10' is not a cell" in out
    assert "'d1' is not a cell" in out
    assert "b2 is already taken." in out
    assert "Name a file: save FILE." in out
    assert "there is no file /no/such/file.json; the current game goes on." in out
    assert out.rstrip().endswith("Bye.")  # end of input leaves cleanly


def test_connect4_full_column_and_move_after_the_end() -> None:
    script = "4\n4\n4\n4\n4\n4\n4\n9\nx\n1\n2\n1\n2\n1\n2\n1\n3\nundo\nquit\n"
    result = run_abgames(["play", "connect4", "--mode", "human-human"], script)
    assert_clean(result)
    out = result.stdout
    assert "column 4 is full." in out
    assert "column 9 is off the board (1..7)." in out
    assert "'x' is not a column" in out
    assert "The game is over: type new, undo, save FILE or quit." in out
    assert "Took back 1." in out


def test_gomoku_errors() -> None:
    result = run_abgames(
        ["play", "gomoku", "--mode", "human-human"], "k16\nh8\nh8\n7,7\n99,1\nquit\n"
    )
    assert_clean(result)
    assert "k16 is off the 15x15 board." in result.stdout
    assert "h8 is already taken." in result.stdout
    assert "99,1 is off the 15x15 board." in result.stdout


def test_hint_why_undo_help_new() -> None:
    script = "why\nb2\nhint\nwhy\nundo\nhelp\nnew\nquit\n"
    result = run_abgames(["play", "tictactoe", "--level", "perfect"], script)
    assert_clean(result)
    out = result.stdout
    assert "No AI move has been played yet." in out
    assert "Hint: " in out and "score draw" in out
    assert "The AI played" in out and "Expected line:" in out and "Best candidates:" in out
    assert "Took back b2" in out
    assert "save FILE" in out  # help text
    assert "a1 is the bottom-left corner" in out  # the one convention of every board
    assert "New game." in out


def test_save_then_load_in_a_new_session(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    first = run_abgames(
        ["play", "connect4", "--mode", "human-human"], f"4\n5\n4\nsave {path}\nquit\n"
    )
    assert_clean(first)
    assert f"Saved to {path}." in first.stdout
    record = json.loads(path.read_text())
    assert record["moves"] == ["4", "5", "4"]
    second = run_abgames(
        ["play", "tictactoe", "--mode", "human-human"], f"load {path}\n4\n4\nquit\n"
    )
    assert_clean(second)
    assert "Loaded" in second.stdout and "connect4, 3 moves played" in second.stdout
    assert "Red wins" not in second.stdout


def test_corrupt_and_foreign_files_keep_the_current_game(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"format": "abgames-game", "vers')
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"name": "something else"}))
    listed = tmp_path / "listed.json"  # crashed the terminal: a list is not hashable
    listed.write_text(json.dumps({"format": "abgames-game", "version": 1, "game": ["connect4"]}))
    script = f"b2\nload {corrupt}\nload {foreign}\nload {listed}\nb2\nquit\n"
    result = run_abgames(["play", "tictactoe", "--mode", "human-human"], script)
    assert_clean(result)
    out = result.stdout
    assert "is not a saved game (bad JSON" in out and "the current game goes on." in out
    assert "this is not an abgames save file; the current game goes on." in out
    assert 'game in the save file: ["connect4"] is not one of' in out
    assert "b2 is already taken." in out  # the game was kept


def test_bad_command_line_options() -> None:
    result = run_abgames(["play", "gomoku", "--level", "perfect"], "")
    assert result.returncode == 2
    assert "gomoku has no level 'perfect'" in result.stderr
    assert "Traceback" not in result.stderr
    result = run_abgames(["play", "tictactoe", "--size", "9"], "")
    assert result.returncode == 2 and "--size does not apply to tictactoe" in result.stderr
    result = run_abgames(["play", "gomoku", "--size", "40"], "")
    assert result.returncode == 2 and "5..22" in result.stderr


def test_menu_sets_up_a_game() -> None:
    # game 3 (gomoku), mode 2 (human-human), rule standard, size 9, then a move and quit.
    result = run_abgames([], "3\n2\nstandard\n9\ne5\nquit\n")
    assert_clean(result)
    assert "a b c d e f g h i" in result.stdout
    assert "Move 2: White (human) to move." in result.stdout


def test_menu_rejects_bad_choices() -> None:
    result = run_abgames([], "7\nchess\n1\n\n\n\n")
    assert_clean(result)
    assert result.stdout.count("Please choose one of") == 2


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_at_the_prompt_leaves_cleanly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "abgames", "play", "tictactoe"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    assert process.stdout is not None
    # Wait for the first prompt, then interrupt.
    deadline = time.monotonic() + 60
    seen = ""
    while "X> " not in seen and time.monotonic() < deadline:
        seen += process.stdout.read(1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert "Traceback" not in out + err
    assert process.returncode == 0
    assert "Bye." in out


def test_renju_forbidden_move_is_refused_and_listed() -> None:
    # Black's cross h9 g8 i8 h7 makes h8 a double-three.
    script = "h9\na1\ng8\na2\ni8\na3\nh7\na4\nforbidden\nh8\nj10\nquit\n"
    result = run_abgames(["play", "gomoku", "--mode", "human-human", "--rule", "renju"], script)
    assert_clean(result)
    assert "Black may not play: h8 (double-three)." in result.stdout
    assert "double-three at h8 is forbidden for black." in result.stdout
    assert "Move 10: White (human) to move." in result.stdout  # j10 was accepted


def test_forbidden_outside_renju() -> None:
    result = run_abgames(["play", "gomoku", "--mode", "human-human"], "forbidden\nquit\n")
    assert_clean(result)
    assert "Only Renju forbids points; this game is freestyle." in result.stdout


HUGE_NUMBER = "9" * 5000


def test_digit_like_characters_and_huge_numbers_are_refused_in_every_notation() -> None:
    # Only ASCII digits name a move: "²" made int() raise, "١" (Arabic-Indic one) was read.
    lines = ["²", "١", "٤", HUGE_NUMBER, "quit"]
    for game in ("tictactoe", "connect4"):
        result = run_abgames(["play", game, "--mode", "human-human"], "\n".join(lines) + "\n")
        assert_clean(result)
        noun = "cell" if game == "tictactoe" else "column"
        assert f"'²' is not a {noun}" in result.stdout
        assert f"'١' is not a {noun}" in result.stdout
        assert HUGE_NUMBER[:100] not in result.stdout  # cut, not echoed whole
    gomoku = run_abgames(
        ["play", "gomoku", "--mode", "human-human"],
        f"{HUGE_NUMBER},1\n1,{HUGE_NUMBER}\n٤,4\nh８\nh8\nquit\n",
    )
    assert_clean(gomoku)
    assert gomoku.stdout.count("is off the 15x15 board.") == 2
    assert "'٤,4' is not a point" in gomoku.stdout
    assert "'h８' is not a point" in gomoku.stdout
    assert "Move 2: White (human) to move." in gomoku.stdout  # h8 was played


def test_menu_refuses_digit_like_characters_and_huge_numbers() -> None:
    result = run_abgames([], f"²\n{HUGE_NUMBER}\n３\n1\n2\nquit\n")
    assert_clean(result)
    assert result.stdout.count("Please choose one of") == 3
    assert "Move 1: X (human) to move." in result.stdout
    size = run_abgames([], f"3\n2\nfreestyle\n{HUGE_NUMBER}\n²\n9\nquit\n")
    assert_clean(size)
    assert size.stdout.count("Please type a whole number from 5 to 22") == 2
    assert "a b c d e f g h i" in size.stdout


def test_lines_that_are_not_utf8_are_reported_and_skipped() -> None:
    # Under a strict UTF-8 locale the byte 0xff raised UnicodeDecodeError.
    result = subprocess.run(
        [sys.executable, "-m", "abgames", "play", "tictactoe", "--mode", "human-human"],
        input=b"\xff\nb\xe92\nb2\nquit\n",
        capture_output=True,
        timeout=300,
        env={**ENV, "PYTHONIOENCODING": "utf-8:strict"},
    )
    out, err = result.stdout.decode(), result.stderr.decode()
    assert "Traceback" not in out + err and result.returncode == 0, err
    assert "Input line 1 is not utf-8 text; it was skipped." in out
    assert "Input line 2 is not utf-8 text; it was skipped." in out
    assert "Move 2: O (human) to move." in out  # b2 on line 3 was played


def test_why_after_a_solved_search_lists_solved_scores_only() -> None:
    # a3 b2 c3 b3 a2: the AI's b1 wins at once; the search stopped there, so the other
    # moves' scores were evaluations ("a1 +10, c1 +1, c2 draw"), shown as if solved.
    result = run_abgames(["play", "tictactoe", "--level", "perfect"], "a3\nc3\na2\nwhy\nquit\n")
    assert_clean(result)
    assert "O (AI) plays b1" in result.stdout
    candidates = next(
        line for line in result.stdout.splitlines() if line.startswith("Best candidate")
    )
    assert candidates == (
        "Best candidate: b1 wins in 1 move (3 other moves were not searched to the end)"
    )


def test_undo_takes_a_number_of_turns_and_commands_refuse_extra_words() -> None:
    script = "a1\nb1\na2\nb2\nundo undo\nundo 2\nundo 5\nundo\nhelp me\nquit now\nb2\nquit\n"
    result = run_abgames(["play", "tictactoe", "--mode", "human-human"], script)
    assert_clean(result)
    out = result.stdout
    assert "undo takes a number of turns, like undo 2, not 'undo'." in out
    assert "Took back a2 b2." in out and "Took back a1 b1." in out
    assert "there is no move to take back." in out
    assert "help takes nothing after it ('me'): type help alone." in out
    assert "quit takes nothing after it ('now'): type quit alone." in out
    assert "Move 2: O (human) to move." in out.split("quit takes nothing")[1]  # b2 played


def test_a_huge_bad_line_is_echoed_cut_short() -> None:
    line = "z" * 100_000
    for game in ("tictactoe", "connect4", "gomoku"):
        script = f"{line}\nload {line}\nsave {line}\nquit\n"
        result = run_abgames(["play", game, "--mode", "human-human"], script)
        assert_clean(result)
        assert "z" * 37 + "..." in result.stdout
        assert "File name too long" in result.stdout
        assert max(len(out_line) for out_line in result.stdout.splitlines()) < 300


def test_gui_asked_for_without_a_display_says_why() -> None:
    env = {k: v for k, v in ENV.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = subprocess.run(
        [sys.executable, "-m", "abgames"],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "ABGAMES_UI": "gui"},
    )
    assert_clean(result)
    assert "ABGAMES_UI=gui, but" in result.stderr and "using the terminal" in result.stderr
    assert "Game?" in result.stdout
