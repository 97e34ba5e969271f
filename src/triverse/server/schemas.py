"""Pydantic models of the REST requests and answers (they make FastAPI's OpenAPI docs); the
websocket's messages are in :mod:`triverse.server.ws_models`.

The view is built as a plain dict by :func:`triverse.server.views.render_view` and sent as is,
so that REST answers and websocket messages are byte-for-byte the same shape; :class:`View`
documents it. The view's models forbid unknown keys and take no type coercion, so that a
contract test that validates what the server sends notices any key or type that drifts from
them.

>>> ActionRequest.model_validate_json('{"action": "draw", "move": 401.0}').move
401
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

Mode = Literal["computer", "hotseat", "online", "open"]

MAX_ACTION = 1000
"""The longest action notation a client may send (over REST and the websocket alike)."""


def whole(value: Any) -> Any:
    """``value``, as an ``int`` if it is a float with no fraction (JSON has one number type:
    ``401.0`` is the integer 401); anything else unchanged, for the strict check that follows.

    >>> whole(401.0), whole(401.5), whole(True), whole("3")
    (401, 401.5, True, '3')
    """
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integer = Annotated[int, BeforeValidator(whole)]
"""A JSON integer in a request: ``3`` or ``3.0``, never ``"3"``, ``true`` or ``3.5``."""


class Exact(BaseModel):
    """A model that forbids unknown keys and coercion (for what the server sends)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ChoiceLabelInfo(BaseModel):
    """A choice of an option in words: its label and a one-line explanation (English)."""

    value: int | bool | str
    label: str
    explanation: str


class OptionInfo(BaseModel):
    """One game option, as ``OptionSpec.to_json`` gives it."""

    name: str
    type: str = Field(description="int, bool or str")
    default: int | bool | str
    help: str
    choices: list[int | str] | None
    minimum: int | None
    maximum: int | None
    label: str = Field("", description="the option's name for a player (English)")
    choice_labels: list[ChoiceLabelInfo] = Field(
        default=[], description="each choice's label and explanation, in the choices' order")


class GameInfo(BaseModel):
    """An installed game; the details are ``null`` while it is coming soon."""

    name: str
    title: str
    summary: str
    available: bool
    min_players: int | None = None
    max_players: int | None = None
    default_players: int | None = None
    options: list[OptionInfo] = []
    variants: dict[str, str] = {}
    messages: dict[str, str] = Field(default={}, description="English templates of the game's "
                                     "message codes (docs/messages.md), for clients to render "
                                     "events and refusals")
    think_default: float | None = Field(default=None, description="seconds the veteran "
                                        "thinks about a move in this game when its seat names no "
                                        "think")
    view: str | None = Field(default=None, description="URL path of the ES module that "
                             "gives the game its table in the browser; null: no table there")
    rules: str | None = Field(default=None, description="URL path of the game's rules page")


class ThinkInfo(BaseModel):
    """Which computer levels take a thinking time per move, and its range in seconds."""

    levels: list[str] = Field(description="the levels that search (the veteran)")
    minimum: float
    maximum: float


class GamesAnswer(BaseModel):
    """The lobby: every game, the computer levels and the match modes."""

    games: list[GameInfo]
    levels: list[str] = Field(description="computer levels a seat's kind may name")
    think: ThinkInfo = Field(description="the levels a seat's think may be given for, and "
                             "its range")
    modes: list[str]


class SeatSpec(BaseModel):
    """A seat of a new match."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: str = Field("human", description="human, or a computer level (novice, average, "
                      "veteran)")
    name: str | None = Field(None, description="display name (default: Player N / Average N)")
    think: float | None = Field(None, description="seconds a computer seat that searches (the "
                                "veteran; see think.levels of GET /api/games) may think about "
                                "each move, from 0.2 to 5; null or left out: the game's default "
                                "(0.8 s). Refused (bad_seats) for a human seat, a level that "
                                "does not search, or a value out of range")


class CreateMatch(BaseModel):
    """A new match."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(description="a game's machine name, as GET /api/games lists it")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="game options; missing ones take defaults")
    seats: list[SeatSpec] = Field(min_length=1, max_length=16,
                                  description="one entry per seat, in seat order")
    mode: Mode = "computer"
    seed: Integer | None = Field(None, description="only where the server allows chosen "
                                 "seeds")
    rated: bool = Field(False, description="the match counts for ratings when it ends "
                        "(logged in only; never in hot-seat)")
    pace: Literal["live", "correspondence"] | None = Field(
        None, description="how fast turns are meant to go; null: live for a turn limit under "
        "an hour, else correspondence")


