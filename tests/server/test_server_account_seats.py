"""An account's seats on every device (issue 23, H1): claiming a browser's guest seats, the
account's games listed on another browser with device keys of its own, keys that die with
their session (log-out, password change, expiry, deletion) over REST and the websocket, and a
deleted account's seats shown as "deleted player". Every check that one account cannot act in,
read the hidden hand of, claim or delete another's game or account."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from cluster import Socket as ClusterSocket
from cluster import running_cluster
from cluster import tokens_of as cluster_tokens
from cluster import view as cluster_view
from fastapi.testclient import TestClient
from server_helpers import TILE, auth, play_to_end, tokens_of, view
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect
from test_server_accounts import PASSWORD, code, log_in, sign_up
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse.server.accounts import CSRF_HEADER, DELETED_NAME, SESSION_COOKIE
from triverse.server.app import create_app
from triverse.server.clock import ManualClock
from triverse.server.seats import device_key

Json = dict[str, Any]


# --- helpers -----------------------------------------------------------------------------------
def new_match(browser: TestClient, csrf: str | None = None, mode: str = "online",
              kinds: tuple[str, ...] = ("human", "human"), **body: Any) -> Json:
    """A Tri-ominoes match (target 60) made by ``browser``: logged in (``csrf``), the first
    human seat is the account's."""
    answer = browser.post(
        "/api/matches", headers={} if csrf is None else {CSRF_HEADER: csrf},
        json={"game": "triominoes", "options": {"target": 60}, "mode": mode,
              "seats": [{"kind": kind} for kind in kinds], **body})
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    return created


def claim(browser: TestClient, csrf: str | None, tokens: list[str]) -> Any:
    return browser.post("/api/account/claim", json={"tokens": tokens},
                        headers={} if csrf is None else {CSRF_HEADER: csrf})


def games(browser: TestClient) -> list[Json]:
    answer = browser.get("/api/account/games")
    assert answer.status_code == 200, answer.text
    found: list[Json] = answer.json()["matches"]
    return found


def key_of(entry: Json) -> str:
    """The token of a listed game's link (``/play/{id}?seat=N#TOKEN``)."""
    link: str = entry["link"]
    assert link.startswith(f"/play/{entry['match_id']}?seat={entry['seat']}#")
    return link.split("#", 1)[1]


def play_one(browser: TestClient, match_id: str, token: str) -> Any:
    """The token's seat plays its first legal action; returns the answer."""
    mine = view(browser, match_id, token)
    assert mine["your_turn"] and mine["legal_actions"], mine
    return browser.post(f"/api/matches/{match_id}/actions", headers=auth(token),
                        json={"action": mine["legal_actions"][0]["notation"],
                              "move": mine["move"]})


def turn_to(browser: TestClient, match_id: str, tokens: dict[int, str], seat: int) -> None:
    """Play first legal actions until it is ``seat``'s move."""
    for _ in range(50):
        to_move = view(browser, match_id)["to_move"]
        if to_move == seat:
            return
        assert play_one(browser, match_id, tokens[to_move]).status_code == 200
    raise AssertionError(f"seat {seat} never got the move")


def refused(answer: Any, status: int, error: str) -> None:
    assert answer.status_code == status, answer.text
    assert code(answer) == error, answer.text


