"""The models of the contests' requests and answers (:mod:`triverse.server.contests`,
``docs/contests.md``). Requests forbid unknown keys and coercion; the answers' models are
exact, so that the tests that validate what the server sends notice any drift from the
documented shape.

>>> NewContestRequest.model_validate_json(
...     '{"title": "Cup", "game": "trident", "signup_closes": "2026-12-04T12:00:00Z"}'
... ).turn_seconds
86400
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from triverse.server.schemas import Exact, Integer

Reward = Annotated[Integer, Field(ge=0, le=1_000_000)]


class NewContestRequest(BaseModel):
    """A host's new contest."""

    model_config = ConfigDict(extra="forbid", strict=True)
    title: str = Field(min_length=1, max_length=80)
    game: str = Field(max_length=32)
    options: dict[str, Any] = Field(default_factory=dict, max_length=16,
                                    description="the boards' game options (not time_limit)")
    players_per_board: Integer | None = Field(None, ge=1, le=16, description="left out: "
                                              "min(4, the game's most)")
    turn_seconds: Integer = Field(86400, ge=1, le=30 * 86400, description="seconds a turn, "
                                  "in a game with a time-out rule (ignored otherwise)")
    signup_closes: Annotated[AwareDatetime, Field(strict=False)] = Field(
        description="ISO 8601 with its offset")
    rewards: list[Reward] = Field(default_factory=list, max_length=16)
    reward_name: str = Field("points", min_length=1, max_length=16)


class CreatedContest(Exact):
    """A new contest's id and page."""

    id: str
    link: str = Field(description="/contests/{id}")


class SignUpRequest(BaseModel):
    """A sign-up: a guest's name (ignored for an account)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = Field(None, max_length=40)


class SignedUpAnswer(Exact):
    """A new entrant's number, name and secret (shown once) and personal link."""

    entry: int
    name: str
    secret: str
    link: str = Field(description="/contests/{id}#me={secret}")


class ComputerRequest(BaseModel):
    """A computer entrant the host adds."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["novice", "average", "veteran"]
    name: str | None = Field(None, max_length=40)


class AnnouncementRequest(BaseModel):
    """A host's announcement."""

    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(min_length=1, max_length=500)


class Announcement(Exact):
    """An announcement as the contest lists it."""

    at: str = Field(description="ISO 8601, UTC")
    text: str


class Entry(Exact):
    """An entrant."""

    entry: int
    name: str
    kind: str = Field(description="human, or a computer level")
    account: bool
    removed: bool
    board: int | None
    seat: int | None


class MyEntry(Exact):
    """The viewer's own entry (``me``)."""

    entry: int
    board: int | None
    seat: int | None
    removed: bool


class MeAnswer(Exact):
    """``GET /api/contests/{id}/me``: an entrant's own entry and seat."""

    entry: int
    name: str
    board: int | None
    seat: int | None
    play: str | None = Field(description="/play/{match}?seat={seat} once the boards started")
    removed: bool


class BoardSeat(Exact):
    """A seat of a board."""

    seat: int
    entry: int | None
    name: str
    kind: str
    removed: bool
    score: int
    missed: int
    """Turns the seat missed (time-outs; a removed entrant's passed turns count too)."""
    place: int | None
    reward: int | None


class Board(Exact):
    """A board of a contest."""

    board: int
    match_id: str
    watch: str
    status: Literal["active", "finished"]
    move: int
    to_move: int | None
    to_move_name: str | None
    deadline: str | None
    seats: list[BoardSeat]


class StandingLine(Exact):
    """An entrant's line of the overall table."""

    entry: int
    name: str
    board: int
    place: int | None
    reward: int | None
    score: int
    removed: bool


class Draw(Exact):
    """The commitment to the draw, and its seed and salt once it is made."""

    commitment: str
    seed: int | None
    salt: str | None


class Contest(Exact):
    """A contest (``GET /api/contests/{id}``, and the websocket's ``contest``)."""

    id: str
    title: str
    game: str
    game_title: str
    options: dict[str, Any]
    players_per_board: int
    turn_seconds: int | None
    signup_closes: str
    status: Literal["signup", "running", "finished", "cancelled"]
    cancel_reason: str | None
    host: str
    is_host: bool
    rewards: list[int]
    reward_name: str
    entries: list[Entry]
    boards: list[Board]
    standings: list[StandingLine]
    announcements: list[Announcement]
    draw: Draw
    me: MyEntry | None


class ContestSummary(Exact):
    """A contest as lists show it."""

    id: str
    title: str
    game: str
    game_title: str
    status: Literal["signup", "running", "finished", "cancelled"]
    entrants: int
    signup_closes: str
    host: str


class ContestList(Exact):
    """``GET /api/contests``: the newest contests first, at most 100."""

    contests: list[ContestSummary]


class ContestMessage(Exact):
    """Contest websocket: the contest, at once and after every change."""

    type: Literal["contest"]
    contest: Contest

