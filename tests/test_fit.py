"""Fitting the Gomoku evaluation to a teacher: the fit, the labelling, the command."""

from __future__ import annotations

import json
import random
import re
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

from abgames.ai.gomoku.features import position_features
from abgames.ai.gomoku.weights import EVAL_NAMES, EVAL_WEIGHTS, eval_weights
from abgames.arena.fit import FitError, fit_weights
from abgames.arena.teacher import (
    DEFAULT_SCORE_PATTERN,
    TeacherError,
    label_positions,
    load_labels,
    read_score,
    sample_positions,
)
from abgames.games.gomoku import Gomoku
from conftest import abgames

BRAIN = [sys.executable, str(Path(__file__).parent / "engines" / "random_brain.py")]
START = EVAL_WEIGHTS[: len(EVAL_NAMES)].astype(np.float64)


def _synthetic(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random feature counts and a teacher that scores with weights ``truth``."""
    rng = np.random.default_rng(seed)
    features = rng.poisson(3.0, size=(count, 6)).astype(np.float64)
    features[:, 3:] *= -1  # the opponent's patterns count against the side to move
    truth = np.array([10.0, 30.0, 60.0, 8.0, 20.0, 50.0])
    return features, truth


def test_the_fit_recovers_the_teachers_weights_and_keeps_the_spread() -> None:
    features, truth = _synthetic(3000, seed=1)
    scores = features @ truth / 4  # the teacher's units are not the engine's
    start = np.array([10.0, 10.0, 10.0, 10.0, 10.0, 10.0])
    result = fit_weights(features, scores, start, np.ones(6, np.bool_))
    assert result.holdout_before < 0.95 < 0.999 < result.holdout_after
    assert np.corrcoef(result.weights, truth)[0, 1] > 0.999  # the right proportions
    assert (features @ result.weights).std() == pytest.approx((features @ start).std())
    # A teacher that gives the side to move an edge: its own intercept takes it.
    edged = fit_weights(features, scores + 40, start, np.ones(6, np.bool_))
    assert np.corrcoef(edged.weights, truth)[0, 1] > 0.999 and edged.intercept > 0
    # Fixed weights keep their values; decided positions are left out.
    free = np.array([True, True, True, False, True, True])
    scores[:10] = 30000
    fixed = fit_weights(features, scores, start, free, keep_spread=False)
    assert fixed.weights[3] == 10.0 and fixed.positions == 2990
    kept = fit_weights(features, scores, start, free)
    assert kept.weights[3] == 10.0
    assert (features[10:] @ kept.weights).std() == pytest.approx((features[10:] @ start).std())


def test_the_fit_refuses_what_it_cannot_fit() -> None:
    features, truth = _synthetic(10, seed=2)
    with pytest.raises(FitError, match="too few"):
        fit_weights(features, features @ truth, np.ones(6), np.ones(6, np.bool_))
    features, truth = _synthetic(400, seed=3)
    features[:, 0] = 1.0  # constant: nothing to fit
    with pytest.raises(FitError, match="varies"):
        fit_weights(features, features @ truth, np.ones(6), np.eye(6, dtype=np.bool_)[0])


def test_features_are_the_evaluation_split_by_weight() -> None:
    state = Gomoku.from_notation("h8 i8 i5 h9 j6 j9 k7 l8 k5 g9")
    features, quiet = position_features([state])
    other = eval_weights({"attack.f3": 90, "defence.b3": 17, "attack.four_plus": 5, "tempo": 33})
    from abgames.ai.gomoku import board as nb
    from abgames.ai.gomoku.evaluate import evaluate

    board = nb.new_board(15, state.rule)
    nb.load(board, state)
    for weights in (EVAL_WEIGHTS, other):
        assert features[0] @ weights[: len(EVAL_NAMES)] == evaluate(board, weights)
    assert quiet[0]
    # Black to move with an open three (a straight four to make) is not quiet.
    loud = Gomoku.from_notation("h8 a1 i8 a3 j8 a5")
    assert not position_features([loud])[1][0]


def test_scores_are_read_from_either_brains_messages() -> None:
    pattern = re.compile(DEFAULT_SCORE_PATTERN)
    chatter = ["MESSAGE depth 3 score -12 nodes 9", "MESSAGE depth 4 score 40"]
    assert read_score(chatter, pattern) == 40
    assert read_score(["MESSAGE 深度: 8-29 估值: -191 最佳: [12,8]"], pattern) == -191
    assert read_score(["MESSAGE thinking hard"], pattern) is None


def _records(path: Path) -> None:
    games = [
        {"variant": "gomoku", "options": {}, "moves": "h8 i8 i5 h9 j6 j9 k7 l8 k5 g9 l9 m10"},
        {"variant": "gomoku", "options": {"size": 9}, "moves": "e5 d4 e4 d5 e6 e3 d6 f4 c7 b8"},
        {"variant": "connect4", "options": {}, "moves": "4 4 4 4 4 4 3 3 3 3"},
    ]
    path.write_text("".join(json.dumps(game) + "\n" for game in games))


def test_positions_are_sampled_from_the_games_of_the_board_asked(tmp_path: Path) -> None:
    _records(tmp_path / "games.jsonl")
    positions = sample_positions([tmp_path / "games.jsonl", tmp_path / "games.jsonl"])
    assert positions == [
        "h8 i8 i5 h9 j6 j9 k7 l8",
        "h8 i8 i5 h9 j6 j9 k7 l8 k5 g9",
    ]
    assert sample_positions([tmp_path / "games.jsonl"], size=9) == ["e5 d4 e4 d5 e6 e3 d6 f4"]
    with pytest.raises(TeacherError, match="cannot read"):
        sample_positions([tmp_path / "missing.jsonl"])


def test_labelling_scores_quiet_positions_and_resumes(tmp_path: Path) -> None:
    labels = tmp_path / "labels.jsonl"
    positions = ["h8 i8 i5 h9 j6 j9 k7 l8", "h8 i8 i5 h9 j6 j9 k7 l8 k5 g9", "h8 a1 i8 a3 j8 a5"]
    run = label_positions([*BRAIN, "--scores"], positions, labels, turn_ms=200, workers=2)
    assert (run.labelled, run.skipped_loud, run.failures) == (2, 1, 0)
    scored = {label.moves: label.score for label in load_labels(labels)}
    assert scored == {positions[0]: 56, positions[1]: 70}
    with labels.open("a") as stream:
        stream.write('{"moves": "h8 i8", "sco')  # a run killed mid-line
    again = label_positions([*BRAIN, "--scores"], positions, labels, turn_ms=200)
    assert again.labelled == 0 and len(load_labels(labels)) == 2
    silent = label_positions(BRAIN, ["h8 i8 i5 h9 j6 j9 k7 l8 k5 g9 l9 m10"], labels, turn_ms=200)
    assert silent.unscored == 1 and silent.labelled == 0
    with pytest.raises(TeacherError, match="fails"):
        dead = [sys.executable, "-c", "pass"]
        label_positions(dead, positions[:2] * 2, tmp_path / "x", turn_ms=200)
    with pytest.raises(TeacherError, match="one group"):
        label_positions(BRAIN, positions, labels, turn_ms=200, score_pattern="score")


def _random_positions(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    positions: list[str] = []
    while len(positions) < count:
        state = Gomoku()
        for _ in range(rng.randrange(8, 30)):
            near = [p for p in state.legal_moves() if abs(p % 15 - 7) < 5 and abs(p // 15 - 7) < 5]
            state.play(rng.choice(near))
            if state.outcome() is not None:
                break
        else:
            positions.append(" ".join(state.format_move(m) for m in state.moves))
    return positions


def test_the_command_fits_labels_and_refuses_nonsense(tmp_path: Path) -> None:
    # A teacher that weighs open threes three times as much as the engine does.
    positions = _random_positions(300, seed=4)
    states = [Gomoku.from_notation(moves) for moves in positions]
    features, _ = position_features(states)
    teacher = eval_weights({"attack.f3": 180, "defence.f3": 75})[: len(EVAL_NAMES)]
    with (tmp_path / "labels.jsonl").open("w") as stream:
        for moves, row in zip(positions, features, strict=True):
            stream.write(json.dumps({"moves": moves, "score": int(row @ teacher) // 5}) + "\n")
    done = abgames("fit", "gomoku", "--labels", "labels.jsonl", "--params",
                   "attack.f3,defence.f3", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "check it: abgames arena gomoku --engine level=hard,name=fitted,eval.attack.f3=" in (
        done.stdout
    )
    found = re.search(
        r"held-out correlation with the teacher: (\S+) before, (\S+) after",
        done.stdout,
    )
    assert found is not None and float(found[2]) > float(found[1])
    fitted = {line.split()[0]: int(line.split()[-1]) for line in done.stdout.splitlines()
              if line.startswith(("attack.f3", "defence.f3"))}  # fmt: skip
    assert fitted["attack.f3"] > 2 * fitted["defence.f3"]  # the teacher's 180 : 75
    for extra, message in (
        (["--params", "attack.zz"], "attack.zz is not a weight to fit"),
        (["--teacher", ""], "give the brain's command line"),
        (["--concurrency", "0"], "at least 1"),
        (["--teacher-ms", "-5"], "teacher-ms"),
    ):
        refused = abgames("fit", "gomoku", "--labels", "labels.jsonl", *extra, cwd=tmp_path)
        assert refused.returncode == 2, refused.stdout
        assert message in refused.stderr and "Traceback" not in refused.stderr
    few = abgames("fit", "gomoku", "--labels", "none.jsonl", cwd=tmp_path)
    assert few.returncode == 2 and "holds 0 scored positions" in few.stderr


def test_the_command_scores_the_positions_of_arena_games(tmp_path: Path) -> None:
    _records(tmp_path / "games.jsonl")
    teacher = shlex.join([*BRAIN, "--scores"])
    done = abgames("fit", "gomoku", "--teacher", teacher, "--games", "games.jsonl",
                   "--labels", "new.jsonl", "--teacher-ms", "200", cwd=tmp_path)  # fmt: skip
    assert "2 positions in the games: 2 scored now" in done.stderr, done.stderr
    assert [label.score for label in load_labels(tmp_path / "new.jsonl")] == [56, 70]
    assert done.returncode == 2 and "holds 2 scored positions; fit from 200" in done.stderr
