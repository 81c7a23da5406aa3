"""The /api/puzzles request models (pydantic, strict): what each field holds, for /docs."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictInt, StrictStr

from abgames.ui.web.models import MAX_NAME, Request

#: Longest puzzle id accepted.
MAX_PUZZLE_ID = 24


class NextPuzzle(Request):
    """Start a puzzle: the one named, else one near the player's rating."""

    game: Annotated[
        Literal["gomoku", "connect4"] | None,
        Field(description="only puzzles of this game (gomoku or connect4); none: either"),
    ] = None
    id: Annotated[
        str | None,
        Field(
            max_length=MAX_PUZZLE_ID,
            description="this puzzle (a retry, or a link); none: chosen near the rating",
        ),
    ] = None


class PuzzleMove(Request):
    """A move in the puzzle in progress."""

    puzzle: Annotated[
        str, Field(max_length=MAX_PUZZLE_ID, description="the id of the puzzle in progress")
    ]
    move: Annotated[
        StrictInt | Annotated[StrictStr, Field(max_length=MAX_NAME)],
        Field(
            description="the move: its text (h8, or a Connect Four column 1..7) or its "
            "number (Gomoku y*size+x with y from the top; Connect Four column 0..6)"
        ),
    ]


class PuzzleHint(Request):
    """Ask for the engine's winning move in the puzzle in progress."""

    puzzle: Annotated[
        str, Field(max_length=MAX_PUZZLE_ID, description="the id of the puzzle in progress")
    ]
