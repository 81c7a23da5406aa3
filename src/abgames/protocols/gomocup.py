"""The Gomocup "pbrain" engine: abgames as a brain for Piskvork, c-gomoku-cli and friends.

A manager writes one command a line on stdin; the brain answers on stdout, one
line at a time, flushed at once. Coordinates are Gomocup's ``x,y`` (column from
the left, row from the top, from 0).

Contract of ``Brain.handle``:

- ``START n`` answers ``OK``, or ``ERROR`` for a size abgames cannot play;
  ``RECTSTART w,h`` answers ``OK`` for a square board and ``ERROR`` otherwise.
  ``serve`` starts loading the engine's compiled code when the process starts, and
  the first ``START`` answers once it is loaded (at most ``START_WAIT_SECONDS``), so
  that the first move is a real search; when the code is being compiled (a cold
  cache: half a minute) ``OK`` comes at once and moves are instant ones until the
  compile is done (see ``abgames.protocols.preload``).
- ``BEGIN``, ``TURN x,y`` and ``BOARD`` ... ``DONE`` answer the brain's move ``x,y``
  (``MESSAGE`` lines with depth, score and principal variation may come first).
  In ``BOARD`` a stone is ``x,y,1`` (the brain's) or ``x,y,2`` (the opponent's).
  The stones are placed, not played: any counts are accepted (a puzzle, an
  analysis position) and no Renju restriction is checked while setting up; a five
  on the board is an ``ERROR``. The brain moves next; the owner of the first stone
  listed is black (managers list the stones in move order), the brain is black on
  an empty board. Field 3 (continuous game) is refused with ``ERROR``.
  ``YXBOARD`` ... ``DONE`` (Yixin-Board, Rapfi) sets the same position without
  moving and answers nothing (``ERROR`` if it cannot); a position where one side
  already has five is set up too, for the queries that do not move
  (``YXSHOWFORBID``), while moving in it (``TURN``, ``BEGIN``) is refused.
  More lines than the board has points are refused at ``DONE`` (and not kept).
- ``INFO key value`` answers nothing; unknown keys are ignored. Times beyond
  ``MAX_TIME_MS`` are taken as ``MAX_TIME_MS``.
- ``RESTART`` clears the board (``OK``); ``TAKEBACK x,y`` takes back the last
  move (``OK``); ``ABOUT`` describes the brain; ``END`` ends it, as does the end of
  stdin. ``YXSHOWFORBID`` answers ``FORBID`` with black's forbidden points as
  ``xxyy`` and a final ``.``.
- An unknown command answers ``UNKNOWN``; a malformed one answers ``ERROR`` with
  the reason (points in ``x,y``, echoed input cut to ``MAX_ECHO_CHARS``) and
  leaves the board as it was, also when the failure comes after the opponent's
  stone was placed. Numbers are ASCII digits, with a sign where one means something
  (points, INFO values). A line that is not UTF-8 answers ``ERROR``. Nothing else
  ever reaches stdout: an unexpected failure is reported as ``ERROR internal
  error`` (details on stderr when debugging). When stdout is gone (a closed
  pipe) the brain ends quietly. ``serve`` reads a line of at most
  ``MAX_LINE_BYTES``: a longer one answers ``ERROR`` and is skipped in pieces,
  so endless input without a newline holds no more memory than that.

Thinking happens in a worker thread watched by the main thread
(``abgames.protocols.thinker``): when the move limit (see
``abgames.protocols.timing``) arrives the search is stopped and the best move so
far is played, or an instant move if the search has none yet. The command line
(``abgames pbrain``, ``pbrain-abgames``) is ``abgames.commands.pbrain``.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import BinaryIO, TextIO

from abgames import __version__
from abgames.ai.levels import LEVELS, make_player
from abgames.ai.player import AIPlayer
from abgames.games.base import IllegalMoveError, Move
from abgames.games.gomoku import BLACK_STONE, EMPTY, MAX_SIZE, MIN_SIZE, WHITE_STONE, Gomoku, Rule
from abgames.protocols.preload import KernelPreload
from abgames.protocols.thinker import NoMoveError, Thinker
from abgames.protocols.timing import TimeControl
from abgames.search.result import SearchResult

GAME = "gomoku"
#: Level used when none is asked for: the first of these the game offers, else its last.
PREFERRED_LEVELS = ("max", "hard")
#: INFO rule bits (Gomocup): exactly five, continuous game, Renju.
RULE_EXACT_FIVE = 1
RULE_CONTINUOUS = 2
RULE_RENJU = 4
KNOWN_RULE_BITS = RULE_EXACT_FIVE | RULE_CONTINUOUS | RULE_RENJU
#: BOARD fields.
FIELD_OWN = 1
FIELD_OPPONENT = 2
FIELD_CONTINUOUS = 3
ABOUT_FIELDS = {
    "name": "abgames",
    "version": __version__,
    "author": "the abgames authors",
    "country": "-",
    "www": "-",
}
COMMANDS = (
    "START",
    "RECTSTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "INFO",
    "RESTART",
    "TAKEBACK",
    "END",
    "ABOUT",
    "YXBOARD",
    "YXSHOWFORBID",
)
INTEGER_INFO_KEYS = (
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "game_type",
    "rule",
    "max_depth",
    "max_node",
)
#: INFO keys holding milliseconds; their values are clamped to +-MAX_TIME_MS.
TIME_INFO_KEYS = ("timeout_turn", "timeout_match", "time_left")
#: The longest time the brain takes from INFO (2^31 - 1 ms, about 24.8 days: the
#: largest a 32-bit manager sends; Rapfi reads ``time_left`` 2147483647 as "no limit").
MAX_TIME_MS = 2**31 - 1
#: Echoed input (unknown commands, bad values) is cut to this many characters.
MAX_ECHO_CHARS = 40
#: A longer input line is answered ``ERROR`` and skipped, read in pieces of at most
#: this size (endless input without a newline, ``pbrain < /dev/zero``, holds no more).
MAX_LINE_BYTES = 64 * 1024
#: A number longer than this (not counting leading zeros) is refused, not converted.
MAX_NUMBER_DIGITS = 100
#: The longest ``START`` waits for the compiled code to load from the cache (seconds):
#: a load takes about a second; an unexpectedly slow one still answers in time for a
#: manager (the move then waits for the rest, out of its own limit).
START_WAIT_SECONDS = 5.0
#: Whitespace the protocol knows: ASCII only.
ASCII_SPACE = " \t\r\n\x0b\x0c"
_SIGNED_NUMBER = re.compile(r"[+-]?[0-9]+")
_UNSIGNED_NUMBER = re.compile(r"[0-9]+")


class ProtocolError(ValueError):
    """A command the brain cannot carry out; the message becomes the ``ERROR`` reason."""


def default_level() -> str:
    """The strongest regular Gomoku level offered now (read at run time)."""
    levels = LEVELS[GAME]
    for level in PREFERRED_LEVELS:
        if level in levels:
            return level
    return levels[-1]


def rule_from_bits(bits: int) -> Rule:
    """The rule of an INFO ``rule`` bitmask; ``ProtocolError`` for unknown bits."""
    if bits < 0 or bits & ~KNOWN_RULE_BITS:
        raise ProtocolError(f"rule {bits} is not supported (known bits: 1, 2, 4)")
    if bits & RULE_RENJU:
        return Rule.RENJU
    if bits & RULE_EXACT_FIVE:
        return Rule.STANDARD
    return Rule.FREESTYLE


def quote(text: str) -> str:
    """``text`` quoted for a reply: cut to ``MAX_ECHO_CHARS``, non-ASCII escaped."""
    if len(text) > MAX_ECHO_CHARS:
        return ascii(text[:MAX_ECHO_CHARS]) + "..."
    return ascii(text)


def parse_int(text: str, what: str, *, signed: bool = True) -> int:
    """A whole number in ASCII digits (``+``/``-`` first when ``signed``), or ``ProtocolError``.

    Other digits ("١٥"), underscores ("1_0") and inner spaces are refused.
    """
    cleaned = text.strip(ASCII_SPACE)
    pattern = _SIGNED_NUMBER if signed else _UNSIGNED_NUMBER
    if not pattern.fullmatch(cleaned):
        kind = "a whole number" if signed else "a whole number (digits 0-9 only)"
        raise ProtocolError(f"{what}: {quote(cleaned)} is not {kind}")
    if len(cleaned.lstrip("+-").lstrip("0")) > MAX_NUMBER_DIGITS:
        raise ProtocolError(f"{what}: a number of more than {MAX_NUMBER_DIGITS} digits")
    return int(cleaned)


def parse_xy(text: str, what: str = "point", *, signed: bool = True) -> tuple[int, int]:
    """``"x,y"`` as two integers, or ``ProtocolError``."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ProtocolError(f"{what}: expected x,y, got {quote(text.strip(ASCII_SPACE))}")
    return parse_int(parts[0], what, signed=signed), parse_int(parts[1], what, signed=signed)


