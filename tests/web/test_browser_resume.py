"""A reload, a second tab and a server restart all bring the game back where it was."""

from __future__ import annotations

from typing import Any

from browser_support import WebServer
from page_support import after_reply, settle, start_game


def test_reload_second_tab_and_server_restart_resume_the_game(
    new_page: Any, web_server: WebServer
) -> None:
    page = new_page()
    start_game(page, "connect4", mode="human-ai", first="human", level="easy")
    board = page.locator("#board")
    board.press("4")
    state = after_reply(page, 0)
    game_id = state["id"]
    before = [step["text"] for step in state["moves"]]  # 4 and the AI's reply
    assert len(before) == 2 and before[0] == "4"
    assert page.url.endswith(f"#g={game_id}")

    page.reload()
    resumed = settle(page, 2)
    assert resumed["id"] == game_id and resumed["moves"] == state["moves"]
    assert page.locator("#board .piece").count() == 2

    # A second tab of the same browser, on the bare address, shows the same game.
    second = page.context.new_page()
    second.goto("/")
    assert settle(second, 2)["id"] == game_id
    second.close()

    # The server goes away: the page says so, reconnects when it is back, and plays on.
    web_server.stop()
    page.wait_for_selector("#connection:not([hidden])")
    web_server.start()
    page.wait_for_selector("#connection", state="hidden")
    page.locator("#board").press("3")
    state = after_reply(page, 2)
    assert [step["text"] for step in state["moves"]][:3] == [*before, "3"]

    web_server.restart()
    page.reload()
    assert settle(page, 4)["moves"] == state["moves"]
