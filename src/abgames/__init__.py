"""abgames: tic-tac-toe, Connect Four and Gomoku with alpha-beta game-tree search."""

__version__ = "0.1.0"
