"""What the web tests share to run a real server and a real browser.

- ``free_port()``: a free TCP port on 127.0.0.1;
- ``ServerThread``: an ASGI app under uvicorn in a thread, started and stopped on demand;
- ``CHROMIUM``, ``CHROMIUM_ARGS``, ``launch_chromium``: Debian's Chromium under
  Playwright (never a downloaded browser), or the policy of ``skips.missing`` without it;
- ``watch_page``: what a page reports that fails its test (an uncaught script error,
  anything the Content-Security-Policy blocked).

Used by conftest.py (the browser fixtures), browser_support.py (the restartable
server), api_support.py (``live_server``) and the browser test modules.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from skips import missing

#: Longest wait for a server to start or stop (a correctness bound, not a timing test).
SERVER_WAIT_S = 30.0
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerThread:
    """``app`` served by uvicorn on 127.0.0.1:``port`` in a daemon thread.

    ``graceful_s``: how long a stop waits for open connections (event streams stay
    open: a browser test does not wait for them). ``config``: uvicorn's settings
    made elsewhere (``abgames.ui.web.server.server_config``) instead of the plain ones.
    """

    def __init__(
        self,
        app: ASGIApp,
        port: int,
        *,
        graceful_s: int | None = None,
        config: uvicorn.Config | None = None,
    ) -> None:
        self.app = app
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.graceful_s = graceful_s
        self.config = config
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        config = self.config or uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=self.graceful_s,
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name="web-test-server", daemon=True)
        thread.start()
        deadline = time.monotonic() + SERVER_WAIT_S
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the web server did not start on port {self.port}")
            time.sleep(0.02)
        self._server, self._thread = server, thread

    def stop(self) -> None:
        if self._server is None or self._thread is None:
            return
        self._server.should_exit = True
        self._thread.join(SERVER_WAIT_S)
        self._server = self._thread = None


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium launched by ``playwright``; skipped (failed under CI) without it."""
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is missing: install Debian's chromium package")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def watch_page(page: Any, errors: list[str]) -> None:
    """Collect in ``errors`` the page's uncaught errors and Content-Security-Policy
    violations (the console's error messages that name the policy)."""
    page.on("pageerror", lambda error: errors.append(str(error)))

    def on_console(message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            errors.append(message.text)

    page.on("console", on_console)
