"""Where arena games are kept: a JSON-lines records file, and SGF for Gomoku.

Records file: one JSON object a line and a game, written as each game ends (see
``GameRecord.as_json``): the engines, the opening and all moves in the game's
notation (Renju notation ``h8`` for Gomoku, column numbers for Connect Four,
cell names for tic-tac-toe), the result (``1-0``, ``0-1``, ``1/2-1/2``, first
player first) and the reason.

SGF: one game tree per game (``GM[4]``, Gomoku), appended to one file; points
are ``[xy]`` with letters from ``a`` counted from the left and from the top.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import TextIO

from abgames import __version__
from abgames.arena.engines import TIME_FORFEIT
from abgames.arena.judge import LINE_REASONS, GameRecord
from abgames.files import check_output, open_output, read_lines
from abgames.games.gomoku import LETTERS, Gomoku

SGF_GOMOKU = 4
SGF_COLOURS = ("B", "W")


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def sgf_result(record: GameRecord) -> str:
    """``B+`` / ``W+`` (``T`` time, ``F`` other forfeits) or ``0`` for a draw."""
    if record.winner is None:
        return "0"
    colour = SGF_COLOURS[record.winner]
    if record.reason == TIME_FORFEIT:
        return f"{colour}+T"
    if record.reason in LINE_REASONS.values():
        return f"{colour}+"
    return f"{colour}+F"


def to_sgf(record: GameRecord) -> str:
    """The game as an SGF game tree; ``ValueError`` for a game other than Gomoku."""
    if record.game != Gomoku.name:
        raise ValueError(f"SGF is written for Gomoku only, not {record.game}")
    state = Gomoku.from_notation(record.moves, **record.options)
    comment = record.reason + (f": {record.detail}" if record.detail else "")
    header = (
        f"GM[{SGF_GOMOKU}]FF[4]CA[UTF-8]AP[abgames:{__version__}]SZ[{state.size}]"
        f"RU[{state.rule.value}]GN[game {record.index}]"
        f"PB[{_escape(record.players[0])}]PW[{_escape(record.players[1])}]"
        f"RE[{sgf_result(record)}]C[{_escape(comment)}]"
    )
    nodes = []
    for ply, move in enumerate(state.moves):
        x, y = state.xy(move)
        nodes.append(f";{SGF_COLOURS[ply % 2]}[{LETTERS[x]}{LETTERS[y]}]")
    return f"(;{header}{''.join(nodes)})\n"


class RecordWriter:
    """Appends each finished game to the records file (and the SGF file, if any)."""

    def __init__(
        self, records: Path | None, sgf: Path | None = None, *, append: bool = False
    ) -> None:
        """Open the files; ``append`` adds to them (a resumed run) instead of starting anew.

        Both are checked before either is opened (``files.check_output``), so a bad
        SGF path refuses the run before the records file is emptied.
        """
        for path in (records, sgf):
            if path is not None:
                check_output(path)
        self._records = _open_text(records, append) if records is not None else None
        try:
            self._sgf = _open_text(sgf, append) if sgf is not None else None
        except BaseException:
            if self._records is not None:
                self._records.close()
            raise

    def write(self, record: GameRecord) -> None:
        if self._records is not None:
            self._records.write(json.dumps(record.as_json()) + "\n")
            self._records.flush()
        if self._sgf is not None and record.game == Gomoku.name:
            self._sgf.write(to_sgf(record))
            self._sgf.flush()

    def close(self) -> None:
        for stream in (self._records, self._sgf):
            if stream is not None:
                stream.close()


def _open_text(path: Path, append: bool) -> TextIO:
    """``path`` open for text, if it is a regular file or a new name (``files.open_output``:
    a FIFO or a device is refused at once, ``OSError``)."""
    return io.TextIOWrapper(open_output(path, append=append), encoding="utf-8")


#: The largest records file read, and its longest line (a game of 484 moves takes ~4 KB).
MAX_RECORDS_BYTES = 1 << 32
MAX_RECORD_LINE_BYTES = 1 << 20


def read_records(path: Path) -> list[dict[str, object]]:
    """The games of a records file, in the order written.

    ``OSError`` for a file that is not a regular one, over ``MAX_RECORDS_BYTES`` or
    with a line over ``MAX_RECORD_LINE_BYTES``; ``ValueError`` for a line that is not
    a JSON object in UTF-8.
    """
    games = []
    lines = read_lines(path, limit=MAX_RECORDS_BYTES, line_limit=MAX_RECORD_LINE_BYTES)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            game = json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            raise ValueError(f"line {number} is not a JSON record") from None
        if not isinstance(game, dict):
            raise ValueError(f"line {number} is not a JSON record")
        games.append(game)
    return games
