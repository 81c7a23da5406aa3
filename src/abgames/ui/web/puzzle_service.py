"""/puzzles: a player's puzzle in progress, its moves judged in the search pool, ratings.

``PuzzleService`` joins the store (``puzzle_store``), the group writer and the search
pool. A move is checked legal here (the rules, no engine), then judged by a pool job
(``jobs.PuzzleSpec`` -> ``abgames.puzzles.check``): any move that keeps a forced win
is right and the defender's answer is played; a wrong move is answered by the
refutation and ends the puzzle. A puzzle is rated once per player (Glicko-2, one
rating period a puzzle, the puzzle as the opponent): solved without a hint is a win,
a wrong move or a hint a loss (counted at the hint). One request per player at a
time (a lock per key).
"""

from __future__ import annotations

import asyncio
import random
import re
import weakref
from typing import Any

from abgames.games.base import GameState, IllegalMoveError, Move, NotationError
from abgames.puzzles import check
from abgames.puzzles.catalogue import Puzzle, by_id, choose
from abgames.puzzles.glicko2 import MIN_DEVIATION, Game, Rating, rate
from abgames.ui.web import views
from abgames.ui.web.errors import BadInput, Conflict, NotFound, WebError
from abgames.ui.web.jobs import PuzzleSpec
from abgames.ui.web.pool import SearchPool
from abgames.ui.web.pool_answers import submit_for_answer
from abgames.ui.web.puzzle_store import Player, SavePlayer, key_hash, load_player
from abgames.ui.web.store import GameStore
from abgames.ui.web.writer import GroupWriter

#: What a browser's key looks like: 16 to 64 random bytes in base64url.
KEY = re.compile(r"^[A-Za-z0-9_-]{22,86}$")
#: The deviation of a puzzle's rating, as an opponent (puzzle ratings are fixed).
PUZZLE_DEVIATION = 80.0
#: Longest wait for a check: a bound for a lost job, not a budget (a check takes
#: milliseconds; a worker started without warm-up loads the kernels first).
CHECK_TIMEOUT_S = 300.0
#: The pool job purpose of a puzzle check.
PUZZLE_PURPOSE = "puzzle"

PLAYING = "playing"
SOLVED = "solved"
FAILED = "failed"


def checked_key(key: str | None) -> str:
    """The hash of a well-formed browser key (400 otherwise)."""
    if key is None:
        raise BadInput("the X-Puzzle-Key header is missing (the page makes a random key)")
    if not KEY.match(key):
        raise BadInput("the X-Puzzle-Key header is malformed: 22 to 86 characters A-Z a-z 0-9 _ -")
    return key_hash(key)


def puzzle_of(puzzle_id: str) -> Puzzle:
    puzzle = by_id().get(puzzle_id)
    if puzzle is None:
        raise NotFound(f"there is no puzzle {puzzle_id!r}")
    return puzzle


def parse_move(state: GameState, move: int | str) -> Move:
    """The attacker's move as a number, checked legal (400 in the rules' words)."""
    try:
        number = state.parse_move(move) if isinstance(move, str) else move
        state.copy().play(number)
    except (IllegalMoveError, NotationError, IndexError) as error:
        raise BadInput(str(error) or "that move cannot be played here") from None
    return number


def player_json(player: Player, change: float = 0.0) -> dict[str, Any]:
    return {
        "rating": round(player.rating),
        "deviation": round(player.deviation),
        "provisional": player.deviation > 110,
        "solved": player.solved,
        "failed": player.failed,
        "streak": player.streak,
        "best_streak": player.best_streak,
        "change": round(change),
    }


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    start = puzzle.start()
    return {
        "id": puzzle.id,
        "game": puzzle.game,
        "options": puzzle.options,
        "goal": puzzle.goal,
        "themes": list(puzzle.themes),
        "source": puzzle.source,
        "rating": puzzle.rating,
        "length": puzzle.length,
        "attacker": start.to_move,
        "attacker_name": start.player_names[start.to_move],
        "note": puzzle.note,
    }


