"""The Gomoku evaluation's runtime weights: combination cells, overrides, arena specs."""

from __future__ import annotations

import random

import numpy as np
import pytest

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku import patterns as pt
from abgames.ai.gomoku.engine import EngineSettings, GomokuEngine
from abgames.ai.gomoku.evaluate import evaluate
from abgames.ai.gomoku.player import PATTERN_COUNTS_ONLY, GomokuPlayer, make_tuned_player
from abgames.ai.gomoku.player import SHAPE_NAMES as player_shape_names
from abgames.ai.gomoku.tables import S_NODES
from abgames.ai.gomoku.weights import (
    COMBO_COUNT,
    EVAL_ATTACK_COMBO,
    EVAL_ATTACK_SHAPE,
    EVAL_COMBO_ON,
    EVAL_DEFENCE_COMBO,
    EVAL_DEFENCE_SHAPE,
    EVAL_LEN,
    EVAL_NAMES,
    EVAL_WEIGHTS,
    eval_weights,
)
from abgames.ai.levels import make_player
from abgames.arena.engines import parse_engine_spec
from abgames.games.gomoku import Gomoku, Rule
from abgames.search.limit import Limit

FOUR_CODES = (pt.B4, pt.F4)


def slow_combos(board: nb.Board, player: int) -> list[int]:
    """Double fours, four-threes and double threes of ``player``, by a scan of every cell."""
    found = [0] * COMBO_COUNT
    renju_black = player == 0 and board.info[nb.I_RENJU] != 0
    for cell in range(board.cells.shape[0]):
        if board.cells[cell] != nb.EMPTY:
            continue
        codes = [int(board.pattern[player, d, cell]) for d in range(4)]
        fours = sum(code in FOUR_CODES for code in codes) + 2 * codes.count(pt.D4)
        threes = codes.count(pt.F3)
        if fours >= 2:
            found[0] += 0 if renju_black else 1
        elif fours == 1 and threes >= 1:
            found[1] += 1
        elif fours == 0 and threes >= 2:
            found[2] += 0 if renju_black else 1
    return found


def random_state(rng: random.Random, rule: Rule, stones: int) -> Gomoku:
    state = Gomoku(11, rule)
    while len(state.moves) < stones and state.outcome() is None:
        point = rng.randrange(state.size * state.size)
        if state.board[point] == 0 and state.forbidden_kind(point) is None:
            state.play(point)
    return state


@pytest.mark.parametrize("rule", list(Rule))
def test_combination_terms_equal_a_scan_of_every_cell(rule: Rule) -> None:
    rng = random.Random(11)
    weights = np.zeros(EVAL_LEN, np.int64)
    # Distinct powers of ten per term, so the total shows every count on its own.
    for i in range(COMBO_COUNT):
        weights[EVAL_ATTACK_COMBO + i] = 10 ** (2 * i)
        weights[EVAL_DEFENCE_COMBO + i] = 10 ** (2 * i + 1)
    weights[EVAL_COMBO_ON] = 1
    seen_combination = False
    for trial in range(40):
        state = random_state(rng, rule, 14 + trial % 12)
        if state.outcome() is not None:
            continue
        board = nb.new_board(state.size, state.rule)
        nb.load(board, state)
        me, other = state.to_move, 1 - state.to_move
        mine, theirs = slow_combos(board, me), slow_combos(board, other)
        expected = sum(mine[i] * 10 ** (2 * i) - theirs[i] * 10 ** (2 * i + 1) for i in range(3))
        seen_combination |= any(mine) or any(theirs)
        assert evaluate(board, weights) == expected, (state.notation(), mine, theirs)
    assert seen_combination  # the sample exercised the terms


def test_renju_black_double_threes_are_forbidden_points_not_assets() -> None:
    # Black (to move) has a double three at f6: the diagonals e7-f6-g5 and g7-f6-e5.
    text = "f8 a1 e7 a3 g7 a5 e5 a7 g5 a9"
    weights = np.zeros(EVAL_LEN, np.int64)
    weights[EVAL_ATTACK_COMBO + 2] = 1  # attack.double_three only
    weights[EVAL_COMBO_ON] = 1
    values = {}
    for rule in (Rule.FREESTYLE, Rule.RENJU):
        state = Gomoku.from_notation(text, rule=rule)
        assert state.to_move == 0
        board = nb.new_board(state.size, state.rule)
        nb.load(board, state)
        values[rule] = evaluate(board, weights)
    assert values[Rule.FREESTYLE] >= 1
    assert values[Rule.RENJU] == 0


def test_overrides_replace_named_weights_and_refuse_unknown_ones() -> None:
    vector = eval_weights({"attack.f3": 77, "defence.four_three": 5})
    assert vector[EVAL_NAMES.index("attack.f3")] == 77
    assert vector[EVAL_NAMES.index("defence.four_three")] == 5
    assert vector[EVAL_COMBO_ON] == 1 and EVAL_WEIGHTS[EVAL_COMBO_ON] == 1
    no_combos = eval_weights(dict(PATTERN_COUNTS_ONLY))
    assert no_combos[EVAL_COMBO_ON] == 0  # the evaluation then skips the combination cells
    unchanged = [
        i for i, name in enumerate(EVAL_NAMES) if name not in ("attack.f3", "defence.four_three")
    ]
    assert (vector[unchanged] == EVAL_WEIGHTS[unchanged]).all()
    with pytest.raises(ValueError, match=r"'attack\.f9' is not an evaluation weight"):
        eval_weights({"attack.f9": 1})
    with pytest.raises(ValueError, match="beyond"):
        eval_weights({"attack.f3": 10**9})


