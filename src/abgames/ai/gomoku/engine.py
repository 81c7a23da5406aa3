"""The Gomoku engine: the numba kernels driven by iterative deepening and a clock.

``GomokuEngine.search(state, limit)`` is a generator like the reference engine's: it
first looks for a forced win (a five, then VCF, then VCT at the root, within
``SOLVER_TIME_SHARE`` of a timed budget), then yields one ``SearchResult`` per
completed alpha-beta depth (and, when the clock cuts an iteration short after a root
move beat the previous best, that move, with its line and the root scores of the
moves that depth finished: what ``why`` and the heat map show). When
``defence_vct_depth`` is set, each iteration's best move is checked as it is found:
if the opponent then wins by VCT it leaves the root, and the next iterations choose
among the others. Last, the chosen move is checked (unless it already was): if it
loses so, the next root moves are tried and the first safe one is yielded
(``DEFENCE_TIME_SHARE`` of the budget is kept for this). When every move loses
(alpha-beta proves it for the moves left, or each move checked loses to a VCT), the
move played is the one whose loss comes last: a move taken out for a long VCT rather
than one the opponent wins at once. The last result yielded is the move to play.

A timer thread sets the kernels' stop flag at the deadline, and ``stop()`` sets it
from any thread, so a search never runs past its budget by more than one check
interval (~1 ms).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku import netfile
from abgames.ai.gomoku import search as ks
from abgames.ai.gomoku import tables as kt
from abgames.ai.gomoku.proof import run_proof_vct
from abgames.ai.gomoku.settings import EngineSettings as EngineSettings
from abgames.ai.gomoku.threats import run_solver
from abgames.ai.gomoku.weights import eval_weights
from abgames.games.gomoku import Gomoku, Rule
from abgames.search.limit import Limit
from abgames.search.result import SearchResult
from abgames.search.score import WIN
from abgames.search.seeds import generator_seed

#: Once this share of the budget is used a new iteration is not started (it would
#: cost several times the last one) unless the engine is told to spend all its time
#: (``EngineSettings.use_full_time``, or ``search(..., spend_all=True)`` when unused
#: time is lost anyway, as under a per-move limit).
#: An iteration cut short by the clock still counts if a root move searched to the
#: full new depth beat the previous best (see ``GomokuEngine._deepen``).
NEW_ITERATION_TIME_SHARE = 0.5
#: Share of a timed budget the root VCF/VCT may use before alpha-beta starts
#: (their node budgets bound them too); a solver cut short proves nothing.
SOLVER_TIME_SHARE = 0.15
#: Share of a timed budget kept for the last root defence check
#: (``EngineSettings.defence_*``) when it is on: alpha-beta stops at the rest. A check
#: is bounded by its node budget and usually takes well under a millisecond; it is long
#: when the move loses and others must be tried, which the checks between iterations
#: mostly do before this share. A check cut short by the clock keeps the move.
DEFENCE_TIME_SHARE = 0.02
#: Kept back from every time budget for the work around the kernels.
SAFETY_MARGIN_SECONDS = 0.015


def vct_loss_score(moves: int) -> int:
    """The score of a root move after which the opponent wins by a VCT of ``moves``
    moves (its five counted): that five is the ``2 * moves``-th move from the root."""
    return -(WIN - 2 * moves)


@dataclass(frozen=True)
class SolverResult:
    """A forced win found by ``solve``: attacker moves to the five and the line (points).

    ``moves`` counts the final five; the solver's ``depth`` counts the attacker's
    fours and threes before it (the convention of quintet's puzzles).
    """

    moves: int
    line: tuple[int, ...]


class GomokuEngine:
    """One engine, many searches; tables persist between searches of one board shape
    (another rule on a board of the same size resets them, without allocating anew)."""

    def __init__(self, settings: EngineSettings | None = None, seed: int | None = None) -> None:
        self.settings = settings or EngineSettings()
        self._weights = eval_weights(dict(self.settings.eval_overrides))
        if self.settings.eval_net:
            netfile.pack(self._weights, netfile.engine_network())
        #: With a seed, equally scored root moves are reordered at random (reproducibly)
        #: between iterations, so the choice among equally good moves varies with it.
        self._rng = None if seed is None else np.random.default_rng(generator_seed(seed))
        self._shape: tuple[int, Rule] | None = None
        self.board: nb.Board | None = None
        self.tables: kt.Tables | None = None
        self._stop_event = threading.Event()
        self._out_of_time = threading.Event()
        #: The timer that ends alpha-beta before the last defence check, while armed.
        self._phase_timer: threading.Timer | None = None

    # --- set-up -----------------------------------------------------------------
    def _prepare(self, state: Gomoku) -> tuple[nb.Board, kt.Tables]:
        shape = (state.size, state.rule)
        if self._shape != shape or self.board is None or self.tables is None:
            self.board = nb.new_board(state.size, state.rule)
            cells = self.board.cells.shape[0]
            if self.tables is not None and self.tables.history.shape[1] == cells:
                kt.reset_tables(self.tables)  # another rule: same size, nothing kept
            else:
                self.tables = kt.new_tables(cells)
            self._shape = shape
        board, tables = self.board, self.tables
        nb.load(board, state)
        settings = self.settings
        for slot, field in enumerate(kt.CONFIG_FIELDS):
            tables.config[slot] = int(getattr(settings, field))
        tables.weights[:] = self._weights
        tables.stats[:] = 0
        tables.stop[0] = 0
        tables.killers[:] = -1
        tables.history[:] //= 8
        return board, tables

    def stop(self) -> None:
        """Ask a running search (in any thread) to finish with its best answer."""
        self._stop_event.set()
        if self.tables is not None:
            self.tables.stop[0] = 1

    def _point(self, cell: int) -> int:
        assert self.board is not None
        return nb.to_point(self.board, cell)

    # --- solvers ----------------------------------------------------------------
    def solve(
        self, state: Gomoku, *, depth: int, threes: bool = False, nodes: int = 10_000_000
    ) -> SolverResult | None:
        """A win for the side to move by continuous fours (``threes``: and threes) within
        ``depth`` attacker moves, or ``None`` if none was found within ``nodes``."""
        board, tables = self._prepare(state)
        tables.vcf_key[:] = 0
        moves = self._run_solver(board, tables, depth, nodes, threes)
        if moves == 0:
            return None
        line = tuple(self._point(int(c)) for c in tables.pv[0, : tables.pv_length[0]])
        return SolverResult(moves, line)

    # --- search -----------------------------------------------------------------
    def search(
        self, state: Gomoku, limit: Limit, spend_all: bool = False
    ) -> Iterator[SearchResult]:
        """Yield a result per completed depth; ``state`` is not changed.

        ``limit.time`` is a hard budget (seconds); ``limit.nodes`` is checked between
        iterations only. A finished game yields nothing. With ``spend_all`` (or the
        settings' ``use_full_time``) iterations go on until the budget is used, for
        callers whose unused time is lost; otherwise no iteration starts once
        ``NEW_ITERATION_TIME_SHARE`` of it is gone, so a person waits less.
        """
        if state.outcome() is not None:
            return
        start = time.perf_counter()
        self._stop_event.clear()
        self._out_of_time.clear()
        board, tables = self._prepare(state)
        timer: threading.Timer | None = None
        budget = limit.time
        if budget is not None:
            budget = max(0.0, budget - SAFETY_MARGIN_SECONDS)
            timer = threading.Timer(budget, self._time_up)
            timer.daemon = True
            timer.start()
        try:
            spend = spend_all or self.settings.use_full_time
            yield from self._search(state, board, tables, limit, start, budget, spend)
        finally:  # also when the caller closes the search early
            # Disarmed and finished, so that no callback raises the stop flag in the
            # next search (a closed search left its phase timer armed: it cut the next
            # search's root solvers short, and a VCF went unfound).
            for armed in (timer, self._phase_timer):
                if armed is not None:
                    armed.cancel()
                    armed.join()
            self._phase_timer = None

    def _time_up(self) -> None:
        self._out_of_time.set()
        if self.tables is not None:
            self.tables.stop[0] = 1

    def _phase_time_up(self) -> None:
        """End the current phase (root solvers or alpha-beta), not the search."""
        if self.tables is not None:
            self.tables.stop[0] = 1

    def _root_solvers(
        self, board: nb.Board, tables: kt.Tables, budget: float | None
    ) -> tuple[int, bool] | None:
        """Root VCF, then VCT, within their node budgets and ``SOLVER_TIME_SHARE`` of
        ``budget``: (attacker moves, threes) of a win found, else ``None``. Leaves the
        stop flag down unless the search itself must stop."""
        settings = self.settings
        timer: threading.Timer | None = None
        if budget is not None:
            timer = threading.Timer(SOLVER_TIME_SHARE * budget, self._phase_time_up)
            timer.daemon = True
            timer.start()
        found: tuple[int, bool] | None = None
        try:
            for depth, nodes, threes in (
                (settings.root_vcf_depth, settings.root_vcf_nodes, False),
                (settings.root_vct_depth, settings.root_vct_nodes, True),
            ):
                if depth <= 0 or tables.stop[0]:
                    continue
                moves = self._run_solver(board, tables, depth, nodes, threes)
                if moves > 0 and tables.pv_length[0] > 0:
                    found = (moves, threes)
                    break
        finally:
            if timer is not None:
                timer.cancel()
                timer.join()  # a callback already running has set the flag by now
        self._resume(tables)
        return found

    def _run_solver(
        self, board: nb.Board, tables: kt.Tables, depth: int, nodes: int, threes: bool
    ) -> int:
        """``threats.run_solver`` for the root and ``solve``: a VCT by proof numbers
        (``proof.run_proof_vct``) when the settings' ``proof_vct`` is on."""
        if threes and self.settings.proof_vct:
            return run_proof_vct(board, tables, depth, nodes)
        return run_solver(board, tables, depth, nodes, threes)

    def _must_stop(self) -> bool:
        return self._stop_event.is_set() or self._out_of_time.is_set()

    def _resume(self, tables: kt.Tables) -> None:
        """After a phase: lower the stop flag unless the search itself must stop."""
        if not self._must_stop():
            tables.stop[0] = 0
        tables.stats[kt.S_ABORTED] = 0

    def _refutation(self, board: nb.Board, tables: kt.Tables, cell: int) -> int | None:
        """The opponent's moves to its five (the five counted) in a VCT it wins by
        after ``cell``, within the defence limits; 0 if it has none, ``None`` if the
        check was cut short (it proves nothing). Leaves the board, the killers and the
        stop flag as they were."""
        settings = self.settings
        killers = tables.killers.copy()
        nb.play(board, cell)
        depth, nodes = settings.defence_vct_depth, settings.defence_nodes
        if settings.proof_defence:
            moves = run_proof_vct(board, tables, depth, nodes)
        else:
            moves = run_solver(board, tables, depth, nodes, True)
        nb.undo(board)
        tables.killers[:] = killers
        if tables.stats[kt.S_ABORTED]:
            return None
        return moves

    def _verdict(
        self, board: nb.Board, tables: kt.Tables, cell: int, known: dict[int, int]
    ) -> int | None:
        """``_refutation`` of ``cell``, read from ``known`` (root cells already checked)
        or checked now and added to it; ``None`` if the check was cut short."""
        if cell not in known:
            moves = self._refutation(board, tables, cell)
            if moves is None:
                return None
            known[cell] = moves
        return known[cell]

    def _safe_cell(
        self,
        board: nb.Board,
        tables: kt.Tables,
        candidates: list[int],
        known: dict[int, int] | None = None,
    ) -> int | None:
        """The first of ``candidates`` (cells) after which the opponent has no VCT
        within the defence limits, checking at most ``defence_moves`` of them; ``None``
        if none is safe or time ran out. ``known`` maps cells already checked (not
        counted) to their ``_refutation``."""
        known = {} if known is None else known
        checks = 0
        for cell in candidates:
            if cell not in known:
                if checks >= self.settings.defence_moves or self._must_stop():
                    return None
                checks += 1
            refutation = self._verdict(board, tables, cell, known)
            if refutation is None:
                return None
            if refutation == 0:
                return cell
        return None

    def _slowest_loss(
        self,
        start: float,
        tables: kt.Tables,
        last: SearchResult,
        known: dict[int, int],
        score_to_beat: int,
    ) -> Iterator[SearchResult]:
        """The root move checked whose refutation by VCT is longest (the first such),
        if its loss comes later than ``score_to_beat`` (the loss of the move chosen);
        nothing otherwise. Its root score is that loss."""
        refuted = [(moves, cell) for cell, moves in known.items() if moves > 0]
        if not refuted:
            return
        moves, cell = max(refuted, key=lambda entry: entry[0])
        score = vct_loss_score(moves)
        if score <= score_to_beat:
            return
        move = self._point(cell)
        yield self._result(
            start,
            tables,
            move=move,
            score=score,
            depth=last.depth,
            pv=(move,),
            root_scores={**last.root_scores, move: score},
            complete=False,
        )

    def _result(self, start: float, tables: kt.Tables, **fields: object) -> SearchResult:
        return SearchResult(
            nodes=int(tables.stats[kt.S_NODES] + tables.stats[kt.S_VCF_NODES]),
            elapsed=time.perf_counter() - start,
            cutoffs=int(tables.stats[kt.S_CUTOFFS]),
            tt_hits=int(tables.stats[kt.S_TT_HITS]),
            **fields,  # type: ignore[arg-type]
        )

    def _search(
        self,
        state: Gomoku,
        board: nb.Board,
        tables: kt.Tables,
        limit: Limit,
        start: float,
        budget: float | None,
        spend_all: bool,
    ) -> Iterator[SearchResult]:
        root = np.zeros(kt.MAX_MOVES, np.int32)
        count = ks.root_candidates(board, tables, root)
        if count == 0:  # only forbidden points near the stones: any legal point
            legal = state.legal_moves()
            move = legal[0]
            yield self._result(start, tables, move=move, score=0, depth=0, pv=(move,))
            return
        me = int(board.info[nb.I_TO_MOVE])
        if board.counts[me, 10] > 0:  # a five
            move = self._point(int(root[0]))
            yield self._result(
                start, tables, move=move, score=WIN - 1, depth=1, pv=(move,), solved=True
            )
            return
        if count == 1:  # a forced block
            move = self._point(int(root[0]))
            yield self._result(start, tables, move=move, score=0, depth=1, pv=(move,))
            return
        solved = self._root_solvers(board, tables, budget)
        if solved is not None:
            found = solved[0]
            pv = tuple(self._point(int(c)) for c in tables.pv[0, : tables.pv_length[0]])
            yield self._result(
                start,
                tables,
                move=pv[0],
                score=WIN - (2 * found - 1),
                depth=2 * found - 1,
                pv=pv,
                solved=True,
            )
            return
        yield from self._deepen(board, tables, root[:count].copy(), limit, start, budget, spend_all)

    def _ranking(self, scores: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
        """The root order for the next iteration: best score first.

        Without a seed, equal scores keep their order (the search is deterministic).
        With one, they come in a random order: PVS keeps the first of equally good
        moves (a later one must score strictly higher), so the move chosen is one of
        the equally good ones, picked by the seed. A worse move whose bound ties the
        best may come first too; it is searched with the full window and beaten.
        """
        if self._rng is None:
            return np.argsort(-scores, kind="stable")
        shuffled = self._rng.permutation(scores.shape[0])
        return shuffled[np.argsort(-scores[shuffled], kind="stable")]

    def _deepen(
        self,
        board: nb.Board,
        tables: kt.Tables,
        root: npt.NDArray[np.int32],
        limit: Limit,
        start: float,
        budget: float | None,
        spend_all: bool,
    ) -> Iterator[SearchResult]:
        settings = self.settings
        max_depth = min(settings.max_depth, limit.depth or settings.max_depth)
        scores = np.zeros(root.shape[0], np.int64)
        last: SearchResult | None = None
        ranked_scores = np.zeros(root.shape[0], np.int64)
        defend = settings.defence_vct_depth > 0 and root.shape[0] > 1
        known: dict[int, int] = {}  # root cells checked: their ``_refutation``
        phase_timer: threading.Timer | None = None
        if defend and budget is not None:
            delay = start + (1.0 - DEFENCE_TIME_SHARE) * budget - time.perf_counter()
            phase_timer = threading.Timer(max(0.0, delay), self._phase_time_up)
            phase_timer.daemon = True
            phase_timer.start()
            self._phase_timer = phase_timer  # ``search`` disarms it if closed early
        for depth in range(1, max_depth + 1):
            scores[:] = -WIN - 1
            best = ks.search_root(board, tables, depth, root, scores)
            if tables.stats[kt.S_ABORTED]:
                if last is not None and best != 0:
                    # A move searched to the full new depth beat the last best: trust it,
                    # with its line and the scores of the root moves this depth finished
                    # (the last best's among them, exact: it is searched first).
                    move = self._point(int(root[best]))
                    pv = tuple(self._point(int(c)) for c in tables.pv[0, : tables.pv_length[0]])
                    finished = {
                        self._point(int(c)): int(s)
                        for c, s in zip(root, scores, strict=True)
                        if s > -WIN - 1
                    }
                    last = self._result(
                        start,
                        tables,
                        move=move,
                        score=int(scores[best]),
                        depth=depth,
                        pv=pv if pv and pv[0] == move else (move,),
                        root_scores=finished,
                        complete=False,
                    )
                    yield last
                break
            pv = tuple(self._point(int(c)) for c in tables.pv[0, : tables.pv_length[0]])
            move = self._point(int(root[best]))
            if not pv or pv[0] != move:
                pv = (move,)
            root_scores = {self._point(int(c)): int(s) for c, s in zip(root, scores, strict=True)}
            last = self._result(
                start,
                tables,
                move=move,
                score=int(scores[best]),
                depth=depth,
                pv=pv,
                root_scores=root_scores,
            )
            yield last
            order = self._ranking(scores)
            root = root[order]
            ranked_scores = scores[order]
            if abs(last.score) >= WIN - 1000:
                break  # a forced result: deeper search will not change it
            if defend and root.shape[0] > 1 and self._verdict(board, tables, int(root[0]), known):
                # The best move loses to a VCT the alpha-beta has not seen yet (a check
                # cut short proves nothing): the next iterations choose among the others
                # (their scores keep their order).
                root, ranked_scores = root[1:], ranked_scores[1:]
                scores = scores[: root.shape[0]]
            if limit.nodes is not None and last.nodes >= limit.nodes:
                break
            elapsed = time.perf_counter() - start
            if budget is not None and not spend_all and elapsed > NEW_ITERATION_TIME_SHARE * budget:
                break
        if phase_timer is not None:
            phase_timer.cancel()
            phase_timer.join()
        if last is None:
            move = self._point(int(root[0]))
            yield self._result(
                start, tables, move=move, score=0, depth=0, pv=(move,), complete=False
            )
            return
        if not defend or last.score >= WIN - 1000:
            return  # a proven win needs no check
        if last.score <= -(WIN - 1000):
            # Every move left loses by force: a move the checks took out loses only to
            # a VCT the opponent must find. Play it if that lasts longer.
            yield from self._slowest_loss(start, tables, last, known, last.score)
            return
        self._resume(tables)
        chosen = nb.to_cell(board, last.move) if last.move is not None else int(root[0])
        candidates = [chosen] + [
            int(c)
            for c, score in zip(root, ranked_scores, strict=True)
            if int(c) != chosen and score > -(WIN - 1000)
        ]
        safe = self._safe_cell(board, tables, candidates, known)
        if safe is None and known.get(chosen, 0) > 0:
            # Each move checked loses to a VCT: the longest is the hardest to find.
            yield from self._slowest_loss(start, tables, last, known, vct_loss_score(known[chosen]))
            return
        if safe is not None and safe != chosen:
            move = self._point(safe)
            yield self._result(
                start,
                tables,
                move=move,
                score=int(last.root_scores.get(move, last.score)),
                depth=last.depth,
                pv=(move,),
                root_scores=last.root_scores,
                complete=False,
            )
