"""The Gomocup brain, in process: scripted conversations for every command and fault."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from abgames.ai.levels import LEVELS, make_player
from abgames.ai.player import AIPlayer
from abgames.games.base import GameState
from abgames.games.gomoku import Gomoku, Rule
from abgames.protocols.gomocup import (
    MAX_LINE_BYTES,
    MAX_TIME_MS,
    Brain,
    LineWriter,
    default_level,
    rule_from_bits,
    serve,
)
from abgames.protocols.quickmove import quick_move
from abgames.protocols.timing import LATENCY_MARGIN_MS, TimeControl
from abgames.search.result import SearchResult
from conftest import SHARED_DATA, needs_shared_data, shared_json_lines

MOVE = re.compile(r"^\d+,\d+$")


class Conversation:
    """A brain fed line by line; ``say`` returns the lines it answered."""

    def __init__(self, *, debug: bool = False, level: str = "easy") -> None:
        self.out: list[str] = []
        self.brain = Brain(make_player("gomoku", level, 1), self.out.append, debug=debug)
        self.alive = True

    def say(self, *lines: str) -> list[str]:
        start = len(self.out)
        for line in lines:
            self.alive = self.brain.handle(line)
        return self.out[start:]

    def answers(self, *lines: str) -> list[str]:
        """The replies without MESSAGE/DEBUG lines."""
        return [a for a in self.say(*lines) if not a.startswith(("MESSAGE", "DEBUG"))]

    @property
    def state(self) -> Gomoku:
        assert self.brain.state is not None
        return self.brain.state


@pytest.fixture
def talk() -> Conversation:
    conversation = Conversation()
    assert conversation.say("START 15") == ["OK"]
    conversation.say("INFO timeout_turn 300")
    return conversation


def test_start_accepts_playable_sizes_and_refuses_others() -> None:
    c = Conversation()
    assert c.say("START 20") == ["OK"]
    assert c.say("START 4")[0].startswith("ERROR unsupported size 4")
    assert c.say("START 40")[0].startswith("ERROR unsupported size 40")
    assert c.say("START fifteen")[0].startswith("ERROR START size")
    assert c.state.size == 20  # the refused STARTs left the board alone


def test_rectstart_square_only() -> None:
    c = Conversation()
    assert c.say("RECTSTART 12,12") == ["OK"]
    assert c.state.size == 12
    reply = c.say("RECTSTART 20,15")
    assert reply[0].startswith("ERROR rectangular boards")
    assert c.say("RECTSTART 20")[0].startswith("ERROR")


def test_commands_before_start_are_errors() -> None:
    c = Conversation()
    for command in ("BEGIN", "TURN 7,7", "RESTART", "TAKEBACK 7,7", "BOARD", "YXSHOWFORBID"):
        assert c.say(command)[0].startswith("ERROR there is no board yet"), command


def test_begin_plays_a_move_with_messages(talk: Conversation) -> None:
    replies = talk.say("BEGIN")
    assert MOVE.match(replies[-1])
    assert any(r.startswith("MESSAGE depth ") and " pv " in r for r in replies)
    assert talk.state.ply == 1
    assert talk.say("BEGIN")[0].startswith("ERROR BEGIN needs an empty board")


def test_turn_answers_a_move_on_an_empty_point(talk: Conversation) -> None:
    reply = talk.answers("TURN 7,7")
    assert len(reply) == 1 and MOVE.match(reply[0])
    x, y = (int(v) for v in reply[0].split(","))
    assert (x, y) != (7, 7)
    assert talk.state.moves == [talk.state.point(7, 7), talk.state.point(x, y)]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("TURN 7,7", "already taken"),
        ("TURN 15,3", "off the 15x15 board"),
        ("TURN -1,3", "off the 15x15 board"),
        ("TURN a,b", "not a whole number"),
        ("TURN 7", "expected x,y"),
        ("TURN", "expected x,y"),
        ("TURN 1,2,3", "expected x,y"),
    ],
)
def test_malformed_turns_are_errors_and_keep_the_board(
    talk: Conversation, line: str, reason: str
) -> None:
    talk.answers("TURN 7,7")
    before = list(talk.state.moves)
    reply = talk.say(line)
    assert len(reply) == 1 and reply[0].startswith("ERROR") and reason in reply[0]
    assert talk.state.moves == before
    assert MOVE.match(talk.answers("TURN 0,0")[0])  # and it plays on


def test_board_sets_the_position_and_finds_the_side_to_move(talk: Conversation) -> None:
    reply = talk.answers("BOARD", "7,7,2", "8,8,1", "9,9,2", "DONE")
    assert MOVE.match(reply[0])
    state = talk.state
    assert state.ply == 4
    assert state.board[state.point(7, 7)] == 1  # the opponent had one more stone: black
    assert state.board[state.point(8, 8)] == 2
    reply = talk.answers("BOARD", "7,7,1", "8,8,2", "DONE")
    assert MOVE.match(reply[0])
    assert talk.state.board[talk.state.point(7, 7)] == 1  # equal counts: the brain is black


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        (["7,7,3"], "field 3"),
        (["7,7,5"], "the field is 1 or 2"),
        (["7,7"], "expected x,y,field"),
        (["7,x,1"], "not a whole number"),
        (["7,7,1", "7,7,2"], "given twice"),
        (["20,7,1"], "off the 15x15 board"),
        (
            ["0,0,2", "0,1,2", "0,2,2", "0,3,2", "0,4,2", "1,0,1", "1,1,1", "1,2,1", "1,3,1"],
            "the game is over",
        ),
    ],
)
def test_bad_boards_are_errors_and_keep_the_board(
    talk: Conversation, lines: list[str], reason: str
) -> None:
    talk.answers("TURN 7,7")
    before = list(talk.state.moves)
    reply = talk.answers("BOARD", *lines, "DONE")
    assert len(reply) == 1 and reply[0].startswith("ERROR") and reason in reply[0], reply
    assert talk.state.moves == before or reason == "the game is over"


def test_board_without_done_is_an_error_and_the_next_command_runs(talk: Conversation) -> None:
    reply = talk.answers("BOARD", "7,7,1", "ABOUT")
    assert reply[0].startswith("ERROR BOARD ended without DONE")
    assert reply[1].startswith('name="abgames"')
    assert talk.state.ply == 0


def test_board_in_renju_places_stones_without_judging_their_order() -> None:
    """Black's h8 (7,7) listed last would be a double-three if it were played last."""
    c = Conversation()
    c.say("INFO rule 4", "START 15", "INFO timeout_turn 300")
    assert c.state.rule is Rule.RENJU
    black = ["6,7,1", "8,7,1", "7,6,1", "7,8,1", "7,7,1"]
    white = ["0,0,2", "0,14,2", "14,0,2", "14,14,2"]
    reply = c.answers("BOARD", *black, *white, "DONE")
    assert MOVE.match(reply[0]), reply
    state = c.state
    assert state.ply == 10
    assert all(state.board[state.point(x, y)] == 1 for x, y in ((6, 7), (7, 7), (7, 8)))
    assert state.board[state.point(0, 0)] == 2


