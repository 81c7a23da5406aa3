"""Fixtures of the browser tests: a real uvicorn server of ``create_app`` on a free
127.0.0.1 port over a temporary database (restartable on the same port), and Debian's
Chromium driven by Playwright (never a downloaded browser), one for the whole session
(two sync Playwrights cannot run in one process at once). The server and the browser
come from ``server_support.py``, which the API tests share.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import WebServer
from server_support import launch_chromium, watch_page


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """One server for the browser tests (a test that restarts it leaves it running)."""
    server = WebServer(tmp_path_factory.mktemp("web") / "games.db")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium under Playwright (``launch_chromium``: skipped where it is
    absent, failed under CI, which installs it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium: Any, web_server: WebServer) -> Iterator[Any]:
    """``new_page(**context_options)``: a page in a fresh context (its own localStorage).

    Browser errors (uncaught exceptions, anything the Content-Security-Policy blocked)
    fail the test.
    """
    contexts: list[Any] = []
    errors: list[str] = []

    def make(**options: Any) -> Any:
        options.setdefault("viewport", {"width": 1100, "height": 800})
        context = chromium.new_context(base_url=web_server.url, **options)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        watch_page(page, errors)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"errors in the page: {errors}"