class CreatedSeat(BaseModel):
    """A seat of a new match, with its secret token (human seats only; in an open game, the
    creator's only: the other human seats are free until taken from the lobby)."""

    seat: int
    name: str
    kind: str
    think: float | None = Field(description="the computer seat's thinking time per move, in "
                                "seconds; null: the game's default (and for humans)")
    token: str | None
    link: str | None = Field(description="/play/{match_id}?seat={seat}#{token}")
    url: str | None = Field(description="the link made absolute with this server's address")


class MatchCreated(BaseModel):
    """The answer to creating a match."""

    match_id: str
    game: str
    mode: Mode
    seats: list[CreatedSeat]
    spectator_link: str
    spectator_url: str


class ActionRequest(BaseModel):
    """An intended action."""

    model_config = ConfigDict(extra="forbid", strict=True)
    action: str = Field(max_length=MAX_ACTION, description="the action in the game's notation")
    move: Integer = Field(ge=0, description="the view's 'move' the player acted on")


class PreviewRequest(BaseModel):
    """A tentative action to score, without playing it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    action: str = Field(max_length=MAX_ACTION, description="the tentative action in notation")
    move: Integer | None = Field(None, ge=0, description="the view's 'move' (optional): when "
                                 "given, a preview of an older position is refused (stale_move)")


class PreviewAnswer(BaseModel):
    """The engine's preview of a tentative action (``state.preview(action).to_json()``)."""

    move: int = Field(description="the move number the preview is for")
    preview: dict[str, Any] = Field(description="the game's own preview; for Trident: play, "
                                    "legal, reason, points, items (each line and bonus), bis")


class HintRequest(BaseModel):
    """A request for the veteran's suggested move."""

    model_config = ConfigDict(extra="forbid", strict=True)
    move: Integer | None = Field(None, ge=0, description="the view's 'move' (optional): when "
                                 "given, a hint for an older position is refused (stale_move)")


class HintAnswer(BaseModel):
    """The veteran's suggested move for the seat to move."""

    move: int = Field(description="the move number the hint is for")
    hint: LegalAction = Field(description="the suggested action, as in the view's "
                              "legal_actions: notation, kind, description, fields")


class ReviewedMove(BaseModel):
    """A decision where the veteran would have played differently."""

    index: int = Field(description="the action's place in the game (0: the first)")
    move: int = Field(description="the replay step of the position it was chosen in "
                      "(GET replay/{move}); the same as index")
    seat: int
    played: str = Field(description="the notation played")
    played_description: str
    suggested: str = Field(description="the veteran's move, in notation")
    suggestion: LegalAction = Field(description="the veteran's move with its fields, to "
                                    "highlight it on the replayed position")
    points_lost: float = Field(description="the veteran's estimate of the points the played "
                               "move gave away against its own (never negative)")
    played_value: float
    best_value: float
    worlds: int = Field(description="how many sampled worlds (or search rounds) the "
                        "estimate rests on")


class ReviewedSeat(BaseModel):
    """What the review of one seat covered."""

    seat: int
    decisions: int = Field(description="the seat's decisions with a choice (forced moves "
                           "are not reviewed)")
    budget: float = Field(description="seconds the veteran thought about each decision")
    points_lost: float = Field(description="the sum of the listed moves' points_lost")


class ReviewAnswer(BaseModel):
    """The veteran's review of a finished match."""

    match_id: str
    seat: int | None = Field(description="the token's seat; null: every seat (a spectator)")
    total: int = Field(description="how many actions the game had")
    seats: list[ReviewedSeat]
    moves: list[ReviewedMove] = Field(description="oldest first")


class PauseRequest(BaseModel):
    """Pause or resume the computer players."""

    model_config = ConfigDict(extra="forbid", strict=True)
    paused: bool


class MyGamesRequest(BaseModel):
    """The seat tokens a browser holds."""

    model_config = ConfigDict(extra="forbid", strict=True)
    tokens: list[str] = Field(max_length=1000)


class ResultInfo(Exact):
    """Final standings: scores and places (1 is first; ties share a place)."""

    scores: list[int]
    ranks: list[int]


class GameRef(Exact):
    """The game of a match, with its resolved options."""

    name: str
    title: str
    players: int
    options: dict[str, int | bool | str]
    preview: bool = Field(description="the game offers score previews of tentative actions")


class PlayerView(Exact):
    """A seat as everyone sees it."""

    seat: int
    name: str
    kind: str
    think: float | None = Field(description="a computer seat's thinking time per move, in "
                                "seconds, as the match was created with; null: the game's "
                                "default (and for humans)")
    connected: bool = Field(description="a websocket of this seat is open; computers: true")
    account: bool = Field(description="the seat belongs to an account, whose name it bears "
                          "(its profile: /players/{name})")
    free: bool = Field(description="nobody has taken this seat of an open game yet")
    deleted: bool = Field(description="the seat's account was deleted: show it as "
                          "\"deleted player\"")