def test_board_accepts_any_counts_and_the_brain_moves_next() -> None:
    c = Conversation()
    c.say("START 15", "INFO timeout_turn 300")
    # Puzzle style: three own stones, no opponent stone; the brain (black) moves.
    reply = c.answers("BOARD", "5,5,1", "6,5,1", "7,5,1", "DONE")
    assert MOVE.match(reply[0]), reply
    x, y = (int(v) for v in reply[0].split(","))
    state = c.state
    assert state.board[state.point(x, y)] == 1 and state.ply == 4
    assert reply[0] in ("4,5", "8,5")  # it makes its open four
    # The opponent listed first is black: one opponent stone, three own; the brain is white.
    reply = c.answers("BOARD", "7,7,2", "0,0,1", "0,2,1", "0,4,1", "DONE")
    assert MOVE.match(reply[0]), reply
    x, y = (int(v) for v in reply[0].split(","))
    state = c.state
    assert state.board[state.point(7, 7)] == 1 and state.board[state.point(0, 0)] == 2
    assert state.board[state.point(x, y)] == 2
    assert state.to_move == 0


def test_board_refuses_a_five_on_the_board() -> None:
    c = Conversation()
    c.say("START 15", "INFO timeout_turn 300")
    c.answers("TURN 7,7")
    before = list(c.state.moves)
    five = [f"{x},3,2" for x in range(5)]
    reply = c.answers("BOARD", *five, "8,8,1", "DONE")
    assert reply[0].startswith("ERROR BOARD: the opponent already has five in a row"), reply
    assert "0,3 to 4,3" in reply[0] and "the game is over" in reply[0]
    assert c.state.moves == before
    # YXBOARD sets such a position up for the queries that do not move (see below).


