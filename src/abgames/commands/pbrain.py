"""``abgames pbrain``: run abgames as a Gomocup brain on stdin/stdout."""

from __future__ import annotations

from typing import Any

from abgames.protocols import gomocup


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "pbrain",
        help="run as a Gomocup (Piskvork) engine on stdin/stdout",
        description="Speak the Gomocup 'pbrain' protocol on stdin/stdout, so that "
        "tournament managers (Piskvork, c-gomoku-cli) can run abgames. "
        "See docs/protocol.md.",
    )
    gomocup.add_arguments(parser)
    parser.set_defaults(run=gomocup.run)
