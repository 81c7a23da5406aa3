"""The packaged puzzles: what one holds, loading them, and choosing one near a rating.

A puzzle is a position with the attacker to move and a forced win: Gomoku/Renju
(stones placed, not played) or Connect Four (the moves from the empty board). Its
``solution`` is one winning line (attacker and defender moves in turn, the last one
the attacker's five or four); any other winning line counts as well (``check``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from abgames.games.base import GameState
from abgames.games.connect4 import ConnectFour
from abgames.games.gomoku import Gomoku

#: The packaged file (``python scripts/build_puzzles.py`` writes it).
DATA_FILE = "puzzles.json"
FORMAT_VERSION = 1

# Goals: what the attacker must find.
VCF = "vcf"  # a victory by continuous fours
VCT = "vct"  # a victory by continuous threats (threes and fours)
WIN = "win"  # Connect Four: a forced win (the solver's exact score)
GOALS = (VCF, VCT, WIN)

#: Puzzles considered when choosing one: the nearest this many to the player's rating.
NEAREST = 12


@dataclass(frozen=True)
class Puzzle:
    """One puzzle; ``position`` is ``{black, white, to_move}`` (Gomoku, points ``y*size+x``
    with y from the top) or ``{moves}`` (Connect Four, 1-based column digits)."""

    id: str
    game: str
    options: dict[str, Any]
    position: dict[str, Any]
    goal: str
    solution: tuple[int, ...]
    source: str
    themes: tuple[str, ...]
    rating: int
    #: The attacker's moves in the stored solution, its five or four counted.
    length: int = 0
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def attacker(self) -> int:
        """The side to move at the start (0 black / first player, 1 white / second)."""
        return self.start().to_move

    def start(self) -> GameState:
        """A fresh copy of the starting position."""
        if self.game == Gomoku.name:
            return Gomoku.from_position(
                self.position["black"],
                self.position["white"],
                int(self.position["to_move"]),
                size=int(self.options["size"]),
                rule=str(self.options["rule"]),
            )
        if self.game == ConnectFour.name:
            return ConnectFour.from_notation(str(self.position["moves"]))
        raise ValueError(f"no puzzles for {self.game!r}")

    def after(self, moves: Iterable[int]) -> GameState:
        """The position after ``moves`` played from the start (``IllegalMoveError`` if one is)."""
        state = self.start()
        for move in moves:
            state.play(move)
        return state

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "position": self.position,
            "goal": self.goal,
            "solution": list(self.solution),
            "source": self.source,
            "themes": list(self.themes),
            "rating": self.rating,
            "length": self.length,
        }
        if self.note:
            data["note"] = self.note
        if self.extra:
            data["extra"] = self.extra
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(
            id=str(data["id"]),
            game=str(data["game"]),
            options=dict(data["options"]),
            position=dict(data["position"]),
            goal=str(data["goal"]),
            solution=tuple(int(move) for move in data["solution"]),
            source=str(data["source"]),
            themes=tuple(str(theme) for theme in data["themes"]),
            rating=int(data["rating"]),
            length=int(data.get("length", 0)),
            note=str(data.get("note", "")),
            extra=dict(data.get("extra", {})),
        )


def parse_file(text: str) -> list[Puzzle]:
    data = json.loads(text)
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(f"puzzle file version {data.get('version')!r}, not {FORMAT_VERSION}")
    return [Puzzle.from_json(entry) for entry in data["puzzles"]]


def dump_file(puzzles: Sequence[Puzzle], about: dict[str, Any]) -> str:
    """The packaged file's text: one puzzle a line, so a rebuild's diff reads well."""
    lines = [json.dumps(p.to_json(), ensure_ascii=False, sort_keys=True) for p in puzzles]
    head = json.dumps({"version": FORMAT_VERSION, "about": about}, ensure_ascii=False)
    return head[:-1] + ', "puzzles": [\n' + ",\n".join(lines) + "\n]}\n"


@cache
def load() -> tuple[Puzzle, ...]:
    """The packaged puzzles (read once)."""
    text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
    return tuple(parse_file(text))


@cache
def by_id() -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in load()}


def choose(
    rating: float,
    *,
    game: str | None = None,
    avoid: Iterable[str] = (),
    rng: random.Random | None = None,
) -> Puzzle | None:
    """A puzzle near ``rating``: one of the ``NEAREST`` closest (of ``game``, if given),
    not in ``avoid`` unless every one is; ``None`` if there is none of ``game``."""
    chooser = rng or random.Random()
    pool = [p for p in load() if game is None or p.game == game]
    if not pool:
        return None
    skipped = set(avoid)
    fresh = [p for p in pool if p.id not in skipped] or pool
    fresh.sort(key=lambda p: (abs(p.rating - rating), p.id))
    return chooser.choice(fresh[:NEAREST])
