"""``abgames experiment pruning [GAME] [POSITION]``: minimax against alpha-beta, side by side."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from abgames.ai.connect4.heuristic import ConnectFourEvaluation
from abgames.ai.gomoku.starter import StarterEvaluation
from abgames.ai.tictactoe import TicTacToeEvaluation
from abgames.games import GAMES, IllegalMoveError, NotationError
from abgames.search.evaluation import Evaluation
from abgames.search.experiment import ExperimentRow, run_pruning_experiment

#: Depth used when none is given: the whole game for tic-tac-toe, a few plies elsewhere.
DEFAULT_DEPTHS: dict[str, int | None] = {"tictactoe": None, "connect4": 5, "gomoku": 2}
#: How many candidate points the Gomoku experiment searches at each node.
GOMOKU_EXPERIMENT_BEAM = 8


def evaluation_for(game: str) -> Evaluation:
    if game == "tictactoe":
        return TicTacToeEvaluation()
    if game == "connect4":
        return ConnectFourEvaluation()
    return StarterEvaluation(GOMOKU_EXPERIMENT_BEAM)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "experiment",
        help="see why alpha-beta works",
        description="Experiments that show what pruning, move ordering and the "
        "transposition table save.",
    )
    parser.add_argument("name", choices=["pruning"], help="which experiment")
    parser.add_argument("game", nargs="?", default="tictactoe", choices=list(GAMES))
    parser.add_argument(
        "position",
        nargs="*",
        help="moves played so far, in the game's notation (default: the empty board)",
    )
    parser.add_argument("--depth", type=int, help="plies to search (default: per game)")
    parser.set_defaults(run=run)


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


def run(args: argparse.Namespace) -> int:
    cls = GAMES[args.game]
    try:
        state = cls.from_notation(" ".join(args.position))
    except (IllegalMoveError, NotationError) as error:
        print(f"abgames experiment: bad position: {error}", file=sys.stderr)
        return 2
    if state.outcome() is not None:
        print("abgames experiment: the game is already over in that position", file=sys.stderr)
        return 2
    depth = args.depth if args.depth is not None else DEFAULT_DEPTHS[args.game]
    if depth is not None and depth < 1:
        print("abgames experiment: --depth must be at least 1", file=sys.stderr)
        return 2
    print(state.render())
    reach = "to the end of the game" if depth is None else f"to depth {depth}"
    print(f"\nSearching {args.game} {reach}; value from the side to move's view.\n")
    rows = run_pruning_experiment(state, evaluation_for(args.game), depth)
    print(format_table(rows, state.format_move))
    agreed = all(row.agrees for row in rows)
    print(
        "\nAll methods agree on the value and on a best move."
        if agreed
        else "\nDISAGREEMENT: a method found another value or a worse move."
    )
    return 0 if agreed else 1
