"""Scores: heuristic values, and wins or losses counted in plies to the end.

A win reached ``n`` plies from the root scores ``WIN - n`` and a loss ``-(WIN - n)``,
so a quicker win outranks a slower one and a slower loss outranks a quicker one.
Every heuristic evaluation stays strictly inside ``(-WIN_THRESHOLD, WIN_THRESHOLD)``.
"""

from __future__ import annotations

WIN = 1_000_000
MAX_PLY = 10_000
WIN_THRESHOLD = WIN - MAX_PLY
INFINITY = WIN + 1
DRAW = 0


def is_decisive(score: int) -> bool:
    """Whether ``score`` is a proven win or loss rather than a heuristic value."""
    return abs(score) >= WIN_THRESHOLD


def plies_to_end(score: int) -> int:
    """For a decisive score: the plies from the root to the winning move."""
    return WIN - abs(score)


def to_node_relative(score: int, ply: int) -> int:
    """A root-relative decisive score made relative to a node ``ply`` plies deep (for storing)."""
    if score >= WIN_THRESHOLD:
        return score + ply
    if score <= -WIN_THRESHOLD:
        return score - ply
    return score


def to_root_relative(score: int, ply: int) -> int:
    """The inverse of ``to_node_relative``."""
    if score >= WIN_THRESHOLD:
        return score - ply
    if score <= -WIN_THRESHOLD:
        return score + ply
    return score


def describe(score: int, *, solved: bool = False) -> str:
    """The score in words from the side to move's view: "wins in 3 moves", "+0.42"."""
    if is_decisive(score):
        own_moves = (plies_to_end(score) + 1) // 2
        unit = "move" if own_moves == 1 else "moves"
        verb = "wins" if score > 0 else "loses"
        return f"{verb} in {own_moves} {unit}"
    if score == DRAW and solved:
        return "draw"
    return f"{score:+d}"
