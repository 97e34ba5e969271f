"""Web Push (issue 23, "Your move"): the VAPID key shared by every process, subscriptions
(CSRF, bounds, one endpoint one subscription), "your move" notifications queued after a move in
a correspondence match (in the subscriber's language, never for live matches, guests or
computers), the outbox, and the sender, against a push service of the test's own on plain HTTP:
a VAPID-signed, aes128gcm-encrypted request; 410 deletes the subscription; other failures are
recorded and tried again; among two senders on PostgreSQL each notification goes once."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi.testclient import TestClient
from py_vapid import Vapid
from server_helpers import auth, view
from sqlalchemy import create_engine, insert, select, text
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse.server.accounts import CSRF_HEADER
from triverse.server.app import create_app
from triverse.server.clock import ManualClock
from triverse.server.config import settings_with
from triverse.server.db import (
    AccountRow,
    PushQueueRow,
    PushSubscriptionRow,
    make_engine,
    migrate,
)
from triverse.server.push import ATTEMPTS, SUBSCRIPTIONS, Push

PASSWORD = "correct horse battery"
Json = dict[str, Any]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


class Browser:
    """A browser's push keys: its P-256 key pair and its auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.secret = os.urandom(16)

    @property
    def keys(self) -> dict[str, str]:
        point = self.key.public_key().public_bytes(Encoding.X962,
                                                   PublicFormat.UncompressedPoint)
        return {"p256dh": b64url(point), "auth": b64url(self.secret)}

    def decrypt(self, body: bytes) -> Json:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.secret,
                                 version="aes128gcm")
        decoded: Json = json.loads(plain)
        return decoded


class PushService:
    """A push service on 127.0.0.1 over plain HTTP: it records every request and answers
    ``status[path]`` (201 unless told)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.received.append((self.path, dict(self.headers.items()), body))
                status = service.status.get(self.path, 201)
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.close()


LOCAL = {"push_allow_http": True, "push_hosts": "127.0.0.1", "push_poll": 0.1}
"""Settings that let the sender post to the test's push service."""


@pytest.fixture
def make(db_url: str) -> Iterator[Callable[..., TestClient]]:
    """Browsers on one server: ``make(**settings)`` is a new client with cookies of its own
    (the first call's settings are the server's; ``clock``: its clock)."""
    clients: list[TestClient] = []
    app: list[Any] = []

    def new(clock: ManualClock | None = None, **settings: Any) -> TestClient:
        if not app:
            settings.setdefault("push_send", False)
            app.append(create_app(settings=settings_with(
                db_url=db_url, bot_delay=0, bot_workers=1, allow_client_seed=True,
                **settings), clock=clock))
            clients.append(TestClient(app[0]).__enter__())
        browser = TestClient(app[0])
        browser.portal = clients[0].portal  # the server's event loop, for every browser
        return browser

    yield new
    for client in clients:
        client.__exit__(None, None, None)


def sign_up(browser: TestClient, name: str) -> Json:
    answer = browser.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    made: Json = answer.json()
    browser.headers[CSRF_HEADER] = made["csrf"]
    return made


def subscribe(browser: TestClient, endpoint: str, keys: dict[str, str] | None = None,
              lang: str | None = "en") -> Any:
    return browser.post("/api/push/subscriptions", json={
        "endpoint": endpoint, "keys": keys or Browser().keys, "lang": lang})


FCM = "https://fcm.googleapis.com/fcm/send/"


def code(answer: Any) -> str:
    value: str = answer.json()["error"]["code"]
    return value


def create(browser: TestClient, pace: str, seats: tuple[str, ...] = ("human", "human"),
           mode: str = "online") -> Json:
    answer = browser.post("/api/matches", json={
        "game": "triominoes", "options": {"target": 60}, "mode": mode, "seed": 7,
        "pace": pace, "seats": [{"kind": kind} for kind in seats]})
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    return created


def give_seat(browser: TestClient, db_url: str, match_id: str, seat: int,
              account: Json) -> None:
    """Make ``seat`` the account's, and the server read the seats again (what claiming or
    joining it does)."""
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE seats SET account_id = :a, name = :n "
                                "WHERE match_id = :m AND seat = :s"),
                           {"a": account["account"]["id"], "n": account["account"]["name"],
                            "m": match_id, "s": seat})
    engine.dispose()
    service = browser.app.state.service  # type: ignore[attr-defined]
    browser.portal.call(service.matches.refresh, match_id,  # type: ignore[union-attr]
                        None, True, True)