def test_info_keys(talk: Conversation) -> None:
    assert (
        talk.say(
            "INFO timeout_turn 1234",
            "INFO timeout_match 60000",
            "INFO time_left 59000",
            "INFO max_memory 83886080",
            "INFO game_type 1",
            "INFO max_depth 3",
            "INFO max_node 100000",
            "INFO folder /tmp/x",
            "INFO evaluate 3,4",
            "INFO something_new 17",
        )
        == []
    )
    brain = talk.brain
    assert brain.clock == TimeControl(1234, 60000, 59000)
    assert (brain.max_depth, brain.max_nodes, brain.folder) == (3, 100000, "/tmp/x")
    assert talk.say("INFO timeout_turn soon")[0].startswith("ERROR INFO timeout_turn")
    assert brain.clock.timeout_turn_ms == 1234


def test_info_rule_bits() -> None:
    assert rule_from_bits(0) is Rule.FREESTYLE
    assert rule_from_bits(1) is Rule.STANDARD
    assert rule_from_bits(2) is Rule.FREESTYLE  # continuous game: not modelled, ignored
    assert rule_from_bits(4) is Rule.RENJU
    assert rule_from_bits(5) is Rule.RENJU
    c = Conversation()
    c.say("START 15")
    assert c.say("INFO rule 8")[0].startswith("ERROR rule 8 is not supported")
    assert c.say("INFO rule 1") == []
    assert c.state.rule is Rule.STANDARD


def test_restart_and_takeback(talk: Conversation) -> None:
    reply = talk.answers("TURN 7,7")
    assert talk.say("TAKEBACK 7,7")[0].startswith("ERROR 7,7 is not the last move")
    assert talk.say(f"TAKEBACK {reply[0]}") == ["OK"]
    assert talk.say("TAKEBACK 7,7") == ["OK"]
    assert talk.state.ply == 0
    assert talk.say("TAKEBACK 7,7")[0].startswith("ERROR")
    talk.answers("TURN 3,3")
    assert talk.say("RESTART") == ["OK"]
    assert talk.state.ply == 0 and talk.state.size == 15


def test_about_unknown_and_end(talk: Conversation) -> None:
    about = talk.say("ABOUT")[0]
    assert re.fullmatch(
        r'name="abgames", version="[^"]+", author="[^"]+", country="[^"]*", www="[^"]*"', about
    )
    assert talk.say("HELLO there") == ["UNKNOWN command 'HELLO'"]
    assert talk.say("") == []
    assert talk.alive
    talk.say("END")
    assert not talk.alive


def test_yxshowforbid_lists_blacks_forbidden_points() -> None:
    c = Conversation()
    c.say("INFO rule 4", "START 15")
    assert c.say("YXSHOWFORBID") == ["FORBID ."]
    # Black 7,7 8,7 and 9,8 9,9: 9,7 would make two open threes.
    c.answers(
        "BOARD", "7,7,1", "0,0,2", "8,7,1", "0,14,2", "9,8,1", "14,0,2", "9,9,1", "14,14,2", "DONE"
    )
    black_to_show = c.state.copy()
    forbidden = black_to_show.forbidden_points()
    assert black_to_show.point(9, 7) in forbidden
    reply = c.say("YXSHOWFORBID")[0]
    assert reply.startswith("FORBID ") and reply.endswith(".")
    pairs = re.findall(r"\d{4}", reply)
    shown = {(int(p[:2]), int(p[2:])) for p in pairs}
    assert (9, 7) in shown
    assert shown == {black_to_show.xy(p) for p in forbidden}
    c2 = Conversation()
    c2.say("START 15")
    assert c2.say("YXSHOWFORBID") == ["FORBID ."]  # no forbidden points in freestyle


