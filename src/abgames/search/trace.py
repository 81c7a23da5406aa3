"""A trace of a search: the tree the engine searched, node by node, and the events in order.

``run_trace`` runs the real engine (``minimax`` or ``AlphaBeta`` with the switches of
the pruning experiment) with a ``TraceBuilder`` as its observer. The builder turns
the engine's negamax events into the textbook picture: every value and window is
from MAX's view (MAX is the side to move at the root), MIN nodes are those where
the other side moves. Children skipped by a cut-off are kept as *pruned* nodes with
the reason in words. A trace stops at ``max_nodes`` nodes (or at its time limit)
and then says so (``truncated``); nodes still open then have no value.

``Trace.to_json()`` is what the web page draws and ``abgames experiment trace
--format json`` prints; ``format_text`` and ``format_dot`` are the other exports.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from abgames.games.base import GameState, Move
from abgames.search import score as scores
from abgames.search.alphabeta import AlphaBeta
from abgames.search.evaluation import Evaluation
from abgames.search.experiment import METHODS, UNLIMITED_DEPTH, VARIANTS, search_variant
from abgames.search.minimax import minimax
from abgames.search.observer import SearchObserver
from abgames.search.score import INFINITY
from abgames.search.tt import Bound

#: Nodes a trace holds unless told otherwise.
DEFAULT_MAX_NODES = 2000
#: The clock is looked at once per this many nodes.
CLOCK_CHECK_NODES = 64

EXACT, LOWER, UPPER = "exact", "lower", "upper"
_BOUND_NAMES = {Bound.EXACT: EXACT, Bound.LOWER: LOWER, Bound.UPPER: UPPER}
_FLIPPED = {EXACT: EXACT, LOWER: UPPER, UPPER: LOWER}

#: Node kinds: searched with children, a heuristic leaf, the end of the game,
#: answered by the transposition table, cut off (never searched), still open
#: when the trace stopped.
INNER, LEAF, END, TT, PRUNED, OPEN = "inner", "leaf", "end", "tt", "pruned", "open"


class TraceFull(Exception):
    """Raised by the builder inside the search when the trace reaches its cap."""


@dataclass
class TraceNode:
    """One position of the traced tree; values and windows from MAX's view."""

    id: int
    parent: int | None
    move: Move | None  # the move that led here (None at a root)
    text: str
    ply: int  # plies below the root
    depth: int | None  # plies left to the horizon (None: to the end of the game)
    maximizing: bool  # MAX (the root's side) moves here
    player: int  # the player to move here (0 moves first)
    alpha: int | None = None  # window on entry; None = minus/plus infinity or none at all
    beta: int | None = None
    value: int | None = None
    bound: str | None = None  # exact / lower (at least) / upper (at most)
    kind: str = OPEN
    children: list[int] = field(default_factory=list)
    reason: str | None = None  # on a node whose remaining children were cut: why
    cut_by: int | None = None  # the child whose value caused the cut
    pv: bool = False
    # negamax window on entry (the side to move's view), kept for the bound
    raw_alpha: int = -INFINITY
    raw_beta: int = INFINITY

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "parent": self.parent,
            "move": self.move,
            "text": self.text,
            "ply": self.ply,
            "depth": self.depth,
            "max": self.maximizing,
            "player": self.player,
            "alpha": self.alpha,
            "beta": self.beta,
            "value": self.value,
            "value_text": None if self.value is None else value_text(self.value),
            "bound": self.bound,
            "kind": self.kind,
            "children": self.children,
            "reason": self.reason,
            "cut_by": self.cut_by,
            "pv": self.pv,
        }


@dataclass
class Counters:
    """What the search did so far: the figures the page shows growing."""

    nodes: int = 0  # positions visited (entered), roots included
    leaves: int = 0  # leaves evaluated: horizon evaluations and ends of the game
    cutoffs: int = 0  # cut-offs that skipped at least one child
    pruned: int = 0  # children skipped by those cut-offs (branches cut)
    tt_hits: int = 0


def value_text(value: int) -> str:
    """A short label for a value from MAX's view: ``3``, ``-12``, ``W5`` (MAX wins
    5 plies from the root), ``L4`` (MIN wins 4 plies from the root)."""
    if scores.is_decisive(value):
        return f"{'W' if value > 0 else 'L'}{scores.plies_to_end(value)}"
    return str(value)


def value_words(value: int) -> str:
    """A value in words for the reasons: ``3``, ``a win in 5 plies``."""
    if scores.is_decisive(value):
        plies = scores.plies_to_end(value)
        return f"{'a win' if value > 0 else 'a loss'} in {plies} plies"
    return str(value)


def window_text(alpha: int | None, beta: int | None) -> str:
    low = "-inf" if alpha is None else value_text(alpha)
    high = "+inf" if beta is None else value_text(beta)
    return f"[{low}, {high}]"


