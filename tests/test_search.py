"""The reference engine: shortest wins, limits, the stop flag, the table, determinism."""

from __future__ import annotations

import threading
import time

from abgames.ai.connect4.heuristic import ConnectFourEvaluation
from abgames.ai.tictactoe import TicTacToeEvaluation
from abgames.games import ConnectFour, TicTacToe
from abgames.search import AlphaBeta, Limit, SearchOptions, minimax
from abgames.search.score import WIN, describe, is_decisive


def test_immediate_win_beats_a_slower_one() -> None:
    # X: a1 b2; O: b1 c1. X wins at once on c3, and could also win later elsewhere.
    state = TicTacToe.from_notation("a1 b1 b2 c1")
    result = AlphaBeta(TicTacToeEvaluation()).best(state, Limit(depth=9))
    assert result.move == state.parse_move("c3")
    assert result.score == WIN - 1
    assert describe(result.score) == "wins in 1 move"
    slower = [m for m, s in result.root_scores.items() if WIN - s > 0 and s > 0 and s < WIN - 1]
    assert slower, "the position should also hold slower wins"


def test_connect_four_forced_win_with_shortest_line() -> None:
    # After 4455 the first player makes an open three on the bottom row: win in 2 moves.
    state = ConnectFour.from_notation("4455")
    result = AlphaBeta(ConnectFourEvaluation()).best(state, Limit(depth=8))
    assert result.score == WIN - 3
    assert result.move in (state.parse_move("3"), state.parse_move("6"))
    assert len(result.pv) == 3
    probe = state.copy()
    for move in result.pv:
        probe.play(move)
    outcome = probe.outcome()
    assert outcome is not None and outcome.winner == 0
    assert result.solved


def test_loser_delays_the_loss() -> None:
    # The second player to move after 4455 3: every move loses; the slowest is chosen.
    state = ConnectFour.from_notation("44553")
    result = AlphaBeta(ConnectFourEvaluation()).best(state, Limit(depth=6))
    assert is_decisive(result.score) and result.score < 0
    assert result.score == max(result.root_scores.values())


def test_transposition_table_changes_nodes_not_values() -> None:
    for notation in ("", "4", "44", "4453", "332211"):
        state = ConnectFour.from_notation(notation)
        with_table = AlphaBeta(ConnectFourEvaluation()).fixed_depth(state, 5)
        without = AlphaBeta(
            ConnectFourEvaluation(), SearchOptions(transposition_table=False)
        ).fixed_depth(state, 5)
        oracle = minimax(state, 5, ConnectFourEvaluation())
        assert with_table.root_scores == without.root_scores == oracle.scores
        assert with_table.score == without.score == oracle.value
        assert with_table.nodes != without.nodes


def test_every_depth_is_yielded_in_order() -> None:
    results = list(AlphaBeta(ConnectFourEvaluation()).search(ConnectFour(), Limit(depth=4)))
    assert [r.depth for r in results] == [1, 2, 3, 4]
    assert all(r.complete for r in results)
    assert [r.nodes for r in results] == sorted(r.nodes for r in results)


def test_stop_flag_from_another_thread() -> None:
    engine = AlphaBeta(ConnectFourEvaluation())
    results = []
    started = threading.Event()

    def run() -> None:
        for result in engine.search(ConnectFour(), Limit()):
            results.append(result)
            started.set()

    worker = threading.Thread(target=run)
    worker.start()
    assert started.wait(10)
    engine.stop()
    worker.join(30)
    assert not worker.is_alive()
    assert results and results[-1].move is not None
    assert results[-1].depth < 42


#: Slack allowed past a time limit: a correctness bound (the limit is kept), not a benchmark.
TIME_LIMIT_SLACK_SECONDS = 1.0


def test_time_limit_returns_a_complete_answer() -> None:
    limit_seconds = 0.2
    bound = limit_seconds + TIME_LIMIT_SLACK_SECONDS
    start = time.perf_counter()
    results = []
    for result in AlphaBeta(ConnectFourEvaluation()).search(
        ConnectFour(), Limit(time=limit_seconds)
    ):
        assert time.perf_counter() - start < bound  # fails (not hangs) if the limit is ignored
        results.append(result)
    waited = time.perf_counter() - start
    last = results[-1]
    assert last.complete and last.depth >= 1 and last.move is not None
    assert last.elapsed <= waited < bound


def test_node_limit_before_depth_one_still_gives_a_move() -> None:
    state = ConnectFour()
    results = list(AlphaBeta(ConnectFourEvaluation()).search(state, Limit(nodes=2)))
    assert len(results) == 1
    assert not results[0].complete
    assert results[0].move in state.legal_moves()
    assert state.ply == 0 and state.key == 0  # the aborted search restored the board


def test_finished_game_yields_nothing() -> None:
    state = TicTacToe.from_notation("a1 a2 b1 b2 c1")
    assert list(AlphaBeta().search(state, Limit(depth=3))) == []


def test_deterministic_by_default_and_seeded_choice_among_equals() -> None:
    state = TicTacToe()
    first = AlphaBeta(TicTacToeEvaluation()).best(state, Limit(depth=9))
    again = AlphaBeta(TicTacToeEvaluation()).best(state, Limit(depth=9))
    assert first.move == again.move
    chosen = set()
    for seed in range(12):
        engine = AlphaBeta(TicTacToeEvaluation(), SearchOptions(seed=seed))
        result = engine.best(state, Limit(depth=9))
        assert result.move is not None
        assert result.root_scores[result.move] == result.score  # always a best move
        chosen.add(result.move)
        same = AlphaBeta(TicTacToeEvaluation(), SearchOptions(seed=seed)).best(
            state, Limit(depth=9)
        )
        assert same.move == result.move
    assert len(chosen) > 1  # every first move draws: the seed varies the choice


def test_search_leaves_the_state_untouched() -> None:
    state = ConnectFour.from_notation("4453")
    key, moves = state.key, list(state.moves)
    AlphaBeta(ConnectFourEvaluation()).best(state, Limit(depth=4))
    assert state.key == key and state.moves == moves
