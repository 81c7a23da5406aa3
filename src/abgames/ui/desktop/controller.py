"""What the desktop window is playing, with no Tk: settings, the match, clocks, the AI.

``GameSession`` turns the window's requests (a click on a move, undo, hint,
move now, new game, save, load) into calls on a ``Match`` and keeps the state
the window shows: whose turn it is, whether the game is over, the clocks, the
AI's live progress, the last hint. The window calls ``poll()`` every few
milliseconds to take in the worker thread's results; nothing here blocks.

Every change of position bumps ``generation``: a search started before it is
stopped and whatever it reports afterwards is ignored.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass

from abgames.ai.levels import DEFAULT_LEVEL, HINT_LEVEL, LEVELS, PERFECT_LEVEL, make_player
from abgames.ai.player import AIPlayer
from abgames.games import ConnectFour, GameState, Gomoku, IllegalMoveError, Move
from abgames.games.connect4 import DEFAULT_HEIGHT, DEFAULT_WIDTH
from abgames.games.gomoku import DEFAULT_SIZE, Rule
from abgames.match import AI, HUMAN, MODES, Match, describe_seats, new_state, seats_for
from abgames.search.result import SearchResult
from abgames.search.score import describe
from abgames.ui.desktop.worker import HINT, MOVE, Finished, Progress, SearchWorker

PlayerFactory = Callable[[str, str, "int | None"], AIPlayer]
Clock = Callable[[], float]

GAME_TITLES = {"tictactoe": "Tic-tac-toe", "connect4": "Connect Four", "gomoku": "Gomoku"}
#: Said of a ``perfect`` move whose search fell back to the heuristic (``solved`` is false).
NOT_SOLVED = "not solved, best heuristic move"


@dataclass(frozen=True)
class GameSettings:
    """Everything the new-game dialog chooses. ``level=None`` means the game's default."""

    game: str = "tictactoe"
    mode: str = "human-ai"
    first: str = HUMAN
    level: str | None = None
    rule: str = Rule.FREESTYLE.value
    size: int = DEFAULT_SIZE
    width: int = DEFAULT_WIDTH
    height: int = DEFAULT_HEIGHT

    def __post_init__(self) -> None:
        if self.game not in LEVELS:
            raise ValueError(f"unknown game {self.game!r}: choose {', '.join(LEVELS)}")
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r}: choose {', '.join(MODES)}")
        if self.first not in (HUMAN, AI):
            raise ValueError(f"who moves first is {HUMAN!r} or {AI!r}, not {self.first!r}")
        if self.level is not None and self.level not in LEVELS[self.game]:
            choices = ", ".join(LEVELS[self.game])
            raise ValueError(f"{self.game} has no level {self.level!r}: choose {choices}")

    @property
    def resolved_level(self) -> str:
        return self.level or DEFAULT_LEVEL[self.game]

    def options(self) -> dict[str, object]:
        """The board options of this game (size and rule, or width and height)."""
        if self.game == "gomoku":
            return {"size": self.size, "rule": self.rule}
        if self.game == "connect4":
            return {"width": self.width, "height": self.height}
        return {}

    def make_match(self, seed: int | None, player_factory: PlayerFactory) -> Match:
        """A fresh match with these settings; ``ValueError`` for a bad board option."""
        state = new_state(self.game, **self.options())
        seats = seats_for(self.mode, self.first, self.resolved_level)
        return Match(state, seats, seed=seed, player_factory=player_factory)


def settings_of(match: Match) -> GameSettings:
    """The settings that describe a (loaded) match: mode, who is first, level, board."""
    mode, first, level = describe_seats(match.seats)
    state = match.state
    if isinstance(state, Gomoku):
        return GameSettings(match.game, mode, first, level, rule=state.rule.value, size=state.size)
    if isinstance(state, ConnectFour):
        return GameSettings(match.game, mode, first, level, width=state.width, height=state.height)
    return GameSettings(match.game, mode, first, level)


