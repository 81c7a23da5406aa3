"""The boards in Chromium: coordinates on every board, one convention (a1 the bottom-left
cell, Connect Four's columns numbered as its moves), and analysis never drawn over a
piece nor once the game is over."""

from __future__ import annotations

from typing import Any

from page_support import after_reply, page_state, settle, start_game


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_tictactoe_coordinates_name_the_cells_as_the_moves_do(new_page: Any) -> None:
    page = new_page()
    start_game(page, "tictactoe", mode="human-human")
    settle(page, 0)
    coords = page.locator("#board .coords text")
    assert sorted(coords.all_text_contents()) == ["1", "2", "3", "a", "b", "c"]
    # "a" stands under the left column, "1" beside the bottom row: a1 is the bottom-left cell.
    bottom_left = centre(page, "#board rect[data-move='6']")
    top_right = centre(page, "#board rect[data-move='2']")
    a_x, a_y = centre(page, "#board .coords [data-coord='a']")
    one_x, one_y = centre(page, "#board .coords [data-coord='1']")
    c_x, _ = centre(page, "#board .coords [data-coord='c']")
    _, three_y = centre(page, "#board .coords [data-coord='3']")
    assert abs(a_x - bottom_left[0]) < 2 and a_y > bottom_left[1]
    assert abs(one_y - bottom_left[1]) < 2 and one_x < bottom_left[0]
    assert abs(c_x - top_right[0]) < 2 and abs(three_y - top_right[1]) < 2
    page.click("#board rect[data-move='6']")
    settle(page, 1)
    page.click("#board rect[data-move='2']")
    state = settle(page, 2)
    assert [step["text"] for step in state["moves"]] == ["a1", "c3"]
    assert page.locator("#move-list .move").all_text_contents() == ["a1", "c3"]
    # The keyboard cursor's name reads the same labels.
    page.locator("#board").focus()
    page.keyboard.press("ArrowDown")
    assert page.locator("#cursor-info").inner_text() == "Cursor on c2"


def test_connect_four_columns_are_numbered_as_its_moves(new_page: Any) -> None:
    page = new_page()
    start_game(page, "connect4", mode="human-human")
    settle(page, 0)
    names = page.locator("#board .coords text").all_text_contents()
    assert names == ["1", "2", "3", "4", "5", "6", "7"]
    five_x, five_y = centre(page, "#board .coords [data-coord='5']")
    column = page.locator("#board .column[data-move='4'] .column-glow").bounding_box()
    assert column is not None
    assert column["x"] < five_x < column["x"] + column["width"]
    assert five_y > column["y"] + column["height"]  # under the rack
    page.locator("#board").press("5")
    assert settle(page, 1)["moves"][0]["text"] == "5"


def test_gomoku_keeps_its_coordinates(new_page: Any) -> None:
    page = new_page()
    start_game(page, "gomoku", mode="human-human", size=9)
    settle(page, 0)
    texts = page.locator("#board .coords text").all_text_contents()
    assert texts.count("A") == 2 and texts.count("1") == 2 and texts.count("9") == 2


def heat_over_pieces(page: Any) -> list[int]:
    """The cells under a heat tile that hold a piece (none, ever)."""
    cells = page_state(page)["board"]["cells"]
    tiles = page.locator("#board .heat[data-heat]")
    marked = [int(tiles.nth(i).get_attribute("data-heat") or -1) for i in range(tiles.count())]
    return [cell for cell in marked if cells[cell] is not None]


def test_no_analysis_over_pieces_and_none_once_the_game_is_over(new_page: Any) -> None:
    page = new_page()
    start_game(page, "tictactoe", mode="human-ai", first="human", level="perfect")
    state = settle(page, 0)
    while not state["outcome"]:
        # The person plays badly (the first free cell), so the AI wins.
        move = min(state["legal"])
        page.click(f"#board rect[data-move='{move}']")
        state = after_reply(page, len(state["moves"]))
        assert heat_over_pieces(page) == []
        if not state["outcome"]:
            page.click("#hint")
            page.wait_for_selector("#board .hint")
            assert heat_over_pieces(page) == []
            assert page.locator("#board .heat").count() == len(page_state(page)["legal"])
            state = page_state(page)
    assert page.locator("#show-analysis").is_checked()
    assert page.locator("#board .heat").count() == 0
    assert page.locator("#board .pv").count() == 0


def test_connect_four_heat_skips_full_columns(new_page: Any) -> None:
    page = new_page()
    start_game(page, "connect4", mode="human-human")
    for number in range(1, 7):
        page.locator("#board").press("1")
        settle(page, number)
    page.click("#hint")
    page.wait_for_selector("#board .hint")
    heated = page.locator("#board .heat[data-heat]")
    columns = {heated.nth(i).get_attribute("data-heat") for i in range(heated.count())}
    # The hint is perfect's: heat on the columns it scored (this early, the best one
    # alone), never on column 1 (index 0), which is full.
    scored = {str(entry["move"]) for entry in page_state(page)["analysis"]["root_scores"]}
    assert columns == scored and columns and "0" not in columns
    # With the scores above the rack, the disc under the pointer shows where it would fall.
    page.hover("#board .column[data-move='3'] rect[data-move]")
    disc = page.locator("#board .column[data-move='3'] .hover-disc")
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector("
        "\"#board .column[data-move='3'] .hover-disc\")).opacity === '1'"
    )
    hole = disc.bounding_box()
    score = page.locator("#board .heat[data-heat='3']").bounding_box()
    rack = page.locator("#board .rack").bounding_box()
    assert hole is not None and score is not None and rack is not None
    assert hole["y"] > score["y"] + score["height"]  # not over the score
    assert hole["y"] + hole["height"] > rack["y"] + rack["height"] - rack["height"] / 6