def test_after_the_game_is_over_moves_are_errors(talk: Conversation) -> None:
    reply = talk.answers(
        "BOARD", "0,0,2", "0,1,2", "0,2,2", "0,14,2", "5,5,1", "6,6,1", "7,7,1", "8,8,1", "DONE"
    )
    assert reply[0] in ("4,4", "9,9")  # the brain takes its five
    assert talk.state.is_over()
    assert "the game is over" in talk.say("TURN 0,3")[0]
    assert talk.state.ply == 9


def test_debug_lines_only_when_asked() -> None:
    quiet = Conversation()
    quiet.say("START 15")
    assert not any(r.startswith("DEBUG") for r in quiet.say("BEGIN"))
    loud = Conversation(debug=True)
    loud.say("START 15")
    assert any(r.startswith("DEBUG move limit") for r in loud.say("BEGIN"))


class HeldPlayer(AIPlayer):
    """A player whose search yields one result (``move``, depth 1) and then runs until
    ``stop()``: a brain can only answer it by its own deadline. Records its budgets."""

    level = "held"

    def __init__(self, move: int) -> None:
        self.move = move
        self.budgets: list[float] = []
        self.searches = 0
        self.stopped = threading.Event()

    def think(self, state: GameState) -> Iterator[SearchResult]:
        self.searches += 1
        yield SearchResult(move=self.move, score=0, depth=1, nodes=1, elapsed=0.0)
        self.stopped.wait(HANG_GUARD_S)

    def think_within(self, state: GameState, seconds: float) -> Iterator[SearchResult]:
        self.budgets.append(seconds)
        return self.think(state)

    def stop(self) -> None:
        self.stopped.set()


#: How long a test waits before taking a brain for hung (a guard, never a measure).
HANG_GUARD_S = 60.0


def handled(brain: Brain, line: str) -> None:
    """``brain.handle(line)`` in a thread; fails if it does not return (it would hang)."""
    worker = threading.Thread(target=brain.handle, args=(line,), daemon=True)
    worker.start()
    worker.join(HANG_GUARD_S)
    assert not worker.is_alive(), f"{line!r} was not answered"


def test_timeout_turn_zero_plays_at_once() -> None:
    """A turn limit of 0: the instant move, no search started."""
    out: list[str] = []
    player = HeldPlayer(Gomoku().point(0, 0))
    brain = Brain(player, out.append, warm_up=False)
    brain.handle("START 15")
    brain.handle("INFO timeout_turn 0")
    handled(brain, "TURN 7,7")
    state = Gomoku.from_notation("h8")
    assert out[-1] == state.format_gomocup(quick_move(state) or -1)
    assert player.searches == 0


def test_brain_stays_within_a_short_turn_limit() -> None:
    """A search that would run on is stopped at the turn's deadline and its deepest
    result played; it was given the turn less the latency margin, less the slack."""
    out: list[str] = []
    player = HeldPlayer(Gomoku().point(3, 3))
    brain = Brain(player, out.append, warm_up=False)
    brain.handle("START 15")
    brain.handle("INFO timeout_turn 200")
    handled(brain, "TURN 7,7")
    assert [line for line in out if not line.startswith("MESSAGE")][-1] == "3,3"
    assert player.stopped.is_set()  # the brain stopped the search at its deadline
    limit = (200 - LATENCY_MARGIN_MS) / 1000
    assert len(player.budgets) == 1 and 0 < player.budgets[0] <= limit


def test_default_level_is_the_strongest_regular_one() -> None:
    levels = LEVELS["gomoku"]
    assert default_level() == (
        "max" if "max" in levels else "hard" if "hard" in levels else levels[-1]
    )


def test_time_control_budget() -> None:
    assert TimeControl(0).move_limit_seconds() == 0.0
    assert TimeControl(1000).move_limit_seconds() == pytest.approx(
        (1000 - LATENCY_MARGIN_MS) / 1000
    )
    shared = TimeControl(30_000, 60_000, 12_000)
    assert shared.move_limit_seconds(0) < 12.0 / 10  # a share of the time left, not all
    assert shared.think_seconds(0) < shared.move_limit_seconds(0)
    shared.charge(500)
    assert shared.time_left_ms == 11_500
    unlimited = TimeControl(1000, 0)
    unlimited.charge(500)
    assert unlimited.time_left_ms is None


