"""What the contest tests share: a server with a clock the test moves and short contest
limits, accounts as browsers, and the contest's REST calls."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import Browser, auth

from triverse.server.app import create_app
from triverse.server.clock import ManualClock
from triverse.server.config import settings_with

Json = dict[str, Any]
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
SIGNUP = 3600
"""Seconds from the start to the close of sign-up, in the tests' contests."""
TURN = 60
"""Seconds a turn, in the tests' timed contests."""
FAST = {"bot_delay": 0, "bot_workers": 1, "bot_executor": "thread", "contest_min_signup": 10,
        "contest_min_turn": 30, "contest_poll": 0.2, "rate_contest_read": "100000/minute"}


def server(db_url: str, clock: ManualClock, **settings: Any) -> TestClient:
    """A server on ``db_url`` with the tests' contest limits (and ``settings``)."""
    return TestClient(create_app(settings=settings_with(db_url=db_url, **{**FAST, **settings}),
                                 clock=clock))


def code(answer: Any) -> str:
    value: str = answer.json()["error"]["code"]
    return value


def closes_at(clock: ManualClock, seconds: int = SIGNUP) -> str:
    return (clock.now() + timedelta(seconds=seconds)).isoformat()


def new_contest(client: TestClient, host: Browser, clock: ManualClock, game: str = "trident",
                **body: Any) -> str:
    """Create a contest (``body`` overrides the defaults); its id."""
    answer = client.post("/api/contests", headers=host.headers(), json={
        "title": f"The {game} cup", "game": game, "signup_closes": closes_at(clock),
        "turn_seconds": TURN, "rewards": [300, 250, 200, 150], "reward_name": "WRZ$", **body})
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    assert created["link"] == f"/contests/{created['id']}"
    contest_id: str = created["id"]
    return contest_id


def contest(client: TestClient, contest_id: str, who: Browser | None = None) -> Json:
    answer = client.get(f"/api/contests/{contest_id}",
                        headers={} if who is None else who.headers(csrf=False))
    assert answer.status_code == 200, answer.text
    found: Json = answer.json()
    return found


def sign_up(client: TestClient, contest_id: str, who: Browser | None = None,
            name: str | None = None) -> Any:
    return client.post(f"/api/contests/{contest_id}/entries",
                       headers={} if who is None else who.headers(),
                       json={} if name is None else {"name": name})


def signed_up(client: TestClient, contest_id: str, who: Browser | None = None,
              name: str | None = None) -> Json:
    answer = sign_up(client, contest_id, who, name)
    assert answer.status_code == 201, answer.text
    entry: Json = answer.json()
    return entry


def add_computer(client: TestClient, contest_id: str, host: Browser,
                 kind: str = "novice") -> Json:
    answer = client.post(f"/api/contests/{contest_id}/computers", headers=host.headers(),
                         json={"kind": kind})
    assert answer.status_code == 201, answer.text
    entry: Json = answer.json()
    return entry


def until(condition: Callable[[], Any], what: str, timeout: float = 60) -> Any:
    """Poll ``condition`` until it gives something true; that."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(0.02)


def settled(client: TestClient, contest_id: str) -> Json | None:
    """The contest once every board is over or waits for a human who is not removed (the
    computers and the passes of removed seats are done); ``None`` before."""
    found = contest(client, contest_id)
    for board in found["boards"]:
        if board["status"] == "finished":
            continue
        seat = board["seats"][board["to_move"]]
        if seat["kind"] != "human" or seat["removed"]:
            return None
    return found


def settle(client: TestClient, contest_id: str) -> Json:
    found: Json = until(lambda: settled(client, contest_id), "the boards to settle")
    return found


def seat_view(client: TestClient, match_id: str, secret: str | None = None) -> Json:
    answer = client.get(f"/api/matches/{match_id}/view", headers=auth(secret))
    assert answer.status_code == 200, answer.text
    found: Json = answer.json()
    return found
