"""Terminal play: a text board, a prompt, and commands; works the same through a pipe.

Every input error is answered with one line and a new prompt. End of input and
Ctrl-C leave cleanly. Nothing here knows the rules: moves go through ``Match``.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from abgames.ai.levels import DEFAULT_LEVEL, HINT_LEVEL, LEVELS
from abgames.ai.readiness import Progress, prepare
from abgames.files import EndlessLineError, read_line
from abgames.games import (
    GAMES,
    GameState,
    Gomoku,
    IllegalMoveError,
    Move,
    NotationError,
    Rule,
)
from abgames.games.numbers import ascii_number, clip
from abgames.match import HUMAN, MODES, Match, SaveFileError, new_state, seats_for
from abgames.search.result import SearchResult
from abgames.search.score import describe
from abgames.ui.typing_hold import held_typing

#: How many candidate moves ``why`` lists.
WHY_CANDIDATES = 5

HELP_TEXT = """\
Commands:
  <move>       play a move ({example})
  undo [N]     take back your last move (and the AI's reply); N turns with a number
  hint         suggest a move, with its score
  why          explain the AI's last move: depth, nodes, time, score, line, candidates
  forbidden    list black's forbidden points (Renju)
  save FILE    save the game as JSON
  load FILE    load a saved game
  new          start a new game with the same settings
  help         show this text
  quit         leave
{board}"""

MOVE_EXAMPLES = {
    "tictactoe": "b2, or '2 2' for row 2 column 2",
    "connect4": "a column number, like 4",
    "gomoku": "h8, or 7,7 as x,y",
}
#: How the board's labels name a cell: one convention for every game (as on a chess board).
LETTERS_AND_NUMBERS = (
    "Cells: the letter names the column from the left, the number the row from the bottom;\n"
    "a1 is the bottom-left corner, as the labels around the board show."
)
BOARD_CONVENTIONS = {
    "tictactoe": LETTERS_AND_NUMBERS,
    "connect4": "Columns are numbered 1, 2, 3... from the left, as under the board.",
    "gomoku": LETTERS_AND_NUMBERS + " (x,y counts from 0 at the top left.)",
}

#: Words that leave, at the game prompt and at every menu question.
QUIT_WORDS = frozenset({"quit", "exit", "q"})
#: The help line of ``forbidden``, listed for Gomoku only.
FORBIDDEN_HELP = "  forbidden    list black's forbidden points (Renju)\n"

#: The commands that read what follows them; the others refuse extra words.
COMMANDS_WITH_ARGUMENT = frozenset({"save", "load", "undo"})

#: Said when keys typed during a search were thrown away (see ``held_typing``).
TYPED_WHILE_THINKING = "(What you typed while the AI was thinking was ignored.)"

#: The longest input line read (as ``load`` reads 1 MB): a longer one is skipped.
MAX_INPUT_CHARS = 1_000_000

#: Lone surrogates: bytes that did not decode (``surrogateescape``).
_UNDECODABLE = re.compile("[\udc80-\udcff]")

RED = "\033[31m"
YELLOW = "\033[33m"
BOLD = "\033[1m"
RESET = "\033[0m"


class Quit(Exception):
    """The user asked to leave (quit, end of input or Ctrl-C)."""


@dataclass
class Console:
    """Where the session reads and writes; ``colour`` adds ANSI colours to the board.

    A line of input that is not text in the input's encoding (say a byte 0xff
    under UTF-8) is reported by its number and skipped; output that the
    output's encoding cannot show is written as backslash escapes.
    """

    input: TextIO
    output: TextIO
    colour: bool = False
    lines_read: int = 0

    def __post_init__(self) -> None:
        # Undecodable bytes become lone surrogates (found in ``ask``) instead of an
        # exception that leaves the decoder's state unknown.
        if isinstance(self.input, io.TextIOWrapper):
            self.input.reconfigure(errors="surrogateescape")
        if isinstance(self.output, io.TextIOWrapper):
            self.output.reconfigure(errors="backslashreplace")

    def say(self, text: str = "") -> None:
        self.output.write(text + "\n")
        self.output.flush()

    def ask(self, prompt: str) -> str:
        """A line of input; ``Quit`` on end of input or Ctrl-C.

        A line over ``MAX_INPUT_CHARS`` is skipped with a message; one that goes on
        for ever (``< /dev/zero``) ends the input like its end.
        """
        while True:
            try:
                self.output.write(prompt)
                self.output.flush()
                line, cut = read_line(self.input, MAX_INPUT_CHARS)
            except KeyboardInterrupt:
                self.say()
                raise Quit from None
            except EndlessLineError as error:
                self.say()
                self.say(f"Input line {self.lines_read + 1} has no end ({error}); stopping.")
                raise Quit from None
            if not line:
                self.say()
                raise Quit
            self.lines_read += 1
            if cut:
                self.say(
                    f"Input line {self.lines_read} is longer than {MAX_INPUT_CHARS:,} "
                    "characters; it was skipped."
                )
                continue
            if not _UNDECODABLE.search(line):
                return line.strip()
            encoding = getattr(self.input, "encoding", None) or "the input's encoding"
            self.say(f"Input line {self.lines_read} is not {encoding} text; it was skipped.")


def wants_colour(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def colourise(board: str, enabled: bool) -> str:
    """Colour the two players' marks on the board's rows (not the coordinate lines)."""
    if not enabled:
        return board
    coloured = []
    for line in board.splitlines():
        if "X" in line or "O" in line:
            line = line.replace("X", f"{RED}X{RESET}").replace("O", f"{YELLOW}O{RESET}")
        coloured.append(line)
    return "\n".join(coloured)


def format_result(match: Match, result: SearchResult) -> str:
    """``score wins in 3 moves, depth 7, 21,785 nodes, 0.48 s``, then the result's note if any."""
    text = (
        f"score {describe(result.score, solved=result.solved)}, depth {result.depth}, "
        f"{result.nodes:,} nodes, {result.elapsed:.2f} s"
    )
    return f"{text}; {result.note}" if result.note else text


