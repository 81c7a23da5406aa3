"""A real uvicorn server of ``create_app`` for the browser tests, restartable on its port."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import uvicorn

from abgames.ui.web.app import WebSettings, create_app

#: Longest wait for the server to start or stop (a correctness bound, not a timing test).
SERVER_WAIT_S = 30.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class WebServer:
    """``create_app`` served by uvicorn in a thread; ``restart()`` keeps the port and the db."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        settings = WebSettings(db_path=self.db_path, workers=1, warm=False)
        config = uvicorn.Config(
            create_app(settings),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=1,  # event streams stay open: don't wait for them
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

    def restart(self) -> None:
        self.stop()
        self.start()