def state_json(puzzle: Puzzle, state: GameState, playing: bool) -> dict[str, Any]:
    """The position as the page's board views read a ``State`` (the puzzle's moves only)."""
    width, height = views.board_size(state)
    first = len(puzzle.start().moves)
    played = state.moves[first:]
    last = state.moves[-1] if played else None
    last_cell = None if last is None else views.cell_of_move(state, last, len(state.moves) - 1)
    may_move = playing and state.to_move == puzzle.attacker and state.outcome() is None
    return {
        "game": puzzle.game,
        "options": puzzle.options,
        "board": {
            "width": width,
            "height": height,
            "cells": views.cells_of(state),
            "last_cell": last_cell,
        },
        "moves": [{"move": m, "text": views.text_of(state, m)} for m in played],
        "to_move": state.to_move,
        "last_move": last,
        "outcome": views.outcome_of(state),
        "legal": state.legal_moves() if may_move else [],
        "forbidden": views.forbidden_of(state) if may_move else [],
    }


def attempt_json(player: Player, change: float = 0.0) -> dict[str, Any]:
    """The player and the puzzle in progress (``puzzle: null`` if none)."""
    attempt = player.attempt
    body: dict[str, Any] = {"player": player_json(player, change), "puzzle": None}
    puzzle = by_id().get(str(attempt.get("puzzle")))
    if puzzle is None:
        return body
    status = str(attempt.get("status", PLAYING))
    state = puzzle.after(attempt.get("moves", []))
    body |= {
        "puzzle": puzzle_json(puzzle),
        "state": state_json(puzzle, state, status == PLAYING),
        "status": status,
        "hinted": bool(attempt.get("hinted")),
        "rated": bool(attempt.get("rated")),
        "solution": None,
    }
    if status != PLAYING:
        start = puzzle.start()
        solution = []
        for move in puzzle.solution:
            solution.append({"move": move, "text": views.text_of(start, move)})
            start.play(move)
        body["solution"] = solution
    return body