def explain(match: Match) -> str:
    """The ``why`` text for the last AI move."""
    last = match.last_ai_analysis()
    if last is None:
        return "No AI move has been played yet."
    move, result = last
    state = match.state
    lines = [
        f"The AI played {state.format_move(move)}: {format_result(match, result)} "
        f"({result.nodes_per_second:,.0f} nodes/s, {result.cutoffs:,} cut-offs, "
        f"{result.tt_hits:,} table hits).",
    ]
    # The PV starts at the position the AI searched: replay it on a copy from there.
    index = state.moves.index(move) if move in state.moves else None
    if result.pv and index is not None:
        probe = state.copy()
        while probe.ply > index:
            probe.undo()
        words = []
        for pv_move in result.pv:
            try:
                words.append(probe.format_move(pv_move))
                probe.play(pv_move)
            except (IllegalMoveError, NotationError):
                break
        lines.append("Expected line: " + " ".join(words))
        if result.root_scores:
            lines.append(_candidates_line(state, result))
    return "\n".join(lines)


def _candidates_line(state: GameState, result: SearchResult) -> str:
    """``Best candidates: b2 draw, ...``; a solved search lists solved scores only."""
    if result.solved:
        candidates = result.solved_candidates(WHY_CANDIDATES)
    else:
        candidates = result.best_candidates(WHY_CANDIDATES)
    ranked = ", ".join(
        f"{state.format_move(m)} {describe(s, solved=result.solved)}" for m, s in candidates
    )
    if len(candidates) == 1:
        line = f"Best candidate: {ranked}"
    else:
        kind = "" if result.root_scores_exact else " (others are upper bounds)"
        line = f"Best candidates{kind}: {ranked}"
    unsolved = len(result.heuristic_moves) if result.solved else 0
    if unsolved:
        moves = "move was" if unsolved == 1 else "moves were"
        line += f" ({unsolved} other {moves} not searched to the end)"
    return line


