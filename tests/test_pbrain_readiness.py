"""A fresh brain's first move: the compiled code is loaded before the clock runs, and a
proven win is answered at once, without the alpha-beta search.

The load is replaced by events the test holds and releases (``KernelPreload``'s
``prepare`` and ``will_compile``), so no test depends on how long a load takes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from abgames.ai.gomoku import search as kernel_search
from abgames.ai.gomoku.player import prepare as prepare_gomoku
from abgames.ai.levels import make_player
from abgames.ai.player import AIPlayer
from abgames.games.base import GameState
from abgames.games.gomoku import Gomoku
from abgames.protocols.gomocup import Brain
from abgames.protocols.preload import KernelPreload
from abgames.protocols.quickmove import quick_move
from abgames.protocols.thinker import Thinker
from abgames.search.result import SearchResult

#: How long a test waits before taking a thread for hung (a guard, never a measure).
HANG_GUARD_S = 60.0
#: A wait "for ever" (longer than the guard): a call that returns proves it did not wait.
FOREVER_S = 10 * HANG_GUARD_S


class HeldLoad:
    """A fake ``prepare`` that runs until the test releases it; ``will_compile`` says
    whether it is a compile."""

    def __init__(self, compiling: bool) -> None:
        self.compiling = compiling
        self.entered = threading.Event()
        self.release = threading.Event()

    def prepare(self) -> None:
        self.entered.set()
        assert self.release.wait(HANG_GUARD_S)

    def will_compile(self) -> bool:
        return self.compiling

    def preload(self) -> KernelPreload:
        return KernelPreload("gomoku", "hard", prepare=self.prepare, will_compile=self.will_compile)


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """``call()`` started on a daemon thread; its return value lands in the list."""
    returned: list[Any] = []
    worker = threading.Thread(target=lambda: returned.append(call()), daemon=True)
    worker.start()
    return worker, returned


def test_a_load_from_the_cache_is_waited_for() -> None:
    load = HeldLoad(compiling=False)
    kernels = load.preload()
    assert load.entered.wait(HANG_GUARD_S)
    worker, returned = in_thread(lambda: kernels.wait_unless_compiling(FOREVER_S))
    assert not kernels.is_ready() and returned == []
    load.release.set()
    worker.join(HANG_GUARD_S)
    assert returned == [True] and kernels.is_ready()


def test_a_compile_is_not_waited_for() -> None:
    load = HeldLoad(compiling=True)
    kernels = load.preload()
    try:
        worker, returned = in_thread(lambda: kernels.wait_unless_compiling(FOREVER_S))
        worker.join(HANG_GUARD_S)
        assert returned == [False] and not kernels.is_ready()
    finally:
        load.release.set()


def test_a_failed_load_counts_as_ready(capsys: pytest.CaptureFixture[str]) -> None:
    def broken() -> None:
        raise RuntimeError("no kernels here")

    kernels = KernelPreload("gomoku", "hard", prepare=broken, will_compile=lambda: False)
    assert kernels.wait_unless_compiling(HANG_GUARD_S)
    assert "no kernels here" in capsys.readouterr().err


class RecordedKernels(KernelPreload):
    """Kernels that are ready (or compiling) at once, and record each wait in ``log``."""

    def __init__(self, log: list[str], ready: bool) -> None:
        self.log = log
        self.ready = ready

    def is_ready(self) -> bool:
        return self.ready

    def wait_unless_compiling(self, seconds: float) -> bool:
        self.log.append("waited for the kernels")
        return self.ready


def test_start_answers_ok_only_after_the_kernels_are_waited_for() -> None:
    out: list[str] = []
    brain = Brain(make_player("gomoku", "easy", 1), out.append, kernels=RecordedKernels(out, True))
    brain.handle("START 15")
    assert out == ["waited for the kernels", "OK"]


class CountingPlayer(AIPlayer):
    """A player whose search yields one result at once; counts its searches."""

    level = "counting"

    def __init__(self, move: int) -> None:
        self.move = move
        self.searches = 0

    def think(self, state: GameState) -> Iterator[SearchResult]:
        self.searches += 1
        yield SearchResult(move=self.move, score=0, depth=1, nodes=1, elapsed=0.0)

    def stop(self) -> None:
        pass  # its search is over at once


def test_a_move_while_the_kernels_compile_is_the_instant_one() -> None:
    state = Gomoku.from_notation("h8")
    player = CountingPlayer(Gomoku().point(0, 0))
    thinker = Thinker(player, lambda result, position: None, RecordedKernels([], False))
    move, result = thinker.choose(state, FOREVER_S, FOREVER_S)
    assert (move, result) == (quick_move(state), None)
    assert player.searches == 0


def test_a_move_while_the_kernels_load_waits_for_them_then_searches() -> None:
    state = Gomoku.from_notation("h8")
    load = HeldLoad(compiling=False)
    player = CountingPlayer(Gomoku().point(0, 0))
    thinker = Thinker(player, lambda result, position: None, load.preload())
    worker, returned = in_thread(lambda: thinker.choose(state, FOREVER_S, FOREVER_S))
    assert load.entered.wait(HANG_GUARD_S)
    assert player.searches == 0 and returned == []
    load.release.set()
    worker.join(HANG_GUARD_S)
    assert returned and returned[0][0] == player.move and player.searches == 1


#: Freestyle, the brain (black) to move: g8..j8 is closed by white at g8, k5..k7 by
#: white at k4; k8 makes two fours at once (a VCF of two moves, found by the root VCF).
VCF_BOARD = "7,7,1 8,7,1 9,7,1 10,8,1 10,9,1 10,10,1 6,7,2 10,11,2 0,0,2 14,14,2 0,14,2 14,0,2"


def test_a_proven_vcf_at_the_root_is_answered_without_the_alpha_beta(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prepare_gomoku()  # the kernels, loaded here, not by the search (readiness left alone)
    alpha_beta_calls: list[int] = []
    search_root = kernel_search.search_root

    def counted_search_root(*arguments: Any) -> Any:
        alpha_beta_calls.append(1)
        return search_root(*arguments)

    monkeypatch.setattr(kernel_search, "search_root", counted_search_root)
    out: list[str] = []
    brain = Brain(make_player("gomoku", "hard", 1), out.append, debug=True, warm_up=False)
    brain.handle("START 15")
    brain.handle("INFO timeout_turn 60000")
    brain.handle("BOARD")
    for line in VCF_BOARD.split():
        brain.handle(line)
    worker = threading.Thread(target=brain.handle, args=("DONE",), daemon=True)
    worker.start()
    worker.join(HANG_GUARD_S)
    assert not worker.is_alive()
    assert out[-1] == "10,7"
    assert any(line.startswith("MESSAGE depth 3 ") for line in out), out
    assert "DEBUG answered with an instant move" not in out
    assert alpha_beta_calls == []
