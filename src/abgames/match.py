"""A game in progress between two seats (human or AI): the one thing every front-end drives.

``Match`` holds the game state, who sits on each side, the analysis behind every
AI move, and knows how to undo a turn, ask for a hint, and save or load itself.
It holds no presentation: the terminal, the desktop window and the web page all
call the same methods.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from abgames.ai.levels import DEFAULT_LEVEL, LEVELS, make_player
from abgames.ai.player import AIPlayer
from abgames.games import GAMES, GameState, IllegalMoveError, Move, NotationError
from abgames.search.result import SearchResult

HUMAN = "human"
AI = "ai"
SAVE_FORMAT = "abgames-game"
SAVE_VERSION = 1
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

    def think(self, level: str | None = None) -> Iterator[SearchResult]:
        """Stream the AI's search of the current position; plays nothing.

        ``level`` defaults to the level of the seat to move (or the game's default
        level when a human is to move, as for a hint).
        """
        if self.is_over:
            raise IllegalMoveError("the game is over")
        chosen = level or self.seat_to_move.level or DEFAULT_LEVEL[self.game]
        player = self.player(chosen)
        self._thinking = player
        try:
            yield from player.think(self.state)
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
        """The strongest regular level's suggestion for the side to move."""
        return self.best_result(level or DEFAULT_LEVEL[self.game])

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
        """Rebuild a match from ``to_record()`` output; ``SaveFileError`` if it is not one."""
        if not isinstance(record, dict) or record.get("format") != SAVE_FORMAT:
            raise SaveFileError("this is not an abgames save file")
        if record.get("version") != SAVE_VERSION:
            raise SaveFileError(f"save file version {record.get('version')!r} is not supported")
        game = record.get("game")
        if game not in GAMES:
            raise SaveFileError(f"unknown game {game!r} in the save file")
        options = record.get("options", {})
        moves = record.get("moves")
        players = record.get("players")
        levels = record.get("levels", [None, None])
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise SaveFileError("the save file's options are not a dictionary")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise SaveFileError("the save file's moves are not a list of moves")
        if not (isinstance(players, list) and len(players) == 2):
            raise SaveFileError("the save file must name two players")
        if not (isinstance(levels, list) and len(levels) == 2):
            raise SaveFileError("the save file must name two levels")
        try:
            state = new_state(str(game), **options)
            seats = (Seat(players[0], levels[0]), Seat(players[1], levels[1]))
        except (TypeError, ValueError) as error:
            raise SaveFileError(f"bad settings in the save file: {error}") from None
        for number, text in enumerate(moves, start=1):
            try:
                state.play(state.parse_move(text))
            except (IllegalMoveError, NotationError) as error:
                raise SaveFileError(f"move {number} ({text!r}) in the save file: {error}") from None
        try:
            return cls(state, seats, seed=seed)
        except ValueError as error:
            raise SaveFileError(f"bad players in the save file: {error}") from None

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the game as JSON, atomically: the file is whole or untouched."""
        target = Path(path)
        text = json.dumps(self.to_record(), indent=2) + "\n"
        directory = target.parent if str(target.parent) else Path(".")
        try:
            with tempfile.NamedTemporaryFile(
                "w", dir=directory, prefix=f".{target.name}.", suffix=".tmp", delete=False
            ) as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
                temporary = Path(handle.name)
            os.replace(temporary, target)
        except OSError as error:
            raise SaveFileError(f"cannot save to {target}: {error.strerror or error}") from None
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, seed: int | None = None) -> Match:
        """Read a saved game; ``SaveFileError`` with a clear reason if it cannot be used."""
        source = Path(path)
        try:
            text = source.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SaveFileError(f"there is no file {source}") from None
        except (OSError, UnicodeDecodeError) as error:
            raise SaveFileError(f"cannot read {source}: {error}") from None
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise SaveFileError(f"{source} is not a saved game (bad JSON: {error.msg})") from None
        return cls.from_record(record, seed=seed)


def levels_of(game: str) -> tuple[str, ...]:
    return LEVELS[game]
