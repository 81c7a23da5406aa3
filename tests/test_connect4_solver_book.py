"""The opening book (format, checks, the build tool) and the ``perfect`` player."""

from __future__ import annotations

import itertools
import random
import time
import warnings
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from abgames.ai.connect4 import book as book_module
from abgames.ai.connect4 import book_builder
from abgames.ai.connect4 import perfect as perfect_module
from abgames.ai.connect4.book import Book, BookError, dumps, load, load_default_book, loads
from abgames.ai.connect4.book_builder import (
    WORK_FILE,
    BuildError,
    book_tree,
    build,
    centre_first,
    child_scores,
    positions_by_ply,
)
from abgames.ai.connect4.heuristic import ConnectFourEvaluation
from abgames.ai.connect4.kernel import CELLS, INVALID_MOVE
from abgames.ai.connect4.perfect import PerfectPlayer, choose_column
from abgames.ai.connect4.position import position_of_key
from abgames.ai.connect4.solver import Position, Solver, canonical_key
from abgames.ai.levels import make_player
from abgames.ai.player import SearchPlayer
from abgames.games.connect4 import ConnectFour
from abgames.search import AlphaBeta, Limit, SearchOptions
from abgames.search.result import NOT_SOLVED

#: A middle-game position (18 discs) whose book builds in a few seconds.
BOOK_ROOT = "527533114336774424"
BOOK_PLIES = 4
#: Most nodes a position answered from the book may cost (the book replaces search).
BOOK_NODES = 64


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Book, Path]:
    work = tmp_path_factory.mktemp("book")
    output = work / "book.bin"
    book = build(
        root=BOOK_ROOT, plies=BOOK_PLIES, work_dir=work, output=output, table_bits=18, log=print
    )
    return book, work


def met_positions(book: Book) -> list[ConnectFour]:
    """Every position the perfect player meets at its turn inside the book, either side."""
    player = PerfectPlayer(book=book, table_bits=16)
    root = ConnectFour.from_notation(BOOK_ROOT)
    met: list[ConnectFour] = []
    frontier = [root, *(child(root, c) for c in root.legal_moves())]
    while frontier:
        state = frontier.pop()
        if state.outcome() is not None or state.ply >= root.ply + BOOK_PLIES:
            continue
        met.append(state)
        reply_root = child(state, player.choose(state).move)  # type: ignore[arg-type]
        if reply_root.outcome() is None:
            frontier.extend(child(reply_root, c) for c in reply_root.legal_moves())
    return met


def child(state: ConnectFour, column: int) -> ConnectFour:
    clone = state.copy()
    clone.play(column)
    return clone


def test_the_format_round_trips() -> None:
    original = Book.from_scores({5: 1, 3: -2, 900: 0}, max_moves=12)
    again = loads(dumps(original))
    assert again.keys.tolist() == [3, 5, 900]
    assert again.scores.tolist() == [-2, 1, 0]
    assert again.max_moves == 12


def test_the_columns_round_trip_and_follow_the_mirror_image() -> None:
    position = Position.parse("7")  # canonical is its mirror image, "1"
    key = canonical_key(position.key)
    assert key != position.key
    book = loads(dumps(Book.from_scores({key: -1, 5: 2}, max_moves=1, columns={key: 5})))
    assert book.column(key) == 5
    assert book.column(position.key) == 1  # column 6 of "1" is column 2 of "7"
    assert book.column(5) is None and book.column(9) is None
    assert book.column_map() == {key: 5}


def test_a_book_without_columns_still_loads() -> None:
    image = dumps(Book.from_scores({5: 1, 3: -2}, max_moves=4, columns={5: 2}))
    count = 2
    old = image[:4] + b"\x01\x00" + image[6:-count]  # version 1: no column bytes
    payload = old[book_module.HEADER.size :]
    old = old[:16] + zlib.crc32(payload).to_bytes(4, "little") + old[20:]
    book = loads(old)
    assert book.scores.tolist() == [-2, 1]
    assert book.column(5) is None


