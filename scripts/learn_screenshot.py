"""Screenshot of the /learn page into docs/screenshots/learn.png (headless Chromium).

Run: ``.venv/bin/python scripts/learn_screenshot.py [OUT.png]``
Uses Debian's /usr/bin/chromium through Playwright (no browser is downloaded) and a
server on a free port with a temporary database.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from abgames.ui.web.app import WebSettings, create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "learn.png"
#: Events stepped before the picture: the search is under way, a cut-off shown.
STEPS = 40


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def running_server() -> Iterator[str]:
    """A server of the app on a free port over a temporary database: its base URL."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(WebSettings(db_path=Path(folder) / "games.db", workers=1, warm=False))
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(10)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    with running_server() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1180})
        page.goto(f"{base}/learn")
        page.wait_for_selector(".pane .node", state="attached")
        page.wait_for_selector(".chart-svg")
        for _ in range(STEPS):
            page.click("#forward")
        page.hover(".node.active")
        page.screenshot(path=str(out), full_page=True)
        browser.close()
    print(out)


if __name__ == "__main__":
    main()
