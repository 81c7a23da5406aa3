"""The players of an arena: built-in AI levels and external Gomocup brains.

An engine is named on the command line by a spec, comma-separated ``key=value``:

- ``level=hard`` — a built-in level of the game; ``seed=N`` varies its choice.
  ``level=random``, ``level=greedy`` and ``level=safe`` are the one-ply baselines
  of ``abgames.ai.baselines`` (any game): the rating ladder's bottom rungs.
- ``cmd=/path/to/pbrain-x`` — an external brain speaking the Gomocup protocol
  (Gomoku only); the command is split like a shell would (``cmd=python x.py``).
  Other keys are sent to it as ``INFO key value`` lines.
- ``eval.NAME=N`` (Gomoku engine levels): evaluation weight ``NAME`` set to the
  whole number ``N`` (names as in ``abgames.ai.gomoku.weights.EVAL_NAMES``, e.g.
  ``eval.attack.f3=45``); how ``abgames tune gomoku`` plays its candidates.
- ``search.NAME=N`` (Gomoku engine levels): engine setting ``NAME`` (a field of
  ``abgames.ai.gomoku.settings.EngineSettings``: ``search.beam=18``,
  ``search.late_move_reductions=0``) for experiments with the search.
- For both: ``name=`` (shown in tables), ``turn_ms=`` (per-move limit),
  ``time=`` (the same in seconds), ``match_ms=`` (limit for the whole game,
  0 = none). Limits are finite, not negative and at most ``MAX_LIMIT_MS``.

``Engine.move`` returns a move or raises ``Forfeit`` naming why the engine lost
without one (it crashed, answered garbage, overran its time). Whether a returned
move is legal, and whether it came in time, the judge decides itself.
"""

from __future__ import annotations

import math
import os
import shlex
import shutil
import sys
import traceback
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from abgames.ai.baselines import BASELINES, make_baseline
from abgames.ai.levels import LEVELS, make_player
from abgames.games.base import GameState, Move
from abgames.games.gomoku import Gomoku, Rule
from abgames.games.numbers import ascii_number, clip
from abgames.protocols.client import (
    EngineCrashed,
    EngineError,
    EngineGarbage,
    EngineRefused,
    EngineTimeout,
    GomocupClient,
)
from abgames.protocols.gomocup import RULE_EXACT_FIVE, RULE_RENJU
from abgames.protocols.timing import TimeControl

LEVEL = "level"
COMMAND = "cmd"
EVAL_PREFIX = "eval."
SEARCH_PREFIX = "search."
#: Game type sent to external brains: 1 = playing against another computer.
GAME_TYPE_ENGINE = 1
RULE_BITS = {Rule.FREESTYLE: 0, Rule.STANDARD: RULE_EXACT_FIVE, Rule.RENJU: RULE_RENJU}
MS_PER_SECOND = 1000
#: The longest per-move or per-game limit an engine may be given: one day.
MAX_LIMIT_MS = 24 * 60 * 60 * MS_PER_SECOND

# How a game can be lost without a legal move (``Forfeit.reason``).
CRASH = "crash"
TIME_FORFEIT = "time forfeit"
BAD_ANSWER = "bad answer"
ILLEGAL_MOVE = "illegal move"


class Forfeit(Exception):
    """An engine lost without playing a move: ``reason`` (one of the constants) and detail.

    ``at_start``: the engine could not even start (an external brain's process would
    not run or answer ``START``); every game would end so, and the arena stops.
    """

    def __init__(self, reason: str, detail: str, *, at_start: bool = False) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.at_start = at_start


@dataclass(frozen=True)
class EngineSpec:
    """One engine of an arena, as parsed from its spec (see the module docstring)."""

    kind: str
    target: str
    name: str
    turn_ms: int
    match_ms: int = 0
    seed: int | None = None
    info: tuple[tuple[str, str], ...] = field(default=())
    eval_overrides: tuple[tuple[str, int], ...] = field(default=())
    search_overrides: tuple[tuple[str, int], ...] = field(default=())

    @property
    def command(self) -> list[str]:
        return shlex.split(self.target)


