"""A tiny Gomocup brain for tests: random legal moves, and ways to misbehave.

Run as ``python random_brain.py [--mode MODE] [--after N] [--seed S]``:

- ``sane``: plays a random empty point next to the stones (the centre first);
- ``crash``: exits with status 3 instead of its move number ``N`` (from 1);
- ``garbage``: answers its move ``N`` with a line that is not a move;
- ``slow``: sleeps ``--sleep`` seconds (default 30) before its move ``N``;
- ``orphan``: before its move ``N`` starts a child that sleeps ``--sleep`` seconds
  holding the brain's output open (its pid written to ``--pid-file``), then sleeps too.

With ``--scores`` it writes ``MESSAGE depth 1 score S`` before each move, ``S``
seven times the stones on the board (a teacher for ``abgames fit``); with ``--eval``
``MESSAGE Depth 1 | Eval S`` as Rapfi writes it, ``S`` as ``--scores`` but negative when
the side to move has fewer stones (a judge for ``gomoku_judge``).

It knows nothing of Renju, so as black it may play a forbidden point.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--mode", choices=("sane", "crash", "garbage", "slow", "orphan"), default="sane"
    )
    parser.add_argument("--after", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sleep", type=float, default=30.0)
    parser.add_argument("--scores", action="store_true")
    parser.add_argument("--eval", action="store_true")
    parser.add_argument("--pid-file", help="where the orphan mode writes its child's pid")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    size = 15
    stones: dict[tuple[int, int], int] = {}
    moves_made = 0
    board_lines: list[str] | None = None

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def reply() -> None:
        nonlocal moves_made
        moves_made += 1
        if moves_made == args.after:
            if args.mode == "crash":
                sys.exit(3)
            if args.mode == "garbage":
                send("I resign, said nobody")
                return
            if args.mode == "orphan":
                child = subprocess.Popen(["sleep", str(args.sleep)])  # inherits stdout
                if args.pid_file:
                    with open(args.pid_file, "w", encoding="utf-8") as pid_file:
                        pid_file.write(str(child.pid))
            if args.mode in ("slow", "orphan"):
                time.sleep(args.sleep)
        empty = [(x, y) for x in range(size) for y in range(size) if (x, y) not in stones]
        near = [
            (x, y)
            for x, y in empty
            if any((x + dx, y + dy) in stones for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        ]
        choice = (size // 2, size // 2) if not stones else rng.choice(near or empty)
        if args.scores:
            send(f"MESSAGE depth 1 score {7 * len(stones)}")
        if args.eval:
            own = sum(1 for field in stones.values() if field == 1)
            sign = -1 if 2 * own < len(stones) else 1
            send(f"MESSAGE Depth 1 | Eval {sign * 7 * len(stones)} | Time 0ms")
        stones[choice] = 1
        send("MESSAGE thinking hard")
        send(f"{choice[0]},{choice[1]}")

    for raw in sys.stdin:
        line = raw.strip()
        word = line.split(" ")[0].upper()
        if board_lines is not None:
            if word == "DONE":
                stones.clear()
                for entry in board_lines:
                    x, y, field = (int(v) for v in entry.split(","))
                    stones[(x, y)] = field
                board_lines = None
                reply()
            else:
                board_lines.append(line)
            continue
        if word == "START":
            size = int(line.split()[1])
            stones.clear()
            send("OK")
        elif word == "RESTART":
            stones.clear()
            send("OK")
        elif word == "BEGIN":
            reply()
        elif word == "TURN":
            x, y = (int(v) for v in line.split()[1].split(","))
            stones[(x, y)] = 2
            reply()
        elif word == "BOARD":
            board_lines = []
        elif word == "INFO":
            pass
        elif word == "ABOUT":
            send('name="random brain", version="1"')
        elif word == "END":
            return 0
        else:
            send("UNKNOWN")
    return 0


if __name__ == "__main__":
    sys.exit(main())