def test_quick_move_wins_then_blocks() -> None:
    state = Gomoku.from_notation("h8 a1 i8 a2 j8 a3 k8 a4")  # both have four; black to move
    assert state.format_move(quick_move(state) or -1) in ("g8", "l8")
    state = Gomoku.from_notation("h8 a1 i8 a2 j8 a3 o15 a4")  # white threatens a5
    assert state.format_move(quick_move(state) or -1) == "a5"
    assert quick_move(Gomoku()) == Gomoku().centre


def test_a_slow_engine_build_does_not_delay_start_or_moves() -> None:
    """The engine is built while START and the first TURN are answered (it is held
    until the end of the test): OK at once, then the instant move."""
    out: list[str] = []
    building, built = threading.Event(), threading.Event()

    def slow_build() -> AIPlayer:
        building.set()
        built.wait(HANG_GUARD_S)
        return make_player("gomoku", "easy", 1)

    brain = Brain(slow_build, out.append)
    try:
        handled(brain, "START 15")
        assert out == ["OK"]
        assert building.wait(HANG_GUARD_S)  # the build runs, off the main thread
        brain.handle("INFO timeout_turn 300")
        handled(brain, "TURN 7,7")
        state = Gomoku.from_notation("h8")
        assert out[-1] == state.format_gomocup(quick_move(state) or -1)
        assert not built.is_set()
    finally:
        built.set()


# --- set-up positions, YXBOARD and Renju forbidden points (issue 9, item 18) ---------
FORBIDDEN_FILE = SHARED_DATA / "gomoku" / "renju_forbidden" / "quintet_forbidden.jsonl"


def forbidden_cases() -> list[dict[str, Any]]:
    return shared_json_lines(FORBIDDEN_FILE)


def stones(case: dict[str, Any], mark: str) -> list[tuple[int, int]]:
    return [
        (x, y) for y, row in enumerate(case["board"]) for x, cell in enumerate(row) if cell == mark
    ]


def shown_points(reply: str) -> set[tuple[int, int]]:
    assert reply.startswith("FORBID ") and reply.endswith("."), reply
    pairs = reply[len("FORBID ") : -1]
    assert len(pairs) % 4 == 0, reply
    return {(int(pairs[i : i + 2]), int(pairs[i + 2 : i + 4])) for i in range(0, len(pairs), 4)}


def case_id(case: dict[str, Any]) -> str:
    query = case.get("query")
    return str(case.get("name", "no-data")) + (f"@{query['move']}" if query else "")


@needs_shared_data
@pytest.mark.parametrize("brain_is_black", [True, False])
@pytest.mark.parametrize("case", forbidden_cases(), ids=case_id)
def test_yxboard_and_yxshowforbid_on_every_forbidden_point_set(
    case: dict[str, Any], brain_is_black: bool
) -> None:
    c = Conversation()
    c.say("INFO rule 4", "START 15")
    own, other = ("1", "2") if brain_is_black else ("2", "1")
    black = [f"{x},{y},{own}" for x, y in stones(case, "X")]
    white = [f"{x},{y},{other}" for x, y in stones(case, "O")]
    assert c.say("YXBOARD", *black, *white, "DONE") == []  # set, not moved
    state = c.state
    assert state.ply == case["black"] + case["white"]
    assert state.to_move == (0 if brain_is_black else 1)
    shown = shown_points(c.say("YXSHOWFORBID")[0])
    if case.get("complete"):
        assert shown == {(f["x"], f["y"]) for f in case["forbidden"]}
    else:
        query = (case["query"]["x"], case["query"]["y"])
        assert (query in shown) == (case["expected"] is not None)
    assert c.state.ply == state.ply  # YXSHOWFORBID changes nothing


