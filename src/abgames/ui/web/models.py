"""The API's request and response models (pydantic): what each field holds, for /docs too."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from abgames.ui.web.clocks import MAX_BASE_S, MAX_INCREMENT_S, MIN_BASE_S

#: Longest text accepted where a short name or a move is expected.
MAX_NAME = 40


class Request(BaseModel):
    """A request body: strict types (``"100"`` is no number, ``1.0`` no integer, ``true``
    no number) and no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid")


class ClockSetting(Request):
    """A Fischer clock: ``base_s`` each, plus ``increment_s`` after every move."""

    base_s: Annotated[int, Field(ge=MIN_BASE_S, le=MAX_BASE_S, description="seconds each")]
    increment_s: Annotated[
        int, Field(ge=0, le=MAX_INCREMENT_S, description="seconds added after each move")
    ] = 0


class CreateGame(Request):
    game: Annotated[str, Field(max_length=MAX_NAME, description="tictactoe, connect4 or gomoku")]
    mode: Annotated[
        str,
        Field(
            max_length=MAX_NAME,
            description="human-ai, human-human (one device), friend (a person on another "
            "device: the answer carries an invitation) or ai-ai",
        ),
    ] = "human-ai"
    first: Annotated[
        str,
        Field(
            max_length=MAX_NAME,
            description="who moves first: against the AI human or ai; against a friend me, "
            "friend or random",
        ),
    ] = "human"
    level: Annotated[
        str | None,
        Field(
            max_length=MAX_NAME,
            description="the AI's level (see /api/meta); default: the game's default level",
        ),
    ] = None
    options: Annotated[
        dict[Annotated[str, Field(max_length=MAX_NAME)], StrictInt | StrictStr],
        Field(
            max_length=4,
            description="board options: connect4 {width, height}; gomoku {size, rule}",
        ),
    ] = {}
    seed: Annotated[
        int | None,
        Field(ge=0, le=2**63 - 1, description="seed for the AI's choice among equal moves"),
    ] = None
    delay_ms: Annotated[
        int | None,
        Field(
            ge=0,
            le=60_000,
            description="AI vs AI: pause between moves, milliseconds (default 400)",
        ),
    ] = None
    clock: Annotated[
        ClockSetting | None,
        Field(description="a time control kept by the server (none: untimed)"),
    ] = None


class JoinRequest(Request):
    invite: Annotated[
        str, Field(max_length=100, description="the invitation token of the invitation link")
    ]


class OfferRequest(Request):
    kind: Annotated[
        Literal["draw", "takeback", "rematch"],
        Field(description="offer a draw, ask for a take-back, or offer a rematch (after the end)"),
    ]


class AnswerRequest(Request):
    accept: Annotated[bool, Field(description="accept (true) or decline the pending offer")]


class MoveRequest(Request):
    move: Annotated[
        StrictInt | Annotated[StrictStr, Field(max_length=MAX_NAME)],
        Field(
            description='the move: its text in the game\'s notation ("b2", "4", "h8") or '
            "its number (tictactoe cell 0..8, connect4 column 0.., gomoku y*size+x, y from the top)"
        ),
    ]
    version: Annotated[
        int | None,
        Field(description="the state version the move was chosen on; a stale one is refused"),
    ] = None


class ControlRequest(Request):
    action: Annotated[
        Literal["pause", "resume", "step"] | None,
        Field(description="pause, resume, or step (one move while paused)"),
    ] = None
    delay_ms: Annotated[
        int | None, Field(ge=0, le=60_000, description="pause between AI moves, milliseconds")
    ] = None


class MoveText(BaseModel):
    move: int = Field(description="the move's number")
    text: str = Field(description="the move in the game's notation")


class RootScore(MoveText):
    score: int = Field(description="the move's score, from the searching side's view")
    score_text: str = Field(description="the score in words")


class Analysis(BaseModel):
    move: int | None = Field(description="the move the search chose")
    text: str | None = Field(description="that move in the game's notation")
    score: int = Field(description="its score from the view of the side to move")
    score_text: str = Field(description='the score in words ("wins in 3 moves", "+12")')
    depth: int = Field(description="deepest completed iteration")
    nodes: int = Field(description="positions searched")
    elapsed: float = Field(description="seconds the search took")
    pv: list[MoveText] = Field(description="the expected line, from the searched position")
    root_scores: list[RootScore] = Field(description="every root move searched, best first")
    solved: bool = Field(description="whether the score is exact to the end of the game")
    note: str = Field(
        default="", description='what to tell beyond the numbers: "not solved, best heuristic move"'
    )
    view: int = Field(description="the side (0 or 1) whose view the scores take")
    why: str = Field(description="the choice explained in words")
    ply: int = Field(description="moves played before the searched position")
    hint: bool = Field(description="a hint for a human (true) or the AI's own move (false)")


