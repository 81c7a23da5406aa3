"""Where must the Connect Four book end? Solve times per ply on the positions ``perfect`` meets.

Plays games of the ``perfect`` player against a random player and the heuristic
levels (``--opponents``), as first and as second player, and at each of the
perfect player's turns measures, with the transposition table cleared:

- ``weak``: the win/draw/loss of the position (``Solver.solve(weak=True)``);
- ``exact``: its exact score (``Solver.solve``);
- ``move``: the perfect player's own answer (book, strategy or live solve), with
  the table it keeps across the game, as in play.

Solves are capped at ``--cap`` nodes; a capped solve is counted as "over cap".
Times depend on the machine's load, nodes do not: the table prints both, and
the thresholds (100 ms, 5 s) are also applied to nodes at ``--rate`` nodes per
second (the unloaded speed of the 2-core development machine). It also prints
each answer's time (max, p99) and every move that is unsolved or loses value
(checked by the independent exact or weak solve where it finished).

With ``--decisions N`` it instead estimates what the strategy book costs to build:
N paths through the perfect player's strategy tree per side (its moves by
``strategy.decide``, the opponent's replies by ``--replies``: random or a heuristic
level; the first ``--opening`` plies by the seeded ``medium`` level on both sides,
balanced positions like the hardest of the tree), and for each of its turns the
nodes ``decide`` needs with a fresh table (capped at ``--cap``), per ply.

With ``--hand-over N`` it measures ``perfect`` where people hand it a game: N games
of ``--opening-discs LO HI`` random moves (default 2-10: two people played, then
"let the AI play"), then ``perfect`` plays one side (alternately) to the end
against ``--against random`` or ``--against perfect`` (a second ``perfect`` player
that plays a random move instead with probability ``--slip``, so ``perfect``
meets lost positions too). It prints every answer's time (p50, p99, max, how many
over 50 ms and 1 s), the fallbacks (answers not solved), and the exact-score
misses: from ``--check-from`` discs on, an independent solver checks that the
move's exact score is the position's (earlier positions are counted unchecked:
their check would take minutes). The slowest answers are listed.

With ``--check-book FILE`` it checks a strategy book against the solver instead: a
random sample (``--sample N``) of its positions with at least ``--min-discs`` discs
(early ones take minutes each): the stored value is the position's weak value, and
the stored move keeps it.

Usage: ``python benchmarks/connect4_perfect.py [--games N] [--cap NODES] [--seed S]``
``[--decisions N --opening K]`` ``[--hand-over N --against random|perfect]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from abgames.ai.connect4.constants import CELLS
from abgames.ai.connect4.perfect import PerfectPlayer
from abgames.ai.connect4.position import position_of_key, random_game
from abgames.ai.connect4.solver import NodeLimitReached, Position, Solver
from abgames.ai.connect4.strategy import decide
from abgames.ai.connect4.strategy_book import load as load_strategy
from abgames.ai.levels import make_player
from abgames.ai.player import AIPlayer
from abgames.games.connect4 import ConnectFour

#: Nodes per second of the solver on the unloaded development machine (one core).
UNLOADED_RATE = 5_000_000
FAST_SECONDS = 0.1
SLOW_SECONDS = 5.0
#: The answer times the hand-over mode counts: the goal's p99 and its worst case.
TARGET_SECONDS = 0.05
WORST_SECONDS = 1.0
#: A position outside the books that every solver entry point meets (solve, analyze).
WARM_UP_POSITION = "2252576253462244111563365343671351441"
#: A 10-disc position whose search reaches the level book: it loads the level (the
#: file, and the search's kernels with its arrays) before the hand-over is timed.
LEVEL_WARM_UP_POSITION = "4453123765"
#: Answers the hand-over mode lists as the slowest.
SLOWEST_SHOWN = 5
#: The deepest ply ``--decisions`` samples (books deeper than this do not fit 20 MB).
DECISION_LAST_PLY = 16


@dataclass
class Sample:
    """One solve: nodes and seconds, or ``None`` seconds when the cap stopped it."""

    nodes: int
    seconds: float | None


@dataclass
class PlyStats:
    weak: list[Sample] = field(default_factory=list)
    exact: list[Sample] = field(default_factory=list)
    move: list[float] = field(default_factory=list)
    move_nodes: list[int] = field(default_factory=list)


def timed_solve(solver: Solver, position: Position, weak: bool, cap: int) -> tuple[Sample, int]:
    solver.clear()
    start = time.perf_counter()
    try:
        value = solver.solve(position, weak=weak, node_limit=cap)
    except NodeLimitReached:
        return Sample(cap, None), 99
    return Sample(solver.nodes, time.perf_counter() - start), value


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def move(self, state: ConnectFour) -> int:
        return int(self.random.choice(list(state.legal_moves())))


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def play_game(
    perfect: PerfectPlayer,
    opponent: AIPlayer | RandomPlayer,
    perfect_first: bool,
    solver: Solver,
    cap: int,
    stats: dict[int, PlyStats],
    problems: list[str],
) -> str:
    state = ConnectFour()
    while state.outcome() is None:
        if (state.ply % 2 == 0) == perfect_first:
            position = Position.from_state(state)
            ply = stats[position.moves]
            weak, weak_value = timed_solve(solver, position, True, cap)
            exact, _ = timed_solve(solver, position, False, cap)
            ply.weak.append(weak)
            ply.exact.append(exact)
            start = time.perf_counter()
            result = perfect.choose(state)
            ply.move.append(time.perf_counter() - start)
            ply.move_nodes.append(result.nodes)
            assert result.move is not None
            if not result.solved:
                problems.append(f"{state.notation()}: unsolved move {result.move + 1}")
            if weak.seconds is not None:
                after = position.play(result.move)
                if after.won:
                    kept = 1
                else:
                    _, child = timed_solve(solver, after, True, 20 * cap)
                    kept = -child if child != 99 else weak_value
                if sign(kept) < weak_value:
                    problems.append(
                        f"{state.notation()}: move {result.move + 1} "
                        f"turns {weak_value} into {sign(kept)}"
                    )
            state.play(result.move)
        elif isinstance(opponent, RandomPlayer):
            state.play(opponent.move(state))
        else:
            move = opponent.choose(state).move
            assert move is not None
            state.play(move)
    return state.notation()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def nodes_text(nodes: float, capped: bool) -> str:
    text = f"{nodes / 1e6:.2f}M" if nodes >= 10_000 else f"{nodes:.0f}"
    return (">" + text) if capped else text


def describe(samples: list[Sample], rate: int) -> str:
    """Median, 90th percentile and worst nodes ('>' where capped), and how many are slow."""
    ordered = sorted(samples, key=lambda s: (s.seconds is None, s.nodes))
    picks = [ordered[len(ordered) // 2], ordered[int(0.9 * len(ordered))], ordered[-1]]
    texts = "".join(f"{nodes_text(s.nodes, s.seconds is None):>9}" for s in picks)
    slow = sum(1 for s in samples if s.nodes > FAST_SECONDS * rate)
    very = sum(1 for s in samples if s.nodes > SLOW_SECONDS * rate)
    capped = sum(1 for s in samples if s.seconds is None)
    return f"{texts}{slow:>5}{very:>5}{capped:>5}"


def decision_samples(args: argparse.Namespace) -> None:
    """Nodes of ``strategy.decide`` per ply on paths of the perfect player's tree."""
    cap = args.cap
    rng = random.Random(args.seed)
    solver = Solver(args.table_bits)
    samples: dict[int, list[Sample]] = defaultdict(list)
    for path in range(args.decisions):
        for perfect_side in (0, 1):
            seed = args.seed * 1000 + path
            opener = make_player("connect4", "medium", seed=seed)
            replier = (
                None
                if args.replies == "random"
                else make_player("connect4", args.replies, seed=seed)
            )
            opening = args.opening
            state = ConnectFour()
            while state.ply < opening and state.outcome() is None:
                move = opener.choose(state).move
                assert move is not None
                state.play(move)
            moves = state.notation()
            position = Position.parse(moves)
            while not position.is_over:
                if position.moves >= opening and position.moves % 2 == perfect_side:
                    solver.clear()
                    spent = 0
                    start = time.perf_counter()

                    def value_of(child: Position) -> int:
                        nonlocal spent
                        try:
                            return solver.solve(child, weak=True, node_limit=cap - spent)
                        finally:
                            spent += solver.nodes

                    try:
                        column = decide(position, value_of).column
                        sample = Sample(spent, time.perf_counter() - start)
                    except NodeLimitReached:
                        sample = Sample(cap, None)
                        column = rng.choice([c for c in range(7) if position.can_play(c)])
                    samples[position.moves].append(sample)
                    if sample.seconds is None or position.moves >= DECISION_LAST_PLY:
                        break  # the rest of this path is beyond what the book needs
                elif replier is None:
                    column = rng.choice([c for c in range(7) if position.can_play(c)])
                else:
                    reply = replier.choose(ConnectFour.from_notation(moves)).move
                    assert reply is not None
                    column = int(reply)
                moves += str(column + 1)
                position = position.play(column)
            print(f"path {path} side {perfect_side}: {moves}", flush=True)
    print(
        f"strategy.decide per ply, fresh table, cap {cap:,} nodes ('>': capped), "
        f"opening {args.opening} plies, replies {args.replies}"
    )
    print(f"{'discs':>5}{'pos':>5}{'median':>9}{'p90':>9}{'max':>9}{'mean':>9}{'capped':>7}")
    for discs in sorted(samples):
        ply = samples[discs]
        ordered = sorted(ply, key=lambda s: (s.seconds is None, s.nodes))
        picks = [ordered[len(ordered) // 2], ordered[int(0.9 * len(ordered))], ordered[-1]]
        texts = "".join(f"{nodes_text(s.nodes, s.seconds is None):>9}" for s in picks)
        mean = sum(s.nodes for s in ply) / len(ply)
        capped = sum(s.seconds is None for s in ply)
        print(f"{discs:>5}{len(ply):>5}{texts}{nodes_text(mean, capped > 0):>9}{capped:>7}")


def check_book(args: argparse.Namespace) -> int:
    """Check a random sample of a strategy book's positions with the solver; 1 if any is wrong."""
    book = load_strategy(args.check_book)
    solver = Solver(args.table_bits)
    positions = [position_of_key(int(key)) for key in book.keys]
    positions = [p for p in positions if p.moves >= args.min_discs]
    rng = random.Random(args.seed)
    sample = rng.sample(positions, min(args.sample, len(positions)))
    wrong = 0
    start = time.perf_counter()
    for position in sample:
        entry = book.get(position)
        if entry is None:
            wrong += 1
            print(f"wrong: {position} stores a full column")
            continue
        value, column = entry
        solved = solver.solve(position, weak=True)
        after = position.play(column)
        kept = 1 if after.won else (0 if after.is_over else -solver.solve(after, weak=True))
        if solved != value or kept != value:
            wrong += 1
            print(
                f"wrong: {position} stores {value}, column {column + 1}: "
                f"value {solved}, the move gives {kept}"
            )
    print(
        f"{len(sample)} of {len(positions)} positions with {args.min_discs}+ discs checked "
        f"in {time.perf_counter() - start:.0f} s: {wrong} wrong"
    )
    return 1 if wrong else 0


@dataclass
class Answer:
    """One answer of ``perfect`` in the hand-over mode."""

    moves: str
    seconds: float
    nodes: int
    solved: bool
    exact: bool | None  # None: not checked


def exact_move_score(checker: Solver, position: Position, column: int) -> tuple[int, int]:
    """(the position's exact score, the exact score of playing ``column``)."""
    checker.clear()
    best = checker.solve(position)
    after = position.play(column)
    if after.won:
        return best, (CELLS + 1 - position.moves) // 2
    checker.clear()
    return best, -checker.solve(after)


def hand_over_game(
    args: argparse.Namespace, game: int, checker: Solver, answers: list[Answer]
) -> str:
    """One hand-over game; appends ``perfect``'s answers; the game's moves."""
    rng = random.Random(args.seed * 1000 + game)
    state = random_game(rng, *args.opening_discs)
    perfect = make_perfect(args)
    opponent = make_perfect(args) if args.against == "perfect" else None
    side = state.to_move if game % 2 == 0 else 1 - state.to_move
    while state.outcome() is None:
        if state.to_move == side:
            moves = state.notation()
            start = time.perf_counter()
            result = perfect.choose(state)
            seconds = time.perf_counter() - start
            assert result.move is not None
            exact = None
            if result.solved and state.ply >= args.check_from:
                best, got = exact_move_score(checker, Position.from_state(state), result.move)
                exact = got == best
            answers.append(Answer(moves, seconds, result.nodes, result.solved, exact))
            move = result.move
        elif opponent is None or rng.random() < args.slip:
            move = rng.choice(state.legal_moves())
        else:
            chosen = opponent.choose(state).move
            assert chosen is not None
            move = chosen
        state.play(move)
    return state.notation()


def print_by_discs(answers: list[Answer]) -> None:
    """The answers per disc count of the position answered: where the slow ones are."""
    by_discs: dict[int, list[float]] = defaultdict(list)
    for answer in answers:
        by_discs[len(answer.moves)].append(answer.seconds)
    print(f"{'discs':>5} {'answers':>7} {'p50 ms':>8} {'max ms':>8} {'>50 ms':>6} {'>1 s':>5}")
    for discs in sorted(by_discs):
        times = by_discs[discs]
        print(
            f"{discs:>5} {len(times):>7} {1e3 * percentile(times, 0.5):>8.1f} "
            f"{1e3 * max(times):>8.1f} {sum(t > TARGET_SECONDS for t in times):>6} "
            f"{sum(t > WORST_SECONDS for t in times):>5}"
        )


def hand_over(args: argparse.Namespace) -> int:
    """The hand-over mode: answer times, fallbacks and exact-score misses."""
    checker = Solver(args.table_bits)
    # Load the compiled solver, the books and the level first: a fresh process's first answer
    # is benchmarks/connect4_first_move.py's figure, not this one's.
    for warm_up in (WARM_UP_POSITION, LEVEL_WARM_UP_POSITION):
        make_perfect(args).choose(ConnectFour.from_notation(warm_up))
    answers: list[Answer] = []
    start = time.perf_counter()
    for game in range(args.hand_over):
        moves = hand_over_game(args, game, checker, answers)
        print(f"game {game}: {moves}", flush=True)
    times = [a.seconds for a in answers]
    checked = [a for a in answers if a.exact is not None]
    print(
        f"hand-over games: {args.hand_over} ({args.opening_discs[0]}-{args.opening_discs[1]} "
        f"random discs, then perfect against {args.against}), "
        f"{time.perf_counter() - start:.0f} s"
    )
    print(
        f"perfect's answers: {len(answers)}, p50 {1e3 * percentile(times, 0.5):.1f} ms, "
        f"p99 {1e3 * percentile(times, 0.99):.1f} ms, max {1e3 * max(times):.1f} ms; "
        f"over {1e3 * TARGET_SECONDS:g} ms: {sum(t > TARGET_SECONDS for t in times)}, "
        f"over {WORST_SECONDS:g} s: {sum(t > WORST_SECONDS for t in times)}"
    )
    print(f"fallbacks (not solved): {sum(not a.solved for a in answers)}")
    print(
        f"exact-score misses: {sum(not a.exact for a in checked)} of {len(checked)} checked "
        f"({len(answers) - len(checked)} answers before {args.check_from} discs unchecked)"
    )
    print_by_discs(answers)
    print("slowest answers:")
    for answer in sorted(answers, key=lambda a: -a.seconds)[:SLOWEST_SHOWN]:
        print(
            f"  {answer.moves or '(empty)'}: {answer.seconds:.3f} s, "
            f"{nodes_text(answer.nodes, False)} nodes"
        )
    return 1 if any(not a.solved or a.exact is False for a in answers) else 0


def make_perfect(args: argparse.Namespace) -> PerfectPlayer:
    """The player measured, with the node limit and fallback time asked for (if any)."""
    options: dict[str, float] = {}
    if args.perfect_limit is not None:
        options["node_limit"] = args.perfect_limit
    if args.fallback_seconds is not None:
        options["fallback_seconds"] = args.fallback_seconds
    return PerfectPlayer(table_bits=args.table_bits, **options)  # type: ignore[arg-type]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per opponent and colour")
    parser.add_argument("--cap", type=int, default=2_000_000, help="nodes per measured solve")
    parser.add_argument("--rate", type=int, default=UNLOADED_RATE, help="nodes per second")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", nargs="*", default=["random", "easy", "hard"])
    parser.add_argument("--table-bits", type=int, default=22)
    parser.add_argument(
        "--perfect-limit", type=int, default=None, help="the perfect player's node limit"
    )
    parser.add_argument(
        "--fallback-seconds", type=float, default=None, help="its heuristic fallback's time"
    )
    parser.add_argument("--decisions", type=int, default=0, help="random strategy paths")
    parser.add_argument("--opening", type=int, default=6, help="heuristic plies before them")
    parser.add_argument("--replies", default="hard", help="random, easy, medium or hard")
    parser.add_argument("--check-book", type=Path, help="a strategy book to check")
    parser.add_argument("--sample", type=int, default=50, help="positions to check")
    parser.add_argument("--min-discs", type=int, default=10, help="skip earlier positions")
    parser.add_argument("--hand-over", type=int, default=0, help="hand-over games")
    parser.add_argument(
        "--opening-discs", type=int, nargs=2, default=(2, 10), help="random discs handed over"
    )
    parser.add_argument("--against", choices=("random", "perfect"), default="random")
    parser.add_argument("--slip", type=float, default=0.2, help="perfect opponent's random moves")
    parser.add_argument("--check-from", type=int, default=8, help="discs checked from")
    args = parser.parse_args()
    if args.hand_over:
        return hand_over(args)
    if args.check_book:
        return check_book(args)
    if args.decisions:
        decision_samples(args)
        return 0

    solver = Solver(args.table_bits)
    stats: dict[int, PlyStats] = defaultdict(PlyStats)
    problems: list[str] = []
    start = time.perf_counter()
    for name in args.opponents:
        for perfect_first in (True, False):
            for game in range(args.games):
                seed = args.seed * 1000 + game
                opponent = (
                    RandomPlayer(seed)
                    if name == "random"
                    else make_player("connect4", name, seed=seed)
                )
                perfect = make_perfect(args)
                moves = play_game(
                    perfect, opponent, perfect_first, solver, args.cap, stats, problems
                )
                side = "first" if perfect_first else "second"
                print(f"perfect {side} vs {name} #{game}: {moves}", flush=True)
    print(f"games played in {time.perf_counter() - start:.0f} s")
    print(
        f"table cleared before each measured solve, cap {args.cap:,} nodes ('>': capped); "
        f"'>.1s' / '>5s': solves over {FAST_SECONDS:g} s / {SLOW_SECONDS:g} s "
        f"at {args.rate:,} nodes/s"
    )
    head = f"{'median':>9}{'p90':>9}{'max':>9}{'>.1s':>5}{'>5s':>5}{'cap':>5}"
    print(f"{'':>10} | {'weak solve, nodes':<42} | {'exact solve, nodes':<42} | perfect's move")
    print(f"{'discs':>5}{'pos':>5} | {head} | {head} | {'p99 ms':>8}{'max ms':>8}{'nodes':>9}")
    answers: list[float] = []
    for discs in sorted(stats):
        ply = stats[discs]
        answers.extend(ply.move)
        move_p99 = 1e3 * percentile(ply.move, 0.99)
        print(
            f"{discs:>5}{len(ply.weak):>5} | {describe(ply.weak, args.rate)} | "
            f"{describe(ply.exact, args.rate)} | {move_p99:8.1f}{1e3 * max(ply.move):8.1f}"
            f"{nodes_text(max(ply.move_nodes), False):>9}"
        )
    print(
        f"perfect's answers: {len(answers)}, p99 {1e3 * percentile(answers, 0.99):.1f} ms, "
        f"max {1e3 * max(answers):.1f} ms"
    )
    print(f"unsolved or value-losing moves: {len(problems)}")
    for problem in problems:
        print(f"  {problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
