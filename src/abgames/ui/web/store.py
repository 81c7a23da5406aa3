"""The web app's games on disk: SQLite (standard library), WAL, one connection per thread.

Each game is one row of ``games``: its settings, the moves (the save-file record
of docs/save-format.md) and a ``version`` that bumps on every change; the
analysis behind each AI move is a row of ``analyses``. Every write is one short
transaction, committed before the caller answers, so a server killed at any
moment (``kill -9``) keeps every accepted move. The schema carries a version
table; ``MIGRATIONS`` brings an older file up to date when it is opened.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

#: Schema changes, in order; ``MIGRATIONS[i]`` takes a database from version i to i + 1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        secret_hash TEXT NOT NULL,
        mode TEXT NOT NULL,
        first TEXT NOT NULL,
        level TEXT NOT NULL,
        seed INTEGER,
        record TEXT NOT NULL,
        analyses TEXT NOT NULL,
        version INTEGER NOT NULL,
        paused INTEGER NOT NULL DEFAULT 0,
        delay_ms INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    """,
    # 2: one row per analysed move, so a move appends a row instead of rewriting them all.
    """
    CREATE TABLE analyses (
        game_id TEXT NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,
        analysis TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    INSERT INTO analyses (game_id, ply, analysis)
        SELECT games.id, CAST(entry.key AS INTEGER), entry.value
        FROM games, json_each(games.analyses) AS entry
        WHERE entry.type = 'object';
    UPDATE games SET analyses = '[]';
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
#: How long a writer waits for another connection's lock before giving up (seconds).
BUSY_TIMEOUT_S = 10.0


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/abgames/games.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "abgames" / "games.sqlite3"


def hash_secret(secret: str) -> str:
    """What the store keeps of a game's secret (never the secret itself)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class StoredGame:
    """One game's row: ``record`` is the save-file dictionary, ``analyses`` one entry a move."""

    id: str
    secret_hash: str
    mode: str
    first: str
    level: str
    seed: int | None
    record: dict[str, Any]
    analyses: list[dict[str, Any] | None]
    version: int
    paused: bool = False
    delay_ms: int = 0
    created: float = field(default_factory=time.time)

    def changed(self, **changes: Any) -> StoredGame:
        """A copy with ``changes`` and the version bumped."""
        return replace(self, version=self.version + 1, **changes)


@dataclass(frozen=True)
class Insert:
    """A write: add ``game``."""

    game: StoredGame

    def apply(self, store: GameStore, db: sqlite3.Connection, now: float) -> bool:
        return store._insert(db, self.game, now)


@dataclass(frozen=True)
class Update:
    """A write: replace ``old`` by ``new`` if the stored version is still ``old``'s."""

    old: StoredGame
    new: StoredGame

    def apply(self, store: GameStore, db: sqlite3.Connection, now: float) -> bool:
        return store._update(db, self.old, self.new, now)


Write = Insert | Update