def play(client: TestClient, match_id: str, token: str) -> Json:
    """The token's seat plays its first legal action; the public view after it."""
    mine = view(client, match_id, token)
    assert mine["your_turn"], mine
    answer = client.post(f"/api/matches/{match_id}/actions", headers=auth(token), json={
        "action": mine["legal_actions"][0]["notation"], "move": mine["move"]})
    assert answer.status_code == 200, answer.text
    return view(client, match_id)


def queue(db_url: str) -> list[Any]:
    engine = create_engine(db_url)
    with engine.connect() as connection:
        rows = connection.execute(select(
            PushQueueRow.subscription_id, PushQueueRow.payload, PushQueueRow.sent_at,
            PushQueueRow.attempts, PushQueueRow.error).order_by(PushQueueRow.id)).all()
    engine.dispose()
    return list(rows)


def wait_for(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.02)


# --- the key ------------------------------------------------------------------------------------
def test_the_key_is_made_once_and_survives_a_restart(db_url: str) -> None:
    keys = []
    for _ in range(2):
        with TestClient(create_app(db_url, bot_delay=0, bot_workers=1)) as client:
            answer = client.get("/api/push/key")
            assert answer.status_code == 200
            keys.append(answer.json()["public_key"])
    assert keys[0] == keys[1]
    point = unb64url(keys[0])
    assert len(point) == 65 and point[0] == 4 and "=" not in keys[0]
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)  # on the curve


