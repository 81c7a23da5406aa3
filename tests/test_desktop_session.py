"""The desktop window's game session, without a window: reset, undo, stale searches."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from abgames.ai.player import AIPlayer
from abgames.games import GameState
from abgames.match import AI, HUMAN
from abgames.search.result import SearchResult
from abgames.ui import desktop
from abgames.ui.desktop.app import analysis_caption, analysis_details
from abgames.ui.desktop.controller import (
    NOT_SOLVED,
    Clocks,
    GameSession,
    GameSettings,
    settings_of,
)
from desktop_support import EndlessPlayer, SilentSolver, endless_factory

#: Seconds a search may take to answer (a hang guard, not a measure: a loaded
#: machine running the whole suite once took more than 10 for a tic-tac-toe hint).
WAIT_S = 30.0


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def wait(session: GameSession, until: object) -> None:
    deadline = time.monotonic() + WAIT_S
    while not until():  # type: ignore[operator]
        assert time.monotonic() < deadline, session.turn_text()
        session.poll()
        time.sleep(0.002)


def test_clocks_run_for_one_player_at_a_time() -> None:
    clock = FakeClock()
    clocks = Clocks(clock)
    clocks.start(0)
    clock.now += 5
    clocks.start(1)
    clock.now += 2
    assert (clocks.read(0), clocks.read(1)) == (5, 2)
    clocks.stop()
    clock.now += 10
    assert (clocks.read(0), clocks.read(1)) == (5, 2)
    clocks.reset()
    assert (clocks.read(0), clocks.read(1), clocks.running) == (0, 0, None)


def test_a_new_game_resets_every_piece_of_state() -> None:
    clock = FakeClock()
    players: list[EndlessPlayer] = []

    def factory(game: str, level: str, seed: int | None) -> AIPlayer:
        players.append(EndlessPlayer(level))
        return players[-1]

    session = GameSession(
        GameSettings("connect4", "human-ai", first=AI, level="easy"),
        player_factory=factory,
        now=clock,
    )
    # Get into a messy state: moves played, clocks used, a search running, a note.
    wait(session, lambda: session.progress is not None)
    clock.now += 7
    assert session.move_now()
    wait(session, lambda: session.match.state.ply == 1)
    assert session.click(3)
    clock.now += 3
    wait(session, lambda: session.thinking and session.progress is not None)
    session.click(0)  # refused while the AI thinks: leaves a note
    assert session.note
    old_generation = session.generation

    session.new_game(GameSettings("tictactoe", "human-human"))

    assert session.match.game == "tictactoe"
    assert session.settings.mode == "human-human"
    assert [seat.kind for seat in session.match.seats] == [HUMAN, HUMAN]
    assert session.match.state.ply == 0 and session.match.state.to_move == 0
    assert session.game_over is False
    assert (session.clocks.read(0), session.clocks.read(1)) == (0, 0)
    assert session.clocks.running == 0
    assert session.progress is None and session.hint is None and session.note == ""
    assert session.moves_played == 0
    assert session.generation > old_generation
    assert not session.thinking
    # The old search's result arrives later and must be ignored.
    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:
        session.poll()
    assert session.match.state.ply == 0


def test_a_new_game_after_a_finished_one_clears_the_game_over_flag() -> None:
    session = GameSession(GameSettings("tictactoe", "human-human"))
    for move in (0, 3, 1, 4, 2):
        assert session.click(move)
    assert session.game_over and session.clocks.running is None
    assert not session.click(8) and "over" in session.note
    session.new_game()
    assert not session.game_over and session.match.state.ply == 0
    assert session.clocks.running == 0


def test_undo_while_the_ai_thinks_discards_its_search() -> None:
    session = GameSession(
        GameSettings("tictactoe", "human-ai", level="easy"), player_factory=endless_factory
    )
    assert session.click(4)
    wait(session, lambda: session.progress is not None)
    assert session.undo()
    assert session.match.state.ply == 0 and not session.thinking
    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:
        session.poll()
    assert session.match.state.ply == 0  # the stopped search's move was dropped


def test_undo_against_the_ai_takes_back_the_pair() -> None:
    session = GameSession(GameSettings("connect4", "human-ai", level="easy"), seed=1)
    assert session.click(3)
    wait(session, lambda: session.match.state.ply == 2)
    assert session.undo()
    assert session.match.state.ply == 0
    assert session.match.state.to_move == 0 and session.can_click()


def test_hint_is_for_the_current_position_only() -> None:
    session = GameSession(GameSettings("tictactoe", "human-human"))
    assert session.request_hint()
    wait(session, lambda: session.hint is not None)
    analysis = session.analysis()
    assert analysis is not None and analysis.is_hint
    assert session.click(0 if session.hint.move != 0 else 1)  # type: ignore[union-attr]
    assert session.hint is None and session.analysis(include_last_ai=False) is None


def test_a_silent_solver_shows_solving_and_the_time_it_has_taken() -> None:
    clock = FakeClock()
    solver = SilentSolver()
    session = GameSession(
        GameSettings("connect4", "human-ai", first=AI, level="perfect"),
        player_factory=lambda _game, _level, _seed: solver,
        now=clock,
    )
    assert session.thinking and session.progress is None
    assert session.search_text() == "solving… 0.0 s"
    clock.now += 2.5
    session.poll()
    assert session.search_text() == "solving… 2.5 s"
    assert session.turn_text() == "Red to move (AI, perfect)"
    solver.release.set()
    wait(session, lambda: session.match.state.ply == 1)
    assert session.search_text() == ""
    assert session.note == ""  # solved: nothing to excuse


def test_a_solver_at_work_shows_what_it_solves() -> None:
    clock = FakeClock()
    solver = SilentSolver()
    session = GameSession(
        GameSettings("connect4", "human-ai", first=AI, level="perfect"),
        player_factory=lambda _game, _level, _seed: solver,
        now=clock,
    )
    clock.now += 1.5
    session.progress = SearchResult(
        move=None, score=0, depth=0, nodes=12_345, elapsed=1.5, note="solving column 4"
    )
    assert session.search_text() == "solving column 4… 12,345 nodes, 1.5 s"
    solver.release.set()
    wait(session, lambda: session.match.state.ply == 1)


def test_progress_names_depth_nodes_time_and_best_move() -> None:
    clock = FakeClock()
    session = GameSession(
        GameSettings("connect4", "human-ai", first=AI, level="hard"),
        player_factory=endless_factory,
        now=clock,
    )
    assert session.search_text() == "thinking… 0.0 s"  # before the first depth
    wait(session, lambda: session.progress is not None and session.progress.depth >= 2)
    clock.now += 1.25
    depth = session.progress.depth  # type: ignore[union-attr]
    nodes = f"{session.progress.nodes:,}"  # type: ignore[union-attr]
    assert session.search_text() == f"thinking… depth {depth}, {nodes} nodes, 1.2 s, best 7"
    session.shutdown()


def test_a_perfect_move_that_was_not_solved_says_so_with_the_whole_wait() -> None:
    clock = FakeClock()
    solver = SilentSolver(solved=False)
    session = GameSession(
        GameSettings("connect4", "human-ai", first=AI, level="perfect"),
        player_factory=lambda _game, _level, _seed: solver,
        now=clock,
    )
    clock.now += 6.6
    solver.release.set()
    wait(session, lambda: session.match.state.ply == 1)
    assert session.note == f"Red played 7 after 6.6 s: {NOT_SOLVED}."
    analysis = session.analysis()
    assert analysis is not None and analysis.fell_back
    assert NOT_SOLVED in analysis_details(analysis)
    assert analysis_caption(analysis).startswith("Red's view before its move in column 7: ")


def test_a_hint_at_perfect_that_was_not_solved_says_so() -> None:
    solver = SilentSolver(solved=False)
    session = GameSession(
        GameSettings("tictactoe", "human-human"),
        player_factory=lambda _game, _level, _seed: solver,
    )
    assert session.request_hint()
    solver.release.set()
    wait(session, lambda: session.hint is not None)
    assert session.note == f"Hint: c1 ({NOT_SOLVED})."  # cell 8, the bottom-right corner
    analysis = session.analysis()
    assert analysis is not None and analysis.is_hint
    assert analysis_caption(analysis) == "Hint for X: X's score for each move now."


class SharedEngine(AIPlayer):
    """One engine for every search, like the real ones: it clears its stop flag when a
    search starts and looks at it only between slices of work. It records how many
    searches ran at once, and ends by itself at ``FINAL_DEPTH``."""

    FINAL_DEPTH = 4

    def __init__(self, level: str) -> None:
        self.level = level
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.active = 0
        self.most_active = 0

    def think(self, state: GameState) -> Iterator[SearchResult]:
        self._stop.clear()
        with self._lock:
            self.active += 1
            self.most_active = max(self.most_active, self.active)
        try:
            moves = state.legal_moves()
            for depth in range(1, self.FINAL_DEPTH + 1):
                time.sleep(0.05)  # a slice of work between looks at the flag
                yield SearchResult(move=moves[0], score=0, depth=depth, nodes=depth, elapsed=0.0)
                if self._stop.is_set():
                    return
        finally:
            with self._lock:
                self.active -= 1

    def stop(self) -> None:
        self._stop.set()


def test_a_new_search_waits_for_the_stopped_one_on_the_same_engine() -> None:
    engine = SharedEngine("perfect")  # the hint's level is the AI's level: one engine
    session = GameSession(
        GameSettings("tictactoe", "human-ai", level="perfect"),
        player_factory=lambda _game, _level, _seed: engine,
    )
    assert session.request_hint()
    wait(session, lambda: session.progress is not None)
    assert session.click(4)  # stops the hint; the AI's own search starts
    assert session.thinking
    wait(session, lambda: session.match.state.ply == 2)
    assert engine.most_active == 1  # never two searches on one engine
    reply = session.match.analyses[1]
    assert reply is not None and reply.depth == SharedEngine.FINAL_DEPTH  # not cut short


def test_settings_are_checked_and_recovered_from_a_loaded_match() -> None:
    with pytest.raises(ValueError, match="no level"):
        GameSettings("tictactoe", level="hard-ish")
    with pytest.raises(ValueError, match="mode"):
        GameSettings("tictactoe", mode="robot-wars")
    settings = GameSettings("gomoku", "human-ai", first=AI, level="easy", rule="renju", size=9)
    session = GameSession(settings, player_factory=endless_factory)
    assert settings_of(session.match) == settings
    session.shutdown()


def test_gui_wanted_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", ":12345")
    monkeypatch.setenv("ABGAMES_UI", "terminal")
    assert not desktop.gui_wanted()
    monkeypatch.setenv("ABGAMES_UI", "gui")
    assert desktop.gui_wanted() == desktop.display_available()
    monkeypatch.delenv("ABGAMES_UI")
    monkeypatch.setattr(sys, "stdin", None)
    assert not desktop.gui_wanted()
    if sys.platform.startswith("linux"):
        monkeypatch.delenv("DISPLAY")
        monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
        assert not desktop.display_available()


def test_gui_command_without_a_display_explains_itself() -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}
    completed = subprocess.run(
        [sys.executable, "-m", "abgames", "gui", "connect4"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert "no display" in completed.stderr


def test_the_engine_is_readied_before_the_search_and_its_compile_is_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from abgames.ai import readiness
    from abgames.ui.desktop import worker

    compiled = threading.Event()
    calls: list[tuple[str, str]] = []

    def slow_prepare(game: str, level: str, on_progress: object = None) -> None:
        calls.append((game, level))
        assert callable(on_progress)
        on_progress(readiness.Progress("the Gomoku engine", True, 30, 3.0))
        compiled.wait(10)

    class StartedSolver(SilentSolver):
        def __init__(self) -> None:
            super().__init__("hard")
            self.started = threading.Event()

        def think(self, state: GameState) -> Iterator[SearchResult]:
            self.started.set()
            yield from super().think(state)

    monkeypatch.setattr(worker, "prepare", slow_prepare)
    solver = StartedSolver()
    session = GameSession(
        GameSettings("gomoku", "human-ai", first=AI, level="hard"),
        player_factory=lambda _game, _level, _seed: solver,
    )
    wait(session, lambda: session.progress is not None)
    assert session.search_text() == "compiling the Gomoku engine, once (about 30 s)… 3 s"
    assert calls == [("gomoku", "hard")] and not solver.started.is_set()
    compiled.set()
    solver.release.set()
    wait(session, lambda: session.match.state.ply == 1)