def check_limit_ms(value: int, what: str) -> int:
    """``value`` if it is a sane limit in milliseconds (0..``MAX_LIMIT_MS``); else ``ValueError``.

    0 is a limit: answer at once (Gomocup's ``timeout_turn 0``), or no match limit.
    """
    if not 0 <= value <= MAX_LIMIT_MS:
        raise ValueError(f"{what} is {value} ms: a time limit is 0..{MAX_LIMIT_MS} ms (one day)")
    return value


def seconds_to_ms(text: str, what: str) -> int:
    """Seconds (``"0.5"``) as whole milliseconds; ``ValueError`` unless finite and sane."""
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_LIMIT_MS / MS_PER_SECOND:
        raise ValueError(
            f"{what}: {text!r} is not a time limit: give 0..{MAX_LIMIT_MS // MS_PER_SECOND} seconds"
        )
    return round(seconds * MS_PER_SECOND)


def _default_name(kind: str, target: str) -> str:
    if kind == LEVEL:
        return target
    words = shlex.split(target)
    script = next((w for w in reversed(words) if not w.startswith("-")), words[0])
    return os.path.splitext(os.path.basename(script))[0] or target


def parse_engine_spec(text: str, *, game: str, turn_ms: int, match_ms: int = 0) -> EngineSpec:
    """The engine named by ``text``; ``ValueError`` naming the fault otherwise.

    ``turn_ms`` and ``match_ms`` are the defaults for keys the spec leaves out.
    A comma inside a ``cmd=`` value is kept when the piece after it has no ``=``.
    """
    pairs: list[list[str]] = []
    for piece in text.split(","):
        if "=" in piece:
            key, _, value = piece.partition("=")
            pairs.append([key.strip().lower(), value.strip()])
        elif pairs and pairs[-1][0] == COMMAND:
            pairs[-1][1] += "," + piece
        else:
            raise ValueError(f"engine spec {text!r}: {piece!r} is not key=value")
    if not pairs or pairs[0][0] not in (LEVEL, COMMAND):
        raise ValueError(f"engine spec {text!r} must start with level=... or cmd=...")
    kind, target = pairs[0]
    if not target:
        raise ValueError(f"engine spec {text!r}: {kind}= needs a value")
    if kind == LEVEL and target not in LEVELS.get(game, ()) + BASELINES:
        choices = ", ".join(LEVELS.get(game, ()) + BASELINES)
        raise ValueError(f"{game} has no level {target!r}: choose {choices}")
    if kind == COMMAND and game != Gomoku.name:
        raise ValueError("external engines (cmd=) play Gomoku only")
    name = _default_name(kind, target)
    seed: int | None = None
    info: list[tuple[str, str]] = []
    overrides: list[tuple[str, int]] = []
    search: list[tuple[str, int]] = []
    for key, value in pairs[1:]:
        if key == "name":
            if not value:
                raise ValueError(f"engine spec {text!r}: name= needs a value")
            name = value
        elif key.startswith(EVAL_PREFIX) and kind == LEVEL:
            overrides.append((key.removeprefix(EVAL_PREFIX), _whole_number(text, key, value)))
        elif key.startswith(SEARCH_PREFIX) and kind == LEVEL:
            search.append((key.removeprefix(SEARCH_PREFIX), _whole_number(text, key, value)))
        elif key == "time":
            turn_ms = seconds_to_ms(value, f"engine spec {text!r}: time")
        elif key in ("turn_ms", "match_ms") or (key == "seed" and kind == LEVEL):
            number = _whole_number(text, key, value)
            if key == "turn_ms":
                turn_ms = number
            elif key == "match_ms":
                match_ms = number
            else:
                seed = number
        elif kind == COMMAND:
            info.append((key, value))
        else:
            raise ValueError(f"engine spec {text!r}: unknown key {key!r} for a level")
    check_limit_ms(turn_ms, f"engine spec {text!r}: the turn limit")
    check_limit_ms(match_ms, f"engine spec {text!r}: the match limit")
    if overrides or search:
        try:
            make_player(game, target, None, tuple(overrides), tuple(search))  # names, values
        except ValueError as error:
            raise ValueError(f"engine spec {text!r}: {error}") from None
    return EngineSpec(
        kind, target, name, turn_ms, match_ms, seed, tuple(info), tuple(overrides), tuple(search)
    )