def status_line(match: Match) -> str:
    state = match.state
    outcome = state.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return "The game is a draw."
        line = " ".join(_format_line(match, outcome.line))
        who = state.player_names[outcome.winner]
        seat = match.seats[outcome.winner]
        suffix = f" ({seat.describe()})" if match.has_human and seat.is_ai else ""
        return f"{who}{suffix} wins" + (f": {line}." if line else ".")
    who = state.player_names[state.to_move]
    return f"Move {state.ply + 1}: {who} ({match.seat_to_move.describe()}) to move."


def _format_line(match: Match, line: tuple[int, ...]) -> list[str]:
    """Winning cells in words; Connect Four's cells are bit indices, shown as columns."""
    state = match.state
    if match.game == "connect4":
        stride = getattr(state, "stride", 1)
        return [f"{c // stride + 1}/{c % stride + 1}" for c in line]
    return [state.format_move(cell) for cell in line]


def engine_notice(stream: TextIO) -> Callable[[Progress], None]:
    """Shows ``prepare``'s progress on ``stream``: one ticking line on a terminal; else
    the notice once and the end."""
    tty = stream.isatty()
    told = False

    def show(progress: Progress) -> None:
        nonlocal told
        if tty:
            stream.write(f"\r\033[Kabgames: {progress.message}" + ("\n" if progress.done else ""))
        elif progress.done:
            stream.write(f"abgames: {progress.message}\n")
        elif not told:
            stream.write(f"abgames: {progress.notice}…\n")
        told = True
        stream.flush()

    return show


