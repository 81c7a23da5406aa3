"""A 375 px phone: every board fits without horizontal scrolling and plays by touch."""

from __future__ import annotations

from typing import Any

from page_support import page_state, point, settle, start_game

PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "is_mobile": True}


def no_horizontal_scroll(page: Any) -> None:
    # The board is redrawn as the new game's state arrives: measure once it is drawn.
    page.wait_for_selector("#board svg", state="visible")
    box = None
    for _ in range(50):
        box = page.locator("#board svg").bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(100)
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide"


def test_a_phone_shows_every_board_without_horizontal_scrolling(new_page: Any) -> None:
    page = new_page(**PHONE)
    start_game(page, "gomoku", mode="human-human", rule="renju", size=22)
    no_horizontal_scroll(page)
    assert page.locator(".keys").is_hidden()  # no keyboard help on a touch screen
    page.tap(f"#board rect[data-move='{point('k11', 22)}']")
    settle(page, 1)
    assert page_state(page)["moves"][0]["text"] == "k11"
    page.click("#new-game")
    page.wait_for_selector("#new-game-dialog[open]")
    dialog = page.locator("#new-game-dialog").bounding_box()
    assert dialog is not None and dialog["x"] >= 0 and dialog["x"] + dialog["width"] <= 375
    page.select_option("#ng-game", "connect4")
    page.select_option("#ng-mode", "human-human")
    page.fill("#ng-width", "9")
    page.click("#new-game-start")
    page.wait_for_selector("#board[data-game='connect4']")
    no_horizontal_scroll(page)
    page.tap("#board .column[data-move='8'] rect[data-move]")
    settle(page, 1)
    page.click("#new-game")
    page.select_option("#ng-game", "tictactoe")
    page.click("#new-game-start")
    page.wait_for_selector("#board[data-game='tictactoe']")
    no_horizontal_scroll(page)
