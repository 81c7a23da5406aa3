"""Any integer is a seed (``--seed -1`` too): play, pbrain and the arena with Gomoku."""

from __future__ import annotations

import io
import re

import pytest

from abgames.ai.gomoku.engine import GomokuEngine
from abgames.ai.levels import make_player
from abgames.arena.engines import parse_engine_spec
from abgames.arena.runner import ArenaSettings, run_arena
from abgames.cli import main
from abgames.games.gomoku import Gomoku
from abgames.protocols.gomocup import Brain
from abgames.search.limit import Limit
from abgames.search.seeds import SEED_MODULUS, generator_seed


def test_generator_seed_maps_every_integer_and_keeps_the_usual_ones() -> None:
    assert [generator_seed(s) for s in (0, 1, 42, SEED_MODULUS - 1)] == [
        0,
        1,
        42,
        SEED_MODULUS - 1,
    ]
    assert generator_seed(-1) == SEED_MODULUS - 1
    assert generator_seed(-1) != generator_seed(1)
    assert generator_seed(-(10**30)) == (-(10**30)) % SEED_MODULUS


def _searched_move(seed: int) -> int | None:
    state = Gomoku.from_notation("e5 f6", size=9)
    results = list(GomokuEngine(seed=seed).search(state, Limit(depth=3)))
    assert results and results[-1].depth == 3
    return results[-1].move


def test_the_gomoku_engine_takes_a_negative_seed_and_repeats_its_choice() -> None:
    assert _searched_move(-1) == _searched_move(-1)


def test_play_gomoku_with_a_negative_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("e5\nquit\n"))
    code = main(["play", "gomoku", "--size", "9", "--level", "medium", "--seed", "-1"])
    captured = capsys.readouterr()
    assert code == 0
    assert "Traceback" not in captured.err
    assert re.search(r"White \(AI\) plays [a-i][1-9]: .*depth [1-9]", captured.out)


def test_pbrain_with_a_negative_seed_searches() -> None:
    out: list[str] = []
    brain = Brain(make_player("gomoku", "medium", -1), out.append, warm_up=False)
    for line in ("START 9", "INFO timeout_turn 500", "TURN 4,4"):
        brain.handle(line)
    moves = [line for line in out if re.fullmatch(r"\d+,\d+", line)]
    depths = [int(m.group(1)) for line in out if (m := re.search(r"depth (\d+)", line))]
    assert len(moves) == 1
    assert depths and max(depths) >= 2, out  # searched, not the instant fallback move


def test_the_arena_plays_gomoku_with_a_negative_seed() -> None:
    settings = ArenaSettings(
        game="gomoku",
        options={"size": 9},
        engines=tuple(
            parse_engine_spec(text, game="gomoku", turn_ms=200)
            for text in ("level=medium,name=a", "level=medium,name=b")
        ),
        games=2,
        seed=-1,
    )
    result = run_arena(settings)
    assert [r.reason for r in result.records if "crash" in r.reason] == []
    assert all(r.reason in ("five", "full board") for r in result.records)
