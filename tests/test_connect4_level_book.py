"""The level book: slots, the file format, the search's lookup, the builder and its command."""

from __future__ import annotations

import itertools
import random
import struct
import warnings
import zlib
from pathlib import Path

import numpy as np
import pytest

from abgames.ai.connect4 import kernel
from abgames.ai.connect4 import level_book as level_module
from abgames.ai.connect4.book import BookError
from abgames.ai.connect4.book_builder import positions_by_ply
from abgames.ai.connect4.level_book import (
    DEFAULT_LEVEL_DISCS,
    HEADER,
    NO_POSITION,
    UNSCORED,
    LevelBook,
    canonical_shape_codes,
    dumps,
    level_index,
    load,
    load_default_level,
    loads,
    reachable,
    save,
)
from abgames.ai.connect4.level_builder import (
    LevelBuildError,
    build_level,
    centre_first_shapes,
    centre_weight,
    tasks_to_do,
)
from abgames.ai.connect4.perfect import PerfectPlayer, to_search_score
from abgames.ai.connect4.position import Position, mirror_bits, random_game
from abgames.ai.connect4.solver import Solver
from abgames.cli import main
from abgames.games.connect4 import ConnectFour

#: A 10-disc position whose exact solve takes about a million nodes, and its score.
DEEP_ROOT = "1571711647"
DEEP_SCORE = 4
#: Most nodes its solve may take once every position two discs later is in the level.
SHALLOW_NODES = 2_000
#: Slots a test build solves (a few seconds).
SLOTS_TRIED = 200


def mirrored(position: Position) -> Position:
    return Position(mirror_bits(position.current), mirror_bits(position.mask), position.moves)


def test_index_sizes_follow_from_the_shapes_and_patterns() -> None:
    index = level_index(DEFAULT_LEVEL_DISCS)
    assert len(index.patterns) == 924  # C(12, 6)
    assert index.slots == index.shapes * 924
    for shape in range(index.shapes):
        heights = index.heights(shape)
        assert sum(heights) == DEFAULT_LEVEL_DISCS
        assert all(0 <= height <= 6 for height in heights)


def test_the_canonical_shapes_are_every_height_vector_not_above_its_mirror_image() -> None:
    expected: dict[int, list[int]] = {}
    for heights in itertools.product(range(7), repeat=7):
        code = sum(height * 7**column for column, height in enumerate(heights))
        mirror = sum(height * 7**column for column, height in enumerate(reversed(heights)))
        if code <= mirror:
            expected.setdefault(sum(heights), []).append(code)
    for discs in range(43):
        assert canonical_shape_codes(discs).tolist() == sorted(expected.get(discs, []))
    assert len(canonical_shape_codes(DEFAULT_LEVEL_DISCS)) == 7_702


@pytest.mark.parametrize("discs", [1, 2, 3, 4, 5, 6])
def test_every_slot_decodes_to_a_board_that_encodes_back(discs: int) -> None:
    index = level_index(discs)
    for slot in range(index.slots):
        current, mask = index.board(slot)
        board = Position(current, mask, discs)
        assert index.slot(board) == slot
        # A mirror image shares the slot, unless its shape is symmetric (both kept).
        image = mirrored(board)
        if image.mask != board.mask:
            assert index.slot(image) == slot


@pytest.mark.parametrize("discs", [2, 4, 5, 7])
def test_the_slots_with_positions_are_exactly_the_positions_games_reach(discs: int) -> None:
    """Against an enumeration of real games (``positions_by_ply``), mirror images included."""
    index = level_index(discs)
    reached: set[int] = set()
    for moves in positions_by_ply("", discs)[-1].values():
        position = Position.parse(moves)
        for image in (position, mirrored(position)):
            slot = index.slot(image)
            assert slot is not None
            reached.add(slot)
    classified = {slot for slot in range(index.slots) if index.position(slot) is not None}
    assert classified == reached


def test_a_board_with_the_wrong_counts_of_discs_has_no_slot() -> None:
    index = level_index(4)
    four_of_one_side = Position.parse("1234").mask  # all four discs the side to move's
    assert index.slot(Position(four_of_one_side, four_of_one_side, 4)) is None
    assert index.slot(Position.parse("123")) is None  # another level


