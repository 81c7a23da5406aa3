"""What each Gomoku engine level switches on: plain settings, no kernels.

Kept apart from ``engine`` so that naming a level (making a player, validating a saved
game) does not import, and so compile, the numba kernels; ``engine`` re-exports
``EngineSettings``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Share of the time left in the game one move may use.
GAME_TIME_SHARE = 0.08
DEFAULT_MAX_DEPTH = 64


@dataclass(frozen=True)
class EngineSettings:
    """What a level switches on; depths of the solvers count attacker moves."""

    beam: int = 14
    threats: bool = True
    leaf_vcf_depth: int = 4
    leaf_vcf_nodes: int = 300
    root_vcf_depth: int = 40
    root_vcf_nodes: int = 300_000
    root_vct_depth: int = 6
    root_vct_nodes: int = 100_000
    #: Quiet late moves searched shallower first (``search.LMR_*``).
    late_move_reductions: bool = True
    max_depth: int = DEFAULT_MAX_DEPTH
    use_full_time: bool = False
    #: Root defence check: the chosen move is refused if the opponent then wins by
    #: VCT within ``defence_vct_depth`` (0: no check) and ``defence_nodes``; up to
    #: ``defence_moves`` root moves are tried, best first.
    defence_vct_depth: int = 6
    defence_nodes: int = 30_000
    defence_moves: int = 6
    #: Evaluation weights that differ from ``weights.EVAL_WEIGHTS``, as (name, value)
    #: pairs named as in ``weights.EVAL_NAMES`` (a tuning run's candidates).
    eval_overrides: tuple[tuple[str, int], ...] = ()