def cut_reason(node: TraceNode, value: int) -> str:
    """Why the remaining children of ``node`` need no search, in the textbook's words."""
    if node.maximizing:
        bound = value_words(node.beta if node.beta is not None else INFINITY)
        return (
            f"MAX already has {value_words(value)} here, at least beta = {bound}: "
            f"MIN will not let the game come here (it can hold MAX to {bound} elsewhere)"
        )
    bound = value_words(node.alpha if node.alpha is not None else -INFINITY)
    return (
        f"MIN already holds MAX to {value_words(value)} here, at most alpha = {bound}: "
        f"MAX will not let the game come here (it can get {bound} elsewhere)"
    )


def _open(value: int) -> int | None:
    return None if abs(value) >= INFINITY else value


class TraceBuilder(SearchObserver):
    """Builds the tree and the event list from a search's events (see ``SearchObserver``).

    Raises ``TraceFull`` inside the search at the ``max_nodes``-th node or after
    ``time_limit`` seconds; ``windows=False`` (minimax) records no alpha and beta.
    """

    def __init__(
        self, max_nodes: int, *, time_limit: float | None = None, windows: bool = True
    ) -> None:
        if max_nodes < 1:
            raise ValueError("a trace needs room for at least one node")
        self.max_nodes = max_nodes
        self.windows = windows
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.nodes: list[TraceNode] = []
        self.events: list[dict[str, Any]] = []
        self.roots: list[int] = []
        self.counters = Counters()
        self.truncated_reason: str | None = None
        self._stack: list[int] = []
        self._state: GameState | None = None  # the state searched, to name skipped moves
        # the window of each open node as its children raise it (MAX's view)
        self._window: dict[int, tuple[int, int]] = {}

    # --- the observer ------------------------------------------------------------
    def enter(self, state: GameState, alpha: int, beta: int, depth: int) -> None:
        counters = self.counters
        if counters.nodes >= self.max_nodes:
            self.truncated_reason = f"the trace reached its cap of {self.max_nodes:,} nodes"
            raise TraceFull(self.truncated_reason)
        deadline = self.deadline
        if (
            deadline is not None
            and counters.nodes % CLOCK_CHECK_NODES == 0
            and time.monotonic() > deadline
        ):
            self.truncated_reason = "the trace ran out of time"
            raise TraceFull(self.truncated_reason)
        counters.nodes += 1
        self._state = state
        parent = self._stack[-1] if self._stack else None
        ply = 0 if parent is None else self.nodes[parent].ply + 1
        maximizing = ply % 2 == 0
        move = None if parent is None else state.last_move
        node = TraceNode(
            id=len(self.nodes),
            parent=parent,
            move=move,
            text="root" if move is None else state.format_move(move),
            ply=ply,
            depth=depth if depth < UNLIMITED_DEPTH else None,
            maximizing=maximizing,
            player=state.to_move,
            raw_alpha=alpha,
            raw_beta=beta,
        )
        low, high = (alpha, beta) if maximizing else (-beta, -alpha)
        if self.windows:
            node.alpha, node.beta = _open(low), _open(high)
        self.nodes.append(node)
        if parent is None:
            self.roots.append(node.id)
        else:
            self.nodes[parent].children.append(node.id)
        self._stack.append(node.id)
        self._window[node.id] = (low, high)
        self.events.append(
            {"type": "enter", "node": node.id, "alpha": node.alpha, "beta": node.beta}
        )

    def leaf(self, value: int, end: bool) -> None:
        self.counters.leaves += 1
        self._close(value, END if end else LEAF, EXACT)

    def tt_hit(self, value: int, bound: Bound) -> None:
        self.counters.tt_hits += 1
        self._close(value, TT, _BOUND_NAMES[bound])

    def exit(self, value: int) -> None:
        node = self.nodes[self._stack[-1]]
        if value <= node.raw_alpha:
            bound = UPPER
        elif value >= node.raw_beta:
            bound = LOWER
        else:
            bound = EXACT
        self._close(value, INNER, bound)

    def cutoff(self, move: Move, skipped: Sequence[Move]) -> None:
        if not skipped:
            return  # the cut came after the last child: nothing is skipped
        node = self.nodes[self._stack[-1]]
        child = self.nodes[node.children[-1]]
        assert child.value is not None
        assert self._state is not None
        texts = [self._state.format_move(m) for m in skipped]
        node.reason = cut_reason(node, child.value)
        node.cut_by = child.id
        pruned: list[int] = []
        for skipped_move, text in zip(skipped, texts, strict=True):
            leaf = TraceNode(
                id=len(self.nodes),
                parent=node.id,
                move=skipped_move,
                text=text,
                ply=node.ply + 1,
                depth=None if node.depth is None else node.depth - 1,
                maximizing=not node.maximizing,
                player=1 - node.player,
                kind=PRUNED,
                reason=node.reason,
            )
            self.nodes.append(leaf)
            node.children.append(leaf.id)
            pruned.append(leaf.id)
        self.counters.cutoffs += 1
        self.counters.pruned += len(pruned)
        self.events.append(
            {
                "type": "cut",
                "node": node.id,
                "by": child.id,
                "pruned": pruned,
                "reason": node.reason,
            }
        )

    def root_best(self, move: Move, value: int) -> None:
        root = self.nodes[self._stack[-1]]
        self.events.append({"type": "best", "node": root.children[-1], "value": value})

    # --- the rest ----------------------------------------------------------------
    def _close(self, value: int, kind: str, bound: str) -> None:
        node = self.nodes[self._stack.pop()]
        del self._window[node.id]
        node.value = value if node.maximizing else -value
        node.kind = kind
        node.bound = bound if node.maximizing else _FLIPPED[bound]
        event: dict[str, Any] = {
            "type": {LEAF: "leaf", END: "leaf", TT: "tt", INNER: "value"}[kind],
            "node": node.id,
            "value": node.value,
            "bound": node.bound,
        }
        if kind == END:
            event["end"] = True
        if node.parent is not None and self.windows:
            parent = self.nodes[node.parent]
            low, high = self._window[parent.id]
            if parent.maximizing:
                low = max(low, node.value)
            else:
                high = min(high, node.value)
            self._window[parent.id] = (low, high)
            event["window"] = [parent.id, _open(low), _open(high)]
        self.events.append(event)

    def finish(self, pv: Sequence[Move] | None) -> list[int]:
        """Mark the principal variation of the last root (the engine's ``pv``, or for
        minimax the line of children whose value equals their parent's)."""
        if not self.roots:
            return []
        node = self.nodes[self.roots[-1]]
        line = [node.id]
        index = 0
        while node.children:
            searched = [self.nodes[c] for c in node.children if self.nodes[c].kind != PRUNED]
            if pv is not None:
                if index >= len(pv):
                    break
                following = [c for c in searched if c.move == pv[index]]
            else:
                following = [c for c in searched if c.value is not None and c.value == node.value]
            if not following:
                break
            node = following[0]
            line.append(node.id)
            index += 1
        if len(line) > 1 and self.truncated_reason is None:
            for node_id in line:
                self.nodes[node_id].pv = True
            self.events.append({"type": "pv", "nodes": line})
            return line
        return []


