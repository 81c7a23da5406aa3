"""How long a search may run."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Limit:
    """Any combination of a depth (plies), a time (seconds) and a node budget.

    A search stops at whichever limit it reaches first; with none set it runs until
    the game is solved from the root or it is told to stop.
    """

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and self.depth < 1:
            raise ValueError(f"depth must be at least 1, not {self.depth}")
        if self.time is not None and self.time < 0:
            raise ValueError(f"time must not be negative, not {self.time}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {self.nodes}")
