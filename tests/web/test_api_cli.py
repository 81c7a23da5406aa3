"""``abgames web``: a bad port, a busy port or an unusable database is one line, exit 2."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from abgames.cli import main
from abgames.commands.web import open_listener


def test_a_busy_port_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = main(["web", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")])
    assert code == 2
    assert capsys.readouterr().err == (
        f"abgames web: cannot listen on 127.0.0.1:{port}: Address already in use "
        "(try another --port)\n"
    )


def test_an_unusable_database_path_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("not a folder")
    code = main(["web", "--db", str(tmp_path / "file" / "games.sqlite3")])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("abgames web: cannot use ") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [(["--port", "0"], "port 0 is not 1..65535"), (["--workers", "0"], "--workers is 1..64")],
)
def test_bad_numbers_are_refused(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["web", *args]) == 2
    assert words in capsys.readouterr().err


def test_the_listener_gives_connections_without_nagles_delay() -> None:
    """Answers on a kept-alive connection go out at once (TCP_NODELAY), not ~40 ms late."""

    async def accepted_nodelay() -> int:
        listener = open_listener("127.0.0.1", 0)
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        port = listener.getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            return await asyncio.wait_for(accepted, 10)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(accepted_nodelay()) != 0
