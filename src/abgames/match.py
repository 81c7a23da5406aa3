"""A game in progress between two seats (human or AI): the one thing every front-end drives.

``Match`` holds the game state, who sits on each side, the analysis behind every
AI move, and knows how to undo a turn, ask for a hint, and save or load itself.
It holds no presentation: the terminal, the desktop window and the web page all
call the same methods.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from abgames.ai.levels import DEFAULT_LEVEL, HINT_LEVEL, LEVELS, make_player
from abgames.ai.player import AIPlayer
from abgames.files import FileTooLargeError, read_bytes, write_atomically
from abgames.games import GAMES, GameState, IllegalMoveError, Move, NotationError
from abgames.games.numbers import clip
from abgames.games.tictactoe import parse_version1_move
from abgames.search.result import SearchResult

HUMAN = "human"
AI = "ai"
SAVE_FORMAT = "abgames-game"
#: Version 2 names tic-tac-toe cells with rows from the bottom (``a1`` the bottom-left
#: corner, as Gomoku); version 1 counted them from the top. Other games are unchanged.
SAVE_VERSION = 2
#: The versions ``from_record`` reads.
READABLE_SAVE_VERSIONS = (1, 2)
MODES = ("human-ai", "human-human", "ai-ai")


class SaveFileError(ValueError):
    """A save file that cannot be read: missing, not JSON, foreign, or with bad moves."""


@dataclass(frozen=True)
class Seat:
    """Who plays one side: a human, or an AI of a given level."""

    kind: str
    level: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in (HUMAN, AI):
            raise ValueError(f"a seat is {HUMAN!r} or {AI!r}, not {self.kind!r}")
        if self.kind == AI and self.level is None:
            raise ValueError("an AI seat needs a level")

    @property
    def is_ai(self) -> bool:
        return self.kind == AI

    def describe(self) -> str:
        return f"AI, {self.level}" if self.is_ai else "human"


def seats_for(mode: str, first: str, level: str) -> tuple[Seat, Seat]:
    """The two seats of a ``mode`` ("human-ai", ...), ``first`` ("human"|"ai") moving first."""
    ai = Seat(AI, level)
    human = Seat(HUMAN)
    if mode == "human-human":
        return human, human
    if mode == "ai-ai":
        return ai, ai
    if mode != "human-ai":
        raise ValueError(f"unknown mode {mode!r}: choose {', '.join(MODES)}")
    if first not in (HUMAN, AI):
        raise ValueError(f"who moves first is 'human' or 'ai', not {first!r}")
    return (human, ai) if first == HUMAN else (ai, human)


def describe_seats(seats: tuple[Seat, Seat]) -> tuple[str, str, str | None]:
    """(mode, first, level) of two seats: the inverse of ``seats_for``.

    ``level`` is the first AI seat's level (None when no seat is an AI)."""
    first_ai, second_ai = (seat.is_ai for seat in seats)
    if first_ai and second_ai:
        mode = "ai-ai"
    elif first_ai or second_ai:
        mode = "human-ai"
    else:
        mode = "human-human"
    level = next((seat.level for seat in seats if seat.is_ai), None)
    first = AI if first_ai and not second_ai else HUMAN
    return mode, first, level


def new_state(game: str, **options: Any) -> GameState:
    """An empty board of ``game`` with its options (size, rule, width, height)."""
    cls = GAMES.get(game)
    if cls is None:
        raise ValueError(f"unknown game {game!r}: choose {', '.join(GAMES)}")
    return cls(**options)


