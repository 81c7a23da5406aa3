"""/learn in Chromium, as it looks: it fits a 375 px phone with no sideways scrolling, in
the dark theme of the game page; its board names cells as the moves do (a1 bottom left);
the tree fits itself in view when a search ends, unless the person zoomed or panned.

These tests run against their own server with the rate limits off: /learn sends
several searches per page load, and the session's shared server limits them per
address (every test comes from 127.0.0.1).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from server_support import ServerThread, free_port, watch_page

from abgames.ui.web.app import WebSettings, create_app
from abgames.ui.web.ratelimit import RateLimits


@pytest.fixture(scope="module")
def unlimited_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own, without rate limits; its address."""
    settings = WebSettings(
        db_path=Path(tmp_path_factory.mktemp("learn-view")) / "games.db",
        workers=1,
        warm=False,
        rate_limits=RateLimits(enabled=False),
    )
    server = ServerThread(create_app(settings), free_port(), graceful_s=1)
    server.start()
    yield server.url
    server.stop()


@pytest.fixture
def open_learn(chromium: Any, unlimited_server: str) -> Iterator[Callable[..., Page]]:
    """``open_learn(**context_options)``: /learn in a fresh context, its first trees drawn;
    an uncaught error or a Content-Security-Policy refusal fails the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(**options: Any) -> Page:
        context = chromium.new_context(base_url=unlimited_server, **options)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page: Page = context.new_page()
        watch_page(page, errors)
        page.goto("/learn")
        page.wait_for_selector(".pane .node", state="attached")
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"errors in the page: {errors}"


PHONE = {"viewport": {"width": 375, "height": 667}, "has_touch": True, "is_mobile": True}


def nodes_outside_the_view(page: Page, method: str) -> int:
    """How many drawn nodes of ``method``'s tree lie outside its window."""
    outside: int = page.evaluate(
        """(method) => {
            const pane = document.querySelector(`.pane[data-method="${method}"]`);
            const view = pane.querySelector(".tree-holder").getBoundingClientRect();
            const nodes = [...pane.querySelectorAll(".node:not(.hidden)")];
            return nodes.filter((node) => {
                const box = node.getBoundingClientRect();
                return box.left < view.left - 1 || box.right > view.right + 1
                    || box.top < view.top - 1 || box.bottom > view.bottom + 1;
            }).length;
        }""",
        method,
    )
    return outside


def run_to_the_end(page: Page, method: str = "minimax") -> None:
    page.select_option("#method", method)
    page.select_option("#compare", "")
    page.click("#run")
    expect(page.locator("#step-text")).to_have_text(re.compile(r"^event 0 of"))


def test_the_tree_fits_itself_in_view_when_the_search_ends(
    open_learn: Callable[..., Page],
) -> None:
    # On a phone the textbook's tree at life size is wider than its window.
    page = open_learn(**PHONE)
    page.select_option("#game", "textbook")
    for by_hand in (None, "+", "1:1"):
        run_to_the_end(page)
        if by_hand:
            page.click(f'.pane[data-method="minimax"] button:text-is("{by_hand}")')
        page.click("#last")
        expect(page.locator("#step-text")).to_have_text(re.compile(r"^event (\d+) of \1$"))
        assert page.locator('.pane[data-method="minimax"] .node:not(.hidden)').count() == 13
        if by_hand:  # the view is the person's: it is left as they made it
            assert nodes_outside_the_view(page, "minimax") > 0, by_hand
            page.click('.pane[data-method="minimax"] button:text-is("Fit")')
        assert nodes_outside_the_view(page, "minimax") == 0, by_hand


#: The page's background and text colours.
BODY_COLOURS = (
    "() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]"
)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_learn_fits_a_phone_in_the_dark_theme_of_the_game_page(
    open_learn: Callable[..., Page], scheme: str
) -> None:
    # Whatever the system prefers, /learn looks as / does (both dark).
    page = open_learn(**PHONE, color_scheme=scheme)
    colours = page.evaluate(BODY_COLOURS)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    for select in ("#game", "#method", "#compare"):
        box = page.locator(select).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 375, select
    page.goto("/")
    game_colours = page.evaluate(BODY_COLOURS)
    assert colours == game_colours == ["rgb(35, 39, 46)", "rgb(238, 240, 243)"]
    # The keyboard and mouse help is not for a touch screen; the touch one is.
    page.go_back()
    page.wait_for_selector(".pane .node", state="attached")
    assert page.locator(".legend .keys").is_hidden()
    assert page.locator(".legend .touch").is_visible()


def test_the_learn_board_names_cells_as_the_moves_do(open_learn: Callable[..., Page]) -> None:
    page = open_learn(viewport={"width": 1280, "height": 860})
    assert page.locator(".legend .keys").is_visible()
    assert page.locator(".legend .touch").is_hidden()
    page.click("#empty")
    names = page.locator("#board .coord").all_text_contents()
    assert sorted(names) == ["1", "2", "3", "a", "b", "c"]
    cell_rect = page.locator('#board [data-cell="6"] rect')
    letter_label = page.locator('#board .coord[data-coord="a"]')
    number_label = page.locator('#board .coord[data-coord="1"]')
    for drawn in (cell_rect, letter_label, number_label):
        expect(drawn).to_be_visible()  # the board may be redrawn after the click
    cell = cell_rect.bounding_box()
    letter = letter_label.bounding_box()
    number = number_label.bounding_box()
    assert cell is not None and letter is not None and number is not None
    assert abs((letter["x"] + letter["width"] / 2) - (cell["x"] + cell["width"] / 2)) < 2
    assert abs((number["y"] + number["height"] / 2) - (cell["y"] + cell["height"] / 2)) < 2
    page.click('#board [data-cell="6"]')
    expect(page.locator("#board-caption")).to_have_text(re.compile(r"^a1\."))