def _whole_number(text: str, key: str, value: str) -> int:
    """``value`` as an int (ASCII digits, optional minus); ``ValueError`` naming the spec."""
    number = ascii_number(value.removeprefix("-"))
    if number is None:
        raise ValueError(f"engine spec {text!r}: {key}={clip(value)!r} is not a whole number")
    return -number if value.startswith("-") else number


class Engine(ABC):
    """One side of one game."""

    def __init__(self, spec: EngineSpec, tolerance_ms: int) -> None:
        self.spec = spec
        self.tolerance_ms = tolerance_ms

    @abstractmethod
    def new_game(self, state: GameState) -> None:
        """Get ready for a game from ``state`` (untimed); ``Forfeit`` if it cannot."""

    @abstractmethod
    def move(self, state: GameState, clock: TimeControl) -> Move:
        """The engine's move in ``state`` (a copy it may keep); ``Forfeit`` if none."""

    def close(self) -> None:  # noqa: B027 - most engines hold nothing to release
        """Release processes and threads; safe to call more than once."""


class LevelEngine(Engine):
    """A built-in AI level, thinking in this process under the clock's budget."""

    #: The untimed practice search before a game (kernels compile on first use).
    WARMUP_SECONDS = 0.05

    def __init__(self, spec: EngineSpec, tolerance_ms: int, game: str, seed: int | None) -> None:
        super().__init__(spec, tolerance_ms)
        self.game = game
        self.seed = spec.seed if spec.seed is not None else seed
        self.player = make_player(
            game, spec.target, self.seed, spec.eval_overrides, spec.search_overrides
        )

    def new_game(self, state: GameState) -> None:
        """Practise on a player of its own, so the game's player starts with empty tables.

        The practice is cut by the clock; what it leaves in a search's tables
        (transposition table, history) would make the game's moves depend on the
        machine's speed, and the same seeds would no longer give the same games.
        """
        practice = state.copy()
        if practice.is_over():
            return
        try:
            rehearsal = make_player(
                self.game,
                self.spec.target,
                self.seed,
                self.spec.eval_overrides,
                self.spec.search_overrides,
            )
            for _ in rehearsal.think_within(practice, self.WARMUP_SECONDS):
                pass
        except Exception as error:
            raise Forfeit(CRASH, f"warm-up failed: {type(error).__name__}: {error}") from None

    def move(self, state: GameState, clock: TimeControl) -> Move:
        last = None
        try:
            for last in self.player.think_within(state, clock.think_seconds(state.ply // 2)):  # noqa: B007
                pass
        except Exception as error:
            traceback.print_exc(file=sys.stderr)
            raise Forfeit(CRASH, f"{type(error).__name__}: {error}") from None
        if last is None or last.move is None:
            raise Forfeit(BAD_ANSWER, "the engine found no move")
        return last.move


class BaselineEngine(Engine):
    """A one-ply baseline (``abgames.ai.baselines``): answers at once, needs no warm-up."""

    def __init__(self, spec: EngineSpec, tolerance_ms: int, seed: int | None) -> None:
        super().__init__(spec, tolerance_ms)
        self.player = make_baseline(spec.target, spec.seed if spec.seed is not None else seed)

    def new_game(self, state: GameState) -> None:
        """Nothing to prepare."""

    def move(self, state: GameState, clock: TimeControl) -> Move:
        move = self.player.choose(state).move
        if move is None:
            raise Forfeit(BAD_ANSWER, "the baseline found no move")
        return move


def board_stones(state: Gomoku) -> list[tuple[int, int, int]]:
    """``state``'s stones for a Gomocup ``BOARD``: ``(x, y, field)`` in move order, field
    1 for the side to move's and 2 for the other's."""
    me = state.to_move
    return [
        (*state.xy(point), 1 if index % 2 == me else 2) for index, point in enumerate(state.moves)
    ]


class ProtocolEngine(Engine):
    """An external Gomocup brain in a child process, one process per game."""

    def __init__(self, spec: EngineSpec, tolerance_ms: int) -> None:
        super().__init__(spec, tolerance_ms)
        self.client: GomocupClient | None = None
        self.known_ply = 0  # moves of the game the brain has been told or has played

    def new_game(self, state: GameState) -> None:
        assert isinstance(state, Gomoku)
        try:
            self.client = GomocupClient(self.spec.command)
            self.client.start(state.size)
            self.client.info("timeout_turn", self.spec.turn_ms)
            self.client.info("timeout_match", self.spec.match_ms)
            if self.spec.match_ms:
                self.client.info("time_left", self.spec.match_ms)
            self.client.info("game_type", GAME_TYPE_ENGINE)
            self.client.info("rule", RULE_BITS[state.rule])
            for key, value in self.spec.info:
                self.client.info(key, value)
        except EngineError as error:
            raise Forfeit(CRASH, f"could not start: {error}", at_start=True) from None
        self.known_ply = -1  # nothing told yet

    def move(self, state: GameState, clock: TimeControl) -> Move:
        assert isinstance(state, Gomoku)
        client = self.client
        if client is None:
            raise Forfeit(CRASH, "the engine was not started")
        left_ms = clock.remaining_match_ms()
        limit_ms = clock.timeout_turn_ms
        if left_ms is not None:
            limit_ms = min(limit_ms, max(0, left_ms)) if limit_ms else max(0, left_ms)
        timeout = (limit_ms + self.tolerance_ms) / MS_PER_SECOND
        try:
            if left_ms is not None:
                client.info("time_left", max(0, left_ms))
            if state.ply == 0:
                x, y = client.begin(timeout)
            elif self.known_ply == state.ply - 1:
                x, y = client.turn(*state.xy(state.moves[-1]), timeout)
            else:
                x, y = client.board(board_stones(state), timeout)
        except EngineTimeout as error:
            client.kill()
            raise Forfeit(TIME_FORFEIT, str(error)) from None
        except EngineCrashed as error:
            raise Forfeit(CRASH, str(error)) from None
        except (EngineGarbage, EngineRefused) as error:
            raise Forfeit(BAD_ANSWER, str(error)) from None
        if not state.on_board(x, y):
            raise Forfeit(ILLEGAL_MOVE, f"{x},{y} is off the {state.size}x{state.size} board")
        self.known_ply = state.ply + 1
        return state.point(x, y)

    def close(self) -> None:
        if self.client is not None:
            self.client.end()
            self.client = None


def missing_commands(specs: tuple[EngineSpec, ...]) -> list[str]:
    """What keeps the ``cmd=`` engines of ``specs`` from starting on this machine.

    The program must be found (a path, or a name on ``PATH``) and executable; the
    arguments that name files on the machine where the match was started (a
    brain's script) must exist here too. Run on each node of a cluster.
    """
    problems: list[str] = []
    for spec in specs:
        if spec.kind != COMMAND:
            continue
        program, *arguments = spec.command
        if shutil.which(program) is None:
            problems.append(f"{spec.name}: {program!r} not found")
        problems.extend(
            f"{spec.name}: {argument!r} not found"
            for argument in arguments
            if os.path.isabs(argument) and not os.path.exists(argument)
        )
    return problems


def make_engine(spec: EngineSpec, *, game: str, tolerance_ms: int, seed: int | None) -> Engine:
    """The engine a spec names, ready for ``new_game``."""
    if spec.kind == LEVEL and spec.target in BASELINES:
        return BaselineEngine(spec, tolerance_ms, seed)
    if spec.kind == LEVEL:
        return LevelEngine(spec, tolerance_ms, game, seed)
    return ProtocolEngine(spec, tolerance_ms)
