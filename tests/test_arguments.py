"""Numbers on the command line: ASCII digits only, one argparse type everywhere."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

from abgames.arguments import integer, real
from abgames.cli import build_parser

SOURCE = Path(__file__).resolve().parent.parent / "src" / "abgames"


@pytest.mark.parametrize(
    ("text", "value"), [("20", 20), ("-1", -1), ("+7", 7), ("007", 7), (" 3 ", 3)]
)
def test_integer_reads_ascii_whole_numbers(text: str, value: int) -> None:
    assert integer(text) == value


@pytest.mark.parametrize("text", ["２０", "٤٢", "²", "2_0", "1.0", "", "-", "0x10", "1" * 101])
def test_integer_refuses_anything_else(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        integer(text)


@pytest.mark.parametrize(
    ("text", "value"), [("0.5", 0.5), ("-2", -2.0), ("1e-3", 0.001), (".5", 0.5), ("3.", 3.0)]
)
def test_real_reads_ascii_decimals(text: str, value: float) -> None:
    assert real(text) == value


@pytest.mark.parametrize("text", ["０.５", "nan", "inf", "-Infinity", "1e999", "1_0.5", "e3", ""])
def test_real_refuses_anything_else(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        real(text)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "gomoku", "--size", "２０"],
        ["play", "gomoku", "--seed", "４２"],
        ["gui", "--seed", "４２"],
        ["pbrain", "--seed", "４２"],
        ["arena", "connect4", "level=easy", "level=medium", "--games", "２"],
        ["solve", "connect4", "--table-bits", "２２"],
        ["book", "connect4", "--table-bits", "２２"],
        ["tune", "gomoku", "--state", "s.json", "--rate", "０.１"],
        ["web", "--port", "８０００"],
    ],
)
def test_the_command_line_refuses_non_ascii_digits(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(argv)
    assert exit_info.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("abgames ")
    assert "ASCII digits" in error or "must be an integer" in error


def _numeric_builtin_types(path: Path) -> list[str]:
    """``type=int`` / ``type=float`` in ``add_argument`` calls of one source file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument":
            for keyword in node.keywords:
                value = keyword.value
                builtin = isinstance(value, ast.Name) and value.id in ("int", "float")
                if keyword.arg == "type" and builtin:
                    found.append(f"{path.relative_to(SOURCE)}:{node.lineno}")
    return found


def test_no_option_parses_numbers_with_int_or_float() -> None:
    found = [hit for path in sorted(SOURCE.rglob("*.py")) for hit in _numeric_builtin_types(path)]
    assert found == []
