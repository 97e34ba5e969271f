"""Availability (issue 20): rate limits per client address, the caps on computer matches, the
computer queue and sockets, fair computer work between matches, and spectators' views
rendered once and sent as changes.

Each test runs the real limits on a server whose limits are set low through its settings; no
test asserts a timing: the fair queue is checked with jobs that wait for the test's word.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import auth, create, tokens_of, view
from starlette.websockets import WebSocketDisconnect

from triverse.server import fanout
from triverse.server.app import create_app
from triverse.server.bots import QUICK, BotPool
from triverse.server.config import Settings
from triverse.server.fanout import apply_changes
from triverse.server.quotas import RateLimits
from triverse.server.schemas import View
from triverse.server.ws_models import SERVER_MESSAGE

Json = dict[str, Any]


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Any]:
    """Start a server with the given settings (low limits); close them all at the end."""
    stack: list[TestClient] = []

    def start(**settings: Any) -> TestClient:
        settings.setdefault("bot_delay", 0)
        client = TestClient(create_app(settings=Settings(
            db_url=f"sqlite:///{tmp_path / f'limits{len(stack)}.sqlite3'}", bot_workers=1,
            bot_executor="thread", allow_client_seed=True, **settings)))
        client.__enter__()
        stack.append(client)
        return client

    yield start
    for client in reversed(stack):
        client.__exit__(None, None, None)


def refused(answer: Any, status: int, code: str) -> Json:
    """Check a refusal's status, code and ``Retry-After``; return its error body."""
    assert answer.status_code == status, answer.text
    error: Json = answer.json()["error"]
    assert error["code"] == code, error
    assert int(answer.headers["Retry-After"]) >= 1
    return error


# --- rate limits -----------------------------------------------------------------------------
def test_match_creation_is_limited_per_address(limited: Any) -> None:
    client = limited(rate_create="3/minute")
    for seed in range(3):
        create(client, ["human", "human"], mode="hotseat", seed=seed)
    body = {"game": "triominoes", "mode": "hotseat", "seats": [{"kind": "human"}] * 2}
    error = refused(client.post("/api/matches", json=body), 429, "rate_limited")
    assert "3 per 1 minute" in error["message"]


def test_rate_limits_count_each_address_and_kind_apart() -> None:
    async def scenario() -> list[str]:
        rates = RateLimits(Settings(db_url="sqlite://", rate_create="2/minute",
                                    rate_action="1/minute"))
        outcomes = []
        for kind, client in [("create", "a"), ("create", "a"), ("create", "b"),
                             ("action", "a"), ("create", "a"), ("action", "a")]:
            try:
                await rates.hit(kind, client)
                outcomes.append("ok")
            except Exception as exc:
                outcomes.append(getattr(exc, "code", repr(exc)))
        return outcomes

    assert asyncio.run(scenario()) == ["ok", "ok", "ok", "ok", "rate_limited", "rate_limited"]


def test_actions_are_limited_over_rest_and_the_websocket(limited: Any) -> None:
    client = limited(rate_action="4/minute")
    created = create(client, ["human", "human"], mode="hotseat")
    match_id, tokens = created["match_id"], tokens_of(created)
    seat = view(client, match_id)["to_move"]
    current = view(client, match_id, tokens[seat])
    for _ in range(3):  # a move, then two stale ones: every request counts
        answer = client.post(f"/api/matches/{match_id}/actions", headers=auth(tokens[seat]),
                             json={"action": current["legal_actions"][0]["notation"],
                                   "move": current["move"]})
        assert answer.status_code in (200, 409), answer.text
    assert client.post(f"/api/matches/{match_id}/pause", headers=auth(tokens[seat]),
                       json={"paused": False}).status_code == 200  # pauses count too
    other = view(client, match_id)["to_move"]
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[other]})
        mine = ws.receive_json()["view"]
        ws.send_json({"type": "action", "action": mine["legal_actions"][0]["notation"],
                      "move": mine["move"], "id": 2})
        message = ws.receive_json()
        SERVER_MESSAGE.validate_python(message)
        assert message["code"] == "rate_limited" and message["id"] == 2
        assert message["retry_after"] >= 1
        ws.send_json({"type": "ping", "id": 3})  # the socket stays open
        assert ws.receive_json()["type"] == "pong"
    assert view(client, match_id)["move"] == 1  # the refused action was not played
    refused(client.post(f"/api/matches/{match_id}/pause", headers=auth(tokens[seat]),
                        json={"paused": True}), 429, "rate_limited")


