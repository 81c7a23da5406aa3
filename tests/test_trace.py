"""Traces of the real engine: the textbook tree, counts equal to the experiment's, caps."""

from __future__ import annotations

import pytest

from abgames.games import ConnectFour, GameState, IllegalMoveError, NotationError, TicTacToe
from abgames.learn import evaluation_for
from abgames.learn.textbook import LEAF_VALUES, TEXTBOOK_DEPTH, LeafValues, TextbookTree
from abgames.search import AlphaBeta, SearchOptions, minimax
from abgames.search.experiment import METHODS, run_pruning_experiment
from abgames.search.observer import SearchObserver
from abgames.search.trace import LEAF, PRUNED, Trace, TraceNode, run_trace


def node_at(trace: Trace, name: str) -> TraceNode:
    """The node of the (last) root reached by the move named ``name`` ("c2"), or the root."""
    if name == "root":
        return trace.nodes[trace.roots[-1]]
    return next(node for node in trace.nodes if node.text == name)


def leaf_names(trace: Trace, kind: str) -> set[str]:
    """The moves ("c2") leading to the nodes of ``kind`` two plies down."""
    return {node.text for node in trace.nodes if node.kind == kind and node.ply == 2}


def test_alpha_beta_prunes_what_the_textbook_prunes() -> None:
    trace = run_trace(TextbookTree(), LeafValues(), "alphabeta", TEXTBOOK_DEPTH)
    # Russell and Norvig: B = 3; C's first leaf 2 <= alpha 3 prunes c2 and c3 (4 and 6).
    assert leaf_names(trace, PRUNED) == {"c2", "c3"}
    assert leaf_names(trace, LEAF) == {"b1", "b2", "b3", "c1", "d1", "d2", "d3"}
    assert [node_at(trace, m).value for m in ("a1", "a2", "a3", "root")] == [3, 2, 2, 3]
    assert node_at(trace, "a2").bound == "upper"  # C is "at most 2"
    assert node_at(trace, "a1").bound == "exact" and node_at(trace, "root").bound == "exact"
    c = node_at(trace, "a2")
    assert c.alpha == 3 and c.beta is None  # alpha rose to 3 after B
    assert c.reason is not None and "MIN already holds MAX to 2" in c.reason
    assert "alpha = 3" in c.reason and "MAX will not let the game come here" in c.reason
    assert trace.counters.leaves == 7 and trace.counters.pruned == 2
    assert [trace.nodes[n].text for n in trace.pv] == ["root", "a1", "b1"]
    cut = [e for e in trace.events if e["type"] == "cut"]
    assert len(cut) == 1 and cut[0]["node"] == c.id


def test_minimax_visits_every_leaf() -> None:
    trace = run_trace(TextbookTree(), LeafValues(), "minimax", TEXTBOOK_DEPTH)
    assert leaf_names(trace, LEAF) == {f"{m}{i}" for m in "bcd" for i in (1, 2, 3)}
    assert [node_at(trace, f"{m}{i}").value for m in "bcd" for i in (1, 2, 3)] == list(LEAF_VALUES)
    assert trace.counters.nodes == 13 and trace.counters.pruned == 0
    assert [node_at(trace, m).value for m in ("a1", "a2", "a3", "root")] == [3, 2, 2, 3]
    assert all(node.alpha is None and node.beta is None for node in trace.nodes)


def test_the_textbook_tree_is_a_game_of_two_plies() -> None:
    state = TextbookTree()
    assert [state.format_move(m) for m in state.legal_moves()] == ["a1", "a2", "a3"]
    state.play(state.parse_move("a2"))
    assert [state.format_move(m) for m in state.legal_moves()] == ["c1", "c2", "c3"]
    with pytest.raises(IllegalMoveError, match="b1 is not a move here"):
        state.play(state.parse_move("b1"))
    state.play(state.parse_move("c2"))
    assert state.legal_moves() == [] and state.render() == "a2 c2"
    assert LeafValues().evaluate(state) == 4  # MAX to move at the leaf
    with pytest.raises(NotationError, match=r"a1 \.\. d3"):
        state.parse_move("e1")


def tree_size(state: GameState, depth: int | None) -> int:
    """Positions of the game tree below ``state`` (itself included), ``depth`` plies deep."""
    if depth == 0 or state.outcome() is not None:
        return 1
    size = 1
    for move in state.legal_moves():
        state.play(move)
        size += tree_size(state, None if depth is None else depth - 1)
        state.undo()
    return size


@pytest.mark.parametrize(
    ("state", "depth"),
    [
        (TicTacToe.from_notation("b2 a3"), 3),
        (TicTacToe.from_notation("b2 a3 c1"), None),
        (ConnectFour.from_notation("44"), 3),
    ],
)
def test_trace_counts_equal_the_experiments(state: GameState, depth: int | None) -> None:
    evaluation = evaluation_for(state.name)
    rows = run_pruning_experiment(state, evaluation, depth)
    notation = state.notation()
    # Not only the code against itself: minimax visits the whole tree, counted here by
    # walking it (260, 1173 and 400 nodes); and b2 a3 c1 is a draw with best play.
    assert rows[0].nodes == tree_size(state.copy(), depth)
    if depth is None:
        assert all(row.value == 0 for row in rows)
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
