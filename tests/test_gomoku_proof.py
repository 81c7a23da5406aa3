"""The proof-number VCT solver (``ai/gomoku/proof.py``) against the depth-first one,
every defence, and the board's symmetries (the depth-first solver's puzzle tests in
test_gomoku_engine.py run with both: ``vct_engine``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from abgames.ai.gomoku import tables as kt
from abgames.ai.gomoku.engine import EngineSettings, GomokuEngine
from abgames.ai.gomoku.player import LEVEL_SETTINGS, make_tuned_player
from abgames.ai.gomoku.proof import run_proof_vct
from abgames.ai.gomoku.threats import run_solver
from abgames.games.gomoku import Gomoku, Rule
from abgames.search.limit import Limit
from abgames.search.score import WIN_THRESHOLD
from conftest import needs_shared_data
from test_gomoku_benchmarks import puzzles, wins
from test_gomoku_engine import (
    COUNTER_PUZZLE,
    FORBIDDEN_BREAKER_PUZZLE,
    board_state,
    puzzle_lines,
    rows,
    transform,
)

PROOF = EngineSettings(proof_vct=True)


@pytest.fixture(scope="module")
def engine() -> GomokuEngine:
    return GomokuEngine(PROOF)


def win_states() -> list[Gomoku]:
    return [position.state() for position in wins.read_positions(wins.DEFAULT_POSITIONS)]


def solve_both(engine: GomokuEngine, state: Gomoku, depth: int, nodes: int) -> tuple[int, int]:
    """(depth-first, proof-number) VCT results from ``state``, each with fresh tables,
    each search finished within ``nodes``."""
    results = []
    for proof in (False, True):
        board, tables = engine._prepare(state)
        tables.vcf_key[:] = 0
        if proof:
            moves = run_proof_vct(board, tables, depth, nodes)
        else:
            moves = run_solver(board, tables, depth, nodes, True)
        assert not tables.stats[kt.S_VCF_EXHAUSTED]  # a complete search: a verdict
        results.append(moves)
    return results[0], results[1]


@pytest.mark.parametrize("to_move", [1, 0])
def test_a_claimed_vct_holds_against_every_defence(engine: GomokuEngine, to_move: int) -> None:
    """Every legal defence is tried against the solver's moves (the game's rules)."""
    board = COUNTER_PUZZLE if to_move == 1 else FORBIDDEN_BREAKER_PUZZLE
    state = board_state(rows(board), Rule.RENJU, to_move)
    assert puzzles.vct_claim_holds(engine, state, 5)
    assert not puzzles.vct_claim_holds(engine, state, 4)


def test_the_verdict_is_the_depth_first_solvers_on_long_wins(engine: GomokuEngine) -> None:
    """Both solvers search the same tree to the same depth: searched to the end, they
    agree on each position Rapfi announced a win in, and on the position a move before
    it (the other side to move); a win's length is within the depth."""
    states = win_states()
    before = [Gomoku.from_notation(" ".join(s.notation().split()[:-1])) for s in states]
    agreed_wins = 0
    for state in states + before:
        depth_first, proof = solve_both(engine, state, 5, 2_000_000)
        assert (depth_first > 0) == (proof > 0), state.notation()
        assert proof <= 5 + 1
        agreed_wins += proof > 0
    assert agreed_wins >= 1  # (these are long wins: few within 5 moves)


@needs_shared_data
@pytest.mark.parametrize("depth", [3, 4, 5])
def test_the_verdict_is_the_depth_first_solvers_on_puzzles(
    engine: GomokuEngine, depth: int
) -> None:
    """The same on quintet's puzzle boards under Renju, each side to move (the table
    keeps the two apart: the board's hash does not say who is to move)."""
    agreed_wins = 0
    for case in puzzle_lines("quintet_vcf.jsonl"):
        for to_move in (0, 1):
            state = board_state(case["board"], Rule.RENJU, to_move)
            depth_first, proof = solve_both(engine, state, depth, 2_000_000)
            assert (depth_first > 0) == (proof > 0), (case["name"], to_move)
            assert proof <= depth + 1
            agreed_wins += proof > 0
    assert agreed_wins >= 18


def test_a_rotated_or_mirrored_board_gets_the_same_verdict(engine: GomokuEngine) -> None:
    state = board_state(rows(COUNTER_PUZZLE), Rule.RENJU, 1)
    for turn in range(8):
        changed = transform(state, turn)
        found = engine.solve(changed, depth=4, threes=True)
        assert found is not None and found.moves - 1 <= 4, turn
        assert puzzles.vct_claim_holds(engine, changed, found.moves), turn
        assert engine.solve(changed, depth=3, threes=True) is None, turn


def test_out_of_nodes_it_claims_nothing(engine: GomokuEngine) -> None:
    state = win_states()[1]
    board, tables = engine._prepare(state)
    assert run_proof_vct(board, tables, 20, 50) == 0
    assert tables.stats[kt.S_VCF_EXHAUSTED] == 1
    assert tables.pv_length[0] == 0
    tables.stop[0] = 1  # the stop flag ends it too (read every 1,024 nodes)
    tables.stats[kt.S_VCF_NODES] = 1023
    assert run_proof_vct(board, tables, 20, 1_000_000) == 0
    assert tables.stats[kt.S_ABORTED] == 1


@pytest.mark.parametrize("game", [17, 32])
def test_a_long_win_is_proved_and_its_line_replays(engine: GomokuEngine, game: int) -> None:
    """Wins of more than 8 attacker moves that Rapfi announced against ``hard``: proved
    by proof numbers in 100,000 nodes; the line is legal from the position, and where it
    reaches a five, the five is the attacker's."""
    state = next(p.state() for p in wins.read_positions(wins.DEFAULT_POSITIONS) if p.game == game)
    found = engine.solve(state, depth=16, threes=True, nodes=100_000)
    assert found is not None and 8 < found.moves <= 17
    game_state = state.copy()
    for move in found.line:
        assert game_state.why_illegal(move) is None
        game_state.play(move)
        outcome = game_state.outcome()
        if outcome is not None:
            assert outcome.winner == state.to_move
            break


def test_the_engine_plays_the_root_vct_it_proves() -> None:
    """With ``search.proof_vct`` the root VCT is the proof-number solver's: a win the
    depth-first one at the same node budget misses is played at once."""
    settings = replace(LEVEL_SETTINGS["hard"][0], root_vct_depth=16, root_vct_nodes=60_000)
    proof = replace(settings, proof_vct=True)

    def proved(state: Gomoku, with_settings: EngineSettings) -> bool:
        engine = GomokuEngine(with_settings)
        return engine.solve(state, depth=16, threes=True, nodes=60_000) is not None

    state = next(s for s in win_states() if proved(s, proof) and not proved(s, settings))
    last = None
    for last in GomokuEngine(proof).search(state, Limit(depth=1)):  # noqa: B007
        pass
    assert last is not None and last.score >= WIN_THRESHOLD
    player = make_tuned_player("hard", None, (), (("proof_vct", 1),))
    assert player.settings.proof_vct  # type: ignore[attr-defined]
