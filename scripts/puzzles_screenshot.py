"""Screenshots of the /puzzles page into docs/screenshots/ (headless Chromium).

Run: ``.venv/bin/python scripts/puzzles_screenshot.py [FOLDER]``
Makes ``puzzles.png`` (desktop: a Renju VCF after a right move that is not the stored
line's, the defender's answer on the board) and ``puzzles-phone.png`` (a 375 px phone:
a Connect Four puzzle after a wrong move, its refutation shown). Uses Debian's
/usr/bin/chromium through Playwright and a server on a free port over a temporary
database (``scripts/learn_screenshot.py``'s set-up).
"""

from __future__ import annotations

import sys
from pathlib import Path

from learn_screenshot import CHROMIUM, CHROMIUM_ARGS, running_server
from playwright.sync_api import sync_playwright

from abgames.puzzles import check
from abgames.puzzles.catalogue import by_id

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
GOMOKU = "gi115"
GOMOKU_FIRST = "g8"  # wins too; the stored line starts j5
CONNECT4 = "c4001"
#: Longest wait for a judgement (the first one loads, or compiles, the engines' kernels).
JUDGED_MS = 240_000


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.mkdir(parents=True, exist_ok=True)
    with running_server() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto(f"{base}/puzzles#p={GOMOKU}")
        page.wait_for_selector(f"#board[data-puzzle='{GOMOKU}'][data-moves='0']")
        first = by_id()[GOMOKU].start().parse_move(GOMOKU_FIRST)
        page.click(f"#board rect[data-move='{first}']")
        page.wait_for_selector("#board[data-moves='2'][data-status='playing']", timeout=JUDGED_MS)
        page.mouse.move(0, 0)
        page.screenshot(path=str(out / "puzzles.png"))
        phone = browser.new_page(
            viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True
        )
        phone.goto(f"{base}/puzzles#p={CONNECT4}")
        phone.wait_for_selector(f"#board[data-puzzle='{CONNECT4}'][data-moves='0']")
        start = by_id()[CONNECT4].start()
        scores = check.connect4_scores(start)  # type: ignore[arg-type]
        wrong = next(c for c in start.legal_moves() if scores[c] <= 0)
        phone.tap(f"#board g.column[data-move='{wrong}'] rect[data-move='{wrong}']")
        phone.wait_for_selector("#board[data-status='failed']", timeout=JUDGED_MS)
        phone.screenshot(path=str(out / "puzzles-phone.png"), full_page=True)
        browser.close()
    print(out / "puzzles.png", out / "puzzles-phone.png")


if __name__ == "__main__":
    main()