def count(db_url: str, table: str) -> int:
    """The rows of ``table`` (SQLite, or PostgreSQL through psycopg 3)."""
    engine = create_engine(db_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.connect() as connection:
        found = int(connection.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one())
    engine.dispose()
    return found


def until_error(socket: Any) -> Json:
    """The websocket's messages until an error (the views before it are skipped)."""
    for _ in range(20):
        message: Json = socket.receive_json()
        if message["type"] == "error":
            return message
    raise AssertionError("no error came")


# --- claiming ----------------------------------------------------------------------------------
def test_a_browser_claims_its_guest_seats_at_sign_up(make: Any) -> None:
    browser, mallory = make(), make()
    created = new_match(browser)  # as a guest: both seats' tokens are this browser's
    match_id, tokens = created["match_id"], tokens_of(created)
    assert not any(p["account"] for p in view(browser, match_id)["players"])
    made = sign_up(browser)
    refused(claim(browser, None, [tokens[0]]), 403, "bad_csrf")  # no CSRF token: nothing
    assert not view(browser, match_id)["players"][0]["account"]
    answer = claim(browser, made["csrf"], [tokens[0], "no such token"])
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"claimed": [{"match_id": match_id, "seat": 0}], "refused": []}
    players = view(browser, match_id)["players"]
    assert players[0]["name"] == "Zoë" and players[0]["account"]
    assert players[1]["name"] == "Player 2" and not players[1]["account"]
    # Claimed once: claiming again, or by another account with the same token, does nothing.
    assert claim(browser, made["csrf"], [tokens[0]]).json()["claimed"] == []
    theirs = sign_up(mallory, "Mallory")
    assert claim(mallory, theirs["csrf"], [tokens[0]]).json() == {"claimed": [], "refused": []}
    assert view(browser, match_id)["players"][0]["name"] == "Zoë"
    assert [g["match_id"] for g in games(mallory)] == []
    # The seat's own token still opens it, in the browser that holds it.
    assert view(browser, match_id, tokens[0])["seat"] == 0


def test_a_claim_needs_a_session_and_is_bounded(make: Any) -> None:
    guest = make()
    refused(claim(guest, None, ["x"]), 401, "not_logged_in")
    made = sign_up(guest)
    refused(claim(guest, made["csrf"], ["x"] * 101), 422, "bad_request")
    refused(claim(guest, made["csrf"], ["x" * 300]), 422, "bad_request")
    assert claim(guest, made["csrf"], ["x"] * 100).json() == {"claimed": [], "refused": []}


def test_an_account_takes_one_seat_of_a_rated_match(make: Any) -> None:
    zoe, mallory = make(), make()
    made = sign_up(zoe)
    created = new_match(zoe, made["csrf"], rated=True)
    match_id, tokens = created["match_id"], tokens_of(created)
    # Zoë holds the invite link of seat 1 too; she may not play herself in a rated match
    # (she would rate herself against herself).
    answer = claim(zoe, made["csrf"], [tokens[1]]).json()
    assert answer == {"claimed": [], "refused": [{
        "match_id": match_id, "seat": 1,
        "reason": "you hold another seat of this rated match"}]}
    # The one she invited claims it.
    theirs = sign_up(mallory, "Mallory")
    assert claim(mallory, theirs["csrf"], [tokens[1]]).json()["claimed"] == [
        {"match_id": match_id, "seat": 1}]
    assert [p["name"] for p in view(zoe, match_id)["players"]] == ["Zoë", "Mallory"]


def test_hot_seat_seats_of_an_unrated_match_are_all_claimed(make: Any) -> None:
    browser = make()
    created = new_match(browser, mode="hotseat")
    made = sign_up(browser)
    answer = claim(browser, made["csrf"], list(tokens_of(created).values())).json()
    assert answer["claimed"] == [{"match_id": created["match_id"], "seat": 0},
                                 {"match_id": created["match_id"], "seat": 1}]
    assert [(g["seat"], g["name"]) for g in games(browser)] in (
        [(0, "Zoë"), (1, "Zoë")], [(1, "Zoë"), (0, "Zoë")])


