"""The brain's compiled code, got ready from the moment the process starts.

A manager that starts a brain for each game or position sends ``START`` and then the
position at once; loading the engine's kernels from numba's cache (importing numba
and the kernel modules, then loading their machine code) takes most of a second,
which the first turn's clock must not pay. ``KernelPreload`` starts that work on a
daemon thread when the process starts, before any command is read:

- ``wait_unless_compiling(seconds)`` blocks until the kernels are ready, at most
  ``seconds``, when they come from the cache (a load); it returns at once when they
  are being compiled (numba's cache is cold or stale: half a minute, longer than a
  manager waits for an answer), so the brain answers with instant moves meanwhile.
  ``START`` and the first move call it.
- ``is_ready()`` tells without waiting.

The work is ``abgames.ai.readiness.prepare`` for the level (shared with any other
caller in the process); whether it compiles is ``readiness.will_compile``'s answer,
told before the work starts (an unknown answer counts as a load).
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections.abc import Callable

from abgames.ai import readiness


class KernelPreload:
    """Loads (or compiles) the kernels of ``level`` of ``game`` on a daemon thread.

    ``prepare`` and ``will_compile`` default to ``readiness``'s; tests pass their own.
    A failed load is reported on stderr and counts as ready: the search then fails
    on its own and the brain falls back to its instant move, as without a preload.
    """

    def __init__(
        self,
        game: str,
        level: str,
        *,
        prepare: Callable[[], None] | None = None,
        will_compile: Callable[[], bool | None] | None = None,
    ) -> None:
        self._prepare = prepare or (lambda: readiness.prepare(game, level))
        self._will_compile = will_compile or (lambda: readiness.will_compile(game, level))
        self._compiling = False
        self._told = threading.Event()  # ``_compiling`` is known
        self._ready = threading.Event()
        threading.Thread(target=self._run, name="abgames-preload", daemon=True).start()

    def _run(self) -> None:
        try:
            try:
                self._compiling = self._will_compile() is True
            finally:
                self._told.set()
            self._prepare()
        except Exception:
            traceback.print_exc(file=sys.stderr)
        finally:
            self._told.set()
            self._ready.set()

    def is_ready(self) -> bool:
        """Whether the kernels are loaded (or the load has failed), without waiting."""
        return self._ready.is_set()

    def wait_unless_compiling(self, seconds: float) -> bool:
        """Wait at most ``seconds`` for a load from the cache; at once when compiling.

        Returns whether the kernels are ready.
        """
        deadline = time.monotonic() + max(0.0, seconds)
        if not self._told.wait(max(0.0, seconds)):
            return False
        if self._compiling:
            return self._ready.is_set()
        return self._ready.wait(max(0.0, deadline - time.monotonic()))
