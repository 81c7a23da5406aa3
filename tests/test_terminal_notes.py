"""The terminal tells a person what a result's ``note`` says: a perfect move that is not solved."""

from __future__ import annotations

from abgames.ai.connect4.perfect import PerfectPlayer
from abgames.ai.player import AIPlayer
from abgames.games.connect4 import ConnectFour
from abgames.match import AI, Match, seats_for
from abgames.search.result import NOT_SOLVED
from abgames.ui.terminal import explain, format_result


def fallback_player(_game: str, _level: str, _seed: int | None) -> AIPlayer:
    """A perfect player whose solver gives up at once: every move is a fallback."""
    return PerfectPlayer(
        book=None,
        strategy=None,
        level_book=None,
        table_bits=16,
        node_limit=1000,
        fallback_seconds=0.2,
    )


def test_the_ai_move_line_and_why_say_not_solved() -> None:
    match = Match(
        ConnectFour.from_notation("44"),
        seats_for("human-ai", AI, "perfect"),
        player_factory=fallback_player,
    )
    result = match.ai_move()
    assert result.note == NOT_SOLVED
    assert format_result(match, result).endswith("; not solved, best heuristic move")
    assert "not solved, best heuristic move" in explain(match).splitlines()[0]


def test_a_solved_move_has_no_note() -> None:
    late = ConnectFour.from_notation("2252576253462244111563365343671351")
    match = Match(late, seats_for("human-ai", AI, "perfect"))
    result = match.ai_move()
    assert result.solved and result.note == ""
    assert "not solved" not in format_result(match, result)
