"""What each Gomoku engine level switches on: plain settings, no kernels.

Kept apart from ``engine`` so that naming a level (making a player, validating a saved
game) does not import, and so compile, the numba kernels; ``engine`` re-exports
``EngineSettings``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

#: Share of the time left in the game one move may use.
GAME_TIME_SHARE = 0.08
DEFAULT_MAX_DEPTH = 64


@dataclass(frozen=True)
class EngineSettings:
    """What a level switches on; depths of the solvers count attacker moves."""

    #: Candidates kept at a node, best first by attack + defence (0: all of them);
    #: 24 and the frontier's 12 against 14 and 8 scored ten points more against Rapfi
    #: 2018 at 1 s a move (docs/tuning.md).
    beam: int = 24
    threats: bool = True
    leaf_vcf_depth: int = 8
    leaf_vcf_nodes: int = 300
    #: After its first four, a leaf VCF tries only fours within this many cells of the
    #: attacker's last four along one of its lines (0: every four), as Rapfi 2018's
    #: does: such lines are cheap, so they can be long (docs/tuning.md).
    leaf_vcf_span: int = 4
    root_vcf_depth: int = 40
    root_vcf_nodes: int = 300_000
    root_vct_depth: int = 6
    root_vct_nodes: int = 100_000
    #: Quiet late moves searched shallower first (``search.LMR_*``), and threat
    #: extensions (``tables.C_FOUR_EXTENSION``, ``C_THREE_EXTENSION``): plies the block
    #: of a four, and a plain answer to an open three, gain back; 2 makes such a pair
    #: free, up to ``extension_limit`` free pairs on a path. Both change which side is to
    #: move at a line's leaves, which the evaluation's tempo weights make fair
    #: (``weights.ATTACK_WEIGHTS``); with them, reductions and gains of 1 together won
    #: in self-play (docs/tuning.md).
    late_move_reductions: bool = True
    #: Reductions start at nodes of ``lmr_min_depth`` plies or more, after the first
    #: ``lmr_after`` moves; two plies after the first ``lmr_deep_after``.
    lmr_min_depth: int = 3
    lmr_after: int = 3
    lmr_deep_after: int = 7
    four_extension: int = 1
    three_extension: int = 1
    extension_limit: int = 1
    #: Futility pruning and razoring (``tables.C_FUTILITY_*``, ``C_RAZOR_*``) at
    #: null-window nodes shallower than the depth (0: off) where no side has an open
    #: three; the margins are per ply of depth, in evaluation units.
    futility_depth: int = 3
    futility_margin: int = 150
    razor_depth: int = 0
    razor_margin: int = 200
    #: A node whose side to move has an open four's point, a double four, or (when the
    #: opponent cannot make a four) a four-three or double three scores the forced win
    #: without searching it (``search._static_win``).
    static_wins: bool = True
    #: Candidates kept at a frontier node: a null-window node at most ``frontier_depth``
    #: plies above the leaves (0: ``beam``).
    frontier_beam: int = 12
    #: At a frontier node, moves near the opponent's last move (``search._near``) are
    #: kept up to this many, the others up to ``frontier_beam`` (0 or no wider than
    #: ``frontier_beam``: ``frontier_beam`` moves, wherever they are).
    frontier_near_beam: int = 0
    frontier_depth: int = 1
    #: Moves past the beam (or the frontier beam) kept, up to this many, when they build a
    #: threat for either side: a four, an open three, or two building lines at once
    #: (``movegen.builds_threat``), as Rapfi 2018 never cuts such moves (0: none). All of
    #: them (64) scored 44.1 % against Rapfi 2018 at 1 s in 320 games where the default
    #: scored 40.3 % in 160: within the noise, so off (docs/tuning.md).
    keep_threats: int = 0
    #: Move-count pruning (Rapfi 0.38's): a null-window node that already has a move not
    #: losing tries no more than ``move_count_base + depth^1.5`` moves (0: no limit).
    #: Against ``hard`` in self-play at 0.2 s it lost (3: −78 Elo); against Rapfi at 1 s
    #: it scored 12.8 % (3) and 16.9 % (5) where ``hard`` scored 15.3 %, though it
    #: proves more of the wins Rapfi announced (``benchmarks/gomoku_wins.py``): off
    #: (docs/tuning.md).
    move_count_base: int = 0
    max_depth: int = DEFAULT_MAX_DEPTH
    use_full_time: bool = False
    #: Root defence check: each iteration's best move, and the move chosen, is refused
    #: if the opponent then wins by VCT within ``defence_vct_depth`` (0: no check) and
    #: ``defence_nodes``; at the end up to ``defence_moves`` root moves not yet checked
    #: are tried, best first.
    defence_vct_depth: int = 6
    defence_nodes: int = 30_000
    defence_moves: int = 6
    #: The root VCT (and ``GomokuEngine.solve``) searches by proof numbers
    #: (``proof.proof_vct``) rather than depth first (``threats.vct``); the defence
    #: check stays depth first. In 300,000 nodes it proves 23 of
    #: ``benchmarks/gomoku_wins.py``'s 52 wins (16 moves deep) where the depth-first
    #: solver proves 18 at best (12 moves deep); in 30,000, 5 against 6. With it (16
    #: moves) ``hard`` scored 16.2 % against Rapfi at 1 s, no better than without:
    #: off (docs/tuning.md).
    proof_vct: bool = False
    #: The root defence check searches by proof numbers too (``proof.proof_vct``,
    #: ``defence_vct_depth`` attacker moves and ``defence_nodes`` nodes). At 16 moves
    #: and 100,000 nodes ``hard``'s moves lost as much in Rapfi's eyes as without it
    #: (``benchmarks/gomoku_judge.py``: −0.6 ± 2.3 units a move): off (docs/tuning.md).
    proof_defence: bool = False
    #: Add the learned network's correction to the evaluation (``netfile``: the shipped
    #: network, or the file ``ABGAMES_GOMOKU_NET`` names).
    eval_net: bool = False
    #: Evaluation weights that differ from ``weights.EVAL_WEIGHTS``, as (name, value)
    #: pairs named as in ``weights.EVAL_NAMES`` (a tuning run's candidates).
    eval_overrides: tuple[tuple[str, int], ...] = ()


#: The settings a ``search.NAME=N`` override (an arena spec, a tuning run) may change:
#: switches take 0 or 1, the rest whole numbers from 0 (or as ``SEARCH_RANGES`` says).
SEARCH_SWITCHES = (
    "threats",
    "late_move_reductions",
    "static_wins",
    "use_full_time",
    "eval_net",
    "proof_vct",
    "proof_defence",
)
#: (least, most) of the numbers with other bounds; a gain beyond 2 plies would let the
#: depth grow along a line of threats.
SEARCH_RANGES: dict[str, tuple[int, int | None]] = {
    "max_depth": (1, None),
    "lmr_min_depth": (2, None),
    "four_extension": (0, 2),
    "three_extension": (0, 2),
}
SEARCH_NUMBERS = tuple(
    f.name
    for f in fields(EngineSettings)
    if f.name not in SEARCH_SWITCHES and f.name != "eval_overrides"
)


def with_search_overrides(
    settings: EngineSettings, overrides: tuple[tuple[str, int], ...]
) -> EngineSettings:
    """``settings`` with each (name, value) of ``overrides`` set; ``ValueError`` names an
    unknown setting or a value it cannot take."""
    changes: dict[str, int | bool] = {}
    for name, value in overrides:
        if name in SEARCH_SWITCHES:
            if value not in (0, 1):
                raise ValueError(f"search setting {name!r} is a switch: give 0 or 1, not {value}")
            changes[name] = bool(value)
        elif name in SEARCH_NUMBERS:
            least, most = SEARCH_RANGES.get(name, (0, None))
            if value < least:
                raise ValueError(f"search setting {name!r} must be at least {least}, not {value}")
            if most is not None and value > most:
                raise ValueError(f"search setting {name!r} must be at most {most}, not {value}")
            changes[name] = value
        else:
            names = ", ".join(SEARCH_SWITCHES + SEARCH_NUMBERS)
            raise ValueError(f"{name!r} is not a search setting: choose {names}")
    return replace(settings, **changes)  # type: ignore[arg-type]
