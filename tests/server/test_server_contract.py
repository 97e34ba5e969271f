"""The websocket contract: whole games of every game played over the websocket, with every
message the server sends validated against the models of ``triverse.server.ws_models``.

The server builds its messages as plain dicts; these tests are what keeps them and the models
(which forbid unknown keys and coercion) the same. A seat plays each game to the end against a
computer, first sending one of every other client message (ping, sync, pause and resume, a
preview, an unknown type, a stale action), and two spectators' sockets, read at the end, are
held to the same models: one gets whole views, the other asked for ``changes`` after its first
view, and the changes it applies rebuild the view it is sent when it asks again.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from server_helpers import tokens_of
from starlette.testclient import WebSocketTestSession

from triverse.games import available_games
from triverse.server.fanout import apply_changes
from triverse.server.schemas import View
from triverse.server.ws_models import (
    CLIENT_MESSAGE,
    SERVER_MESSAGE,
    ErrorMessage,
    ServerMessage,
    ViewMessage,
)

SHORT: dict[str, dict[str, Any]] = {
    "trinity": {"rounds": 1},
    "triangles": {"stars": 24},
    "trivinity": {"turn_limit": 5},
    "trident": {},
    "triominoes": {"target": 60},
}
"""Options that keep each game short."""


class Socket:
    """A websocket of the test client whose every received message is validated."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.kinds: Counter[str] = Counter()

    def send(self, message: dict[str, Any], valid: bool = True) -> None:
        """Send a message; a ``valid`` one must fit the client models."""
        if valid:
            CLIENT_MESSAGE.validate_python(message)
        self.ws.send_json(message)

    def receive(self) -> ServerMessage:
        """The next message, validated (a failure names the message)."""
        raw = self.ws.receive_json()
        try:
            message = SERVER_MESSAGE.validate_python(raw)
        except ValidationError as exc:
            raise AssertionError(f"{raw!r} breaks the contract: {exc}") from None
        self.kinds[message.type] += 1
        return message

    def until(self, kind: str) -> list[ServerMessage]:
        """Every message up to and including the first of type ``kind``."""
        seen = [self.receive()]
        while seen[-1].type != kind:
            seen.append(self.receive())
        return seen


def exercise(socket: Socket, first: View) -> None:
    """Send one of every client message but an action; check the answers' shapes."""
    socket.send({"type": "ping", "id": "k1"})
    pong = socket.until("pong")[-1]
    assert pong.type == "pong" and pong.id == "k1"
    socket.send({"type": "sync"})
    assert socket.until("view")[-1].type == "view"
    socket.send({"type": "stop", "id": 5}, valid=False)
    error = socket.until("error")[-1]
    assert isinstance(error, ErrorMessage) and error.code == "bad_request" and error.id == 5
    socket.send({"type": "preview", "action": "?", "id": "p"})
    answer = socket.receive()
    while answer.type == "view":
        answer = socket.receive()
    assert answer.type in ("preview_result", "error") and answer.id == "p"
    socket.send({"type": "action", "action": "?", "move": first.move + 1000, "id": "s"})
    stale = socket.until("error")[-1]
    assert isinstance(stale, ErrorMessage) and stale.code == "stale_move" and stale.id == "s"
    for paused in (True, False):
        socket.send({"type": "pause", "paused": paused})


def play(socket: Socket, game: str) -> View:
    """Play the seat (the first legal action each turn) until the game ends; in Trident,
    preview each action first."""
    acted: set[int] = set()
    while True:
        message = socket.receive()
        if isinstance(message, ErrorMessage):
            raise AssertionError(f"refused: {message}")
        if not isinstance(message, ViewMessage):
            continue
        view = message.view
        if view.finished:
            return view
        if not view.your_turn or view.move in acted:
            continue
        acted.add(view.move)
        notation = view.legal_actions[0].notation
        if game == "trident":
            socket.send({"type": "preview", "action": notation, "move": view.move,
                         "id": f"p{view.move}"})
        socket.send({"type": "action", "action": notation, "move": view.move, "id": view.move})


@pytest.mark.parametrize("game", available_games())
def test_every_websocket_message_fits_the_models(client: TestClient, game: str) -> None:
    created = client.post("/api/matches", json={
        "game": game, "options": SHORT[game], "seed": 5, "mode": "computer",
        "seats": [{"kind": "human"}, {"kind": "novice"}]}).json()
    match_id, token = created["match_id"], tokens_of(created)[0]
    path = f"/ws/matches/{match_id}"
    with client.websocket_connect(path) as seat_ws, client.websocket_connect(path) as watch_ws, \
            client.websocket_connect(path) as changes_ws:
        seat, watcher, follower = Socket(seat_ws), Socket(watch_ws), Socket(changes_ws)
        watcher.send({"type": "hello"})
        follower.send({"type": "hello", "log": 10, "changes": True})
        seat.send({"type": "hello", "token": token, "seat": 0, "log": 30})
        first = seat.receive()
        assert isinstance(first, ViewMessage) and first.view.seat == 0
        exercise(seat, first.view)
        final = play(seat, game)
        watcher.send({"type": "sync"})
        watcher.send({"type": "ping", "id": "end"})
        seen = watcher.until("pong")
        follower.send({"type": "ping", "id": "changes"})
        followed = [follower.ws.receive_json()]
        while followed[-1]["type"] != "pong":
            SERVER_MESSAGE.validate_python(followed[-1])
            followed.append(follower.ws.receive_json())
        follower.send({"type": "sync"})
        synced = follower.receive()
    assert final.result is not None and final.result.scores == final.scores
    assert len(final.log) <= 30
    assert {"view", "accepted", "error", "pong"} <= set(seat.kinds), seat.kinds
    if game == "trident":
        assert seat.kinds["preview_result"] > 0
    views = [m.view for m in seen if isinstance(m, ViewMessage)]
    assert views and views[-1].finished and all(v.seat is None for v in views)
    assert set(watcher.kinds) == {"view", "pong"}, watcher.kinds
    assert followed[0]["type"] == "view" and {m["type"] for m in followed[1:-1]} == {"changes"}
    held = followed[0]["view"]
    for message in followed[1:-1]:
        held = apply_changes(held, message, 10)
    assert isinstance(synced, ViewMessage) and synced.view.model_dump(exclude_none=False) == (
        View.model_validate(held).model_dump(exclude_none=False))
    for token_or_none in (token, None):  # the REST view is the same document
        headers = {} if token_or_none is None else {"X-Seat-Token": token_or_none}
        View.model_validate(client.get(f"/api/matches/{match_id}/view",
                                       headers=headers).json())


def test_the_models_refuse_what_the_server_must_not_send() -> None:
    """The contract means something: unknown keys, a missing ``id`` and coerced types fail."""
    good = {"type": "accepted", "id": 1, "move": 2, "action": "pass"}
    SERVER_MESSAGE.validate_python(good)
    for bad in ({**good, "extra": True}, {k: v for k, v in good.items() if k != "id"},
                {**good, "move": "2"}, {**good, "type": "accept"}):
        with pytest.raises(ValidationError):
            SERVER_MESSAGE.validate_python(bad)
