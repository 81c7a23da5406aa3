"""The weak (value-keeping) rule, the strategy book and its builder, and perfect play with them."""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Generator
from pathlib import Path

import pytest

from abgames.ai.connect4.book import BookError, load_default_book
from abgames.ai.connect4.book import load as load_exact_book
from abgames.ai.connect4.book_builder import build
from abgames.ai.connect4.perfect import EXACT_FROM, PerfectPlayer
from abgames.ai.connect4.position import Position, canonical_key, position_of_key
from abgames.ai.connect4.solver import Solver
from abgames.ai.connect4.strategy import LOSS, WIN, decide, decide_steps, loses_at_once
from abgames.ai.connect4.strategy_book import (
    StrategyBook,
    default_strategy_path,
    dumps,
    load,
    load_default_strategy,
    loads,
)
from abgames.ai.connect4.strategy_builder import WORK_FILE, build_strategy
from abgames.ai.levels import make_player
from abgames.games.connect4 import ConnectFour

#: A middle-game position (18 discs) whose strategy builds in a second or two.
ROOT = "527533114336774424"
PLIES = 6


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def value_after(solver: Solver, position: Position, column: int) -> int:
    """The weak value of playing ``column`` for the side to move (an independent solve)."""
    after = position.play(column)
    if after.won:
        return WIN
    if after.is_over:
        return 0
    return -solver.solve(after, weak=True)


@pytest.fixture(scope="module")
def strategy(tmp_path_factory: pytest.TempPathFactory) -> tuple[StrategyBook, Path]:
    work = tmp_path_factory.mktemp("strategy")
    book = build_strategy(
        root=ROOT, plies=PLIES, work_dir=work, output=work / "s.bin", table_bits=18, log=print
    )
    return book, work


def met_positions(book: StrategyBook, plies: int = PLIES) -> list[str]:
    """Every position a player following ``book`` meets at its turn, either side, within it."""
    frontier = [ROOT] + [ROOT + str(c) for c in range(1, 8)]
    met: list[str] = []
    while frontier:
        moves = frontier.pop()
        position = Position.parse(moves)
        if position.is_over or position.moves >= len(ROOT) + plies:
            continue
        met.append(moves)
        entry = book.get(position)
        assert entry is not None, moves
        after = position.play(entry[1])
        if not after.is_over:
            mine = moves + str(entry[1] + 1)
            frontier.extend(mine + str(c + 1) for c in range(7) if after.can_play(c))
    return met


def test_decide_keeps_the_value_of_positions_from_the_reference_data(shared_data: Path) -> None:
    solver = Solver(18)
    rows = (shared_data / "connect4" / "Test_L2_R1").read_text().splitlines()[::25]
    for row in rows:
        moves, score = row.split()
        position = Position.parse(moves)
        decision = decide(position, lambda p: solver.solve(p, weak=True))
        assert decision.value == sign(int(score)), moves
        assert value_after(solver, position, decision.column) == decision.value, moves


def test_decide_in_a_lost_position_solves_nothing_and_avoids_losing_at_once() -> None:
    # Yellow holds the second row of columns 5..7: red in column 4 lets it make four.
    position = Position.parse("56751716")

    def no_solving(_: Position) -> int:
        raise AssertionError("a lost position needs no solve")

    assert loses_at_once(position.play(3))
    decision = decide(position, no_solving, LOSS)
    assert decision.value == LOSS and decision.column == 2  # the centre, but safe


def test_decide_steps_passes_progress_on_and_decides_as_decide() -> None:
    solver = Solver(18)
    position = Position.parse(ROOT)

    def value_steps(child: Position) -> Generator[str, None, int]:
        yield f"solving {child.moves}"
        return solver.solve(child, weak=True)

    steps = decide_steps(position, value_steps)
    reports = []
    while True:
        try:
            reports.append(next(steps))
        except StopIteration as done:
            decision = done.value
            break
    assert reports and reports[0] == f"solving {position.moves}"
    assert decision == decide(position, lambda p: solver.solve(p, weak=True))


