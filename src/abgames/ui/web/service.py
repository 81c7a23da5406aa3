"""The web app's games: the one place that joins the store, the matches and the search pool.

Routes call ``GameService``; it keeps a live copy of each game in use (its
``Match``, its subscribers, its running search), writes every change to the
store before answering, and starts the AI's search whenever the AI is to move.
Everything about the rules comes from ``abgames.match.Match``.

All methods run on the event loop; the store is called through a thread, and
searches run in the pool's worker processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

from abgames.ai.levels import DEFAULT_LEVEL, LEVELS, UnknownLevelError
from abgames.ai.player import AIPlayer
from abgames.games import GameState, IllegalMoveError, Move, NotationError
from abgames.match import AI, HUMAN, Match, SaveFileError, Seat, new_state, seats_for
from abgames.search.result import SearchResult
from abgames.ui.web import views
from abgames.ui.web.errors import BadInput, Busy, Conflict, Forbidden, NotFound, WebError
from abgames.ui.web.pool import QueueFullError, SearchJob, SearchPool
from abgames.ui.web.store import GameStore, Insert, StoredGame, Update, hash_secret
from abgames.ui.web.writer import GroupWriter

#: Bytes of randomness in a game id (at least 128 bits) and in its secret.
ID_BYTES = 18
SECRET_BYTES = 32
#: Games kept in memory; past it the least recently used idle ones are dropped (they
#: load again from the store when asked for), so memory stays flat however many are played.
LIVE_GAMES = 256
#: After the last event stream of a game closes, its search is cancelled this much later
#: (a reload reconnects well within it).
ORPHAN_GRACE_S = 10.0
#: An AI-vs-AI game keeps playing while someone asked for it this recently.
WATCHED_S = 30.0
#: Longest pause between moves of an AI-vs-AI game.
MAX_DELAY_MS = 60_000
#: The pause between moves of a new AI-vs-AI game unless the request names one (ms):
#: slow enough to watch, as the desktop's.
AI_AI_DELAY_MS = 400
#: When the queue was full, how soon the AI's search is tried again.
RETRY_S = 1.0
#: Progress events a slow reader may have waiting before more are dropped.
MAX_PENDING_PROGRESS = 20

MOVE = "move"
HINT = "hint"


class _NoSearch(AIPlayer):
    """The server's stand-in for an AI player: it checks the level, never searches.

    Searches happen in the pool's workers; the server's ``Match`` only needs to
    know which seats are AI and at what level.
    """

    def __init__(self, level: str) -> None:
        self.level = level

    def think(self, state: GameState) -> Iterator[SearchResult]:
        raise RuntimeError("the web server never searches on its own process")

    def stop(self) -> None:
        return None


def _no_search_player(game: str, level: str, seed: int | None) -> AIPlayer:
    levels = LEVELS.get(game, ())
    if level not in levels:
        raise UnknownLevelError(f"{game} has no level {level!r}: choose {', '.join(levels)}")
    return _NoSearch(level)


def rebuild(record: object, seed: int | None = None) -> Match:
    """A ``Match`` from a save-file dictionary, without making AI players.

    ``SaveFileError`` names what is wrong (as ``Match.from_record`` does).
    """
    if not isinstance(record, dict):
        raise SaveFileError("this is not an abgames save file")
    players = record.get("players")
    levels = record.get("levels", [None, None])
    rules = Match.from_record(dict(record, players=[HUMAN, HUMAN], levels=[None, None]))
    if not (isinstance(players, list) and len(players) == 2):
        raise SaveFileError("the save file must name two players")
    if not (isinstance(levels, list) and len(levels) == 2):
        raise SaveFileError("the save file must name two levels")
    try:
        seats = (Seat(players[0], levels[0]), Seat(players[1], levels[1]))
        return Match(rules.state, seats, seed=seed, player_factory=_no_search_player)
    except (TypeError, ValueError) as error:
        raise SaveFileError(f"bad players in the save file: {error}") from None


#: Each game's board options and their types.
OPTION_TYPES: dict[str, dict[str, type]] = {
    "tictactoe": {},
    "connect4": {"width": int, "height": int},
    "gomoku": {"size": int, "rule": str},
}


def check_options(game: str, options: dict[str, Any]) -> None:
    """``BadInput`` for an option the game does not have or of the wrong type."""
    known = OPTION_TYPES[game]
    for name, value in options.items():
        kind = known.get(name)
        if kind is None:
            allowed = ", ".join(known) or "none"
            raise BadInput(f"{game} has no option {name!r} (its options: {allowed})")
        if type(value) is not kind:
            raise BadInput(f"option {name!r} must be {'a number' if kind is int else 'text'}")


def settings_of(match: Match) -> tuple[str, str, str]:
    """(mode, first, level) describing a match's seats."""
    first_ai, second_ai = (seat.is_ai for seat in match.seats)
    if first_ai and second_ai:
        mode = "ai-ai"
    elif first_ai or second_ai:
        mode = "human-ai"
    else:
        mode = "human-human"
    level = next((s.level for s in match.seats if s.is_ai and s.level), DEFAULT_LEVEL[match.game])
    first = AI if first_ai and not second_ai else HUMAN
    return mode, first, level


