"""How the Gomoku engine spends a timed budget: early stop for people, all of it in matches.

The engine's clock (``engine.time.perf_counter``) is replaced by one that advances a
fixed step on each reading, so "half the budget is gone" happens at a known
iteration and no test depends on how fast the machine is.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Iterator

import pytest

from abgames.ai.gomoku import engine as engine_module
from abgames.ai.gomoku.engine import NEW_ITERATION_TIME_SHARE, EngineSettings, GomokuEngine
from abgames.ai.gomoku.player import GomokuPlayer
from abgames.games.gomoku import Gomoku
from abgames.search.limit import Limit

#: A quiet opening: no forced win, so the result comes from iterative deepening.
OPENING = "h8 i9 h9 h10 i8 g8"
#: Depth searched; the fake clock passes half the budget long before it.
DEPTH = 6
#: The budget (seconds): long, so the real timer never fires during a test.
BUDGET = 60.0
#: Fake seconds per clock reading: half the budget is gone after a few readings.
STEP = NEW_ITERATION_TIME_SHARE * BUDGET / 4


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks: Iterator[float] = (STEP * i for i in itertools.count())
    clock = types.SimpleNamespace(perf_counter=lambda: next(ticks))
    monkeypatch.setattr(engine_module, "time", clock)


def _state() -> Gomoku:
    state = Gomoku()
    for move in OPENING.split():
        state.play(state.parse_move(move))
    return state


def _depths(engine: GomokuEngine, spend_all: bool) -> list[int]:
    limit = Limit(depth=DEPTH, time=BUDGET)
    return [r.depth for r in engine.search(_state(), limit, spend_all=spend_all)]


SETTINGS = EngineSettings(root_vcf_depth=0, root_vct_depth=0, defence_vct_depth=0)


@pytest.mark.usefixtures("fake_clock")
def test_without_spend_all_no_iteration_starts_after_half_the_budget() -> None:
    depths = _depths(GomokuEngine(SETTINGS), spend_all=False)
    assert depths and depths[-1] < DEPTH


@pytest.mark.usefixtures("fake_clock")
def test_spend_all_deepens_until_the_limit() -> None:
    assert _depths(GomokuEngine(SETTINGS), spend_all=True) == list(range(1, DEPTH + 1))


@pytest.mark.usefixtures("fake_clock")
def test_use_full_time_setting_is_spend_all() -> None:
    engine = GomokuEngine(
        EngineSettings(root_vcf_depth=0, root_vct_depth=0, defence_vct_depth=0, use_full_time=True)
    )
    assert _depths(engine, spend_all=False) == list(range(1, DEPTH + 1))


@pytest.mark.usefixtures("fake_clock")
def test_match_play_spends_all_and_play_against_a_person_stops_early() -> None:
    """``think_within`` (protocols, arena: unused time is lost) deepens to the limit;
    ``think`` (a person waits) stops once half the level's time is gone."""
    player = GomokuPlayer("hard", SETTINGS, Limit(depth=DEPTH, time=BUDGET))
    in_match = [r.depth for r in player.think_within(_state(), BUDGET)]
    with_person = [r.depth for r in player.think(_state())]
    assert in_match == list(range(1, DEPTH + 1))
    assert with_person and with_person[-1] < DEPTH
