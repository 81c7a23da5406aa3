"""Getting the compiled engines ready before the first timed move, and saying so."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from abgames.ai import readiness
from abgames.ai.player import AIPlayer
from abgames.ai.readiness import Kernels, Progress
from abgames.games import GameState, Gomoku
from abgames.match import Match, Seat
from abgames.search.result import SearchResult
from abgames.ui.terminal import run_game

#: How long a test waits for a load it holds before taking it for hung (a guard).
HANG_GUARD_S = 60.0


def fake_kernels(
    tmp_path: Path, release: threading.Event | None = None, *, cached: bool
) -> tuple[Kernels, list[str]]:
    """A game's kernels whose source lives in ``tmp_path``; the list logs the load,
    which lasts until ``release`` is set (no wait without one)."""
    source = tmp_path / "fake_kernels.py"
    source.write_text("def kernel():\n    return 1\n")
    if cached:  # an index of numba's in-tree cache, newer than the source
        index = tmp_path / "__pycache__" / "fake_kernels.kernel-1.py311.nbi"
        index.parent.mkdir(exist_ok=True)
        index.write_bytes(b"")
        later = source.stat().st_mtime + 10
        os.utime(index, (later, later))
    log: list[str] = []

    def load() -> None:
        log.append("load started")
        if release is not None:
            assert release.wait(HANG_GUARD_S)
        log.append("load finished")

    # The sources are relative to abgames/ai; an absolute path overrides that root.
    kernels = Kernels("the fake engine", frozenset({"hard"}), (str(source),), 30, load)
    return kernels, log


@pytest.fixture
def in_tree_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's in-tree cache locator, where ``fake_kernels`` puts a warm cache's index
    (abgames otherwise names a cache directory of its own: see ``kernel_cache``)."""
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", "")


@pytest.fixture
def fresh_readiness(monkeypatch: pytest.MonkeyPatch) -> None:
    """No game is ready yet, as in a new process."""
    monkeypatch.setattr(readiness, "_ready", set())
    monkeypatch.setattr(readiness, "_jobs", {})


class FakeClock:
    """``readiness``'s clock: each reading is ``step`` seconds after the last, or
    ``now`` as the test sets it."""

    def __init__(self, step: float = 0.0) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """A fake clock for ``prepare``, whose progress ticks come fast (real waits, short)."""
    fake = FakeClock()
    monkeypatch.setattr(readiness, "time", fake)
    monkeypatch.setattr(readiness, "PROGRESS_INTERVAL_SECONDS", 0.01)
    return fake


def test_levels_without_compiled_code_are_ready_at_once(fresh_readiness: None) -> None:
    for game, level in (("tictactoe", "perfect"), ("connect4", "hard"), ("gomoku", "easy")):
        assert readiness.is_ready(game, level)
        assert readiness.will_compile(game, level) is False
    assert not readiness.is_ready("gomoku", "hard")
    assert not readiness.is_ready("connect4", "perfect")


def test_the_gomoku_engine_levels_are_the_ones_prepared() -> None:
    from abgames.ai.gomoku.player import ENGINE_LEVELS

    assert readiness.KERNELS["gomoku"].levels == set(ENGINE_LEVELS)


def test_a_cold_cache_is_told_from_the_start_and_prepare_waits_for_the_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_readiness: None, clock: FakeClock
) -> None:
    """The compile is held until three reports are in; the clock moves 1 s a report."""
    release = threading.Event()
    kernels, log = fake_kernels(tmp_path, release, cached=False)
    monkeypatch.setitem(readiness.KERNELS, "gomoku", kernels)
    assert readiness.will_compile("gomoku", "hard") is True
    reports: list[tuple[Progress, list[str]]] = []

    def on_progress(progress: Progress) -> None:
        reports.append((progress, list(log)))
        clock.now += 1.0
        if len(reports) == 3:
            release.set()

    readiness.prepare("gomoku", "hard", on_progress)
    assert log == ["load started", "load finished"]
    assert readiness.is_ready("gomoku", "hard")
    first, last = reports[0][0], reports[-1][0]
    assert first.compiling and not first.done and first.elapsed == 0.0
    assert first.notice == "compiling the fake engine, once (about 30 s)"
    ticks = [progress.elapsed for progress, _ in reports[1:-1]]
    assert len(ticks) >= 2 and ticks == sorted(ticks)
    assert last.done and last.message.startswith("the fake engine compiled in ")
    assert reports[-1][1] == ["load started", "load finished"]
    reports.clear()
    readiness.prepare("gomoku", "hard", lambda progress: reports.append((progress, [])))
    assert reports == [] and log == ["load started", "load finished"]  # once per process


def test_a_quick_load_from_a_warm_cache_says_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_readiness: None, in_tree_cache: None
) -> None:
    kernels, log = fake_kernels(tmp_path, cached=True)  # loads at once
    monkeypatch.setitem(readiness.KERNELS, "gomoku", kernels)
    assert readiness.will_compile("gomoku", "hard") is False
    reports: list[Progress] = []
    readiness.prepare("gomoku", "hard", reports.append)
    assert log == ["load started", "load finished"] and reports == []


def test_a_stale_cache_counts_as_cold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_readiness: None
) -> None:
    kernels, _ = fake_kernels(tmp_path, cached=True)
    monkeypatch.setitem(readiness.KERNELS, "gomoku", kernels)
    source = Path(kernels.sources[0])
    later = source.stat().st_mtime + 20
    os.utime(source, (later, later))  # edited after it was compiled
    assert readiness.will_compile("gomoku", "hard") is True