class Progress(BaseModel):
    depth: int
    nodes: int
    elapsed: float
    move: int | None
    text: str | None
    score: int
    score_text: str
    pv: list[MoveText]
    note: str = Field(default="", description='a solver at work: "solving column 4"')


class Seat(BaseModel):
    kind: str = Field(description="human or ai")
    level: str | None = Field(description="the AI's level (null for a human)")


class Board(BaseModel):
    width: int
    height: int
    cells: list[int | None] = Field(
        description="each cell's owner (0, 1 or null), row by row, row 0 at the top"
    )
    last_cell: int | None = Field(description="the cell the last move filled")


class Outcome(BaseModel):
    winner: int | None = Field(description="0, 1, or null for a draw")
    line: list[int] = Field(description="cells of the winning line")
    how: str = Field(
        description="line, full-board, resignation, agreement, time, or time-no-win (out of "
        "time, but the other side could no longer win)"
    )
    reason: str = Field(description='how, in words: "five in a row", "White resigned"')
    text: str = Field(description='the banner: "Black wins: five in a row"')


class Offer(BaseModel):
    kind: str = Field(description="draw, takeback or rematch")
    by: int = Field(description="the seat that made it")


class People(BaseModel):
    between_devices: bool = Field(description="each seat has its own secret (mode friend)")
    joined: list[bool] = Field(description="whether each seat has been claimed")
    offer: Offer | None = Field(description="the pending offer")
    rematch: str | None = Field(description="the id of the rematch, once agreed")


class ReviewMark(BaseModel):
    ply: int = Field(description="the move's index (0 = the first move)")
    kind: str = Field(
        description="threw-win, threw-draw (exact games), missed-win, allowed-win, mistake (Gomoku)"
    )
    text: str = Field(description='in words: "threw away the win: a draw now (d4 kept the win)"')
    better: int | None = Field(description="the move the engine preferred")
    better_text: str | None
    by: str = Field(description="the player who made the move")


class ReviewPosition(BaseModel):
    ply: int = Field(description="moves played before the position")
    score: int = Field(description="from the side to move's view")
    score_text: str
    solved: bool
    best: int | None
    best_text: str | None
    graph: float = Field(description="the score from the first player's view, in [-1, 1]")


class ReviewResult(BaseModel):
    method: str = Field(description='"exact", or "threat solvers, then depth 6" (Gomoku)')
    plies: int = Field(description="the moves reviewed")
    complete: bool
    positions: list[ReviewPosition]
    marks: list[ReviewMark] = Field(description="the moves that changed the result")


class Review(BaseModel):
    status: str = Field(description="running or done")
    done: int = Field(description="positions scored")
    total: int = Field(description="positions in all (moves + 1)")
    result: ReviewResult | None


class ClockView(BaseModel):
    base_ms: int
    increment_ms: int
    left_ms: list[int] = Field(description="time each side has left, as of this answer")
    running: int | None = Field(description="the side whose clock runs")


class Forbidden(MoveText):
    reason: str = Field(description="the rule's words")


class State(BaseModel):
    id: str
    game: str
    options: dict[str, Any] = Field(description="board options (non-default ones)")
    mode: str
    first: str
    level: str
    version: int = Field(description="bumps on every change")
    seats: list[Seat] = Field(description="seat 0 moves first")
    board: Board
    moves: list[MoveText] = Field(description="the moves in order; player = index % 2")
    to_move: int
    last_move: int | None
    outcome: Outcome | None
    legal: list[int] = Field(description="moves a human may play now (empty otherwise)")
    forbidden: list[Forbidden] = Field(description="Renju: black's forbidden points")
    status: str = Field(description="your-turn, thinking, queued, paused or over")
    queue_position: int | None = Field(description="place in the search queue (1 = next)")
    paused: bool = Field(description="AI vs AI: paused")
    delay_ms: int = Field(description="AI vs AI: pause between moves")
    analysis: Analysis | None = Field(
        description="the hint for this position, else the last AI move's search"
    )
    message: str | None
    people: People
    clock: ClockView | None = Field(description="the time control, if the game has one")
    review: Review | None = Field(description="the engine's review, once asked for")
    you: int | None = Field(
        default=None,
        description="the seat the request's secret speaks for (null: every person's seat "
        "of a game on one device; absent in events and for watchers)",
    )


class Created(BaseModel):
    id: str = Field(description="the game's id (at least 128 random bits); its watch link")
    secret: str = Field(description="send it as the X-Game-Secret header on /api/games/{id}/*")
    seat: int | None = Field(description="the seat the secret speaks for (null: every seat)")
    invite: str | None = Field(
        description="a friend game: the token that claims the other seat, once (POST /join)"
    )
    state: State


class ErrorBody(BaseModel):
    error: str = Field(description="what went wrong, in the rules' words")
