"""Gomoku AI players for each level, over the numba engine.

- ``easy``: the starter player (pattern values, 1 ply); a beginner can win.
- ``medium``: the engine with a narrow beam, a root VCF and 0.5 s a move.
- ``hard``: VCF and VCT at the root, a short VCF, static wins and futility pruning at
  the leaves, late-move reductions and threat extensions, a check that the chosen move leaves
  the opponent no VCT, the learned evaluation (``netfile``), 2 s a move.
- ``max``: as hard with a leaf VCF that tries every four, deeper solvers and defence
  check, and all the time it is given.
- ``classic``: the textbook baseline: pattern evaluation, every point within two
  of a stone, plain alpha-beta to depth 4, no threat search or forced-move pruning.

A move's time is the smaller of the level's per-move time (or ``Limit.time``) and
a share of ``game_time_left`` when a front-end or protocol sets it.

Making a player is cheap: the engine (and so numba's kernels: compiled on the first
run, loaded from the cache after) is imported when the player first thinks, or by
``prepare()``, which front-ends call first so that the compile is not charged to a
move's clock (see ``abgames.ai.readiness``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from abgames.ai.gomoku import starter
from abgames.ai.gomoku.settings import GAME_TIME_SHARE, EngineSettings, with_search_overrides
from abgames.ai.player import AIPlayer
from abgames.games.base import GameState
from abgames.games.gomoku import Gomoku, Rule
from abgames.search.limit import Limit
from abgames.search.result import SearchResult

if TYPE_CHECKING:
    from abgames.ai.gomoku.engine import GomokuEngine

#: The cell shapes' names (``patterns.SHAPE_NAMES``), spelt out here: naming a level
#: imports no kernel module.
SHAPE_NAMES = ("four_plus", "three_plus", "block3_plus", "double_two")
#: The opponent's combination cells and both sides' cell shapes left out of the
#: evaluation: the levels below ``hard`` and the textbook baseline score pattern
#: counts alone.
PATTERN_COUNTS_ONLY = (
    ("defence.double_four", 0),
    ("defence.four_three", 0),
    ("defence.double_three", 0),
    *((f"{side}.{shape}", 0) for side in ("attack", "defence") for shape in SHAPE_NAMES),
)

LEVEL_SETTINGS: dict[str, tuple[EngineSettings, Limit]] = {
    "medium": (
        EngineSettings(
            beam=8,
            leaf_vcf_depth=0,
            root_vcf_depth=10,
            root_vcf_nodes=20_000,
            root_vct_depth=0,
            max_depth=6,
            defence_vct_depth=0,
            futility_depth=0,
            late_move_reductions=False,
            four_extension=0,
            three_extension=0,
            static_wins=False,
            frontier_beam=0,
            eval_overrides=PATTERN_COUNTS_ONLY,
        ),
        Limit(time=0.5),
    ),
    "hard": (EngineSettings(eval_net=True), Limit(time=2.0)),
    "max": (
        EngineSettings(
            leaf_vcf_depth=6,
            leaf_vcf_nodes=1_000,
            leaf_vcf_span=0,
            root_vcf_depth=80,
            root_vcf_nodes=2_000_000,
            root_vct_depth=8,
            root_vct_nodes=1_000_000,
            defence_vct_depth=8,
            defence_nodes=200_000,
            defence_moves=8,
            use_full_time=True,
            eval_net=True,
        ),
        Limit(time=10.0),
    ),
    "classic": (
        EngineSettings(
            beam=0,
            threats=False,
            leaf_vcf_depth=0,
            root_vcf_depth=0,
            root_vct_depth=0,
            max_depth=4,
            defence_vct_depth=0,
            futility_depth=0,
            late_move_reductions=False,
            four_extension=0,
            three_extension=0,
            static_wins=False,
            frontier_beam=0,
            eval_overrides=PATTERN_COUNTS_ONLY,
        ),
        Limit(depth=4),
    ),
}
ENGINE_LEVELS = tuple(LEVEL_SETTINGS)


class GomokuPlayer(AIPlayer):
    """A level of the numba engine; ``game_time_left`` (seconds) caps each move's time."""

    def __init__(
        self, level: str, settings: EngineSettings, limit: Limit, seed: int | None = None
    ) -> None:
        self.level = level
        self.settings = settings
        self.seed = seed
        self.limit = limit
        self.game_time_left: float | None = None
        self._engine: GomokuEngine | None = None

    @property
    def engine(self) -> GomokuEngine:
        """The engine, built (importing the kernels) on first use."""
        if self._engine is None:
            from abgames.ai.gomoku.engine import GomokuEngine

            self._engine = GomokuEngine(self.settings, self.seed)
        return self._engine

    def move_limit(self) -> Limit:
        """This move's limit: the level's, shortened to a share of the game time left."""
        if self.game_time_left is None:
            return self.limit
        share = max(0.0, self.game_time_left * GAME_TIME_SHARE)
        time_limit = share if self.limit.time is None else min(self.limit.time, share)
        return replace(self.limit, time=time_limit)

    def think(self, state: GameState) -> Iterator[SearchResult]:
        if not isinstance(state, Gomoku):
            raise TypeError(f"a Gomoku player cannot play {state.name}")
        yield from self.engine.search(state, self.move_limit())

    def think_within(self, state: GameState, seconds: float) -> Iterator[SearchResult]:
        """``think`` with ``seconds`` as the engine's own time limit (if shorter), so the
        engine plans its solvers, iterations and defence check inside the budget.

        This is the engine-match path (protocols, arena): the time is the move's
        allowance and what is left of it is not kept for later, so the engine spends
        all of it (``GomokuEngine.search(spend_all=True)``); ``think`` stops deepening
        early so that a person waits less."""
        if not isinstance(state, Gomoku):
            raise TypeError(f"a Gomoku player cannot play {state.name}")
        limit = self.move_limit()
        budget = max(0.0, seconds) if limit.time is None else min(limit.time, max(0.0, seconds))
        yield from self.engine.search(state, replace(limit, time=budget), spend_all=True)

    def stop(self) -> None:
        if self._engine is not None:
            self._engine.stop()


