"""Random play: Zobrist keys, undo, copy and every notation, for every game (hypothesis)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abgames.games import ConnectFour, GameState, Gomoku, IllegalMoveError, TicTacToe
from abgames.games.gomoku import Rule

GAME_FACTORIES: list[Callable[[], GameState]] = [
    TicTacToe,
    ConnectFour,
    lambda: ConnectFour(width=5, height=4),
    Gomoku,
    lambda: Gomoku(size=7, rule=Rule.STANDARD),
]


def random_walk(state: GameState, choices: list[int], undo_every: int) -> list[tuple[int, int]]:
    """Play (and sometimes undo) moves picked by ``choices``; returns (key, to_move) seen."""
    seen = []
    for step, choice in enumerate(choices):
        moves = state.legal_moves()
        if not moves or (undo_every and step % undo_every == undo_every - 1 and state.ply):
            state.undo()
        else:
            state.play(moves[choice % len(moves)])
        seen.append((state.key, state.to_move))
        assert state.key == state.compute_key()
    return seen


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(range(len(GAME_FACTORIES))),
    choices=st.lists(st.integers(min_value=0, max_value=500), max_size=80),
    undo_every=st.integers(min_value=0, max_value=5),
)
def test_key_matches_recomputation_after_play_and_undo(
    game: int, choices: list[int], undo_every: int
) -> None:
    state = GAME_FACTORIES[game]()
    random_walk(state, choices, undo_every)
    snapshot = state.copy()
    while state.ply:
        state.undo()
        assert state.key == state.compute_key()
    assert state.key == 0 and state.to_move == 0
    # The copy was independent of all that undoing.
    assert snapshot.key == snapshot.compute_key()


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(range(len(GAME_FACTORIES))),
    choices=st.lists(st.integers(min_value=0, max_value=500), max_size=60),
)
def test_notations_round_trip(game: int, choices: list[int]) -> None:
    state = GAME_FACTORIES[game]()
    random_walk(state, choices, 0)
    for move in state.moves:
        assert state.parse_move(state.format_move(move)) == move
    rebuilt = type(state).from_notation(state.notation(), **state.options())
    assert rebuilt.moves == state.moves
    assert rebuilt.key == state.key
    assert rebuilt.outcome() == state.outcome()
    assert rebuilt.render() == state.render()
    assert eval(repr(state), {type(state).__name__: type(state)}).moves == state.moves


@settings(max_examples=30, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=500), max_size=40))
def test_gomocup_coordinates_round_trip(choices: list[int]) -> None:
    state = Gomoku()
    random_walk(state, choices, 0)
    for move in state.moves:
        assert state.parse_move(state.format_gomocup(move)) == move


def test_undo_of_nothing_is_refused() -> None:
    for factory in GAME_FACTORIES:
        with pytest.raises(IllegalMoveError, match="no move to take back"):
            factory().undo()
