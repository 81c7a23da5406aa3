"""The compiled Connect Four solver: exact scores on the shared sets, symmetry, the table."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from abgames.ai.connect4.heuristic import ConnectFourEvaluation
from abgames.ai.connect4.kernel import INVALID_MOVE
from abgames.ai.connect4.perfect import plies_to_end, to_search_score
from abgames.ai.connect4.solver import (
    NodeLimitReached,
    Position,
    SolveProgress,
    Solver,
    SolveStopped,
    canonical_key,
)
from abgames.games.connect4 import ConnectFour
from abgames.search.alphabeta import AlphaBeta
from abgames.search.limit import Limit
from abgames.search.score import is_decisive, to_root_relative

#: How many positions of each shared set the fast tests solve (spread over the file).
SAMPLES = {"L3_R1": 100, "L2_R1": 60, "L2_R2": 20, "L1_R1": 40, "L1_R2": 4}
SMALL_TABLE_BITS = 16


def read_set(shared_data: Path, name: str) -> list[tuple[str, int]]:
    path = shared_data / "connect4" / f"Test_{name}"
    if not path.exists():
        pytest.fail(f"missing benchmark file {path}")
    return [(moves, int(score)) for moves, score in (line.split() for line in path.open())]


def sample(rows: list[tuple[str, int]], count: int) -> list[tuple[str, int]]:
    step = max(1, len(rows) // count)
    return rows[::step][:count]


def mirrored(moves: str) -> str:
    return "".join(str(8 - int(c)) for c in moves)


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


@pytest.mark.parametrize("name", list(SAMPLES))
def test_shared_sets_are_solved_exactly(shared_data: Path, solver: Solver, name: str) -> None:
    for moves, expected in sample(read_set(shared_data, name), SAMPLES[name]):
        solver.clear()
        assert solver.solve(Position.parse(moves)) == expected, moves


def test_weak_mode_gives_the_sign(shared_data: Path, solver: Solver) -> None:
    for moves, expected in sample(read_set(shared_data, "L2_R1"), 30):
        solver.clear()
        assert solver.solve(Position.parse(moves), weak=True) == (expected > 0) - (expected < 0)


def test_mirrored_positions_score_the_same(shared_data: Path, solver: Solver) -> None:
    for moves, expected in sample(read_set(shared_data, "L2_R1"), 30):
        solver.clear()
        assert solver.solve(Position.parse(mirrored(moves))) == expected, moves
        assert canonical_key(Position.parse(moves).key) == canonical_key(
            Position.parse(mirrored(moves)).key
        )


def test_analyze_agrees_with_solve(shared_data: Path, solver: Solver) -> None:
    for moves, expected in sample(read_set(shared_data, "L3_R1"), 20):
        position = Position.parse(moves)
        scores = solver.analyze(position)
        assert max(scores) == expected, moves
        for column, score in enumerate(scores):
            if score == INVALID_MOVE:
                assert not position.can_play(column)
            elif not position.play(column).won:
                assert score == -solver.solve(position.play(column))


def random_late_position(rng: random.Random, plies: int) -> ConnectFour:
    while True:
        state = ConnectFour()
        while state.ply < plies and state.outcome() is None:
            state.play(rng.choice(state.legal_moves()))
        if state.outcome() is None:
            return state


def reference_score(state: ConnectFour) -> int:
    """The reference engine's full-depth score (its best score is exact once solved)."""
    engine = AlphaBeta(ConnectFourEvaluation())
    result = engine.best(state.copy(), Limit(depth=state.width * state.height))
    assert result.solved or is_decisive(result.score)
    return result.score


def test_agrees_with_the_reference_engine_on_random_late_positions(solver: Solver) -> None:
    rng = random.Random(6)
    for _ in range(8):
        state = random_late_position(rng, rng.randint(31, 34))
        position = Position.from_state(state)
        assert to_search_score(solver.solve(position), position.moves) == reference_score(state)
        scores = solver.analyze(position)
        for column in state.legal_moves():
            child = state.copy()
            child.play(column)
            if child.outcome() is not None:
                continue
            # The child's score, one ply further from the root and from the other side.
            expected = -to_root_relative(reference_score(child), 1)
            assert to_search_score(scores[column], position.moves) == expected, (state, column)


def test_scores_convert_to_plies_to_the_end() -> None:
    # The side to move wins with its next disc: one ply.
    assert plies_to_end(22 - 3, 4) == 1
    # The opponent wins with its next disc: two plies.
    assert plies_to_end(-(22 - 4), 5) == 2
    assert plies_to_end(0, 40) == 2


def test_finished_games_score_from_the_loser_view(solver: Solver) -> None:
    assert solver.solve(Position.parse("1212121")) == -(22 - 4)
    assert solver.analyze(Position.parse("1212121")) == [INVALID_MOVE] * 7


def test_table_never_exceeds_its_memory_bound(shared_data: Path) -> None:
    small = Solver(table_bits=SMALL_TABLE_BITS)
    table = small.table
    assert small.table_bytes == 8 << SMALL_TABLE_BITS
    for moves, expected in sample(read_set(shared_data, "L2_R2"), 10):
        assert small.solve(Position.parse(moves)) == expected
    assert small.table is table
    assert small.table_bytes == 8 << SMALL_TABLE_BITS