# --- the account's games on every device ----------------------------------------------------------
def test_the_account_games_on_a_second_browser_its_move_first(make: Any) -> None:
    first, second = make(), make()
    made = sign_up(first)
    # Made in this order, so that the most recent first would be the other way round.
    mine = new_match(first, made["csrf"])
    mine_id, mine_tokens = mine["match_id"], tokens_of(mine)
    turn_to(first, mine_id, mine_tokens, 0)  # Zoë's move
    theirs = new_match(first, made["csrf"])
    theirs_id, theirs_tokens = theirs["match_id"], tokens_of(theirs)
    turn_to(first, theirs_id, theirs_tokens, 1)  # the guest's move
    done = new_match(first, made["csrf"])
    done_id = done["match_id"]
    assert play_to_end(first, done_id, tokens_of(done))["finished"]
    assert log_in(second).status_code == 200
    listed = games(second)
    assert [(g["match_id"], g["your_turn"], g["finished"]) for g in listed] == [
        (mine_id, True, False), (theirs_id, False, False), (done_id, False, True)]
    assert all(g["seat"] == 0 and g["name"] == "Zoë" for g in listed)
    assert [p["name"] for p in listed[0]["players"]] == ["Zoë", "Player 2"]
    # The links hold keys of this browser's session: the same at every listing, not the
    # seat's own token, and another browser of the account gets others.
    keys = [key_of(g) for g in listed]
    assert [key_of(g) for g in games(second)] == keys
    assert keys[0] != mine_tokens[0]
    assert [key_of(g) for g in games(first)] != keys
    # The second browser plays with its key, and reads its seat's view and hidden hand.
    seen = view(second, mine_id, keys[0])
    assert seen["seat"] == 0 and seen["your_turn"]
    assert seen["observation"]["hand"] == view(first, mine_id, mine_tokens[0])[
        "observation"]["hand"]
    answer = play_one(second, mine_id, keys[0])
    assert answer.status_code == 200, answer.text
    assert answer.json()["view"]["seat"] == 0  # the answer's view is the key's seat's
    assert view(first, mine_id)["move"] == seen["move"] + 1
    # A key opens its own seat of its own match only.
    refused(second.get(f"/api/matches/{theirs_id}/view", headers=auth(keys[0])),
            403, "wrong_token")
    refused(second.post(f"/api/matches/{mine_id}/actions", headers=auth(keys[1]),
                        json={"action": "d", "move": 0}), 403, "wrong_token")


def test_the_account_games_need_a_session(make: Any) -> None:
    refused(make().get("/api/account/games"), 401, "not_logged_in")


def test_a_device_key_plays_over_the_websocket(make: Any) -> None:
    first, second = make(), make()
    made = sign_up(first)
    created = new_match(first, made["csrf"])
    match_id, tokens = created["match_id"], tokens_of(created)
    turn_to(first, match_id, tokens, 0)
    assert log_in(second).status_code == 200
    key = key_of(games(second)[0])
    with second.websocket_connect(f"/ws/matches/{match_id}") as socket:
        socket.send_json({"type": "hello", "token": key, "seat": 0})
        first_view = socket.receive_json()["view"]
        assert first_view["seat"] == 0 and first_view["your_turn"]
        action = first_view["legal_actions"][0]["notation"]
        socket.send_json({"type": "action", "id": 1, "action": action,
                          "move": first_view["move"]})
        for _ in range(10):
            message = socket.receive_json()
            if message["type"] == "accepted":
                break
            assert message["type"] == "view", message
        assert message["id"] == 1 and message["move"] == first_view["move"]
    assert view(first, match_id)["move"] == first_view["move"] + 1


# --- keys die with their session ---------------------------------------------------------------
def test_a_device_key_dies_at_log_out_and_its_socket_closes(make: Any) -> None:
    first, second = make(), make()
    made = sign_up(first)
    created = new_match(first, made["csrf"])
    match_id, tokens = created["match_id"], tokens_of(created)
    logged = log_in(second).json()
    key = key_of(games(second)[0])
    assert view(second, match_id, key)["seat"] == 0
    with second.websocket_connect(f"/ws/matches/{match_id}") as socket:
        socket.send_json({"type": "hello", "token": key})
        assert socket.receive_json()["view"]["seat"] == 0
        assert second.delete("/api/session",
                             headers={CSRF_HEADER: logged["csrf"]}).status_code == 204
        error = until_error(socket)
        assert error["code"] == "wrong_token" and "session" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4403
    refused(second.get(f"/api/matches/{match_id}/view", headers=auth(key)), 403,
            "wrong_token")
    refused(second.post(f"/api/matches/{match_id}/actions", headers=auth(key),
                        json={"action": "d", "move": view(first, match_id)["move"]}),
            403, "wrong_token")
    # Its own token, and the first browser, are untouched.
    assert view(first, match_id, tokens[0])["seat"] == 0
    assert first.get("/api/session").status_code == 200


