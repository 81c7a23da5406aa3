"""Make docs/screenshots/web-*.png: the web page on each game and a game between two
devices watched by a third, in Debian's Chromium.

Usage: ``.venv/bin/python scripts/web_screenshots.py [OUTPUT_DIR]``

Needs Debian's ``chromium`` package (``/usr/bin/chromium``; Playwright drives it, no
browser is downloaded). The script serves the app on a free 127.0.0.1 port over a
temporary database, creates each game through the API with a fixed seed (so the AI's
replies are the same every run), opens it in the page and plays the human moves by
clicking, as a person would.
"""

from __future__ import annotations

import json
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn

from abgames.ui.web.app import WebSettings, create_app

OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1240, "height": 820}
PHONE = {"width": 375, "height": 812}
SEED = 7
WAIT_MS = 120_000
LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Scene:
    """A file name, the game to create, the human moves (space-separated) and view switches."""

    name: str
    game: dict[str, Any]
    moves: str
    hint: bool = False
    numbers: bool = False
    viewport: dict[str, int] = field(default_factory=lambda: dict(DESKTOP))


SCENES = (
    Scene("web-tictactoe", {"game": "tictactoe", "level": "perfect"}, "b2 c3", hint=True),
    Scene("web-connect4", {"game": "connect4", "level": "medium"}, "4 3 3", hint=True),
    Scene(
        "web-gomoku",
        {"game": "gomoku", "mode": "human-human", "options": {"rule": "freestyle"}},
        "h8 h9 i8 i9 j8 g8 j9 k10 j7 j10 j6 j5 k7 l6 i7 g7 h7 g9 l7",
        numbers=True,
    ),
    Scene(
        "web-gomoku-renju",
        {"game": "gomoku", "mode": "human-human", "options": {"rule": "renju"}},
        "h8 h9 i8 i10 j9 k9 j10 g10",
        hint=True,
    ),
    Scene(
        "web-phone",
        {"game": "connect4", "level": "hard"},
        "4 4 3",
        viewport=dict(PHONE),
    ),
)


def move_number(game: dict[str, Any], text: str) -> int:
    """The page's move number (data-move) of a move in the game's notation."""
    if game["game"] == "connect4":
        return int(text) - 1
    if game["game"] == "tictactoe":
        return (int(text[1:]) - 1) * 3 + LETTERS.index(text[0])
    size = int(game.get("options", {}).get("size", 15))
    return (size - int(text[1:])) * size + LETTERS.index(text[0])


@contextmanager
def serve(db_path: Path) -> Iterator[str]:
    """The app on a free 127.0.0.1 port (in a thread); yields its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(WebSettings(db_path=db_path, workers=1))
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise SystemExit("the web server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def create(base: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/games",
        data=json.dumps({"seed": SEED, **body}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        created: dict[str, Any] = json.load(response)
        return created


def settled(page: Any, moves: int) -> None:
    """Wait for the person's turn with ``moves`` played (or the end); stop on a refusal."""
    page.wait_for_selector(
        f"#board[data-moves='{moves}'][data-status='your-turn'], "
        "#board[data-status='over'], #notice:not([hidden])",
        timeout=WAIT_MS,
    )
    if page.locator("#notice").is_visible():
        raise SystemExit(f"the page refused a move: {page.locator('#notice').inner_text()}")


def shoot(browser: Any, base: str, scene: Scene, output: Path) -> Path:
    created = create(base, scene.game)
    context = browser.new_context(base_url=base, viewport=scene.viewport)
    page = context.new_page()
    page.goto("/static/favicon.svg")  # same origin: the page's storage can be set
    secrets = json.dumps({created["id"]: created["secret"]})
    page.evaluate(
        "([secrets, id]) => { localStorage.setItem('abgames:secrets', secrets);"
        " localStorage.setItem('abgames:current', id); }",
        [secrets, created["id"]],
    )
    page.goto(f"/#g={created['id']}")
    played = len(created["state"]["moves"])
    settled(page, played)
    if scene.numbers:
        page.check("#show-numbers")
    human_vs_ai = scene.game.get("mode", "human-ai") == "human-ai"
    for text in scene.moves.split():
        page.click(f"#board [data-move='{move_number(scene.game, text)}']")
        played += 2 if human_vs_ai else 1
        settled(page, played)
    if scene.hint:
        page.click("#hint")
        page.wait_for_selector("#board .hint", timeout=WAIT_MS)
    page.mouse.move(0, 0)
    page.wait_for_timeout(400)  # the drop animation ends
    path = output / f"{scene.name}.png"
    page.screenshot(path=str(path), full_page=scene.viewport == PHONE)
    context.close()
    return path


