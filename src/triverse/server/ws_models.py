"""Pydantic models of every websocket message (``/ws/matches/{id}``), client's and server's.

They forbid unknown keys and take no type coercion, so that a contract test that validates
what the server sends (every :data:`ServerMessage`, through :data:`SERVER_MESSAGE`) notices
any key or type that drifts from them. The view they carry is
:class:`triverse.server.schemas.View`.

>>> SERVER_MESSAGE.validate_python({"type": "pong", "id": "k1",
...                                 "server_time": "2026-12-01T09:59:12.345Z"}).id
'k1'
>>> CLIENT_MESSAGE.validate_python({"type": "sync"}).type
'sync'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from triverse.server.schemas import (
    MAX_ACTION,
    Exact,
    GameRef,
    Integer,
    LegalAction,
    LogItem,
    Mode,
    PlayerView,
    Reason,
    ResultInfo,
    View,
)

# --- the websocket ---------------------------------------------------------------------------
RequestId = Annotated[Any, Field(description="the client's 'id' of the message this answers "
                                 "(any JSON value; null when it had none)")]
ServerTime = Annotated[str, Field(description="the server's clock (ISO 8601, UTC, to the "
                                  "millisecond)")]


class HelloMessage(BaseModel):
    """Client: the first message, with the seat's token (none: a spectator)."""

    type: Literal["hello"]
    token: str | None = Field(None, description="the seat's token; none or null to watch")
    seat: Integer | None = Field(None, ge=0, description="the seat the token should open")
    log: Integer | None = Field(None, ge=0, description="send only the last so many log entries")
    changes: bool = Field(False, description="after the first view, send only what changed "
                          "(changes messages) instead of whole views")


class ActionMessage(BaseModel):
    """Client: play an action for the connection's seat."""

    type: Literal["action"]
    action: str = Field(max_length=MAX_ACTION, description="the action in the game's notation")
    move: Integer = Field(description="the view's 'move' the player acted on")
    id: Any = None


class PreviewMessage(BaseModel):
    """Client: score a tentative action without playing it."""

    type: Literal["preview"]
    action: str = Field(max_length=MAX_ACTION, description="the tentative action in notation")
    move: Integer | None = Field(None, description="the view's 'move' (optional)")
    id: Any = None


class PauseMessage(BaseModel):
    """Client: pause (true) or resume (false) the computer players."""

    type: Literal["pause"]
    paused: bool
    id: Any = None


class SyncMessage(BaseModel):
    """Client: send the current view again."""

    type: Literal["sync"]
    id: Any = None


class PingMessage(BaseModel):
    """Client: a keep-alive, answered with ``pong``."""

    type: Literal["ping"]
    id: Any = None


ClientMessage = Annotated[
    HelloMessage | ActionMessage | PreviewMessage | PauseMessage | SyncMessage | PingMessage,
    Field(discriminator="type"),
]
"""Any message a client sends over the websocket."""
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
"""Validates a client message (the server checks them by hand, with its own error texts)."""


class ViewMessage(Exact):
    """Server: this connection's view, after ``hello`` and whenever it changes."""

    type: Literal["view"]
    view: View
    server_time: ServerTime


class ViewChanges(Exact):
    """The fields of a :class:`View` whose value changed (each absent if it did not)."""

    match_id: str | None = None
    game: GameRef | None = None
    mode: Mode | None = None
    rated: bool | None = None
    pace: Literal["live", "correspondence"] | None = None
    commitment: str | None = None
    seat: int | None = None
    players: list[PlayerView] | None = None
    move: int | None = None
    to_move: int | None = None
    your_turn: bool | None = None
    time_limit: int | None = None
    deadline: str | None = None
    paused: bool | None = None
    finished: bool | None = None
    result: ResultInfo | None = None
    scores: list[int] | None = None
    observation: dict[str, Any] | None = None
    legal_actions: list[LegalAction] | None = None


class ChangesMessage(Exact):
    """Server: what changed in this connection's view since the last ``view`` or ``changes``
    it sent (only to a client whose ``hello`` said ``changes``)."""

    type: Literal["changes"]
    move: int = Field(description="the view's move number after the changes")
    changes: ViewChanges = Field(description="every field but the log whose value changed, "
                                 "with its new value")
    log: list[LogItem] = Field(description="the log entries to append (then keep only the "
                               "last 'log' entries, if the hello asked for a limit)")
    server_time: ServerTime


class AcceptedMessage(Exact):
    """Server: the action is stored and applied (before any view that shows it)."""

    type: Literal["accepted"]
    id: RequestId
    move: int = Field(description="the number the action was stored under")
    action: str = Field(description="its notation, as stored")


class PreviewResultMessage(Exact):
    """Server: the answer to ``preview``."""

    type: Literal["preview_result"]
    id: RequestId
    move: int = Field(description="the move number the preview is for")
    preview: dict[str, Any] = Field(description="the game's own preview")


class PongMessage(Exact):
    """Server: the answer to ``ping``."""

    type: Literal["pong"]
    id: RequestId
    server_time: ServerTime


class ErrorMessage(Exact):
    """Server: a message was refused and nothing changed (or the ``hello`` failed, and the
    socket closes)."""

    type: Literal["error"]
    code: str = Field(description="one of the error codes of docs/protocol.md")
    message: str
    reason: Reason | None = Field(None, description="with illegal_action and game_over from "
                                  "the engine: the refusal's message code")
    id: RequestId
    retry_after: int | None = Field(None, description="with rate_limited: the seconds after "
                                    "which the same message may be accepted")


ServerMessage = Annotated[
    ViewMessage | ChangesMessage | AcceptedMessage | PreviewResultMessage | PongMessage
    | ErrorMessage,
    Field(discriminator="type"),
]
"""Any message the server sends over the websocket."""
SERVER_MESSAGE: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
"""Validates a server message (the contract test runs every message sent through it)."""
