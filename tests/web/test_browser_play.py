"""The page in Debian's Chromium: whole games by click and by keyboard, Renju's refusals."""

from __future__ import annotations

from typing import Any

from page_support import after_reply, best_move, page_state, point, settle, start_game


def test_a_whole_tictactoe_game_against_perfect_by_clicking_is_a_draw(new_page: Any) -> None:
    page = new_page()
    start_game(page, "tictactoe", mode="human-ai", first="human", level="perfect")
    settle(page, 0)
    page.locator("#board").press("Enter")  # the keyboard cursor starts in the centre
    state = after_reply(page, 0)
    assert state["moves"][0]["text"] == "b2"
    while state["outcome"] is None:
        move = best_move(state, "perfect")
        page.click(f"#board rect[data-move='{move}']")
        state = after_reply(page, len(state["moves"]))
    assert state["outcome"]["winner"] is None
    assert page.locator("#status").inner_text().startswith("Draw")
    assert page.locator("#board .piece").count() == 9
    assert page.locator("#move-list .move").count() == 9


def test_connect_four_won_against_easy_with_the_keyboard(new_page: Any) -> None:
    page = new_page()
    start_game(page, "connect4", mode="human-ai", first="human", level="easy")
    board = page.locator("#board")
    board.focus()
    state = settle(page, 0)
    # The arrows move the cursor (drawn on the board) and Enter drops the disc there.
    board.press("ArrowLeft")
    assert page.locator("#board .cursor").count() == 1
    assert page.locator("#cursor-info").inner_text() == "Cursor on column 3"
    board.press("ArrowRight")
    board.press("Enter")  # the cursor starts over the centre column
    state = after_reply(page, 0)
    assert state["moves"][0]["move"] == state["board"]["width"] // 2
    assert page.locator("#board .drop animate").count() == 1  # the AI's disc falls
    while state["outcome"] is None:
        column = best_move(state, "hard")
        board.press(str(column + 1))
        state = after_reply(page, len(state["moves"]))
    assert state["outcome"]["winner"] == 0, state["outcome"]
    assert "You win" in page.locator("#status").inner_text()
    assert page.locator("#board .win").count() >= 4
    # Digits in a finished game are refused by the server, in words, and change nothing.
    board.press("1")
    page.wait_for_selector("#notice:not([hidden])")
    assert "over" in page.locator("#notice").inner_text()
    assert len(page_state(page)["moves"]) == len(state["moves"])


def test_a_renju_forbidden_point_is_marked_and_its_click_refused_with_the_reason(
    new_page: Any,
) -> None:
    page = new_page()
    start_game(page, "gomoku", mode="human-human", rule="renju", size=15)
    settle(page, 0)
    # Black h8 i8 (a row) and j9 j10 (a column): j8 would make two open threes.
    for number, name in enumerate(["h8", "a1", "i8", "a3", "j9", "a5", "j10", "a7"], start=1):
        page.click(f"#board rect[data-move='{point(name)}']")
        settle(page, number)
    j8 = point("j8")
    assert page.locator(f"#board [data-forbidden='{j8}']").count() == 1
    page.click(f"#board rect[data-move='{j8}']")
    page.wait_for_selector("#notice:not([hidden])")
    assert page.locator("#notice").inner_text() == "double-three at j8 is forbidden for black"
    assert len(page_state(page)["moves"]) == 8
    assert page.locator("#board .piece").count() == 8
    # The marks can be hidden; the rule still holds (the server refuses the point).
    page.uncheck("#show-forbidden")
    assert page.locator("#board [data-forbidden]").count() == 0


def test_a_full_connect_four_column_shows_no_hover_disc_and_is_refused(new_page: Any) -> None:
    page = new_page()
    start_game(page, "connect4", mode="human-human")
    board = page.locator("#board")
    assert page.locator("#board .column[data-move='0'] .hover-disc").count() == 1
    for number in range(1, 7):
        board.press("1")
        settle(page, number)
    assert page.locator("#board .column[data-move='0'] .hover-disc").count() == 0
    assert page.locator("#board .hover-disc").count() == 6
    board.press("1")
    page.wait_for_selector("#notice:not([hidden])")
    assert page.locator("#notice").inner_text() == "column 1 is full"
    assert len(page_state(page)["moves"]) == 6
