"""The engine's VCF on its cheaper plays: ``play_threat``/``undo_threat`` keep the board
as ``play``/``undo`` do, and ``vcf`` answers as a plain search over ``play`` does."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku import search as ks
from abgames.ai.gomoku.engine import EngineSettings, GomokuEngine
from abgames.ai.gomoku.renju import NOT_FORBIDDEN, forbidden
from abgames.ai.gomoku.threats import VCF_ATTACK_SCALE, VCF_NEAR_SPAN, run_solver
from abgames.games.gomoku import Gomoku, Rule
from abgames.search.score import WIN, WIN_THRESHOLD
from conftest import SHARED_DATA

#: Arrays ``play_threat`` leaves stale until its ``undo_threat``.
STALE = ("counts", "cell_value")  # and the shape keys, row ``SHAPE_ROW`` of ``keys``


def dense_state(rng: random.Random, rule: Rule, stones: int) -> Gomoku:
    """Stones next to each other (fours and threes on crossing lines), no five yet."""
    state = Gomoku(15, rule)
    while len(state.moves) < stones:
        near = [
            p
            for p in state.legal_moves()
            if not state.moves
            or any(max(abs(p % 15 - m % 15), abs(p // 15 - m // 15)) <= 1 for m in state.moves)
        ]
        point = rng.choice(near)
        trial = state.copy()
        trial.play(point)
        if trial.outcome() is not None:
            break
        state = trial
    return state


def assert_same_boards(full: nb.Board, light: nb.Board, stale_too: bool) -> None:
    for name in nb.Board._fields:
        if name in nb.UNDO_RECORDS:
            continue
        if name in STALE and not stale_too:
            continue
        mine, theirs = getattr(full, name), getattr(light, name)
        if name == "keys" and not stale_too:  # the shape keys' row is left stale too
            mine, theirs = mine[:, : nb.SHAPE_ROW], theirs[:, : nb.SHAPE_ROW]
        assert np.array_equal(mine, theirs), name


@pytest.mark.parametrize("rule", list(Rule))
def test_threat_plays_keep_the_board_as_plays_do(rule: Rule) -> None:
    # The same nested moves on two boards, one with play/undo and one with
    # play_threat/undo_threat: every array but the stale ones is equal at every step
    # (the order of the candidate and threat sets included), and all of them once
    # the threat plays are taken back.
    rng = random.Random(3)
    for _trial in range(4):
        state = dense_state(rng, rule, 24)
        full = nb.new_board(15, rule)
        light = nb.new_board(15, rule)
        nb.load(full, state)
        nb.load(light, state)
        base = int(full.info[nb.I_PLY])
        stale = [getattr(light, name).copy() for name in STALE]
        for _step in range(80):
            if full.info[nb.I_PLY] > base and rng.random() < 0.4:
                assert nb.undo(full) == nb.undo_threat(light)
            else:
                # Mostly threat cells: the codes that change most.
                me = int(full.info[nb.I_TO_MOVE])
                fours = full.threat_cells[me, nb.T_FOUR, : full.threat_size[me, nb.T_FOUR]]
                empty = np.flatnonzero(full.cells == nb.EMPTY)
                cell = int(rng.choice(list(fours) if len(fours) and rng.random() < 0.5 else empty))
                nb.play(full, cell)
                nb.play_threat(light, cell)
            assert_same_boards(full, light, stale_too=False)
            for name, before in zip(STALE, stale, strict=True):
                assert np.array_equal(getattr(light, name), before), name  # left alone
        while full.info[nb.I_PLY] > base:
            nb.undo(full)
            nb.undo_threat(light)
        assert_same_boards(full, light, stale_too=True)


def allowed(board: nb.Board, player: int, cell: int) -> bool:
    return player != 0 or forbidden(board, cell) == NOT_FORBIDDEN


def near_in_line(board: nb.Board, cell: int, centre: int, span: int) -> bool:
    """Whether ``cell`` lies on a line through ``centre`` at most ``span`` cells away."""
    width = int(board.info[nb.I_WIDTH])
    dy, dx = abs(cell // width - centre // width), abs(cell % width - centre % width)
    return (dx == 0 or dy == 0 or dx == dy) and max(dx, dy) <= span


def reference_vcf(board: nb.Board, depth: int, span: int = 0, last: int = -1) -> tuple[int, int]:
    """(attacker moves to win, first move) by continuous fours within ``depth``, (0, -1) if
    none: a plain depth-first search over ``play``/``undo``, five points found by a scan
    of the codes, a defender four blocked first (by a four, else the attack fails). No
    table, no node budget. Fours are tried by ``VCF_ATTACK_SCALE`` times the attacker's
    cell value plus the defender's (with ``span``, the attacker's alone), best first
    (ties in threat-set order).

    With ``span``, a four that blocks nothing keeps within ``span`` cells of the
    attacker's ``last`` four along one of its lines (the first four: anywhere).
    Without, the fours on a line through the attacker's stone before last (the last
    four, or its last move) within ``VCF_NEAR_SPAN`` come first, each group in order."""
    if depth <= 0:
        return 0, -1
    me = int(board.info[nb.I_TO_MOVE])
    other = 1 - me
    if board.counts[me, pt.F5] > 0:
        return 1, -1
    if board.counts[other, pt.F5] > 0:
        blocks = five_points(board, other)
        block = blocks[0]
        if len(blocks) != 1 or not allowed(board, me, block):
            return 0, -1
        if board.threat_dirs[me, nb.T_FOUR, block] == 0:
            return 0, -1
        candidates = [block]
    else:
        fours = board.threat_cells[me, nb.T_FOUR, : board.threat_size[me, nb.T_FOUR]]
        candidates = [int(c) for c in fours if allowed(board, me, int(c))]
        value = board.cell_value
        defence = 0 if span > 0 else 1
        candidates.sort(
            key=lambda c: -(VCF_ATTACK_SCALE * value[me, c] + defence * value[other, c])
        )
        ply = int(board.info[nb.I_PLY])
        if span > 0 and last >= 0:
            candidates = [c for c in candidates if near_in_line(board, c, last, span)]
        elif span == 0 and ply >= 2:
            previous = int(board.stack[ply - 2])
            near = [c for c in candidates if near_in_line(board, c, previous, VCF_NEAR_SPAN)]
            candidates = near + [c for c in candidates if c not in near]
    for cell in candidates:
        nb.play(board, cell)
        fives = five_points(board, me)
        if not fives or board.counts[other, pt.F5] > 0:
            nb.undo(board)
            continue
        if len(fives) >= 2 or not allowed(board, other, fives[0]):
            nb.undo(board)
            return 2, cell
        nb.play(board, fives[0])
        found, _ = reference_vcf(board, depth - 1, span, cell)
        nb.undo(board)
        nb.undo(board)
        if found:
            return found + 1, cell
    return 0, -1


def reference_root_vcf(board: nb.Board, depth: int) -> tuple[int, int]:
    """``reference_vcf`` as the root solver runs it: the lines within ``VCF_NEAR_SPAN``
    of the last four first, then, if none wins, every line."""
    found = reference_vcf(board, depth, VCF_NEAR_SPAN)
    return found if found[0] else reference_vcf(board, depth)


def five_points(board: nb.Board, player: int) -> list[int]:
    fives = (board.pattern[player] == pt.F5).any(axis=0) & (board.cells == nb.EMPTY)
    return [int(c) for c in np.flatnonzero(fives)]


def puzzle_states() -> list[Gomoku]:
    path = SHARED_DATA / "gomoku" / "puzzles" / "intro_vcf.jsonl"
    if not path.exists():
        return []
    states = []
    for line in path.read_text().splitlines()[::9]:
        case: dict[str, Any] = json.loads(line)
        state = Gomoku(len(case["board"]), Rule.RENJU)
        for y, row in enumerate(case["board"]):
            for x, mark in enumerate(row.strip()):
                if mark in "XO":
                    state.board[state.point(x, y)] = 1 if mark == "X" else 2
        state.moves = [p for p, stone in enumerate(state.board) if stone]
        state.key = state.compute_key()
        states.append(state)
    return states


def test_vcf_answers_as_a_plain_search_over_play() -> None:
    rng = random.Random(5)
    states = puzzle_states()
    for rule in Rule:
        states += [dense_state(rng, rule, 20 + 2 * i) for i in range(6)]
    won = 0
    for state in states:
        engine = GomokuEngine(EngineSettings())
        board = nb.new_board(state.size, state.rule)
        for depth in (3, 5):
            nb.load(board, state)
            expected, first = reference_root_vcf(board, depth)
            found = engine.solve(state, depth=depth)
            if expected == 0:
                assert found is None
                continue
            won += 1
            assert found is not None and found.moves == expected
            if expected >= 2:  # (1: a five now, no line)
                assert nb.to_cell(board, found.line[0]) == first
    assert won >= 10  # the positions do exercise winning lines


def test_a_leaf_vcf_with_a_span_answers_as_the_plain_search_with_it() -> None:
    """At the horizon, a VCF whose later fours keep near the last (``leaf_vcf_span``)
    finds what the plain search restricted the same way finds, and its failures do not
    hide the wins of a VCF without the restriction from the same tables (the root
    solvers'). The sample holds wins the restriction misses and wins it finds."""
    rng = random.Random(11)
    span, depth = 2, 5
    engine = GomokuEngine(
        EngineSettings(
            leaf_vcf_depth=depth, leaf_vcf_nodes=10**9, leaf_vcf_span=span, static_wins=False
        )
    )
    missed = kept = 0
    for i in range(240):
        state = dense_state(rng, list(Rule)[i % 3], rng.randrange(14, 34))
        if state.outcome() is not None:
            continue
        board, tables = engine._prepare(state)
        if board.counts[1 - int(board.info[nb.I_TO_MOVE]), pt.F5] > 0:
            continue  # the opponent's four: negamax blocks it before the horizon
        restricted, _ = reference_vcf(board, depth, span)
        full, _ = reference_vcf(board, depth)
        score = int(ks.negamax(board, tables, 0, -WIN - 1, WIN + 1, 1))
        if restricted:
            assert score == WIN - (1 + 2 * restricted - 1), (state.moves, score)
        else:
            assert score < WIN_THRESHOLD, (state.moves, score)
        assert (run_solver(board, tables, depth, 10**9, False) > 0) == (full > 0)
        missed += full > 0 and restricted == 0
        kept += restricted >= 3
    assert missed > 0 and kept > 0, (missed, kept)
