"""The starter Gomoku player: line patterns around each point, searched shallowly.

Every empty point near the stones is scored for both players: in each of the four
directions the nine cells centred on it are read as a pattern (five, open four,
four, open three, three, open two, two) as if the player had just played there.
A point's value is the sum over directions, for attack (the side to move) and
defence (the opponent) together. The best few points are searched with the
reference alpha-beta engine; the evaluation compares each side's best points.
"""

from __future__ import annotations

from dataclasses import dataclass

from abgames.ai.player import SearchPlayer
from abgames.games.base import GameState, Move
from abgames.games.gomoku import DIRECTIONS, EMPTY, Gomoku, Rule
from abgames.search.alphabeta import AlphaBeta, SearchOptions
from abgames.search.evaluation import Evaluation
from abgames.search.limit import Limit

FIVE = 1_000_000
OPEN_FOUR = 100_000
FOUR = 10_000
OPEN_THREE = 5_000
THREE = 500
OPEN_TWO = 200
TWO = 20
#: Defending a point is worth this share of attacking it (percent).
DEFENCE_PERCENT = 90
#: How far (in points) from a stone a candidate may lie.
NEIGHBOURHOOD = 2
#: How many of each side's best points the evaluation adds up.
EVALUATED_POINTS = 3
#: The evaluation is scaled down so it stays far from the win scores.
EVALUATION_DIVISOR = 10

# Patterns read on the nine cells centred on the point: "X" the player's stones
# (the point included), "." empty, "O" an opponent stone or the board's edge.
# Each direction counts its most valuable pattern only.
PATTERNS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (FIVE, ("XXXXX",)),
    (OPEN_FOUR, (".XXXX.",)),
    (FOUR, ("XXXX.", ".XXXX", "XXX.X", "X.XXX", "XX.XX")),
    (OPEN_THREE, (".XXX..", "..XXX.", ".XX.X.", ".X.XX.")),
    (THREE, ("XXX..", "..XXX", "XX.X.", ".X.XX", "X.XX.", ".XX.X", "X..XX", "XX..X", "X.X.X")),
    (OPEN_TWO, ("..XX..", ".X.X.", ".XX..", "..XX.")),
    (TWO, ("XX...", "...XX", "X.X..", "..X.X", "X...X")),
)


@dataclass(frozen=True)
class StarterSettings:
    depth: int
    beam: int


LEVELS = {
    "easy": StarterSettings(depth=1, beam=6),
    "medium": StarterSettings(depth=2, beam=8),
    "hard": StarterSettings(depth=3, beam=10),
}


def line_through(state: Gomoku, point: Move, dx: int, dy: int, stone: int) -> str:
    """The nine cells centred on ``point`` along (dx, dy), with ``point`` as the player's."""
    x, y = state.xy(point)
    cells = []
    for step in range(-4, 5):
        cx, cy = x + step * dx, y + step * dy
        if step == 0:
            cells.append("X")
        elif not state.on_board(cx, cy):
            cells.append("O")
        else:
            value = state.board[state.point(cx, cy)]
            cells.append("." if value == EMPTY else "X" if value == stone else "O")
    return "".join(cells)


def direction_value(line: str) -> int:
    for value, shapes in PATTERNS:
        for shape in shapes:
            start = line.find(shape)
            # Only patterns that contain the point itself (index 4) count.
            while start != -1:
                if start <= 4 < start + len(shape) and shape[4 - start] == "X":
                    return value
                start = line.find(shape, start + 1)
    return 0


def point_value(state: Gomoku, point: Move, player: int) -> int:
    """What playing ``point`` would make for ``player``, summed over the four directions."""
    stone = player + 1
    return sum(direction_value(line_through(state, point, dx, dy, stone)) for dx, dy in DIRECTIONS)


def neighbourhood(state: Gomoku) -> list[Move]:
    """Empty points within ``NEIGHBOURHOOD`` of a stone (the centre on an empty board)."""
    if not state.moves:
        return [state.centre]
    size = state.size
    found: set[Move] = set()
    for stone_point in state.moves:
        x, y = state.xy(stone_point)
        for cy in range(max(0, y - NEIGHBOURHOOD), min(size, y + NEIGHBOURHOOD + 1)):
            for cx in range(max(0, x - NEIGHBOURHOOD), min(size, x + NEIGHBOURHOOD + 1)):
                point = cy * size + cx
                if state.board[point] == EMPTY:
                    found.add(point)
    return sorted(found)


class StarterEvaluation(Evaluation):
    """Candidate points by pattern value, with forced replies, and a best-points evaluation."""

    def __init__(self, beam: int) -> None:
        self.beam = beam

    def _scored(self, state: Gomoku) -> list[tuple[Move, int, int]]:
        me = state.to_move
        return [
            (p, point_value(state, p, me), point_value(state, p, 1 - me))
            for p in neighbourhood(state)
            if state.rule is not Rule.RENJU or state.why_illegal(p) is None
        ]

    def candidates(self, state: GameState) -> list[Move]:
        assert isinstance(state, Gomoku)
        scored = self._scored(state)
        wins = [p for p, attack, _ in scored if attack >= FIVE]
        if wins:
            return wins[:1]
        blocks = [p for p, _, defence in scored if defence >= FIVE]
        if blocks:
            return blocks
        scored.sort(key=lambda item: -(item[1] + item[2] * DEFENCE_PERCENT // 100))
        return [p for p, _, _ in scored[: self.beam]]

    def evaluate(self, state: GameState) -> int:
        assert isinstance(state, Gomoku)
        scored = self._scored(state)
        mine = sorted((attack for _, attack, _ in scored), reverse=True)[:EVALUATED_POINTS]
        theirs = sorted((defence for _, _, defence in scored), reverse=True)[:EVALUATED_POINTS]
        if mine and mine[0] >= FIVE:  # the side to move completes a five next move
            return FIVE // EVALUATION_DIVISOR * 5
        own = sum(mine)
        other = sum(theirs) * DEFENCE_PERCENT // 100
        return (own - other) // EVALUATION_DIVISOR


def make_player(level: str, seed: int | None = None) -> SearchPlayer:
    settings = LEVELS[level]
    engine = AlphaBeta(StarterEvaluation(settings.beam), SearchOptions(exact_root=False, seed=seed))
    return SearchPlayer(level, engine, Limit(depth=settings.depth))
