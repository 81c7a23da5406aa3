"""Connect Four intelligence: the heuristic player and the exact solver with its book.

- ``heuristic``: the window-counting evaluation behind levels easy / medium / hard.
- ``kernel``: the compiled (numba) bitboard negamax of the solver.
- ``solver``: positions, the transposition table, ``Solver.solve`` / ``analyze``.
- ``book`` / ``book_builder``: the opening book file and the tool that builds it.
- ``perfect``: the ``perfect`` level player; ``players``: the level factory.
"""