class Clocks:
    """Thinking time used by each player; at most one clock runs at a time."""

    def __init__(self, now: Clock = time.monotonic) -> None:
        self._now = now
        self.used_s = [0.0, 0.0]
        self.running: int | None = None
        self._since = 0.0

    def start(self, player: int) -> None:
        """Stop the running clock (if any) and start ``player``'s."""
        self.stop()
        self.running = player
        self._since = self._now()

    def stop(self) -> None:
        if self.running is not None:
            self.used_s[self.running] += self._now() - self._since
            self.running = None

    def reset(self) -> None:
        self.used_s = [0.0, 0.0]
        self.running = None

    def read(self, player: int) -> float:
        """Seconds ``player`` has used, the running period included."""
        extra = self._now() - self._since if self.running == player else 0.0
        return self.used_s[player] + extra


def format_clock(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


@dataclass(frozen=True)
class Analysis:
    """A search to show on the board: ``result`` searched ``base`` (a copy of that position).

    The scores in ``result.root_scores`` are from the view of ``base``'s side to
    move (``viewer``): for a hint that is the human to move now, for the last AI
    move it is the AI, before the move it then played (``played``).
    """

    result: SearchResult
    base: GameState
    is_hint: bool
    level: str
    played: Move | None = None

    @property
    def viewer(self) -> int:
        """The player whose scores these are (0 or 1)."""
        return self.base.to_move

    @property
    def fell_back(self) -> bool:
        """Whether a ``perfect`` search gave up proving and played a heuristic move."""
        return self.level == PERFECT_LEVEL and not self.result.solved


class GameSession:
    """The desktop window's game: a ``Match`` and everything shown around it."""

    def __init__(
        self,
        settings: GameSettings | None = None,
        *,
        seed: int | None = None,
        player_factory: PlayerFactory = make_player,
        ai_pause_s: float = 0.0,
        now: Clock = time.monotonic,
    ) -> None:
        self.seed = seed
        self.player_factory = player_factory
        self.ai_pause_s = ai_pause_s
        self._now = now
        self.worker = SearchWorker()
        self.generation = 0
        self.settings = settings or GameSettings()
        self.match = self.settings.make_match(seed, player_factory)
        self.clocks = Clocks(now)
        self.progress: SearchResult | None = None
        self.search_level: str | None = None
        self._search_started = 0.0
        self.hint: SearchResult | None = None
        self.hint_ply: int | None = None
        self.note = ""
        self.game_over = False
        self.moves_played = 0  # bumps on every move, so the window knows when to animate
        self._ai_due_at: float | None = None
        self._reset_play_state()

    # --- starting and ending ---------------------------------------------------
    def new_game(self, settings: GameSettings | None = None) -> None:
        """Start over with ``settings`` (default: the current ones); nothing carries over."""
        chosen = settings or self.settings
        match = chosen.make_match(self.seed, self.player_factory)
        self._invalidate()
        self.settings = chosen
        self.match = match
        self._reset_play_state()

    def adopt(self, match: Match) -> None:
        """Continue ``match`` (a loaded game) with fresh clocks and no pending search."""
        adopted = Match(
            match.state, match.seats, seed=self.seed, player_factory=self.player_factory
        )
        adopted.analyses = list(match.analyses)
        settings = settings_of(adopted)  # may refuse the match: nothing has changed yet
        self._invalidate()
        self.match = adopted
        self.settings = settings
        self._reset_play_state()

    def load(self, path: str) -> None:
        """Load a saved game (the terminal's JSON); ``SaveFileError`` with a reason.

        Nothing changes unless the whole file is good: the game being played (and
        its running search) goes on after a failure.
        """
        self.adopt(Match.load(path, seed=self.seed))
        self.note = f"Loaded {path}."

    def save(self, path: str) -> None:
        """Save the game as JSON; ``SaveFileError`` with a reason."""
        self.match.save(path)
        self.note = f"Saved to {path}."

    def shutdown(self) -> None:
        """Stop any search; its thread is a daemon, so the process can exit at once."""
        self._invalidate()
        self.clocks.stop()

    def _invalidate(self) -> None:
        """Forget every running search: stop it and drop what it reports later."""
        self.generation += 1
        self.worker.stop()
        self.progress = None
        self._ai_due_at = None

    def _reset_play_state(self) -> None:
        self.clocks.reset()
        self.progress = None
        self.hint = None
        self.hint_ply = None
        self.search_level = None
        self.note = ""
        self.moves_played = 0
        self._after_position_change()

    def _after_position_change(self) -> None:
        """Bring the flags and clocks in line with the position, and wake the AI."""
        self.game_over = self.match.is_over
        if self.game_over:
            self.clocks.stop()
        else:
            self.clocks.start(self.match.state.to_move)
        self._schedule_ai()

    def _schedule_ai(self) -> None:
        if not self.match.ai_to_move:
            self._ai_due_at = None
            return
        pause = self.ai_pause_s if not self.match.has_human else 0.0
        self._ai_due_at = self._now() + pause
        self.tick()

    # --- requests from the window ----------------------------------------------
    @property
    def thinking(self) -> bool:
        """Whether a search of the current position is running."""
        return self.worker.busy and self.worker.generation == self.generation

    @property
    def thinking_for(self) -> str | None:
        """``"move"`` or ``"hint"`` while a current search runs, else ``None``."""
        return self.worker.purpose if self.thinking else None

    def can_click(self) -> bool:
        return not self.game_over and not self.match.ai_to_move

    def click(self, move: Move | None) -> bool:
        """A human's click on ``move`` (``None``: off the board); whether it was played.

        A refused click leaves the reason in ``note`` ("h8 is already taken",
        "double-three at h8 is forbidden for black", "column 3 is full").
        """
        if self.game_over:
            self.note = "The game is over: start a new game (Ctrl+N)."
            return False
        if self.match.ai_to_move:
            self.note = "The AI is thinking: wait, or press Move now."
            return False
        if move is None:
            self.note = "That click is off the board."
            return False
        reason = self.match.state.why_illegal(move)
        if reason is not None:
            self.note = f"{reason}."  # the rules' own words: "h8 is already taken"
            return False
        self._invalidate()  # a running hint is for the old position
        self.match.play(move)
        self._moved()
        return True

    def _moved(self) -> None:
        self.moves_played += 1
        self.hint = None
        self.hint_ply = None
        self.note = ""
        self._after_position_change()

    def undo(self) -> bool:
        """Take back a turn (against the AI, its reply and your move); whether anything was."""
        if self.match.state.ply == 0:
            self.note = "There is no move to take back."
            return False
        self._invalidate()
        try:
            taken = self.match.undo()
        except IllegalMoveError as error:
            self.note = f"{error}."
            self._schedule_ai()
            return False
        self.hint = None
        self.hint_ply = None
        self._after_position_change()
        moves = ", ".join(self.match.state.format_move(m) for m in reversed(taken))
        self.note = f"Took back {moves}."
        return True

    def request_hint(self) -> bool:
        """Start a search for the human to move; the answer arrives through ``poll``."""
        if self.game_over:
            self.note = "The game is over."
            return False
        if self.match.ai_to_move:
            self.note = "It is the AI's turn."
            return False
        if self.hint is not None and self.hint_ply == self.match.state.ply:
            return True
        self._invalidate()
        self._start_search(HINT, HINT_LEVEL[self.match.game])
        self.note = "Looking for a hint…"
        return True

    def _start_search(self, purpose: str, level: str) -> None:
        self.search_level = level
        self._search_started = self._now()
        self.worker.start(self.match, self.generation, purpose, level)

    def move_now(self) -> bool:
        """Make the running search end now with its best move so far."""
        if not self.thinking:
            self.note = "The AI is not thinking."
            return False
        self.worker.stop()
        return True

    def tick(self) -> None:
        """Start the AI's search once its pause (AI-AI games) is over."""
        due = self._ai_due_at
        if due is None or self._now() < due or self.thinking:
            return
        self._ai_due_at = None
        if self.match.ai_to_move:
            self._start_search(
                MOVE, self.match.seat_to_move.level or DEFAULT_LEVEL[self.match.game]
            )

    def poll(self) -> bool:
        """Take in the worker's messages and start a due search; whether anything changed."""
        changed = False
        while True:
            try:
                message = self.worker.messages.get_nowait()
            except queue.Empty:
                break
            if message.generation != self.generation:
                continue  # a stale search: a newer position has replaced it
            changed = True
            if isinstance(message, Progress):
                self.progress = message.result
            elif isinstance(message, Finished):
                self._finished(message)
        self.tick()
        return changed

    def _finished(self, message: Finished) -> None:
        self.progress = None
        result = message.result
        if message.error is not None or result is None or result.move is None:
            self.note = f"The AI failed: {message.error or 'no move found'}"
            return
        waited_s = self._now() - self._search_started
        state = self.match.state
        move = state.format_move(result.move)
        fell_back = self.search_level == PERFECT_LEVEL and not result.solved
        if message.purpose == HINT:
            self.hint = result
            self.hint_ply = state.ply
            how = NOT_SOLVED if fell_back else describe(result.score, solved=result.solved)
            self.note = f"Hint: {move} ({how})."
            return
        mover = state.player_names[state.to_move]
        self.generation += 1  # the position changes: nothing of this search is current
        self.match.play_ai_result(result)
        self._moved()
        if fell_back:
            self.note = f"{mover} played {move} after {waited_s:.1f} s: {NOT_SOLVED}."

    # --- what the window shows -------------------------------------------------
    def analysis(self, *, include_last_ai: bool = True) -> Analysis | None:
        """The search to draw: the hint for this position, else the last AI move's search."""
        state = self.match.state
        if self.hint is not None and self.hint_ply == state.ply:
            return Analysis(self.hint, state.copy(), True, HINT_LEVEL[self.match.game])
        if not include_last_ai:
            return None
        analyses = self.match.analyses
        for index in range(len(analyses) - 1, -1, -1):
            result = analyses[index]
            if result is not None:
                base = state.copy()
                while base.ply > index:
                    base.undo()
                level = self.match.seats[base.to_move].level or DEFAULT_LEVEL[self.match.game]
                return Analysis(result, base, False, level, state.moves[index])
        return None

    def board_text(self) -> str:
        """The game and its board: ``Renju 15x15``, ``Gomoku standard 13x13``, ``Tic-tac-toe``."""
        state = self.match.state
        if isinstance(state, Gomoku):
            size = f"{state.size}x{state.size}"
            if state.rule is Rule.RENJU:
                return f"Renju {size}"
            if state.rule is Rule.FREESTYLE:
                return f"Gomoku {size}"
            return f"Gomoku {state.rule.value} {size}"
        if isinstance(state, ConnectFour):
            return f"Connect Four {state.width}x{state.height}"
        return GAME_TITLES[self.match.game]

    def mode_text(self) -> str:
        seats = self.match.seats
        names = self.match.state.player_names
        return " vs ".join(f"{names[i]} ({seats[i].describe()})" for i in (0, 1))

    def result_text(self) -> str:
        outcome = self.match.state.outcome()
        if outcome is None:
            return ""
        if outcome.winner is None:
            return "The game is a draw."
        return f"{self.match.state.player_names[outcome.winner]} wins."

    def turn_text(self) -> str:
        """``Red to move (human)``, or the result."""
        if self.game_over:
            return self.result_text()
        state = self.match.state
        seat = self.match.seat_to_move
        return f"{state.player_names[state.to_move]} to move ({seat.describe()})"

    def search_seconds(self) -> float:
        """Seconds since the running search started (0 when none runs)."""
        return self._now() - self._search_started if self.thinking else 0.0

    def search_text(self) -> str:
        """The running search, or ``""``: what it does, for how long, and how far it got.

        ``thinking… depth 5, 12,345 nodes, 2.3 s, best d4``; before the first
        report only the time, which the window refreshes while it waits: a
        ``perfect`` search may report nothing until it has solved the position
        (``solving… 4.2 s``).
        """
        if not self.thinking:
            return ""
        if self.thinking_for == HINT:
            verb = "looking for a hint…"
        elif self.search_level == PERFECT_LEVEL:
            verb = "solving…"
        else:
            verb = "thinking…"
        elapsed = f"{self.search_seconds():.1f} s"
        result = self.progress
        if result is None or (result.move is None and not result.note and not result.nodes):
            return f"{verb} {elapsed}"  # nothing reported yet (or the engine just got ready)
        if result.move is None and result.note:
            if result.nodes == 0:  # the engine being compiled: the note says how long
                return result.note
            return f"{result.note}… {result.nodes:,} nodes, {elapsed}"  # ``solving column 4``
        best = "-" if result.move is None else self.match.state.format_move(result.move)
        return f"{verb} depth {result.depth}, {result.nodes:,} nodes, {elapsed}, best {best}"

    def clock_text(self) -> str:
        names = self.match.state.player_names
        return "  ".join(f"{names[i]} {format_clock(self.clocks.read(i))}" for i in (0, 1))
