"""Fixtures of the browser tests: a real uvicorn server of ``create_app`` on a free
127.0.0.1 port over a temporary database (restartable on the same port), and Debian's
Chromium driven by Playwright (never a downloaded browser).

The API tests build their own apps (see ``api_support.py``); nothing here is shared
with them except the pytest machinery.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import WebServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def note_policy_violation(message: Any, errors: list[str]) -> None:
    """Keep a console message that says the Content-Security-Policy blocked something."""
    if message.type == "error" and "Content Security Policy" in message.text:
        errors.append(message.text)


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """One server for the browser tests (a test that restarts it leaves it running)."""
    server = WebServer(tmp_path_factory.mktemp("web") / "games.db")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium under Playwright; the tests skip (saying why) where it is absent."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
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
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_policy_violation(message, errors))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"errors in the page: {errors}"