def test_decide_takes_an_immediate_win_first() -> None:
    position = Position.parse("445566")  # red wins at once in column 3 or 7
    decision = decide(position, lambda _: pytest.fail("no solve needed"))
    assert decision.column == 2 and decision.value == WIN  # the centre-most of the two


def test_the_format_round_trips_and_mirrors_the_move() -> None:
    position = Position.parse("1")  # column 1; its mirror image is column 7
    key = canonical_key(position.key)
    column_in_canonical = 0 if key == position.key else 6
    book = StrategyBook.from_moves({key: (WIN, column_in_canonical)}, max_moves=1)
    again = loads(dumps(book))
    assert again.get(position) == (WIN, 0)
    assert again.get(Position.parse("7")) == (WIN, 6)
    assert again.get(Position.parse("4")) is None


def test_the_empty_board_has_an_entry_like_any_position() -> None:
    # The empty board's key is 0: a book from the first move on must hold and load it.
    empty = Position.parse("")
    assert canonical_key(empty.key) == 0
    book = StrategyBook.from_moves({0: (WIN, 3), 5: (LOSS, 1)}, max_moves=1)
    again = loads(dumps(book))
    assert again.get(empty) == (WIN, 3)


def test_an_entry_for_a_full_column_is_never_played() -> None:
    position = Position.parse("444444")
    key = canonical_key(position.key)
    book = StrategyBook.from_moves({key: (WIN, 3)}, max_moves=6)
    assert book.get(position) is None


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: b[:-1], "bytes"),
        (lambda b: b[:-1] + bytes([b[-1] ^ 1]), "checksum"),
        (lambda b: b"C4BK" + b[4:], "not a Connect Four strategy book"),
        (lambda b: b[:4] + b"\x02\x00" + b[6:], "version 2"),
        (lambda b: b[:5], "too short"),
    ],
)
def test_a_damaged_strategy_book_gives_a_clear_error(
    damage: Callable[[bytes], bytes], message: str
) -> None:
    image = dumps(StrategyBook.from_moves({5: (1, 3), 300: (0, 2)}, max_moves=4))
    with pytest.raises(BookError, match=message):
        loads(damage(image))


def test_an_entry_that_is_no_move_is_refused() -> None:
    image = bytearray(dumps(StrategyBook.from_moves({5: (1, 3)}, max_moves=4)))
    image[-1] = 7  # value -1, column 8

    image[16:20] = zlib.crc32(bytes(image[20:])).to_bytes(4, "little")
    with pytest.raises(BookError, match="no value and column"):
        loads(bytes(image))


def test_every_book_move_keeps_the_value(strategy: tuple[StrategyBook, Path]) -> None:
    book, _ = strategy
    solver = Solver(18)
    met = met_positions(book)
    assert len(met) > 50
    for moves in met:
        position = Position.parse(moves)
        entry = book.get(position)
        assert entry is not None
        value, column = entry
        assert solver.solve(position, weak=True) == value
        assert value_after(solver, position, column) == value


def test_a_strategy_build_resumes_without_solving_again(
    strategy: tuple[StrategyBook, Path],
) -> None:
    book, work = strategy
    before = (work / WORK_FILE).read_text()
    again = build_strategy(
        root=ROOT, plies=PLIES, work_dir=work, output=work / "again.bin", log=lambda _: None
    )
    assert (work / WORK_FILE).read_text() == before
    assert dumps(again) == dumps(book)


def test_exact_results_are_reused_and_decide_as_the_exact_player(tmp_path: Path) -> None:
    exact_work = tmp_path / "exact"
    build(
        root=ROOT,
        plies=2,
        work_dir=exact_work,
        output=exact_work / "book.bin",
        table_bits=18,
        log=lambda _: None,
    )
    weak_work = tmp_path / "weak"
    book = build_strategy(
        root=ROOT,
        plies=2,
        work_dir=weak_work,
        output=weak_work / "s.bin",
        exact_sources=[exact_work / "solved.txt"],
        table_bits=18,
        log=lambda _: None,
    )
    assert (weak_work / WORK_FILE).read_text() == ""  # everything came from the exact build
    exact_book = load_exact_book(exact_work / "book.bin")
    player = PerfectPlayer(book=exact_book, strategy=None, table_bits=16)
    met = met_positions(book, plies=2)
    assert len(met) == 8
    for moves in met:
        entry = book.get(Position.parse(moves))
        assert entry is not None
        assert player.choose(ConnectFour.from_notation(moves)).move == entry[1], moves