@dataclass
class Trace:
    """A finished (or capped) trace: the tree, the events in order, the counters."""

    method: str
    depth: int | None
    max_nodes: int
    player_names: tuple[str, str]
    root_player: int
    nodes: list[TraceNode]
    events: list[dict[str, Any]]
    roots: list[int]
    counters: Counters
    pv: list[int]
    truncated_reason: str | None
    value: int | None

    @property
    def truncated(self) -> bool:
        return self.truncated_reason is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "method_label": METHODS[self.method],
            "depth": self.depth,
            "max_nodes": self.max_nodes,
            "player_names": list(self.player_names),
            "max_player": self.root_player,
            "truncated": self.truncated,
            "truncated_reason": self.truncated_reason,
            "value": self.value,
            "value_text": None if self.value is None else value_text(self.value),
            "pv": self.pv,
            "pv_text": [self.nodes[n].text for n in self.pv[1:]],
            "counters": vars(self.counters).copy(),
            "roots": self.roots,
            "nodes": [node.to_json() for node in self.nodes],
            "events": self.events,
        }


def run_trace(
    state: GameState,
    evaluation: Evaluation,
    method: str,
    depth: int | None,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> Trace:
    """Search ``state`` (left unchanged) with ``method`` (a key of ``METHODS``) to
    ``depth`` plies (None: the end of the game), recording at most ``max_nodes`` nodes.

    The search is the pruning experiment's, with the same switches, so the counts
    match it: ``counters.nodes`` equals the experiment's nodes for the method.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}: choose {', '.join(METHODS)}")
    if state.outcome() is not None:
        raise ValueError("the game is over: there is nothing to search")
    probe = state.copy()  # a capped search stops part-way through the tree
    builder = TraceBuilder(max_nodes, time_limit=time_limit, windows=method != "minimax")
    pv: Sequence[Move] | None = None
    value: int | None = None
    try:
        if method == "minimax":
            value = minimax(probe, depth, evaluation, observer=builder).value
        else:
            options, deepening = next((o, d) for k, o, d in VARIANTS if k == method)
            engine = AlphaBeta(evaluation, options, observer=builder)
            plies = depth if depth is not None else UNLIMITED_DEPTH
            result = search_variant(engine, probe, plies, deepening)
            value, pv = result.score, result.pv
    except TraceFull:
        value = None
    line = builder.finish(pv)
    if depth is None:  # "to the end": no horizon to count down to
        for node in builder.nodes:
            node.depth = None
    return Trace(
        method=method,
        depth=depth,
        max_nodes=max_nodes,
        player_names=type(state).player_names,
        root_player=state.to_move,
        nodes=builder.nodes,
        events=builder.events,
        roots=builder.roots,
        counters=builder.counters,
        pv=line,
        truncated_reason=builder.truncated_reason,
        value=value,
    )


# --- exports --------------------------------------------------------------------
def _node_line(trace: Trace, node: TraceNode) -> str:
    names = trace.player_names
    side = f"{names[node.player]} {'MAX' if node.maximizing else 'MIN'}"
    parts = [node.text, f"({side})"]
    if node.kind == PRUNED:
        parts.append("cut: not searched")
        return "  ".join(parts)
    if trace.method != "minimax":
        parts.append(window_text(node.alpha, node.beta))
    if node.value is None:
        parts.append("(not finished: the trace stopped)")
    else:
        sign = {EXACT: "=", LOWER: ">=", UPPER: "<="}[node.bound or EXACT]
        what = {LEAF: "leaf ", END: "end ", TT: "table ", INNER: ""}.get(node.kind, "")
        parts.append(f"{what}{sign} {value_text(node.value)}")
    if node.reason is not None and node.cut_by is not None:
        skipped = [trace.nodes[c].text for c in node.children if trace.nodes[c].kind == PRUNED]
        parts.append(
            f"cut after {trace.nodes[node.cut_by].text}: {' '.join(skipped)} not searched: "
            f"{node.reason}"
        )
    if node.pv and node.ply > 0:
        parts.append("PV")
    return "  ".join(parts)


def format_text(trace: Trace) -> str:
    """The tree indented, two spaces per ply, one node a line."""
    lines: list[str] = []
    for index, root in enumerate(trace.roots):
        if len(trace.roots) > 1:
            lines.append(f"iteration {index + 1}:")
        stack = [(root, 1 if len(trace.roots) > 1 else 0)]
        while stack:
            node_id, indent = stack.pop()
            node = trace.nodes[node_id]
            lines.append("  " * indent + _node_line(trace, node))
            stack.extend((child, indent + 1) for child in reversed(node.children))
    c = trace.counters
    lines.append(
        f"\n{c.nodes:,} nodes visited, {c.leaves:,} leaves evaluated, {c.cutoffs:,} cut-offs "
        f"skipping {c.pruned:,} branches, {c.tt_hits:,} table hits."
    )
    if trace.value is not None:
        pv = " ".join(trace.nodes[n].text for n in trace.pv[1:])
        lines.append(f"Value {value_text(trace.value)} for MAX; principal variation: {pv}.")
    if trace.truncated_reason is not None:
        lines.append(f"CUT SHORT: {trace.truncated_reason}; open nodes have no value.")
    return "\n".join(lines)


def _dot_label(trace: Trace, node: TraceNode) -> str:
    lines = [node.text]
    if node.kind != PRUNED:
        if trace.method != "minimax":
            lines.append(
                f"a {'-inf' if node.alpha is None else value_text(node.alpha)}  "
                f"b {'+inf' if node.beta is None else value_text(node.beta)}"
            )
        if node.value is not None:
            sign = {EXACT: "", LOWER: ">=", UPPER: "<="}[node.bound or EXACT]
            lines.append(f"{sign}{value_text(node.value)}")
    return "\\n".join(line.replace('"', '\\"') for line in lines)


def format_dot(trace: Trace) -> str:
    """The tree in Graphviz's DOT language: MAX nodes boxes, MIN nodes ellipses,
    pruned nodes grey and dashed, the principal variation in bold."""
    out = [
        "digraph trace {",
        '  graph [rankdir=TB, fontname="Helvetica"];',
        '  node [fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for node in trace.nodes:
        attrs = [
            f'label="{_dot_label(trace, node)}"',
            f"shape={'box' if node.maximizing else 'ellipse'}",
        ]
        if node.kind == PRUNED:
            attrs.append("style=dashed, color=grey, fontcolor=grey")
        elif node.pv:
            attrs.append("penwidth=2.5")
        out.append(f"  n{node.id} [{', '.join(attrs)}];")
        if node.parent is not None:
            edge = []
            if node.kind == PRUNED:
                edge.append('style=dashed, color=grey, label="cut"')
            elif node.pv and trace.nodes[node.parent].pv:
                edge.append("penwidth=2.5")
            suffix = f" [{', '.join(edge)}]" if edge else ""
            out.append(f"  n{node.parent} -> n{node.id}{suffix};")
    out.append("}")
    return "\n".join(out)