def test_a_column_outside_the_board_is_refused() -> None:
    image = bytearray(dumps(Book.from_scores({5: 1}, max_moves=4)))
    image[-1] = 8
    payload = bytes(image[book_module.HEADER.size :])
    image[16:20] = zlib.crc32(payload).to_bytes(4, "little")
    with pytest.raises(BookError, match=r"a column outside 0\.\.7"):
        loads(bytes(image))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: b[:-1], "bytes"),
        (lambda b: b[:-1] + bytes([b[-1] ^ 1]), "checksum"),
        (lambda b: b"XXXX" + b[4:], "not a Connect Four book"),
        (lambda b: b[:4] + b"\x09\x00" + b[6:], "version"),
        (lambda b: b[:5], "too short"),
    ],
)
def test_a_damaged_book_gives_a_clear_error(damage: Callable[[bytes], bytes], message: str) -> None:
    image = dumps(Book.from_scores({5: 1, 3: -2}, max_moves=4))
    with pytest.raises(BookError, match=message):
        loads(damage(image))


def test_a_damaged_default_book_warns_and_the_solver_carries_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "book.bin"
    broken.write_bytes(b"C4BK garbage")
    monkeypatch.setattr(book_module, "default_book_path", lambda: broken)
    with pytest.warns(UserWarning, match="solving without it"):
        assert load_default_book() is None
    player = PerfectPlayer(table_bits=16)
    with pytest.warns(UserWarning):
        result = player.choose(ConnectFour.from_notation(BOOK_ROOT))
    assert result.solved


def test_the_shipped_book_loads_cleanly() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shipped = load_default_book()
    assert shipped is not None
    assert shipped.keys.dtype.name == "int64"


def test_the_book_holds_exact_scores(built: tuple[Book, Path]) -> None:
    book, _ = built
    assert len(book) > 0
    solver = Solver(16)
    for line in (built[1] / WORK_FILE).read_text().splitlines():
        moves, score, _ = line.split()
        assert book.get(Position.parse(moves).key) == int(score)
    # Check a few against a fresh search.
    for line in (built[1] / WORK_FILE).read_text().splitlines()[:20]:
        moves, score, _ = line.split()
        assert solver.solve(Position.parse(moves)) == int(score)


def test_the_book_covers_every_position_the_perfect_player_meets(
    built: tuple[Book, Path],
) -> None:
    book, _ = built
    with_book = Solver(16, book)
    without = Solver(16)
    met = met_positions(book)
    assert len(met) > 10
    for state in met:
        position = Position.from_state(state)
        with_book.clear()
        scores = with_book.analyze(position)
        assert with_book.nodes <= BOOK_NODES, state
        assert scores == without.analyze(position), state


def test_a_build_resumes_without_solving_again(built: tuple[Book, Path]) -> None:
    book, work = built
    lines_before = (work / WORK_FILE).read_text()
    again = build(
        root=BOOK_ROOT,
        plies=BOOK_PLIES,
        work_dir=work,
        output=work / "again.bin",
        log=lambda _: None,
    )
    assert (work / WORK_FILE).read_text() == lines_before
    assert again.keys.tolist() == book.keys.tolist()
    assert load(work / "again.bin").scores.tolist() == book.scores.tolist()


def test_a_build_carries_on_from_an_existing_book_without_the_work_file(
    built: tuple[Book, Path], tmp_path: Path
) -> None:
    book, work = built
    output = tmp_path / "book.bin"
    output.write_bytes((work / "book.bin").read_bytes())
    fresh_work = tmp_path / "fresh"
    again = build(
        root=BOOK_ROOT, plies=BOOK_PLIES, work_dir=fresh_work, output=output, log=lambda _: None
    )
    assert (fresh_work / WORK_FILE).read_text() == ""  # nothing had to be solved again
    assert again.keys.tolist() == book.keys.tolist()
    assert again.max_moves == book.max_moves


def test_choice_prefers_the_best_score_then_the_centre() -> None:
    assert choose_column([1, 1, 1, 1, 1, 1, 1]) == 3
    assert choose_column([INVALID_MOVE, 2, 0, INVALID_MOVE, 2, 0, 0]) == 4
    assert choose_column([0, 0, 5, INVALID_MOVE, 5, 0, 0]) == 2  # as near: the left one
    assert choose_column([-3, -1, -5, INVALID_MOVE, -2, -4, -6]) == 1  # loses slowest
    assert choose_column([9, 0, 0, 0, 0, 0, 3]) == 0  # wins fastest, even on the edge