@needs_shared_data
@pytest.mark.parametrize("level", ["easy", default_level()])
@pytest.mark.parametrize("case", forbidden_cases(), ids=case_id)
def test_board_with_uneven_counts_lets_black_move_on_every_forbidden_point_set(
    case: dict[str, Any], level: str
) -> None:
    c = Conversation(level=level)
    c.say("INFO rule 4", "START 15", "INFO timeout_turn 150")
    black = [f"{x},{y},1" for x, y in stones(case, "X")]
    white = [f"{x},{y},2" for x, y in stones(case, "O")]
    reply = c.answers("BOARD", *black, *white, "DONE")
    assert len(reply) == 1 and MOVE.match(reply[0]), reply
    x, y = (int(v) for v in reply[0].split(","))
    assert case["board"][y][x] == "."
    forbidden = {(f["x"], f["y"]) for f in case.get("forbidden", [])}
    if case.get("expected"):
        forbidden.add((case["query"]["x"], case["query"]["y"]))
    assert (x, y) not in forbidden
    state = c.state
    assert state.board[state.point(x, y)] == 1  # the brain played black
    assert state.ply == case["black"] + case["white"] + 1


def test_yxboard_sets_a_position_that_moves_and_rules_keep() -> None:
    c = Conversation()
    c.say("START 15", "INFO timeout_turn 300")
    assert c.say("YXBOARD", "7,7,1", "8,8,1", "9,9,1", "DONE") == []
    state = c.state
    assert (state.ply, state.setup_stones, state.to_move) == (3, 3, 0)
    assert state.key == state.compute_key()
    # A rule change keeps the stones and the side to move.
    assert c.say("INFO rule 4") == []
    assert c.state.rule is Rule.RENJU and c.state.ply == 3 and c.state.to_move == 0
    assert c.state.board[c.state.point(8, 8)] == 1
    # Set-up stones are not moves: they cannot be taken back.
    assert c.say("TAKEBACK 9,9")[0].startswith("ERROR 9,9 was set up by BOARD")
    assert c.state.ply == 3
    # YXBOARD without DONE is refused like BOARD.
    reply = c.say("YXBOARD", "1,1,1", "ABOUT")
    assert reply[0].startswith("ERROR YXBOARD ended without DONE")
    assert c.state.ply == 3


# --- errors leave the board as it was (item 4) -----------------------------------------
def test_huge_info_times_are_clamped_and_moves_still_come() -> None:
    c = Conversation()
    c.say("START 15")
    huge = "99999999999999999999"
    assert c.say(f"INFO timeout_turn {huge}", f"INFO timeout_match {huge}") == []
    assert c.say(f"INFO time_left {huge}", "INFO max_depth 1") == []
    clock = c.brain.clock
    assert (clock.timeout_turn_ms, clock.timeout_match_ms) == (MAX_TIME_MS, MAX_TIME_MS)
    assert clock.time_left_ms == MAX_TIME_MS
    reply = c.answers("TURN 7,7")
    assert len(reply) == 1 and MOVE.match(reply[0]), reply
    assert c.state.ply == 2
    assert c.say(f"INFO time_left -{huge}") == []
    assert clock.time_left_ms == -MAX_TIME_MS
    assert MOVE.match(c.answers("TURN 3,3")[0])  # no time left: an instant move


