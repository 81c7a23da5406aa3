"""/puzzles players in the web app's SQLite file (table ``puzzle_players``, schema 6).

A player is known by the SHA-256 of the random key its browser keeps (never the key).
One row holds the Glicko-2 rating, the counts and streaks, the puzzle in progress
(``attempt``, JSON) and the ids of the puzzles last rated (``recent``: a puzzle is
rated once, and the next one is chosen among the others). Reads run on a thread
(``asyncio.to_thread``); writes go through the app's group writer as ``SavePlayer``,
which checks the version it started from, as the games' writes do.

The table is bounded: past ``MAX_PLAYERS`` rows, a new player's row makes room by
deleting the least recently seen players.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field, replace
from typing import Any, cast

from abgames.puzzles.glicko2 import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY
from abgames.ui.web.store import GameStore, Write, hash_secret

#: Most puzzle players kept (a row is about 2 kB at most: 20,000 are ~40 MB).
MAX_PLAYERS = 20_000
#: Puzzle ids remembered per player (rated once; not chosen again soon).
RECENT = 200


@dataclass(frozen=True)
class Player:
    """One player's row; ``attempt`` is ``{}`` when no puzzle is in progress."""

    key_hash: str
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY
    solved: int = 0
    failed: int = 0
    streak: int = 0
    best_streak: int = 0
    attempt: dict[str, Any] = field(default_factory=dict)
    recent: tuple[str, ...] = ()
    #: 0 for a player not yet stored; bumped by every write.
    version: int = 0

    def changed(self, **changes: Any) -> Player:
        return replace(self, version=self.version + 1, **changes)


def key_hash(key: str) -> str:
    return hash_secret(key)


_COLUMNS = (
    "key_hash, rating, deviation, volatility, solved, failed, streak, best_streak, "
    "attempt, recent, version"
)


def load_player(store: GameStore, hashed: str) -> Player:
    """The player of ``hashed`` (a new one, version 0, if none is stored). Blocking."""
    row = (
        store._connection()
        .execute(f"SELECT {_COLUMNS} FROM puzzle_players WHERE key_hash = ?", (hashed,))
        .fetchone()
    )
    if row is None:
        return Player(hashed)
    return Player(
        key_hash=row[0],
        rating=float(row[1]),
        deviation=float(row[2]),
        volatility=float(row[3]),
        solved=int(row[4]),
        failed=int(row[5]),
        streak=int(row[6]),
        best_streak=int(row[7]),
        attempt=dict(json.loads(row[8])),
        recent=tuple(json.loads(row[9])),
        version=int(row[10]),
    )


@dataclass(frozen=True)
class SavePlayer:
    """A write: store ``new`` if the stored row is still at ``old_version`` (0: absent)."""

    old_version: int
    new: Player
    max_players: int = MAX_PLAYERS

    def apply(self, store: GameStore, db: sqlite3.Connection, now: float) -> bool:
        player = self.new
        values = (
            player.rating,
            player.deviation,
            player.volatility,
            player.solved,
            player.failed,
            player.streak,
            player.best_streak,
            json.dumps(player.attempt),
            json.dumps(list(player.recent[-RECENT:])),
            player.version,
            now,
        )
        if self.old_version == 0:
            (count,) = db.execute("SELECT COUNT(*) FROM puzzle_players").fetchone()
            if int(count) >= self.max_players:
                db.execute(
                    "DELETE FROM puzzle_players WHERE key_hash IN (SELECT key_hash FROM "
                    "puzzle_players ORDER BY updated LIMIT ?)",
                    (int(count) - self.max_players + 1,),
                )
            cursor = db.execute(
                "INSERT OR IGNORE INTO puzzle_players (rating, deviation, volatility, solved, "
                "failed, streak, best_streak, attempt, recent, version, updated, key_hash, "
                "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*values, player.key_hash, now),
            )
        else:
            cursor = db.execute(
                "UPDATE puzzle_players SET rating = ?, deviation = ?, volatility = ?, "
                "solved = ?, failed = ?, streak = ?, best_streak = ?, attempt = ?, recent = ?, "
                "version = ?, updated = ? WHERE key_hash = ? AND version = ?",
                (*values, player.key_hash, self.old_version),
            )
        return cursor.rowcount == 1

    def as_write(self) -> Write:
        """This write as the store's ``Write`` type (the store applies any ``apply``)."""
        return cast(Write, self)