def test_perfect_play_keeps_the_value_of_the_position(shared_data: Path) -> None:
    player = PerfectPlayer(book=None, strategy=None, level_book=None, table_bits=18)
    solver = Solver(18)
    rows = (shared_data / "connect4" / "Test_L3_R1").read_text().splitlines()[::50]
    for row in rows:
        moves, expected = row.split()
        state = ConnectFour.from_notation(moves)
        result = player.choose(state)
        assert result.solved and result.root_scores_exact
        assert result.move is not None
        position = Position.from_state(state)
        after = position.play(result.move)
        value = int(expected)
        if after.won:
            assert value == (43 - position.moves) // 2
        else:
            assert -solver.solve(after) == value, moves
        assert set(result.root_scores) == set(state.legal_moves())


def test_levels_perfect_is_the_solver_and_the_others_the_heuristic() -> None:
    assert isinstance(make_player("connect4", "perfect"), PerfectPlayer)
    for level in ("easy", "medium", "hard"):
        assert isinstance(make_player("connect4", level), SearchPlayer)


@pytest.mark.parametrize(
    ("moves", "only_move"),
    [("112233", 3), ("11223", 3)],  # 4 (index 3) wins the bottom row / blocks it
)
def test_other_board_sizes_fall_back_to_the_reference_engine(moves: str, only_move: int) -> None:
    """On 5x4 the player answers with the reference engine: the same move and score as
    that engine searched to the same depth, and the one move that does not lose."""
    state = ConnectFour.from_notation(moves, width=5, height=4)
    player = PerfectPlayer(book=None, strategy=None, level_book=None, fallback_seconds=0.3)
    result = player.choose(state)
    assert result.move == only_move
    assert result.solved or result.note == NOT_SOLVED
    reference = AlphaBeta(ConnectFourEvaluation(), SearchOptions())
    *_, expected = reference.search(state.copy(), Limit(depth=result.depth))
    assert (result.move, result.score, result.depth) == (
        expected.move,
        expected.score,
        expected.depth,
    )


def test_a_position_too_hard_for_the_node_limit_falls_back() -> None:
    player = PerfectPlayer(
        book=None,
        strategy=None,
        level_book=None,
        table_bits=16,
        node_limit=1000,
        fallback_seconds=0.3,
    )
    result = player.choose(ConnectFour.from_notation("44"))
    assert not result.solved
    assert result.move in range(7)
    assert result.note == NOT_SOLVED == "not solved, best heuristic move"


def test_a_fallback_counts_the_whole_move() -> None:
    """The solver's attempt and the heuristic search: all the nodes, all the waiting."""
    node_limit = 1_500_000
    player = PerfectPlayer(
        book=None,
        strategy=None,
        level_book=None,
        table_bits=16,
        node_limit=node_limit,
        fallback_seconds=0.3,
    )
    player.choose(ConnectFour.from_notation("2252576253462244111563365343671351"))  # compile
    start = time.perf_counter()
    results = list(player.think(ConnectFour.from_notation("44")))
    waited = time.perf_counter() - start
    final = results[-1]
    assert final.move in range(7) and not final.solved and final.note == NOT_SOLVED
    assert final.nodes > node_limit
    assert final.elapsed >= 0.95 * waited
    solving = [r for r in results if r.move is None]
    assert solving, "the solver's progress comes first"
    assert all(not r.complete and r.note.startswith("solving") for r in solving)
    assert results.index(solving[-1]) < results.index(final)


def test_a_stopped_solve_answers_at_once_with_a_heuristic_move() -> None:
    player = PerfectPlayer(
        book=None, strategy=None, level_book=None, table_bits=16, node_limit=None
    )
    player.solver.chunk_nodes = 20_000
    results = []
    for result in player.think(ConnectFour.from_notation("44")):
        results.append(result)
        player.stop()  # as the window's "move now" does, from any thread
    final = results[-1]
    assert final.move in range(7) and final.note == NOT_SOLVED
    assert player.solver.nodes < 100_000  # the solve ended at the first chunk


