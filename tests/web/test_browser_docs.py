"""/docs in headless Chromium with the network cut off: everything it needs comes from
the server itself, and its Content-Security-Policy (no inline script) blocks nothing."""

from __future__ import annotations

from typing import Any

from browser_support import WebServer
from playwright.sync_api import expect


def offline_page(new_page: Any, web_server: WebServer) -> tuple[Any, list[str]]:
    """A page that may reach the test server only; the addresses it tried elsewhere."""
    page = new_page()
    elsewhere: list[str] = []

    def only_the_server(route: Any) -> None:
        if route.request.url.startswith(web_server.url + "/"):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_server)
    return page, elsewhere


def test_the_api_docs_render_offline_under_the_policy(new_page: Any, web_server: WebServer) -> None:
    page, elsewhere = offline_page(new_page, web_server)
    policy_errors: list[str] = []
    page.on(
        "console",
        lambda message: (
            policy_errors.append(message.text)
            if "Content Security Policy" in message.text
            else None
        ),
    )
    page.goto(web_server.url + "/docs")
    expect(page.get_by_text("/api/games/{game_id}/moves").first).to_be_visible()
    expect(page.get_by_text("Play a move").first).to_be_visible()
    assert elsewhere == []
    assert policy_errors == []
