"""The pruning experiment, through the library and the command line."""

from __future__ import annotations

import subprocess
import sys

from abgames.ai.connect4.heuristic import ConnectFourEvaluation
from abgames.ai.tictactoe import TicTacToeEvaluation
from abgames.games import ConnectFour, TicTacToe
from abgames.search.experiment import run_pruning_experiment

#: Plain minimax visits every node of the tic-tac-toe game tree from the empty board.
TICTACTOE_TREE_NODES = 549_946


def test_empty_tictactoe_board() -> None:
    rows = run_pruning_experiment(TicTacToe(), TicTacToeEvaluation(), None)
    assert rows[0].method == "minimax"
    assert rows[0].nodes == TICTACTOE_TREE_NODES
    assert all(row.value == 0 and row.agrees for row in rows)
    plain, ordered, table = rows[1], rows[2], rows[3]
    assert plain.nodes < rows[0].nodes // 10
    assert ordered.nodes < plain.nodes
    assert table.nodes < ordered.nodes


def test_connect_four_to_a_depth() -> None:
    rows = run_pruning_experiment(ConnectFour.from_notation("44"), ConnectFourEvaluation(), 4)
    assert all(row.agrees for row in rows)
    assert rows[1].nodes < rows[0].nodes


def test_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "abgames", "experiment", "pruning", "tictactoe", "b2", "a3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "All methods agree" in result.stdout
    assert "minimax" in result.stdout and "transposition table" in result.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "abgames", "experiment", "pruning", "connect4", "8"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2 and "bad position" in bad.stderr and "Traceback" not in bad.stderr