def make_player(level: str, seed: int | None = None) -> AIPlayer:
    """The player for ``level`` (easy, medium, hard, max or classic).

    ``seed`` varies the choice among equally good moves (reproducibly); without it
    every level is deterministic.
    """
    if level == "easy":
        return starter.make_player("easy", seed)
    settings, limit = LEVEL_SETTINGS[level]
    return GomokuPlayer(level, settings, limit, seed)


def make_tuned_player(
    level: str,
    seed: int | None,
    eval_overrides: tuple[tuple[str, int], ...],
    search_overrides: tuple[tuple[str, int], ...] = (),
) -> AIPlayer:
    """An engine level (not ``easy``) whose evaluation weights differ by ``eval_overrides``
    and whose search settings differ by ``search_overrides`` ((name, value) pairs:
    ``weights.EVAL_NAMES``, ``settings.SEARCH_SWITCHES`` and ``SEARCH_NUMBERS``);
    ``ValueError`` names an unknown weight or setting, a bad value, or a level without
    them."""
    if level not in LEVEL_SETTINGS:
        what = "evaluation weights" if eval_overrides else "search settings"
        raise ValueError(f"gomoku level {level!r} has no {what} to change")
    from abgames.ai.gomoku.weights import eval_weights

    eval_weights(dict(eval_overrides))  # validates names and values
    settings, limit = LEVEL_SETTINGS[level]
    settings = with_search_overrides(settings, search_overrides)
    # A level's own overrides come first: the tuned ones (later in the dict) win.
    merged = settings.eval_overrides + eval_overrides
    return GomokuPlayer(level, replace(settings, eval_overrides=merged), limit, seed)


#: The position ``prepare`` searches: small, with stones of both sides near each other.
PREPARE_POSITION = "h8 h9 i8"
#: Depth of that search: every phase (root solvers, alpha-beta, defence check) runs.
PREPARE_DEPTH = 2


def prepare() -> None:
    """Compile the engine's kernels (or load them from numba's cache) by one small
    search without a clock that runs every phase the engine levels use, and build the
    line-pattern table of every rule (the first board of a rule would build its own,
    some 30 ms)."""
    from abgames.ai.gomoku import board
    from abgames.ai.gomoku.engine import GomokuEngine

    state = Gomoku.from_notation(PREPARE_POSITION)
    for _ in GomokuEngine(LEVEL_SETTINGS["hard"][0]).search(state, Limit(depth=PREPARE_DEPTH)):
        pass
    for rule in Rule:
        board.pattern_table_for(rule)
