"""Looking back through a game and the engine's review, in Debian's Chromium: the move
list and the arrow keys step through earlier positions; a finished Connect Four game's
thrown-away win is marked at its move; a Gomoku game's forced win allowed and missed."""

from __future__ import annotations

from typing import Any

from page_support import page_state, point, start_game

#: The review of a short game, at most (a correctness bound, not a timing).
REVIEW_MS = 60_000
PHONE = {"width": 375, "height": 667}


def pieces(page: Any) -> int:
    return int(page.locator("#board .piece").count())


def play_clicks(page: Any, moves: list[int]) -> None:
    """Play ``moves`` (the page's move numbers) by clicking, each waiting for the last."""
    for index, move in enumerate(moves):
        page.locator(f"#board rect[data-move='{move}']").first.click()
        page.wait_for_selector(f"#board[data-moves='{index + 1}']")


def test_the_move_list_and_the_arrow_keys_step_through_the_game(new_page: Any) -> None:
    page = new_page()
    start_game(page, "tictactoe", mode="human-human")
    play_clicks(page, [4, 0, 8, 2, 6])
    assert pieces(page) == 5
    page.locator("#move-list .move[data-ply='2']").click()
    page.wait_for_selector("#board[data-view-ply='2']")
    assert pieces(page) == 2
    assert "Looking back: move 2 of 5 (after" in page.locator("#viewing").inner_text()
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#board[data-view-ply='1']")
    assert pieces(page) == 1
    assert page.locator("#status").inner_text().startswith("Looking back at move 1 of 5: O to move")
    page.keyboard.press("Home")
    page.wait_for_selector("#board[data-view-ply='0']")
    assert pieces(page) == 0
    # Looking back is read-only: a click does not play.
    page.locator("#board rect[data-move='1']").click()
    assert len(page_state(page)["moves"]) == 5
    assert "press Live to play" in page.locator("#status").inner_text()
    page.click("#step-forward")  # on the board itself the arrows move its cursor
    page.wait_for_selector("#board[data-view-ply='1']")
    page.keyboard.press("End")
    page.wait_for_selector("#board[data-view-ply='live']")
    assert pieces(page) == 5
    page.locator("#board rect[data-move='1']").click()  # live again: it plays
    page.wait_for_selector("#board[data-moves='6']")


def test_a_connect_four_game_marks_the_thrown_away_win_at_its_move(new_page: Any) -> None:
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    start_game(page, "connect4", mode="human-human")
    # Red 4 5 6 on the bottom row; Yellow on 4 5 and 7; Red plays 1 instead of the
    # winning 3, Yellow blocks 3; then the game goes on to Yellow's win in column 7.
    columns = [4, 4, 5, 5, 6, 7, 1, 3, 1, 7, 1, 7, 2, 7]
    play_clicks(page, [column - 1 for column in columns])
    assert page_state(page)["outcome"]["winner"] == 1
    page.click("#review-start")
    page.wait_for_selector("#review-marks li", timeout=REVIEW_MS)
    marks = page_state(page)["review"]["result"]["marks"]
    thrown = [mark for mark in marks if mark["ply"] == 6]  # Red's 1 instead of 3
    assert thrown == [
        {
            "ply": 6,
            "kind": "threw-win",
            "text": thrown[0]["text"],
            "better": 2,
            "better_text": "3",
            "by": "Red",
        }
    ]
    link = page.locator("#review-marks .mark-link[data-ply='7']")
    assert link.inner_text().startswith("4. 1: Red threw away the win")
    assert page.locator("#move-list .move[data-ply='7']").inner_text() == "1??"
    assert page.locator("#review-graph svg .graph-mark").count() == len(marks)
    link.click()
    page.wait_for_selector("#board[data-view-ply='7']")
    assert pieces(page) == 7
    # The graph: a click on its first strip goes to the start.
    page.locator("#review-graph .graph-hit[data-ply='0']").click()
    page.wait_for_selector("#board[data-view-ply='0']")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_a_gomoku_game_review_names_the_forced_wins(new_page: Any) -> None:
    page = new_page()
    start_game(page, "gomoku", mode="human-human")
    moves = ["h8", "g8", "i8", "a1", "j8", "a2", "k8", "a3", "o15", "l8"]
    play_clicks(page, [point(text) for text in moves])
    page.click("#review-start")
    page.wait_for_selector("#review-progress:not([hidden]), #review-marks li", timeout=REVIEW_MS)
    page.wait_for_selector("#review-marks li", timeout=REVIEW_MS)
    texts = page.locator("#review-marks .mark-link").all_inner_texts()
    assert any(t.startswith("4… a3: White allowed a forced win (VCF in 1)") for t in texts)
    assert any(t.startswith("5. o15: Black missed a forced win (VCF in 1)") for t in texts)