def test_two_processes_starting_together_end_with_one_key(pg_url: str) -> None:  # noqa: F811
    settings = settings_with(db_url=pg_url)
    engine = make_engine(settings.db_url)
    migrate(engine)
    engines = [make_engine(settings.db_url) for _ in range(4)]
    barrier = threading.Barrier(len(engines))
    found: list[str] = []

    def start(engine: Any) -> None:
        push = Push(settings, engine, ManualClock(), asyncio.to_thread)
        barrier.wait()
        found.append(asyncio.run(push.public_key()))

    threads = [threading.Thread(target=start, args=(e,)) for e in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for e in [engine, *engines]:
        e.dispose()
    assert len(found) == 4 and len(set(found)) == 1


# --- subscriptions ----------------------------------------------------------------------------
def test_subscribing_needs_a_session_and_its_csrf_token(make: Any) -> None:
    guest = make()
    assert subscribe(guest, FCM + "a").status_code == 401
    assert code(subscribe(guest, FCM + "a")) == "not_logged_in"
    assert guest.get("/api/push/outbox").status_code == 401
    browser = make()
    sign_up(browser, "Zoe")
    csrf = browser.headers.pop(CSRF_HEADER)
    answer = subscribe(browser, FCM + "a")
    assert answer.status_code == 403 and code(answer) == "bad_csrf"
    answer = browser.request("DELETE", "/api/push/subscriptions", json={"endpoint": FCM + "a"})
    assert answer.status_code == 403 and code(answer) == "bad_csrf"
    browser.headers[CSRF_HEADER] = "not" + csrf
    assert code(subscribe(browser, FCM + "a")) == "bad_csrf"
    browser.headers[CSRF_HEADER] = csrf
    answer = subscribe(browser, FCM + "a")
    assert answer.status_code == 201 and len(answer.json()["id"]) >= 16


@pytest.mark.parametrize(("endpoint", "keys", "why"), [
    ("http://fcm.googleapis.com/fcm/send/x", None, "https URL"),
    ("https://127.0.0.1/push", None, "not a push service"),
    ("https://fcm.googleapis.com.evil.example/x", None, "not a push service"),
    ("https://user:pw@fcm.googleapis.com/x", None, "https URL"),
    ("ftp://fcm.googleapis.com/x", None, "https URL"),
    (FCM + "x" * 2100, None, "at most"),
    (FCM + "x", {"p256dh": b64url(b"\x04" + b"\x01" * 64), "auth": b64url(b"a" * 16)},
     "P-256"),
    (FCM + "x", {"p256dh": "not base64!", "auth": b64url(b"a" * 16)}, "P-256"),
    (FCM + "x", {"p256dh": Browser().keys["p256dh"], "auth": b64url(b"a" * 15)}, "16 bytes"),
])
def test_subscriptions_are_checked(make: Any, endpoint: str, keys: Any, why: str) -> None:
    browser = make()
    sign_up(browser, "Zoe")
    answer = subscribe(browser, endpoint, keys)
    assert answer.status_code == 422 and code(answer) == "bad_request", answer.text
    assert why in answer.json()["error"]["message"]


def test_the_same_endpoint_is_one_subscription_and_an_account_keeps_ten(
        make: Any, db_url: str) -> None:
    clock = ManualClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    browser = make(clock)
    sign_up(browser, "Zoe")
    first = subscribe(browser, FCM + "0", lang="fr-CA").json()["id"]
    assert subscribe(browser, FCM + "0", lang="pl").json()["id"] == first  # updated
    for n in range(1, SUBSCRIPTIONS + 2):
        clock.advance(1)
        assert subscribe(browser, FCM + str(n)).status_code == 201
    engine = create_engine(db_url)
    with engine.connect() as connection:
        endpoints = connection.execute(select(PushSubscriptionRow.endpoint)).scalars().all()
    assert sorted(endpoints) == sorted(FCM + str(n) for n in range(2, SUBSCRIPTIONS + 2))
    # The newest ten stay; the oldest two (0, then 1) were replaced.
    answer = browser.request("DELETE", "/api/push/subscriptions", json={"endpoint": FCM + "5"})
    assert answer.status_code == 204
    with engine.connect() as connection:
        endpoints = connection.execute(select(PushSubscriptionRow.endpoint)).scalars().all()
    engine.dispose()
    assert FCM + "5" not in endpoints and len(endpoints) == SUBSCRIPTIONS - 1


def test_one_account_cannot_delete_or_read_another_s(make: Any, db_url: str) -> None:
    zoe, max_ = make(), make()
    sign_up(zoe, "Zoe")
    sign_up(max_, "Max")
    assert subscribe(zoe, FCM + "z").status_code == 201
    answer = max_.request("DELETE", "/api/push/subscriptions", json={"endpoint": FCM + "z"})
    assert answer.status_code == 204  # nothing of Max's to delete...
    engine = create_engine(db_url)
    with engine.connect() as connection:  # ... and Zoe's is still there
        assert connection.execute(select(PushSubscriptionRow.endpoint)).scalars().all() == [
            FCM + "z"]
    engine.dispose()


# --- "your move" ------------------------------------------------------------------------------
def test_your_move_is_queued_in_the_subscriber_s_language(make: Any, db_url: str) -> None:
    ana, ben = make(), make()
    sign_up(ana, "Ana")
    b = sign_up(ben, "Ben")
    assert subscribe(ana, FCM + "ana", lang="fr").status_code == 201
    assert subscribe(ben, FCM + "ben-phone", lang="pl-PL").status_code == 201
    assert subscribe(ben, FCM + "ben-laptop", lang="en").status_code == 201
    created = create(ana, "correspondence")
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    give_seat(ana, db_url, match_id, 1, b)  # Ana has seat 0, Ben seat 1
    assert view(ana, match_id)["to_move"] == 1
    after = play(ben, match_id, tokens[1])  # Ben moves: Ana's move
    assert after["to_move"] == 0
    rows = queue(db_url)
    assert len(rows) == 1 and rows[0].sent_at is None and rows[0].attempts == 0
    assert rows[0].payload == {
        "type": "your_move", "title": "À vous de jouer : Tri-ominoes",
        "body": "Ben a joué : c’est à vous.", "url": f"/play/{match_id}?seat=0",
        "match_id": match_id, "game": "triominoes", "move": 1}
    assert "token" not in json.dumps(rows[0].payload) and tokens[0] not in json.dumps(
        [r.payload for r in rows])
    while after["to_move"] == 0:  # Ana draws (her move still: nothing) and plays
        after = play(ana, match_id, tokens[0])
        assert len(queue(db_url)) == 1 or after["to_move"] == 1
    rows = queue(db_url)[1:]  # Ben's move now, on both his browsers
    assert sorted((r.payload["title"], r.payload["body"]) for r in rows) == [
        ("Twoja kolej: Tri-ominoes", "Ana wykonuje ruch: teraz Twoja kolej."),
        ("Your turn in Tri-ominoes", "Ana has played: it is your turn."),
    ]
    assert {r.payload["url"] for r in rows} == {f"/play/{match_id}?seat=1"}
    assert {r.payload["move"] for r in rows} == {after["move"]}
    # Each reads its own outbox, newest first; no one reads another's.
    outbox = ben.get("/api/push/outbox").json()
    assert [n["payload"]["move"] for n in outbox] == [after["move"]] * 2
    assert all(n["sent"] is None and n["error"] is None and n["created"] for n in outbox)
    assert [n["payload"]["body"] for n in ana.get("/api/push/outbox").json()] == [
        "Ben a joué : c’est à vous."]
    assert make().get("/api/push/outbox").status_code == 401


def test_nothing_is_queued_for_live_games_guests_computers_or_one_s_own_seats(
        make: Any, db_url: str) -> None:
    ana, ben = make(), make()
    sign_up(ana, "Ana")
    b = sign_up(ben, "Ben")
    subscribe(ana, FCM + "ana")
    subscribe(ben, FCM + "ben")
    # Live pace: no push, even between two accounts.
    live = create(ana, "live")
    give_seat(ana, db_url, live["match_id"], 1, b)
    play(ben, live["match_id"], live["seats"][1]["token"])
    assert view(ana, live["match_id"])["to_move"] == 0 and queue(db_url) == []
    # A guest's seat (seat 1 of Ana's match): nothing for the guest, whatever Ana does...
    guest = create(ana, "correspondence")
    guest_id, guest_tokens = guest["match_id"], [s["token"] for s in guest["seats"]]
    play(ana, guest_id, guest_tokens[1])  # the guest moves: Ana's move, pushed
    assert [r.payload["match_id"] for r in queue(db_url)] == [guest_id]
    while play(ana, guest_id, guest_tokens[0])["to_move"] == 0:
        pass  # Ana draws, then plays: the guest's move, no one to push
    assert len(queue(db_url)) == 1
    # A computer to move: nothing for it.
    computer = create(ben, "correspondence", ("human", "average"), "computer")
    match_id, token = computer["match_id"], computer["seats"][0]["token"]
    public = view(ben, match_id)
    while public["to_move"] == 0:  # Ben plays until it is the computer's move
        public = play(ben, match_id, token)
    wait_for(lambda: (v := view(ben, match_id))["move"] > public["move"] and v["to_move"] == 0)
    name = public["players"][1]["name"]
    pushed = [r for r in queue(db_url) if r.payload["match_id"] == computer["match_id"]]
    assert pushed and {r.payload["url"] for r in pushed} == {
        f"/play/{computer['match_id']}?seat=0"}  # Ben, after the computer's moves, never it
    assert {r.payload["body"] for r in pushed} == {f"{name} has played: it is your turn."}
    # One account holding both seats (hot-seat): no push about its own moves.
    count = len(queue(db_url))
    hotseat = create(ana, "correspondence", mode="hotseat")
    play(ana, hotseat["match_id"], hotseat["seats"][1]["token"])
    play(ana, hotseat["match_id"], hotseat["seats"][0]["token"])
    assert len(queue(db_url)) == count


def test_a_missed_turn_tells_the_next_player(make: Any, db_url: str) -> None:
    clock = ManualClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    ana, ben = make(clock), make()
    sign_up(ana, "Ana")
    b = sign_up(ben, "Ben")
    subscribe(ana, FCM + "ana", lang="en")
    answer = ana.post("/api/matches", json={
        "game": "trident", "options": {"time_limit": 86400}, "mode": "online", "seed": 7,
        "seats": [{"kind": "human"}, {"kind": "human"}]})  # a day a turn: correspondence
    assert answer.status_code == 201, answer.text
    match_id = answer.json()["match_id"]
    give_seat(ana, db_url, match_id, 1, b)
    public = view(ana, match_id)
    assert public["pace"] == "correspondence" and public["to_move"] == 1
    clock.advance(86401)  # Ben misses his turn: Ana's move
    wait_for(lambda: view(ana, match_id)["move"] == 1)
    [row] = queue(db_url)
    assert row.payload["body"] == "Ben ran out of time: it is your turn."
    assert row.payload["title"] == "Your turn in Trident" and row.payload["move"] == 1


def test_a_deleted_account_s_subscriptions_go_with_it(make: Any, db_url: str) -> None:
    ana = make()
    sign_up(ana, "Ana")
    subscribe(ana, FCM + "ana")
    created = create(ana, "correspondence")
    play(ana, created["match_id"], created["seats"][1]["token"])
    assert len(queue(db_url)) == 1
    answer = ana.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert answer.status_code == 204
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert connection.execute(select(PushSubscriptionRow.id)).all() == []
    engine.dispose()
    assert queue(db_url) == []


def test_a_subscription_moved_to_another_account_leaves_its_notifications(
        make: Any, db_url: str) -> None:
    ana, ben = make(), make()
    sign_up(ana, "Ana")
    sign_up(ben, "Ben")
    keys = Browser().keys
    subscribe(ana, FCM + "shared", keys)
    created = create(ana, "correspondence")
    play(ana, created["match_id"], created["seats"][1]["token"])  # a guest moves
    assert len(ana.get("/api/push/outbox").json()) == 1
    # The same browser (one endpoint), now logged in as Ben, subscribes.
    assert subscribe(ben, FCM + "shared", keys).status_code == 201
    assert ben.get("/api/push/outbox").json() == []
    assert ana.get("/api/push/outbox").json() == []
    assert queue(db_url) == []


# --- the sender -------------------------------------------------------------------------------
def test_the_sender_posts_a_signed_encrypted_notification(
        make: Any, db_url: str, push_service: PushService) -> None:
    ana, ben = make(push_send=True, **LOCAL), make()
    sign_up(ana, "Ana")
    sign_up(ben, "Ben")
    phone = Browser()
    assert subscribe(ana, push_service.url("/push/ana"), phone.keys, "pl").status_code == 201
    created = create(ana, "correspondence")
    play(ana, created["match_id"], created["seats"][1]["token"])
    sent = wait_for(lambda: [n for n in ana.get("/api/push/outbox").json() if n["sent"]])
    assert sent[0]["error"] is None
    [(path, headers, body)] = push_service.received
    assert path == "/push/ana"
    headers = {k.lower(): v for k, v in headers.items()}
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) == 86400
    assert headers["urgency"] == "normal" and 0 < len(headers["topic"]) <= 32
    # The VAPID header: signed by the key browsers got, for this push service's origin.
    scheme, _, fields = headers["authorization"].partition(" ")
    parts = dict(f.split("=", 1) for f in fields.split(","))
    assert scheme == "vapid" and parts["k"] == ana.get("/api/push/key").json()["public_key"]
    assert Vapid.verify(headers["authorization"])
    claims = json.loads(unb64url(parts["t"].split(".")[1]))
    assert claims["aud"] == push_service.url("") and claims["sub"] == "mailto:admin@localhost"
    # The body is encrypted for the browser: it alone reads the payload.
    assert b"your_move" not in body and created["match_id"].encode() not in body
    assert phone.decrypt(body) == sent[0]["payload"]
    assert sent[0]["payload"]["title"] == "Twoja kolej: Tri-ominoes"


