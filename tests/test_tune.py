"""SPSA tuning: the update rule, saving and resuming, and the ``abgames tune`` command."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from abgames.arena import spsa
from abgames.arena.engines import EngineSpec
from abgames.arena.judge import GameRecord, GameTask
from conftest import RANDOM_BRAIN, abgames

PARAMS = [
    spsa.Param("attack.f3", 40.0, 10.0, 0.0, 1000.0),
    spsa.Param("defence.b4", 30.0, 8.0, 0.0, 1000.0),
    spsa.Param("attack.double_three", 1000.0, 250.0, 0.0, 1_000_000.0),
]
MATCH = spsa.Match(options={}, turn_ms=100, openings=((112,),))


class ScriptedRunner(spsa.Runner):
    """Plays no game: the candidate with the larger ``attack.f3`` wins every game."""

    def __init__(self, killed_after: int | None = None) -> None:
        super().__init__(1)
        self.played: list[GameTask] = []
        self.killed_after = killed_after

    def play(self, tasks: Iterable[GameTask]) -> Iterator[GameRecord]:
        for task in tasks:
            if len(self.played) == self.killed_after:
                raise KeyboardInterrupt  # the run is stopped mid-batch
            self.played.append(task)
            values = [dict(spec.eval_overrides)["attack.f3"] for spec in task.engines]
            winner = None if values[0] == values[1] else int(values[1] > values[0])
            yield GameRecord(
                index=task.index,
                game="gomoku",
                options={},
                players=(task.engines[0].name, task.engines[1].name),
                opening="",
                moves="",
                winner=winner,
                result="",
                reason="five",
            )


def run_to_end(
    state: spsa.TuneState, path: Path, batch: int = 2, killed_after: int | None = None
) -> ScriptedRunner:
    runner = ScriptedRunner(killed_after)
    spsa.run(state, MATCH, runner, batch, lambda s: spsa.save_state(s, path))
    return runner


def test_the_weights_move_towards_the_winning_candidate(tmp_path: Path) -> None:
    state = spsa.new_state("hard", PARAMS, steps=40, rate=0.2, seed=3)
    run_to_end(state, tmp_path / "run.json")
    values = state.values()
    assert values["attack.f3"] > 40 + 20  # the scripted winner: more attack.f3
    assert state.games == 80
    # The others are noise for this judge: their moves are small beside attack.f3's.
    assert abs(state.theta[1] - 30.0) < abs(state.theta[0] - 40.0)


def test_each_step_plays_both_colours_from_one_opening_with_mirrored_candidates() -> None:
    state = spsa.new_state("hard", PARAMS, steps=4, rate=0.1, seed=5)
    runner = ScriptedRunner()
    spsa.run(state, MATCH, runner, 4, lambda s: None)
    for first, second in zip(runner.played[::2], runner.played[1::2], strict=True):
        assert first.opening == second.opening
        assert first.engines == second.engines[::-1]
        plus, minus = (dict(spec.eval_overrides) for spec in first.engines)
        for param in PARAMS:
            midpoint = (plus[param.name] + minus[param.name]) / 2
            assert abs(midpoint - param.start) <= 1  # θ ± c·Δ, rounded


class OpponentRunner(ScriptedRunner):
    """Plays no game: against the opponent, a candidate wins with ``attack.f3`` above 45
    and loses below it (a draw at 45). Keeps the records it gave."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[GameRecord] = []

    def play(self, tasks: Iterable[GameTask]) -> Iterator[GameRecord]:
        for task in tasks:
            self.played.append(task)
            names = [spec.name for spec in task.engines]
            candidate = 1 - names.index(spsa.OPPONENT_NAME)
            f3 = dict(task.engines[candidate].eval_overrides)["attack.f3"]
            winner = None if f3 == 45 else (candidate if f3 > 45 else 1 - candidate)
            record = GameRecord(task.index, "gomoku", {}, (names[0], names[1]), "", "",
                                winner, "", "five")  # fmt: skip
            self.records.append(record)
            yield record


def test_against_an_opponent_each_candidate_plays_it_with_both_colours() -> None:
    opponent = EngineSpec("cmd", "pbrain-x", "x", 100)
    match = dataclasses.replace(MATCH, opponent=opponent)
    state = spsa.new_state("hard", PARAMS, steps=30, rate=0.2, seed=4, opponent="cmd=pbrain-x")
    runner = OpponentRunner()
    spsa.run(state, match, runner, 3, lambda s: None)
    assert state.games == len(runner.played) == 4 * 30
    for step in range(30):
        games = runner.played[4 * step : 4 * step + 4]
        assert [task.index for task in games] == list(range(4 * step, 4 * step + 4))
        assert len({task.opening for task in games}) == 1
        sides = [tuple(spec.name for spec in task.engines) for task in games]
        assert sides == [("plus", "opponent"), ("opponent", "plus"),
                         ("minus", "opponent"), ("opponent", "minus")]  # fmt: skip
        named = dataclasses.replace(opponent, name=spsa.OPPONENT_NAME)
        assert [task.engines[i] for task, i in zip(games, (1, 0, 1, 0), strict=True)] == [named] * 4
    assert state.values()["attack.f3"] > 45  # towards what beats the opponent
    # One candidate of each pair is above 45 while θ is near 40: it wins both its games.
    assert 0 < state.points_against_opponent <= state.games
    assert state.points_against_opponent == pytest.approx(
        sum(1.0 - spsa.points_of(r, spsa.OPPONENT_NAME) for r in runner.records)
    )