def test_clearing_many_times_keeps_results_exact(shared_data: Path) -> None:
    small = Solver(table_bits=SMALL_TABLE_BITS)
    rows = sample(read_set(shared_data, "L3_R1"), 300)
    for moves, expected in rows:  # 300 clears: the 8-bit generation wraps around
        small.clear()
        assert small.solve(Position.parse(moves)) == expected


def test_table_size_is_checked() -> None:
    with pytest.raises(ValueError, match="table_bits"):
        Solver(table_bits=3)


def test_node_limit_stops_a_long_solve(solver: Solver) -> None:
    with pytest.raises(NodeLimitReached):
        solver.solve(Position.parse("4444"), node_limit=1000)
    assert solver.nodes <= 1000


def test_a_solve_in_chunks_is_the_same_search(shared_data: Path) -> None:
    """Pausing between chunks and resuming changes nothing: same scores, same node counts."""
    whole, chunked = Solver(SMALL_TABLE_BITS), Solver(SMALL_TABLE_BITS)
    chunked.chunk_nodes = 997
    reports: list[SolveProgress] = []
    for moves, expected in sample(read_set(shared_data, "L2_R2"), 6):
        position = Position.parse(moves)
        whole.clear()
        chunked.clear()
        assert chunked.solve(position, progress=reports.append) == expected
        assert whole.solve(position) == expected
        assert chunked.nodes == whole.nodes
        whole.clear()
        chunked.clear()
        assert chunked.analyze(position, progress=reports.append) == whole.analyze(position)
        assert chunked.nodes == whole.nodes
    assert len(reports) > 20


def test_progress_counts_nodes_and_names_the_column() -> None:
    solver = Solver(SMALL_TABLE_BITS)
    solver.chunk_nodes = 5000
    reports: list[SolveProgress] = []
    solver.analyze(Position.parse("2416615552"), progress=reports.append)
    assert len(reports) > 10
    assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)
    assert all(r.nodes < solver.nodes for r in reports)
    assert {r.column for r in reports} <= set(range(7))
    assert len({r.column for r in reports}) > 1
    solver.solve(Position.parse("2416615552"), progress=reports.append)
    assert reports[-1].column is None


def test_stop_ends_a_running_solve_at_the_next_chunk() -> None:
    solver = Solver(SMALL_TABLE_BITS)
    solver.chunk_nodes = 5000
    with pytest.raises(SolveStopped):
        solver.solve(Position.parse("4444"), progress=lambda _: solver.stop())
    assert solver.nodes <= 2 * solver.chunk_nodes
    # The next call starts afresh and answers.
    assert solver.solve(Position.parse("2252576253462244111563365343671351441")) == -1


@pytest.mark.parametrize("name", ["L2_R1", "L1_R1"])
def test_a_window_holds_the_score_or_says_which_side_it_is_on(shared_data: Path, name: str) -> None:
    """Inside the window: the score; below: ``low``; above: a lower bound of ``high`` or more."""
    solver = Solver(SMALL_TABLE_BITS)
    for moves, expected in sample(read_set(shared_data, name), 15):
        position = Position.parse(moves)
        solver.clear()
        assert solver.solve(position, low=expected - 2, high=expected + 3) == expected
        solver.clear()
        assert solver.solve(position, low=expected, high=expected + 1) == expected
        solver.clear()
        assert solver.solve(position, low=expected + 1, high=expected + 2) == expected + 1
        solver.clear()
        above = solver.solve(position, low=expected - 2, high=expected - 1)
        assert expected - 1 <= above <= expected


def test_an_empty_window_is_refused() -> None:
    with pytest.raises(ValueError, match="empty window"):
        Solver(SMALL_TABLE_BITS).solve(Position.parse("4453"), low=3, high=2)


@pytest.mark.parametrize("name", ["L2_R1", "L2_R2", "L1_R1"])
def test_the_column_a_solve_found_has_the_score(shared_data: Path, name: str) -> None:
    solver = Solver(SMALL_TABLE_BITS)
    found = 0
    for moves, expected in sample(read_set(shared_data, name), 20):
        position = Position.parse(moves)
        solver.clear()
        assert solver.solve(position) == expected
        column = solver.best_column
        if column is not None:
            assert solver.analyze(position)[column] == expected, moves
            found += 1
    assert found > 0


@pytest.mark.parametrize("name", ["L2_R2", "L1_R1"])
def test_a_probe_cut_off_by_a_child_in_the_table_names_that_child(
    shared_data: Path, name: str
) -> None:
    """With every child tested first (is it at most ``-score``?), a null-window probe
    just below the score is cut off at the root by a best child's table entry
    (enhanced transposition cutoffs), before any move is searched: the probe still
    names a column, and it keeps the score."""
    solver = Solver(SMALL_TABLE_BITS)
    exact = Solver(SMALL_TABLE_BITS)
    named = 0
    for moves, expected in sample(read_set(shared_data, name), 20):
        position = Position.parse(moves)
        wins_at_once = any(
            position.can_play(column) and position.play(column).won for column in range(7)
        )
        if expected <= -((42 - position.moves) // 2) or wins_at_once:
            continue  # no probe below the least score; a win at once is not searched
        exact.clear()
        scores = exact.analyze(position)
        assert max(scores) == expected
        solver.clear()
        for column in range(7):
            if position.can_play(column):
                solver.solve(position.play(column), low=-expected, high=1 - expected)
        assert solver.solve(position, low=expected - 1, high=expected) >= expected
        found = solver.best_column
        if found is not None:
            assert scores[found] == expected, moves
            named += 1
    assert named > 0
