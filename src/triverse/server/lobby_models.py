"""The models of the open games' requests and answers (:mod:`triverse.server.lobby`): taking a
seat, the lobby's list over REST and its websocket's message. Like the view's, the lobby's
models forbid unknown keys and coercion, so that the tests that validate what the server sends
notice any drift from ``docs/protocol.md`` ("Open games").

>>> JoinRequest.model_validate_json('{"seat": 1.0}').seat
1
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from triverse.server.schemas import Exact, Integer


class JoinRequest(BaseModel):
    """Take a seat of an open game."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seat: Integer | None = Field(None, ge=0, description="the free seat to take; left out: the "
                                 "first free one")
    name: str | None = Field(None, max_length=40, description="a guest's name at the table "
                             "(left out: the seat's, Player N); logged in, the account's name "
                             "is taken instead")


class JoinAnswer(BaseModel):
    """A seat of an open game taken: its secret token, shown once."""

    match_id: str
    seat: int
    token: str
    link: str = Field(description="/play/{match_id}?seat={seat}#{token}")
    started: bool = Field(description="this was the last free seat: the game has started")


class LobbySeat(Exact):
    """A seat of an open game, as the lobby shows it."""

    seat: int
    name: str
    kind: str = Field(description="human, or a computer level")
    free: bool = Field(description="nobody has taken it yet: join it")
    account: bool = Field(description="it belongs to an account, whose name it bears")


class LobbyGame(Exact):
    """An open game: a match waiting for players to take its free seats."""

    match_id: str
    game: str
    title: str
    options: dict[str, int | bool | str]
    players: int = Field(description="how many seats the match has")
    seats: list[LobbySeat]
    free: int = Field(description="how many seats are free")
    waiting: list[str] = Field(description="the names of the players who have taken a seat")
    pace: Literal["live", "correspondence"] | None
    time_limit: int | None = Field(description="seconds per turn; null: untimed")
    rated: bool
    created_at: str = Field(description="ISO 8601, UTC")


class LobbyAnswer(Exact):
    """The open games, newest first (at most 100)."""

    games: list[LobbyGame]


class OpenGamesMessage(Exact):
    """Lobby websocket: the open games, at once and after every change."""

    type: Literal["open_games"]
    games: list[LobbyGame]
