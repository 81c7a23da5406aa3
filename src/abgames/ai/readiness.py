"""Getting a level's compiled code ready before its first timed move, and saying so.

Some levels run numba kernels: Gomoku's engine levels (medium, hard, max, classic) and
Connect Four's ``perfect`` solver. The first run on a machine compiles them (Gomoku:
about half a minute) and caches the machine code (see ``kernel_cache``); later runs load
it in well under a second. A timed search that started cold would spend its clock
compiling and answer with a weak move, so interactive front-ends call, before the first
AI move or hint of such a level::

    prepare(game, level, on_progress)

which returns once the code is compiled or loaded, calling ``on_progress`` (on the
caller's thread) with a ``Progress`` every ``PROGRESS_INTERVAL_SECONDS`` while it works:
from the start when the cache is known to be cold (a compile), else only once the load
has taken ``NOTICE_AFTER_SECONDS``. Nothing is reported when the code loads quickly.
``is_ready(game, level)`` tells without waiting whether a level needs no more work in
this process. The Gomocup brain starts this work when its process starts, waits for a
load at ``START`` and answers with instant moves while a compile runs
(``abgames.protocols.preload``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from abgames.ai import kernel_cache

#: How often ``prepare`` reports while it waits (seconds).
PROGRESS_INTERVAL_SECONDS = 0.5
#: A load not known to compile is reported once it has taken this long (seconds).
NOTICE_AFTER_SECONDS = 1.0
#: A position near the end of a Connect Four game, solved at once once compiled.
CONNECT4_PREPARE_POSITION = "2252576253462244111563365343671351"
#: One before 16 discs (and off the books): the perfect player solves it in a window.
CONNECT4_PREPARE_SOLVE_POSITION = "544111732146347"


@dataclass(frozen=True)
class Progress:
    """What ``prepare`` is doing: ``compiling`` is ``True`` when numba's cache holds
    no code for the kernels (a first run); ``done`` in the last report."""

    what: str
    compiling: bool
    expected_seconds: int
    elapsed: float
    done: bool = False

    @property
    def notice(self) -> str:
        """What is happening: "compiling the Gomoku engine, once (about 30 s)"."""
        if self.compiling:
            return f"compiling {self.what}, once (about {self.expected_seconds} s)"
        return f"loading {self.what} (a first run compiles it: about {self.expected_seconds} s)"

    @property
    def message(self) -> str:
        """The notice with the time so far, or at the end what was done and how long it took."""
        if self.done:
            verb = "compiled" if self.compiling else "loaded"
            return f"{self.what} {verb} in {self.elapsed:.0f} s"
        return f"{self.notice}… {self.elapsed:.0f} s"


ProgressCallback = Callable[[Progress], None]


def _prepare_gomoku() -> None:
    from abgames.ai.gomoku.player import prepare

    prepare()


def _prepare_connect4() -> None:
    from abgames.ai.levels import make_player
    from abgames.games.connect4 import ConnectFour

    player = make_player("connect4", "perfect")
    for moves in (CONNECT4_PREPARE_POSITION, CONNECT4_PREPARE_SOLVE_POSITION):
        player.choose(ConnectFour.from_notation(moves))  # analyze, then solve


@dataclass(frozen=True)
class Kernels:
    """The compiled code some levels of a game run, and how to get it ready."""

    #: For messages: "the Gomoku engine".
    what: str
    levels: frozenset[str]
    #: The modules holding the kernels, relative to ``abgames/ai``.
    sources: tuple[str, ...]
    #: About how long a first compile takes (seconds), for messages.
    expected_seconds: int
    #: Compiles the kernels, or loads them from the cache (blocking).
    load: Callable[[], None]


KERNELS: dict[str, Kernels] = {
    "gomoku": Kernels(
        "the Gomoku engine",
        frozenset({"medium", "hard", "max", "classic"}),
        (
            "gomoku/patterns.py",
            "gomoku/board.py",
            "gomoku/renju.py",
            "gomoku/tables.py",
            "gomoku/evaluate.py",
            "gomoku/movegen.py",
            "gomoku/threats.py",
            "gomoku/proof.py",
            "gomoku/search.py",
        ),
        30,
        _prepare_gomoku,
    ),
    "connect4": Kernels(
        "the Connect Four solver",
        frozenset({"perfect"}),
        ("connect4/kernel.py",),
        10,
        _prepare_connect4,
    ),
}


class _Job:
    """One load of a game's kernels on a daemon thread; every waiter shares it."""

    def __init__(self, load: Callable[[], None]) -> None:
        self.done = threading.Event()
        self.error: BaseException | None = None
        self._load = load
        threading.Thread(target=self._run, name="abgames-prepare", daemon=True).start()

    def _run(self) -> None:
        try:
            self._load()
        except BaseException as error:  # handed to the waiters
            self.error = error
        finally:
            self.done.set()


_lock = threading.Lock()
_jobs: dict[str, _Job] = {}
_ready: set[str] = set()


def kernels_for(game: str, level: str) -> Kernels | None:
    """The compiled code ``level`` of ``game`` runs, or ``None`` (pure Python)."""
    kernels = KERNELS.get(game)
    return kernels if kernels is not None and level in kernels.levels else None


def is_ready(game: str, level: str) -> bool:
    """Whether ``level`` runs no compiled code, or it is loaded in this process already."""
    return kernels_for(game, level) is None or game in _ready


def will_compile(game: str, level: str) -> bool | None:
    """Whether getting ``level`` ready compiles (numba's cache is cold or stale for it);
    ``None`` when that cannot be told. Imports numba, but compiles nothing."""
    kernels = kernels_for(game, level)
    if kernels is None or game in _ready:
        return False
    root = Path(kernel_cache.__file__).resolve().parent
    answers = [kernel_cache.is_cached(root / source) for source in kernels.sources]
    if any(answer is False for answer in answers):
        return True
    return None if None in answers else False


def prepare(game: str, level: str, on_progress: ProgressCallback | None = None) -> None:
    """Compile or load the code ``level`` of ``game`` runs; returns when it is ready.

    ``on_progress`` is called on this thread as the module docstring says (only when
    the wait is worth telling), last with ``done=True``. Safe to call from several
    threads: they wait for one load. An error of the load is raised here.
    """
    kernels = kernels_for(game, level)
    if kernels is None or game in _ready:
        return
    started = time.perf_counter()
    compiling = will_compile(game, level) is True
    with _lock:
        job = _jobs.get(game)
        if job is None:
            job = _jobs[game] = _Job(kernels.load)

    def report(done: bool = False) -> None:
        if on_progress is not None:
            elapsed = time.perf_counter() - started
            on_progress(Progress(kernels.what, compiling, kernels.expected_seconds, elapsed, done))

    noticed = compiling
    if noticed:
        report()
    while not job.done.wait(PROGRESS_INTERVAL_SECONDS):
        if noticed or time.perf_counter() - started >= NOTICE_AFTER_SECONDS:
            noticed = True
            report()
    with _lock:
        if _jobs.get(game) is job:
            del _jobs[game]
        if job.error is None:
            _ready.add(game)
    if job.error is not None:
        raise job.error
    if noticed:
        report(done=True)
