"""The engine's review of a played game: every position scored, the turning moves marked.

``review_game`` searches every position of a game from the side to move's view and
compares each move's position before and after: a move after which the mover's result
is worse is marked. Tic-tac-toe and Connect Four are reviewed exactly (the ``perfect``
players: a win thrown to a draw or a loss, a draw thrown to a loss, with the move that
kept it). Gomoku is searched to a fixed depth with the engine's threat solvers at the
root: a forced win missed or allowed is named by the solvers ("missed a forced win (VCF
in 7)"), and a large fall of the score at that depth, to below even, is a mistake.

``Review.to_json`` is what the web app stores with the game and shows (docs/web.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from abgames.ai.player import AIPlayer
from abgames.games import GameState, Gomoku, Move
from abgames.search.limit import Limit
from abgames.search.score import WIN, WIN_THRESHOLD, describe, is_decisive

#: The level that reviews Tic-tac-toe and Connect Four: exact.
EXACT_LEVEL = "perfect"
#: Gomoku: the depth of every position's search (plies), with the engine level's settings.
GOMOKU_DEPTH = 6
GOMOKU_SETTINGS_LEVEL = "hard"
#: Gomoku: the solvers' reach when naming a forced win (attacker moves, nodes).
SOLVER_DEPTH = 12
SOLVER_NODES = 200_000
#: Gomoku: a fall of the mover's score by this much at ``GOMOKU_DEPTH``, to below even, is
#: a mistake. (The depth's scores swing by several hundred between consecutive positions
#: from the side to move's tempo alone, so a smaller fall says little.)
GOMOKU_SWING = 1000
#: The evaluation graph: a heuristic score ``s`` is drawn at ``tanh(s / GRAPH_SCALE)``.
GRAPH_SCALE = 1000.0

#: What a mark says happened (``Mark.kind``).
THREW_WIN = "threw-win"  # exact: a win became a draw or a loss
THREW_DRAW = "threw-draw"  # exact: a draw became a loss
MISSED_WIN = "missed-win"  # Gomoku: the mover had a forced win and no longer has it
ALLOWED_WIN = "allowed-win"  # Gomoku: after the move the other side has a forced win
MISTAKE = "mistake"  # Gomoku: a large fall of the score at the review's depth


@dataclass(frozen=True)
class PositionScore:
    """The search of the position before move ``ply``: its score from the side to move's
    view, whether it is exact, and the best move found."""

    ply: int
    score: int
    solved: bool
    best: Move | None


@dataclass(frozen=True)
class Mark:
    """Move ``ply`` changed the result: ``kind``, ``text`` in words, and the move the
    search preferred (``better``: for the exact games, the move that kept the result)."""

    ply: int
    kind: str
    text: str
    better: Move | None


@dataclass
class Review:
    method: str
    positions: list[PositionScore] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)

    def to_json(self, state: GameState) -> dict[str, Any]:
        """JSON for the page; ``state`` is the game at its end (for move texts)."""
        names = state.player_names

        def text(move: Move | None) -> str | None:
            return None if move is None else state.format_move(move)

        return {
            "method": self.method,
            "positions": [
                {
                    "ply": entry.ply,
                    "score": entry.score,
                    "score_text": describe(entry.score, solved=entry.solved),
                    "solved": entry.solved,
                    "best": entry.best,
                    "best_text": text(entry.best),
                    "graph": graph_value(entry.score if entry.ply % 2 == 0 else -entry.score),
                }
                for entry in self.positions
            ],
            "marks": [
                {
                    "ply": mark.ply,
                    "kind": mark.kind,
                    "text": mark.text,
                    "better": mark.better,
                    "better_text": text(mark.better),
                    "by": names[mark.ply % 2],
                }
                for mark in self.marks
            ],
        }


def graph_value(score: int) -> float:
    """A score from the first player's view drawn in [-1, 1]: decisive scores at the
    ends, heuristic ones squashed."""
    if is_decisive(score):
        return 1.0 if score > 0 else -1.0
    return math.tanh(score / GRAPH_SCALE)


def _result_class(score: int) -> int:
    """1 a proven win, -1 a proven loss, 0 otherwise (a draw in an exact review)."""
    if score >= WIN_THRESHOLD:
        return 1
    if score <= -WIN_THRESHOLD:
        return -1
    return 0


Progress = Callable[[int, int], None]


def review_game(
    moves: list[Move],
    new_position: Callable[[], GameState],
    make_player: Callable[[str], AIPlayer],
    *,
    on_progress: Progress | None = None,
    should_stop: Callable[[], bool] = lambda: False,
) -> Review:
    """Review the game of ``moves`` (from ``new_position()``); ``make_player(level)``
    gives the reviewing players. ``on_progress(done, total)`` after each position;
    ``should_stop()`` ends the review early (what was scored so far is returned)."""
    state = new_position()
    gomoku = isinstance(state, Gomoku)
    method = f"threat solvers, then depth {GOMOKU_DEPTH}" if gomoku else "exact"
    review = Review(method)
    total = len(moves) + 1
    for ply in range(total):
        if should_stop():
            break
        review.positions.append(_score(state, ply, gomoku, make_player))
        if ply < len(moves):
            state.play(moves[ply])
        if on_progress is not None:
            on_progress(ply + 1, total)
    if len(review.positions) == total:
        review.marks = _marks(review.positions, moves, new_position, gomoku, make_player)
    return review


def _score(
    state: GameState, ply: int, gomoku: bool, make_player: Callable[[str], AIPlayer]
) -> PositionScore:
    outcome = state.outcome()
    if outcome is not None:
        # The game is over: a loss for the side to move if the last mover won.
        score = 0 if outcome.winner is None else (WIN if outcome.winner == state.to_move else -WIN)
        return PositionScore(ply, score, True, None)
    if gomoku:
        from abgames.ai.gomoku.player import LEVEL_SETTINGS, GomokuPlayer

        settings, _ = LEVEL_SETTINGS[GOMOKU_SETTINGS_LEVEL]
        player: AIPlayer = GomokuPlayer("review", settings, Limit(depth=GOMOKU_DEPTH))
    else:
        player = make_player(EXACT_LEVEL)
    last = None
    for last in player.think(state.copy()):  # noqa: B007 - keep the final result
        pass
    if last is None:
        return PositionScore(ply, 0, False, None)
    return PositionScore(ply, last.score, last.solved or is_decisive(last.score), last.move)


def _marks(
    positions: list[PositionScore],
    moves: list[Move],
    new_position: Callable[[], GameState],
    gomoku: bool,
    make_player: Callable[[str], AIPlayer],
) -> list[Mark]:
    marks: list[Mark] = []
    state = new_position()
    for ply, move in enumerate(moves):
        before = positions[ply].score  # the mover's view
        after = -positions[ply + 1].score  # still the mover's view
        better = positions[ply].best if positions[ply].best != move else None
        was, now = _result_class(before), _result_class(after)
        mark: Mark | None = None
        exact = positions[ply].solved and positions[ply + 1].solved
        if not gomoku:
            if exact and now < was:
                kind = THREW_WIN if was == 1 else THREW_DRAW
                lost = "a loss" if now == -1 else "a draw"
                kept = "the win" if was == 1 else "the draw"
                text = f"threw away {kept}: {lost} now"
                if better is not None:
                    text += f" ({state.format_move(better)} kept {kept})"
                mark = Mark(ply, kind, text, better)
        elif was == 1 and now < 1:
            mark = Mark(ply, MISSED_WIN, f"missed a forced win ({_threat(state)})", better)
        elif now == -1 and was > -1:
            state.play(move)
            threat = _threat(state)
            state.undo()
            mark = Mark(ply, ALLOWED_WIN, f"allowed a forced win ({threat})", better)
        elif was == now == 0 and before - after >= GOMOKU_SWING and after < 0:
            text = f"a mistake: {describe(before)} before, {describe(after)} after"
            mark = Mark(ply, MISTAKE, text, better)
        if mark is not None:
            marks.append(mark)
        state.play(move)
    return marks


def _threat(state: GameState) -> str:
    """The side to move's forced win in ``state`` named by the solvers: "VCF in 7",
    "VCT in 9", or "found by the search" when neither solver reaches it."""
    from abgames.ai.gomoku.engine import GomokuEngine

    assert isinstance(state, Gomoku)
    engine = GomokuEngine()
    for threes, name in ((False, "VCF"), (True, "VCT")):
        found = engine.solve(state, depth=SOLVER_DEPTH, threes=threes, nodes=SOLVER_NODES)
        if found is not None:
            return f"{name} in {found.moves}"
    return "found by the search"