def test_reachability_needs_an_order_of_play() -> None:
    # Two discs in column 1: the first player's on top of the second's cannot be played.
    first_on_top = Position.parse("1").mask << 1  # the upper cell only
    stack = Position.parse("11")
    assert reachable(stack.current, stack.mask, 2)
    assert not reachable(first_on_top, stack.mask, 2)


def scored_level(discs: int, scores_of: dict[int, int]) -> LevelBook:
    level = LevelBook.empty(discs)
    for slot, score in scores_of.items():
        level.scores[slot] = score
    return level


def test_the_compiled_lookup_finds_the_slot_the_index_names() -> None:
    index = level_index(DEFAULT_LEVEL_DISCS)
    level = LevelBook.empty(DEFAULT_LEVEL_DISCS)
    slots = np.arange(index.slots)
    level.scores[:] = (slots % 37 - 18).astype(np.int8)  # a score for every slot
    rng = random.Random(5)
    for _ in range(300):
        state = random_game(rng, DEFAULT_LEVEL_DISCS, DEFAULT_LEVEL_DISCS)
        if state.ply != DEFAULT_LEVEL_DISCS:
            continue
        position = Position.from_state(state)
        for image in (position, mirrored(position)):
            expected = level.get(image)
            got = kernel.level_lookup(
                level.scores, index.bases, index.ranks, image.current, image.mask
            )
            assert got == expected


def test_an_unscored_or_impossible_slot_reads_as_unknown() -> None:
    index = level_index(DEFAULT_LEVEL_DISCS)
    level = LevelBook.empty(DEFAULT_LEVEL_DISCS)
    position = Position.from_state(random_game(random.Random(1), 12, 12))
    assert position.moves == 12
    args = (level.scores, index.bases, index.ranks, position.current, position.mask)
    assert kernel.level_lookup(*args) == kernel.INVALID_MOVE
    slot = index.slot(position)
    assert slot is not None
    level.scores[slot] = NO_POSITION
    assert kernel.level_lookup(*args) == kernel.INVALID_MOVE
    assert level.get(position) is None
    level.scores[slot] = -7
    assert kernel.level_lookup(*args) == -7
    assert level.get(position) == -7


@pytest.fixture(scope="module")
def deep_level() -> LevelBook:
    """Level 12 with every position two discs after ``DEEP_ROOT`` solved (no level)."""
    solver = Solver(20)
    root = Position.parse(DEEP_ROOT)
    index = level_index(DEFAULT_LEVEL_DISCS)
    scores: dict[int, int] = {}
    for first in range(7):
        child = root.play(first)
        if child.is_over:
            continue
        for second in range(7):
            if not child.can_play(second) or child.play(second).is_over:
                continue
            grandchild = child.play(second)
            slot = index.slot(grandchild)
            assert slot is not None
            scores[slot] = solver.solve(grandchild)
    return scored_level(DEFAULT_LEVEL_DISCS, scores)


def test_a_search_stops_at_the_level_and_keeps_every_score(deep_level: LevelBook) -> None:
    root = Position.parse(DEEP_ROOT)
    plain = Solver(20)
    with_level = Solver(20, level=deep_level)
    assert plain.solve(root) == DEEP_SCORE
    assert with_level.solve(root) == DEEP_SCORE
    assert with_level.nodes <= SHALLOW_NODES < plain.nodes
    # Its mirror image is looked up through the mirrored shapes.
    with_level.clear()
    assert with_level.solve(mirrored(root)) == DEEP_SCORE
    assert with_level.nodes <= SHALLOW_NODES
    # Every column, the weak value, and a narrowed window agree with the plain solver.
    with_level.clear()
    plain.clear()
    assert with_level.analyze(root) == plain.analyze(root)
    assert with_level.solve(root, weak=True) == 1
    assert with_level.solve(root, low=DEEP_SCORE, high=DEEP_SCORE + 1) == DEEP_SCORE
    assert with_level.solve(root, low=DEEP_SCORE - 1, high=DEEP_SCORE) >= DEEP_SCORE