def test_device_keys_die_at_a_password_change(make: Any) -> None:
    first, second = make(), make()
    made = sign_up(first)
    new_match(first, made["csrf"])
    assert log_in(second).status_code == 200
    old_first, old_second = key_of(games(first)[0]), key_of(games(second)[0])
    match_id = games(first)[0]["match_id"]
    changed = first.post("/api/session/password", headers={CSRF_HEADER: made["csrf"]},
                         json={"password": PASSWORD, "new_password": "a brand new secret"})
    assert changed.status_code == 200
    for old in (old_first, old_second):
        refused(first.get(f"/api/matches/{match_id}/view", headers=auth(old)), 403,
                "wrong_token")
    # The first browser's new session lists new keys, which work.
    fresh = key_of(games(first)[0])
    assert fresh != old_first and view(first, match_id, fresh)["seat"] == 0
    refused(second.get("/api/account/games"), 401, "not_logged_in")


def test_a_device_key_dies_when_its_session_expires(db_url: str) -> None:
    clock = ManualClock()
    with TestClient(create_app(db_url, bot_delay=0, bot_workers=1, clock=clock)) as browser:
        made = sign_up(browser)
        created = new_match(browser, made["csrf"])
        match_id = created["match_id"]
        key = key_of(games(browser)[0])
        with browser.websocket_connect(f"/ws/matches/{match_id}") as socket:
            socket.send_json({"type": "hello", "token": key})
            assert socket.receive_json()["view"]["seat"] == 0
            clock.advance(timedelta(days=31).total_seconds())
            socket.send_json({"type": "sync"})
            assert until_error(socket)["code"] == "wrong_token"
        refused(browser.get(f"/api/matches/{match_id}/view", headers=auth(key)), 403,
                "wrong_token")


def test_wrong_device_keys_count_towards_the_lockout(make: Any) -> None:
    browser = make(rate_token_failure="3/minute")
    made = sign_up(browser)
    created = new_match(browser, made["csrf"])
    match_id = created["match_id"]
    key = key_of(games(browser)[0])
    forged = device_key(browser.cookies[SESSION_COOKIE], match_id, 1)  # never listed
    for _ in range(3):
        refused(browser.get(f"/api/matches/{match_id}/view", headers=auth(forged)), 403,
                "wrong_token")
    refused(browser.get(f"/api/matches/{match_id}/view", headers=auth(key)), 429,
            "rate_limited")


# --- deletion ----------------------------------------------------------------------------------
def test_a_deleted_account_leaves_deleted_player_seats(make: Any, db_url: str) -> None:
    zoe, phone, guest = make(), make(), make()
    made = sign_up(zoe)
    created = new_match(zoe, made["csrf"])
    match_id, tokens = created["match_id"], tokens_of(created)
    games(zoe)
    assert log_in(phone).status_code == 200
    key = key_of(games(phone)[0])
    assert count(db_url, "seat_keys") == 2
    with guest.websocket_connect(f"/ws/matches/{match_id}") as socket:
        socket.send_json({"type": "hello", "token": tokens[1]})
        assert socket.receive_json()["view"]["players"][0]["name"] == "Zoë"
        deleted = zoe.request("DELETE", "/api/account", headers={CSRF_HEADER: made["csrf"]},
                              json={"password": PASSWORD})
        assert deleted.status_code == 204
        for _ in range(10):  # the guest's socket is told at once
            players = socket.receive_json()["view"]["players"]
            if players[0]["deleted"]:
                break
        assert players[0] == {**players[0], "name": DELETED_NAME, "account": False,
                              "deleted": True}
    seen = view(guest, match_id, tokens[1])
    assert seen["players"][0]["name"] == DELETED_NAME and seen["players"][0]["deleted"]
    assert not seen["players"][1]["deleted"]
    # The game stays; the sessions and their keys went with the account.
    assert count(db_url, "matches") == 1 and count(db_url, "seats") == 2
    assert count(db_url, "sessions") == 0 and count(db_url, "seat_keys") == 0
    refused(phone.get(f"/api/matches/{match_id}/view", headers=auth(key)), 403, "wrong_token")
    # A deleted player's seat is no one's to claim, even with its old token.
    other = make()
    other_made = sign_up(other, "Other")
    assert claim(other, other_made["csrf"], [tokens[0]]).json()["claimed"] == []


