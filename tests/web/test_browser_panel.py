"""The page's controls in Chromium: undo, hint, the heat map, save and load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from page_support import at_least, page_state, settle, start_game


def test_hint_shows_the_heat_map_from_the_movers_view_and_undo_takes_the_turn_back(
    new_page: Any,
) -> None:
    page = new_page()
    start_game(page, "tictactoe", mode="human-ai", first="human", level="perfect")
    settle(page, 0)
    page.click("#board rect[data-move='4']")
    state = settle(page, 2)
    # The AI's search, on the person's turn: the panel says plainly whose scores they are,
    # and the board never draws them over the pieces played since.
    reply = state["moves"][1]["text"]
    view = page.locator("#analysis-view").inner_text()
    assert view.startswith(f"The AI's search for its move {reply} — scores for O, the AI")
    assert view.endswith("not for you.")
    assert page.locator("#analysis-pv").inner_text().split()[0] == reply
    cells = state["board"]["cells"]
    heat = page.locator("#board .heat[data-heat]")
    for index in range(heat.count()):
        assert cells[int(heat.nth(index).get_attribute("data-heat") or 0)] is None
    page.click("#hint")
    page.wait_for_selector("#board .hint")
    state = page_state(page)
    assert state["analysis"]["hint"] is True
    assert "Hint for move 3: scores from X's view" in page.locator("#analysis-view").inner_text()
    assert page.locator("#board .heat").count() == len(state["legal"]) == 7
    # The board draws the hint from the state event; the status line says it once the
    # hint request itself has answered, which may come a moment later.
    page.wait_for_selector("#status:has-text('Hint:')")
    page.uncheck("#show-analysis")
    assert page.locator("#board .heat").count() == 0
    page.click("#undo")
    page.wait_for_selector("#board[data-moves='0']")
    assert page.locator("#board .piece").count() == 0
    assert page.locator("#undo").is_disabled()


def save_file(name: str, record: dict[str, Any]) -> dict[str, Any]:
    """A file for the page's file input."""
    return {"name": name, "mimeType": "application/json", "buffer": json.dumps(record).encode()}


def test_save_downloads_the_record_and_a_bad_file_is_refused_keeping_the_game(
    new_page: Any,
) -> None:
    page = new_page()
    start_game(page, "connect4", mode="human-human")
    for number, key in enumerate("4435", start=1):
        page.locator("#board").press(key)
        settle(page, number)
    with page.expect_download() as download:
        page.click("#save")
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["format"] == "abgames-game"
    assert record["moves"] == ["4", "4", "3", "5"]
    game_id = page_state(page)["id"]
    bad = {**record, "moves": ["4", "4", "4", "4", "4", "4", "4"]}
    page.set_input_files(
        "#load-file",
        files=[
            {"name": "bad.json", "mimeType": "application/json", "buffer": json.dumps(bad).encode()}
        ],
    )
    page.wait_for_selector("#notice:not([hidden])")
    notice = page.locator("#notice").inner_text()
    assert notice.startswith("bad.json was not loaded:") and "move 7" in notice, notice
    assert page_state(page)["id"] == game_id
    assert page.locator("#board .piece").count() == 4
    # The good file loads as a new game with the same position.
    page.set_input_files(
        "#load-file",
        files=[
            {
                "name": "good.json",
                "mimeType": "application/json",
                "buffer": json.dumps(record).encode(),
            }
        ],
    )
    page.wait_for_selector("#status:has-text('Loaded good.json')")
    loaded = page_state(page)
    assert loaded["id"] != game_id
    assert [step["text"] for step in loaded["moves"]] == ["4", "4", "3", "5"]
    # A bad file after it: the status no longer says the good one was loaded.
    page.set_input_files(
        "#load-file",
        files=[
            {
                "name": "bad2.json",
                "mimeType": "application/json",
                "buffer": json.dumps(bad).encode(),
            }
        ],
    )
    page.wait_for_selector("#notice:has-text('bad2.json was not loaded')")
    assert "Loaded good.json" not in page.locator("#status").inner_text()


def test_ai_against_ai_can_be_paused_stepped_and_slowed(new_page: Any) -> None:
    page = new_page()
    start_game(page, "connect4", mode="ai-ai", level="easy")
    assert page.locator("#watch").is_visible()
    assert page.locator("#speed-value").inner_text() == "0.4 s"  # a pace a person can follow
    at_least(page, 2)
    page.click("#pause")
    page.wait_for_selector("#board[data-status='paused']")
    assert page.locator("#pause").inner_text() == "Resume"
    paused_at = len(page_state(page)["moves"])
    page.click("#step")
    page.wait_for_selector(f"#board[data-moves='{paused_at + 1}'][data-status='paused']")
    page.locator("#speed").fill("1500")
    page.wait_for_selector("#speed-value:has-text('1.5 s')")
    page.click("#pause")  # resume
    at_least(page, paused_at + 2)
    assert page_state(page)["delay_ms"] == 1500