class GameStore:
    """Games in one SQLite file. Safe to call from any thread (each has its own connection)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._migrate()

    # --- connections -----------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            connection.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL survives a killed process (the WAL is in the OS's
            # hands at commit); only a power cut may lose the last commits.
            connection.execute("PRAGMA synchronous=NORMAL")
            self._local.connection = connection
            with self._lock:
                self._connections.append(connection)
        return connection

    def close(self) -> None:
        """Close every thread's connection (at shutdown, when no call is running)."""
        with self._lock:
            connections, self._connections = self._connections, []
        for connection in connections:
            connection.close()
        self._local = threading.local()

    def _migrate(self) -> None:
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM schema_version").fetchone()
            current = 0 if row is None else int(row[0])
            if current > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self.path} was written by a newer abgames (schema {current}); "
                    f"this one reads up to {SCHEMA_VERSION}"
                )
            for script in MIGRATIONS[current:]:
                for statement in script.split(";"):
                    if statement.strip():
                        db.execute(statement)
            if row is None:
                db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            else:
                db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # --- games -----------------------------------------------------------------
    def insert(self, game: StoredGame) -> None:
        """Add a new game (one transaction)."""
        self.write_batch([Insert(game)])

    def update(self, old: StoredGame, new: StoredGame) -> bool:
        """Write ``new`` over ``old`` if the stored version is still ``old``'s; whether it was.

        Only the analyses that differ from ``old``'s (by identity) are written.
        """
        (result,) = self.write_batch([Update(old, new)])
        if isinstance(result, BaseException):
            raise result
        return bool(result)

    def write_batch(self, writes: list[Write]) -> list[bool | Exception]:
        """Apply ``writes`` in one transaction (one commit), each in its own savepoint.

        Returns, per write, whether it applied (an update whose version moved on did
        not) or the exception it raised (that write alone is rolled back).
        """
        db = self._connection()
        now = time.time()
        results: list[bool | Exception] = []
        db.execute("BEGIN IMMEDIATE")
        try:
            for write in writes:
                db.execute("SAVEPOINT one_write")
                try:
                    applied = write.apply(self, db, now)
                except Exception as error:
                    db.execute("ROLLBACK TO one_write")
                    db.execute("RELEASE one_write")
                    results.append(error)
                    continue
                db.execute("RELEASE one_write")
                results.append(applied)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return results

    def _insert(self, db: sqlite3.Connection, game: StoredGame, now: float) -> bool:
        db.execute(
            "INSERT INTO games (id, secret_hash, mode, first, level, seed, record, analyses, "
            "version, paused, delay_ms, created, updated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.id,
                game.secret_hash,
                game.mode,
                game.first,
                game.level,
                game.seed,
                json.dumps(game.record),
                "[]",
                game.version,
                int(game.paused),
                game.delay_ms,
                game.created,
                now,
            ),
        )
        self._write_analyses(db, game.id, 0, game.analyses)
        return True

    def _update(self, db: sqlite3.Connection, old: StoredGame, new: StoredGame, now: float) -> bool:
        cursor = db.execute(
            "UPDATE games SET record = ?, version = ?, paused = ?, delay_ms = ?, "
            "updated = ? WHERE id = ? AND version = ?",
            (
                json.dumps(new.record),
                new.version,
                int(new.paused),
                new.delay_ms,
                now,
                new.id,
                old.version,
            ),
        )
        if cursor.rowcount != 1:
            return False
        same = 0
        for before, after in zip(old.analyses, new.analyses, strict=False):
            if before is not after:
                break
            same += 1
        if same != len(old.analyses) or same != len(new.analyses):
            self._write_analyses(db, new.id, same, new.analyses)
        return True

    def _write_analyses(
        self,
        db: sqlite3.Connection,
        game_id: str,
        start: int,
        analyses: list[dict[str, Any] | None],
    ) -> None:
        """Replace the game's analyses from ply ``start`` on with ``analyses[start:]``."""
        db.execute("DELETE FROM analyses WHERE game_id = ? AND ply >= ?", (game_id, start))
        db.executemany(
            "INSERT INTO analyses (game_id, ply, analysis) VALUES (?, ?, ?)",
            [
                (game_id, ply, json.dumps(entry))
                for ply, entry in enumerate(analyses[start:], start=start)
                if entry is not None
            ],
        )

    def get(self, game_id: str) -> StoredGame | None:
        row = (
            self._connection()
            .execute(
                "SELECT id, secret_hash, mode, first, level, seed, record, analyses, version, "
                "paused, delay_ms, created FROM games WHERE id = ?",
                (game_id,),
            )
            .fetchone()
        )
        if row is None:
            return None
        record = json.loads(row[6])
        analyses: list[dict[str, Any] | None] = [None] * len(record.get("moves", []))
        for ply, text in self._connection().execute(
            "SELECT ply, analysis FROM analyses WHERE game_id = ? ORDER BY ply", (game_id,)
        ):
            if 0 <= ply < len(analyses):
                analyses[ply] = json.loads(text)
        return StoredGame(
            id=row[0],
            secret_hash=row[1],
            mode=row[2],
            first=row[3],
            level=row[4],
            seed=row[5],
            record=record,
            analyses=analyses,
            version=int(row[8]),
            paused=bool(row[9]),
            delay_ms=int(row[10]),
            created=float(row[11]),
        )

    def count(self) -> int:
        row = self._connection().execute("SELECT COUNT(*) FROM games").fetchone()
        return int(row[0])
