"""Keys typed while the AI thinks are neither echoed over the progress line nor kept."""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Iterator

import pytest

from abgames.ai.player import AIPlayer
from abgames.games import ConnectFour, GameState
from abgames.match import AI, Match, seats_for
from abgames.search.result import SearchResult
from abgames.ui.terminal import TYPED_WHILE_THINKING, Console, Session
from abgames.ui.typing_hold import held_typing

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals")


def read_available(descriptor: int) -> bytes:
    os.set_blocking(descriptor, False)
    try:
        return os.read(descriptor, 1000)
    except BlockingIOError:
        return b""
    finally:
        os.set_blocking(descriptor, True)


def test_typing_is_not_echoed_and_is_discarded_then_the_terminal_is_restored() -> None:
    import pty
    import termios

    master, slave = pty.openpty()
    try:
        stream = os.fdopen(slave, "r", closefd=False)
        before = termios.tcgetattr(slave)
        with held_typing(stream) as held:
            os.write(master, b"4")  # half a line, typed while the AI thinks
            time.sleep(0.2)
        assert read_available(master) == b""  # nothing echoed onto the progress line
        assert held.discarded
        assert termios.tcgetattr(slave) == before
        os.write(master, b"5\n")
        time.sleep(0.2)
        assert read_available(master) == b"5\r\n"  # echo is back
        assert os.read(slave, 100) == b"5\n"  # the "4" was thrown away
    finally:
        os.close(master)
        os.close(slave)


def test_nothing_typed_is_nothing_discarded() -> None:
    import pty

    master, slave = pty.openpty()
    try:
        with held_typing(os.fdopen(slave, "r", closefd=False)) as held:
            pass
        assert not held.discarded
    finally:
        os.close(master)
        os.close(slave)


def test_pipes_are_left_alone() -> None:
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b"4\n")
        with os.fdopen(read_end, "r", closefd=False) as stream, held_typing(stream) as held:
            pass
        assert not held.discarded
        assert os.read(read_end, 10) == b"4\n"
        with held_typing(io.StringIO("4\n")) as held:
            pass
        assert not held.discarded
    finally:
        os.close(read_end)
        os.close(write_end)


class TypedAtPlayer(AIPlayer):
    """A player during whose thinking a key is typed on the terminal ``master``."""

    level = "typed-at"

    def __init__(self, master: int) -> None:
        self.master = master

    def think(self, state: GameState) -> Iterator[SearchResult]:
        os.write(self.master, b"4")  # the person types while the AI thinks
        time.sleep(0.2)  # the terminal would echo it now
        yield SearchResult(move=state.legal_moves()[0], score=0, depth=1, nodes=1, elapsed=0.2)

    def stop(self) -> None:
        pass


def test_a_terminal_session_holds_back_typing_during_the_ai_turn() -> None:
    import pty

    master, slave = pty.openpty()
    try:
        match = Match(
            ConnectFour(),
            seats_for("human-ai", AI, "typed-at"),
            player_factory=lambda game, level, seed: TypedAtPlayer(master),
        )
        output = io.StringIO()
        session = Session(match, Console(os.fdopen(slave, "r", closefd=False), output))
        session.ai_turn()
        assert read_available(master) == b""  # not echoed over the progress line
        assert TYPED_WHILE_THINKING in output.getvalue()
        assert match.state.ply == 1
    finally:
        os.close(master)
        os.close(slave)