def clamp_ms(value: int) -> int:
    """``value`` (milliseconds) within ``-MAX_TIME_MS .. MAX_TIME_MS``."""
    return max(-MAX_TIME_MS, min(MAX_TIME_MS, value))


def why_not_playable(state: Gomoku, point: Move) -> str | None:
    """Why the side to move cannot play ``point`` now, in ``x,y`` notation; ``None`` if it can."""
    x, y = state.xy(point)
    if state.is_over():
        return "the game is over"
    if state.board[point] != EMPTY:
        return f"{x},{y} is already taken"
    if state.to_move == 0:
        kind = state.forbidden_kind(point)
        if kind is not None:
            return f"{kind.replace('_', '-')} at {x},{y} is forbidden for black"
    return None


def format_pv(state: Gomoku, pv: Sequence[Move]) -> str:
    return " ".join(state.format_gomocup(move) for move in pv)


class Brain:
    """The engine side of the protocol: one instance per process, fed line by line.

    ``player`` is the AI, or a factory for it that is called in the background
    after the first ``START`` (see ``Thinker``); ``send`` writes one reply line.
    ``kernels``, when given, is the load of the player's compiled code that
    ``START`` and the moves wait for (see the module docstring).
    """

    def __init__(
        self,
        player: AIPlayer | Callable[[], AIPlayer],
        send: Callable[[str], None],
        *,
        debug: bool = False,
        warm_up: bool = True,
        kernels: KernelPreload | None = None,
    ) -> None:
        self.send = send
        self.debug = debug
        self.warm_up = warm_up
        self.kernels = kernels
        self.thinker = Thinker(player, self._report, kernels)
        self.state: Gomoku | None = None
        self.rule = Rule.FREESTYLE
        self.clock = TimeControl()
        self.max_depth: int | None = None
        self.max_nodes: int | None = None
        self.folder: str | None = None
        self._board_lines: list[str] | None = None
        self._board_lines_dropped = 0  # beyond a point a line each: DONE refuses them
        self._board_command = "BOARD"  # or YXBOARD: set the position without moving
        self._answered = threading.Lock()
        self._handlers: dict[str, Callable[[str], None]] = {
            "START": self._start,
            "RECTSTART": self._rectstart,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "BOARD": self._board,
            "YXBOARD": self._yxboard,
            "INFO": self._info,
            "RESTART": self._restart,
            "TAKEBACK": self._takeback,
            "ABOUT": self._about,
            "YXSHOWFORBID": self._show_forbid,
        }

    # --- input -----------------------------------------------------------------
    def handle_bytes(self, raw: bytes) -> bool:
        """``handle`` for a line as read from a byte stream (UTF-8 expected).

        A line that is not UTF-8 answers ``ERROR`` and is otherwise ignored; inside
        ``BOARD`` it is kept (undecodable bytes replaced), so ``DONE`` refuses it.
        """
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            if self._board_lines is not None:
                return self.handle(raw.decode("utf-8", errors="replace"))
            self.send(
                f"ERROR the line is not UTF-8 text (byte 0x{raw[error.start]:02x} "
                f"at position {error.start}); it is ignored"
            )
            return True
        return self.handle(text)

    def handle(self, line: str) -> bool:
        """Carry out one input line; ``False`` once the brain should exit (``END``)."""
        text = line.strip(ASCII_SPACE)
        if not text:
            return True
        word, _, rest = text.partition(" ")
        command = word.upper()
        if self._board_lines is not None:
            if command == "DONE":
                self._run(self._board_done, "")
                return True
            if command not in COMMANDS:
                self._keep_board_line(text)
                return True
            self._board_lines = None
            self.send(f"ERROR {self._board_command} ended without DONE; the board is unchanged")
        if command == "END":
            return False
        handler = self._handlers.get(command)
        if handler is None:
            self.send(f"UNKNOWN command {quote(word)}")
            return True
        self._run(handler, rest.strip(ASCII_SPACE))
        return True

    def refuse_long_line(self) -> None:
        """A line longer than ``MAX_LINE_BYTES``, skipped by the reader unread.

        It answers ``ERROR``; inside ``BOARD`` it is kept as a line ``DONE`` refuses.
        """
        if self._board_lines is not None:
            self._keep_board_line(f"(a line of more than {MAX_LINE_BYTES:,} bytes)")
            return
        self.send(f"ERROR the line is longer than {MAX_LINE_BYTES:,} bytes; it is ignored")

    def _keep_board_line(self, text: str) -> None:
        """Keep a ``BOARD`` line, up to one a point of the board; count the rest."""
        assert self._board_lines is not None
        size = self.state.size if self.state is not None else MAX_SIZE
        if len(self._board_lines) < size * size:
            self._board_lines.append(text)
        else:
            self._board_lines_dropped += 1

    def _run(self, handler: Callable[[str], None], argument: str) -> None:
        try:
            handler(argument)
        except (ProtocolError, NoMoveError) as error:
            self.send(f"ERROR {error}")
        except Exception as error:  # never a traceback on stdout
            self.send(f"ERROR internal error: {type(error).__name__}: {error}")
            if self.debug:
                traceback.print_exc(file=sys.stderr)

    def _debug(self, text: str) -> None:
        if self.debug:
            self.send(f"DEBUG {text}")

    def _need_state(self) -> Gomoku:
        if self.state is None:
            raise ProtocolError("there is no board yet: send START first")
        return self.state

    def _point(self, text: str, command: str) -> Move:
        state = self._need_state()
        x, y = parse_xy(text, command)
        if not state.on_board(x, y):
            raise ProtocolError(f"{x},{y} is off the {state.size}x{state.size} board")
        return state.point(x, y)

    def _answer_or_restore(self, previous: Gomoku | None, state: Gomoku) -> None:
        """Answer a move in ``state`` (made current); on any failure go back to ``previous``.

        ``previous`` is ``None`` when ``state`` is the current state with the
        opponent's stone just played: the failure then takes that stone back.
        """
        ply = state.ply
        if previous is not None:
            self.state = state
        try:
            self._answer()
        except BaseException:
            if previous is not None:
                self.state = previous
            elif state.ply == ply:
                state.undo()
            raise

    # --- commands --------------------------------------------------------------
    def _start(self, argument: str) -> None:
        size = parse_int(argument, "START size", signed=False)
        self._new_board(size)

    def _rectstart(self, argument: str) -> None:
        width, height = parse_xy(argument, "RECTSTART size", signed=False)
        if width != height:
            raise ProtocolError(f"rectangular boards ({width}x{height}) are not supported")
        self._new_board(width)

    def _new_board(self, size: int) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"unsupported size {size}: boards are {MIN_SIZE}..{MAX_SIZE}")
        self.state = Gomoku(size, self.rule)
        ready = self.kernels is None or self.kernels.wait_unless_compiling(START_WAIT_SECONDS)
        self.send("OK")
        if self.warm_up and ready:
            self.warm_up = False
            practice = Gomoku(size, self.rule)
            practice.play(practice.centre)
            self.thinker.warm_up(practice)

    def _restart(self, argument: str) -> None:
        state = self._need_state()
        self.state = Gomoku(state.size, self.rule)
        self.send("OK")

    def _begin(self, argument: str) -> None:
        state = self._need_state()
        if state.moves:
            raise ProtocolError("BEGIN needs an empty board: send RESTART or BOARD")
        self._answer()

    def _turn(self, argument: str) -> None:
        state = self._need_state()
        point = self._point(argument, "TURN")
        reason = why_not_playable(state, point)
        if reason is not None:
            x, y = state.xy(point)
            raise ProtocolError(f"TURN {x},{y}: {reason}")
        state.play(point)
        self._answer_or_restore(None, state)

    def _takeback(self, argument: str) -> None:
        state = self._need_state()
        point = self._point(argument, "TAKEBACK")
        x, y = state.xy(point)
        if state.last_move != point:
            raise ProtocolError(f"{x},{y} is not the last move played")
        if state.ply <= state.setup_stones:
            raise ProtocolError(f"{x},{y} was set up by BOARD, not played: it cannot be taken back")
        state.undo()
        self.send("OK")

    def _board(self, argument: str) -> None:
        self._need_state()
        self._board_command = "BOARD"
        self._board_lines = []
        self._board_lines_dropped = 0

    def _yxboard(self, argument: str) -> None:
        self._need_state()
        self._board_command = "YXBOARD"
        self._board_lines = []
        self._board_lines_dropped = 0

    def _board_done(self, argument: str) -> None:
        lines, self._board_lines = self._board_lines or [], None
        command = self._board_command
        state = self._need_state()
        if self._board_lines_dropped:
            raise ProtocolError(
                f"{command}: {len(lines) + self._board_lines_dropped} lines, "
                f"more than the {state.size}x{state.size} board's {state.size**2} points"
            )
        if command == "YXBOARD":  # set up even a finished game: YXSHOWFORBID asks of any
            self.state = self._set_up(command, lines, finished=True)
            return
        self._answer_or_restore(state, self._set_up(command, lines, finished=False))

    def _set_up(self, command: str, lines: list[str], *, finished: bool) -> Gomoku:
        """The position the ``x,y,field`` lines describe, the brain to move (see the module doc).

        A position where one side already has five in a row is refused unless
        ``finished`` allows it (moving in it is refused then, by ``TURN`` and ``BEGIN``).
        """
        state = self._need_state()
        own: list[Move] = []
        opponent: list[Move] = []
        seen: set[Move] = set()
        first_field = FIELD_OWN  # on an empty board the brain is black
        for line in lines:
            parts = line.split(",")
            what = f"{command} line {quote(line)}"
            if len(parts) != 3:
                raise ProtocolError(f"{what}: expected x,y,field")
            x, y = parse_xy(",".join(parts[:2]), what)
            field = parse_int(parts[2], what, signed=False)
            if not state.on_board(x, y):
                raise ProtocolError(
                    f"{command}: {x},{y} is off the {state.size}x{state.size} board"
                )
            if field == FIELD_CONTINUOUS:
                raise ProtocolError(f"{command} field 3 (continuous game) is not supported")
            if field not in (FIELD_OWN, FIELD_OPPONENT):
                raise ProtocolError(f"{what}: the field is 1 or 2, not {field}")
            point = state.point(x, y)
            if point in seen:
                raise ProtocolError(f"{command}: {x},{y} is given twice")
            if not seen:
                first_field = field
            seen.add(point)
            (own if field == FIELD_OWN else opponent).append(point)
        brain_is_black = first_field == FIELD_OWN
        black, white = (own, opponent) if brain_is_black else (opponent, own)
        try:
            rebuilt = Gomoku.from_position(
                black, white, 0 if brain_is_black else 1, size=state.size, rule=self.rule
            )
        except IllegalMoveError:
            raise ProtocolError(f"{command}: both sides have five in a row") from None
        outcome = rebuilt.outcome()
        if outcome is not None and outcome.winner is not None and not finished:
            ends = " to ".join(
                "{},{}".format(*rebuilt.xy(p)) for p in (outcome.line[0], outcome.line[-1])
            )
            side = "the brain" if (outcome.winner == 0) == brain_is_black else "the opponent"
            raise ProtocolError(
                f"{command}: {side} already has five in a row ({ends}): the game is over"
            )
        return rebuilt

    def _info(self, argument: str) -> None:
        key, _, value = argument.partition(" ")
        key = key.lower()
        value = value.strip(ASCII_SPACE)
        if key == "folder":
            self.folder = value
            return
        if key not in INTEGER_INFO_KEYS:
            return  # unknown keys are ignored, as the protocol asks
        number = parse_int(value, f"INFO {key}")
        if key in TIME_INFO_KEYS:
            number = clamp_ms(number)
        if key == "timeout_turn":
            self.clock.timeout_turn_ms = max(0, number)
        elif key == "timeout_match":
            self.clock.timeout_match_ms = max(0, number)
        elif key == "time_left":
            self.clock.time_left_ms = number
        elif key == "rule":
            self._set_rule(rule_from_bits(number))
        elif key == "max_depth":
            self.max_depth = number if number > 0 else None
        elif key == "max_node":
            self.max_nodes = number if number > 0 else None
        # max_memory and game_type are accepted and not used

    def _set_rule(self, rule: Rule) -> None:
        """Take ``rule`` for this game and the next ones.

        The stones on the board stay, placed anew under the rule (as ``BOARD``
        places them): moves played before cannot be taken back afterwards.
        """
        self.rule = rule
        state = self.state
        if state is None or rule is state.rule:
            return
        black = [p for p in state.moves if state.board[p] == BLACK_STONE]
        white = [p for p in state.moves if state.board[p] == WHITE_STONE]
        try:
            self.state = Gomoku.from_position(
                black, white, state.to_move, size=state.size, rule=rule
            )
        except IllegalMoveError:
            raise ProtocolError(
                f"rule {rule.value}: both sides would have five in a row on this board, "
                "which keeps its old rule until RESTART, START or BOARD"
            ) from None

    def _about(self, argument: str) -> None:
        self.send(", ".join(f'{key}="{value}"' for key, value in ABOUT_FIELDS.items()))

    def _show_forbid(self, argument: str) -> None:
        state = self._need_state()
        points = sorted(state.forbidden_points(), key=lambda p: state.xy(p))
        pairs = "".join(f"{x:02d}{y:02d}" for x, y in (state.xy(p) for p in points))
        self.send(f"FORBID {pairs}.")

    # --- thinking --------------------------------------------------------------
    def _answer(self) -> None:
        state = self._need_state()
        if state.outcome() is not None:
            raise ProtocolError("the game is over: there is no move to make")
        own_moves = state.ply // 2
        limit = self.clock.move_limit_seconds(own_moves)
        think = self.clock.think_seconds(own_moves)
        self._debug(f"move limit {limit:.3f}s, search budget {think:.3f}s")
        started = time.perf_counter()
        move, result = self.thinker.choose(
            state, limit, think, max_depth=self.max_depth, max_nodes=self.max_nodes
        )
        with self._answered:  # no MESSAGE from a late search after the move
            state.play(move)
            self.clock.charge((time.perf_counter() - started) * 1000.0)
            self.send(state.format_gomocup(move))
        if result is None:
            self._debug("answered with an instant move")

    def _report(self, result: SearchResult, position: Gomoku) -> None:
        with self._answered:
            if self.state is None or self.state.moves != position.moves:
                return  # the move has been played: this result came too late
            self.send(
                f"MESSAGE depth {result.depth} score {result.describe_score()} "
                f"nodes {result.nodes} time {result.elapsed:.2f}s "
                f"pv {format_pv(position, result.pv)}"
            )