def shoot_people(browser: Any, base: str, output: Path) -> list[Path]:
    """A Gomoku game between two devices on a 5+3 clock, watched by a third: the host's
    page with the friend's draw offer, the friend's phone, and the watcher's page after
    the host resigned."""
    created = create(
        base,
        {
            "game": "gomoku",
            "mode": "friend",
            "first": "me",
            "clock": {"base_s": 300, "increment_s": 3},
        },
    )
    game_id = created["id"]
    pages = []
    for viewport, url in (
        (DESKTOP, None),
        (PHONE, f"/#join={game_id}.{created['invite']}"),
        (DESKTOP, f"/#watch={game_id}"),
    ):
        page = browser.new_context(base_url=base, viewport=viewport).new_page()
        if url is None:  # the host: its secret and invitation, as the page keeps them
            page.goto("/static/favicon.svg")
            page.evaluate(
                "([id, secret, invite]) => {"
                " localStorage.setItem('abgames:secrets', JSON.stringify({[id]: secret}));"
                " localStorage.setItem('abgames:invites', JSON.stringify({[id]: invite})); }",
                [game_id, created["secret"], created["invite"]],
            )
            url = f"/#g={game_id}"
        page.goto(url)
        page.wait_for_selector("#board svg", timeout=WAIT_MS)
        pages.append(page)
    host, friend, watcher = pages
    game = {"game": "gomoku"}
    for index, text in enumerate(["h8", "h9", "i8", "i9", "j9", "g7", "g8", "j8", "i10"]):
        mover = host if index % 2 == 0 else friend
        mover.click(f"#board [data-move='{move_number(game, text)}']")
        for page in pages:
            page.wait_for_selector(f"#board[data-moves='{index + 1}']", timeout=WAIT_MS)
    friend.click("#offer-draw")
    host.wait_for_selector("#offer-bar:not([hidden])", timeout=WAIT_MS)
    paths = [output / "web-friend.png", output / "web-friend-phone.png", output / "web-watch.png"]
    for page in pages:
        page.mouse.move(0, 0)
    host.screenshot(path=str(paths[0]))
    friend.screenshot(path=str(paths[1]), full_page=True)
    host.click("#resign")
    host.click("#resign")
    watcher.wait_for_selector("#banner:not([hidden])", timeout=WAIT_MS)
    watcher.screenshot(path=str(paths[2]))
    for page in pages:
        page.context.close()
    return paths


#: The reviewed game: Black's four h8-k8 left open by White, then a five missed.
REVIEW_MOVES = "h8 g8 i8 h9 j8 i9 k8 j9 g9 k9 l9 l8 m7"


def shoot_review(browser: Any, base: str, output: Path) -> Path:
    """A Gomoku game reviewed by the engine, looking back at its first marked move."""
    game = {"game": "gomoku", "mode": "human-human"}
    created = create(base, game)
    page = browser.new_context(base_url=base, viewport=DESKTOP).new_page()
    page.goto("/static/favicon.svg")
    page.evaluate(
        "([id, secret]) => localStorage.setItem('abgames:secrets', JSON.stringify({[id]: secret}))",
        [created["id"], created["secret"]],
    )
    page.goto(f"/#g={created['id']}")
    page.wait_for_selector("#board svg", timeout=WAIT_MS)
    for index, text in enumerate(REVIEW_MOVES.split()):
        page.click(f"#board [data-move='{move_number(game, text)}']")
        page.wait_for_selector(f"#board[data-moves='{index + 1}']", timeout=WAIT_MS)
    page.click("#review-start")
    page.wait_for_selector("#review-marks li", timeout=WAIT_MS)
    page.locator("#review-marks .mark-link").first.click()
    page.mouse.move(0, 0)
    path = output / "web-review.png"
    page.screenshot(path=str(path))
    page.context.close()
    return path


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    output = Path(argv[0]) if argv else OUTPUT
    output.mkdir(parents=True, exist_ok=True)
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing: apt-get install chromium")
    with (
        tempfile.TemporaryDirectory() as folder,
        serve(Path(folder) / "games.db") as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for scene in SCENES:
            print(shoot(browser, base, scene, output))
        for path in shoot_people(browser, base, output):
            print(path)
        print(shoot_review(browser, base, output))
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