class PuzzleService:
    """The /api/puzzles work over the app's store, writer and pool."""

    def __init__(self, store: GameStore, writer: GroupWriter, pool: SearchPool) -> None:
        self.store = store
        self.writer = writer
        self.pool = pool
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, hashed: str) -> asyncio.Lock:
        lock = self._locks.get(hashed)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[hashed] = lock
        return lock

    async def player(self, hashed: str) -> Player:
        return await asyncio.to_thread(load_player, self.store, hashed)

    async def save(self, old: Player, new: Player) -> None:
        written = await self.writer.write(SavePlayer(old.version, new).as_write())
        if not written:
            raise Conflict("this player changed meanwhile (another tab?): reload the puzzle")

    async def run_check(self, client: str, op: str, fields: dict[str, Any]) -> dict[str, Any]:
        """A puzzle job's answer, from the pool (its error as ``BadInput``)."""
        key, answer = submit_for_answer(
            self.pool,
            PuzzleSpec(op, fields),
            prefix="puzzle",
            purpose=PUZZLE_PURPOSE,
            client=client,
            error_field=check.PUZZLE_ERROR,
            failed="the check failed",
            busy="the engines are all busy: try again in a moment",
        )
        try:
            return await asyncio.wait_for(answer, CHECK_TIMEOUT_S)
        except TimeoutError:
            raise WebError("the check took too long", status=503) from None
        finally:
            if not answer.done():
                self.pool.cancel(key)

    # --- the routes' work -----------------------------------------------------
    async def read(self, hashed: str) -> dict[str, Any]:
        return attempt_json(await self.player(hashed))

    async def start(self, hashed: str, game: str | None, puzzle_id: str | None) -> dict[str, Any]:
        async with self.lock(hashed):
            player = await self.player(hashed)
            if puzzle_id is not None:
                puzzle = puzzle_of(puzzle_id)
            else:
                avoid = [*player.recent, str(player.attempt.get("puzzle"))]
                chosen = choose(player.rating, game=game, avoid=avoid, rng=random.Random())
                if chosen is None:
                    raise NotFound(f"there are no {game} puzzles")
                puzzle = chosen
            attempt = {
                "puzzle": puzzle.id,
                "moves": [],
                "status": PLAYING,
                "hinted": False,
                "rated": puzzle.id in player.recent,
            }
            new = player.changed(attempt=attempt)
            await self.save(player, new)
            return attempt_json(new)

    def _in_progress(self, player: Player, puzzle_id: str) -> tuple[Puzzle, GameState]:
        attempt = player.attempt
        if attempt.get("puzzle") != puzzle_id:
            puzzle_of(puzzle_id)  # 404 for an unknown puzzle
            raise Conflict("that puzzle is not the one in progress: start it again")
        if attempt.get("status") != PLAYING:
            raise Conflict("this puzzle is over: start the next one (or retry it)")
        puzzle = puzzle_of(puzzle_id)
        return puzzle, puzzle.after(attempt.get("moves", []))

    def _rated(self, player: Player, puzzle: Puzzle, won: bool) -> tuple[Player, float]:
        """``player`` with the puzzle's result counted, and the rating's change: once per
        puzzle (a retry of a puzzle already rated counts nothing)."""
        if player.attempt.get("rated"):
            return player, 0.0
        streak = player.streak + 1 if won else 0
        before = Rating(player.rating, player.deviation, player.volatility)
        game = Game(float(puzzle.rating), PUZZLE_DEVIATION, 1.0 if won else 0.0)
        after = rate(before, [game], min_deviation=MIN_DEVIATION)
        changed = player.changed(
            rating=after.rating,
            deviation=after.deviation,
            volatility=after.volatility,
            solved=player.solved + won,
            failed=player.failed + (not won),
            streak=streak,
            best_streak=max(player.best_streak, streak),
            attempt=player.attempt | {"rated": True},
            recent=(*[r for r in player.recent if r != puzzle.id], puzzle.id),
        )
        return changed, after.rating - before.rating

    async def move(
        self, hashed: str, client: str, puzzle_id: str, move: int | str
    ) -> dict[str, Any]:
        async with self.lock(hashed):
            player = await self.player(hashed)
            puzzle, state = self._in_progress(player, puzzle_id)
            number = parse_move(state, move)
            moves = list(player.attempt.get("moves", []))
            fields = {"puzzle": puzzle.id, "moves": moves, "move": number}
            verdict = await self.run_check(client, "move", fields)
            reply = verdict.get("reply")
            moves.append(number)
            if reply is not None:
                moves.append(int(reply))
            status = {check.SOLVED: SOLVED, check.CORRECT: PLAYING}.get(
                str(verdict["verdict"]), FAILED
            )
            new = player.changed(attempt=player.attempt | {"moves": moves, "status": status})
            change = 0.0
            if status != PLAYING:  # after a hint, the puzzle was counted then
                new, change = self._rated(new, puzzle, won=status == SOLVED)
            await self.save(player, new)
            body = attempt_json(new, change)
            body["verdict"] = verdict["verdict"]
            body["reply"] = None
            if reply is not None:
                body["reply"] = {"move": int(reply), "text": views.text_of(state, int(reply))}
            return body

    async def hint(self, hashed: str, client: str, puzzle_id: str) -> dict[str, Any]:
        async with self.lock(hashed):
            player = await self.player(hashed)
            puzzle, state = self._in_progress(player, puzzle_id)
            moves = list(player.attempt.get("moves", []))
            found = await self.run_check(client, "hint", {"puzzle": puzzle.id, "moves": moves})
            move = found.get("move")
            if move is None:
                raise WebError("the engine finds no win here", status=500)
            # A hint counts the puzzle as not solved, now; its end counts no more.
            new, change = self._rated(player, puzzle, won=False)
            new = new.changed(attempt=new.attempt | {"hinted": True, "rated": True})
            await self.save(player, new)
            body = attempt_json(new, change)
            body["hint"] = {"move": move, "text": views.text_of(state, int(move))}
            return body