class LegalAction(Exact):
    """A legal action of the seat to move."""

    notation: str = Field(description="send this as 'action'")
    kind: str = Field(description="the action's type in lower case: place, draw, pass ...")
    description: str
    fields: dict[str, Any] | None = Field(description="the action's fields, in JSON types")
    notes: dict[str, Any] | None = Field(
        None, description="what the game says beside the action, where it says anything "
        "(docs/protocol.md, legal_actions)")


class EventView(Exact):
    """An event (``Event.to_json(viewer)``); ``secret`` appears only for its own player."""

    kind: str
    player: int | None
    points: int
    label: str
    data: dict[str, Any]
    code: str = Field(description="the message code (docs/messages.md)")
    params: dict[str, Any] = Field(description="the message's parameters, JSON values")
    secret: dict[str, Any] | None = Field(None, description="absent unless yours")


class LogItem(Exact):
    """One move of the log."""

    move: int = Field(description="its number, from 0")
    player: int
    events: list[EventView]
    action: str | None = Field(None, description="its notation: absent unless you played it")


class View(Exact):
    """What one seat (or a spectator) sees of a match; pushed as websocket ``view``."""

    match_id: str
    game: GameRef
    mode: Mode
    rated: bool = Field(description="the match counts for ratings when it ends")
    pace: Literal["live", "correspondence"] | None = Field(
        description="how fast turns are meant to go; null for a match made before paces")
    commitment: str | None = Field(
        description="the SHA-256 (hex) committing to the match's seed and deal under a secret "
                    "salt, revealed in the record at the end (docs/records.md); null for a "
                    "match made before commitments")
    seat: int | None = Field(description="whose view this is; null for a spectator")
    players: list[PlayerView]
    move: int = Field(description="actions played so far: send it with your next action")
    to_move: int | None
    your_turn: bool
    time_limit: int | None = Field(description="seconds per turn; null: turns are not timed")
    deadline: str | None = Field(description="when the current turn times out (ISO 8601, "
                                 "UTC); null when no clock runs")
    paused: bool
    finished: bool
    result: ResultInfo | None
    scores: list[int]
    observation: dict[str, Any] = Field(description="state.observation(seat).to_json()")
    legal_actions: list[LegalAction] = Field(description="empty unless your_turn")
    log: list[LogItem]


class ActionAccepted(BaseModel):
    """An action stored and applied."""

    accepted: bool = True
    move: int = Field(description="the number the action was stored under")
    action: str = Field(description="its notation, as stored")
    view: View = Field(description="your view after it")


class ReplayStep(BaseModel):
    """The public view after ``move`` actions of a finished match."""

    match_id: str
    move: int
    total: int
    view: View


class MyGame(BaseModel):
    """A match one of the given tokens opens."""

    match_id: str
    game: str
    title: str
    mode: Mode
    seat: int
    name: str
    link: str
    players: list[dict[str, Any]] = Field(description="every seat: seat, name, kind, think")
    move: int
    to_move: int | None
    your_turn: bool
    paused: bool
    finished: bool
    result: ResultInfo | None
    deadline: str | None = Field(description="when the current turn times out, if timed")
    created_at: str
    updated_at: str


class MyGames(BaseModel):
    """The answer of "my games", and of an account's games."""

    matches: list[MyGame]


class ClaimRequest(BaseModel):
    """The guest seat tokens a browser holds, to claim into the logged-in account."""

    model_config = ConfigDict(extra="forbid", strict=True)
    tokens: list[Annotated[str, Field(max_length=256)]] = Field(max_length=100)


class SeatRef(Exact):
    """A seat of a match."""

    match_id: str
    seat: int


class RefusedSeat(Exact):
    """A seat a claim could not take, and why."""

    match_id: str
    seat: int
    reason: str


class Claimed(Exact):
    """What a claim did: the seats that now belong to the account, and those it kept out
    (a second seat of a rated match)."""

    claimed: list[SeatRef]
    refused: list[RefusedSeat]


class Reason(Exact):
    """An engine's refusal as a message code (docs/messages.md) with parameters."""

    code: str
    params: dict[str, Any]


class ErrorBody(BaseModel):
    """What went wrong."""

    code: str
    message: str
    reason: Reason | None = Field(None, description="with illegal_action and game_over from "
                                  "the engine: the refusal's message code")


class ErrorAnswer(BaseModel):
    """Every refusal: ``{"error": {"code": ..., "message": ...}}``."""

    error: ErrorBody