def test_the_strategy_book_narrows_the_perfect_players_solves() -> None:
    """The shipped book's win/draw/loss bounds the exact solve: the same moves, fewer nodes."""
    book = load_default_strategy()
    assert book is not None
    rng = random.Random(5)
    states = []
    for game in range(60):  # the book's moves on one side, random replies on the other
        state = ConnectFour()
        while state.ply < EXACT_FROM - 2 + game % 2 and state.outcome() is None:
            entry = book.get(Position.from_state(state))
            if state.to_move == game % 2:
                assert entry is not None, state.notation()
                state.play(entry[1])
            else:
                state.play(rng.choice(state.legal_moves()))
        if state.outcome() is None:
            states.append(state)
    states = states[:12]
    assert len(states) == 12
    solver = Solver(20)
    with_book = PerfectPlayer(book=None, table_bits=18)
    without = PerfectPlayer(book=None, strategy=None, level_book=None, table_bits=18)
    nodes_with = nodes_without = 0
    for state in states:
        position = Position.from_state(state)
        entry = book.get(position)
        assert entry is not None
        scores = solver.analyze(position)
        with_book.clear()
        without.clear()
        narrowed, plain = with_book.choose(state), without.choose(state)
        assert narrowed.solved and narrowed.move is not None
        assert scores[narrowed.move] == max(scores)
        assert (narrowed.move, narrowed.score) == (plain.move, plain.score)
        assert sign(max(scores)) == entry[0]
        nodes_with += narrowed.nodes
        nodes_without += plain.nodes
    assert nodes_with < nodes_without


def test_perfect_keeps_the_value_against_random_and_heuristic_players(shared_data: Path) -> None:
    """A small sample: games from early middle-game positions, both colours; every move checked."""
    from abgames.ai.levels import make_player

    solver = Solver(20)
    rows = [
        row.split()[0]
        for row in (shared_data / "connect4" / "Test_L2_R1").read_text().splitlines()
        if len(row.split()[0]) in (EXACT_FROM - 2, EXACT_FROM - 1)
    ][:4]
    rng = random.Random(7)
    easy = make_player("connect4", "easy", seed=3)
    for index, start in enumerate(rows):
        state = ConnectFour.from_notation(start)
        perfect = PerfectPlayer(book=None, strategy=None, level_book=None, table_bits=20)
        perfect_side = index % 2
        while state.outcome() is None:
            if state.ply % 2 == perfect_side or state.ply == len(start):
                position = Position.from_state(state)
                before = solver.solve(position, weak=True)
                result = perfect.choose(state)
                assert result.solved and result.move is not None
                assert value_after(solver, position, result.move) == before, state.notation()
                state.play(result.move)
            elif index < 2:
                state.play(rng.choice(list(state.legal_moves())))
            else:
                move = easy.choose(state).move
                assert move is not None
                state.play(move)


def test_a_key_gives_its_position_back() -> None:
    for moves in ("", "4", "4453", ROOT, "1111112"):
        position = Position.parse(moves)
        again = position_of_key(position.key)
        assert (again.current, again.mask, again.moves) == (
            position.current,
            position.mask,
            position.moves,
        )


def test_perfect_against_perfect_from_every_two_disc_opening_keeps_the_value(
    strategy: tuple[StrategyBook, Path],
) -> None:
    """From the book's root, every opening of up to 2 discs: the game ends with its value."""
    book, _ = strategy
    solver = Solver(20)
    first = PerfectPlayer(book=None, strategy=book, table_bits=18)
    second = PerfectPlayer(book=None, strategy=book, table_bits=18)
    openings = [""] + [str(a) for a in range(1, 8)]
    openings += [str(a) + str(b) for a in range(1, 8) for b in range(1, 8)]
    played = 0
    for opening in openings:
        try:
            state = ConnectFour.from_notation(ROOT + opening)
        except ValueError:
            continue  # a full column
        if state.outcome() is not None:
            continue
        value = solver.solve(Position.from_state(state), weak=True)
        side = state.to_move
        while state.outcome() is None:
            player = first if state.to_move == side else second
            move = player.choose(state).move
            assert move is not None
            state.play(move)
        outcome = state.outcome()
        assert outcome is not None
        result = 0 if outcome.winner is None else (1 if outcome.winner == side else -1)
        assert result == value, opening
        played += 1
    assert played > 40