def test_a_resumed_run_ends_where_an_unbroken_run_ends(tmp_path: Path) -> None:
    unbroken = spsa.new_state("hard", PARAMS, steps=12, rate=0.2, seed=9)
    run_to_end(unbroken, tmp_path / "a.json")
    path = tmp_path / "b.json"
    broken = spsa.new_state("hard", PARAMS, steps=12, rate=0.2, seed=9)
    with pytest.raises(KeyboardInterrupt):
        run_to_end(broken, path, killed_after=11)  # in the third batch of 4 games
    resumed = spsa.load_state(path)
    assert resumed.step == 4 and resumed.games == 8  # two whole batches were saved
    run_to_end(resumed, path)
    assert resumed.theta == pytest.approx(unbroken.theta)
    assert resumed.games == unbroken.games == 24


def test_the_state_file_round_trips_and_bad_files_are_refused(tmp_path: Path) -> None:
    state = spsa.new_state("hard", PARAMS, steps=5, rate=0.1, seed=1)
    path = tmp_path / "run.json"
    spsa.save_state(state, path)
    assert dataclasses.asdict(spsa.load_state(path)) == dataclasses.asdict(state)
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]  # no temporary left
    for text, message in (
        ("{not json", "not a readable tuning state"),
        (json.dumps({"version": 99}), "not a tuning state of version"),
        (json.dumps({"version": 1, "params": [], "surprise": 1}), "not a readable tuning state"),
    ):
        path.write_text(text)
        with pytest.raises(spsa.TuneError, match=message):
            spsa.load_state(path)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(spsa.TuneError):
        spsa.load_state(path)


def test_new_runs_refuse_nonsense() -> None:
    with pytest.raises(spsa.TuneError, match="at least one step"):
        spsa.new_state("hard", PARAMS, steps=0, rate=0.1, seed=1)
    with pytest.raises(spsa.TuneError, match="start within its bounds"):
        spsa.new_state("hard", [spsa.Param("attack.f3", -5.0, 1.0, 0.0, 9.0)], 5, 0.1, 1)


def test_the_command_lists_weights_and_refuses_bad_parameters(tmp_path: Path) -> None:
    listed = abgames("tune", "gomoku", "--state", "x.json", "--list", cwd=tmp_path)
    assert listed.returncode == 0 and "attack.four_three" in listed.stdout
    for extra, message in (
        (["--params", "attack.zz"], "'attack.zz' is not a weight"),
        (["--params", "attack.f3=abc"], "is not NAME[=START][:SCALE]"),
        (["--time", "inf"], "is not a time limit"),
        (["--level", "easy"], "has no evaluation weights"),
        (["--batch", "0"], "at least 1"),
    ):
        done = abgames("tune", "gomoku", "--state", "x.json", *extra, cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert message in done.stderr and "Traceback" not in done.stderr
    (tmp_path / "broken.json").write_text("{")
    done = abgames("tune", "gomoku", "--state", "broken.json", cwd=tmp_path)
    assert done.returncode == 2 and "not a readable tuning state" in done.stderr
    assert (tmp_path / "broken.json").read_text() == "{"  # left as it was


def test_a_real_run_plays_games_saves_and_resumes(tmp_path: Path) -> None:
    common = ["tune", "gomoku", "--state", "run.json", "--params", "attack.f3:10,defence.b4",
              "--time", "0.15", "--size", "9", "--records", "games.jsonl"]  # fmt: skip
    first = abgames(*common, "--steps", "1", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    saved = json.loads((tmp_path / "run.json").read_text())
    assert saved["step"] == 1 and saved["games"] == 2
    assert "check it: abgames arena gomoku --engine level=hard,name=tuned,eval.attack.f3=" in (
        first.stdout
    )
    # The state's own step count rules: a finished run resumes and has nothing to do.
    again = abgames(*common, cwd=tmp_path)
    assert again.returncode == 0 and "resuming" in again.stderr
    games = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(games) == 2 and {json.loads(g)["reason"] for g in games} <= {"five", "full board"}


def test_a_real_run_against_an_external_brain(tmp_path: Path) -> None:
    brain = f"cmd={sys.executable} {RANDOM_BRAIN}"
    common = ["tune", "gomoku", "--state", "run.json", "--params", "attack.f3:10",
              "--time", "0.15", "--size", "9", "--records", "games.jsonl"]  # fmt: skip
    first = abgames(*common, "--steps", "1", "--opponent", brain, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    saved = json.loads((tmp_path / "run.json").read_text())
    assert saved["opponent"] == brain and saved["games"] == 4
    games = [json.loads(g) for g in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert sorted(g["first"] for g in games) == ["minus", "opponent", "opponent", "plus"]
    assert all("opponent" in (g["first"], g["second"]) for g in games)
    # The random brain loses every game: the candidates scored all 4 points.
    assert saved["points_against_opponent"] == 4.0
    assert "candidates scored 100.0 % against the opponent" in first.stderr
    assert f"--engine '{brain}'" in first.stdout  # the check is against the same engine
    other = abgames(*common, "--opponent", "level=hard", cwd=tmp_path)
    assert other.returncode == 2 and "leave --opponent out to resume it" in other.stderr
    assert json.loads((tmp_path / "run.json").read_text()) == saved  # left as it was
    for spec, message in (
        ("cmd=/no/such/brain", "'/no/such/brain' not found"),
        ("level=nonsense", "has no level 'nonsense'"),
        ("pbrain", "'pbrain' is not key=value"),
        ("name=x", "must start with level=... or cmd=..."),
    ):
        done = abgames("tune", "gomoku", "--state", "new.json", "--opponent", spec, cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert message in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "new.json").exists()
