"""Helpers of the browser tests: start a game through the page's form, wait for a turn,
read the page's state, and choose moves with the real AI (so the tests win or draw)."""

from __future__ import annotations

import time
from typing import Any

from abgames.ai.levels import make_player
from abgames.games import GameState
from abgames.match import new_state

#: Longest wait for the AI in a test (a correctness bound, not a timing assertion).
WAIT_S = 30.0
#: Any state the page shows when the person may act (or nothing more will happen).
SETTLED = "#board[data-status='your-turn'], #board[data-status='over']"


def start_game(page: Any, game: str, **fields: str | int) -> None:
    """Open the page on a fresh context (the form shows) and start ``game``.

    ``fields``: the form's other fields by name (mode, first, level, rule, size, width, height).
    """
    page.goto("/")
    page.wait_for_selector("#new-game-dialog[open]")
    page.select_option("#ng-game", game)
    for name in ("mode", "first", "level", "rule"):
        if name in fields:
            page.select_option(f"#ng-{name}", str(fields[name]))
    for name in ("size", "width", "height"):
        if name in fields:
            page.fill(f"#ng-{name}", str(fields[name]))
    page.click("#new-game-start")
    page.wait_for_selector("#new-game-dialog", state="hidden")
    page.wait_for_selector("#board svg")


def page_state(page: Any) -> dict[str, Any]:
    """The state the page holds (as the server sent it)."""
    state: dict[str, Any] = page.evaluate("() => window.abgames.state")
    return state


def settle(page: Any, moves: int | None = None) -> dict[str, Any]:
    """Wait until the person may act (or the game is over), with ``moves`` played if given."""
    if moves is None:
        page.wait_for_selector(SETTLED)
    else:
        page.wait_for_selector(
            f"#board[data-moves='{moves}'][data-status='your-turn'], "
            f"#board[data-moves='{moves}'][data-status='over']"
        )
    return page_state(page)


def after_reply(page: Any, before: int) -> dict[str, Any]:
    """After a human move on a board of ``before`` moves: wait for the AI's reply (or the end)."""
    page.wait_for_selector(
        f"#board[data-moves='{before + 2}'][data-status='your-turn'], "
        f"#board[data-moves='{before + 2}'][data-status='over'], "
        f"#board[data-moves='{before + 1}'][data-status='over']"
    )
    return page_state(page)


def at_least(page: Any, moves: int) -> dict[str, Any]:
    """Wait until the page shows at least ``moves`` moves (AI vs AI runs on by itself)."""
    deadline = time.monotonic() + WAIT_S
    while len((state := page_state(page))["moves"]) < moves:
        assert time.monotonic() < deadline, f"only {len(state['moves'])} moves, not {moves}"
        page.wait_for_timeout(50)
    return state


def replay(page_state_: dict[str, Any]) -> GameState:
    """The page's position rebuilt with the rules, to let an engine choose a move in it."""
    state = new_state(page_state_["game"], **page_state_["options"])
    for step in page_state_["moves"]:
        state.play(step["move"])
    return state


def best_move(page_state_: dict[str, Any], level: str) -> int:
    """The move of the ``level`` AI in the page's position."""
    position = replay(page_state_)
    move = make_player(page_state_["game"], level, 0).choose(position).move
    assert move is not None
    return int(move)


def point(text: str, size: int = 15) -> int:
    """A Gomoku point's number (y from the top) from its name: ``j8`` on 15x15 -> 114."""
    x = "abcdefghijklmnopqrstuvwxyz".index(text[0])
    y = size - int(text[1:])
    return y * size + x
