"""A real uvicorn server of ``create_app`` for the browser tests, restartable on its port."""

from __future__ import annotations

from pathlib import Path

from server_support import ServerThread, free_port

from abgames.ui.web.app import WebSettings, create_app


class WebServer:
    """``create_app`` served by uvicorn in a thread; ``restart()`` keeps the port and the db."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread: ServerThread | None = None

    def start(self) -> None:
        app = create_app(WebSettings(db_path=self.db_path, workers=1, warm=False))
        thread = ServerThread(app, self.port, graceful_s=1)
        thread.start()
        self._thread = thread

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread = None

    def restart(self) -> None:
        self.stop()
        self.start()