class LineWriter:
    """A ``send`` that writes one line and flushes at once, from any thread.

    When the output is gone (the reader closed the pipe, stdout is closed or
    missing) the line is dropped and ``closed`` is set; ``failure`` keeps an error
    worth reporting (not a closed pipe, which is how a reader says it is done).
    """

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.closed = threading.Event()
        self.failure: OSError | None = None
        self._lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self._lock:
            if self.closed.is_set():
                return
            if self.stream is None:
                self.closed.set()
                return
            try:
                self.stream.write(line + "\n")
                self.stream.flush()
            except BrokenPipeError:
                self._close()
            except ValueError:  # the stream was closed
                self._close()
            except OSError as error:
                self.failure = error
                self._close()

    def _close(self) -> None:
        """Stop writing; point the descriptor at /dev/null so exiting does not flush into it."""
        self.closed.set()
        try:
            assert self.stream is not None
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AssertionError):
            pass  # not a real file (a test's buffer), or already gone


def _skip_rest_of_line(source: BinaryIO | TextIO) -> None:
    """Read past the next newline (or to the end of input), ``MAX_LINE_BYTES`` at a time."""
    while True:
        piece = source.readline(MAX_LINE_BYTES)
        if not piece or _ends_line(piece):
            return


def _ends_line(piece: bytes | str) -> bool:
    return piece.endswith(b"\n") if isinstance(piece, bytes) else piece.endswith("\n")


