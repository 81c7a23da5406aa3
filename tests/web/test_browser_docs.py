"""/docs in headless Chromium with the network cut off: everything it needs comes from
the server itself, and its Content-Security-Policy (no inline script) blocks nothing.

Its own Playwright, closed when the module ends: conftest's session-wide one would
still be open when test_browser_learn.py starts its own (two sync Playwrights cannot
run in one process at once).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import WebServer
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="module")
def docs_browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium package"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    web = WebServer(tmp_path_factory.mktemp("docs") / "games.db")
    web.start()
    yield web
    web.stop()


def test_the_api_docs_render_offline_under_the_policy(
    docs_browser: Browser, server: WebServer
) -> None:
    context = docs_browser.new_context()
    context.set_default_timeout(20_000)
    page: Page = context.new_page()
    elsewhere: list[str] = []
    problems: list[str] = []

    def only_the_server(route: Route) -> None:
        if route.request.url.startswith(server.url + "/"):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_server)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console",
        lambda message: (
            problems.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    try:
        page.goto(server.url + "/docs")
        expect(page.get_by_text("/api/games/{game_id}/moves").first).to_be_visible()
        expect(page.get_by_text("Play a move").first).to_be_visible()
    finally:
        context.close()
    assert elsewhere == []
    assert problems == []