@dataclass(eq=False)
class LiveGame:
    """A game in use: its stored row, its match, and what is happening to it now."""

    stored: StoredGame
    match: Match
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[asyncio.Queue[tuple[str, Any]]] = field(default_factory=set)
    queue_position: int | None = None
    hint: dict[str, Any] | None = None
    hint_ply: int | None = None
    hint_future: asyncio.Future[dict[str, Any]] | None = None
    message: str | None = None
    step_once: bool = False
    last_seen: float = field(default_factory=time.monotonic)
    timer: asyncio.TimerHandle | None = None
    orphan_timer: asyncio.TimerHandle | None = None
    board_cache: tuple[int, dict[str, Any]] | None = None
    json_cache: tuple[tuple[Any, ...], bytes] | None = None

    @property
    def id(self) -> str:
        return self.stored.id


class GameService:
    """Games by id: create, read, move, undo, hint, move now, new game, AI-vs-AI control."""

    def __init__(
        self, store: GameStore, pool: SearchPool, *, orphan_grace_s: float = ORPHAN_GRACE_S
    ) -> None:
        self.store = store
        self.pool = pool
        self.orphan_grace_s = orphan_grace_s
        self.live_games = LIVE_GAMES
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        # Every write goes through one thread, many per commit; reads run on any
        # thread (WAL lets them).
        self.writer = GroupWriter(store)
        self.ai_moves = 0  # AI moves played since start (for the load benchmark)

    def start(self) -> None:
        self.writer.start()

    async def close(self) -> None:
        for live in self._live.values():
            for timer in (live.timer, live.orphan_timer):
                if timer is not None:
                    timer.cancel()
            for queue in live.subscribers:
                queue.put_nowait(("close", None))
        for task in list(self._tasks):
            task.cancel()
        self._live.clear()
        await self.writer.close()

    # --- finding games ---------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id`` (``NotFound`` if there is none)."""
        live = self._live.get(game_id)
        if live is None:
            stored = await asyncio.to_thread(self.store.get, game_id)
            if stored is None:
                raise NotFound("there is no such game")
            live = self._live.get(game_id)  # another request may have loaded it meanwhile
            if live is None:
                match = rebuild(stored.record, stored.seed)
                live = LiveGame(stored, match)
                self._remember(live)
        self._live.move_to_end(game_id)
        live.last_seen = time.monotonic()
        return live

    async def authorised(self, game_id: str, secret: str | None) -> LiveGame:
        """The game, if ``secret`` is its secret (``Forbidden`` otherwise)."""
        live = await self.get(game_id)
        given = hash_secret(secret or "")
        if secret is None or not hmac.compare_digest(given, live.stored.secret_hash):
            raise Forbidden("this game's secret is missing or wrong")
        return live

    def _remember(self, live: LiveGame) -> None:
        self._live[live.id] = live
        if len(self._live) <= self.live_games:
            return
        for game_id, old in list(self._live.items()):
            if len(self._live) <= self.live_games:
                break
            busy = old.subscribers or self.pool.job_of(game_id) or old.lock.locked()
            if not busy and old.timer is None:
                del self._live[game_id]

    # --- creating --------------------------------------------------------------
    async def create(
        self,
        game: str,
        mode: str,
        first: str,
        level: str | None,
        options: dict[str, Any],
        seed: int | None,
        delay_ms: int | None = None,
    ) -> tuple[LiveGame, str]:
        """A new game; returns it with its secret. ``BadInput`` for bad settings.

        ``delay_ms`` is the pause between AI-vs-AI moves (default ``AI_AI_DELAY_MS``)."""
        if game not in LEVELS:
            raise BadInput(f"unknown game {game!r}: choose {', '.join(LEVELS)}")
        chosen = level or DEFAULT_LEVEL[game]
        check_options(game, options)
        try:
            state = new_state(game, **options)
            seats = seats_for(mode, first, chosen)
            match = Match(state, seats, seed=seed, player_factory=_no_search_player)
        except ValueError as error:
            raise BadInput(str(error)) from None
        delay = AI_AI_DELAY_MS if delay_ms is None else delay_ms
        return await self._add(match, mode, first, chosen, seed, delay if mode == "ai-ai" else 0)

    async def import_record(self, record: object) -> tuple[LiveGame, str]:
        """A new game from a save file; ``BadInput`` naming what is wrong with it."""
        try:
            match = rebuild(record)
        except SaveFileError as error:
            raise BadInput(str(error)) from None
        mode, first, level = settings_of(match)
        return await self._add(match, mode, first, level, None, AI_AI_DELAY_MS)

    async def _add(
        self,
        match: Match,
        mode: str,
        first: str,
        level: str,
        seed: int | None,
        delay_ms: int,
    ) -> tuple[LiveGame, str]:
        if match.ai_to_move:
            self._need_room()
        game_id = secrets.token_urlsafe(ID_BYTES)
        secret = secrets.token_urlsafe(SECRET_BYTES)
        stored = StoredGame(
            id=game_id,
            secret_hash=hash_secret(secret),
            mode=mode,
            first=first,
            level=level,
            seed=seed,
            record=match.to_record(),
            analyses=[None] * match.state.ply,
            version=1,
            delay_ms=delay_ms,
        )
        await self.writer.write(Insert(stored))
        live = LiveGame(stored, match)
        self._remember(live)
        self.ensure_ai(live)
        return live, secret

    # --- reading ---------------------------------------------------------------
    async def snapshot(self, live: LiveGame) -> dict[str, Any]:
        """The state once no change is half-written (a move waiting for its commit)."""
        async with live.lock:
            return self.state(live)

    async def snapshot_json(self, live: LiveGame) -> bytes:
        """``snapshot`` as JSON, reused while nothing it shows has changed (polling is cheap)."""
        async with live.lock:
            key = (
                live.stored.version,
                self._status(live),
                self.pool.position(live.id),
                live.message,
                live.hint_ply,
                id(live.hint),
            )
            if live.json_cache is None or live.json_cache[0] != key:
                body = json.dumps(self.state(live), separators=(",", ":")).encode()
                live.json_cache = (key, body)
            return live.json_cache[1]

    def state(self, live: LiveGame) -> dict[str, Any]:
        """The ``State`` of docs/web.md; call it while no change is in progress."""
        match = live.match
        state = match.state
        stored = live.stored
        board = self._board(live)
        human_to_move = not match.is_over and not match.seat_to_move.is_ai
        analysis = live.hint if live.hint_ply == state.ply else self._last_analysis(live)
        return {
            "id": live.id,
            "game": match.game,
            "options": state.options(),
            "mode": stored.mode,
            "first": stored.first,
            "level": stored.level,
            "version": stored.version,
            "seats": [{"kind": s.kind, "level": s.level} for s in match.seats],
            "board": board["board"],
            "moves": board["moves"],
            "to_move": state.to_move,
            "last_move": state.last_move,
            "outcome": board["outcome"],
            "legal": board["legal"] if human_to_move else [],
            "forbidden": board["forbidden"],
            "status": self._status(live),
            "queue_position": self.pool.position(live.id),
            "paused": stored.paused,
            "delay_ms": stored.delay_ms,
            "analysis": analysis,
            "message": live.message,
        }

    def _board(self, live: LiveGame) -> dict[str, Any]:
        """The parts of the state that change only with the position (cached per version)."""
        version = live.stored.version
        if live.board_cache is not None and live.board_cache[0] == version:
            return live.board_cache[1]
        state = live.match.state
        width, height = views.board_size(state)
        last = state.last_move
        part = {
            "board": {
                "width": width,
                "height": height,
                "cells": views.cells_of(state),
                "last_cell": None
                if last is None
                else views.cell_of_move(state, last, state.ply - 1),
            },
            "moves": views.moves_of(state),
            "outcome": views.outcome_of(state),
            "legal": sorted(state.legal_moves()),
            "forbidden": views.forbidden_of(state),
        }
        live.board_cache = (version, part)
        return part

    def _last_analysis(self, live: LiveGame) -> dict[str, Any] | None:
        found: dict[str, Any] | None = None
        for entry in reversed(live.stored.analyses):
            if entry is not None:
                found = entry
                break
        return found

    def _status(self, live: LiveGame) -> str:
        match = live.match
        if match.is_over:
            return "over"
        job = self.pool.job_of(live.id)
        if match.seat_to_move.is_ai:
            if job is not None and job.purpose == MOVE:
                return "queued" if self.pool.position(live.id) is not None else "thinking"
            if live.stored.paused:
                return "paused"
            return "thinking"
        return "your-turn"

    async def touch(self, live: LiveGame) -> None:
        """A client looked at the game: resume the AI's search if it should be running."""
        live.last_seen = time.monotonic()
        self.ensure_ai(live)

    # --- changing --------------------------------------------------------------
    async def _commit(self, live: LiveGame, **changes: Any) -> None:
        """Write the match (and ``changes``) as the next version; tell the subscribers."""
        match = live.match
        old = live.stored
        changes.setdefault("record", match.to_record())
        analyses = changes.setdefault("analyses", list(old.analyses))
        del analyses[match.state.ply :]
        analyses.extend([None] * (match.state.ply - len(analyses)))
        new = old.changed(**changes)
        written = await self.writer.write(Update(old, new))
        if not written:
            # Another server changed the game: take its version and refuse this change.
            fresh = await asyncio.to_thread(self.store.get, live.id)
            if fresh is not None:
                live.stored = fresh
                live.match = rebuild(fresh.record, fresh.seed)
            raise Conflict("the game was changed elsewhere: reload it")
        live.stored = new
        if live.hint_ply != match.state.ply:
            live.hint = None
            live.hint_ply = None
        self.publish(live, "state", self.state(live))

    def _check_version(self, live: LiveGame, version: int | None) -> None:
        if version is not None and version != live.stored.version:
            raise Conflict(
                f"the game has changed (version {live.stored.version}, not {version}): reload it"
            )

    def _need_room(self) -> None:
        if not self.pool.has_room():
            raise Busy("the server is busy: every AI is thinking and the queue is full")

    def _forget_search(self, live: LiveGame, reason: str) -> None:
        """Cancel the game's search and its pending hint (the position is changing)."""
        self.pool.cancel(live.id)
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        future = live.hint_future
        live.hint_future = None
        if future is not None and not future.done():
            future.set_exception(Conflict(reason))
        live.step_once = False

    async def play(self, live: LiveGame, move_input: int | str, version: int | None) -> None:
        """A human's move; the AI's reply (if any) starts in the background."""
        async with live.lock:
            self._check_version(live, version)
            match = live.match
            if match.is_over:
                raise Conflict("the game is over")
            if match.seat_to_move.is_ai:
                raise Conflict("it is the AI's turn, not yours")
            if isinstance(move_input, str):
                try:
                    move: Move = match.parse(move_input)
                except NotationError as error:
                    raise BadInput(str(error)) from None
            else:
                move = move_input
            reason = match.state.why_illegal(move)
            if reason is not None:
                raise BadInput(reason)
            if match.seats[1 - match.state.to_move].is_ai:
                self._need_room()
            self._forget_search(live, "a move was played: the hint is for an old position")
            match.play(move)
            live.message = None
            try:
                await self._commit(live)
            except BaseException:
                match.state.undo()
                match.analyses.pop()
                raise
        self.ensure_ai(live)

    async def undo(self, live: LiveGame) -> None:
        """Take back a turn (against the AI: back to the human's previous turn)."""
        async with live.lock:
            match = live.match
            if match.state.ply == 0:
                raise Conflict("there is no move to take back")
            self._forget_search(live, "a move was taken back")
            try:
                taken = match.undo()
            except IllegalMoveError as error:
                self.ensure_ai(live)
                raise Conflict(str(error)) from None
            live.message = "Took back " + ", ".join(
                views.text_of(match.state, m) for m in reversed(taken)
            )
            paused = live.stored.paused or live.stored.mode == "ai-ai"
            await self._reload_on_failure(live, paused=paused)
        self.ensure_ai(live)

    async def restart(self, live: LiveGame) -> None:
        """A fresh board with the same settings, id and secret."""
        async with live.lock:
            self._forget_search(live, "a new game started")
            if live.match.seats[0].is_ai and live.stored.mode != "ai-ai":
                self._need_room()
            live.match.restart()
            live.message = None
            await self._reload_on_failure(live, analyses=[])
        self.ensure_ai(live)

    async def _reload_on_failure(self, live: LiveGame, **changes: Any) -> None:
        try:
            await self._commit(live, **changes)
        except BaseException:
            stored = await asyncio.to_thread(self.store.get, live.id)
            if stored is not None:
                live.stored = stored
                live.match = rebuild(stored.record, stored.seed)
            raise

    async def move_now(self, live: LiveGame) -> None:
        """Make the running search (the AI's move or a hint) answer now."""
        if not self.pool.stop(live.id):
            raise Conflict("the AI is not thinking")

    async def control(self, live: LiveGame, action: str | None, delay_ms: int | None) -> None:
        """AI-vs-AI watching: pause, resume, step one move; set the delay between moves."""
        if live.stored.mode != "ai-ai":
            raise Conflict("pause, resume and step are for AI-vs-AI games")
        async with live.lock:
            changes: dict[str, Any] = {}
            if delay_ms is not None:
                changes["delay_ms"] = delay_ms
            if action == "pause":
                self._forget_search(live, "the game was paused")
                changes["paused"] = True
            elif action == "resume":
                changes["paused"] = False
            elif action == "step":
                if not live.stored.paused:
                    raise Conflict("pause the game before stepping through it")
                if live.match.is_over:
                    raise Conflict("the game is over")
            if action in ("resume", "step") and self.pool.job_of(live.id) is None:
                self._need_room()
            await self._commit(live, **changes)
            if action == "step" and self.pool.job_of(live.id) is None:
                live.step_once = True
        self.ensure_ai(live, now=action in ("resume", "step"))

    async def hint(self, live: LiveGame) -> dict[str, Any]:
        """The default level's suggestion for the human to move (the AI's best move)."""
        match = live.match
        if match.is_over:
            raise Conflict("the game is over")
        if match.seat_to_move.is_ai:
            raise Conflict("it is the AI's turn: there is nothing to hint")
        if live.hint is not None and live.hint_ply == match.state.ply:
            return live.hint
        future = live.hint_future
        if future is None or future.done():
            self._need_room()
            future = asyncio.get_running_loop().create_future()
            live.hint_future = future
            self._submit(live, HINT, DEFAULT_LEVEL[match.game])
        return await asyncio.shield(future)

    # --- the AI's searches -----------------------------------------------------
    def ensure_ai(self, live: LiveGame, *, now: bool = False) -> None:
        """Start the AI's search if the AI is to move and nothing is running or waiting."""
        match = live.match
        if not match.ai_to_move or self.pool.job_of(live.id) is not None:
            return
        if live.stored.paused and not live.step_once:
            return
        if live.timer is not None:
            if not now:
                return
            live.timer.cancel()
            live.timer = None
        try:
            self._submit(live, MOVE, match.seat_to_move.level or DEFAULT_LEVEL[match.game])
        except QueueFullError:
            live.message = "The server is busy: the AI will think as soon as it can."
            live.timer = asyncio.get_running_loop().call_later(RETRY_S, self._retry, live)

    def _retry(self, live: LiveGame) -> None:
        live.timer = None
        if self._watched(live):
            self.ensure_ai(live)

    def _watched(self, live: LiveGame) -> bool:
        return bool(live.subscribers) or time.monotonic() - live.last_seen < WATCHED_S

    def _submit(self, live: LiveGame, purpose: str, level: str) -> None:
        version = live.stored.version
        base = live.match.state.copy()

        def on_progress(result: SearchResult) -> None:
            self.publish(live, "progress", views.progress_of(base, result))

        def on_queued(position: int) -> None:
            if position == 0:  # the search has started
                self._publish_state(live)
            else:
                self.publish(live, "queued", {"position": position})

        def on_done(result: SearchResult | None, error: str | None) -> None:
            task = asyncio.get_running_loop().create_task(
                self._finished(live, purpose, version, base, result, error)
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        job = SearchJob(
            game_id=live.id,
            record=live.match.to_record(),
            level=level,
            seed=live.stored.seed,
            purpose=purpose,
            on_progress=on_progress,
            on_done=on_done,
            on_queued=on_queued,
        )
        self.pool.submit(job)
        if purpose == MOVE:
            live.step_once = False
            live.message = None  # a note about an earlier failed or delayed search
        self._publish_state(live)

    async def _finished(
        self,
        live: LiveGame,
        purpose: str,
        version: int,
        base: GameState,
        result: SearchResult | None,
        error: str | None,
    ) -> None:
        if purpose == HINT:
            future = live.hint_future
            live.hint_future = None
            if result is None or result.move is None:
                if future is not None and not future.done():
                    future.set_exception(WebError(f"the hint failed: {error}", status=500))
                return
            analysis = views.analysis_of(base, result) | {"ply": base.ply, "hint": True}
            if live.stored.version == version:
                live.hint, live.hint_ply = analysis, base.ply
            if future is not None and not future.done():
                future.set_result(analysis)
            self._publish_state(live)
            return
        async with live.lock:
            now = live.match.state
            if (now.ply, now.key) != (base.ply, base.key) or not live.match.ai_to_move:
                return  # the position changed after this search began (a pace change
                # bumps the version but keeps the position, and the answer)
            if result is None or result.move is None:
                live.message = f"The AI failed: {error or 'no move found'}"
                self.publish(live, "state", self.state(live))
                return
            match = live.match
            analysis = views.analysis_of(base, result) | {"ply": base.ply, "hint": False}
            match.play_ai_result(result)
            analyses = [*live.stored.analyses, analysis]
            try:
                await self._commit(live, analyses=analyses)
            except BaseException:
                match.state.undo()
                match.analyses.pop()
                raise
            self.ai_moves += 1
        self._after_ai_move(live)

    def _after_ai_move(self, live: LiveGame) -> None:
        if not live.match.ai_to_move or not self._watched(live):
            return
        if live.stored.paused and not live.step_once:
            return
        delay_s = live.stored.delay_ms / 1000 if not live.match.has_human else 0.0
        if delay_s <= 0:
            self.ensure_ai(live)
            return

        def wake() -> None:
            live.timer = None
            if self._watched(live):
                self.ensure_ai(live)

        live.timer = asyncio.get_running_loop().call_later(delay_s, wake)

    # --- events ----------------------------------------------------------------
    def _publish_state(self, live: LiveGame) -> None:
        """Send the state, unless a change is being written (its commit will send it)."""
        if live.subscribers and not live.lock.locked():
            self.publish(live, "state", self.state(live))

    def publish(self, live: LiveGame, kind: str, data: Any) -> None:
        for queue in live.subscribers:
            if kind == "progress" and queue.qsize() > MAX_PENDING_PROGRESS:
                continue
            queue.put_nowait((kind, data))

    @contextlib.asynccontextmanager
    async def subscription(self, live: LiveGame) -> AsyncIterator[asyncio.Queue[tuple[str, Any]]]:
        """A queue of the game's events for as long as the caller listens."""
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        live.subscribers.add(queue)
        if live.orphan_timer is not None:
            live.orphan_timer.cancel()
            live.orphan_timer = None
        try:
            yield queue
        finally:
            live.subscribers.discard(queue)
            left_at = time.monotonic()
            live.last_seen = left_at
            if not live.subscribers:
                live.orphan_timer = asyncio.get_running_loop().call_later(
                    self.orphan_grace_s, self._orphaned, live, left_at
                )

    def _orphaned(self, live: LiveGame, left_at: float) -> None:
        """Nobody watches the game any more: stop its search (a client's return resumes it)."""
        live.orphan_timer = None
        if live.subscribers or live.last_seen > left_at:
            return
        self._forget_search(live, "the page went away")