def test_previews_hints_and_reviews_are_limited(limited: Any) -> None:
    client = limited(rate_preview="2/minute", rate_hint="2/minute", rate_review="2/minute",
                     hint_budget=0.05, review_budget=0.05, review_total=0.5)
    created = client.post("/api/matches", json={
        "game": "trident", "seed": 3, "mode": "hotseat",
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    match_id, tokens = created["match_id"], tokens_of(created)
    token = tokens[view(client, match_id)["to_move"]]
    path = f"/api/matches/{match_id}"
    for _ in range(2):
        assert client.post(f"{path}/preview", headers=auth(token),
                           json={"action": "pass"}).status_code == 200
        assert client.post(f"{path}/hint", headers=auth(token)).status_code == 200
        assert client.get(f"{path}/review").status_code == 409  # not finished: still counted
    refused(client.post(f"{path}/preview", headers=auth(token), json={"action": "pass"}),
            429, "rate_limited")
    refused(client.post(f"{path}/hint", headers=auth(token)), 429, "rate_limited")
    refused(client.get(f"{path}/review"), 429, "rate_limited")
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        ws.receive_json()
        ws.send_json({"type": "preview", "action": "pass", "id": "p"})
        answer = ws.receive_json()
        assert answer["code"] == "rate_limited" and answer["id"] == "p"


def test_wrong_tokens_lock_the_address_out(limited: Any) -> None:
    client = limited(rate_token_failure="3/minute")
    created = create(client, ["human", "human"], mode="hotseat")
    match_id, tokens = created["match_id"], tokens_of(created)
    path = f"/api/matches/{match_id}/view"
    for guess in ("a" * 32, "b" * 32):
        assert client.get(path, headers=auth(guess)).status_code == 403
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:  # the third guess
        ws.send_json({"type": "hello", "token": "c" * 32})
        assert ws.receive_json()["code"] == "wrong_token"
    # Locked out: even the right token is refused, before it is looked at.
    refused(client.get(path, headers=auth(tokens[0])), 429, "rate_limited")
    refused(client.post(f"/api/matches/{match_id}/actions", headers=auth(tokens[0]),
                        json={"action": "draw", "move": 0}), 429, "rate_limited")
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        error = ws.receive_json()
        assert error["code"] == "rate_limited" and error["retry_after"] >= 1
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4429
    assert client.get(path).status_code == 200  # watching needs no token


# --- computer players --------------------------------------------------------------------------
def test_computer_only_matches_are_capped_per_address(limited: Any) -> None:
    client = limited(computer_matches_per_client=2, bot_delay=60)  # they never finish here
    for seed in range(2):
        create(client, ["novice", "novice"], seed=seed)
    body = {"game": "triominoes", "mode": "computer", "seats": [{"kind": "novice"}] * 2}
    error = refused(client.post("/api/matches", json=body), 429, "too_many_computer_matches")
    assert "2 matches" in error["message"]
    create(client, ["human", "novice"])  # a human's match is not capped


def test_a_full_computer_queue_refuses_new_computer_matches(limited: Any) -> None:
    client = limited(computer_queue=2, computer_matches_per_client=5, bot_delay=60)
    for seed in range(2):
        create(client, ["novice", "average"], seed=seed)
    body = {"game": "triominoes", "mode": "computer",
            "seats": [{"kind": "human"}, {"kind": "veteran"}]}
    refused(client.post("/api/matches", json=body), 503, "server_busy")
    create(client, ["human", "human"], mode="hotseat")  # no computer: no queue


def test_computer_work_is_fair_between_matches() -> None:
    """Seven matches' veterans (5 s each), one of them with two more jobs, ask two workers; a
    novice's move that comes last starts at once, the searches go one match after another,
    and a match never has two jobs in the pool at once."""
    started: list[str] = []
    gates: dict[str, threading.Event] = {}

    def job(name: str) -> str:
        started.append(name)
        assert gates[name].wait(30), f"{name} was never released"
        return name

    async def until(count: int) -> None:
        while len(started) < count:
            await asyncio.sleep(0.001)

    async def scenario() -> list[str]:
        pool = BotPool("thread", 2)
        pool.start()
        try:
            jobs = []

            def submit(name: str, owner: str, cost: float) -> None:
                gates[name] = threading.Event()
                jobs.append(asyncio.ensure_future(pool.run(job, name, owner=owner, cost=cost)))

            submit("v0-1", "v0", 5.0)
            submit("v0-2", "v0", 5.0)  # the same match's second job waits for its first
            submit("v1-1", "v1", 5.0)  # a search may not take the last worker
            for i in range(2, 7):
                submit(f"v{i}-1", f"v{i}", 5.0)
            submit("v0-3", "v0", 5.0)
            await until(1)
            await asyncio.sleep(0.01)
            assert started == ["v0-1"] and len(pool.queue.waiting) == 8
            submit("novice", "n", QUICK)
            await until(2)
            assert started == ["v0-1", "novice"]  # at once, with every search queued before it
            for name in list(gates):
                gates[name].set()
            await asyncio.gather(*jobs)
        finally:
            pool.shutdown()
        return started

    order = asyncio.run(scenario())
    # The searches one at a time, every match's first before v0's second and third.
    assert order == ["v0-1", "novice", *(f"v{i}-1" for i in range(1, 7)), "v0-2", "v0-3"]


# --- sockets and spectators ----------------------------------------------------------------------
def test_sockets_are_capped_per_match_and_per_address(limited: Any) -> None:
    client = limited(sockets_per_match=2, sockets_per_client=3)
    first = create(client, ["human", "human"], mode="hotseat")["match_id"]
    second = create(client, ["human", "human"], mode="hotseat")["match_id"]

    def refused_socket(match_id: str) -> str:
        with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
            error = ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
            return str(error["code"])

    with client.websocket_connect(f"/ws/matches/{first}") as a, \
            client.websocket_connect(f"/ws/matches/{first}") as b:
        for ws in (a, b):
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "view"
        assert refused_socket(first) == "too_many_sockets"  # the match is full
        with client.websocket_connect(f"/ws/matches/{second}") as c:
            c.send_json({"type": "hello"})
            assert c.receive_json()["type"] == "view"
            assert refused_socket(second) == "too_many_sockets"  # the address is full
    with client.websocket_connect(f"/ws/matches/{first}") as again:  # closed ones are freed
        again.send_json({"type": "hello"})
        assert again.receive_json()["type"] == "view"


def test_spectators_share_one_rendering_and_get_changes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    renders: list[int | None] = []
    real = fanout.render_view

    def counting(live: Any, seat: int | None, **kwargs: Any) -> Json:
        renders.append(seat)
        return real(live, seat, **kwargs)

    monkeypatch.setattr(fanout, "render_view", counting)
    created = create(client, ["human", "human"], mode="hotseat")
    match_id, tokens = created["match_id"], tokens_of(created)
    path = f"/ws/matches/{match_id}"
    with client.websocket_connect(path) as w1, client.websocket_connect(path) as w2, \
            client.websocket_connect(path) as w3:
        watchers = [w1, w2, w3]
        for ws in watchers:
            ws.send_json({"type": "hello", "log": 3, "changes": ws is not w3})
        held = [ws.receive_json()["view"] for ws in watchers]
        assert len(renders) == 1  # three spectators, one rendering
        sizes: list[tuple[int, int]] = []
        for _ in range(5):
            public = view(client, match_id)
            seat = public["to_move"]
            mine = view(client, match_id, tokens[seat])
            renders.clear()
            answer = client.post(f"/api/matches/{match_id}/actions", headers=auth(tokens[seat]),
                                 json={"action": mine["legal_actions"][0]["notation"],
                                       "move": mine["move"]})
            assert answer.status_code == 200, answer.text
            for i, ws in enumerate(watchers):
                message = ws.receive_json()
                SERVER_MESSAGE.validate_python(message)
                if ws is w3:  # did not ask for changes: whole views, as before
                    assert message["type"] == "view"
                    held[i] = message["view"]
                    continue
                assert message["type"] == "changes" and "log" not in message["changes"]
                assert len(message["log"]) == 1 and message["move"] == held[i]["move"] + 1
                full = len(fanout.dumps(apply_changes(held[i], message, 3)))
                sizes.append((len(fanout.dumps(message)), full))
                held[i] = apply_changes(held[i], message, 3)
            assert renders == [None]  # one public rendering for the move
        for i, ws in enumerate(watchers):
            ws.send_json({"type": "sync"})
            synced = ws.receive_json()
            assert synced["type"] == "view" and synced["view"] == held[i]
            View.model_validate(held[i])
            assert len(held[i]["log"]) == 3
    assert all(change < whole for change, whole in sizes), sizes


def test_rate_limits_in_redis_are_shared_between_processes() -> None:
    """Two servers' rate limits on one Redis count together (skipped without Redis)."""
    pytest.importorskip("redis")
    import uuid

    settings = Settings(db_url="sqlite://", rate_storage="redis://127.0.0.1:6379/15",
                        rate_hint="2/minute")
    who = uuid.uuid4().hex  # an address of this run's own

    async def scenario() -> list[str]:
        first, second = RateLimits(settings), RateLimits(settings)
        try:
            await first.storage.check() or pytest.skip("no Redis at 127.0.0.1:6379")
        except Exception as exc:
            pytest.skip(f"no Redis at 127.0.0.1:6379: {exc}")
        outcomes = []
        for rates in (first, second, first):
            try:
                await rates.hit("hint", who)
                outcomes.append("ok")
            except Exception as exc:
                outcomes.append(getattr(exc, "code", repr(exc)))
        return outcomes

    assert asyncio.run(scenario()) == ["ok", "ok", "rate_limited"]
