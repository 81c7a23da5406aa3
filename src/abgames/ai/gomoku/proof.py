# mypy: disable-error-code="no-any-return,untyped-decorator,misc,call-overload,no-untyped-call"
# (numba kernels: the decorators and numpy scalars are untyped for mypy)
"""Victory by continuous fours and threes found by proof numbers (df-pn).

``proof_vct`` answers the question ``threats.vct`` answers (does the side to move win
by fours and threes within ``depth`` attacker moves?) with the same moves and the same
rules, but searches the tree best-first by proof and disproof numbers (Nagai's
depth-first proof-number search, with Pawlewicz and Lew's 1 + epsilon thresholds) over
a table of the positions it has met (``tables.proof_*``). It spends its nodes where the
defender has the fewest answers, so within a node budget it proves more of the long
forced lines (10 to 20 attacker moves): 23 of ``benchmarks/gomoku_wins.py``'s 52 wins
in 300,000 nodes, where the depth-first solver proves 18 at its best depth.

The tree, as in ``threats.vct``:
- the attacker (an OR node) wins at once with a five point; must block a defender's
  four (one point; two, or a forbidden block, lose); else wins if a VCF within the
  moves left exists (``threats.vcf``, tried once per position), else tries each of its
  fours and threes;
- the defender (an AND node) loses to two five points or a forbidden block, must block
  a single four, refutes with a five point or its own VCF, and otherwise answers the
  coming winning four at every point where the attacker would make a four and with its
  own fours; a move of the attacker's that threatens nothing is refuted.

Stones are only added, so a position fixes how many attacker moves were played since
the root: the table's entries are keyed by the position, the root, the depth and the
attacker (``proof_vct``'s salt), and a disproof at the depth limit is exact for that
run. Proofs hold whatever the depth. Scores follow ``abgames.search.score``.
"""

from __future__ import annotations

from numba import njit, types

from abgames.ai import kernel_cache
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.board import (
    BOARD_TYPE,
    I_HASH,
    I_TO_MOVE,
    T_FOUR,
    T_THREE,
    Board,
    play,
    undo,
)
from abgames.ai.gomoku.movegen import allowed, five_cells
from abgames.ai.gomoku.tables import (
    MAX_PLY,
    PROOF_BITS,
    S_ABORTED,
    S_VCF_EXHAUSTED,
    S_VCF_LIMIT,
    S_VCF_NODES,
    S_VCF_SPAN,
    TABLES_TYPE,
    Tables,
    stop_requested,
)
from abgames.ai.gomoku.threats import (
    DEFENDER_VCF_DEPTH,
    sort_by_value,
    threat_answers,
    vcf,
    wins_next_move,
)

kernel_cache.guard_cache_writes()  # before any kernel is compiled or saved

_I64 = types.int64
_NODE_SIGNATURE = types.void(BOARD_TYPE, TABLES_TYPE, _I64, _I64, _I64, _I64, _I64, _I64)
_SOLVE_SIGNATURE = types.int64(BOARD_TYPE, TABLES_TYPE, _I64)

#: Proof and disproof numbers at and above this are infinite (the node is solved).
INFINITE = 1 << 30
#: A child's threshold is its sibling's number times 1 + 1/``EPSILON_DIVISOR`` (plus
#: one): a node is searched a little past the point where its sibling looks as good, so
#: the search does not leave it and come back each time the two swap places.
EPSILON_DIVISOR = 4
#: An unseen child's proof number: 1 after a four (one block), ``THREE_PROOF`` after a
#: three (several defences), so fours are tried first among equals. On the 52 positions
#: of ``benchmarks/gomoku_wins.py`` (300,000 nodes, one search of depth 16): 24 wins
#: with 2 or 3, 22 with 1.
THREE_PROOF = 2
#: Depth of the VCF an attacker's node tries once, before its own fours and threes
#: (which find the longer ones anyway): there, with every proof number 1, 22 wins with
#: 4 or 8, 20 with 2.
NODE_VCF_DEPTH = 8
#: Keys of the table are the position's hash times this, plus a salt of the root's hash,
#: the depth and the attacker.
_ROOT_SALT = 0x2545_F491_4F6C_DD1D
_DEPTH_SALT = 0x1B87_3593_0C4C_EB5F >> 8
_ATTACKER_SALT = 0x7FEB_352D_8A1B_3C27 >> 4
_PROOF_MASK = (1 << PROOF_BITS) - 1
#: ``run_proof_vct`` searches each depth up to this one, then the depth it was given, so
#: that a short win is played as such.
SHORT_DEPTH = 6
#: Nodes the VCF that ends a proved line may use to write it out (it was found before).
LINE_VCF_NODES = 100_000