#: Reference positions (../shared/data/connect4/Test_*) each shipped book holds: the
#: exact book 17 (9 of Test_L1_R1, 8 of Test_L1_R2), the strategy book 15 (8 and 7).
#: A rebuilt book may hold more, never fewer.
EXACT_BOOK_REFERENCE_POSITIONS = 17
STRATEGY_BOOK_REFERENCE_POSITIONS = 15


def test_the_shipped_books_agree_with_the_reference_data(shared_data: Path) -> None:
    """Every reference position a shipped book holds has the reference value there, and
    each book holds at least the reference positions it held when shipped (a book whose
    lookups all missed would check nothing)."""
    from abgames.ai.connect4.book import load_default_book

    exact = load_default_book()
    assert exact is not None, "the exact book is shipped with the package"
    path = default_strategy_path()
    assert path.is_file(), f"the strategy book {path} is shipped with the package"
    strategy = load(path)
    checked_exact = checked_strategy = 0
    for data in sorted((shared_data / "connect4").glob("Test_*")):
        for row in data.read_text().splitlines():
            moves, score = row.split()
            position = Position.parse(moves)
            if position.moves <= exact.max_moves:
                known = exact.get(position.key)
                if known is not None:
                    assert known == int(score), moves
                    checked_exact += 1
            if position.moves <= strategy.max_moves:
                entry = strategy.get(position)
                if entry is not None:
                    assert entry[0] == sign(int(score)), moves
                    checked_strategy += 1
    assert checked_exact >= EXACT_BOOK_REFERENCE_POSITIONS
    assert checked_strategy >= STRATEGY_BOOK_REFERENCE_POSITIONS


def test_shipped_perfect_against_itself_from_every_opening_of_up_to_two_discs() -> None:
    """From the empty board with the shipped books, every opening of up to 2 discs.

    A side whose opening moves are all ``perfect``'s own choices is on the books' tree:
    it must never fall back on a heuristic move and must end with at least the
    opening's value (exactly the value when both sides are on the tree). The values come
    from the exact book (every position of up to 2 discs, solved exactly by the exact
    builder, independently of the strategy book's win/draw/loss solves); the empty board
    is a first-player win. An opening that leaves neither side on the tree is skipped:
    ``perfect`` never meets it (docs/connect4.md, "What is guaranteed now").
    """
    exact = load_default_book()
    assert exact is not None and load_default_strategy() is not None
    player = make_player("connect4", "perfect")
    openings = [""] + [str(a) for a in range(1, 8)]
    openings += [str(a) + str(b) for a in range(1, 8) for b in range(1, 8)]
    played = both = 0
    for opening in openings:
        state = ConnectFour()
        on_tree = {0, 1}
        for move in (int(c) - 1 for c in opening):
            if player.choose(state).move != move:
                on_tree.discard(state.to_move)
            state.play(move)
        if not on_tree:
            continue
        score = exact.get(Position.from_state(state).key)
        assert score is not None or opening == "", opening
        value_for_mover = 1 if opening == "" else sign(score)  # type: ignore[arg-type]
        mover = state.to_move
        while state.outcome() is None:
            result = player.choose(state)
            assert result.move is not None
            if state.to_move in on_tree:
                assert result.solved, (opening, state.notation())
            state.play(result.move)
        outcome = state.outcome()
        assert outcome is not None
        for side in on_tree:
            value = value_for_mover if side == mover else -value_for_mover
            achieved = 0 if outcome.winner is None else (1 if outcome.winner == side else -1)
            assert achieved >= value, (opening, side)
            if len(on_tree) == 2:
                assert achieved == value, opening
        played += 1
        both += len(on_tree) == 2
    assert played >= 21 and both >= 1
