"""Baseline players below the search levels: the bottom rungs of the rating ladder.

They are not offered in menus (``abgames.ai.levels.LEVELS``); the arena plays them
(``--engine level=random``) so that the ladder of ``abgames.envs.ladder`` can rate a
weak policy against something it can beat. Each looks at most one move ahead:

- ``random``: a legal move chosen uniformly.
- ``greedy``: a move that wins at once if there is one, else ``random``.
- ``safe``: ``greedy``, else a move after which the opponent cannot win at once
  (chosen uniformly among them), else ``random``.

Every game works (any ``GameState``); ``seed`` fixes the choices.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from abgames.ai.player import AIPlayer
from abgames.games.base import GameState, Move
from abgames.search.result import SearchResult

RANDOM = "random"
GREEDY = "greedy"
SAFE = "safe"
#: The baseline names, weakest first.
BASELINES: tuple[str, ...] = (RANDOM, GREEDY, SAFE)


def wins_at_once(state: GameState, move: Move) -> bool:
    """Whether ``move`` by the side to move ends the game with its win (``state`` kept)."""
    mover = state.to_move
    state.play(move)
    outcome = state.outcome()
    state.undo()
    return outcome is not None and outcome.winner == mover


def winning_move(state: GameState) -> Move | None:
    """A move that wins at once for the side to move, or ``None``."""
    for move in state.legal_moves():
        if wins_at_once(state, move):
            return move
    return None


def safe_moves(state: GameState) -> list[Move]:
    """The legal moves after which the opponent has no immediate win."""
    safe: list[Move] = []
    for move in state.legal_moves():
        state.play(move)
        if state.outcome() is not None or winning_move(state) is None:
            safe.append(move)
        state.undo()
    return safe


def baseline_move(name: str, state: GameState, rng: random.Random) -> Move:
    """The move of baseline ``name`` in ``state`` (which must not be over)."""
    legal = state.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no move to choose")
    if name == RANDOM:
        return rng.choice(legal)
    win = winning_move(state)
    if win is not None:
        return win
    if name == GREEDY:
        return rng.choice(legal)
    if name == SAFE:
        return rng.choice(safe_moves(state) or legal)
    raise ValueError(f"unknown baseline {name!r}: choose {', '.join(BASELINES)}")


class BaselinePlayer(AIPlayer):
    """A baseline as an ``AIPlayer``: one ``SearchResult`` of depth 1, score 0."""

    def __init__(self, name: str, seed: int | None = None) -> None:
        if name not in BASELINES:
            raise ValueError(f"unknown baseline {name!r}: choose {', '.join(BASELINES)}")
        self.level = name
        self.rng = random.Random(seed)

    def think(self, state: GameState) -> Iterator[SearchResult]:
        started = time.perf_counter()
        move = baseline_move(self.level, state.copy(), self.rng)
        yield SearchResult(
            move=move, score=0, depth=1, nodes=1, elapsed=time.perf_counter() - started
        )

    def stop(self) -> None:
        """Nothing to stop: a baseline answers at once."""


def make_baseline(name: str, seed: int | None = None) -> BaselinePlayer:
    return BaselinePlayer(name, seed)
