"""Print the pruning experiment: minimax against alpha-beta with each enhancement.

Run: ``.venv/bin/python benchmarks/pruning.py``
"""

from __future__ import annotations

from abgames.commands.experiment import evaluation_for, format_table
from abgames.games import GAMES
from abgames.search.experiment import run_pruning_experiment

#: (game, position in the game's notation, depth; None = to the end of the game)
CASES: tuple[tuple[str, str, int | None], ...] = (
    ("tictactoe", "", None),
    ("tictactoe", "a3", None),
    ("tictactoe", "b2 a3", None),
    ("connect4", "", 6),
    ("connect4", "4453", 6),
    ("gomoku", "h8 h9 i8", 2),
)


def main() -> None:
    for game, position, depth in CASES:
        state = GAMES[game].from_notation(position)
        reach = "to the end" if depth is None else f"depth {depth}"
        print(f"\n== {game} [{position or 'empty board'}] {reach}")
        rows = run_pruning_experiment(state, evaluation_for(game), depth)
        print(format_table(rows, state.format_move))


if __name__ == "__main__":
    main()
