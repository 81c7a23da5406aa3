"""The /learn page in headless Chromium (Debian's /usr/bin/chromium; nothing downloaded):
step through a tic-tac-toe trace to a cut-off, see the cut branch greyed with its reason,
the counters and the chart; take the position of the game in progress."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browser_support import WebServer
from playwright.sync_api import Page, expect

PRUNED_GREY = "rgb(125, 132, 143)"  # --pruned in learn.css
MAX_CLICKS = 300


@pytest.fixture
def learn(new_page: Callable[..., Any]) -> Page:
    """A tab on /learn (conftest's ``new_page``: an uncaught error or anything the
    Content-Security-Policy blocks fails the test)."""
    tab: Page = new_page(viewport={"width": 1400, "height": 1100})
    tab.goto("/learn")
    tab.wait_for_selector(".pane .node", state="attached")
    return tab


def search(page: Page, cells: list[int], depth: int) -> None:
    page.click("#empty")
    for cell in cells:
        page.click(f'#board [data-cell="{cell}"]')
    page.fill("#depth", str(depth))
    page.select_option("#method", "alphabeta")
    page.select_option("#compare", "minimax")
    page.click("#run")
    expect(page.locator("#step-text")).to_have_text(re.compile(r"^event 0 of"))


def counter(page: Page, method: str, key: str) -> int:
    text = page.text_content(f'.pane[data-method="{method}"] [data-counter="{key}"]')
    return int((text or "0").replace(",", ""))


def test_step_to_a_cut_off_and_see_it_greyed_with_its_reason(learn: Page) -> None:
    page = learn
    search(page, [4, 0], 3)  # b2 a3
    alphabeta = '.pane[data-method="alphabeta"]'
    assert page.locator(f"{alphabeta} .node.pruned").count() == 0
    for _ in range(MAX_CLICKS):
        page.click("#forward")
        if page.locator(f"{alphabeta} .node.pruned").count():
            break
    pruned = page.locator(f"{alphabeta} .node.pruned").first
    assert pruned.is_visible()
    narration = page.text_content("#narration") or ""
    assert "Cut-off at" in narration and "will not let the game come here" in narration
    stroke = pruned.locator(".shape").evaluate("shape => getComputedStyle(shape).stroke")
    assert stroke == PRUNED_GREY
    assert page.locator(f"{alphabeta} line.edge.pruned").count() >= 1
    pruned.hover()
    caption = page.text_content("#board-caption") or ""
    assert "Cut off, never searched" in caption and "will not let the game come here" in caption
    assert counter(page, "alphabeta", "pruned") >= 1
    assert counter(page, "minimax", "nodes") >= counter(page, "alphabeta", "nodes")
    # Stepping back before the cut hides the cut branch again.
    page.click("#back")
    assert page.locator(f"{alphabeta} .node.pruned").count() == 0
    # At the end: the principal variation is marked and the counters are the trace's.
    page.click("#last")
    assert page.locator(f"{alphabeta} .node.pv").count() == 4
    assert counter(page, "alphabeta", "nodes") == 126
    assert counter(page, "minimax", "nodes") == 260


def test_the_experiment_chart_appears(learn: Page) -> None:
    page = learn
    page.wait_for_selector(".chart-svg .bar")
    bars = page.locator(".chart-svg .bar")
    assert bars.count() == 5
    widths = [float(bars.nth(i).get_attribute("width") or 0) for i in range(5)]
    assert widths[0] == max(widths)  # minimax visits the most positions
    assert "every method agrees" in (page.text_content("#chart") or "")


def test_from_my_game_takes_the_position_in_progress(learn: Page, web_server: WebServer) -> None:
    page = learn
    server = web_server.url
    created = httpx.post(
        f"{server}/api/games", json={"game": "tictactoe", "mode": "human-human"}
    ).json()
    for move in ("b2", "c3"):
        answer = httpx.post(
            f"{server}/api/games/{created['id']}/moves",
            json={"move": move},
            headers={"X-Game-Secret": created["secret"]},
        )
        assert answer.status_code == 200, answer.text
    page.evaluate(
        """([id, secret]) => {
            localStorage.setItem("abgames:secrets", JSON.stringify({[id]: secret}));
            localStorage.setItem("abgames:current", id);
        }""",
        [created["id"], created["secret"]],
    )
    page.click("#from-game")
    expect(page.locator("#board-caption")).to_have_text(re.compile(r"^b2 c3\."))
    assert page.locator("#board .mark").count() == 2


def test_the_textbook_tree_cuts_leaves_4_and_6(learn: Page) -> None:
    page = learn
    page.select_option("#game", "textbook")
    expect(page.locator("#board .textbook .leaf")).to_have_count(9)
    page.select_option("#method", "alphabeta")
    page.select_option("#compare", "minimax")
    page.click("#run")
    expect(page.locator("#step-text")).to_have_text(re.compile(r"^event 0 of"))
    alphabeta = '.pane[data-method="alphabeta"]'
    for _ in range(MAX_CLICKS):
        page.click("#forward")
        if page.locator(f"{alphabeta} .node.pruned").count():
            break
    assert page.locator(f"{alphabeta} .node.pruned").count() == 2
    greyed = page.locator("#board .textbook .leaf.pruned")
    assert greyed.all_text_contents() == ["c2 = 4", "c3 = 6"]
    assert "MAX will not let the game come here" in (greyed.first.get_attribute("title") or "")
    page.click("#last")
    assert counter(page, "alphabeta", "leaves") == 7
    assert counter(page, "minimax", "leaves") == 9


def test_a_gomoku_board_of_the_chosen_size(learn: Page) -> None:
    page = learn
    page.select_option("#game", "gomoku")
    assert page.locator('[data-option="width"]').is_hidden()
    page.fill("#opt-size", "7")
    page.press("#opt-size", "Enter")
    page.select_option("#opt-rule", "renju")
    expect(page.locator("#board [data-cell]")).to_have_count(49)
    page.fill("#opt-size", "30")
    page.dispatch_event("#opt-size", "change")
    expect(page.locator("#notice")).to_contain_text("5..22")
    assert page.locator("#board [data-cell]").count() == 49