def test_canonical_keys_ignore_mirroring() -> None:
    assert canonical_key(Position.parse("1").key) == canonical_key(Position.parse("7").key)


def test_write_only_writes_the_book_without_solving(built: tuple[Book, Path]) -> None:
    book, work = built
    written = build(
        root="",
        plies=3,
        work_dir=work,
        output=work / "written.bin",
        log=lambda _: None,
        write_only=True,
    )
    assert written.keys.tolist() == book.keys.tolist()


def test_book_tree_splits_the_met_positions(built: tuple[Book, Path]) -> None:
    book, _ = built
    inside, outside = book_tree(book, BOOK_ROOT)
    assert BOOK_ROOT in inside
    assert {len(moves) for moves in inside} <= set(
        range(len(BOOK_ROOT), len(BOOK_ROOT) + BOOK_PLIES)
    )
    assert all(len(moves) >= len(BOOK_ROOT) + BOOK_PLIES for moves in outside)


def every_book(plies: int, work: Path, output: Path, **options: Any) -> Book:
    """``build`` with ``every`` from ``BOOK_ROOT``, quiet, with a small table."""
    options = {"table_bits": 18, "log": lambda _: None, **options}
    return build(root=BOOK_ROOT, plies=plies, work_dir=work, output=output, every=True, **options)


def test_every_scores_each_position_up_to_its_depth_exactly(tmp_path: Path) -> None:
    """``every``: each position within the plies (however it was reached) has its exact
    score, the solved deepest ones and the earlier ones scored from them alike."""
    work = tmp_path / "work"
    book = every_book(3, work, tmp_path / "every.bin")
    levels = positions_by_ply(BOOK_ROOT, len(BOOK_ROOT) + 3)
    assert len(levels) == 4 and len(levels[0]) == 1
    solver = Solver(18)
    for level in levels:
        for key, moves in level.items():
            assert book.get(key) == solver.solve(Position.parse(moves)), moves
    assert len(book) == sum(len(level) for level in levels)
    # Only the deepest level was solved; the rest came from it.
    solved_lines = (work / WORK_FILE).read_text().splitlines()
    assert {len(line.split()[0]) for line in solved_lines} == {len(BOOK_ROOT) + 3}
    # A second run solves nothing again.
    again = every_book(3, work, tmp_path / "again.bin")
    assert (work / WORK_FILE).read_text().splitlines() == solved_lines
    assert again.keys.tolist() == book.keys.tolist()


def test_every_records_a_column_that_keeps_each_solved_score(tmp_path: Path) -> None:
    """Each position of the level solved gets a column whose move keeps its score, in
    either orientation; the perfect player then plays it with no search."""
    work = tmp_path / "work"
    book = every_book(2, work, tmp_path / "every.bin")
    deepest = positions_by_ply(BOOK_ROOT, len(BOOK_ROOT) + 2)[-1]
    solver = Solver(18)
    lines = (work / WORK_FILE).read_text().splitlines()
    assert all(len(line.split()) == 3 for line in lines)
    for moves in deepest.values():
        for shown in (moves, "".join(str(8 - int(c)) for c in moves)):
            position = Position.parse(shown)
            column = book.column(position.key)
            assert column is not None and position.can_play(column), shown
            child = position.play(column)
            kept = (CELLS + 1 - position.moves) // 2 if child.won else -solver.solve(child)
            assert kept == book.get(position.key), shown
    moves = next(iter(deepest.values()))
    player = PerfectPlayer(book=book, strategy=None, table_bits=16)
    result = player.choose(ConnectFour.from_notation(moves))
    assert result.nodes == 0 and result.solved
    assert result.move == book.column(Position.parse(moves).key)


