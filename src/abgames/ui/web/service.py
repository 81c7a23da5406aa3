"""The web app's games: the one place that joins the store, the live matches and the AI.

Routes call ``GameService``; it keeps a live copy of each game in use (``LiveGame``:
its ``Match``, its subscribers, its search), writes every change to the store before
answering, and hands the AI's searches to ``AIScheduler``. Everything about the rules
comes from ``abgames.match.Match``; the JSON views live in ``state_view``, the events
in ``events``, the errors in ``errors``.

All methods run on the event loop; the store is called through a thread (reads) or
the group writer (writes), and searches run in the pool's workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Coroutine
from typing import Any

from abgames.ai.levels import DEFAULT_LEVEL, LEVELS
from abgames.games import IllegalMoveError, Move, NotationError
from abgames.match import HUMAN, Match, SaveFileError, new_state, seats_for
from abgames.ui.web import clocks, views
from abgames.ui.web.budget import make_room
from abgames.ui.web.clients import UNKNOWN_CLIENT
from abgames.ui.web.errors import BadInput, Conflict, Forbidden, NotFound
from abgames.ui.web.events import close_streams, publish, subscription
from abgames.ui.web.live import Event, LiveGame
from abgames.ui.web.matches import check_options, no_search_player, rebuild, settings_of
from abgames.ui.web.people import FRIEND, People, creator_seat, seat_of_secret
from abgames.ui.web.pool import SearchPool
from abgames.ui.web.reviews import Reviewer
from abgames.ui.web.scheduler import AIScheduler
from abgames.ui.web.state_view import state_json, state_of
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
#: The pause between moves of a new AI-vs-AI game unless the request names one (ms):
#: slow enough to watch, as the desktop's.
AI_AI_DELAY_MS = 400
#: A game asked for this recently is being played: the storage budget never prunes it.
IN_PLAY_S = 15 * 60.0


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
        # Every write goes through one thread, many per commit; reads run on any
        # thread (WAL lets them).
        self.writer = GroupWriter(store)
        self.ai = AIScheduler(pool, self.commit)
        self.people = People(self)
        self.reviews = Reviewer(self)
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def ai_moves(self) -> int:
        """AI moves played since start (for the load benchmark and /api/health)."""
        return self.ai.ai_moves

    def start(self) -> None:
        self.writer.start()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for live in self._live.values():
            for timer in (live.timer, live.orphan_timer, live.flag_timer):
                if timer is not None:
                    timer.cancel()
            close_streams(live)
        self.ai.close()
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
                live = LiveGame(stored, rebuild(stored.record, stored.seed))
                self._remember(live)
                self.people.arm_flag(live)  # a clock that ran while the server was down
        self._live.move_to_end(game_id)
        live.last_seen = time.monotonic()
        return live

    async def authorised(
        self, game_id: str, secret: str | None, client: str = UNKNOWN_CLIENT
    ) -> LiveGame:
        """The game, if ``secret`` is its secret (``Forbidden`` otherwise).

        ``client`` asked for it: the game's searches count against that client's share."""
        live, _ = await self.authorise(game_id, secret, client)
        return live

    async def authorise(
        self, game_id: str, secret: str | None, client: str = UNKNOWN_CLIENT
    ) -> tuple[LiveGame, int | None]:
        """The game and the seat ``secret`` speaks for (``None``: every person's seat of a
        game on one device); ``Forbidden`` for a wrong secret."""
        live = await self.get(game_id)
        if secret is None:
            raise Forbidden("this game's secret is missing or wrong")
        if live.between_devices:
            seat = seat_of_secret(live, secret)
        else:
            if not hmac.compare_digest(hash_secret(secret), live.stored.secret_hash):
                raise Forbidden("this game's secret is missing or wrong")
            seat = None
        live.client = client
        return live, seat

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in the background (cancelled at ``close``)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _remember(self, live: LiveGame) -> None:
        self._live[live.id] = live
        if len(self._live) <= self.live_games:
            return
        for game_id, old in list(self._live.items()):
            if len(self._live) <= self.live_games:
                break
            busy = old.streams or self.pool.job_of(game_id) or old.lock.locked()
            if not busy and old.timer is None and old.flag_timer is None:
                del self._live[game_id]

    def in_play(self) -> frozenset[str]:
        """Ids of the games being played now: watched (an open event stream), searching,
        being changed, or unfinished and asked for in the last ``IN_PLAY_S``."""
        recent = time.monotonic() - IN_PLAY_S
        return frozenset(
            game_id
            for game_id, live in self._live.items()
            if live.streams
            or (live.last_seen > recent and not live.over)
            or self.pool.job_of(game_id) is not None
            or live.lock.locked()
        )

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
        client: str = UNKNOWN_CLIENT,
        clock: tuple[int, int] | None = None,
    ) -> tuple[LiveGame, str]:
        """A new game; returns it with its secret. ``BadInput`` for bad settings.

        ``delay_ms`` is the pause between AI-vs-AI moves (default ``AI_AI_DELAY_MS``);
        ``clock`` a time control (base seconds, increment seconds). A ``friend`` game
        (between devices) has ``first`` "me", "friend" or "random" and comes with an
        invitation (``LiveGame.stored.invite_hash``; its token is ``live.invite``)."""
        if game not in LEVELS:
            raise BadInput(f"unknown game {game!r}: choose {', '.join(LEVELS)}")
        chosen = level or DEFAULT_LEVEL[game]
        check_options(game, options)
        extra: dict[str, Any] = {}
        try:
            state = new_state(game, **options)
            seats = seats_for("human-human" if mode == FRIEND else mode, first, chosen)
            match = Match(state, seats, seed=seed, player_factory=no_search_player)
            if clock is not None:
                if mode == "ai-ai":
                    raise ValueError("clocks are for games a person plays")
                extra["clock"] = clocks.Clock.new(*clock).to_json()
        except ValueError as error:
            raise BadInput(str(error)) from None
        delay = AI_AI_DELAY_MS if delay_ms is None else delay_ms
        pace = delay if mode == "ai-ai" else 0
        if mode != FRIEND:
            return await self._add(match, mode, first, chosen, seed, pace, client, **extra)
        seat = creator_seat("me" if first == HUMAN else first)
        secret = secrets.token_urlsafe(SECRET_BYTES)
        invite = secrets.token_urlsafe(SECRET_BYTES)
        hashes: list[str | None] = [None, None]
        hashes[seat] = hash_secret(secret)
        extra |= {"seat_hashes": (hashes[0], hashes[1]), "invite_hash": hash_secret(invite)}
        live, _ = await self._add(
            match, mode, first, chosen, seed, pace, client, secret=secret, **extra
        )
        live.invite = invite
        return live, secret

    async def rematch(self, live: LiveGame) -> LiveGame:
        """A new game between the same devices, colours swapped (the caller holds the
        lock of ``live``, whose ``rematch`` then names the new game)."""
        old = live.stored
        if old.seat_hashes is None:
            raise Conflict("a rematch is for games between devices")
        match = Match(
            new_state(live.match.game, **live.match.state.options()),
            live.match.seats,
            seed=old.seed,
            player_factory=no_search_player,
        )
        clock = live.clock
        extra: dict[str, Any] = {"seat_hashes": (old.seat_hashes[1], old.seat_hashes[0])}
        if clock is not None:
            extra["clock"] = clock.reset().to_json()
        new, _ = await self._add(
            match, old.mode, old.first, old.level, old.seed, 0, live.client, **extra
        )
        await self.commit(live, rematch=new.id, offer=None, message=None)
        return new

    async def import_record(
        self, record: object, client: str = UNKNOWN_CLIENT
    ) -> tuple[LiveGame, str]:
        """A new game from a save file; ``BadInput`` naming what is wrong with it."""
        try:
            match = rebuild(record)
        except SaveFileError as error:
            raise BadInput(str(error)) from None
        mode, first, level = settings_of(match)
        return await self._add(match, mode, first, level, None, AI_AI_DELAY_MS, client)

    async def _add(
        self,
        match: Match,
        mode: str,
        first: str,
        level: str,
        seed: int | None,
        delay_ms: int,
        client: str,
        secret: str | None = None,
        **extra: Any,
    ) -> tuple[LiveGame, str]:
        """Store and remember a new game; ``extra`` are more ``StoredGame`` fields."""
        if match.ai_to_move:
            self.ai.need_room(client)
        await self._make_room()
        game_id = secrets.token_urlsafe(ID_BYTES)
        secret = secret or secrets.token_urlsafe(SECRET_BYTES)
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
            over=match.is_over,
            **extra,
        )
        await self.writer.write(Insert(stored))
        live = LiveGame(stored, match, client=client)
        self._remember(live)
        self.ai.ensure_ai(live)
        return live, secret

    async def _make_room(self) -> None:
        """Make room in the storage budget for one more game (``Busy`` if there is none)."""
        await make_room(self.writer, self.in_play())

    # --- reading ---------------------------------------------------------------
    async def snapshot(self, live: LiveGame) -> dict[str, Any]:
        """The state once no change is half-written (a move waiting for its commit)."""
        async with live.lock:
            return self.state(live)

    async def snapshot_json(self, live: LiveGame) -> bytes:
        """``snapshot`` as JSON, reused while nothing it shows has changed (polling is cheap)."""
        async with live.lock:
            return state_json(live, self.pool)

    def state(self, live: LiveGame) -> dict[str, Any]:
        """The ``State`` of docs/web.md; call it while no change is in progress."""
        return state_of(live, self.pool)

    async def touch(self, live: LiveGame) -> None:
        """A client looked at the game: end it if a flag has fallen, resume the AI's search
        if it should be running."""
        live.last_seen = time.monotonic()
        if live.clock is not None:
            await self.people.check_time(live)
        self.ai.ensure_ai(live)

    def ensure_ai(self, live: LiveGame, *, now: bool = False) -> None:
        self.ai.ensure_ai(live, now=now)

    # --- changing --------------------------------------------------------------
    async def commit(self, live: LiveGame, **changes: Any) -> None:
        """Write the match (and ``changes`` to the stored game) as the next version; tell
        the subscribers. ``message`` among the changes sets the live game's message."""
        match = live.match
        old = live.stored
        if "message" in changes:
            live.message = changes.pop("message")
        changes.setdefault("record", match.to_record())
        ending = changes.get("ending", old.ending)
        changes.setdefault("over", match.is_over or ending is not None)
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
        self.people.arm_flag(live)
        publish(live, "state", self.state(live))

    def _check_version(self, live: LiveGame, version: int | None) -> None:
        if version is not None and version != live.stored.version:
            raise Conflict(
                f"the game has changed (version {live.stored.version}, not {version}): reload it"
            )

    async def play(
        self,
        live: LiveGame,
        move_input: int | str,
        version: int | None,
        seat: int | None = None,
    ) -> None:
        """A person's move (by ``seat``, or on one device by whoever is to move); the AI's
        reply (if any) starts in the background. A move after the mover's flag fell
        ends the game on time instead (``Conflict``)."""
        async with live.lock:
            self._check_version(live, version)
            match = live.match
            if await self.people.flag_if_due(live):
                raise Conflict("the time ran out: the game is over")
            if live.over:
                raise Conflict("the game is over")
            if live.invite_open:
                raise Conflict("wait for your friend to join: send them the invitation link")
            if match.seat_to_move.is_ai:
                raise Conflict("it is the AI's turn, not yours")
            if seat is not None and seat != match.state.to_move:
                raise Conflict("it is your opponent's turn, not yours")
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
                self.ai.need_room(live.client)
            self.ai.forget(live, "a move was played: the hint is for an old position")
            mover = match.state.to_move
            changes = self._after_move(live, mover)
            match.play(move)
            live.message = None
            try:
                await self.commit(live, **changes)
            except BaseException:
                match.state.undo()
                match.analyses.pop()
                raise
        self.ai.ensure_ai(live)

    def _after_move(self, live: LiveGame, mover: int) -> dict[str, Any]:
        """The stored changes a move by ``mover`` makes now: the clock pressed, an offer
        of the other side declined."""
        changes: dict[str, Any] = {}
        clock = live.clock
        if clock is not None:
            changes["clock"] = clock.moved(mover, clocks.wall_time()).to_json()
        offer = live.stored.offer
        if offer is not None and offer["by"] != mover:
            changes["offer"] = None
        return changes

    async def undo(self, live: LiveGame) -> None:
        """Take back a turn (against the AI: back to the human's previous turn)."""
        async with live.lock:
            match = live.match
            if live.between_devices:
                raise Conflict("in a game between devices, ask your opponent for a take-back")
            if live.stored.ending is not None:
                raise Conflict("the game is over: start a new one")
            if match.state.ply == 0:
                raise Conflict("there is no move to take back")
            self.ai.forget(live, "a move was taken back")
            try:
                taken = match.undo()
            except IllegalMoveError as error:
                self.ai.ensure_ai(live)
                raise Conflict(str(error)) from None
            live.message = "Took back " + ", ".join(
                views.text_of(match.state, m) for m in reversed(taken)
            )
            paused = live.stored.paused or live.stored.mode == "ai-ai"
            changes: dict[str, Any] = {"paused": paused}
            clock = live.clock
            if clock is not None:
                now = clocks.wall_time()
                changes["clock"] = clock.handed_to(match.state.to_move, now).to_json()
            await self.commit_or_reload(live, **changes)
        self.ai.ensure_ai(live)

    async def restart(self, live: LiveGame) -> None:
        """A fresh board with the same settings, id and secret."""
        async with live.lock:
            if live.between_devices:
                raise Conflict("in a game between devices, offer a rematch")
            self.ai.forget(live, "a new game started")
            if live.match.seats[0].is_ai and live.stored.mode != "ai-ai":
                self.ai.need_room(live.client)
            live.match.restart()
            live.message = None
            changes: dict[str, Any] = {"analyses": [], "ending": None, "offer": None}
            clock = live.clock
            if clock is not None:
                changes["clock"] = clock.reset().to_json()
            await self.commit_or_reload(live, **changes)
        self.ai.ensure_ai(live)

    async def commit_or_reload(self, live: LiveGame, **changes: Any) -> None:
        """``commit``; if it fails, the game is read again from the store."""
        try:
            await self.commit(live, **changes)
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
                self.ai.forget(live, "the game was paused")
                changes["paused"] = True
            elif action == "resume":
                changes["paused"] = False
            elif action == "step":
                if not live.stored.paused:
                    raise Conflict("pause the game before stepping through it")
                if live.over:
                    raise Conflict("the game is over")
            if action in ("resume", "step") and self.pool.job_of(live.id) is None:
                self.ai.need_room(live.client)
            await self.commit(live, **changes)
            if action == "step" and self.pool.job_of(live.id) is None:
                live.step_once = True
        self.ai.ensure_ai(live, now=action in ("resume", "step"))

    async def hint(self, live: LiveGame) -> dict[str, Any]:
        """The hint level's suggestion for the human to move (``HINT_LEVEL``: exact in
        Connect Four, as in the terminal and the desktop)."""
        match = live.match
        if live.over:
            raise Conflict("the game is over")
        if live.between_devices:
            raise Conflict("hints are off in games between people")
        if match.seat_to_move.is_ai:
            raise Conflict("it is the AI's turn: there is nothing to hint")
        if live.hint is not None and live.hint_ply == match.state.ply:
            return live.hint
        return await self.ai.hint(live)

    # --- events ----------------------------------------------------------------
    def publish(self, live: LiveGame, kind: str, data: Any) -> None:
        publish(live, kind, data)

    @contextlib.asynccontextmanager
    async def subscription(
        self, live: LiveGame, *, watcher: bool = False
    ) -> AsyncIterator[asyncio.Queue[Event]]:
        """A queue of the game's events for as long as the caller listens (a ``watcher``
        gets the public view).

        When the last stream closes, the game's search stops ``orphan_grace_s`` later
        (a client's return resumes it)."""
        async with subscription(
            live, self.orphan_grace_s, self._orphaned, watcher=watcher
        ) as queue:
            yield queue

    def _orphaned(self, live: LiveGame) -> None:
        self.ai.forget(live, "the page went away")
