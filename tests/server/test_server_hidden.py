"""No seat ever receives a tile hidden from it: not in a view, a log, an answer or an error."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from server_helpers import (
    Json,
    act,
    assert_nothing_hidden,
    auth,
    create,
    hidden_by_move,
    tokens_of,
    view,
    wait_view,
)


class Socket:
    """A websocket of one seat that keeps every message it received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[Json] = []

    def send(self, message: Json) -> None:
        self.ws.send_json(message)

    def next_view(self, until: Any) -> Json:
        """Read messages until a view satisfying ``until`` arrives."""
        while True:
            message: Json = self.ws.receive_json()
            self.messages.append(message)
            assert message["type"] != "error", message
            if message["type"] == "view" and until(message["view"]):
                view_: Json = message["view"]
                return view_


def test_no_seat_sees_another_seats_tiles(client: TestClient) -> None:
    # Online: seat 0 plays over its websocket, seat 1 over REST (with a websocket open too),
    # seat 2 is a computer; a spectator watches.
    created = create(client, ["human", "human", "average"], mode="online", seed=21)
    match_id, tokens = created["match_id"], tokens_of(created)
    rest: dict[int | None, list[Json]] = {0: [created], 1: [created], None: []}
    url = f"/ws/matches/{match_id}"
    with (client.websocket_connect(url) as ws0, client.websocket_connect(url) as ws1,
          client.websocket_connect(url) as wss):
        sockets: dict[int | None, Socket] = {0: Socket(ws0), 1: Socket(ws1), None: Socket(wss)}
        sockets[0].send({"type": "hello", "token": tokens[0]})
        sockets[1].send({"type": "hello", "token": tokens[1]})
        sockets[None].send({"type": "hello"})
        last = -1
        moves = 0
        while True:
            current = sockets[0].next_view(
                lambda v, last=last: v["finished"] or (v["move"] > last and v["to_move"] in (0, 1)))
            if current["finished"]:
                break
            if current["to_move"] == 0:
                sockets[0].send({"type": "action", "move": current["move"],
                                 "action": current["legal_actions"][0]["notation"]})
            else:
                mine = view(client, match_id, tokens[1])
                rest[1].append(mine)
                answer = act(client, match_id, tokens[1], mine["legal_actions"][0]["notation"],
                             mine["move"])
                assert answer.status_code == 200, answer.text
                rest[1].append(answer.json())
                # A wrong guess at another seat's tile gets an error naming only what was sent.
                wrong = act(client, match_id, tokens[1], "1-2-3@40,40/0", answer.json()["move"])
                rest[1].append(wrong.json())
                if moves % 7 == 0:  # pausing and resuming answer with the seat's view too
                    for paused in (True, False):
                        rest[1].append(client.post(f"/api/matches/{match_id}/pause",
                                                   headers=auth(tokens[1]),
                                                   json={"paused": paused}).json())
            rest[None].append(view(client, match_id))
            last = current["move"]
            moves += 1
        for seat in (1, None):
            sockets[seat].next_view(lambda v: v["finished"])
        rest[0].append(view(client, match_id, tokens[0]))
        rest[1].append(client.post("/api/my-games", json={"tokens": [tokens[1]]}).json())
    record = client.get(f"/api/matches/{match_id}/record").json()
    assert moves > 10 and len(record["actions"]) > moves
    hidden = hidden_by_move(record, [0, 1, None])
    assert all(hidden[k][0] for k in range(len(hidden) - 1))  # there is something to hide
    checked = 0
    for seat in (0, 1, None):
        checked += assert_nothing_hidden(sockets[seat].messages, seat, hidden)
        checked += assert_nothing_hidden(rest[seat], seat, hidden)
    assert checked > 1000
    # Each seat did see its own tiles, and its own draws' secrets.
    own = [m for m in sockets[0].messages if m["type"] == "view"]
    assert any(m["view"]["observation"]["hand"] for m in own)
    assert any("secret" in e for m in own for entry in m["view"]["log"]
               for e in entry["events"] if entry["player"] == 0)


def test_the_replay_shows_only_the_public_view(client: TestClient) -> None:
    created = create(client, ["novice", "average"], seed=5)
    match_id = created["match_id"]
    assert created["seats"][0]["token"] is None
    final = wait_view(client, match_id, None, lambda v: v["finished"])
    record = client.get(f"/api/matches/{match_id}/record").json()
    hidden = hidden_by_move(record, [None])
    steps = []
    for k in (0, 1, 2, final["move"] // 2, final["move"]):
        answer = client.get(f"/api/matches/{match_id}/replay/{k}")
        assert answer.status_code == 200, answer.text
        step = answer.json()
        assert step["move"] == k and step["total"] == final["move"]
        assert step["view"]["move"] == k and len(step["view"]["log"]) == k
        steps.append(step)
    assert_nothing_hidden(steps, None, hidden)
    assert steps[-1]["view"]["scores"] == final["scores"]
    assert steps[-1]["view"]["finished"] and not steps[0]["view"]["finished"]
    for k in (-1, final["move"] + 1):
        bad = client.get(f"/api/matches/{match_id}/replay/{k}")
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_request"
