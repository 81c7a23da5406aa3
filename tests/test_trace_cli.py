"""``abgames experiment trace`` in its three formats, and ``pruning --json``."""

from __future__ import annotations

import json

import pytest

from abgames.cli import main

TRACE = ["experiment", "trace", "tictactoe", "b2", "a3", "--method", "alphabeta", "--depth", "3"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_text_tree_is_indented_with_windows_values_and_cuts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(TRACE, capsys)
    assert code == 0
    lines = out.splitlines()
    root = next(line for line in lines if line.startswith("root"))
    assert "[-inf, +inf]" in root and "= 12" in root
    assert any(line.startswith("  b3  (O MIN)") for line in lines)
    assert any(line.startswith("      a2  (O MIN)") for line in lines)  # ply 3, indented 6
    cut = next(line for line in lines if "cut after c3" in line)
    assert cut.startswith("    c1  (X MAX)  [-inf, 11]  >= 19")
    assert "a2 c2 a1 b1 not searched" in cut and "MIN will not let the game come here" in cut
    assert "126 nodes visited" in out and "principal variation: c2 a2 a1" in out


def test_json_export(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*TRACE, "--format", "json"], capsys)
    assert code == 0
    document = json.loads(out)
    assert document["counters"]["nodes"] == 126 and document["value"] == 12
    assert len(document["nodes"]) == 126 + document["counters"]["pruned"]
    assert document["events"][0] == {"type": "enter", "node": 0, "alpha": None, "beta": None}
    assert document["pv_text"] == ["c2", "a2", "a1"]


def test_dot_export(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*TRACE, "--format", "dot"], capsys)
    assert code == 0
    assert out.startswith("digraph trace {") and out.rstrip().endswith("}")
    assert 'label="root\\na -inf  b +inf\\n12", shape=box' in out
    assert out.count('style=dashed, color=grey, label="cut"') == 44
    assert "penwidth=2.5" in out


def test_pruning_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["experiment", "pruning", "tictactoe", "b2", "a3", "--json"], capsys)
    assert code == 0
    document = json.loads(out)
    assert document["agree"] is True
    assert [row["method"] for row in document["rows"]] == [
        "minimax",
        "alphabeta",
        "ordering",
        "tt",
        "deepening",
    ]
    assert document["rows"][0]["nodes"] == 6812 and document["rows"][0]["move_text"] == "b3"


def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["experiment", "trace", "connect4", "8"], capsys)
    assert code == 2 and "bad position" in err and "Traceback" not in err
    code, _, err = run([*TRACE, "--max-nodes", "0"], capsys)
    assert code == 2 and "--max-nodes must be at least 1" in err
    with pytest.raises(SystemExit) as exit_info:
        main([*TRACE, "--method", "best"])
    assert exit_info.value.code == 2


@pytest.mark.parametrize("command", ["trace", "pruning"])
@pytest.mark.parametrize(
    ("moves", "message"),
    [
        (["4", "4", "8"], "move 3: '8' is not a column (1..7)"),
        (["4"] * 7, "move 7: column 4 is full"),
        (["44", " 4 8"], "move 4: '8' is not a column (1..7)"),
    ],
)
def test_a_bad_connect_four_move_is_named_by_its_number_not_its_character(
    command: str, moves: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["experiment", command, "connect4", *moves], capsys)
    assert code == 2
    assert err.strip() == f"abgames experiment: bad position: {message}"
