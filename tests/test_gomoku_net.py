"""The learned evaluation: its inputs, the integer kernel against the float network,
network files, training (and its resumption) and the engine switch."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from abgames.ai.gomoku import board as nb
from abgames.ai.gomoku import netfile
from abgames.ai.gomoku.engine import EngineSettings, GomokuEngine
from abgames.ai.gomoku.evaluate import combo_counts, evaluate, fill_net_inputs, net_score
from abgames.ai.gomoku.settings import with_search_overrides
from abgames.ai.gomoku.weights import (
    EVAL_WEIGHTS,
    NET_HIDDEN,
    NET_INPUTS,
    NET_ON,
    NET_SIDE_COLUMNS,
    NET_SIDE_INPUTS,
)
from abgames.arena import net_training as nt
from abgames.arena.fit import FitError
from abgames.cli import main
from abgames.games.gomoku import Gomoku, Rule
from abgames.search.limit import Limit


def random_state(rng: random.Random, stones: int, rule: Rule = Rule.FREESTYLE) -> Gomoku:
    """A position of ``stones`` stones placed near the centre, no game over."""
    state = Gomoku(15, rule)
    while len(state.moves) < stones:
        x, y = 7 + rng.randint(-4, 4), 7 + rng.randint(-4, 4)
        point = state.point(x, y)
        if state.board[point] != 0 or state.forbidden_kind(point) is not None:
            continue
        state.play(point)
        if state.outcome() is not None:
            state.undo()
            break
    return state


def loaded(state: Gomoku) -> nb.Board:
    board = nb.new_board(state.size, state.rule)
    nb.load(board, state)
    return board


def transformed(state: Gomoku, transform: int) -> Gomoku:
    """``state`` under one of the board's eight symmetries, moves in the same order."""
    size = state.size
    result = Gomoku(size, state.rule)
    for move in state.moves:
        x, y = state.xy(move)
        for _ in range(transform % 4):
            x, y = size - 1 - y, x
        if transform >= 4:
            x = size - 1 - x
        result.play(result.point(x, y))
    return result


def random_network(seed: int, hidden: int = 8) -> nt.FloatNet:
    rng = np.random.default_rng(seed)
    return nt.FloatNet(
        mean=rng.uniform(0, 50, NET_INPUTS),
        std=rng.uniform(1, 40, NET_INPUTS),
        first=rng.normal(0, 0.5, (hidden, NET_INPUTS)),
        first_bias=rng.uniform(0, 1, hidden),
        out=rng.normal(0, 300, hidden),
        out_bias=float(rng.normal(0, 50)),
    )


def test_the_inputs_are_the_side_to_moves_counts_then_the_opponents() -> None:
    rng = random.Random(3)
    for stones in (9, 16, 25):
        state = random_state(rng, stones)
        board = loaded(state)
        inputs = np.zeros(NET_INPUTS, np.int64)
        fill_net_inputs(board, inputs)
        me, other = state.to_move, 1 - state.to_move
        for side, player in enumerate((me, other)):
            base = side * NET_SIDE_INPUTS
            assert list(inputs[base : base + NET_SIDE_COLUMNS]) == list(
                board.counts[player, :NET_SIDE_COLUMNS]
            )
            assert tuple(inputs[base + NET_SIDE_COLUMNS : base + NET_SIDE_INPUTS]) == (
                combo_counts(board, player)
            )
        assert inputs[-1] == len(state.moves)


def test_the_integer_kernel_computes_the_float_network() -> None:
    rng = random.Random(5)
    states = [random_state(rng, 8 + i % 20) for i in range(40)]
    float_net = random_network(1)
    network = nt.quantize(float_net)
    vector = EVAL_WEIGHTS.copy()
    netfile.pack(vector, network)
    inputs = np.zeros(NET_INPUTS, np.int64)
    for state in states:
        board = loaded(state)
        fill_net_inputs(board, inputs)
        expected = float(float_net(inputs.astype(np.float64)[None, :])[0])
        # Rounding: of each input weight (2^-17 of a unit's range each), of each output
        # weight (half a unit each) and of the final division.
        assert abs(net_score(board, vector) - expected) <= float_net.out.size + 2
        plain = evaluate(board, EVAL_WEIGHTS)
        assert evaluate(board, vector) == plain + net_score(board, vector)


