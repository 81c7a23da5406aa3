"""Puzzles: find the winning line (Gomoku/Renju VCF and VCT, Connect Four).

``catalogue`` reads the packaged puzzle file (``puzzles.json``, made by ``build``),
``check`` judges a move with the engines (any move that keeps a forced win counts)
and answers the defence, ``glicko2`` rates the player. ``build`` (and
``scripts/build_puzzles.py``) makes the file from the shared puzzle sets and the
project's own engine games and solver. The web app's /puzzles page is the front-end.
"""
