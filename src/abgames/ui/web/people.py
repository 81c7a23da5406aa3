"""Games between people: invitations, seats, resignations, offers, rematches, flags.

A game between devices (mode ``friend``) gives each seat its own secret: the
creator's comes with the game, the other is made when the invitation is claimed
(once). Who acts is a seat (``int``) for such games, or ``None`` for a game played
on one device (its one secret speaks for every person's seat there).

Offers are ``draw``, ``takeback`` and ``rematch``; one may be pending at a time, and
the other side accepts or declines it (offering what the other side has already
offered accepts it). A move by the other side declines a pending offer. The clock's
flag is watched by a timer per game (``arm_flag``); a request that comes after the
flag fell ends the game on time too (``check_time``), so a restarted server loses
no flag.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from typing import TYPE_CHECKING, Any

from abgames.ui.web import clocks
from abgames.ui.web.endings import AGREEMENT, RESIGNATION, Ending, time_ending
from abgames.ui.web.errors import BadInput, Conflict, Forbidden
from abgames.ui.web.live import LiveGame
from abgames.ui.web.store import hash_secret

if TYPE_CHECKING:
    from abgames.ui.web.service import GameService

#: The mode of a game between people on two devices.
FRIEND = "friend"
#: Who moves first in a game between devices, from the creator's side.
FIRST_CHOICES = ("me", "friend", "random")
#: What one player may offer the other.
DRAW = "draw"
TAKEBACK = "takeback"
REMATCH = "rematch"
OFFERS = (DRAW, TAKEBACK, REMATCH)
#: The flag timer fires this long after the deadline, so the clock reads zero by then.
FLAG_SLACK_S = 0.02


def creator_seat(first: str) -> int:
    """The creator's seat in a game between devices: 0 moves first."""
    if first not in FIRST_CHOICES:
        raise BadInput(f"who moves first is one of {', '.join(FIRST_CHOICES)}, not {first!r}")
    if first == "random":
        return secrets.randbelow(2)
    return 0 if first == "me" else 1


def seat_of_secret(live: LiveGame, secret: str) -> int | None:
    """The seat ``secret`` speaks for in a game between devices (``Forbidden`` if none);
    ``None`` for a game on one device."""
    hashes = live.stored.seat_hashes
    if hashes is None:
        return None
    given = hash_secret(secret)
    for seat, seat_hash in enumerate(hashes):
        if seat_hash is not None and hmac.compare_digest(given, seat_hash):
            return seat
    raise Forbidden("this game's secret is missing or wrong")


def acting_seat(live: LiveGame, seat: int | None) -> int:
    """The seat of the person acting: ``seat``, or on one device the person to move
    (against the AI, the person's seat). ``Conflict`` in a game of two AIs."""
    if seat is not None:
        return seat
    humans = [index for index, each in enumerate(live.match.seats) if not each.is_ai]
    if not humans:
        raise Conflict("no person plays in this game")
    if len(humans) == 1:
        return humans[0]
    return live.match.state.to_move