def test_the_network_is_blind_to_the_boards_symmetries() -> None:
    vector = EVAL_WEIGHTS.copy()
    netfile.pack(vector, nt.quantize(random_network(2)))
    rng = random.Random(9)
    for _ in range(6):
        state = random_state(rng, 14)
        scores = {evaluate(loaded(transformed(state, t)), vector) for t in range(8)}
        assert len(scores) == 1, state.notation()


def test_the_weights_without_a_network_leave_it_off() -> None:
    assert EVAL_WEIGHTS[NET_ON] == 0
    assert GomokuEngine()._weights[NET_ON] == 0


def network_file(tmp_path: Path, network: netfile.Network) -> Path:
    path = tmp_path / "net.json"
    netfile.write(network, path)
    return path


def test_a_network_file_round_trips(tmp_path: Path) -> None:
    network = nt.quantize(random_network(4, hidden=5))
    path = network_file(tmp_path, network)
    again = netfile.read(path)
    assert again.hidden == 5
    assert (again.input_weights == network.input_weights).all()
    assert (again.output == network.output).all()
    assert (again.hidden_bias == network.hidden_bias).all()
    assert again.output_bias == network.output_bias
    assert not list(tmp_path.glob(".*tmp"))  # written through a renamed temporary


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "not a network file"),
        (lambda d: d.update(inputs=12), "this engine takes"),
        (lambda d: d.update(hidden=99), "hidden: expected 1 to"),
        (lambda d: d["output"].pop(), "output: expected a list of 5"),
        (lambda d: d["input_weights"][2].__setitem__(0, 1.5), r"input_weights\[2\]"),
        (lambda d: d["hidden_bias"].__setitem__(0, 1 << 40), "beyond"),
        (lambda d: d.update(output_bias="x"), "output_bias"),
        (lambda d: d.update(training=[]), "training and check"),
    ],
)
def test_a_damaged_network_file_is_refused_with_its_reason(
    tmp_path: Path, change: object, message: str
) -> None:
    data = nt.quantize(random_network(4, hidden=5)).as_json()
    change(data)  # type: ignore[operator]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(netfile.NetFileError, match=message):
        netfile.read(path)