def test_a_child_in_the_book_that_keeps_the_score_is_played_without_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A position whose children the book holds only in part: a child that keeps the
    position's score is enough, with no null-window test (as before ``EXACT_FROM``
    discs, where not every column is solved)."""
    monkeypatch.setattr(perfect_module, "EXACT_FROM", CELLS + 1)
    book = every_book(2, tmp_path / "work", tmp_path / "every.bin")
    middle = positions_by_ply(BOOK_ROOT, len(BOOK_ROOT) + 2)[1]
    scores = {int(k): int(v) for k, v in zip(book.keys, book.scores, strict=True)}
    for moves in middle.values():
        position = Position.parse(moves)
        children = child_scores(position, book.get)
        assert children is not None
        best = max(children)
        worse = [c for c, s in enumerate(children) if INVALID_MOVE != s < best]
        if worse and not position.play(worse[0]).is_over:
            break
    else:
        pytest.fail("no position with a worse column")
    partial = dict(scores)
    del partial[canonical_key(position.play(worse[0]).key)]
    player = PerfectPlayer(
        book=Book.from_scores(partial, book.max_moves), strategy=None, table_bits=16
    )
    result = player.choose(ConnectFour.from_notation(moves))
    assert result.solved and result.nodes <= BOOK_NODES
    assert children[result.move] == best  # type: ignore[index]
    assert worse[0] not in result.root_scores and not result.root_scores_exact


def test_a_level_on_top_of_the_one_before_starts_from_its_parents_scores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carried on from a book with the level before, each position is solved from
    the bound its parents prove, to the same exact score and a column that keeps it."""
    output = tmp_path / "every.bin"
    every_book(2, tmp_path / "two", output)
    lows: list[int | None] = []
    solve = book_builder.solve_for_book

    def spy(solver: Solver, position: Position, low: int | None) -> tuple[int, int]:
        lows.append(low)
        score, column = solve(solver, position, low)
        assert low is None or score >= low
        return score, column

    monkeypatch.setattr(book_builder, "solve_for_book", spy)
    book = every_book(3, tmp_path / "three", output)
    deepest = positions_by_ply(BOOK_ROOT, len(BOOK_ROOT) + 3)[-1]
    assert len(lows) == len(deepest) and None not in lows
    checker = Solver(18)
    for moves in deepest.values():
        position = Position.parse(moves)
        score = checker.solve(position)
        assert book.get(position.key) == score, moves
        column = book.column(position.key)
        assert column is not None
        child = position.play(column)
        kept = (CELLS + 1 - position.moves) // 2 if child.won else -checker.solve(child)
        assert kept == score, moves


def test_parents_are_every_position_one_move_before() -> None:
    """Checked against every move string of up to 4 moves, and along random games: each
    position one move before is found, and each found plays into the position (a
    found one may be unreachable: the discs left can stand in an order no game plays)."""
    parents: dict[int, set[int]] = {}
    for length in range(1, 5):
        for digits in itertools.product("1234567", repeat=length):
            moves = "".join(digits)
            try:
                before = Position.parse(moves[:-1])
                after = Position.parse(moves)
            except ValueError:
                continue  # a move after a win
            if not before.is_over:
                parents.setdefault(after.key, set()).add(before.key)
    for key, expected in parents.items():
        found = list(position_of_key(key).parents())
        assert expected <= {parent.key for parent in found}
        assert all(any(p.can_play(c) and p.play(c).key == key for c in range(7)) for p in found)
    rng = random.Random(4)
    for _ in range(50):
        state = ConnectFour()
        while state.outcome() is None:
            before = Position.from_state(state)
            state.play(rng.choice(list(state.legal_moves())))
            after = Position.from_state(state)
            found = list(after.parents())
            assert before.key in {parent.key for parent in found}
            assert all(
                any(p.can_play(c) and p.play(c).key == after.key for c in range(7)) for p in found
            )
    assert list(Position.parse("").parents()) == []