@njit(cache=True, nogil=True, _nrt=False)
def _capped(value: int) -> int:
    return INFINITE if value >= INFINITE else value


@njit(cache=True, nogil=True, _nrt=False)
def _store(tables: Tables, key: int, proof: int, disproof: int, length: int) -> None:
    """Remember a node's numbers (``length``: attacker moves to the five, when proved)."""
    index = key & _PROOF_MASK
    tables.proof_key[index] = key
    tables.proof_numbers[index, 0] = proof
    tables.proof_numbers[index, 1] = disproof
    tables.proof_length[index] = length


@njit(cache=True, nogil=True, _nrt=False)
def _probe(tables: Tables, key: int) -> int:
    """The table's slot holding ``key``, or -1 (an unseen node: numbers 1 and 1)."""
    index = key & _PROOF_MASK
    if tables.proof_key[index] == key:
        return index
    return -1


@njit(cache=True, nogil=True, _nrt=False)
def _out_of_nodes(tables: Tables) -> bool:
    """Count a node; True if the budget or the stop flag ends the search."""
    stats = tables.stats
    stats[S_VCF_NODES] += 1
    if stats[S_VCF_NODES] >= stats[S_VCF_LIMIT]:
        stats[S_VCF_EXHAUSTED] = 1
        return True
    return stop_requested(stats, tables.stop)


@njit(cache=True, nogil=True, _nrt=False)
def _cut_short(tables: Tables) -> bool:
    return tables.stats[S_VCF_EXHAUSTED] != 0 or tables.stats[S_ABORTED] != 0


@njit(cache=True, nogil=True)
def _attacker_moves(board: Board, tables: Tables, ply: int) -> int:
    """The attacker's (side to move's) fours, then its threes, into ``tables.moves[ply]``,
    each group best first by its cell value; forbidden points left out."""
    me = board.info[I_TO_MOVE]
    moves = tables.moves[ply]
    count = 0
    for kind in (T_FOUR, T_THREE):
        start = count
        cells = board.threat_cells[me, kind]
        for i in range(board.threat_size[me, kind]):
            cell = int(cells[i])
            if kind == T_THREE and board.threat_dirs[me, T_FOUR, cell] > 0:
                continue
            if allowed(board, me, cell):
                moves[count] = cell
                count += 1
        sort_by_value(board.cell_value, me, moves[start:], count - start)
    return count


