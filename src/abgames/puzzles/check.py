"""Judging a puzzle move with the engines: any move that keeps a forced win counts.

Gomoku/Renju: after the attacker's move the defender's candidates are the engine's
best answers (its search's choice, then its other root moves, best first); each is
tried and the attacker's win looked for again by the threat solvers (VCF, then VCT).
A candidate after which the attacker has no win, or a forced win of the defender's
own, refutes the move; otherwise the move is right and the defender answers with the
candidate that holds out longest. Connect Four: the solver's exact score of each
column; the defender answers with its best column (a win or a draw if the move threw
the win away, else the slowest loss).

Every function here runs in a search worker (``run_puzzle_job``): the engines load
their kernels once per process and each check takes milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from abgames.games.base import GameState, IllegalMoveError, Move
from abgames.games.connect4 import ConnectFour
from abgames.games.gomoku import Gomoku
from abgames.puzzles.catalogue import Puzzle, by_id

# Verdicts.
SOLVED = "solved"  # the move won (five or four in a row)
CORRECT = "correct"  # the move keeps a forced win; the defender answered
WRONG = "wrong"  # the move lets the win go; the defender's answer refutes it

#: Attacker moves the VCF solver looks ahead (the longest shipped VCF has 73).
VCF_DEPTH = 100
VCF_NODES = 2_000_000
#: Attacker moves the VCT solver looks ahead, and its node budget.
VCT_DEPTH = 8
VCT_NODES = 400_000
#: The defender's search (seconds): its choice and root moves are the candidates.
DEFENCE_SECONDS = 0.3
#: Most defender candidates tried after an attacker move that is not a four.
DEFENCE_CANDIDATES = 8
#: Transposition table of the Connect Four solver here (2**20 entries, 8 MB).
CONNECT4_TABLE_BITS = 20

PUZZLE_ERROR = "error"


@dataclass(frozen=True)
class Verdict:
    """What a move did: ``verdict``, the defender's ``reply`` (``None`` once solved), and
    the attacker's moves still needed after that reply (0 if none or unknown)."""

    verdict: str
    reply: Move | None
    wins_in: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "reply": self.reply, "wins_in": self.wins_in}


# --- Gomoku ---------------------------------------------------------------------


@cache
def _gomoku_engine() -> Any:
    from abgames.ai.gomoku.engine import GomokuEngine

    return GomokuEngine()


def gomoku_win(state: Gomoku) -> tuple[int, tuple[Move, ...]] | None:
    """The side to move's forced win: (attacker moves, line) by VCF, else VCT; or None."""
    engine = _gomoku_engine()
    found = engine.solve(state, depth=VCF_DEPTH, nodes=VCF_NODES)
    if found is None:
        found = engine.solve(state, depth=VCT_DEPTH, threes=True, nodes=VCT_NODES)
    if found is None:
        return None
    line = tuple(found.line)
    if not line:  # a five to make: the solver names no line, the search its point
        from abgames.search.limit import Limit

        first = next(iter(engine.search(state, Limit(depth=1))), None)
        if first is None or first.move is None:
            return None
        line = (first.move,)
    return int(found.moves), line


def _defender_candidates(state: Gomoku) -> tuple[list[Move], bool]:
    """The defender's answers to try, the engine's best first, and whether the first
    is a forced win of the defender's own."""
    from abgames.search.limit import Limit

    engine = _gomoku_engine()
    last = None
    for last in engine.search(state, Limit(time=DEFENCE_SECONDS)):  # noqa: B007
        pass
    if last is None or last.move is None:
        return [], False
    if last.solved and last.score > 0:
        return [last.move], True
    ranked = sorted(last.root_scores.items(), key=lambda item: -item[1])
    moves = [last.move] + [move for move, _ in ranked if move != last.move]
    return moves[:DEFENCE_CANDIDATES], False