class Match:
    """One game: a state, two seats, and the AI analysis of each move played.

    ``analyses[i]`` is the ``SearchResult`` behind move ``i`` when an AI played it,
    otherwise ``None``. Moves reach the state only through ``play`` and
    ``play_ai_result``, so the two lists stay in step.
    """

    def __init__(
        self,
        state: GameState,
        seats: tuple[Seat, Seat],
        *,
        seed: int | None = None,
        player_factory: Callable[[str, str, int | None], AIPlayer] = make_player,
    ) -> None:
        self.state = state
        self.seats = seats
        self.seed = seed
        self._player_factory = player_factory
        self._players: dict[str, AIPlayer] = {}
        self._thinking: AIPlayer | None = None
        self.analyses: list[SearchResult | None] = [None] * state.ply
        for seat in seats:
            if seat.is_ai:
                self.player(seat.level or "")  # validates the level now

    # --- whose turn ------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.state.name

    @property
    def seat_to_move(self) -> Seat:
        return self.seats[self.state.to_move]

    @property
    def is_over(self) -> bool:
        return self.state.outcome() is not None

    @property
    def ai_to_move(self) -> bool:
        return not self.is_over and self.seat_to_move.is_ai

    @property
    def has_human(self) -> bool:
        return any(not seat.is_ai for seat in self.seats)

    def player(self, level: str) -> AIPlayer:
        """The AI player of ``level`` for this game (made once, then reused)."""
        if level not in self._players:
            self._players[level] = self._player_factory(self.game, level, self.seed)
        return self._players[level]

    # --- moves -----------------------------------------------------------------
    def parse(self, text: str) -> Move:
        """The move named by ``text``, or ``NotationError``."""
        return self.state.parse_move(text)

    def play(self, move: Move) -> None:
        """Play ``move`` for the side to move (a human move); ``IllegalMoveError`` if not legal."""
        self.state.play(move)
        self.analyses.append(None)

    def think(
        self, level: str | None = None, *, seconds: float | None = None
    ) -> Iterator[SearchResult]:
        """Stream the AI's search of the current position; plays nothing.

        ``level`` defaults to the level of the seat to move (or the game's default
        level when a human is to move, as for a hint); ``seconds`` caps the level's
        own time limit (a move on the clock).
        """
        if self.is_over:
            raise IllegalMoveError("the game is over")
        chosen = level or self.seat_to_move.level or DEFAULT_LEVEL[self.game]
        player = self.player(chosen)
        self._thinking = player
        try:
            if seconds is None:
                yield from player.think(self.state)
            else:
                yield from player.think_within(self.state, seconds)
        finally:
            self._thinking = None

    def stop_thinking(self) -> None:
        """Make a running ``think`` (in any thread) end soon with its best answer."""
        player = self._thinking
        if player is not None:
            player.stop()

    def best_result(
        self, level: str | None = None, on_progress: Callable[[SearchResult], None] | None = None
    ) -> SearchResult:
        last: SearchResult | None = None
        for last in self.think(level):
            if on_progress is not None:
                on_progress(last)
        if last is None or last.move is None:
            raise IllegalMoveError("the AI found no move")
        return last

    def play_ai_result(self, result: SearchResult) -> None:
        """Play the move of an AI search of the current position, keeping its analysis."""
        if result.move is None:
            raise IllegalMoveError("the AI found no move")
        self.state.play(result.move)
        self.analyses.append(result)

    def ai_move(self, on_progress: Callable[[SearchResult], None] | None = None) -> SearchResult:
        """Let the AI on the seat to move choose and play; returns its analysis."""
        if not self.ai_to_move:
            raise IllegalMoveError("it is not the AI's turn")
        result = self.best_result(on_progress=on_progress)
        self.play_ai_result(result)
        return result

    def hint(self, level: str | None = None) -> SearchResult:
        """The hint level's suggestion for the side to move (``levels.HINT_LEVEL``)."""
        return self.best_result(level or HINT_LEVEL[self.game])

    def last_ai_analysis(self) -> tuple[Move, SearchResult] | None:
        """The most recent AI move and the search behind it."""
        for index in range(len(self.analyses) - 1, -1, -1):
            result = self.analyses[index]
            if result is not None:
                return self.state.moves[index], result
        return None

    def undo(self) -> list[Move]:
        """Take back one turn and return the moves taken back, most recent first.

        Against the AI a turn is the AI's reply and the human's move before it, so
        the human is to move again afterwards. Between humans, or between AIs, it
        is one move. Raises ``IllegalMoveError`` when there is nothing to take back.
        """
        if self.state.ply == 0:
            raise IllegalMoveError("there is no move to take back")
        seats = self.seats
        if seats[0].is_ai == seats[1].is_ai:
            return [self._undo_one()]
        human = 0 if not seats[0].is_ai else 1
        human_moves = [i for i in range(self.state.ply) if i % 2 == human]
        if not human_moves:
            raise IllegalMoveError("there is no move of yours to take back")
        taken: list[Move] = []
        target = human_moves[-1]
        while self.state.ply > target:
            taken.append(self._undo_one())
        return taken

    def _undo_one(self) -> Move:
        move = self.state.undo()
        self.analyses.pop()
        return move

    def restart(self) -> None:
        """A new game with the same seats and options."""
        self.state = new_state(self.game, **self.state.options())
        self.analyses = []

    # --- records ---------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The game as the documented save-file dictionary (docs/save-format.md)."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game,
            "options": self.state.options(),
            "moves": [self.state.format_move(m) for m in self.state.moves],
            "players": [seat.kind for seat in self.seats],
            "levels": [seat.level for seat in self.seats],
        }

    @classmethod
    def from_record(cls, record: object, *, seed: int | None = None) -> Match:
        """Rebuild a match from ``to_record()`` output; ``SaveFileError`` if it is not one.

        The record is checked against docs/save-format.md field by field, and the
        error names the first bad field; no other exception escapes.
        """
        saved = _checked_record(record)
        try:
            state = new_state(saved.game, **saved.options)
        except ValueError as error:
            raise SaveFileError(f"options in the save file: {error}") from None
        parse = _move_parser(state, saved.version)
        for number, text in enumerate(saved.moves, start=1):
            try:
                state.play(parse(text))
            except (IllegalMoveError, NotationError) as error:
                raise SaveFileError(
                    f"move {number} ({clip(text)!r}) in the save file: {error}"
                ) from None
        try:
            return cls(state, saved.seats, seed=seed)
        except ValueError as error:
            raise SaveFileError(f"bad players in the save file: {error}") from None

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the game as JSON, atomically: the file is whole or untouched.

        The text goes to a temporary file in the target's folder, which is then
        renamed over the target and the folder synced. A symbolic link is written
        through (its target is replaced, the link stays); an existing file keeps its
        permissions, a new one gets the usual ones (0666 less the umask). A failed
        save removes its temporary file, and leftovers of saves that were killed
        are removed by the next save to the same name. ``SaveFileError`` on failure.
        """
        target = Path(path)
        text = json.dumps(self.to_record(), indent=2) + "\n"
        try:
            write_atomically(target, text.encode("utf-8"))
        except OSError as error:
            raise SaveFileError(
                f"cannot save to {_shown_path(target)}: {error.strerror or error}"
            ) from None
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, seed: int | None = None) -> Match:
        """Read a saved game; ``SaveFileError`` with a clear reason if it cannot be used.

        ``SaveFileError`` is the only exception it raises for any file content; a
        file over ``MAX_SAVE_BYTES`` is refused unread.
        """
        source = Path(path)
        shown = _shown_path(source)
        try:
            data = read_bytes(source, MAX_SAVE_BYTES)
        except FileNotFoundError:
            raise SaveFileError(f"there is no file {shown}") from None
        except FileTooLargeError:
            raise SaveFileError(
                f"{shown} is not a saved game (over {MAX_SAVE_BYTES:,} bytes; "
                "a saved game is a few kilobytes)"
            ) from None
        except OSError as error:
            raise SaveFileError(f"cannot read {shown}: {error.strerror or error}") from None
        except ValueError as error:  # a NUL in the name
            raise SaveFileError(f"cannot read {shown}: {error}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise SaveFileError(f"cannot read {shown}: {error}") from None
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise SaveFileError(f"{shown} is not a saved game (bad JSON: {error.msg})") from None
        except RecursionError:
            raise SaveFileError(f"{shown} is not a saved game (nested too deeply)") from None
        except ValueError:  # int() refuses more than 4300 digits
            raise SaveFileError(
                f"{shown} is not a saved game (a number in it is too long)"
            ) from None
        return cls.from_record(record, seed=seed)


# --- save files ----------------------------------------------------------------------
#: The largest save file ``load`` reads: the longest game (22x22 Gomoku) takes ~6 KB.
MAX_SAVE_BYTES = 1_000_000
#: How much of a file name an error message repeats.
PATH_ECHO_LIMIT = 200
#: The options each game's save file may hold, with their JSON types.
SAVED_OPTIONS: dict[str, dict[str, type]] = {
    "tictactoe": {},
    "connect4": {"width": int, "height": int},
    "gomoku": {"size": int, "rule": str},
}
_TYPE_WORDS = {int: "a whole number", str: "a string"}


@dataclass(frozen=True)
class _SavedGame:
    """A save file's contents, each field checked for type and range."""

    version: int
    game: str
    options: dict[str, object]
    moves: list[str]
    seats: tuple[Seat, Seat]