def test_an_override_changes_the_search_and_the_default_does_not() -> None:
    state = Gomoku.from_notation("h8 i9 h9 h10 i8 g8 j7 k6 i6 j9 g9 k8")
    settings = EngineSettings(root_vcf_depth=0, root_vct_depth=0, defence_vct_depth=0)

    def nodes(engine: GomokuEngine) -> int:
        for _ in engine.search(state, Limit(depth=4)):
            pass
        assert engine.tables is not None
        return int(engine.tables.stats[S_NODES])

    default_f3 = int(EVAL_WEIGHTS[EVAL_NAMES.index("attack.f3")])
    plain = nodes(GomokuEngine(settings))
    same = nodes(
        GomokuEngine(
            EngineSettings(**{**settings.__dict__, "eval_overrides": (("attack.f3", default_f3),)})
        )
    )
    other = nodes(
        GomokuEngine(
            EngineSettings(**{**settings.__dict__, "eval_overrides": (("attack.f3", 400),)})
        )
    )
    assert same == plain  # the default value: the same search
    assert other != plain


def test_arena_specs_take_evaluation_weights_for_gomoku_levels_only() -> None:
    spec = parse_engine_spec(
        "level=hard,eval.attack.f3=45,eval.defence.b4=-3", game="gomoku", turn_ms=100
    )
    assert spec.eval_overrides == (("attack.f3", 45), ("defence.b4", -3))
    player = make_player("gomoku", "hard", None, spec.eval_overrides)
    assert isinstance(player, GomokuPlayer)
    assert player.settings.eval_overrides == spec.eval_overrides
    for text, game, message in (
        ("level=hard,eval.attack.zz=1", "gomoku", "'attack.zz' is not an evaluation weight"),
        ("level=hard,eval.attack.f3=4x", "gomoku", "is not a whole number"),
        ("level=hard,eval.attack.f3=²", "gomoku", "is not a whole number"),
        ("level=easy,eval.attack.f3=4", "gomoku", "has no evaluation weights"),
        ("level=hard,eval.attack.f3=4", "connect4", "are for Gomoku levels"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_engine_spec(text, game=game, turn_ms=100)


def test_arena_specs_take_search_settings_for_gomoku_levels_only() -> None:
    spec = parse_engine_spec(
        "level=hard,search.late_move_reductions=0,search.beam=10,eval.attack.f3=45",
        game="gomoku",
        turn_ms=100,
    )
    assert spec.search_overrides == (("late_move_reductions", 0), ("beam", 10))
    player = make_player("gomoku", "hard", None, spec.eval_overrides, spec.search_overrides)
    assert isinstance(player, GomokuPlayer)
    assert player.settings.late_move_reductions is False
    assert player.settings.beam == 10
    assert player.settings.eval_overrides == (("attack.f3", 45),)
    assert player.settings.leaf_vcf_depth == make_player_settings("hard").leaf_vcf_depth
    for text, game, message in (
        ("level=hard,search.wide=1", "gomoku", "'wide' is not a search setting"),
        ("level=hard,search.threats=2", "gomoku", "is a switch: give 0 or 1"),
        ("level=hard,search.beam=-1", "gomoku", "must be at least 0"),
        ("level=hard,search.max_depth=0", "gomoku", "must be at least 1"),
        ("level=hard,search.lmr_min_depth=1", "gomoku", "must be at least 2"),
        ("level=hard,search.three_extension=3", "gomoku", "must be at most 2"),
        ("level=hard,search.beam=x", "gomoku", "is not a whole number"),
        ("level=easy,search.beam=4", "gomoku", "has no search settings"),
        ("level=hard,search.beam=4", "connect4", "search settings are for Gomoku levels"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_engine_spec(text, game=game, turn_ms=100)


def make_player_settings(level: str) -> EngineSettings:
    player = make_player("gomoku", level)
    assert isinstance(player, GomokuPlayer)
    return player.settings


def test_levels_below_hard_score_pattern_counts_alone() -> None:
    """`medium` and `classic` leave the opponent's combination cells and both sides'
    cell shapes out of their evaluation (a tuned override keeps that); `hard` and
    `max` count them."""

    def combos_on(settings: EngineSettings) -> int:
        return int(eval_weights(dict(settings.eval_overrides))[EVAL_COMBO_ON])

    def shapes_on(settings: EngineSettings) -> bool:
        vector = eval_weights(dict(settings.eval_overrides))
        return bool(vector[EVAL_ATTACK_SHAPE : EVAL_DEFENCE_SHAPE + pt.SHAPE_COUNT].any())

    assert player_shape_names == pt.SHAPE_NAMES  # spelt out in player.py
    for level, counted in (("medium", False), ("classic", False), ("hard", True), ("max", True)):
        settings = make_player_settings(level)
        assert combos_on(settings) == int(counted), level
        assert shapes_on(settings) == counted, level
    tuned = make_tuned_player("medium", None, (("attack.f3", 50),))
    assert isinstance(tuned, GomokuPlayer)
    assert combos_on(tuned.settings) == 0
    assert ("attack.f3", 50) in tuned.settings.eval_overrides
