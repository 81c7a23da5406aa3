"""/puzzles in Chromium: a Gomoku puzzle solved by a line other than the stored one, by
clicks on a desktop and taps on a 375 px phone; a wrong move shows its refutation.

No timing: each step waits for the board's ``data-moves`` / ``data-status``, which the
page sets from the server's answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from abgames.games.gomoku import Gomoku
from abgames.puzzles import check
from abgames.puzzles.catalogue import by_id

PUZZLE = "gi115"  # an intro VCF (Renju): the stored line starts j5, g8 wins as well
OTHER_FIRST = "g8"
WRONG_FIRST = "f8"
PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
#: Longest wait for the server's judgement (a correctness bound, not a timing: the
#: first check in a worker loads, or compiles, the engines' kernels).
JUDGED_MS = 240_000


def shown(page: Any) -> dict[str, Any]:
    view: dict[str, Any] = page.evaluate("() => window.abgames.puzzle")
    return view


def open_puzzle(page: Any) -> Gomoku:
    page.goto(f"/puzzles#p={PUZZLE}")
    page.wait_for_selector(f"#board[data-puzzle='{PUZZLE}'][data-status='playing'][data-moves='0']")
    state = by_id()[PUZZLE].start()
    assert isinstance(state, Gomoku)
    return state


def play(page: Any, move: int, touch: bool) -> None:
    target = page.locator(f"#board rect[data-move='{move}']")
    if touch:
        target.tap()
    else:
        target.click()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_puzzle_solved_by_another_line_than_the_stored_one(new_page: Any, device: str) -> None:
    touch = device == "phone"
    page = new_page(**(PHONE if touch else DESKTOP))
    state = open_puzzle(page)
    assert "Black to play and win" in page.inner_text("#task")
    assert "VCF" in page.inner_text("#themes")
    first = state.parse_move(OTHER_FIRST)
    assert first != by_id()[PUZZLE].solution[0]
    move, played = first, 0
    while True:
        play(page, move, touch)
        page.wait_for_selector(
            f"#board[data-moves='{played + 2}'][data-status='playing'], "
            f"#board[data-moves='{played + 1}'][data-status='solved']",
            timeout=JUDGED_MS,
        )
        view = shown(page)
        assert view["status"] != "failed"
        if view["status"] == "solved":
            break
        played += 2
        position = by_id()[PUZZLE].after(step["move"] for step in view["state"]["moves"])
        assert isinstance(position, Gomoku)
        win = check.gomoku_win(position)
        assert win is not None
        move = win[1][0]
    line = tuple(step["move"] for step in view["state"]["moves"])
    assert line != by_id()[PUZZLE].solution
    assert "Solved" in page.inner_text("#status")
    assert int(page.inner_text("#rating").rstrip("?")) > 1500
    assert page.inner_text("#streak") == "1"
    assert page.is_visible("#solution-box")  # a stored winning line, shown at the end
    if touch:
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 375, f"the page is {width} px wide"
        box = page.locator("#board svg").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375


def test_a_wrong_move_shows_the_refutation(new_page: Any) -> None:
    page = new_page(**DESKTOP)
    state = open_puzzle(page)
    play(page, state.parse_move(WRONG_FIRST), touch=False)
    page.wait_for_selector("#board[data-moves='2'][data-status='failed']", timeout=JUDGED_MS)
    view = shown(page)
    refutation = view["reply"]
    assert view["state"]["last_move"] == refutation["move"]  # on the board, marked last
    assert f"White answers {refutation['text']}" in page.inner_text("#status")
    assert page.is_visible("#solution-box")
    assert page.is_disabled("#hint") and not page.is_disabled("#retry")
    page.click("#retry")
    page.wait_for_selector(f"#board[data-puzzle='{PUZZLE}'][data-status='playing'][data-moves='0']")


def test_a_hint_rings_the_engines_move_and_next_brings_a_puzzle(new_page: Any) -> None:
    page = new_page(**DESKTOP)
    open_puzzle(page)
    page.click("#hint")
    page.wait_for_selector("#board .hint", timeout=JUDGED_MS)
    assert "Hint:" in page.inner_text("#status")
    page.select_option("#game-filter", "connect4")
    page.wait_for_selector("#board[data-game='connect4'][data-status='playing'][data-moves='0']")
    assert "one winning move" in page.inner_text("#themes")


def test_the_game_page_links_to_the_puzzles(new_page: Any) -> None:
    page = new_page(**DESKTOP)
    page.goto("/")
    assert page.locator("header a[href='/puzzles']").count() == 1


def test_a_connect4_puzzle_solved_with_the_keyboard(new_page: Any) -> None:
    page = new_page(**DESKTOP)
    puzzle = by_id()["c4001"]
    page.goto(f"/puzzles#p={puzzle.id}")
    page.wait_for_selector(f"#board[data-puzzle='{puzzle.id}'][data-moves='0']")
    page.focus("#board")
    state = puzzle.start()
    column, played = puzzle.solution[0], 0
    while True:
        page.keyboard.press(str(column + 1))  # digits drop a disc: 1 is the left column
        page.wait_for_selector(
            f"#board[data-moves='{played + 2}'][data-status='playing'], "
            f"#board[data-moves='{played + 1}'][data-status='solved']",
            timeout=JUDGED_MS,
        )
        view = shown(page)
        if view["status"] == "solved":
            break
        played += 2
        state = puzzle.after(step["move"] for step in view["state"]["moves"])
        hint = check.hint(state)
        assert hint is not None
        column = hint
    assert "Solved" in page.inner_text("#status")
    # The arrows move a cursor and Enter plays there (a retry, unrated).
    page.click("#retry")
    page.wait_for_selector(
        f"#board[data-puzzle='{puzzle.id}'][data-moves='0'][data-status='playing']"
    )
    page.focus("#board")
    start = puzzle.solution[0]
    for _ in range(abs(start - 3)):
        page.keyboard.press("ArrowRight" if start > 3 else "ArrowLeft")
    if start == 3:
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowRight")
    page.wait_for_selector("#board .cursor")
    page.keyboard.press("Enter")
    page.wait_for_selector(
        "#board[data-moves='2'], #board[data-status='solved']", timeout=JUDGED_MS
    )