def test_the_parents_scores_bound_a_position_from_below(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the book's last level, the parents' scores give a bound the score reaches,
    the score itself for a best reply; the answer is exact either way."""
    monkeypatch.setattr(perfect_module, "EXACT_FROM", CELLS + 1)
    book = every_book(2, tmp_path / "work", tmp_path / "every.bin")
    deepest = positions_by_ply(BOOK_ROOT, len(BOOK_ROOT) + 2)[-1]
    checker = Solver(18)
    player = PerfectPlayer(book=book, strategy=None, table_bits=16)
    tight = 0
    for moves in list(deepest.values())[:12]:
        position = Position.parse(moves)
        column = book.column(position.key)
        assert column is not None
        reply = position.play(column)  # a best move: the next position's score is -score
        if reply.is_over:
            continue
        bound = player._parents_bound(reply)
        assert bound is not None and bound <= checker.solve(reply)
        tight += bound == checker.solve(reply)
        result = player.solve(ConnectFour.from_notation(moves + str(column + 1)))
        scores = checker.analyze(reply)
        assert result.move is not None and scores[result.move] == max(scores), moves
    assert tight > 0


def test_positions_solved_without_a_column_are_solved_again_last(tmp_path: Path) -> None:
    work = tmp_path / "work"
    every_book(2, work, tmp_path / "every.bin")
    lines = (work / WORK_FILE).read_text().splitlines()
    bare = " ".join(lines[0].split()[:2])  # as an earlier builder wrote it
    (work / WORK_FILE).write_text("".join(f"{line}\n" for line in [bare, *lines[1:]]))
    (tmp_path / "every.bin").unlink()
    again = every_book(2, work, tmp_path / "every.bin")
    now = (work / WORK_FILE).read_text().splitlines()
    assert now[: len(lines)] == [bare, *lines[1:]]
    assert now[len(lines) :] == [lines[0]]  # that one only, with its column
    assert again.column(Position.parse(bare.split()[0]).key) is not None


def test_every_lists_each_position_once_mirror_images_included() -> None:
    levels = positions_by_ply("", 2)
    # Ply 1: columns 1-3 mirror 5-7. Ply 2: 49 positions, each but "44" paired with its
    # mirror image: 25.
    assert [len(level) for level in levels] == [1, 4, 25]
    pairs = {canonical_key(Position.parse(f"{a}{b}").key) for a in "1234567" for b in "1234567"}
    assert set(levels[2]) == pairs
    assert all(canonical_key(Position.parse(moves).key) == key for key, moves in levels[2].items())


def test_every_refuses_more_plies_than_it_can_list(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="at most 12 plies"):
        build(plies=13, work_dir=tmp_path / "w", output=tmp_path / "b.bin", every=True)


def test_a_stopped_every_build_writes_what_its_solved_part_decides(tmp_path: Path) -> None:
    """``write_only`` with ``every``: the level's solved positions, and each earlier one
    all of whose children are known (exact); the others wait for the rest of the level."""
    full_work, part_work = tmp_path / "full", tmp_path / "part"
    whole = every_book(2, full_work, tmp_path / "whole.bin")
    lines = (full_work / WORK_FILE).read_text().splitlines()
    part_work.mkdir()
    kept = lines[1:]  # the build stopped before solving one position of the level
    (part_work / WORK_FILE).write_text("".join(f"{line}\n" for line in kept))
    logged: list[str] = []
    part = every_book(2, part_work, tmp_path / "part.bin", log=logged.append, write_only=True)
    assert (part_work / WORK_FILE).read_text().count("\n") == len(kept)  # none solved
    levels = positions_by_ply(BOOK_ROOT, len(BOOK_ROOT) + 2)
    earlier = [key for level in levels[:-1] for key in level]
    held = [key for key in earlier if part.get(key) is not None]
    assert 0 < len(held) < len(earlier)
    assert all(part.get(key) == whole.get(key) for key in held)
    assert any("wait for a child's score" in line for line in logged)
    for key in set(earlier) - set(held):
        moves = next(level[key] for level in levels if key in level)
        position = Position.parse(moves)
        children = [position.play(c) for c in range(7) if position.can_play(c)]
        assert any(
            not child.is_over and part.get(canonical_key(child.key)) is None for child in children
        )


def test_a_level_is_solved_centre_first() -> None:
    lines = ["1", "7", "4", "3", "5", "44", "43", "34", "2"]
    assert sorted(lines, key=centre_first) == ["4", "44", "43", "3", "34", "5", "2", "1", "7"]
