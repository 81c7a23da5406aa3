"""The page's layout in Chromium: the lines under the board (status, a two-line error,
the AI's progress line) stay in the window, on a laptop and on a phone, whatever the board."""

from __future__ import annotations

import json
from typing import Any

import pytest
from page_support import settle, start_game

LAPTOP = {"viewport": {"width": 1280, "height": 860}}
PHONE = {"viewport": {"width": 375, "height": 667}, "has_touch": True, "is_mobile": True}

#: A save file whose seventh move does not fit: the page refuses it with a long notice.
BROKEN = {
    "format": "abgames-game",
    "version": 2,
    "game": "connect4",
    "options": {},
    "moves": ["4"] * 7,
    "players": ["human", "human"],
    "levels": [None, None],
}
LONG_NAME = "a-saved-game-from-last-week-that-someone-edited-by-hand-and-broke.json"

#: A search's progress, long enough to need more than one line on any screen.
PROGRESS = {
    "depth": 14,
    "nodes": 123_456_789,
    "elapsed": 12.3,
    "text": "h8",
    "score_text": "wins in 17 moves",
    "note": None,
    "pv": [{"move": n, "text": f"{'abcdefghijklmno'[n % 15]}{n % 15 + 1}"} for n in range(24)],
}
LAST_STEP = "i9"  # the line's last move, at the far end of the progress line


#: An element's line height in pixels.
LINE_HEIGHT = (
    "(selector) => parseFloat(getComputedStyle(document.querySelector(selector)).lineHeight)"
)


def show_progress(page: Any) -> str:
    """Draw the progress line as the controller does while the AI thinks; its full text."""
    text: str = page.evaluate(
        """async (progress) => {
            const { renderProgress } = await import("/static/panel-progress.js");
            const element = document.querySelector("#progress");
            renderProgress(element, {
                status: "thinking", progress, queuePosition: null,
                who: "White (AI, hard) searching",
            });
            return element.textContent;
        }""",
        PROGRESS,
    )
    return text


def in_window(page: Any, selector: str) -> dict[str, float]:
    """The element's box, checked to lie wholly inside the window (the page not scrolled)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    size = page.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, (selector, box)
    return dict(box)


@pytest.mark.parametrize("device", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("game", ["connect4", "gomoku"])
def test_status_notice_and_progress_stay_in_the_window(
    new_page: Any, device: dict[str, Any], game: str
) -> None:
    page = new_page(**device)
    start_game(page, game, mode="human-human")
    settle(page, 0)
    page.set_input_files(
        "#load-file",
        files=[
            {
                "name": LONG_NAME,
                "mimeType": "application/json",
                "buffer": json.dumps(BROKEN).encode(),
            }
        ],
    )
    page.wait_for_selector("#notice:not([hidden])")
    full = show_progress(page)
    assert page.evaluate("() => window.scrollY") == 0
    board = in_window(page, "#board svg")
    status = in_window(page, "#status")
    notice = in_window(page, "#notice")
    progress = in_window(page, "#progress")
    assert board["y"] + board["height"] <= status["y"] <= notice["y"] <= progress["y"]
    # The notice is whole (two lines on a laptop), never clipped.
    clipped = page.evaluate(
        "() => { const n = document.querySelector('#notice'); "
        "return n.scrollHeight > n.clientHeight + 1; }"
    )
    assert not clipped
    text = page.locator("#notice").inner_text()
    assert text.startswith(f"{LONG_NAME} was not loaded:") and text.endswith("is kept.")
    # The keyboard help is for keyboards: shown on the laptop, not on the phone.
    assert page.locator(".keys").is_visible() == (device is LAPTOP)
    if device is LAPTOP:
        line = float(page.evaluate(LINE_HEIGHT, "#notice"))
        assert 1.5 * line < notice["height"] < 2.5 * line  # two lines
    # The progress line is one line, cut with an ellipsis, its whole text in its title.
    line = float(page.evaluate(LINE_HEIGHT, "#progress"))
    assert progress["height"] < 1.5 * line
    assert page.get_attribute("#progress", "title") == full
    assert full.endswith(f"o15 a1 b2 c3 d4 e5 f6 g7 h8 {LAST_STEP}")  # the whole line
    cut = page.evaluate(
        "() => { const p = document.querySelector('#progress'); "
        "return [p.scrollWidth > p.clientWidth, getComputedStyle(p).textOverflow]; }"
    )
    assert cut == [True, "ellipsis"]