def test_a_gone_subscription_is_deleted_and_failures_are_tried_again(
        make: Any, db_url: str, push_service: PushService) -> None:
    clock = ManualClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    ana = make(clock, push_send=True, **LOCAL)
    sign_up(ana, "Ana")
    push_service.status = {"/gone": 410, "/broken": 500}
    for path in ("/gone", "/broken", "/fine"):
        assert subscribe(ana, push_service.url(path)).status_code == 201
    created = create(ana, "correspondence")
    play(ana, created["match_id"], created["seats"][1]["token"])
    wait_for(lambda: len(push_service.received) == 3)
    engine = create_engine(db_url)

    def endpoints() -> list[str]:
        with engine.connect() as connection:
            return sorted(connection.execute(
                select(PushSubscriptionRow.endpoint)).scalars().all())

    wait_for(lambda: push_service.url("/gone") not in endpoints())  # 410: unsubscribed
    assert endpoints() == sorted([push_service.url("/broken"), push_service.url("/fine")])
    def tried() -> list[Json]:
        return [n for n in ana.get("/api/push/outbox").json() if n["sent"] or n["error"]]

    outbox = wait_for(lambda: len(tried()) == 2 and tried())
    by_state = {("sent" if n["sent"] else "error"): n for n in outbox}
    assert by_state["error"]["error"] == "the push service answered 500"
    # Tried again after 30 s, then 2, 10 and 60 minutes: five attempts in all.
    def broken() -> int:
        return len([p for p, _, _ in push_service.received if p == "/broken"])

    for wait, attempts in ((29, 1), (1, 2), (120, 3), (600, 4), (3600, 5), (99999, 5)):
        clock.advance(wait)
        wait_for(lambda a=attempts: broken() == a and [
            r for r in queue(db_url) if r.sent_at is None and r.attempts == a and r.error])
        time.sleep(0.5)  # a few more polls: no extra attempt
        assert broken() == attempts
    [given_up] = [r for r in queue(db_url) if r.sent_at is None]
    assert given_up.attempts == ATTEMPTS and given_up.error == "the push service answered 500"
    assert len([p for p, _, _ in push_service.received if p == "/fine"]) == 1
    engine.dispose()