def test_a_turn_that_fails_leaves_the_board_unchanged(talk: Conversation) -> None:
    four = [talk.state.point(0, y) for y in range(4)]
    others = [talk.state.point(9, 9), talk.state.point(10, 10), talk.state.point(11, 11)]
    talk.brain.state = Gomoku.from_position(four, others, 0)  # the opponent (black) to move
    before = list(talk.state.moves)
    reply = talk.say("TURN 0,4")  # completes the opponent's five
    assert reply[0].startswith("ERROR") and "the game is over" in reply[0], reply
    assert talk.state.moves == before and not talk.state.is_over()

    def broken_choose(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the engine fell over")

    talk.brain.thinker.choose = broken_choose  # type: ignore[method-assign,assignment]
    reply = talk.say("TURN 14,14")
    assert reply == ["ERROR internal error: RuntimeError: the engine fell over"]
    assert talk.state.moves == before


# --- input hardening (items 3 and 14) --------------------------------------------------
def test_a_line_that_is_not_utf8_is_an_error_and_the_brain_goes_on() -> None:
    c = Conversation()
    assert c.brain.handle_bytes(b"\xff\n")
    assert c.out[-1].startswith("ERROR the line is not UTF-8 text (byte 0xff at position 0)")
    assert c.brain.handle_bytes(b"START 15\r\n") and c.out[-1] == "OK"
    # Inside BOARD the bad line is kept, so DONE refuses the position.
    c.brain.handle_bytes(b"BOARD\n")
    c.brain.handle_bytes(b"7,7,\xff\n")
    c.brain.handle_bytes(b"DONE\n")
    assert c.out[-1].startswith("ERROR BOARD line"), c.out[-1]
    assert c.state.ply == 0


def test_echoed_input_is_cut() -> None:
    c = Conversation()
    c.say("START 15")
    reply = c.say("X" * 1_000_000)
    assert len(reply) == 1 and reply[0].startswith("UNKNOWN command 'XXX") and len(reply[0]) < 100
    reply = c.say("TURN 1," + "9" * 1_000_000)
    assert reply[0].startswith("ERROR") and len(reply[0]) < 200, reply[0][:200]
    reply = c.say("INFO timeout_turn " + "x" * 100_000)
    assert reply[0].startswith("ERROR INFO timeout_turn") and len(reply[0]) < 200


@pytest.mark.parametrize(
    "line",
    [
        "TURN 1_0,1",
        "TURN ٧,7",
        "TURN 7,７",
        "START ١٥",
        "START +15",
        "START 1 5",
        "RECTSTART 15,-15",
    ],
)
def test_numbers_are_ascii_digits_only(line: str) -> None:
    c = Conversation()
    c.say("START 10", "INFO timeout_turn 100")
    reply = c.say(line)
    assert len(reply) == 1 and reply[0].startswith("ERROR"), reply
    assert "not a whole number" in reply[0]
    assert c.state.ply == 0 and c.state.size == 10
    assert c.say("INFO time_left ١٠٠")[0].startswith("ERROR INFO time_left")
    assert c.say("INFO timeout_turn -5") == []  # a sign is fine where it means something
    assert c.brain.clock.timeout_turn_ms == 0


def test_protocol_errors_name_points_in_x_y() -> None:
    c = Conversation()
    c.say("INFO rule 4", "START 15", "INFO timeout_turn 0")
    black = [c.state.point(x, y) for x, y in ((6, 7), (8, 7), (7, 6), (7, 8))]
    white = [c.state.point(x, y) for x, y in ((0, 0), (0, 14), (14, 0))]
    c.brain.state = Gomoku.from_position(black, white, 0, rule=Rule.RENJU)  # the opponent's turn
    assert c.say("TURN 7,7") == ["ERROR TURN 7,7: double-three at 7,7 is forbidden for black"]
    assert c.say("TURN 6,7") == ["ERROR TURN 6,7: 6,7 is already taken"]
    assert c.state.ply == 7


def test_time_left_binds_without_a_match_limit() -> None:
    clock = TimeControl(5_000, 0, 500)
    assert clock.move_limit_seconds() < 0.5 / 12
    clock.charge(200)
    assert clock.time_left_ms == 300
    c = Conversation(debug=True)
    c.say("START 15", "INFO timeout_match 0", "INFO time_left 500")
    debug = [line for line in c.say("TURN 7,7") if line.startswith("DEBUG move limit")]
    assert debug and float(debug[0].split()[3].rstrip("s,")) < 0.05, debug


class BrokenPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_output_ends_the_brain_quietly(capsys: pytest.CaptureFixture[str]) -> None:
    writer = LineWriter(BrokenPipe())
    brain = Brain(make_player("gomoku", "easy", 1), writer)
    for line in ("START 15", "INFO timeout_turn 300", "BEGIN", "TURN 3,3", "ABOUT"):
        brain.handle(line)  # nothing raises
    assert writer.closed.is_set() and writer.failure is None
    assert "Traceback" not in capsys.readouterr().err
    assert serve("easy", stdin=io.BytesIO(b"START 15\nABOUT\n"), stdout=BrokenPipe()) == 0


# --- finished boards and endless input (issue 48, items 24 and 5) ----------------------
def test_yxboard_sets_up_a_finished_game_for_the_queries_that_do_not_move() -> None:
    c = Conversation()
    c.say("INFO rule 4", "START 15", "INFO timeout_turn 300")
    # The brain (listed first) is black: 7,7 8,7 9,8 9,9 make 9,7 a double-three.
    # White has seven in a row on row 12, which wins for white in Renju.
    black = ["7,7,1", "8,7,1", "9,8,1", "9,9,1"]
    white = [f"{x},12,2" for x in range(7)]
    assert c.say("YXBOARD", *black, *white, "DONE") == []
    assert c.state.is_over() and c.state.ply == 11
    assert c.say("YXSHOWFORBID") == ["FORBID 0907."]
    # Moving in it stays refused, and the board stays as set.
    assert c.say("TURN 10,10") == ["ERROR TURN 10,10: the game is over"]
    assert c.say("BEGIN") == ["ERROR BEGIN needs an empty board: send RESTART or BOARD"]
    reply = c.answers("BOARD", *black, *white, "DONE")
    assert reply[0].startswith("ERROR BOARD: the opponent already has five in a row (0,12 to ")
    assert c.state.ply == 11 and c.state.is_over()
    # Both sides with five cannot be set up at all.
    black_five = [f"{x},2,1" for x in range(5)]
    both = c.say("YXBOARD", *black, *black_five, *white, "DONE")
    assert both == ["ERROR YXBOARD: both sides have five in a row"]
    assert c.state.ply == 11
    # A position without a five still sets up and moves as before.
    assert c.say("YXBOARD", *black, "0,0,2", "DONE") == []
    assert not c.state.is_over()
    assert MOVE.match(c.answers("TURN 14,14")[0])


def test_a_board_of_more_lines_than_points_is_refused_without_keeping_them() -> None:
    c = Conversation()
    c.say("START 5")
    reply = c.say("BOARD", *["0,0,1"] * 10_000, "DONE")
    assert reply == ["ERROR BOARD: 10000 lines, more than the 5x5 board's 25 points"]
    assert c.state.ply == 0
    assert c.say("YXBOARD", "0,0,1", "DONE") == [] and c.state.ply == 1


class RecordingReader(io.BytesIO):
    """Input bytes that remember the longest piece handed out by one ``readline``."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.longest = 0

    def readline(self, size: int | None = -1, /) -> bytes:
        piece = super().readline(size)
        self.longest = max(self.longest, len(piece))
        return piece


def test_a_line_over_the_cap_is_an_error_and_skipped_without_holding_it() -> None:
    source = RecordingReader(
        b"START 15\n"
        + b"X" * MAX_LINE_BYTES  # just within the cap: an unknown command
        + b"\n"
        + b"START "
        + b"1" * (5 * MAX_LINE_BYTES)  # over it
        + b"\nBOARD\n7,7,1\n"
        + b"8,8,"
        + b"2" * MAX_LINE_BYTES  # inside BOARD: DONE refuses the board
        + b"\nDONE\nABOUT\n"
    )
    out = io.StringIO()
    assert serve("easy", stdin=source, stdout=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "OK"
    assert lines[1].startswith("UNKNOWN command 'XXX")
    assert lines[2] == f"ERROR the line is longer than {MAX_LINE_BYTES:,} bytes; it is ignored"
    assert lines[3] == (
        f"ERROR BOARD line '(a line of more than {MAX_LINE_BYTES:,} bytes)': expected x,y,field"
    )
    assert lines[4].startswith('name="abgames"') and len(lines) == 5
    assert source.longest <= MAX_LINE_BYTES + 1


def test_endless_input_without_a_newline_is_read_in_bounded_pieces() -> None:
    source = RecordingReader(bytes(16 * 1024 * 1024))  # /dev/zero, cut at 16 MB
    out = io.StringIO()
    assert serve("easy", stdin=source, stdout=out) == 0
    expected = f"ERROR the line is longer than {MAX_LINE_BYTES:,} bytes; it is ignored"
    assert out.getvalue().splitlines() == [expected]
    assert source.longest <= MAX_LINE_BYTES + 1
