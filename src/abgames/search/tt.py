"""A bounded transposition table: Zobrist key -> (depth, score, bound, best move)."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from abgames.games.base import Move

DEFAULT_ENTRIES = 1 << 20


class Bound(IntEnum):
    EXACT = 0
    LOWER = 1  # the true score is at least ``score`` (a beta cut-off)
    UPPER = 2  # the true score is at most ``score`` (no move raised alpha)


class Entry(NamedTuple):
    depth: int
    score: int  # node-relative: decisive scores counted from this node
    bound: Bound
    move: Move | None
    horizon: bool  # whether the subtree reached a heuristic leaf


class TranspositionTable:
    """At most ``max_entries`` positions; when full, the shallowest half is dropped."""

    def __init__(self, max_entries: int = DEFAULT_ENTRIES) -> None:
        if max_entries < 1:
            raise ValueError("a transposition table needs room for at least one entry")
        self.max_entries = max_entries
        self._entries: dict[int, Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: int) -> Entry | None:
        return self._entries.get(key)

    def store(self, key: int, entry: Entry) -> None:
        entries = self._entries
        old = entries.get(key)
        if old is not None and old.depth > entry.depth and entry.bound != Bound.EXACT:
            return  # keep the deeper result
        if old is None and len(entries) >= self.max_entries:
            self._evict()
        entries[key] = entry

    def _evict(self) -> None:
        keep = sorted(self._entries.items(), key=lambda item: item[1].depth, reverse=True)
        self._entries = dict(keep[: self.max_entries // 2])

    def clear(self) -> None:
        self._entries.clear()