def serve(
    level: str | None = None,
    *,
    debug: bool = False,
    seed: int | None = None,
    stdin: BinaryIO | TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run a brain on stdin/stdout until ``END``, the end of input or of output; the exit status.

    stdin is read as bytes (so a line that is not UTF-8 is answered, not fatal).
    """
    source: BinaryIO | TextIO | None = stdin
    if source is None and sys.stdin is not None:
        source = sys.stdin.buffer
    chosen = level or default_level()
    if chosen not in LEVELS[GAME]:
        raise ValueError(f"gomoku has no level {chosen!r}: choose {', '.join(LEVELS[GAME])}")

    def build() -> AIPlayer:
        return make_player(GAME, chosen, seed)

    kernels = KernelPreload(GAME, chosen)  # from now on, while commands are read
    writer = LineWriter(stdout if stdout is not None else sys.stdout)
    brain = Brain(build, writer, debug=debug, kernels=kernels)
    while source is not None and not writer.closed.is_set():
        line = source.readline(MAX_LINE_BYTES + 1)
        if not line:
            break
        if len(line) > MAX_LINE_BYTES and not _ends_line(line):
            brain.refuse_long_line()
            _skip_rest_of_line(source)
            continue
        alive = brain.handle_bytes(line) if isinstance(line, bytes) else brain.handle(line)
        if not alive:
            break
    if writer.failure is not None:
        print(f"abgames pbrain: cannot write the replies: {writer.failure}", file=sys.stderr)
        return 1
    return 0