def test_perfect_plays_a_best_move_from_the_level(deep_level: LevelBook) -> None:
    state = ConnectFour.from_notation(DEEP_ROOT)
    player = PerfectPlayer(book=None, strategy=None, level_book=deep_level, table_bits=20)
    result = player.choose(state)
    assert result.move is not None and result.solved
    scores = Solver(20).analyze(Position.parse(DEEP_ROOT))
    assert scores[result.move] == max(scores) == DEEP_SCORE


#: A 12-disc position two discs after ``DEEP_ROOT`` whose centre-order tests meet a
#: column that another parent of its child, in the level, proves worse.
PROVED_BY_A_PARENT = "157171164765"


def test_a_column_another_parent_proves_worse_is_not_tested(deep_level: LevelBook) -> None:
    state = ConnectFour.from_notation(PROVED_BY_A_PARENT)
    position = Position.parse(PROVED_BY_A_PARENT)
    index = deep_level.index
    own_slot = index.slot(position)
    assert own_slot is not None
    only_its_own = LevelBook(index, np.full(index.slots, UNSCORED, np.int8))
    only_its_own.scores[own_slot] = deep_level.scores[own_slot]
    with_parents = PerfectPlayer(book=None, strategy=None, level_book=deep_level, table_bits=20)
    alone = PerfectPlayer(book=None, strategy=None, level_book=only_its_own, table_bits=20)
    result = with_parents.choose(state)
    plain = alone.choose(state)
    exact = Solver(20).analyze(position)
    best = result.move
    assert isinstance(best, int) and best == plain.move and exact[best] == max(exact)
    assert result.solved and not result.root_scores_exact
    for column, bound in result.root_scores.items():  # upper bounds, the best exact
        assert isinstance(column, int) and bound >= to_search_score(exact[column], 12)
    assert result.root_scores[best] == to_search_score(max(exact), position.moves)
    assert result.nodes < plain.nodes  # one null-window test fewer


def test_the_file_round_trips(tmp_path: Path, deep_level: LevelBook) -> None:
    path = tmp_path / "level.bin"
    save(deep_level, path)
    again = load(path)
    assert again.discs == DEFAULT_LEVEL_DISCS
    assert np.array_equal(again.scores, deep_level.scores)
    assert again.counts() == deep_level.counts()
    assert not again.complete


def damaged(image: bytes, offset: int, data: bytes, fix_checksum: bool = False) -> bytes:
    changed = bytearray(image)
    changed[offset : offset + len(data)] = data
    if fix_checksum:
        struct.pack_into("<I", changed, 16, zlib.crc32(bytes(changed[HEADER.size :])))
    return bytes(changed)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda image: image[:10], "too short"),
        (lambda image: damaged(image, 0, b"C4BK"), "not a Connect Four level book"),
        (lambda image: damaged(image, 4, b"\x09\x00"), "version 9"),
        (lambda image: damaged(image, 6, b"\x08"), "a 8x6 book"),
        (lambda image: damaged(image, 8, b"\x0b"), "slots, a level of 11 discs"),
        (lambda image: damaged(image, 8, b"\x40"), "a level of 64 discs"),
        (lambda image: image[:-1], "bytes, the header promises"),
        (lambda image: damaged(image, HEADER.size, b"\x05"), "checksum mismatch"),
        (lambda image: damaged(image, HEADER.size, b"\x30", True), "a score outside"),
    ],
)
def test_a_damaged_file_is_refused_with_the_reason(change: object, reason: str) -> None:
    image = dumps(LevelBook.empty(DEFAULT_LEVEL_DISCS))
    assert callable(change)
    with pytest.raises(BookError, match=reason):
        loads(change(image), "level.bin")


