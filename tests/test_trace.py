"""Traces of the real engine: the textbook tree, counts equal to the experiment's, caps."""

from __future__ import annotations

import pytest

from abgames.games import ConnectFour, GameState, TicTacToe
from abgames.learn import evaluation_for
from abgames.search import AlphaBeta, SearchOptions, minimax
from abgames.search.experiment import METHODS, run_pruning_experiment
from abgames.search.observer import SearchObserver
from abgames.search.trace import LEAF, PRUNED, Trace, TraceNode, run_trace
from textbook_game import LeafValues, TextbookTree


def node_at(trace: Trace, path: str) -> TraceNode:
    """The node reached from the (last) root by the moves named in ``path`` ("bc")."""
    node = trace.nodes[trace.roots[-1]]
    for name in path:
        node = next(trace.nodes[c] for c in node.children if trace.nodes[c].text == name)
    return node


def leaf_paths(trace: Trace, kind: str) -> set[str]:
    """The two-move paths ("bc") of the nodes of ``kind`` two plies down."""
    return {
        trace.nodes[node.parent].text + node.text
        for node in trace.nodes
        if node.kind == kind and node.ply == 2 and node.parent is not None
    }


def test_alpha_beta_prunes_what_the_textbook_prunes() -> None:
    trace = run_trace(TextbookTree(), LeafValues(), "alphabeta", 2)
    # Russell and Norvig: B = 3; C's first leaf 2 <= alpha 3 prunes 4 and 6; D = 2.
    assert leaf_paths(trace, PRUNED) == {"bb", "bc"}
    assert [node_at(trace, p).value for p in ("a", "b", "c", "")] == [3, 2, 2, 3]
    assert node_at(trace, "b").bound == "upper"  # C is "at most 2"
    assert node_at(trace, "a").bound == "exact" and node_at(trace, "").bound == "exact"
    c = node_at(trace, "b")
    assert c.alpha == 3 and c.beta is None  # alpha rose to 3 after B
    assert c.reason is not None and "MIN already holds MAX to 2" in c.reason
    assert "alpha = 3" in c.reason and "MAX will not let the game come here" in c.reason
    assert trace.counters.leaves == 7 and trace.counters.pruned == 2
    assert [trace.nodes[n].text for n in trace.pv] == ["root", "a", "a"]
    cut = [e for e in trace.events if e["type"] == "cut"]
    assert len(cut) == 1 and cut[0]["node"] == c.id


def test_minimax_visits_every_leaf() -> None:
    trace = run_trace(TextbookTree(), LeafValues(), "minimax", 2)
    assert leaf_paths(trace, LEAF) == {a + b for a in "abc" for b in "abc"}
    assert trace.counters.nodes == 13 and trace.counters.pruned == 0
    assert [node_at(trace, p).value for p in ("a", "b", "c", "")] == [3, 2, 2, 3]
    assert all(node.alpha is None and node.beta is None for node in trace.nodes)


@pytest.mark.parametrize(
    ("state", "depth"),
    [
        (TicTacToe.from_notation("b2 a1"), 3),
        (TicTacToe.from_notation("b2 a1 c3"), None),
        (ConnectFour.from_notation("44"), 3),
    ],
)
def test_trace_counts_equal_the_experiments(state: GameState, depth: int | None) -> None:
    evaluation = evaluation_for(state.name)
    rows = run_pruning_experiment(state, evaluation, depth)
    notation = state.notation()
    for method, row in zip(METHODS, rows, strict=True):
        trace = run_trace(state, evaluation, method, depth, max_nodes=100_000)
        assert not trace.truncated
        assert trace.counters.nodes == row.nodes, method
        assert trace.value == row.value, method
        entered = [e for e in trace.events if e["type"] == "enter"]
        assert len(entered) == trace.counters.nodes
        assert all(node.value is not None for node in trace.nodes if node.kind != PRUNED)
    assert state.notation() == notation


def test_root_value_equals_the_engines() -> None:
    state = ConnectFour.from_notation("4453")
    evaluation = evaluation_for("connect4")
    trace = run_trace(state, evaluation, "tt", 4, max_nodes=100_000)
    engine = AlphaBeta(evaluation, SearchOptions(exact_root=False)).fixed_depth(state, 4)
    assert trace.value == engine.score == minimax(state, 4, evaluation).value
    assert [trace.nodes[n].move for n in trace.pv[1:]] == list(engine.pv)


def test_a_trace_stops_at_its_cap_and_says_so() -> None:
    state = TicTacToe()
    trace = run_trace(state, evaluation_for("tictactoe"), "minimax", None, max_nodes=50)
    assert trace.truncated and "50 nodes" in (trace.truncated_reason or "")
    assert trace.counters.nodes == 50 and trace.value is None and trace.pv == []
    assert any(node.value is None for node in trace.nodes)
    assert state.ply == 0


class Counting(SearchObserver):
    def __init__(self) -> None:
        self.events = 0

    def enter(self, state: GameState, alpha: int, beta: int, depth: int) -> None:
        self.events += 1


def test_an_observer_changes_nothing_in_the_search() -> None:
    state = ConnectFour.from_notation("4453")
    evaluation = evaluation_for("connect4")
    plain = AlphaBeta(evaluation).fixed_depth(state, 5)
    counting = Counting()
    watched = AlphaBeta(evaluation, observer=counting).fixed_depth(state, 5)
    assert (watched.score, watched.pv, watched.nodes) == (plain.score, plain.pv, plain.nodes)
    assert watched.root_scores == plain.root_scores
    assert counting.events == plain.nodes + 1  # the root is entered too