def test_a_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\x00\xff{")
    with pytest.raises(netfile.NetFileError, match="not JSON"):
        netfile.read(path)
    path.write_text("[" * 100_000)
    with pytest.raises(netfile.NetFileError):
        netfile.read(path)


def test_the_engine_switch_plays_the_file_the_variable_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = network_file(tmp_path, nt.quantize(random_network(6, hidden=3)))
    monkeypatch.setenv(netfile.NET_FILE_VARIABLE, str(path))
    settings = with_search_overrides(EngineSettings(), (("eval_net", 1),))
    engine = GomokuEngine(settings)
    assert engine._weights[NET_ON] == 1 and engine._weights[NET_HIDDEN] == 3
    state = Gomoku.from_notation("h8 i9 h9 h10 i8 g8")
    results = list(engine.search(state, Limit(depth=3)))
    assert results and results[-1].move is not None
    monkeypatch.setenv(netfile.NET_FILE_VARIABLE, str(tmp_path / "missing.json"))
    with pytest.raises(OSError):
        GomokuEngine(settings)


def synthetic_data(count: int, seed: int) -> nt.NetData:
    """Positions whose teacher scores hold a term the hand-set evaluation lacks: a
    nonlinear function of two of the inputs."""
    rng = np.random.default_rng(seed)
    inputs = rng.integers(0, 30, (count, NET_INPUTS)).astype(np.float64)
    base = rng.normal(0, 200, count)
    hidden_term = 300 * np.tanh((inputs[:, 4] - inputs[:, 23]) / 5)
    scores = base + hidden_term + rng.normal(0, 20, count)
    moves = [f"game{i // 10} move{i}" for i in range(count)]
    holdout = np.array([nt._held_out(m) for m in moves])
    return nt.NetData(
        inputs=inputs,
        base=base,
        scores=scores,
        results=np.full(count, np.nan),
        holdout=holdout,
        moves=moves,
        rule="freestyle",
        size=15,
    )


def test_training_learns_what_the_hand_set_evaluation_misses() -> None:
    data = synthetic_data(3000, 1)
    result = nt.train(data, nt.TrainSettings(hidden=8, steps=600))
    assert result.holdout_loss_after < result.holdout_loss_before - 0.01
    assert result.holdout_correlation_after > result.holdout_correlation_before + 0.1
    assert result.holdout_correlation_after > 0.9


def test_a_stopped_training_resumes_where_it_stopped(tmp_path: Path) -> None:
    data = synthetic_data(1000, 2)
    settings = nt.TrainSettings(hidden=4, steps=300)
    straight = nt.train(data, settings)
    checkpoint = tmp_path / "run.ckpt.npz"
    first = nt.train(data, nt.TrainSettings(hidden=4, steps=200), checkpoint)
    assert first.steps == 200
    resumed = nt.train(data, settings, checkpoint)
    assert resumed.steps == 300
    assert np.allclose(resumed.net.first, straight.net.first)
    assert resumed.best_step == straight.best_step
    other = nt.train(data, nt.TrainSettings(hidden=4, steps=300, seed=1), checkpoint)
    assert not np.allclose(other.net.first, straight.net.first)  # another run: not resumed


def test_too_few_positions_are_refused() -> None:
    with pytest.raises(FitError, match="too few"):
        nt.train(synthetic_data(50, 3), nt.TrainSettings(steps=5))


def test_results_are_read_for_the_side_to_move() -> None:
    games = [
        {"moves": "h8 h9 i8", "result": "1-0"},
        {"moves": "h8 h9 g8", "result": "0-1"},
        {"moves": "h8 a1", "result": "unfinished"},
    ]
    results = nt.results_by_position(games)
    assert results[""] == 0.5  # black to move: one won, one lost
    assert results["h8"] == 0.5
    assert results["h8 h9 i8"] == 0.0  # white to move in a game black won
    assert results["h8 h9 g8"] == 1.0
    assert "h8 a1" not in results


def test_the_dataset_keeps_quiet_undecided_positions_with_their_results() -> None:
    labelled = [
        ("h8 h9 i8 i9", 120),  # quiet
        ("h8 h9 i8 i9 j8 j9 k8", 50),  # white must answer black's four: not quiet
        ("h8 h9", 9000),  # decided
        ("h8 h8", 10),  # illegal
    ]
    data = nt.net_dataset(labelled, {"h8 h9 i8 i9": 1.0}, size=15, rule=Rule.FREESTYLE)
    assert data.moves == ["h8 h9 i8 i9"]
    assert data.results.tolist() == [1.0]
    assert data.scores.tolist() == [120.0]


def test_fit_model_net_asks_for_its_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    labels = str(tmp_path / "labels.jsonl")
    assert main(["fit", "gomoku", "--labels", labels, "--model", "net"]) == 2
    assert "give --out" in capsys.readouterr().err
    out = str(tmp_path / "n.json")
    assert main(["fit", "gomoku", "--labels", labels, "--model", "net", "--out", out,
                 "--hidden", "99"]) == 2  # fmt: skip
    assert "--hidden" in capsys.readouterr().err
    assert main(["fit", "gomoku", "--labels", labels, "--model", "net", "--out", out]) == 2
    assert "too few" in capsys.readouterr().err


def test_the_shipped_network_loads_and_scores_its_check_set_as_recorded() -> None:
    network = netfile.read(netfile.SHIPPED)
    check = network.check
    assert len(check["moves"]) == len(check["teacher"]) >= 100
    rule = Rule(check["rule"])
    scores = nt.kernel_scores(network, check["moves"], size=check["size"], rule=rule)
    recorded = check["correlation"]
    assert round(float(np.corrcoef(scores, check["teacher"])[0, 1]), 6) == recorded
    training = network.training
    # The run's held-out figures: the network beat the hand-set evaluation on them.
    before, after = training["holdout_correlation"]
    assert after > before
    assert training["holdout_loss"][1] < training["holdout_loss"][0]
    assert training["positions"] == training["train_positions"] + training["holdout_positions"]