def _move_parser(state: GameState, version: int) -> Callable[[str], Move]:
    """How a save file of ``version`` names the moves of ``state``'s game."""
    if version == 1 and state.name == "tictactoe":
        return parse_version1_move
    return state.parse_move


def _shown(value: object) -> str:
    """A JSON value as an error message shows it: its JSON text, cut short."""
    try:
        return clip(json.dumps(value))
    except (ValueError, RecursionError):
        return "an unreadable value"


def _shown_path(path: Path) -> str:
    """A file name as an error message shows it: cut short if it is absurdly long."""
    return clip(str(path), PATH_ECHO_LIMIT)


def _is_type(value: object, kind: type) -> bool:
    """``isinstance`` where a JSON ``true`` is not a whole number."""
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def _checked_record(record: object) -> _SavedGame:
    """The fields of a save-file record, or ``SaveFileError`` naming the first bad one."""
    if not isinstance(record, dict) or record.get("format") != SAVE_FORMAT:
        raise SaveFileError("this is not an abgames save file")
    version = record.get("version")
    if not _is_type(version, int) or version not in READABLE_SAVE_VERSIONS:
        raise SaveFileError(f"save file version {_shown(version)} is not supported")
    game = record.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise SaveFileError(
            f"game in the save file: {_shown(game)} is not one of {', '.join(GAMES)}"
        )
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise SaveFileError(f"options in the save file: {_shown(options)} is not an object")
    allowed = SAVED_OPTIONS[game]
    for name, value in options.items():
        kind = allowed.get(name)
        if kind is None:
            takes = ", ".join(allowed) or "none"
            raise SaveFileError(
                f"options.{clip(name)} in the save file: {game} has no such option "
                f"(it takes: {takes})"
            )
        if not _is_type(value, kind):
            raise SaveFileError(
                f"options.{name} in the save file must be {_TYPE_WORDS[kind]}, not {_shown(value)}"
            )
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise SaveFileError(f"moves in the save file: {_shown(moves)} is not a list")
    for number, move in enumerate(moves, start=1):
        if not isinstance(move, str):
            raise SaveFileError(f"move {number} in the save file is not a string: {_shown(move)}")
    players = record.get("players")
    if not (isinstance(players, list) and len(players) == 2):
        raise SaveFileError(
            f"players in the save file must be a list of two seats, not {_shown(players)}"
        )
    levels = record.get("levels", [None, None])
    if not (isinstance(levels, list) and len(levels) == 2):
        raise SaveFileError(
            f"levels in the save file must be a list of two levels, not {_shown(levels)}"
        )
    seats = tuple(_checked_seat(index, players[index], levels[index], game) for index in (0, 1))
    return _SavedGame(version, game, dict(options), list(moves), (seats[0], seats[1]))


def _checked_seat(index: int, kind: object, level: object, game: str) -> Seat:
    if kind not in (HUMAN, AI) or not isinstance(kind, str):
        raise SaveFileError(
            f"players[{index}] in the save file must be {HUMAN!r} or {AI!r}, not {_shown(kind)}"
        )
    if level is None and kind == AI:
        raise SaveFileError(f"levels[{index}] in the save file: an AI seat needs a level")
    if level is not None and (not isinstance(level, str) or level not in LEVELS[game]):
        raise SaveFileError(
            f"levels[{index}] in the save file: {_shown(level)} is not a level of {game} "
            f"({', '.join(LEVELS[game])})"
        )
    return Seat(kind, level if kind == AI else None)


def levels_of(game: str) -> tuple[str, ...]:
    return LEVELS[game]