class Session:
    """The prompt loop over one match."""

    def __init__(self, match: Match, console: Console) -> None:
        self.match = match
        self.console = console

    def show_board(self) -> None:
        self.console.say()
        self.console.say(colourise(self.match.state.render(), self.console.colour))
        self.console.say(status_line(self.match))

    def run(self) -> int:
        """Play until the user quits; returns the exit code."""
        try:
            self.show_board()
            while True:
                if self.match.ai_to_move:
                    self.ai_turn()
                    continue
                self.prompt_once()
        except KeyboardInterrupt:
            self.match.stop_thinking()
            self.console.say()
        except Quit:
            pass
        self.console.say("Bye.")
        return 0

    def ai_turn(self) -> None:
        match = self.match
        name = match.state.player_names[match.state.to_move]
        try:
            self.ready_engine(match.seat_to_move.level or DEFAULT_LEVEL[match.game])
            with held_typing(self.console.input) as held:
                result = match.ai_move(on_progress=self.progress_reporter())
        except KeyboardInterrupt:
            match.stop_thinking()
            self.console.say()
            raise Quit from None
        self.clear_progress()
        if held.discarded:
            self.console.say(TYPED_WHILE_THINKING)
        assert result.move is not None
        played = match.state.format_move(result.move)
        self.console.say(f"{name} (AI) plays {played}: {format_result(match, result)}")
        self.show_board()

    def ready_engine(self, level: str) -> None:
        """Compile or load ``level``'s engine before its clock starts, telling on stderr."""
        prepare(self.match.game, level, on_progress=engine_notice(sys.stderr))

    def progress_reporter(self) -> Callable[[SearchResult], None] | None:
        """On a terminal, a callback that shows each completed depth on one line."""
        output = self.console.output
        if not output.isatty():
            return None
        state = self.match.state

        def report(result: SearchResult) -> None:
            if result.move is None and result.note:  # a solver at work: ``solving column 4``
                done = f"{result.note}, {result.nodes:,} nodes, {result.elapsed:.1f} s"
            else:
                best = "-" if result.move is None else state.format_move(result.move)
                done = (
                    f"depth {result.depth}, best {best}, "
                    f"{result.nodes:,} nodes, {result.elapsed:.1f} s"
                )
            output.write(f"\r\033[K  thinking: {done}")
            output.flush()

        return report

    def clear_progress(self) -> None:
        if self.console.output.isatty():
            self.console.output.write("\r\033[K")

    def prompt_once(self) -> None:
        match = self.match
        state = match.state
        prompt = "game over> " if match.is_over else f"{state.player_names[state.to_move]}> "
        text = self.console.ask(prompt)
        if not text:
            self.console.say("Type a move or a command ('help' lists them).")
            return
        word, _, argument = text.partition(" ")
        command = word.lower()
        handler: Callable[[str], None] | None = {
            "quit": self.cmd_quit,
            "exit": self.cmd_quit,
            "q": self.cmd_quit,
            "help": self.cmd_help,
            "?": self.cmd_help,
            "undo": self.cmd_undo,
            "hint": self.cmd_hint,
            "why": self.cmd_why,
            "save": self.cmd_save,
            "load": self.cmd_load,
            "new": self.cmd_new,
            "forbidden": self.cmd_forbidden,
        }.get(command)
        if handler is not None:
            argument = argument.strip()
            if argument and command not in COMMANDS_WITH_ARGUMENT:
                self.console.say(
                    f"{command} takes nothing after it ({clip(argument)!r}): type {command} alone."
                )
                return
            handler(argument)
            return
        self.human_move(text)

    def human_move(self, text: str) -> None:
        match = self.match
        if match.is_over:
            self.console.say("The game is over: type new, undo, save FILE or quit.")
            return
        try:
            move = match.parse(text)
            match.play(move)
        except (IllegalMoveError, NotationError) as error:
            self.console.say(f"{error}.")
            return
        self.show_board()

    # --- commands ----------------------------------------------------------------
    def cmd_quit(self, _: str) -> None:
        raise Quit

    def cmd_help(self, _: str) -> None:
        game = self.match.game
        text = HELP_TEXT.format(example=MOVE_EXAMPLES[game], board=BOARD_CONVENTIONS[game])
        if self.match.game != "gomoku":
            text = text.replace(FORBIDDEN_HELP, "")
        self.console.say(text)

    def cmd_undo(self, argument: str) -> None:
        """``undo`` takes back one turn, ``undo N`` N turns (as many as there are)."""
        turns = ascii_number(argument) if argument else 1
        if turns is None or turns < 1:
            self.console.say(f"undo takes a number of turns, like undo 2, not {clip(argument)!r}.")
            return
        taken: list[Move] = []
        try:
            for _ in range(turns):
                taken.extend(self.match.undo())
        except IllegalMoveError as error:
            if not taken:
                self.console.say(f"{error}.")
                return
        state = self.match.state
        # Moves come back most recent first; name them in the order they were played.
        words = []
        probe = state.copy()
        for move in reversed(taken):
            words.append(probe.format_move(move))
            probe.play(move)
        self.console.say("Took back " + " ".join(words) + ".")
        self.show_board()

    def cmd_hint(self, _: str) -> None:
        match = self.match
        if match.is_over:
            self.console.say("The game is over: there is nothing to hint.")
            return
        try:
            self.ready_engine(HINT_LEVEL[match.game])
            with held_typing(self.console.input) as held:
                result = match.hint()
        except KeyboardInterrupt:
            match.stop_thinking()
            self.console.say("Hint stopped.")
            return
        if held.discarded:
            self.console.say(TYPED_WHILE_THINKING)
        assert result.move is not None
        self.console.say(
            f"Hint: {match.state.format_move(result.move)} ({format_result(match, result)})"
        )

    def cmd_why(self, _: str) -> None:
        self.console.say(explain(self.match))

    def cmd_save(self, argument: str) -> None:
        if not argument:
            self.console.say("Name a file: save FILE.")
            return
        try:
            path = self.match.save(argument)
        except SaveFileError as error:
            self.console.say(f"{error}.")
            return
        self.console.say(f"Saved to {path}.")

    def cmd_load(self, argument: str) -> None:
        if not argument:
            self.console.say("Name a file: load FILE.")
            return
        try:
            loaded = Match.load(argument, seed=self.match.seed)
        except SaveFileError as error:
            self.console.say(f"{error}; the current game goes on.")
            return
        self.match = loaded
        self.console.say(f"Loaded {argument}: {loaded.game}, {loaded.state.ply} moves played.")
        self.show_board()

    def cmd_forbidden(self, _: str) -> None:
        state = self.match.state
        if not isinstance(state, Gomoku):
            self.console.say("Only Renju forbids points.")
            return
        if state.rule is not Rule.RENJU:
            self.console.say(f"Only Renju forbids points; this game is {state.rule.value}.")
            return
        points = sorted(state.forbidden_points().items())
        if not points:
            self.console.say("Black has no forbidden point now.")
            return
        names = [f"{state.format_move(p)} ({kind.replace('_', '-')})" for p, kind in points]
        listing = ", ".join(names)
        self.console.say(f"Black may not play: {listing}.")

    def cmd_new(self, _: str) -> None:
        self.match.restart()
        self.console.say("New game.")
        self.show_board()