def test_the_sender_follows_no_redirect_and_keeps_endpoints_out_of_errors(
        make: Any, db_url: str, push_service: PushService) -> None:
    ana = make(push_send=True, **LOCAL)
    sign_up(ana, "Ana")
    push_service.status = {"/moved": 307}
    closed = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    nobody = f"http://127.0.0.1:{closed.server_address[1]}/secret-path"
    closed.server_close()  # nothing listens there
    for endpoint in (push_service.url("/moved"), nobody):
        assert subscribe(ana, endpoint).status_code == 201
    created = create(ana, "correspondence")
    play(ana, created["match_id"], created["seats"][1]["token"])
    outbox = wait_for(lambda: len(o := [n for n in ana.get("/api/push/outbox").json()
                                        if n["error"]]) == 2 and o)
    assert sorted(n["error"] for n in outbox) == [
        "the push service could not be reached (ConnectionError)",
        "the push service could not be reached (TooManyRedirects)"]
    assert [path for path, _, _ in push_service.received] == ["/moved"]  # not /elsewhere
    assert all(n["sent"] is None for n in outbox)


def test_two_senders_on_postgresql_send_each_notification_once(
        pg_url: str, push_service: PushService) -> None:  # noqa: F811
    settings = settings_with(db_url=pg_url, push_allow_http=True, push_hosts="127.0.0.1")
    engine = make_engine(settings.db_url)
    migrate(engine)
    now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    browser = Browser()
    with engine.begin() as connection:
        connection.execute(insert(AccountRow).values(
            id="acc", name="Ana", name_key="ana", password_hash="x", created_at=now))
        for n in range(3):
            connection.execute(insert(PushSubscriptionRow).values(
                id=f"sub{n}", account_id="acc", endpoint=push_service.url(f"/p{n}"),
                endpoint_hash=f"{n:064d}", lang="en", created_at=now, **browser.keys))
        connection.execute(insert(PushQueueRow), [
            {"subscription_id": f"sub{n % 3}", "payload": {"type": "your_move", "n": n},
             "created_at": now, "attempts": 0} for n in range(60)])

    async def race() -> list[int]:
        pushes = [Push(settings, make_engine(settings.db_url), ManualClock(now),
                       asyncio.to_thread) for _ in range(2)]
        for push in pushes:  # no loop of their own: send_due by hand, at once
            await push.vapid()
        counts = await asyncio.gather(*(p.sender.send_due() for p in pushes))
        for push in pushes:
            push.engine.dispose()
        return list(counts)

    counts = asyncio.run(race())
    assert sum(counts) == 60
    received = sorted(browser.decrypt(body)["n"] for _, _, body in push_service.received)
    assert received == list(range(60))  # each once
    with engine.connect() as connection:
        rows = connection.execute(select(PushQueueRow.attempts, PushQueueRow.sent_at)).all()
        assert all(r.attempts == 1 and r.sent_at is not None for r in rows)
    engine.dispose()
