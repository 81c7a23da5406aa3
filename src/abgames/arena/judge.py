"""One arena game, judged by abgames itself whatever the engines say.

``play_game(task)`` sets up the board and the opening, asks the engine to move
each turn, times it, checks the move against the rules and ends the game with a
``GameRecord`` naming the winner and the reason:

- a line: ``five`` (Gomoku), ``four in a row`` (Connect Four), ``three in a row``;
- ``full board`` (a draw), or ``no legal move`` (a draw: Renju black with every
  empty point forbidden);
- a loss of the engine to move: ``forbidden move`` (Renju black's double-three,
  double-four or overline — a move that also makes an exact five wins instead),
  ``illegal move``, ``crash``, ``bad answer`` (garbage, ERROR, UNKNOWN) or
  ``time forfeit`` (the turn limit or the match time, each plus the tolerance).

``play_game`` runs in a worker process; everything it takes and returns pickles.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from abgames.arena.engines import (
    CRASH,
    ILLEGAL_MOVE,
    TIME_FORFEIT,
    Engine,
    EngineSpec,
    Forfeit,
    make_engine,
)
from abgames.games.base import GameState, Move
from abgames.games.gomoku import Gomoku, Rule
from abgames.match import new_state
from abgames.protocols.timing import TimeControl

FULL_BOARD = "full board"
NO_LEGAL_MOVE = "no legal move"
FORBIDDEN_MOVE = "forbidden move"
LINE_REASONS = {"gomoku": "five", "connect4": "four in a row", "tictactoe": "three in a row"}
RESULT_TEXT = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
MS_PER_SECOND = 1000.0


@dataclass(frozen=True)
class GameTask:
    """One game to play: ``engines[0]`` moves first after the opening's colours are set.

    ``opening`` moves are played before the engines take over; the side to move
    after them is whoever the rules say (the engines keep their colours).
    """

    index: int
    game: str
    options: dict[str, object]
    engines: tuple[EngineSpec, EngineSpec]
    opening: tuple[Move, ...] = ()
    seed: int | None = None
    tolerance_ms: int = 500


@dataclass(frozen=True)
class GameRecord:
    """How one game went: moves in the game's notation, result and reason."""

    index: int
    game: str
    options: dict[str, object]
    players: tuple[str, str]
    opening: str
    moves: str
    winner: int | None
    result: str
    reason: str
    detail: str = ""
    move_times_ms: tuple[int, ...] = field(default=())
    duration_s: float = 0.0
    #: The engine that could not start (``Forfeit.at_start``), if that ended the game.
    not_started: str | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "game": self.index,
            "variant": self.game,
            "options": self.options,
            "first": self.players[0],
            "second": self.players[1],
            "opening": self.opening,
            "moves": self.moves,
            "result": self.result,
            "winner": None if self.winner is None else self.players[self.winner],
            "reason": self.reason,
            "detail": self.detail,
            "move_times_ms": list(self.move_times_ms),
            "duration_s": round(self.duration_s, 3),
        }


def check_move(state: GameState, move: Move) -> tuple[str, str] | None:
    """Why ``move`` loses on the spot (reason, detail), or ``None`` if it may be played."""
    if (
        isinstance(state, Gomoku)
        and state.rule is Rule.RENJU
        and state.to_move == 0
        and 0 <= move < len(state.board)
        and state.board[move] == 0
    ):
        kind = state.forbidden_kind(move)
        if kind is not None:
            return FORBIDDEN_MOVE, f"{kind.replace('_', '-')} at {state.format_move(move)}"
    problem = state.why_illegal(move)
    if problem is not None:
        return ILLEGAL_MOVE, problem
    return None


def time_fault(clock: TimeControl, elapsed_ms: float, tolerance_ms: int) -> str | None:
    """Why a move that took ``elapsed_ms`` came too late (the clock already charged)."""
    if elapsed_ms > clock.timeout_turn_ms + tolerance_ms:
        return f"took {elapsed_ms:.0f} ms for a {clock.timeout_turn_ms} ms turn"
    left_ms = clock.remaining_match_ms()
    if left_ms is not None and left_ms < -tolerance_ms:
        return f"ran out of match time ({clock.timeout_match_ms} ms)"
    return None


class _Game:
    def __init__(self, task: GameTask) -> None:
        self.task = task
        self.state = new_state(task.game, **task.options)
        for move in task.opening:
            self.state.play(move)
        self.opening = self.state.notation()
        self.clocks = [TimeControl(spec.turn_ms, spec.match_ms) for spec in task.engines]
        self.times: list[int] = []
        self.started = time.perf_counter()

    def record(
        self, winner: int | None, reason: str, detail: str = "", not_started: str | None = None
    ) -> GameRecord:
        return GameRecord(
            index=self.task.index,
            game=self.task.game,
            options=dict(self.task.options),
            players=(self.task.engines[0].name, self.task.engines[1].name),
            opening=self.opening,
            moves=self.state.notation(),
            winner=winner,
            result=RESULT_TEXT[winner],
            reason=reason,
            detail=detail,
            move_times_ms=tuple(self.times),
            duration_s=time.perf_counter() - self.started,
            not_started=not_started,
        )

    def run(self, engines: list[Engine]) -> GameRecord:
        state = self.state
        for side, engine in enumerate(engines):
            try:
                engine.new_game(state.copy())
            except Forfeit as forfeit:
                name = engine.spec.name
                return self.record(
                    1 - side,
                    forfeit.reason,
                    f"{name}: {forfeit.detail}",
                    name if forfeit.at_start else None,
                )
        while (outcome := state.outcome()) is None:
            if not state.legal_moves():
                return self.record(None, NO_LEGAL_MOVE)
            side = state.to_move
            engine, clock = engines[side], self.clocks[side]
            began = time.perf_counter()
            try:
                move = engine.move(state.copy(), clock)
            except Forfeit as forfeit:
                return self.record(
                    1 - side, forfeit.reason, f"{engine.spec.name}: {forfeit.detail}"
                )
            elapsed_ms = (time.perf_counter() - began) * MS_PER_SECOND
            self.times.append(round(elapsed_ms))
            clock.charge(elapsed_ms)
            late = time_fault(clock, elapsed_ms, self.task.tolerance_ms)
            if late is not None:
                return self.record(1 - side, TIME_FORFEIT, f"{engine.spec.name}: {late}")
            fault = check_move(state, move)
            if fault is not None:
                return self.record(1 - side, fault[0], f"{engine.spec.name}: {fault[1]}")
            state.play(move)
        if outcome.winner is None:
            return self.record(None, FULL_BOARD)
        return self.record(outcome.winner, LINE_REASONS.get(state.name, "line"))


def play_game(task: GameTask) -> GameRecord:
    """Play and judge one game; never raises for anything an engine does."""
    game = _Game(task)
    engines: list[Engine] = []
    try:
        for side, spec in enumerate(task.engines):
            seed = None if task.seed is None else task.seed * 2 + side
            engines.append(
                make_engine(spec, game=task.game, tolerance_ms=task.tolerance_ms, seed=seed)
            )
        return game.run(engines)
    except Exception as error:
        side = len(engines) if len(engines) < len(task.engines) else game.state.to_move
        name = task.engines[min(side, 1)].name
        return game.record(1 - min(side, 1), CRASH, f"{name}: {type(error).__name__}: {error}")
    finally:
        for engine in engines:
            engine.close()