# --- the menu ----------------------------------------------------------------------
def choose(console: Console, question: str, options: list[str], default: str) -> str:
    """Ask until one of ``options`` is picked by number or name; Enter takes ``default``."""
    listing = "  ".join(f"{i}) {option}" for i, option in enumerate(options, start=1))
    while True:
        answer = console.ask(f"{question} {listing} [{default}]: ").lower()
        if not answer:
            return default
        if answer in QUIT_WORDS:
            raise Quit
        number = ascii_number(answer)
        if number is not None and 1 <= number <= len(options):
            return options[number - 1]
        if answer in options:
            return answer
        console.say(f"Please choose one of: {', '.join(options)} (or quit).")


def ask_number(console: Console, question: str, low: int, high: int, default: int) -> int:
    while True:
        answer = console.ask(f"{question} ({low}..{high}) [{default}]: ")
        if not answer:
            return default
        if answer.lower() in QUIT_WORDS:
            raise Quit
        number = ascii_number(answer)
        if number is not None and low <= number <= high:
            return number
        console.say(f"Please type a whole number from {low} to {high}.")


def menu_match(console: Console) -> Match:
    """Ask game, mode, who moves first, level and (for Gomoku) rule and size."""
    game = choose(console, "Game?", list(GAMES), "tictactoe")
    mode = choose(console, "Mode?", list(MODES), "human-ai")
    first = HUMAN
    if mode == "human-ai":
        first = choose(console, "Who moves first?", ["human", "ai"], "human")
    level = DEFAULT_LEVEL[game]
    if mode != "human-human":
        level = choose(console, "Level?", list(LEVELS[game]), level)
    options: dict[str, object] = {}
    if game == "gomoku":
        from abgames.games.gomoku import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, Rule

        options["rule"] = choose(console, "Rule?", [r.value for r in Rule], "freestyle")
        options["size"] = ask_number(console, "Board size?", MIN_SIZE, MAX_SIZE, DEFAULT_SIZE)
    return Match(new_state(game, **options), seats_for(mode, first, level))


def run_menu(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """The interactive menu, then the game it sets up."""
    console = Console(stdin or sys.stdin, stdout or sys.stdout)
    console.colour = wants_colour(console.output)
    console.say("abgames: tic-tac-toe, Connect Four and Gomoku against alpha-beta search.")
    try:
        match = menu_match(console)
    except Quit:
        console.say("Bye.")
        return 0
    return Session(match, console).run()


def run_game(
    match: Match, stdin: TextIO | None = None, stdout: TextIO | None = None, colour: bool = False
) -> int:
    console = Console(stdin or sys.stdin, stdout or sys.stdout, colour)
    return Session(match, console).run()
