"""Games between people in Debian's Chromium: two browser contexts play (one of them a
375 px phone) and a third watches: the invitation, moves from both, a draw offer
declined, a resignation with its banner, a rematch; and a game lost on time."""

from __future__ import annotations

import json
from typing import Any

from browser_support import WebServer
from page_support import page_state, start_game

#: A whole game's steps each wait at most this long (a correctness bound, not a timing).
STEP_MS = 20_000
PHONE = {"width": 375, "height": 667}


def wait_moves(page: Any, moves: int) -> None:
    page.wait_for_selector(f"#board[data-moves='{moves}']", timeout=STEP_MS)


def drop(page: Any, column: int) -> None:
    """Drop a Connect Four disc in ``column`` (0-based) by clicking the board."""
    page.locator(f"#board rect[data-move='{column}']").click()


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_invite_play_decline_a_draw_resign_and_rematch_while_someone_watches(
    new_page: Any,
) -> None:
    host = new_page()
    start_game(host, "connect4", mode="friend", first="me")
    host.wait_for_selector("#invite:not([hidden])")
    invitation = host.locator("#invite-link").input_value()
    assert "#join=" in invitation
    assert "Waiting for your friend to join" in host.locator("#status").inner_text()
    game_id = page_state(host)["id"]

    friend = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    friend.goto(invitation)
    friend.wait_for_selector("#board svg")
    assert friend.evaluate("() => window.abgames.you") == 1
    assert "Waiting for your friend's move" in friend.locator("#status").inner_text()
    host.wait_for_selector("#invite", state="hidden")  # the seat is taken
    assert "#g=" in friend.url  # the invitation is gone from the address

    watcher = new_page()
    watcher.goto(f"/#watch={game_id}")
    watcher.wait_for_selector("#watching:not([hidden])")
    assert watcher.locator("#people-actions").is_hidden()

    # Moves from both sides reach all three pages.
    drop(host, 3)
    for page in (host, friend, watcher):
        wait_moves(page, 1)
    drop(friend, 3)
    for page in (host, friend, watcher):
        wait_moves(page, 2)
    assert page_state(watcher)["moves"][1]["text"] == "4"
    # Out of turn, and a watcher, cannot move.
    drop(friend, 0)
    drop(watcher, 0)
    assert "You are watching" in watcher.locator("#status").inner_text()
    assert len(page_state(host)["moves"]) == 2

    # A draw offer, declined.
    friend.click("#offer-draw")
    host.wait_for_selector("#offer-bar:not([hidden])")
    assert host.locator("#offer-text").inner_text() == "Yellow offers a draw."
    host.click("#offer-decline")
    friend.wait_for_selector("#offer-bar", state="hidden")
    friend.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('declined the draw offer')"
    )

    # The host resigns (two clicks: the first arms the button).
    host.click("#resign")
    assert host.locator("#resign").inner_text() == "Really resign?"
    host.click("#resign")
    for page in (host, friend, watcher):
        page.wait_for_selector("#banner:not([hidden])", timeout=STEP_MS)
        assert page.locator("#banner-reason").inner_text() == "Red resigned"
    assert host.locator("#banner-result").inner_text() == "Your friend wins"
    assert friend.locator("#banner-result").inner_text() == "You win!"
    assert watcher.locator("#banner-result").inner_text() == "Yellow wins"
    assert no_sideways_scroll(friend)

    # A rematch, offered by the friend and accepted: colours swap, all three follow.
    friend.click("#banner-rematch")
    host.wait_for_selector("#offer-bar:not([hidden])")
    host.click("#offer-accept")
    moved_on = f"() => window.abgames.state && window.abgames.state.id !== '{game_id}'"
    for page in (host, friend, watcher):
        page.wait_for_function(moved_on)
        wait_moves(page, 0)
    assert host.evaluate("() => window.abgames.you") == 1
    assert friend.evaluate("() => window.abgames.you") == 0
    drop(friend, 2)
    for page in (host, friend, watcher):
        wait_moves(page, 1)


def test_a_game_lost_on_time_with_the_clocks_on_both_boards(new_page: Any) -> None:
    host = new_page()
    host.goto("/")
    host.wait_for_selector("#new-game-dialog[open]")
    # The page offers clocks of a minute or more; a two-second game is made through the API.
    created = host.evaluate(
        """async () => {
            const answer = await fetch("/api/games", {
                method: "POST",
                headers: {"Content-Type": "application/json"},
                body: JSON.stringify({game: "tictactoe", mode: "friend", first: "me",
                                      clock: {base_s: 2, increment_s: 0}}),
            });
            return answer.json();
        }"""
    )
    secrets = json.dumps({created["id"]: created["secret"]})
    invites = json.dumps({created["id"]: created["invite"]})
    host.evaluate(
        f"() => {{ localStorage.setItem('abgames:secrets', '{secrets}');"
        f" localStorage.setItem('abgames:invites', '{invites}'); }}"
    )
    host.goto(f"/#g={created['id']}")
    host.reload()
    host.wait_for_selector("#players:not([hidden])")
    assert host.locator("#player-0 .player-clock").inner_text() == "0:02.0"

    friend = new_page()
    friend.goto(host.locator("#invite-link").input_value())
    friend.wait_for_selector("#board svg")
    host.wait_for_selector("#invite", state="hidden")
    host.locator("#board rect[data-move='4']").click()  # the first move starts the clocks
    wait_moves(friend, 1)
    friend.wait_for_selector("#player-1 .player-clock.running")
    # The friend does not move: the server's flag falls and both boards say so.
    for page in (host, friend):
        page.wait_for_selector("#banner:not([hidden])", timeout=STEP_MS)
        assert page.locator("#banner-reason").inner_text() == "O ran out of time"
        assert page.locator("#player-1 .player-clock").inner_text() == "0:00.0"
    assert host.locator("#banner-result").inner_text() == "You win!"
    state = page_state(friend)
    assert state["outcome"]["how"] == "time" and state["clock"]["running"] is None


def test_a_game_between_devices_survives_a_reload_and_a_server_restart(
    new_page: Any, web_server: WebServer
) -> None:
    host = new_page()
    start_game(host, "tictactoe", mode="friend", first="friend")
    friend = new_page()
    friend.goto(host.locator("#invite-link").input_value())
    friend.wait_for_selector("#board svg")
    friend.locator("#board rect[data-move='4']").click()  # the friend moves first
    wait_moves(host, 1)

    friend.reload()  # its secret is in this browser: it is back in its seat
    wait_moves(friend, 1)
    assert friend.evaluate("() => window.abgames.you") == 0
    web_server.stop()
    host.wait_for_selector("#connection:not([hidden])")
    web_server.start()
    host.wait_for_selector("#connection", state="hidden")
    friend.wait_for_selector("#connection", state="hidden")
    host.locator("#board rect[data-move='0']").click()
    for page in (host, friend):
        wait_moves(page, 2)
    assert [move["text"] for move in page_state(friend)["moves"]] == ["b2", "a3"]
