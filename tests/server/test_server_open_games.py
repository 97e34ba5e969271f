"""Open games in the lobby (issue 23): a match created in mode ``open`` waits in the lobby
until players (guests or accounts) take its free seats; until then nobody moves, no clock runs
and its computers wait; the last seat starts it. Two takers of one seat: exactly one gets it.
The creator may withdraw it while nobody else has joined. The lobby's websocket follows every
change, from any server process (the last test runs two over PostgreSQL and Redis)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from cluster import Server, at_once, running_cluster
from cluster import act as cluster_act
from cluster import view as cluster_view
from fastapi.testclient import TestClient
from server_helpers import Browser, auth, view, wait_view
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from test_server_postgres import pg_url  # noqa: F401  (a fixture)
from websockets.sync.client import connect

from triverse.server.app import create_app
from triverse.server.clock import ManualClock
from triverse.server.config import settings_with
from triverse.server.db import hash_token
from triverse.server.lobby import LOBBY_CHANNEL
from triverse.server.lobby_models import LobbyAnswer, OpenGamesMessage
from triverse.server.lobby_store import SeatRefused

Json = dict[str, Any]
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def client(db_url: str, clock: ManualClock) -> Iterator[TestClient]:
    """A server on its own SQLite file, with a clock the test moves."""
    app = create_app(db_url, bot_delay=0, bot_workers=1, bot_executor="thread",
                     allow_client_seed=True, clock=clock)
    with TestClient(app) as test_client:
        yield test_client


def code(answer: Any) -> str:
    value: str = answer.json()["error"]["code"]
    return value


def open_game(client: TestClient, kinds: list[str], game: str = "triominoes", seed: int = 7,
              headers: dict[str, str] | None = None, **body: Any) -> Json:
    """Create an open game; the answer."""
    options = body.pop("options", {"target": 60} if game == "triominoes" else {})
    answer = client.post("/api/matches", headers=headers or {}, json={
        "game": game, "mode": "open", "seed": seed, "options": options,
        "seats": [{"kind": kind} for kind in kinds], **body})
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    return created


def lobby(client: TestClient) -> list[Json]:
    answer = client.get("/api/lobby")
    assert answer.status_code == 200, answer.text
    LobbyAnswer.model_validate(answer.json())  # the documented shape, exactly
    games: list[Json] = answer.json()["games"]
    return games


def join(client: TestClient, match_id: str, headers: dict[str, str] | None = None,
         **body: Any) -> Any:
    return client.post(f"/api/matches/{match_id}/join", json=body, headers=headers or {})


# --- opening, listing, joining -----------------------------------------------------------------
def test_an_open_game_waits_in_the_lobby_until_a_guest_takes_its_seat(
    client: TestClient,
) -> None:
    created = open_game(client, ["human", "human"])
    match_id = created["match_id"]
    assert created["mode"] == "open"
    creator = created["seats"][0]["token"]
    assert creator and created["seats"][1]["token"] is None and created["seats"][1]["link"] is None

    [listed] = lobby(client)
    assert listed["match_id"] == match_id and listed["title"] == "Tri-ominoes"
    assert listed["free"] == 1 and listed["waiting"] == ["Player 1"] and listed["players"] == 2
    assert [(s["seat"], s["free"]) for s in listed["seats"]] == [(0, False), (1, True)]
    assert listed["options"]["target"] == 60 and listed["rated"] is False
    assert listed["time_limit"] is None and listed["pace"] == "correspondence"

    listing = client.get("/api/lobby").text  # no token, hash or seed: nothing secret
    assert creator not in listing and hash_token(creator) not in listing
    assert "token" not in listing and all("seed" not in g for g in lobby(client))

    mine = view(client, match_id, creator)
    assert mine["mode"] == "open" and [p["free"] for p in mine["players"]] == [False, True]
    assert not mine["your_turn"] and mine["legal_actions"] == []
    [game] = client.post("/api/my-games", json={"tokens": [creator]}).json()["matches"]
    assert game["mode"] == "open" and not game["your_turn"] and not game["finished"]

    answer = join(client, match_id, name="Bob")
    assert answer.status_code == 200, answer.text
    joined = answer.json()
    assert joined["seat"] == 1 and joined["started"] is True
    assert joined["link"] == f"/play/{match_id}?seat=1#{joined['token']}"
    assert lobby(client) == []  # started: no longer open

    theirs = view(client, match_id, joined["token"])
    assert theirs["seat"] == 1 and theirs["players"][1]["name"] == "Bob"
    assert not any(p["free"] for p in theirs["players"])
    to_move = theirs["to_move"]
    token = creator if to_move == 0 else joined["token"]
    legal = view(client, match_id, token)["legal_actions"]
    played = client.post(f"/api/matches/{match_id}/actions", headers=auth(token),
                         json={"action": legal[0]["notation"], "move": 0})
    assert played.status_code == 200, played.text
    # Only the free seat was ever free: a second joiner finds the game started.
    late = join(client, match_id)
    assert late.status_code == 409 and code(late) == "not_open"


def test_nothing_moves_before_the_start(client: TestClient) -> None:
    created = open_game(client, ["human", "human"], game="trident", seed=2,
                        options={"time_limit": 3600})
    match_id, token = created["match_id"], created["seats"][0]["token"]
    assert view(client, match_id)["to_move"] == 0  # the creator would be to move
    mine = view(client, match_id, token)
    assert not mine["your_turn"] and mine["legal_actions"] == []
    [game] = client.post("/api/my-games", json={"tokens": [token]}).json()["matches"]
    assert game["to_move"] == 0 and not game["your_turn"]
    refused = [
        client.post(f"/api/matches/{match_id}/actions", headers=auth(token),
                    json={"action": "pass", "move": 0}),
        client.post(f"/api/matches/{match_id}/preview", headers=auth(token),
                    json={"action": "pass"}),
        client.post(f"/api/matches/{match_id}/pause", headers=auth(token),
                    json={"paused": True}),
        client.post(f"/api/matches/{match_id}/hint", headers=auth(token)),
    ]
    assert [(a.status_code, code(a)) for a in refused] == [(409, "not_started")] * 4
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "view"
        ws.send_json({"type": "action", "action": "pass", "move": 0, "id": 1})
        error = ws.receive_json()
        assert (error["type"], error["code"], error["id"]) == ("error", "not_started", 1)
    # No clock runs while it waits, however long.
    assert view(client, match_id)["deadline"] is None
    assert lobby(client)[0]["time_limit"] == 3600
    assert lobby(client)[0]["pace"] == "correspondence"  # an hour a turn


def test_the_clock_starts_when_the_last_seat_is_taken(client: TestClient,
                                                      clock: ManualClock) -> None:
    created = open_game(client, ["human", "human"], game="trident", options={"time_limit": 600})
    match_id = created["match_id"]
    clock.advance(3 * 3600)  # three hours in the lobby cost no turn
    assert view(client, match_id)["deadline"] is None
    assert join(client, match_id).json()["started"]
    started = view(client, match_id)
    assert started["move"] == 0 and started["deadline"] == "2026-12-01T12:10:00.000Z"


def test_computers_wait_for_the_start(client: TestClient) -> None:
    # Trinity, seed 3: the novice of seat 0 moves first.
    created = open_game(client, ["novice", "human", "human"], game="trinity", seed=3)
    match_id = created["match_id"]
    assert [s["token"] is not None for s in created["seats"]] == [False, True, False]
    assert view(client, match_id)["to_move"] == 0
    service = client.app.state.service  # type: ignore[attr-defined]
    time.sleep(0.5)  # bot_delay is 0: a computer allowed to move would have moved by now
    assert view(client, match_id)["move"] == 0 and not service.computers.busy(match_id)
    assert join(client, match_id).json()["started"]
    moved = wait_view(client, match_id, None, lambda v: v["move"] >= 1, timeout=30)
    assert moved["log"][0]["player"] == 0


def test_a_joiner_picks_a_seat_and_seats_are_checked(client: TestClient) -> None:
    created = open_game(client, ["human", "novice", "human", "human"], game="trinity")
    match_id = created["match_id"]
    assert code(join(client, match_id, seat=1)) == "bad_seats"  # a computer's
    assert code(join(client, match_id, seat=0)) == "seat_taken"  # the creator's
    assert code(join(client, match_id, seat=9)) == "bad_seats"
    assert join(client, match_id, seat=-1).status_code == 422
    third = join(client, match_id, seat=3)
    assert third.status_code == 200 and third.json() | {"token": ""} == {
        "match_id": match_id, "seat": 3, "token": "", "link": third.json()["link"],
        "started": False}
    [listed] = lobby(client)
    assert listed["free"] == 1 and listed["waiting"] == ["Player 1", "Player 4"]
    assert code(join(client, match_id, seat=3)) == "seat_taken"
    assert join(client, match_id).json()["seat"] == 2  # the first free one
    assert code(join(client, "nosuchmatch0")) == "unknown_match"
    # Modes that are not open have no free seat to take.
    online = client.post("/api/matches", json={
        "game": "trident", "mode": "online", "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert code(join(client, online.json()["match_id"])) == "not_open"


def test_an_open_game_needs_a_free_seat(client: TestClient) -> None:
    alone = client.post("/api/matches", json={
        "game": "trinity", "mode": "open", "seats": [{"kind": "human"}, {"kind": "novice"}]})
    assert alone.status_code == 422 and code(alone) == "bad_seats"
    assert "free seat" in alone.json()["error"]["message"]
    assert "open" in client.get("/api/games").json()["modes"]


def test_accounts_join_one_seat_each_and_rated_games_need_one(client: TestClient) -> None:
    ann, bob = Browser(client, "Ann"), Browser(client, "Bob")
    guest_rated = client.post("/api/matches", json={
        "game": "trinity", "mode": "open", "rated": True,
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert guest_rated.status_code == 401 and code(guest_rated) == "not_logged_in"

    created = open_game(client, ["human", "human", "human"], game="trinity",
                        headers=ann.headers(), rated=True)
    match_id = created["match_id"]
    [listed] = lobby(client)
    assert listed["rated"] and listed["waiting"] == ["Ann"]
    assert listed["seats"][0] == {"seat": 0, "name": "Ann", "kind": "human", "free": False,
                                  "account": True}
    # A guest cannot take a seat of a rated game; the creator's account cannot take a second.
    assert code(join(client, match_id)) == "not_logged_in"
    assert code(join(client, match_id, headers=ann.headers())) == "bad_seats"
    # Logged in, a join needs the session's CSRF token.
    forged = join(client, match_id, headers=bob.headers(csrf=False))
    assert forged.status_code == 403 and code(forged) == "bad_csrf"
    taken = join(client, match_id, headers=bob.headers(), name="ignored")
    assert taken.status_code == 200 and not taken.json()["started"]
    assert code(join(client, match_id, headers=bob.headers())) == "bad_seats"
    players = view(client, match_id)["players"]
    assert [(p["name"], p["account"], p["free"]) for p in players] == [
        ("Ann", True, False), ("Bob", True, False), ("Player 3", False, True)]
    assert lobby(client)[0]["waiting"] == ["Ann", "Bob"]


# --- one seat, two takers ----------------------------------------------------------------------
def test_two_takers_of_one_seat_exactly_one_gets_it(client: TestClient) -> None:
    created = open_game(client, ["human", "human", "human"], game="trinity")
    match_id = created["match_id"]
    service = client.app.state.service  # type: ignore[attr-defined]

    async def race() -> list[Any]:
        return list(await asyncio.gather(service.join(match_id, 1), service.join(match_id, 1),
                                         return_exceptions=True))

    results = client.portal.call(race)  # type: ignore[union-attr]
    won = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, BaseException)]
    assert len(won) == 1 and [getattr(e, "code", e) for e in lost] == ["seat_taken"]
    assert view(client, match_id, won[0].token)["seat"] == 1

    # The database's guard alone (the match's lock left out, as between two processes): a
    # second update of the same seat finds it taken.
    async def behind_the_lock() -> str:
        store = service.open.store
        await store.take_seat(match_id, 2, hash_token("first"), None, None,
                                   service.clock.now(), None)
        try:
            await store.take_seat(match_id, 2, hash_token("second"), None, None,
                                       service.clock.now(), None)
        except SeatRefused as exc:
            return exc.reason
        return "taken twice"

    assert client.portal.call(behind_the_lock) == "not_open"  # the first one started it
    # ... and with a seat still free after the first (a four-seat game):
    created = open_game(client, ["human", "human", "human", "human"], game="trinity")
    other = created["match_id"]

    async def twice() -> str:
        store = service.open.store
        await store.take_seat(other, 2, hash_token("a"), None, None,
                                   service.clock.now(), None)
        try:
            await store.take_seat(other, 2, hash_token("b"), None, None,
                                       service.clock.now(), None)
        except SeatRefused as exc:
            return exc.reason
        return "taken twice"

    assert client.portal.call(twice) == "taken"


# --- withdrawing -------------------------------------------------------------------------------
def test_the_creator_withdraws_an_open_game_nobody_joined(client: TestClient) -> None:
    created = open_game(client, ["human", "human"])
    match_id, token = created["match_id"], created["seats"][0]["token"]
    other = open_game(client, ["human", "human"])
    nobody = client.delete(f"/api/matches/{match_id}/open")
    assert nobody.status_code == 401 and code(nobody) == "missing_token"
    stranger = client.delete(f"/api/matches/{match_id}/open",
                             headers=auth(other["seats"][0]["token"]))
    assert stranger.status_code == 403 and code(stranger) == "wrong_token"
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "view"
        done = client.delete(f"/api/matches/{match_id}/open", headers=auth(token))
        assert done.status_code == 204, done.text
        error = ws.receive_json()
        assert (error["type"], error["code"]) == ("error", "unknown_match")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    assert [g["match_id"] for g in lobby(client)] == [other["match_id"]]
    gone = client.get(f"/api/matches/{match_id}/view")
    assert gone.status_code == 404 and code(gone) == "unknown_match"
    assert code(join(client, match_id)) == "unknown_match"


def test_an_open_game_cannot_be_withdrawn_once_joined(client: TestClient) -> None:
    created = open_game(client, ["human", "human", "human"], game="trinity")
    match_id, token = created["match_id"], created["seats"][0]["token"]
    assert join(client, match_id).status_code == 200
    late = client.delete(f"/api/matches/{match_id}/open", headers=auth(token))
    assert late.status_code == 409 and code(late) == "already_joined"
    assert join(client, match_id).json()["started"]
    started = client.delete(f"/api/matches/{match_id}/open", headers=auth(token))
    assert started.status_code == 409 and code(started) == "not_open"
    assert view(client, match_id)["move"] == 0


# --- the lobby's websocket ---------------------------------------------------------------------
def games_of(message: Json) -> list[str]:
    OpenGamesMessage.model_validate(message)
    return [game["match_id"] for game in message["games"]]


def test_the_lobby_socket_follows_every_change(client: TestClient,
                                               clock: ManualClock) -> None:
    first = open_game(client, ["human", "human"])
    before = first["match_id"]
    clock.advance(1)
    with client.websocket_connect("/ws/lobby") as ws:
        assert games_of(ws.receive_json()) == [before]
        created = open_game(client, ["human", "human", "human"], game="trinity")
        match_id = created["match_id"]
        assert games_of(ws.receive_json()) == [match_id, before]  # opened; newest first
        assert join(client, match_id).status_code == 200
        joined = ws.receive_json()  # joined
        assert joined["games"][0]["waiting"] == ["Player 1", "Player 2"]
        assert join(client, match_id).json()["started"]
        assert games_of(ws.receive_json()) == [before]  # started
        ws.send_json({"type": "ping", "id": 3})
        assert ws.receive_json() | {"server_time": ""} == {"type": "pong", "id": 3,
                                                            "server_time": ""}
        ws.send_json({"type": "action"})
        assert ws.receive_json()["code"] == "bad_request"
        gone = client.delete(f"/api/matches/{before}/open",
                             headers=auth(first["seats"][0]["token"]))
        assert gone.status_code == 204
        assert games_of(ws.receive_json()) == []  # withdrawn


def test_a_burst_of_changes_is_read_once_or_so(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect("/ws/lobby") as ws:
        assert games_of(ws.receive_json()) == []
        reads = service.lobby_feed.reads

        async def burst() -> None:
            for _ in range(30):
                await service.pubsub.publish(LOBBY_CHANNEL, {"type": "lobby"})

        client.portal.call(burst)  # type: ignore[union-attr]
        created = open_game(client, ["human", "human"])
        message = ws.receive_json()
        while created["match_id"] not in games_of(message):
            message = ws.receive_json()
        assert service.lobby_feed.reads - reads <= 3  # 31 changes, read at most thrice


def test_the_lobby_socket_checks_its_origin_and_is_bounded(db_url: str) -> None:
    settings = settings_with(db_url=db_url, bot_delay=0, bot_workers=1, lobby_sockets=2,
                             sockets_per_client=3)
    with TestClient(create_app(settings=settings)) as client:
        foreign = {"Origin": "http://evil.example"}
        with pytest.raises(WebSocketDenialResponse) as refused, \
                client.websocket_connect("/ws/lobby", headers=foreign):
            pass
        assert refused.value.status_code == 403
        assert refused.value.json()["error"]["code"] == "bad_origin"
        own = {"Origin": "http://testserver"}
        with client.websocket_connect("/ws/lobby", headers=own) as one, \
                client.websocket_connect("/ws/lobby") as two:
            assert one.receive_json()["type"] == two.receive_json()["type"] == "open_games"
            with client.websocket_connect("/ws/lobby") as three:
                error = three.receive_json()
                assert (error["type"], error["code"]) == ("error", "too_many_sockets")
                with pytest.raises(WebSocketDisconnect) as closed:
                    three.receive_json()
                assert closed.value.code == 4429
        # Closed sockets no longer count.
        with client.websocket_connect("/ws/lobby") as again:
            assert again.receive_json()["type"] == "open_games"
        assert client.app.state.service.quotas.sockets.lobby == 0  # type: ignore[attr-defined]


def test_joining_and_the_lobby_are_rate_limited(db_url: str) -> None:
    settings = settings_with(db_url=db_url, bot_delay=0, bot_workers=1, rate_join="2/minute",
                             rate_lobby="3/minute", allow_client_seed=True)
    with TestClient(create_app(settings=settings)) as client:
        created = open_game(client, ["human", "human", "human", "human"], game="trinity")
        match_id = created["match_id"]
        assert [join(client, match_id).status_code for _ in range(3)] == [200, 200, 429]
        assert lobby(client)[0]["free"] == 1
        answers = [client.get("/api/lobby") for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[-1].headers["Retry-After"]


# --- PostgreSQL --------------------------------------------------------------------------------
def test_open_games_on_postgresql(pg_url: str) -> None:  # noqa: F811
    psycopg = pytest.importorskip("psycopg")
    app = create_app(pg_url, bot_delay=0, bot_workers=1, bot_executor="thread",
                     allow_client_seed=True)
    with TestClient(app) as client:
        ann = Browser(client, "Ann")
        gone = open_game(client, ["human", "human"], headers=ann.headers())
        kept = open_game(client, ["human", "human", "human"], game="trinity")
        withdrawn = client.delete(f"/api/matches/{gone['match_id']}/open",
                                  headers=auth(gone["seats"][0]["token"]))
        assert withdrawn.status_code == 204
        with psycopg.connect(pg_url) as connection:
            counts = [connection.execute(f"SELECT count(*) FROM {table} WHERE match_id = %s",
                                         (gone["match_id"],)).fetchone()[0]
                      for table in ("seats", "moves")]
            status = connection.execute("SELECT status FROM matches WHERE id = %s",
                                        (kept["match_id"],)).fetchone()[0]
        assert counts == [0, 0] and status == "open"
        assert [g["match_id"] for g in lobby(client)] == [kept["match_id"]]
        service = client.app.state.service  # type: ignore[attr-defined]

        async def race() -> list[Any]:
            return list(await asyncio.gather(
                *(service.join(kept["match_id"], 2) for _ in range(3)), return_exceptions=True))

        results = client.portal.call(race)  # type: ignore[union-attr]
        assert sorted(getattr(r, "code", "won") for r in results) == [
            "seat_taken", "seat_taken", "won"]
        assert join(client, kept["match_id"], headers=ann.headers()).json()["started"]
        with psycopg.connect(pg_url) as connection:
            status = connection.execute("SELECT status FROM matches WHERE id = %s",
                                        (kept["match_id"],)).fetchone()[0]
        assert status == "active" and lobby(client) == []


# --- two server processes ----------------------------------------------------------------------
def test_the_lobby_of_one_process_follows_joins_through_the_other(
    pg_url: str, tmp_path: Path,  # noqa: F811
) -> None:
    """Two ``triverse serve`` processes on one PostgreSQL schema and one Redis: a lobby socket
    on server b hears of a game opened, joined and started through server a; two takers of one
    seat through a and b at once: one gets it; every seat's token then works on either."""
    with running_cluster(pg_url, tmp_path) as cluster:
        a, b = cluster.a, cluster.b
        with connect(f"{b.ws_url}/ws/lobby", open_timeout=30) as ws:
            def next_games(timeout: float = 30) -> list[Json]:
                message: Json = json.loads(ws.recv(timeout=timeout))
                OpenGamesMessage.model_validate(message)
                games: list[Json] = message["games"]
                return games

            assert next_games() == []
            body = {"game": "trinity", "mode": "open", "seed": 7, "options": {},
                    "seats": [{"kind": "human"}] * 3}
            created = httpx.post(a.url + "/api/matches", json=body, timeout=30).json()
            match_id, creator = created["match_id"], created["seats"][0]["token"]
            assert [g["match_id"] for g in next_games()] == [match_id]  # opened, through a

            def take(server: Server) -> httpx.Response:
                return httpx.post(f"{server.url}/api/matches/{match_id}/join",
                                  json={"seat": 1}, timeout=30)

            answers = at_once(partial(take, a), partial(take, b))
            assert sorted(r.status_code for r in answers) == [200, 409]
            [lost] = [r for r in answers if r.status_code == 409]
            assert lost.json()["error"]["code"] == "seat_taken"
            [won] = [r.json() for r in answers if r.status_code == 200]
            assert next_games()[0]["waiting"] == ["Player 1", "Player 2"]  # joined

            last = httpx.post(f"{a.url}/api/matches/{match_id}/join", timeout=30).json()
            assert last["seat"] == 2 and last["started"]
            assert next_games() == []  # started, through a
        tokens = {0: creator, 1: won["token"], 2: last["token"]}
        # Every seat plays on either server, though a cached the match while seats were free.
        for server in (a, b):
            public = cluster_view(server, match_id)
            assert not any(p["free"] for p in public["players"])
            token = tokens[public["to_move"]]
            mine = cluster_view(server, match_id, token)
            assert mine["your_turn"] and mine["legal_actions"]
            played = cluster_act(server, match_id, token, mine["legal_actions"][0]["notation"],
                                 mine["move"])
            assert played.status_code == 200, played.text