def test_index_files_left_by_an_older_source_do_not_make_a_warm_cache_cold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, in_tree_cache: None, fresh_readiness: None
) -> None:
    kernels, _ = fake_kernels(tmp_path, cached=True)
    monkeypatch.setitem(readiness.KERNELS, "gomoku", kernels)
    source = Path(kernels.sources[0])
    # A function that sat on another line before the last edit: numba ignores its index.
    old = tmp_path / "__pycache__" / "fake_kernels.kernel-7.py311.nbi"
    old.write_bytes(b"")
    earlier = source.stat().st_mtime - 100
    os.utime(old, (earlier, earlier))
    assert readiness.will_compile("gomoku", "hard") is False


def test_a_slow_load_is_told_after_a_second(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fresh_readiness: None,
    in_tree_cache: None,
    clock: FakeClock,
) -> None:
    """A warm load held until it is told: the clock moves 0.3 s a reading, so the
    notice comes at the first tick past a second."""
    clock.step = 0.3
    release = threading.Event()
    kernels, _ = fake_kernels(tmp_path, release, cached=True)
    monkeypatch.setitem(readiness.KERNELS, "gomoku", kernels)
    reports: list[Progress] = []

    def on_progress(progress: Progress) -> None:
        reports.append(progress)
        release.set()

    readiness.prepare("gomoku", "hard", on_progress)
    assert reports and not reports[0].compiling
    assert reports[0].elapsed >= readiness.NOTICE_AFTER_SECONDS
    assert reports[0].notice.startswith("loading the fake engine")
    assert reports[-1].done


def test_threads_share_one_load_and_its_error(
    monkeypatch: pytest.MonkeyPatch, fresh_readiness: None, clock: FakeClock
) -> None:
    """The load fails only once all three threads wait for it (each has been told)."""
    clock.step = 0.3
    calls: list[int] = []
    waiting: set[int] = set()
    all_wait = threading.Event()

    def failing_load() -> None:
        calls.append(1)
        assert all_wait.wait(HANG_GUARD_S)
        raise RuntimeError("no compiler")

    def told(progress: Progress) -> None:
        waiting.add(threading.get_ident())
        if len(waiting) == 3:
            all_wait.set()

    kernels = Kernels("the fake engine", frozenset({"hard"}), (), 30, failing_load)
    monkeypatch.setitem(readiness.KERNELS, "gomoku", kernels)
    errors: list[str] = []

    def wait() -> None:
        try:
            readiness.prepare("gomoku", "hard", told)
        except RuntimeError as error:
            errors.append(str(error))

    threads = [threading.Thread(target=wait) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert calls == [1] and errors == ["no compiler"] * 3
    assert not readiness.is_ready("gomoku", "hard")


class RecordingPlayer(AIPlayer):
    """Plays the first legal move and notes whether the engine was loaded by then."""

    def __init__(self, level: str, log: list[str]) -> None:
        self.level = level
        self.log = log

    def think(self, state: GameState) -> Iterator[SearchResult]:
        self.log.append("think")
        yield SearchResult(move=state.legal_moves()[0], score=0, depth=1, nodes=1, elapsed=0.0)

    def stop(self) -> None:
        pass


def test_the_terminal_waits_for_a_cold_engine_and_says_so_on_stderr(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fresh_readiness: None,
) -> None:
    kernels, log = fake_kernels(tmp_path, cached=False)  # a cold cache, compiled at once
    monkeypatch.setitem(readiness.KERNELS, "gomoku", kernels)
    match = Match(
        Gomoku(),
        (Seat("ai", "hard"), Seat("human")),
        player_factory=lambda game, level, seed: RecordingPlayer(level, log),
    )
    output = io.StringIO()
    assert run_game(match, stdin=io.StringIO("quit\n"), stdout=output) == 0
    assert log == ["load started", "load finished", "think"]
    assert "Black (AI) plays " in output.getvalue()
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "abgames: compiling the fake engine, once (about 30 s)…",
        err.splitlines()[-1],
    ]
    assert err.splitlines()[-1].startswith("abgames: the fake engine compiled in ")


def test_making_a_gomoku_player_loads_no_kernels() -> None:
    """Making a player (a new match, a loaded game) is instant; the engine loads when
    ``prepare`` or the first search asks for it."""
    script = (
        "import sys\n"
        "from abgames.ai.levels import make_player\n"
        "for level in ('medium', 'hard', 'max', 'classic'):\n"
        "    make_player('gomoku', level)\n"
        "print(sorted(m for m in sys.modules if m.startswith('abgames.ai.gomoku')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.strip()
    assert "board" not in loaded and "search" not in loaded and "engine" not in loaded, loaded


def test_prepare_leaves_nothing_to_compile_for_any_engine_level_or_rule() -> None:
    """After ``prepare`` no search of a Gomoku engine level compiles (or loads) a kernel
    inside its clock: every kernel signature the searches use is there already."""
    script = """
import importlib
from numba.core.registry import CPUDispatcher
from abgames.ai import readiness
from abgames.ai.levels import make_player
from abgames.games.gomoku import Gomoku, Rule

MODULES = [
    importlib.import_module("abgames.ai." + source[:-3].replace("/", "."))
    for source in readiness.KERNELS["gomoku"].sources
]

def compiled():
    return {
        (module.__name__, name, signature)
        for module in MODULES
        for name, kernel in vars(module).items()
        if isinstance(kernel, CPUDispatcher)
        for signature in kernel.signatures
    }

readiness.prepare("gomoku", "hard")
ready = compiled()
for rule in Rule:
    for level in ("medium", "hard", "max", "classic"):
        state = Gomoku(13, rule)
        for move in ("g7", "g8", "h7", "f9", "h8"):
            state.play(state.parse_move(move))
        for _ in make_player("gomoku", level).think_within(state, 0.1):
            pass
print(sorted(compiled() - ready))
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "[]"
