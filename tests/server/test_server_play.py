"""Playing matches over REST and the websocket, to the end, and every refusal."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import act, auth, create, play_to_end, tokens_of, view, wait_view

from triverse.core.records import Record, replay


def test_games_lists_the_installed_games(client: TestClient) -> None:
    answer = client.get("/api/games").json()
    names = [g["name"] for g in answer["games"]]
    assert names == ["trinity", "triangles", "trivinity", "trident", "triominoes"]
    tri = answer["games"][-1]
    assert tri["available"] and tri["min_players"] == 2 and tri["max_players"] == 6
    assert {o["name"] for o in tri["options"]} >= {"variant", "target"}
    assert "seed" in tri["variants"]
    trinity = answer["games"][0]
    assert trinity["available"] and {o["name"] for o in trinity["options"]} >= {"rounds"}
    assert "novice" in answer["levels"] and "average" in answer["levels"]
    assert answer["modes"] == ["computer", "hotseat", "online", "open"]
    assert client.get("/api/health").json() == {"status": "ok", "database": "ok"}
    assert client.get("/openapi.json").status_code == 200


def test_pages_fall_back_to_a_placeholder(client: TestClient) -> None:
    for path in ("/", "/play/abc", "/watch/abc"):
        page = client.get(path)
        assert page.status_code == 200 and "Triverse" in page.text


def test_computer_match_played_to_the_end_over_rest(client: TestClient) -> None:
    created = create(client, ["human", "average"])
    match_id, tokens = created["match_id"], tokens_of(created)
    assert list(tokens) == [0] and created["seats"][1]["token"] is None
    assert created["seats"][0]["link"] == f"/play/{match_id}?seat=0#{tokens[0]}"
    assert created["spectator_link"] == f"/watch/{match_id}"
    final = play_to_end(client, match_id, tokens)
    assert final["finished"] and final["to_move"] is None
    assert final["result"]["scores"] == final["scores"]
    assert max(final["scores"]) >= 60
    mine = view(client, match_id, tokens[0])
    assert mine["legal_actions"] == [] and not mine["your_turn"]
    # After the end no action is accepted.
    answer = act(client, match_id, tokens[0], "draw", final["move"])
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_over"
    record = client.get(f"/api/matches/{match_id}/record")
    assert record.status_code == 200
    assert replay(Record.from_json(record.json())).scores == final["scores"]


def test_computer_match_played_to_the_end_over_the_websocket(client: TestClient) -> None:
    created = create(client, ["average", "human", "novice"], seed=11)
    match_id, token = created["match_id"], tokens_of(created)[1]
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "seat": 1})
        accepted = 0
        while True:
            message = ws.receive_json()
            if message["type"] == "accepted":
                accepted += 1
                continue
            assert message["type"] == "view", message
            current = message["view"]
            assert current["seat"] == 1
            assert current["players"][1]["connected"]
            if current["finished"]:
                break
            if current["your_turn"]:
                ws.send_json({"type": "action", "id": current["move"], "move": current["move"],
                              "action": current["legal_actions"][0]["notation"]})
                reply = ws.receive_json()
                assert reply["type"] == "accepted" and reply["id"] == current["move"], reply
                assert reply["move"] == current["move"]
                accepted += 1
    assert accepted > 5
    assert current["result"] is not None and len(current["scores"]) == 3
    # The websocket is closed: seat 1 shows as disconnected.
    after = wait_view(client, match_id, None, lambda v: not v["players"][1]["connected"])
    assert after["players"][0]["connected"]  # a computer


def test_hotseat_and_every_refusal_leaves_the_game_unchanged(client: TestClient) -> None:
    created = create(client, ["human", "human"], mode="hotseat")
    match_id, tokens = created["match_id"], tokens_of(created)
    assert set(tokens) == {0, 1}
    start = view(client, match_id)
    seat = start["to_move"]
    other = 1 - seat
    mine = view(client, match_id, tokens[seat])
    legal = mine["legal_actions"][0]["notation"]
    move = mine["move"]
    url = f"/api/matches/{match_id}/actions"

    def snapshot() -> tuple[Any, ...]:
        return (view(client, match_id, tokens[0]), view(client, match_id, tokens[1]),
                view(client, match_id))

    before = snapshot()
    refusals: list[tuple[Any, int, str]] = [
        (client.post(url, headers={**auth(tokens[seat]), "Content-Type": "application/json"},
                     content=b'{"action": "draw", "move": '), 400, "bad_json"),
        (client.post(url, headers=auth(tokens[seat]), json={"action": legal}), 422,
         "bad_request"),
        (client.post(url, headers=auth(tokens[seat]), json={"action": legal, "move": "x"}),
         422, "bad_request"),
        (client.post(url, headers=auth(tokens[seat]), json={"action": legal, "move": True}),
         422, "bad_request"),
        (client.post(url, headers=auth(tokens[seat]),
                     json={"action": legal, "move": move, "extra": 1}), 422, "bad_request"),
        (act(client, match_id, tokens[seat], "9-9-9@0,0/0", move), 422, "bad_notation"),
        (act(client, match_id, tokens[seat], "0-1-2@5,5/0", move), 422, "illegal_action"),
        (act(client, match_id, "not-a-token", legal, move), 403, "wrong_token"),
        (client.post(url, json={"action": legal, "move": move}), 401, "missing_token"),
        (act(client, match_id, tokens[seat], legal, move + 1), 409, "stale_move"),
        (act(client, match_id, tokens[seat], legal, move - 1 if move else 5), 409,
         "stale_move"),
        (act(client, match_id, tokens[other], legal, move), 409, "not_your_turn"),
        (act(client, "no-such-match", tokens[seat], legal, move), 404, "unknown_match"),
        (client.post(f"/api/matches/{match_id}/pause", headers=auth("bad"),
                     json={"paused": True}), 403, "wrong_token"),
        (client.get(f"/api/matches/{match_id}/view", headers=auth("bad")), 403,
         "wrong_token"),
        (client.get(f"/api/matches/{match_id}/record"), 409, "not_finished"),
        (client.get(f"/api/matches/{match_id}/replay/0"), 409, "not_finished"),
    ]
    for answer, status, code in refusals:
        assert answer.status_code == status, (code, answer.text)
        error = answer.json()["error"]
        assert error["code"] == code and error["message"], answer.text
        if code == "illegal_action":  # the engine's refusal also comes as a message code
            assert error["reason"]["code"].startswith("refused."), error
            assert error["reason"]["params"]["action"] == "0-1-2@5,5/0", error
        else:
            assert "reason" not in error, error
    assert snapshot() == before
    # The same mistakes over the websocket: error messages, and still nothing changes.
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[other]})
        assert ws.receive_json()["view"]["seat"] == other
        ws.send_text("{not json")
        assert ws.receive_json()["code"] == "bad_json"
        for message, code in [
            ({"type": "action", "action": legal, "move": move}, "not_your_turn"),
            ({"type": "action", "action": legal, "move": move + 3}, "stale_move"),
            ({"type": "action", "action": legal}, "bad_request"),
            ({"type": "pause", "paused": "yes"}, "bad_request"),
            ({"type": "dance"}, "bad_request"),
            ({"type": "hello", "token": tokens[seat]}, "bad_request"),
            (["a", "list"], "bad_request"),
        ]:
            ws.send_json(message)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == code, (message, reply)
        ws.send_json({"type": "ping", "id": "p"})
        pong = ws.receive_json()
        assert pong.pop("server_time").endswith("Z")
        assert pong == {"type": "pong", "id": "p"}
    assert snapshot()[2] == before[2]
    # A legal action is accepted, once; repeating it is stale.
    answer = act(client, match_id, tokens[seat], legal, move)
    assert answer.status_code == 200, answer.text
    assert answer.json()["move"] == move and answer.json()["view"]["move"] == move + 1
    again = act(client, match_id, tokens[seat], legal, move)
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale_move"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "seats": [{"kind": "human"}, {"kind": "average"}]}, "unknown_game"),
        ({"game": "triominoes", "options": {"target": "lots"},
          "seats": [{"kind": "human"}, {"kind": "average"}]}, "bad_options"),
        ({"game": "triominoes", "options": {"colour": "red"},
          "seats": [{"kind": "human"}, {"kind": "average"}]}, "bad_options"),
        ({"game": "triominoes", "seats": [{"kind": "human"}]}, "bad_seats"),
        ({"game": "triominoes", "seats": [{"kind": "human"}, {"kind": "genius"}]}, "bad_seats"),
        ({"game": "triominoes", "seats": [{"kind": "human"}, {"kind": "human"}]}, "bad_seats"),
        ({"game": "triominoes", "mode": "online",
          "seats": [{"kind": "human"}, {"kind": "average"}]}, "bad_seats"),
        ({"game": "triominoes", "mode": "chaos",
          "seats": [{"kind": "human"}, {"kind": "average"}]}, "bad_request"),
        ({"game": "triominoes", "seats": []}, "bad_request"),
        ({"game": "triominoes", "seats": [{"kind": "human"}, {"kind": "average"}],
          "seed": -1}, "bad_request"),
        ({"seats": [{"kind": "human"}, {"kind": "average"}]}, "bad_request"),
    ],
)
def test_bad_new_matches_are_refused(client: TestClient, body: dict[str, Any], code: str) -> None:
    answer = client.post("/api/matches", json=body)
    assert 400 <= answer.status_code < 500, answer.text
    assert answer.json()["error"]["code"] == code, answer.text
    assert answer.json()["error"]["message"]


def test_chosen_seeds_need_the_servers_consent(db_url: str) -> None:
    from triverse.server.app import create_app

    with TestClient(create_app(db_url, bot_workers=1, bot_executor="thread")) as strict:
        body = {"game": "triominoes", "seed": 5,
                "seats": [{"kind": "human"}, {"kind": "average"}]}
        answer = strict.post("/api/matches", json=body)
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "seed_not_allowed"
        del body["seed"]
        assert strict.post("/api/matches", json=body).status_code == 201
        bad = strict.post("/api/matches", content=b"[1,", headers={
            "Content-Type": "application/json"})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_json"


def test_pause_stops_the_computer(db_url: str) -> None:
    from triverse.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0.2, bot_workers=1,
                               allow_client_seed=True)) as client:
        created = create(client, ["human", "novice"], seed=3)
        match_id, token = created["match_id"], tokens_of(created)[0]
        wait_view(client, match_id, token, lambda v: v["your_turn"])
        paused = client.post(f"/api/matches/{match_id}/pause", headers=auth(token),
                             json={"paused": True})
        assert paused.status_code == 200 and paused.json()["paused"] is True
        # Humans may still move while paused; the computer waits.
        current = view(client, match_id, token)
        while current["your_turn"]:
            answer = act(client, match_id, token, current["legal_actions"][0]["notation"],
                         current["move"])
            assert answer.status_code == 200
            current = answer.json()["view"]
        assert current["to_move"] == 1 and current["paused"]
        time.sleep(0.6)
        assert view(client, match_id, token)["move"] == current["move"]
        resumed = client.post(f"/api/matches/{match_id}/pause", headers=auth(token),
                              json={"paused": False})
        assert resumed.json()["paused"] is False
        wait_view(client, match_id, token, lambda v: v["move"] > current["move"])


def test_spectators_see_no_hand_and_cannot_act(client: TestClient) -> None:
    created = create(client, ["human", "human", "human"], mode="online")
    match_id, tokens = created["match_id"], tokens_of(created)
    play_to_end(client, match_id, tokens, max_moves=12)
    public = view(client, match_id)
    assert public["seat"] is None and public["observation"]["hand"] is None
    assert public["legal_actions"] == [] and not public["your_turn"]
    assert public["observation"]["board"]
    for entry in public["log"]:
        assert "action" not in entry
        assert all("secret" not in event for event in entry["events"])
    short = client.get(f"/api/matches/{match_id}/view?log=3").json()
    assert short["log"] == public["log"][-3:] and len(short["log"]) == 3
    assert client.get(f"/api/matches/{match_id}/view?log=-1").status_code == 422
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "log": 0})
        assert ws.receive_json()["view"]["log"] == []
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello"})
        watched = ws.receive_json()["view"]
        assert watched == public | {"players": watched["players"]}
        ws.send_json({"type": "action", "action": "draw", "move": public["move"]})
        assert ws.receive_json()["code"] == "missing_token"
        ws.send_json({"type": "pause", "paused": True})
        assert ws.receive_json()["code"] == "missing_token"


def test_websocket_hello_failures_close_the_socket(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    created = create(client, ["human", "average"])
    match_id, token = created["match_id"], tokens_of(created)[0]
    cases: list[tuple[str, Any, int, str]] = [
        (match_id, "not json", 4400, "bad_json"),
        (match_id, {"type": "ping"}, 4400, "bad_request"),
        (match_id, {"type": "hello", "token": 5}, 4400, "bad_request"),
        (match_id, {"type": "hello", "log": -2}, 4400, "bad_request"),
        (match_id, {"type": "hello", "token": "wrong"}, 4403, "wrong_token"),
        (match_id, {"type": "hello", "token": token, "seat": 1}, 4403, "wrong_token"),
        ("nope", {"type": "hello", "token": token}, 4404, "unknown_match"),
    ]
    for target, hello, close_code, code in cases:
        with client.websocket_connect(f"/ws/matches/{target}") as ws:
            if isinstance(hello, str):
                ws.send_text(hello)
            else:
                ws.send_json(hello)
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == code, error
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == close_code


def test_a_silent_websocket_is_closed(db_url: str) -> None:
    from starlette.websockets import WebSocketDisconnect

    from triverse.server.app import create_app

    app = create_app(db_url, bot_workers=1, bot_executor="thread")
    service = app.state.service
    service.settings = service.settings.model_copy(update={"hello_timeout": 0.2})
    with TestClient(app) as client, client.websocket_connect("/ws/matches/any") as ws:
        error = ws.receive_json()
        assert error["code"] == "bad_request" and "hello" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4408