@njit(_NODE_SIGNATURE, cache=True, nogil=True)
def _proof_node(
    board: Board,
    tables: Tables,
    attacker: int,
    depth: int,
    ply: int,
    salt: int,
    proof_threshold: int,
    disproof_threshold: int,
) -> None:
    """Search the node until its proof number reaches ``proof_threshold`` or its
    disproof number ``disproof_threshold`` (or it is solved), and store its numbers.

    ``depth`` counts the attacker's moves left (its blocks of defender fours too). A
    search cut short (nodes, stop flag) stores nothing more. One self-recursive kernel
    for both kinds of node (see ``threats._vct_node``).
    """
    if _out_of_nodes(tables):
        return
    me = board.info[I_TO_MOVE]
    other = 1 - me
    key = board.info[I_HASH] * _ROOT_SALT + salt
    entry = _probe(tables, key)
    if entry >= 0 and (tables.proof_numbers[entry, 0] == 0 or tables.proof_numbers[entry, 1] == 0):
        return  # solved already (a root searched again)
    # A node stored unsolved has had its VCF tried (a VCF cut short stores nothing).
    seen = entry >= 0
    moves = tables.moves[ply]
    count = 0
    if ply >= MAX_PLY - 8:
        _store(tables, key, INFINITE, 0, 0)
        return
    if me == attacker:
        if depth <= 0:
            _store(tables, key, INFINITE, 0, 0)
            return
        if board.counts[me, pt.F5] > 0:
            _store(tables, key, 0, INFINITE, 1)
            return
        if board.counts[other, pt.F5] > 0:
            fives = five_cells(board, other, moves[:2])
            if fives != 1 or not allowed(board, me, int(moves[0])):
                _store(tables, key, INFINITE, 0, 0)
                return
            count = 1  # the block, in ``moves[0]``
        else:
            if not seen:
                found = vcf(board, tables, min(depth, NODE_VCF_DEPTH), ply)
                if _cut_short(tables):
                    return
                if found > 0:
                    _store(tables, key, 0, INFINITE, found)
                    return
            # With one move left only a VCF wins (a four that makes two fives).
            count = _attacker_moves(board, tables, ply) if depth >= 2 else 0
            if count == 0:
                _store(tables, key, INFINITE, 0, 0)
                return
    else:
        if board.counts[me, pt.F5] > 0:
            _store(tables, key, INFINITE, 0, 0)  # the defender fives first
            return
        if board.counts[attacker, pt.F5] > 0:
            fives = five_cells(board, attacker, moves[:2])
            if fives >= 2 or not allowed(board, me, int(moves[0])):
                _store(tables, key, 0, INFINITE, 1)
                return
            count = 1  # the block
        else:
            if depth <= 0 or not wins_next_move(board, attacker):
                _store(tables, key, INFINITE, 0, 0)  # nothing forces the defender
                return
            if not seen:
                found = vcf(board, tables, DEFENDER_VCF_DEPTH, ply)
                if _cut_short(tables):
                    return
                if found > 0:
                    _store(tables, key, INFINITE, 0, 0)  # its own VCF refutes the three
                    return
            count = threat_answers(board, moves, attacker)
            if count == 0:  # every answer forbidden: not counted as a win (as ``vct``)
                _store(tables, key, INFINITE, 0, 0)
                return
    zobrist = board.zobrist
    hash_now = board.info[I_HASH]
    child_depth = depth - 1 if me == attacker else depth
    attacking = me == attacker
    while True:
        # The node's numbers from its children's (unseen children count 1 and 1).
        proof = INFINITE if attacking else 0
        disproof = 0 if attacking else INFINITE
        best = -1
        best_number = INFINITE + 1
        second_number = INFINITE
        best_child_proof = 1
        best_child_disproof = 1
        length = 0
        for i in range(count):
            child_key = (hash_now ^ zobrist[me, moves[i]]) * _ROOT_SALT + salt
            index = _probe(tables, child_key)
            child_proof = 1
            child_disproof = 1
            child_length = 0
            if attacking and board.threat_dirs[me, T_FOUR, moves[i]] == 0:
                child_proof = THREE_PROOF
            if index >= 0:
                child_proof = int(tables.proof_numbers[index, 0])
                child_disproof = int(tables.proof_numbers[index, 1])
                child_length = int(tables.proof_length[index])
            if attacking:
                if child_proof == 0 and (length == 0 or child_length + 1 < length):
                    length = child_length + 1
                proof = min(proof, child_proof)
                disproof = _capped(disproof + child_disproof)
                number = child_proof
            else:
                if child_proof == 0 and child_length > length:
                    length = child_length
                proof = _capped(proof + child_proof)
                disproof = min(disproof, child_disproof)
                number = child_disproof
            if number < best_number:
                second_number = best_number
                best_number = number
                best = i
                best_child_proof = child_proof
                best_child_disproof = child_disproof
            elif number < second_number:
                second_number = number
        solved = proof == 0 or disproof == 0
        if solved or proof >= proof_threshold or disproof >= disproof_threshold:
            _store(tables, key, proof, disproof, length)
            return
        # The best child's thresholds: past its sibling's number by a share of it.
        second_number = min(second_number, INFINITE - 1)
        widened = _capped(second_number + second_number // EPSILON_DIVISOR + 1)
        if attacking:
            child_proof_threshold = min(proof_threshold, widened)
            child_disproof_threshold = _capped(disproof_threshold - disproof + best_child_disproof)
        else:
            child_disproof_threshold = min(disproof_threshold, widened)
            child_proof_threshold = _capped(proof_threshold - proof + best_child_proof)
        cell = int(moves[best])
        play(board, cell)
        _proof_node(
            board,
            tables,
            attacker,
            child_depth,
            ply + 1,
            salt,
            child_proof_threshold,
            child_disproof_threshold,
        )
        undo(board)
        if _cut_short(tables):
            return
        # ``moves[ply]`` is this node's own: deeper nodes use later rows (and a VCF
        # called here used them before the list was made).


@njit(cache=True, nogil=True)
def _line(board: Board, tables: Tables, attacker: int, depth: int, salt: int) -> int:
    """The proved line from the root into ``tables.pv[0]``, as far as the table still
    holds it: the attacker's proved move (the shortest), the defender's longest-holding
    answer; returns its length. A node proved by a VCF ends with that VCF's line."""
    played = 0
    length = 0
    while length < MAX_PLY - 8:
        me = board.info[I_TO_MOVE]
        other = 1 - me
        if board.counts[me, pt.F5] > 0:
            if me == attacker:  # the five
                five_cells(board, me, tables.moves[1][:1])
                tables.pv[0, length] = tables.moves[1][0]
                length += 1
            break
        key = board.info[I_HASH] * _ROOT_SALT + salt
        if _probe(tables, key) < 0:
            break
        ply = length + 1  # scratch rows past the line's
        moves = tables.moves[ply]
        count = 0
        forced = False
        if board.counts[other, pt.F5] > 0:  # a single block (else the node is not proved)
            five_cells(board, other, moves[:1])
            count = 1
            forced = me != attacker
        elif me == attacker:
            count = _attacker_moves(board, tables, ply)
        else:
            count = threat_answers(board, moves, attacker)
        chosen = -1
        chosen_length = -1
        for i in range(count):
            child_key = (board.info[I_HASH] ^ board.zobrist[me, moves[i]]) * _ROOT_SALT + salt
            index = _probe(tables, child_key)
            if not forced and (index < 0 or tables.proof_numbers[index, 0] != 0):
                continue
            child_length = int(tables.proof_length[index]) if index >= 0 else 0
            if forced:
                chosen = int(moves[i])
                break
            if me == attacker:
                better = child_length < chosen_length
            else:
                better = child_length > chosen_length
            if chosen < 0 or better:
                chosen = int(moves[i])
                chosen_length = child_length
        if chosen < 0:
            if me == attacker and vcf(board, tables, depth, ply) > 0:
                for i in range(min(tables.pv_length[ply], MAX_PLY - 8 - length)):
                    tables.pv[0, length] = tables.pv[ply, i]
                    length += 1
            break
        tables.pv[0, length] = chosen
        length += 1
        play(board, chosen)
        played += 1
    for _ in range(played):
        undo(board)
    tables.pv_length[0] = length
    return length


@njit(_SOLVE_SIGNATURE, cache=True, nogil=True)
def proof_vct(board: Board, tables: Tables, depth: int) -> int:
    """Attacker (side to move) moves to win by fours and threes within ``depth`` (the
    five counted); 0 if none was found within the node budget the caller set
    (``stats[S_VCF_LIMIT]``). On success ``tables.pv[0]`` holds the line (its first
    move at least) and its length ``tables.pv_length[0]``."""
    attacker = board.info[I_TO_MOVE]
    # The hash leaves out the side to move (a set-up position may give it to either).
    salt = board.info[I_HASH] ^ (depth * _DEPTH_SALT) ^ ((attacker + 1) * _ATTACKER_SALT)
    tables.pv_length[0] = 0
    _proof_node(board, tables, attacker, depth, 1, salt, INFINITE - 1, INFINITE - 1)
    if _cut_short(tables):
        return 0
    index = _probe(tables, board.info[I_HASH] * _ROOT_SALT + salt)
    if index < 0 or tables.proof_numbers[index, 0] != 0:
        return 0
    moves = int(tables.proof_length[index])
    # The line's closing VCF (found once already) gets nodes of its own.
    tables.stats[S_VCF_LIMIT] = tables.stats[S_VCF_NODES] + LINE_VCF_NODES
    _line(board, tables, attacker, depth, salt)
    tables.stats[S_VCF_EXHAUSTED] = 0
    return moves


def deepening(depth: int) -> list[int]:
    """The depths ``run_proof_vct`` searches in turn: each one up to ``SHORT_DEPTH``,
    then ``depth``. Of ``benchmarks/gomoku_wins.py``'s 52 wins, in 300,000 nodes and
    16 moves deep, these depths prove 23; 16 alone 24, but then a short win may be
    played as a long one; with 9 and 13 before 16, 21."""
    return list(range(1, min(depth, SHORT_DEPTH) + 1)) + ([depth] if depth > SHORT_DEPTH else [])


def run_proof_vct(board: Board, tables: Tables, depth: int, node_budget: int) -> int:
    """``proof_vct`` from the root with a node budget (solver nodes, the VCFs' counted),
    deeper and deeper (``deepening``) so that a short win is found as such (a proof of
    the full depth may be any win within it); the same contract as
    ``threats.run_solver`` with ``threes``."""
    tables.stats[S_VCF_EXHAUSTED] = 0
    tables.stats[S_VCF_SPAN] = 0
    tables.stats[S_VCF_LIMIT] = tables.stats[S_VCF_NODES] + node_budget
    for reach in deepening(depth):
        limit = tables.stats[S_VCF_LIMIT]
        moves = int(proof_vct(board, tables, reach))
        tables.stats[S_VCF_LIMIT] = limit  # (the line's VCF had nodes of its own)
        if moves > 0 or tables.stats[S_VCF_EXHAUSTED] or tables.stats[S_ABORTED]:
            return moves
    return 0
