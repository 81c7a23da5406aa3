"""/docs in headless Chromium with the network cut off: everything it needs comes from
the server itself, and its Content-Security-Policy (no inline script) blocks nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import WebServer
from playwright.sync_api import Page, Route, expect
from server_support import watch_page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    web = WebServer(tmp_path_factory.mktemp("docs") / "games.db")
    web.start()
    yield web
    web.stop()


def test_the_api_docs_render_offline_under_the_policy(chromium: Any, server: WebServer) -> None:
    context = chromium.new_context()
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
    watch_page(page, problems)
    try:
        page.goto(server.url + "/docs")
        expect(page.get_by_text("/api/games/{game_id}/moves").first).to_be_visible()
        expect(page.get_by_text("Play a move").first).to_be_visible()
    finally:
        context.close()
    assert elsewhere == []
    assert problems == []
