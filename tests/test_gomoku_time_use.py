"""How the Gomoku engine spends a timed budget: early stop for people, all of it in matches.

The engine's clock (``engine.time.perf_counter``) is replaced by one the test sets
between iterations (the engine decides whether to start the next one after it yields
a result), so "half the budget is gone" happens exactly where the test says and no
test depends on how fast the machine is.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterable

import pytest

from abgames.ai.gomoku import engine as engine_module
from abgames.ai.gomoku.engine import NEW_ITERATION_TIME_SHARE, EngineSettings, GomokuEngine
from abgames.ai.gomoku.player import GomokuPlayer
from abgames.games.gomoku import Gomoku
from abgames.search.limit import Limit
from abgames.search.result import SearchResult
from abgames.search.score import WIN_THRESHOLD

#: A quiet opening: no forced win, so the result comes from iterative deepening.
OPENING = "h8 i9 h9 h10 i8 g8"
#: Depth searched when the time allows.
DEPTH = 6
#: The budget (seconds): long, so the real timer never fires during a test.
BUDGET = 60.0
#: The share of the budget after which no new iteration starts for a person.
HALF = NEW_ITERATION_TIME_SHARE * BUDGET
#: Fake times just before and just after that point (both far from the budget's end).
BEFORE_HALF, AFTER_HALF = HALF - 1.0, HALF + 1.0

SETTINGS = EngineSettings(root_vcf_depth=0, root_vct_depth=0, defence_vct_depth=0)


class FakeClock:
    """``perf_counter`` reads ``now``, which only the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(engine_module, "time", fake)
    return fake


def _state() -> Gomoku:
    state = Gomoku()
    for move in OPENING.split():
        state.play(state.parse_move(move))
    return state


def _depths(
    results: Iterable[SearchResult], clock: FakeClock, times: dict[int, float]
) -> list[int]:
    """The depths ``results`` reach when the clock shows ``times[d]`` once depth ``d`` is in."""
    depths = []
    for result in results:
        depths.append(result.depth)
        clock.now = times.get(result.depth, clock.now)
    return depths


def _search(spend_all: bool, settings: EngineSettings = SETTINGS) -> Iterable[SearchResult]:
    return GomokuEngine(settings).search(
        _state(), Limit(depth=DEPTH, time=BUDGET), spend_all=spend_all
    )


def test_without_spend_all_no_iteration_starts_after_half_the_budget(clock: FakeClock) -> None:
    assert _depths(_search(False), clock, {2: AFTER_HALF}) == [1, 2]
    clock.now = 0.0
    assert _depths(_search(False), clock, {2: BEFORE_HALF, 3: AFTER_HALF}) == [1, 2, 3]
    clock.now = 0.0
    assert _depths(_search(False), clock, {}) == list(range(1, DEPTH + 1))  # time stands still


def test_spend_all_deepens_until_the_limit(clock: FakeClock) -> None:
    assert _depths(_search(True), clock, {1: AFTER_HALF}) == list(range(1, DEPTH + 1))


def test_use_full_time_setting_is_spend_all(clock: FakeClock) -> None:
    settings = EngineSettings(
        root_vcf_depth=0, root_vct_depth=0, defence_vct_depth=0, use_full_time=True
    )
    assert _depths(_search(False, settings), clock, {1: AFTER_HALF}) == list(range(1, DEPTH + 1))


def test_match_play_spends_all_and_play_against_a_person_stops_early(clock: FakeClock) -> None:
    """``think_within`` (protocols, arena: unused time is lost) deepens to the limit;
    ``think`` (a person waits) stops once half the level's time is gone."""
    player = GomokuPlayer("hard", SETTINGS, Limit(depth=DEPTH, time=BUDGET))
    in_match = _depths(player.think_within(_state(), BUDGET), clock, {1: AFTER_HALF})
    clock.now = 0.0
    with_person = _depths(player.think(_state()), clock, {2: BEFORE_HALF, 3: AFTER_HALF})
    assert in_match == list(range(1, DEPTH + 1))
    assert with_person == [1, 2, 3]


def test_a_search_closed_early_leaves_no_timer_armed() -> None:
    """A caller that stops reading after a result (the pbrain warm-up at depth 1,
    ``INFO max_depth``) closes the search: its timers are disarmed then, so none raises
    the stop flag later inside the next search (it cut a root VCF short)."""
    before = {thread for thread in threading.enumerate() if isinstance(thread, threading.Timer)}
    engine = GomokuEngine(EngineSettings(defence_vct_depth=4))
    search = engine.search(_state(), Limit(depth=DEPTH, time=BUDGET), spend_all=True)
    assert isinstance(search, Generator) and next(search).depth == 1
    search.close()
    armed = {
        thread
        for thread in threading.enumerate()
        if isinstance(thread, threading.Timer) and thread.is_alive()
    }
    assert armed <= before
    assert engine.tables is not None and engine.tables.stop[0] == 0


def test_a_proven_win_ends_the_search_even_when_all_the_time_may_be_spent(
    clock: FakeClock,
) -> None:
    """Match play spends all its time, but not on a result deeper search cannot change:
    once alpha-beta proves a win (the root solvers off here) no iteration follows."""
    state = Gomoku()
    black = [state.point(x, y) for x, y in ((7, 7), (8, 7), (9, 7), (10, 8), (10, 9), (10, 10))]
    white = [state.point(x, y) for x, y in ((6, 7), (10, 11), (0, 0), (14, 14), (0, 14), (14, 0))]
    position = Gomoku.from_position(black, white, 0)  # k8 (10,7) makes two fours at once
    results = list(
        GomokuEngine(SETTINGS).search(position, Limit(depth=DEPTH, time=BUDGET), spend_all=True)
    )
    last = results[-1]
    assert last.move == position.point(10, 7) and last.score >= WIN_THRESHOLD
    assert last.depth < DEPTH and [r.depth for r in results] == list(range(1, last.depth + 1))
