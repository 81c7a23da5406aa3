"""A virtual X display (Xvfb) for tests and screenshots, on a display number Xvfb picks.

``Xvfb -displayfd`` chooses a free display number itself and writes it to a
pipe, so two test runs never fight over ``:99``. Debian: ``apt-get install xvfb``.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import time
from types import TracebackType

XVFB = "Xvfb"
SCREEN = "1280x1024x24"
START_TIMEOUT_S = 10.0


class XvfbError(RuntimeError):
    """Xvfb is missing or did not start."""


def xvfb_installed() -> bool:
    return shutil.which(XVFB) is not None


class VirtualDisplay:
    """``with VirtualDisplay() as name:`` runs Xvfb and gives its display name (``":3"``)."""

    def __init__(self, screen: str = SCREEN) -> None:
        self.screen = screen
        self.name = ""
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        """Start Xvfb and return the display name once it accepts clients."""
        if not xvfb_installed():
            raise XvfbError("Xvfb is not installed (Debian: apt-get install xvfb)")
        read_end, write_end = os.pipe()
        try:
            self._process = subprocess.Popen(
                [
                    XVFB,
                    "-displayfd",
                    str(write_end),
                    "-screen",
                    "0",
                    self.screen,
                    "-nolisten",
                    "tcp",
                ],
                pass_fds=(write_end,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        finally:
            os.close(write_end)
        try:
            number = self._read_display_number(read_end)
        finally:
            os.close(read_end)
        self.name = f":{number}"
        return self.name

    def _read_display_number(self, fd: int) -> int:
        deadline = time.monotonic() + START_TIMEOUT_S
        text = b""
        while not text.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(0.0, remaining))
            if not ready:
                self.stop()
                raise XvfbError(f"Xvfb did not start within {START_TIMEOUT_S:.0f} s")
            chunk = os.read(fd, 64)
            if not chunk:
                self.stop()
                raise XvfbError("Xvfb exited before it chose a display")
            text += chunk
        return int(text.strip())

    def stop(self) -> None:
        process = self._process
        self._process = None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def __enter__(self) -> str:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