class People:
    """The actions of people on a game: join, resign, offer, answer; and the flag timers."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    # --- seats -------------------------------------------------------------------
    async def join(self, game_id: str, invite: str) -> tuple[LiveGame, str, int]:
        """Claim the free seat of a game between devices with its invitation; returns the
        game, the new seat's secret and the seat. ``Forbidden`` for a wrong invitation,
        ``Conflict`` once it was used."""
        live = await self.service.get(game_id)
        stored = live.stored
        if stored.seat_hashes is None:
            raise Conflict("this game is not an invitation: ask for its watch link instead")
        async with live.lock:
            stored = live.stored
            if stored.invite_hash is None or stored.seat_hashes is None:
                raise Conflict("this invitation was already used: both seats are taken")
            if not hmac.compare_digest(hash_secret(invite), stored.invite_hash):
                raise Forbidden("this invitation is not valid for this game")
            seat = stored.seat_hashes.index(None)
            secret = secrets.token_urlsafe(32)
            hashes = list(stored.seat_hashes)
            hashes[seat] = hash_secret(secret)
            await self.service.commit(
                live, seat_hashes=(hashes[0], hashes[1]), invite_hash=None, message=None
            )
        return live, secret, seat

    # --- results -----------------------------------------------------------------
    async def resign(self, live: LiveGame, seat: int | None) -> None:
        """The acting person resigns: the other side wins."""
        async with live.lock:
            self._check_playing(live)
            if live.invite_open:
                raise Conflict("nobody has joined yet: there is nobody to resign to")
            loser = acting_seat(live, seat)
            await self._end(live, Ending(1 - loser, RESIGNATION))

    async def offer(self, live: LiveGame, seat: int | None, kind: str) -> None:
        """Offer a draw, ask for a take-back, or offer a rematch (after the end)."""
        if kind not in OFFERS:
            raise BadInput(f"an offer is one of {', '.join(OFFERS)}, not {kind!r}")
        async with live.lock:
            by = acting_seat(live, seat)
            if kind == REMATCH:
                if not live.between_devices:
                    raise Conflict("a rematch is for games between devices: use New game")
                if not live.over:
                    raise Conflict("the game is not over")
                if live.stored.rematch is not None:
                    raise Conflict("the rematch has started")
            else:
                self._check_playing(live)
                if any(each.is_ai for each in live.match.seats):
                    raise Conflict(
                        "the AI takes no offers: resign, or use Undo to take a move back"
                    )
                if live.invite_open:
                    raise Conflict("nobody has joined yet")
                if kind == TAKEBACK:
                    self._takeback_plies(live, by)  # refuses when there is nothing to take
            pending = live.stored.offer
            if pending is not None and pending["kind"] == kind and pending["by"] != by:
                await self._accept(live, pending)
                return
            if seat is None and kind != REMATCH:
                # Both people sit at this device: the offer is made and accepted at once.
                await self._accept(live, {"kind": kind, "by": by})
                return
            await self.service.commit(live, offer={"kind": kind, "by": by}, message=None)

    async def answer(self, live: LiveGame, seat: int | None, accept: bool) -> None:
        """Accept or decline the other side's pending offer."""
        async with live.lock:
            pending = live.stored.offer
            by = acting_seat(live, seat)
            if pending is None:
                raise Conflict("there is no offer to answer")
            if seat is not None and pending["by"] == by:
                raise Conflict("you cannot answer your own offer")
            if not accept:
                words = {DRAW: "draw offer", TAKEBACK: "take-back request", REMATCH: "rematch"}
                message = f"{self._name(live, by)} declined the {words[pending['kind']]}."
                await self.service.commit(live, offer=None, message=message)
                return
            await self._accept(live, pending)

    async def _accept(self, live: LiveGame, offer: dict[str, Any]) -> None:
        kind, by = offer["kind"], int(offer["by"])
        if kind == DRAW:
            await self._end(live, Ending(None, AGREEMENT))
        elif kind == TAKEBACK:
            await self._take_back(live, by)
        else:
            await self.service.rematch(live)

    async def _take_back(self, live: LiveGame, by: int) -> None:
        match = live.match
        plies = self._takeback_plies(live, by)
        self.service.ai.forget(live, "a move was taken back")
        taken = [match.state.undo() for _ in range(plies)]
        for _ in taken:
            match.analyses.pop()
        now = clocks.wall_time()
        clock = live.clock
        changes: dict[str, Any] = {"offer": None}
        if clock is not None:
            changes["clock"] = clock.handed_to(match.state.to_move, now).to_json()
        live.message = f"{self._name(live, by)} took back " + ", ".join(
            match.state.format_move(move) for move in reversed(taken)
        )
        await self.service.commit_or_reload(live, **changes)

    @staticmethod
    def _takeback_plies(live: LiveGame, by: int) -> int:
        """How many plies a take-back asked by ``by`` undoes: back to ``by``'s last move."""
        state = live.match.state
        plies = 1 if state.to_move != by else 2
        if state.ply < plies:
            raise Conflict("you have no move to take back")
        return plies

    async def _end(self, live: LiveGame, ending: Ending) -> None:
        """End the game off the board (the caller holds the lock)."""
        self.service.ai.forget(live, "the game is over")
        changes: dict[str, Any] = {"ending": ending.to_json(), "offer": None, "message": None}
        clock = live.clock
        if clock is not None:
            changes["clock"] = clock.stopped(clocks.wall_time()).to_json()
        await self.service.commit(live, **changes)

    @staticmethod
    def _check_playing(live: LiveGame) -> None:
        if live.over:
            raise Conflict("the game is over")

    @staticmethod
    def _name(live: LiveGame, seat: int) -> str:
        return live.match.state.player_names[seat]

    # --- the flag ------------------------------------------------------------------
    def arm_flag(self, live: LiveGame) -> None:
        """(Re)start the game's flag timer for the running clock; stop it if none runs."""
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        clock = live.clock
        deadline = None if clock is None or live.over else clock.deadline()
        if deadline is None:
            return
        delay = max(0.0, deadline - clocks.wall_time()) + FLAG_SLACK_S
        loop = asyncio.get_running_loop()
        live.flag_timer = loop.call_later(delay, self._flag_fired, live)

    def _flag_fired(self, live: LiveGame) -> None:
        live.flag_timer = None
        self.service.spawn(self.check_time(live))

    async def check_time(self, live: LiveGame) -> bool:
        """End the game on time if the running side's time is up; whether it did."""
        async with live.lock:
            return await self.flag_if_due(live)

    async def flag_if_due(self, live: LiveGame) -> bool:
        """``check_time`` for a caller that holds the game's lock."""
        clock = live.clock
        if clock is None or live.over:
            return False
        flagged = clock.flagged(clocks.wall_time())
        if flagged is None:
            self.arm_flag(live)
            return False
        await self._end(live, time_ending(live.match.state, flagged))
        return True
