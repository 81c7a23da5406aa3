"""``abgames experiment pruning|trace [GAME] [POSITION]``: see why alpha-beta works.

``pruning`` searches one position with minimax and with alpha-beta plus each
enhancement, and compares the node counts; ``trace`` prints the tree one search
visited, node by node (text, JSON or Graphviz DOT).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from abgames.arguments import integer
from abgames.games import GAMES, GameState, IllegalMoveError, NotationError
from abgames.learn import (
    EXPERIMENT_DEPTHS,
    TRACE_DEPTHS,
    TRACE_MAX_NODES,
    evaluation_for,
    experiment_json,
)
from abgames.search.experiment import METHODS, ExperimentRow, run_pruning_experiment
from abgames.search.trace import format_dot, format_text, run_trace

__all__ = ["evaluation_for", "format_table", "register"]

FORMATS = ("text", "json", "dot")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", default="tictactoe", choices=list(GAMES))
    parser.add_argument(
        "position",
        nargs="*",
        help="moves played so far, in the game's notation (default: the empty board)",
    )


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "experiment",
        help="see why alpha-beta works",
        description="Experiments that show what pruning, move ordering and the "
        "transposition table save, and the tree a search visits.",
    )
    experiments = parser.add_subparsers(dest="experiment", metavar="EXPERIMENT", required=True)
    pruning = experiments.add_parser(
        "pruning",
        help="minimax against alpha-beta and each enhancement: nodes, time, value",
        description="Search one position with minimax, then alpha-beta adding move "
        "ordering, a transposition table and iterative deepening in turn.",
    )
    _common(pruning)
    pruning.add_argument("--depth", type=integer, help="plies to search (default: per game)")
    pruning.add_argument("--json", action="store_true", help="print the figures as JSON")
    pruning.set_defaults(run=run)
    trace = experiments.add_parser(
        "trace",
        help="print the tree one search visits: alpha, beta, values, cut-offs",
        description="Run one search and print its tree: each node's move, alpha and "
        "beta on entry (from MAX's view: MAX is the side to move at the root), its "
        "value, and where a cut-off skipped the remaining children.",
    )
    _common(trace)
    trace.add_argument(
        "--method",
        choices=list(METHODS),
        default="alphabeta",
        help="minimax; alphabeta; + move ordering; + transposition table (tt); "
        "+ iterative deepening (deepening). Default: alphabeta",
    )
    trace.add_argument("--depth", type=integer, help="plies to search (default: 3, Gomoku 2)")
    trace.add_argument("--format", choices=FORMATS, default="text", help="default: text")
    trace.add_argument(
        "--max-nodes",
        type=integer,
        default=TRACE_MAX_NODES,
        help=f"stop the trace after this many nodes (default {TRACE_MAX_NODES:,})",
    )
    trace.set_defaults(run=run_trace_command)


def format_table(rows: list[ExperimentRow], format_move: Any) -> str:
    header = f"{'method':<46}{'nodes':>11}{'time':>10}{'value':>9}  {'move':<6}agrees"
    lines = [header, "-" * len(header)]
    minimax_nodes = rows[0].nodes
    for row in rows:
        move = "-" if row.move is None else format_move(row.move)
        share = f" ({100 * row.nodes / minimax_nodes:.1f} %)" if row is not rows[0] else ""
        lines.append(
            f"{row.method:<46}{row.nodes:>11,}{row.seconds:>9.3f}s{row.value:>9}  "
            f"{move:<6}{'yes' if row.agrees else 'NO'}{share}"
        )
    return "\n".join(lines)


def _position(args: argparse.Namespace) -> GameState | None:
    """The position named on the command line, or None after saying what is wrong."""
    cls = GAMES[args.game]
    try:
        state = cls.from_notation(" ".join(args.position))
    except (IllegalMoveError, NotationError) as error:
        print(f"abgames experiment: bad position: {error}", file=sys.stderr)
        return None
    if state.outcome() is not None:
        print("abgames experiment: the game is already over in that position", file=sys.stderr)
        return None
    if args.depth is not None and args.depth < 1:
        print("abgames experiment: --depth must be at least 1", file=sys.stderr)
        return None
    return state


def run(args: argparse.Namespace) -> int:
    state = _position(args)
    if state is None:
        return 2
    depth = args.depth if args.depth is not None else EXPERIMENT_DEPTHS[args.game]
    rows = run_pruning_experiment(state, evaluation_for(args.game), depth)
    agreed = all(row.agrees for row in rows)
    if args.json:
        print(json.dumps(experiment_json(state, rows, depth), indent=2))
        return 0 if agreed else 1
    print(state.render())
    reach = "to the end of the game" if depth is None else f"to depth {depth}"
    print(f"\nSearching {args.game} {reach}; value from the side to move's view.\n")
    print(format_table(rows, state.format_move))
    print(
        "\nAll methods agree on the value and on a best move."
        if agreed
        else "\nDISAGREEMENT: a method found another value or a worse move."
    )
    return 0 if agreed else 1


def run_trace_command(args: argparse.Namespace) -> int:
    state = _position(args)
    if state is None:
        return 2
    if args.max_nodes < 1:
        print("abgames experiment: --max-nodes must be at least 1", file=sys.stderr)
        return 2
    depth = args.depth if args.depth is not None else TRACE_DEPTHS[args.game]
    trace = run_trace(
        state, evaluation_for(args.game), args.method, depth, max_nodes=args.max_nodes
    )
    if args.format == "json":
        document = {"game": args.game, "position": state.notation(), **trace.to_json()}
        print(json.dumps(document))
    elif args.format == "dot":
        print(format_dot(trace))
    else:
        names = state.player_names
        print(state.render())
        print(
            f"\n{METHODS[args.method]} to depth {depth}: {names[state.to_move]} to move is "
            f"MAX, {names[1 - state.to_move]} is MIN; alpha and beta on entry, values "
            "from MAX's view (W5: MAX wins 5 plies from here, L4: MIN does).\n"
        )
        print(format_text(trace))
    return 0