def judge_gomoku(state: Gomoku, move: Move) -> Verdict:
    """The attacker (to move in ``state``) plays ``move``; ``state`` is left unchanged."""
    attacker = state.to_move
    probe = state.copy()
    probe.play(move)
    outcome = probe.outcome()
    if outcome is not None:
        return Verdict(SOLVED if outcome.winner == attacker else WRONG, None)
    candidates, defender_wins = _defender_candidates(probe)
    if not candidates:
        return Verdict(WRONG, None)
    if defender_wins:
        return Verdict(WRONG, candidates[0])
    best: tuple[int, Move] | None = None
    for reply in candidates:
        try:
            probe.play(reply)
        except IllegalMoveError:  # a Renju point forbidden for a black defender
            continue
        try:
            finished = probe.outcome()
            if finished is not None and finished.winner != attacker:
                return Verdict(WRONG, reply)
            win = gomoku_win(probe)
        finally:
            probe.undo()
        if win is None:
            return Verdict(WRONG, reply)
        if best is None or win[0] > best[0]:
            best = (win[0], reply)
    if best is None:
        return Verdict(WRONG, None)
    return Verdict(CORRECT, best[1], best[0])


def gomoku_hint(state: Gomoku) -> Move | None:
    win = gomoku_win(state)
    return None if win is None else win[1][0]


# --- Connect Four ---------------------------------------------------------------


@cache
def _connect4_solver() -> Any:
    from abgames.ai.connect4.book import load_default_book
    from abgames.ai.connect4.level_book import load_default_level
    from abgames.ai.connect4.solver import Solver

    return Solver(CONNECT4_TABLE_BITS, load_default_book(), load_default_level())


def connect4_scores(state: ConnectFour) -> list[int]:
    """The solver's exact score of each column for the side to move (``INVALID_MOVE``
    where a column is full): positive wins, 0 draws, negative loses."""
    from abgames.ai.connect4.solver import Position

    return list(_connect4_solver().analyze(Position.from_state(state)))


def _best_column(scores: Sequence[int], legal: Sequence[Move]) -> Move:
    """The highest score among ``legal`` columns, the one nearest the centre on a tie."""
    centre = 3
    return max(legal, key=lambda column: (scores[column], -abs(column - centre)))


def judge_connect4(state: ConnectFour, move: Move) -> Verdict:
    attacker = state.to_move
    scores = connect4_scores(state)
    probe = state.copy()
    probe.play(move)
    outcome = probe.outcome()
    if outcome is not None:
        return Verdict(SOLVED if outcome.winner == attacker else WRONG, None)
    replies = connect4_scores(probe)
    reply = _best_column(replies, probe.legal_moves())
    if scores[move] <= 0:
        return Verdict(WRONG, reply)
    probe.play(reply)
    if probe.outcome() is not None:  # cannot happen after a winning move
        return Verdict(WRONG, reply)
    left = max(connect4_scores(probe))
    moves_left = (probe.width * probe.height + 2) // 2 - left - probe.ply // 2
    return Verdict(CORRECT, reply, max(1, moves_left))


def connect4_hint(state: ConnectFour) -> Move | None:
    scores = connect4_scores(state)
    column = _best_column(scores, state.legal_moves())
    return column if scores[column] > 0 else None


# --- both -----------------------------------------------------------------------


def judge(state: GameState, move: Move) -> Verdict:
    """The verdict on the attacker's ``move`` in ``state`` (``IllegalMoveError`` if illegal)."""
    if isinstance(state, Gomoku):
        return judge_gomoku(state, move)
    if isinstance(state, ConnectFour):
        return judge_connect4(state, move)
    raise TypeError(f"no puzzles for {state.name}")


def hint(state: GameState) -> Move | None:
    """The engine's winning move for the side to move, or ``None`` if it finds none."""
    if isinstance(state, Gomoku):
        return gomoku_hint(state)
    if isinstance(state, ConnectFour):
        return connect4_hint(state)
    raise TypeError(f"no puzzles for {state.name}")


def run_puzzle_job(op: str, request: dict[str, Any]) -> dict[str, Any]:
    """A worker's puzzle job: ``op`` "move" (``{puzzle, moves, move}``) or "hint"
    (``{puzzle, moves}``). The answer is JSON-ready; a fault is ``{"error": text}``."""
    puzzle: Puzzle | None = by_id().get(str(request.get("puzzle")))
    if puzzle is None:
        return {PUZZLE_ERROR: f"there is no puzzle {request.get('puzzle')!r}"}
    try:
        state = puzzle.after(int(m) for m in request.get("moves", ()))
        if op == "move":
            return judge(state, int(request["move"])).to_json()
        if op == "hint":
            return {"move": hint(state)}
    except (IllegalMoveError, KeyError, TypeError, ValueError) as error:
        return {PUZZLE_ERROR: str(error)}
    return {PUZZLE_ERROR: f"unknown puzzle job {op!r}"}
