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
    # 3: whether the game is over (kept by every write), so the storage budget prunes
    # finished games first, oldest first. Rows written before stay 0 (unfinished):
    # they go as abandoned once ABANDONED_AFTER_S old.
    """
    ALTER TABLE games ADD COLUMN over INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX games_over_updated ON games (over, updated);
    """,
    # 4: what a game between people holds beyond its moves (``PEOPLE_FIELDS`` as a
    # JSON object): the seats' secrets, the invitation, the clock, a result reached
    # off the board, a pending offer, the rematch.
    """
    ALTER TABLE games ADD COLUMN people TEXT NOT NULL DEFAULT '{}';
    """,
    # 5: the engine's review of a finished game (``review.Review`` as JSON), or NULL.
    """
    ALTER TABLE games ADD COLUMN review TEXT;
    """,
    # 6: /puzzles players (``puzzle_store.py``), by the hash of the browser's key: the
    # Glicko-2 rating, counts and streaks, the puzzle in progress, recent puzzles.
    """
    CREATE TABLE puzzle_players (
        key_hash TEXT PRIMARY KEY,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        solved INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        streak INTEGER NOT NULL DEFAULT 0,
        best_streak INTEGER NOT NULL DEFAULT 0,
        attempt TEXT NOT NULL DEFAULT '{}',
        recent TEXT NOT NULL DEFAULT '[]',
        version INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE INDEX puzzle_players_updated ON puzzle_players (updated);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
#: How long a writer waits for another connection's lock before giving up (seconds).
BUSY_TIMEOUT_S = 10.0
#: Most games kept (``abgames web --max-games``). Measured: a game's row is ~1.3 kB
#: before any move; each AI move's analysis adds ~1.6 kB (Gomoku) or ~0.8 kB (Connect
#: Four, tic-tac-toe), so a finished 60-move Gomoku game against the AI is ~50 kB.
#: 20,000 such games are ~1 GB, a flood of empty games ~26 MB.
MAX_GAMES = 20_000
#: An unfinished game not changed for this long is abandoned: the budget may prune it.
ABANDONED_AFTER_S = 7 * 24 * 3600.0


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
    #: Whether the game is over; ``None``: the store works it out from ``record``.
    over: bool | None = None
    #: A game between people on two devices: the hash of each seat's secret (``None``
    #: for a seat not yet claimed); ``None`` for a game played on one device.
    seat_hashes: tuple[str | None, str | None] | None = None
    #: The hash of the invitation that claims the free seat (``None`` once claimed).
    invite_hash: str | None = None
    #: The game's clock (``clocks.Clock.to_json``), or ``None`` for an untimed game.
    clock: dict[str, Any] | None = None
    #: A result reached off the board (``endings.Ending.to_json``): resignation,
    #: agreement, time.
    ending: dict[str, Any] | None = None
    #: A pending offer between the players: ``{"kind": draw|takeback|rematch, "by": seat}``.
    offer: dict[str, Any] | None = None
    #: The id of the rematch, once agreed.
    rematch: str | None = None
    #: The engine's review of the game (``abgames.review``, as JSON), once made.
    review: dict[str, Any] | None = None

    def changed(self, **changes: Any) -> StoredGame:
        """A copy with ``changes`` and the version bumped; ``over`` is worked out again
        unless given."""
        return replace(self, version=self.version + 1, **({"over": None} | changes))

    def is_over(self) -> bool:
        """``over``, or whether the record's moves end the game (replayed: under a
        millisecond for a long Gomoku game); a record that does not replay is not over."""
        if self.over is not None:
            return self.over
        return self.ending is not None or record_is_over(self.record)

    def people_json(self) -> str:
        """The ``people`` column: the fields of ``PEOPLE_FIELDS`` that are set."""
        data = {name: getattr(self, name) for name in PEOPLE_FIELDS}
        return json.dumps({name: value for name, value in data.items() if value is not None})


#: The fields of a ``StoredGame`` kept in its ``people`` column (JSON).
PEOPLE_FIELDS = ("seat_hashes", "invite_hash", "clock", "ending", "offer", "rematch")


def _json_or_null(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value)


def people_of(text: str) -> dict[str, Any]:
    """The ``StoredGame`` fields held in a ``people`` column."""
    data = json.loads(text or "{}")
    fields = {name: data[name] for name in PEOPLE_FIELDS if name in data}
    if "seat_hashes" in fields:
        fields["seat_hashes"] = tuple(fields["seat_hashes"])
    return fields


def record_is_over(record: dict[str, Any]) -> bool:
    """Whether the save-file record's moves end the game (a win or a full board), read
    as its save-format version says."""
    from abgames.match import HUMAN, Match  # the store is loaded before the games are needed

    try:
        humans = dict(record, players=[HUMAN, HUMAN], levels=[None, None])
        return Match.from_record(humans).is_over
    except (KeyError, TypeError, ValueError):
        return False


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


@dataclass(frozen=True)
class Prune:
    """A write: make room for one more game under ``max_games`` (the storage budget).

    When the table holds ``max_games`` or more, games are deleted (with their
    analyses), oldest change first: finished games first, then unfinished ones not
    changed for ``abandoned_after_s``; never an id in ``protected``. Applies (True)
    if there is room for one more game afterwards.
    """

    max_games: int
    protected: frozenset[str] = frozenset()
    abandoned_after_s: float = ABANDONED_AFTER_S

    def apply(self, store: GameStore, db: sqlite3.Connection, now: float) -> bool:
        return store._prune(db, self, now)


Write = Insert | Update | Prune


class GameStore:
    """Games in one SQLite file. Safe to call from any thread (each has its own connection)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_games: int = MAX_GAMES,
        abandoned_after_s: float = ABANDONED_AFTER_S,
    ) -> None:
        self.path = Path(path)
        #: The storage budget ``budget.make_room`` keeps (``Prune``).
        self.max_games = max_games
        self.abandoned_after_s = abandoned_after_s
        self.pruned = 0  # games deleted by the budget since open
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
            "version, paused, delay_ms, created, updated, over, people, review) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                int(game.is_over()),
                game.people_json(),
                _json_or_null(game.review),
            ),
        )
        self._write_analyses(db, game.id, 0, game.analyses)
        return True

    def _update(self, db: sqlite3.Connection, old: StoredGame, new: StoredGame, now: float) -> bool:
        cursor = db.execute(
            "UPDATE games SET record = ?, version = ?, paused = ?, delay_ms = ?, "
            "updated = ?, over = ?, people = ?, review = ? WHERE id = ? AND version = ?",
            (
                json.dumps(new.record),
                new.version,
                int(new.paused),
                new.delay_ms,
                now,
                int(new.is_over()),
                new.people_json(),
                _json_or_null(new.review),
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

    def _prune(self, db: sqlite3.Connection, prune: Prune, now: float) -> bool:
        (count,) = db.execute("SELECT COUNT(*) FROM games").fetchone()
        excess = int(count) - prune.max_games + 1
        if excess <= 0:
            return True
        victims: list[str] = []
        # Both are range scans of games_over_updated, oldest first; a protected id is
        # skipped, so fetch that many more.
        queries: tuple[tuple[str, tuple[float, ...]], ...] = (
            ("over = 1", ()),
            ("over = 0 AND updated < ?", (now - prune.abandoned_after_s,)),
        )
        for condition, params in queries:
            need = excess - len(victims)
            if need <= 0:
                break
            ids = db.execute(
                f"SELECT id FROM games WHERE {condition} ORDER BY updated LIMIT ?",
                (*params, need + len(prune.protected)),
            )
            victims += [game_id for (game_id,) in ids if game_id not in prune.protected][:need]
        rows = [(game_id,) for game_id in victims]
        db.executemany("DELETE FROM analyses WHERE game_id = ?", rows)
        db.executemany("DELETE FROM games WHERE id = ?", rows)
        self.pruned += len(victims)
        return len(victims) >= excess

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
                "paused, delay_ms, created, over, people, review FROM games WHERE id = ?",
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
            over=bool(row[12]),
            **people_of(row[13]),
            review=None if row[14] is None else json.loads(row[14]),
        )

    def count(self) -> int:
        row = self._connection().execute("SELECT COUNT(*) FROM games").fetchone()
        return int(row[0])
