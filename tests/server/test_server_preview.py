"""Score previews of tentative plays, over REST and the websocket (Trident's seed examples)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Json, act, auth, tokens_of, view

from triverse.games.trident.engine import TridentGame

PREVIEW_KEYS = {"play", "legal", "reason", "refusal", "points", "items", "bis"}


def _seed_where(test: Callable[[Any, tuple[int, ...], tuple[int, ...]], bool]) -> int:
    """A seed whose two-player Trident deal gives the first player and the second racks that
    pass ``test(state, first_rack, second_rack)``."""
    game = TridentGame(2)
    for seed in range(5000):
        state = game.new_initial_state(seed=seed)
        first, second = state.order
        if test(state, state.rack(first), state.rack(second)):
            return seed
    raise AssertionError("no such deal")


def _hotseat(client: TestClient, seed: int) -> tuple[str, str, str]:
    """A two-human Trident match: its id, and the tokens of the first and second to play."""
    answer = client.post("/api/matches", json={
        "game": "trident", "mode": "hotseat", "seed": seed,
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    tokens = tokens_of(created)
    first = view(client, created["match_id"])["to_move"]
    return created["match_id"], tokens[first], tokens[1 - first]


def _preview(client: TestClient, match_id: str, token: str | None, action: str,
             move: int | None = None) -> Any:
    body: Json = {"action": action}
    if move is not None:
        body["move"] = move
    return client.post(f"/api/matches/{match_id}/preview", headers=auth(token), json=body)


@pytest.mark.parametrize(("opening", "play", "points", "needs"), [
    ("7:7=4", "7:8=2", 6, ((4,), (2,))),                 # a 2 next to a 4
    ("7:7=2", "6:7=7,6:8=8", 24, ((2,), (7, 8))),        # 8 + 7 across, 7 + 2 down
    ("7:7=2,7:8=4", "7:9=9", 30, ((2, 4), (9,))),        # the Trio 2 + 4 + 9, +15
])
def test_the_seed_examples_over_rest(client: TestClient, opening: str, play: str, points: int,
                                     needs: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    seed = _seed_where(lambda _s, a, b: set(needs[0]) <= set(a) and set(needs[1]) <= set(b))
    match_id, first, second = _hotseat(client, seed)
    assert view(client, match_id, first)["game"]["preview"] is True
    assert act(client, match_id, first, opening, 0).status_code == 200
    before = view(client, match_id, second)
    answer = _preview(client, match_id, second, play, move=1)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["move"] == 1 and set(body["preview"]) == PREVIEW_KEYS
    preview = body["preview"]
    assert preview["legal"] and preview["reason"] is None and preview["points"] == points
    assert sum(item["points"] for item in preview["items"]) == points
    assert all(item["label"] for item in preview["items"])
    # Each item also says itself as a message code (docs/messages.md), for the UI to word.
    assert all(item["code"].startswith("preview.") and item["params"]["total"] == item["points"]
               for item in preview["items"])
    assert preview["refusal"] is None
    # Nothing was played or stored.
    assert view(client, match_id, second) == before


def test_refusals_and_illegal_plays(client: TestClient) -> None:
    seed = _seed_where(lambda _s, a, b: 4 in a and 2 in b)
    match_id, first, second = _hotseat(client, seed)
    assert act(client, match_id, first, "7:7=4", 0).status_code == 200
    before = view(client, match_id, second)
    # Not your turn; no token; a wrong token; an old move; an unknown match; a bad body.
    for token, move, status, code in [
        (first, None, 409, "not_your_turn"),
        (None, None, 401, "missing_token"),
        ("nope", None, 403, "wrong_token"),
        (second, 0, 409, "stale_move"),
    ]:
        answer = _preview(client, match_id, token, "7:8=2", move)
        assert answer.status_code == status, answer.text
        assert answer.json()["error"]["code"] == code
    assert _preview(client, "nothing", second, "7:8=2").json()["error"]["code"] == (
        "unknown_match")
    bad = client.post(f"/api/matches/{match_id}/preview", headers=auth(second),
                      json={"action": 5})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_request"
    # An illegal or unreadable play is answered with the reason, for the UI to show.
    rack = before["observation"]["rack"]
    for play, words, code in [
        ("7:9=2", "touch", "refused.no_contact"),
        ("7:8=15" if "15" not in rack else "7:8=14", "rack", "refused.not_on_rack"),
        ("7:8", "placement", "refused.unreadable"), ("pass", "only a play", "refused.no_preview"),
    ]:
        answer = _preview(client, match_id, second, play)
        assert answer.status_code == 200, answer.text
        preview = answer.json()["preview"]
        assert not preview["legal"] and words in preview["reason"], preview
        assert preview["refusal"]["code"] == code and preview["refusal"]["params"]["action"] == play
        assert preview["points"] == 0 and preview["items"] == []
    missing = _preview(client, match_id, second, "7:8=15" if "15" not in rack else "7:8=14")
    assert " ".join(rack) in missing.json()["preview"]["reason"]  # its own rack, nobody else's
    assert view(client, match_id, second) == before
    # A game without previews says so.
    tri = client.post("/api/matches", json={
        "game": "triangles", "mode": "hotseat", "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    tri_token = tokens_of(tri)[view(client, tri["match_id"])["to_move"]]
    answer = _preview(client, tri["match_id"], tri_token, "draw")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "not_supported"


def test_preview_over_the_websocket(client: TestClient) -> None:
    seed = _seed_where(lambda _s, a, b: 2 in a and {7, 8} <= set(b))
    match_id, first, second = _hotseat(client, seed)
    url = f"/ws/matches/{match_id}"
    with client.websocket_connect(url) as ws1, client.websocket_connect(url) as ws2:
        ws1.send_json({"type": "hello", "token": first})
        assert ws1.receive_json()["view"]["your_turn"]
        ws2.send_json({"type": "hello", "token": second})
        assert not ws2.receive_json()["view"]["your_turn"]
        ws1.receive_json()  # seat 2 connected
        # Not seat 2's turn yet.
        ws2.send_json({"type": "preview", "action": "6:7=7,6:8=8", "id": 1})
        reply = ws2.receive_json()
        assert reply == {"type": "error", "code": "not_your_turn", "id": 1,
                         "message": reply["message"]}
        # The opening: a 2 on the star, alone, doubled.
        ws1.send_json({"type": "preview", "action": "7:7=2", "id": "a"})
        reply = ws1.receive_json()
        assert reply["type"] == "preview_result" and reply["id"] == "a" and reply["move"] == 0
        assert reply["preview"]["points"] == 4 and reply["preview"]["legal"]
        ws1.send_json({"type": "action", "action": "7:7=2", "move": 0, "id": "b"})
        assert ws1.receive_json()["type"] == "accepted"
        assert ws1.receive_json()["view"]["move"] == 1
        assert ws2.receive_json()["view"]["your_turn"]
        # Seat 2 tries its 7 and 8 above the 2: 8 + 7 across, 7 + 2 down.
        ws2.send_json({"type": "preview", "action": "6:7=7,6:8=8", "move": 1, "id": 2})
        reply = ws2.receive_json()
        assert reply["type"] == "preview_result" and reply["id"] == 2 and reply["move"] == 1
        preview = reply["preview"]
        assert preview["legal"] and preview["points"] == 24
        assert sorted(item["points"] for item in preview["items"]) == [9, 15]
        # Malformed and stale previews.
        for message, code in [
            ({"type": "preview", "action": 7}, "bad_request"),
            ({"type": "preview", "action": "6:7=7", "move": "1"}, "bad_request"),
            ({"type": "preview", "action": "6:7=7", "move": 0}, "stale_move"),
        ]:
            ws2.send_json(message)
            reply = ws2.receive_json()
            assert reply["type"] == "error" and reply["code"] == code, (message, reply)
        # Nothing moved: a sync shows the same position, and seat 1 heard nothing.
        ws2.send_json({"type": "sync"})
        assert ws2.receive_json()["view"]["move"] == 1
        ws1.send_json({"type": "ping", "id": "p"})
        assert ws1.receive_json()["type"] == "pong"