# --- one account and another's -----------------------------------------------------------------
def test_one_account_cannot_reach_anothers_seats(make: Any) -> None:
    zoe, mallory = make(), make()
    mine = sign_up(zoe)
    theirs = sign_up(mallory, "Mallory")
    created = new_match(zoe, mine["csrf"])
    match_id, tokens = created["match_id"], tokens_of(created)
    turn_to(zoe, match_id, tokens, 0)
    zoe_key = key_of(games(zoe)[0])
    own = new_match(mallory, theirs["csrf"])
    mallory_key = key_of(games(mallory)[0])
    assert [g["match_id"] for g in games(mallory)] == [own["match_id"]]  # not Zoë's
    # Mallory's key, or one she derives for Zoë's seat from her own cookie, opens nothing of
    # Zoë's: not her view, not an action.
    forged = device_key(mallory.cookies[SESSION_COOKIE], match_id, 0)
    for token in (mallory_key, forged):
        refused(mallory.get(f"/api/matches/{match_id}/view", headers=auth(token)), 403,
                "wrong_token")
        refused(mallory.post(f"/api/matches/{match_id}/actions", headers=auth(token),
                             json={"action": "d", "move": 0}), 403, "wrong_token")
    # What she may read, the public view, holds none of Zoë's hidden tiles (but the opening
    # tile, which the rules announce).
    public = view(mallory, match_id)
    assert public["seat"] is None and not public["observation"].get("hand")
    hand = set(view(zoe, match_id, zoe_key)["observation"]["hand"]) - set(
        public["observation"]["opening"])
    assert hand
    assert not hand & set(TILE.findall(json.dumps(public)))
    # She cannot claim Zoë's seat (her token leaked to her, say), nor delete Zoë's account.
    assert claim(mallory, theirs["csrf"], [tokens[0]]).json()["claimed"] == []
    refused(mallory.request("DELETE", "/api/account", headers={CSRF_HEADER: theirs["csrf"]},
                            json={"password": "not Mallory's password"}), 401,
            "bad_credentials")
    refused(mallory.request("DELETE", "/api/account", headers={CSRF_HEADER: mine["csrf"]},
                            json={"password": PASSWORD}), 403, "bad_csrf")
    assert zoe.get("/api/session").status_code == 200
    assert view(zoe, match_id, zoe_key)["players"][0]["name"] == "Zoë"


# --- PostgreSQL --------------------------------------------------------------------------------
def test_account_seats_on_postgresql(pg_url: str) -> None:  # noqa: F811
    with TestClient(create_app(pg_url, bot_delay=0, bot_workers=1)) as first:
        second, guest = TestClient(first.app), TestClient(first.app)
        created = new_match(guest)
        match_id, tokens = created["match_id"], tokens_of(created)
        made = sign_up(first)
        assert claim(first, made["csrf"], [tokens[0]]).json()["claimed"] == [
            {"match_id": match_id, "seat": 0}]
        logged = log_in(second).json()
        listed = games(second)
        assert [g["match_id"] for g in listed] == [match_id]
        assert [key_of(g) for g in games(second)] == [key_of(listed[0])]
        turn_to(guest, match_id, tokens, 0)
        key = key_of(listed[0])
        assert play_one(second, match_id, key).status_code == 200
        assert second.delete("/api/session",
                             headers={CSRF_HEADER: logged["csrf"]}).status_code == 204
        refused(second.get(f"/api/matches/{match_id}/view", headers=auth(key)), 403,
                "wrong_token")
        games(first)
        assert count(pg_url, "seat_keys") == 1
        rated = new_match(first, made["csrf"], rated=True)  # the claim locks its row
        assert claim(first, made["csrf"], [tokens_of(rated)[1]]).json()["refused"] == [
            {"match_id": rated["match_id"], "seat": 1,
             "reason": "you hold another seat of this rated match"}]
        assert first.request("DELETE", "/api/account", headers={CSRF_HEADER: made["csrf"]},
                             json={"password": PASSWORD}).status_code == 204
        assert count(pg_url, "seat_keys") == 0 and count(pg_url, "sessions") == 0
        players = view(guest, match_id, tokens[1])["players"]
        assert players[0]["name"] == DELETED_NAME and players[0]["deleted"]
        assert not players[0]["account"]