def test_a_missing_shipped_level_is_no_level_and_a_damaged_one_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "level.bin"
    monkeypatch.setattr(level_module, "default_level_path", lambda: path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_default_level() is None
    path.write_bytes(b"C4LV garbage")
    with pytest.warns(UserWarning, match="level book unusable"):
        assert load_default_level() is None


def test_the_shipped_level_agrees_with_the_solver() -> None:
    level = load_default_level()
    if level is None:
        pytest.skip("no level book shipped")
    scored = np.nonzero(np.abs(level.scores.astype(np.int16)) <= kernel.CELLS)[0]
    assert len(scored) > 0
    solver = Solver(20)
    for slot in random.Random(7).sample(list(scored), min(20, len(scored))):
        position = level.index.position(int(slot))
        assert position is not None  # a scored slot holds a position
        solver.clear()
        assert solver.solve(position) == level.scores[slot]
    impossible = np.nonzero(level.scores == NO_POSITION)[0]
    for slot in random.Random(8).sample(list(impossible), min(50, len(impossible))):
        assert level.index.position(int(slot)) is None


def test_the_shipped_level_is_complete() -> None:
    """Every position of 12 discs is scored: ``perfect`` answers 8-11 disc positions
    by a search to the level, never a live solve (a partial file would bring those
    back, up to seconds)."""
    level = load_default_level()
    assert level is not None
    assert level.discs == DEFAULT_LEVEL_DISCS
    assert level.complete
    assert not np.any(level.scores == UNSCORED)


def test_every_slot_is_handed_out_once_centre_first() -> None:
    level = LevelBook.empty(6)
    index = level.index
    tasks = list(tasks_to_do(level))
    slots = np.concatenate([task[1] for task in tasks])
    assert sorted(slots.tolist()) == list(range(index.slots))  # each slot exactly once
    assert index.heights(int(tasks[0][1][0]) // len(index.patterns))[3] == 6  # centre full
    weights = [centre_weight(index.heights(shape)) for shape in centre_first_shapes(index)]
    assert weights == sorted(weights)
    # A slot with a score is not handed out again.
    level.scores[tasks[0][1]] = 0
    assert int(next(tasks_to_do(level))[1][0]) == int(tasks[1][1][0])


def test_a_build_checkpoints_resumes_and_scores_what_it_solved(tmp_path: Path) -> None:
    output = tmp_path / "level.bin"
    ticks = iter(range(0, 10_000, 100))
    lines: list[str] = []
    built = build_level(
        discs=DEFAULT_LEVEL_DISCS,
        output=output,
        table_bits=18,
        max_slots=SLOTS_TRIED,
        log=lines.append,
        clock=lambda: float(next(ticks)),
        checkpoint_seconds=50,
    )
    first = np.concatenate(
        [task[1] for task in itertools.islice(tasks_to_do(LevelBook.empty(12)), 3)]
    )[: 2 * SLOTS_TRIED]
    assert np.count_nonzero(built.scores != UNSCORED) == SLOTS_TRIED
    assert not np.any(built.scores[first[:SLOTS_TRIED]] == UNSCORED)
    assert any("(saved)" in line for line in lines)
    solver = Solver(18)
    index = built.index
    for slot in random.Random(2).sample(first[:SLOTS_TRIED].tolist(), 40):
        position = index.position(slot)
        expected = NO_POSITION if position is None else solver.solve(position)
        assert built.scores[slot] == expected
    # Started again, it carries on where it stopped and keeps what it had.
    again = build_level(
        discs=DEFAULT_LEVEL_DISCS,
        output=output,
        table_bits=18,
        max_slots=SLOTS_TRIED,
        log=lines.append,
    )
    assert np.count_nonzero(again.scores != UNSCORED) == 2 * SLOTS_TRIED
    assert np.array_equal(again.scores[first[:SLOTS_TRIED]], built.scores[first[:SLOTS_TRIED]])
    assert not np.any(again.scores[first] == UNSCORED)
    assert any(line.startswith("resuming:") for line in lines)


def test_a_build_refuses_an_output_of_another_kind_or_level(tmp_path: Path) -> None:
    other = tmp_path / "other.bin"
    other.write_bytes(b"not a level")
    with pytest.raises(LevelBuildError, match="not a level book to carry on"):
        build_level(discs=12, output=other, max_slots=0, log=lambda _: None)
    assert other.read_bytes() == b"not a level"  # nothing lost
    ten = tmp_path / "ten.bin"
    save(LevelBook.empty(10), ten)
    with pytest.raises(LevelBuildError, match="a level of 10 discs, not 12"):
        build_level(discs=12, output=ten, max_slots=0, log=lambda _: None)


def test_the_command_refuses_a_bad_level_or_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["book", "connect4", "--level", "0"]) == 2
    assert "--level must be 1 to 16" in capsys.readouterr().err
    other = tmp_path / "book.bin"
    other.write_bytes(b"C4BK")
    assert main(["book", "connect4", "--level", "12", "--output", str(other)]) == 2
    assert "not a level book to carry on" in capsys.readouterr().err
    assert main(["book", "connect4", "--level", "12", "--output", str(tmp_path)]) == 2
    assert "abgames book:" in capsys.readouterr().err
    assert main(["book", "connect4", "--level", "12", "--every", "--plies", "8"]) == 2
    assert "--every, --plies belong to the opening book" in capsys.readouterr().err


def test_perfect_loads_the_shipped_level_when_a_position_first_needs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deep_level: LevelBook
) -> None:
    path = tmp_path / "level.bin"
    save(deep_level, path)
    monkeypatch.setattr(level_module, "default_level_path", lambda: path)
    player = PerfectPlayer(strategy=None, table_bits=16)
    late = ConnectFour.from_notation("2252576253462244111563365343671351")  # 34 discs
    assert player.choose(late).solved
    assert player.solver.level is None  # its searches never reach 12 discs
    assert player.choose(ConnectFour.from_notation("44")).nodes == 0
    assert player.solver.level is None  # answered from the opening book
    result = player.choose(ConnectFour.from_notation(DEEP_ROOT))
    assert player.solver.level is not None
    assert result.solved and result.nodes <= SHALLOW_NODES


