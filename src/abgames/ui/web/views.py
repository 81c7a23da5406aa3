"""What the web API shows of a match: the board as cells, the moves, the outcome, analyses.

Pure functions from ``Match`` / ``SearchResult`` to JSON-ready dictionaries, so the
page draws without knowing any rule: cells are listed row by row with row 0 at
the top, whatever the game stores internally.
"""

from __future__ import annotations

from typing import Any

from abgames.games import ConnectFour, GameState, Gomoku, IllegalMoveError, Move, NotationError
from abgames.games.gomoku import EMPTY
from abgames.games.tictactoe import SIZE as TICTACTOE_SIZE
from abgames.games.tictactoe import TicTacToe
from abgames.match import Match
from abgames.search.result import SearchResult
from abgames.search.score import describe

#: Root moves listed in the ``why`` text.
WHY_CANDIDATES = 3


def board_size(state: GameState) -> tuple[int, int]:
    """(width, height) of the board in cells."""
    if isinstance(state, ConnectFour):
        return state.width, state.height
    if isinstance(state, Gomoku):
        return state.size, state.size
    return TICTACTOE_SIZE, TICTACTOE_SIZE


def cells_of(state: GameState) -> list[int | None]:
    """Each cell's owner (0, 1 or None), row by row from the top-left."""
    if isinstance(state, TicTacToe):
        return list(state.cells)
    if isinstance(state, Gomoku):
        return [None if stone == EMPTY else stone - 1 for stone in state.board]
    if isinstance(state, ConnectFour):
        return [
            state.cell(column, row)
            for row in range(state.height - 1, -1, -1)
            for column in range(state.width)
        ]
    raise TypeError(f"no board view for {type(state).__name__}")


def cell_of_line(state: GameState, item: int) -> int:
    """A winning-line entry as a cell index (Connect Four lists bit indices)."""
    if isinstance(state, ConnectFour):
        column, row = divmod(item, state.stride)
        return (state.height - 1 - row) * state.width + column
    return item


def cell_of_move(state: GameState, move: Move, ply: int) -> int:
    """The cell the move at ``ply`` filled (a Connect Four move names only a column)."""
    if isinstance(state, ConnectFour):
        row = sum(1 for m in state.moves[:ply] if m == move)
        return (state.height - 1 - row) * state.width + move
    return move


def text_of(state: GameState, move: Move) -> str:
    try:
        return state.format_move(move)
    except (NotationError, IndexError, ValueError):
        return str(move)


def outcome_of(state: GameState) -> dict[str, Any] | None:
    outcome = state.outcome()
    if outcome is None:
        return None
    text = "Draw" if outcome.winner is None else f"{state.player_names[outcome.winner]} wins"
    return {
        "winner": outcome.winner,
        "line": [cell_of_line(state, item) for item in outcome.line],
        "text": text,
    }


def forbidden_of(state: GameState) -> list[dict[str, Any]]:
    """Black's forbidden points (Renju, black to move), with the rule's words."""
    if not isinstance(state, Gomoku) or state.to_move != 0 or state.is_over():
        return []
    return [
        {
            "move": point,
            "text": state.format_move(point),
            "reason": f"{kind.replace('_', '-')} at {state.format_move(point)} "
            "is forbidden for black",
        }
        for point, kind in sorted(state.forbidden_points().items())
    ]


def pv_of(base: GameState, pv: tuple[Move, ...]) -> list[dict[str, Any]]:
    """The expected line as moves and texts, replayed on a copy of ``base``."""
    probe = base.copy()
    line: list[dict[str, Any]] = []
    for move in pv:
        text = text_of(probe, move)
        try:
            probe.play(move)
        except IllegalMoveError:
            break
        line.append({"move": move, "text": text})
    return line


def progress_of(base: GameState, result: SearchResult) -> dict[str, Any]:
    """A completed depth of a running search (the ``progress`` event)."""
    move = result.move
    return {
        "depth": result.depth,
        "nodes": result.nodes,
        "elapsed": round(result.elapsed, 3),
        "move": move,
        "text": None if move is None else text_of(base, move),
        "score": result.score,
        "score_text": describe(result.score, solved=result.solved),
        "pv": pv_of(base, result.pv),
        "note": result.note,
    }


def analysis_of(base: GameState, result: SearchResult) -> dict[str, Any]:
    """A finished search of ``base`` (the position it searched), scores from the mover's view."""
    move = result.move
    text = None if move is None else text_of(base, move)
    pv = pv_of(base, result.pv)
    # A solved search shows game results only: estimates of moves it did not search to
    # the end (it stopped once the best move was proven) would read as results.
    ranked = sorted(
        (
            (root_move, score)
            for root_move, score in result.root_scores.items()
            if not (result.solved and root_move in result.heuristic_moves)
        ),
        key=lambda item: -item[1],
    )
    root_scores = [
        {
            "move": root_move,
            "text": text_of(base, root_move),
            "score": score,
            "score_text": describe(score, solved=result.solved),
        }
        for root_move, score in ranked
    ]
    view = base.to_move
    who = base.player_names[view]
    score_text = describe(result.score, solved=result.solved)
    why = [f"{who} plays {text}: {score_text} (depth {result.depth}, {result.nodes:,} nodes)."]
    if result.note:
        why.append(f"{result.note[0].upper()}{result.note[1:]}.")
    if pv:
        why.append("Expected line: " + " ".join(step["text"] for step in pv) + ".")
    if len(root_scores) > 1:
        kind = "" if result.root_scores_exact else " (others are upper bounds)"
        best = ", ".join(
            f"{entry['text']} {entry['score_text']}" for entry in root_scores[:WHY_CANDIDATES]
        )
        why.append(f"Best candidates{kind}: {best}.")
    return {
        "move": move,
        "text": text,
        "score": result.score,
        "score_text": score_text,
        "depth": result.depth,
        "nodes": result.nodes,
        "elapsed": round(result.elapsed, 3),
        "pv": pv,
        "root_scores": root_scores,
        "solved": result.solved,
        "note": result.note,
        "view": view,
        "why": " ".join(why),
    }


def position_before(match: Match, ply: int) -> GameState:
    """A copy of the match's position before move ``ply`` (0-based) was played."""
    base = match.state.copy()
    while base.ply > ply:
        base.undo()
    return base


def moves_of(state: GameState) -> list[dict[str, Any]]:
    return [{"move": move, "text": text_of(state, move)} for move in state.moves]