# --- two server processes ------------------------------------------------------------------------
def test_keys_and_deletions_reach_the_sockets_of_another_process(
        pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    """Log-out and deletion through server a; the sockets on server b hear of them (news over
    Redis): the device key's socket closes, the guest's sees a deleted player."""
    with running_cluster(pg_url, tmp_path) as cluster, \
            httpx.Client(base_url=cluster.a.url, timeout=30) as zoe, \
            httpx.Client(base_url=cluster.a.url, timeout=30) as phone:
        made = zoe.post("/api/accounts", json={"name": "Zoë", "password": PASSWORD}).json()
        answer = zoe.post("/api/matches", headers={CSRF_HEADER: made["csrf"]}, json={
            "game": "trident", "options": {}, "mode": "online",
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert answer.status_code == 201, answer.text
        match_id, tokens = answer.json()["match_id"], cluster_tokens(answer.json())
        logged = phone.post("/api/session", json={"name": "Zoë", "password": PASSWORD}).json()
        key = key_of(phone.get("/api/account/games").json()["matches"][0])
        keyed = ClusterSocket(cluster.b, match_id, key)
        guest = ClusterSocket(cluster.b, match_id, tokens[1])
        try:
            assert keyed.view["seat"] == 0 and guest.view["players"][0]["name"] == "Zoë"
            # Server b caches the match and holds the sockets; the log-out goes through a.
            assert phone.delete("/api/session",
                                headers={CSRF_HEADER: logged["csrf"]}).status_code == 204
            error = keyed.until(lambda m: m["type"] == "error", 15)
            assert error["code"] == "wrong_token"
            deleted = zoe.request("DELETE", "/api/account", json={"password": PASSWORD},
                                  headers={CSRF_HEADER: made["csrf"]})
            assert deleted.status_code == 204
            seen = guest.until(lambda m: m["type"] == "view"
                               and m["view"]["players"][0]["deleted"], 15)
            assert seen["view"]["players"][0]["name"] == DELETED_NAME
            assert cluster_view(cluster.b, match_id)["players"][0]["deleted"]
        finally:
            keyed.close()
            guest.close()


def test_a_device_key_pauses_previews_and_asks_hints_like_the_seats_token(make: Any) -> None:
    first, second = make(), make()
    made = sign_up(first)
    answer = first.post("/api/matches", headers={CSRF_HEADER: made["csrf"]}, json={
        "game": "trident", "options": {}, "mode": "online",
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert answer.status_code == 201, answer.text
    match_id, tokens = answer.json()["match_id"], tokens_of(answer.json())
    turn_to(first, match_id, tokens, 0)
    logged = log_in(second).json()
    key = key_of(games(second)[0])
    paused = second.post(f"/api/matches/{match_id}/pause", headers=auth(key),
                         json={"paused": True})
    assert paused.status_code == 200, paused.text
    assert paused.json()["seat"] == 0 and paused.json()["paused"]
    action = view(second, match_id, key)["legal_actions"][0]["notation"]
    preview = second.post(f"/api/matches/{match_id}/preview", headers=auth(key),
                          json={"action": action})
    assert preview.status_code == 200, preview.text
    assert preview.json()["preview"]["legal"] is True
    hint = second.post(f"/api/matches/{match_id}/hint", headers=auth(key), json={})
    assert hint.status_code == 200, hint.text
    assert hint.json()["hint"]["notation"] in {
        a["notation"] for a in view(second, match_id, key)["legal_actions"]}
    assert second.delete("/api/session", headers={CSRF_HEADER: logged["csrf"]}
                         ).status_code == 204
    for path, body in (("pause", {"paused": False}), ("preview", {"action": action}),
                       ("hint", {})):
        refused(second.post(f"/api/matches/{match_id}/{path}", headers=auth(key), json=body),
                403, "wrong_token")
    assert view(first, match_id)["paused"]  # the dead key changed nothing