def test_before_a_complete_level_every_column_gets_its_exact_score(
    deep_level: LevelBook,
) -> None:
    """With the level complete (here: every other slot marked as no position, which
    only leaves those to the search), a position before it is analysed in full."""
    complete = LevelBook(deep_level.index, deep_level.scores.copy())
    complete.scores[complete.scores == UNSCORED] = NO_POSITION
    assert complete.complete
    state = ConnectFour.from_notation(DEEP_ROOT)
    player = PerfectPlayer(book=None, strategy=None, level_book=complete, table_bits=20)
    result = player.choose(state)
    assert result.solved and result.root_scores_exact
    scores = Solver(20).analyze(Position.parse(DEEP_ROOT))
    assert result.root_scores == {
        column: to_search_score(score, 10) for column, score in enumerate(scores)
    }
    assert result.nodes <= 7 * SHALLOW_NODES
    partial = PerfectPlayer(book=None, strategy=None, level_book=deep_level, table_bits=20)
    assert not partial.choose(state).root_scores_exact  # a partial level: one column


def test_the_shipped_level_is_loaded_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deep_level: LevelBook
) -> None:
    path = tmp_path / "level.bin"
    save(deep_level, path)
    monkeypatch.setattr(level_module, "default_level_path", lambda: path)
    first = load_default_level()
    assert first is not None and load_default_level() is first
    save(LevelBook.empty(DEFAULT_LEVEL_DISCS), path)  # a new file: read again
    second = load_default_level()
    assert second is not None and second is not first
    assert second.counts()[0] == 0


def test_an_interrupted_build_writes_what_it_found(tmp_path: Path) -> None:
    output = tmp_path / "level.bin"
    ticks = iter(range(0, 10_000, 100))

    def stop_after_the_first_save(line: str) -> None:
        if "(saved)" in line:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_level(
            discs=DEFAULT_LEVEL_DISCS,
            output=output,
            table_bits=16,
            max_slots=2 * SLOTS_TRIED,
            log=stop_after_the_first_save,
            clock=lambda: float(next(ticks)),
            checkpoint_seconds=50,
        )
    assert load(output).counts()[0] > 0
