"""A match created while logged in (issue 23): the creator's seat belongs to the account and
bears its name, ``rated`` needs an account and is refused in hot-seat, ``pace`` is chosen or
follows the turn limit, and a session without its CSRF token creates nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from test_server_accounts import code, sign_up

from triverse.server.accounts import CSRF_HEADER

TRIDENT = {"game": "trident", "seats": [{"kind": "human", "name": "Ann"},
                                        {"kind": "human", "name": "Bob"}], "mode": "online"}


def _seats(db_url: str, match_id: str) -> list[tuple[Any, ...]]:
    engine = create_engine(db_url)
    with engine.connect() as connection:
        rows = connection.execute(text(
            "SELECT seat, name, account_id FROM seats WHERE match_id = :m ORDER BY seat"),
            {"m": match_id}).all()
    engine.dispose()
    return [tuple(row) for row in rows]


def test_the_creators_seat_belongs_to_the_account(make: Any, db_url: str) -> None:
    browser: TestClient = make()
    signed = sign_up(browser, "Zoë")
    answer = browser.post("/api/matches", json={**TRIDENT, "rated": True},
                          headers={CSRF_HEADER: signed["csrf"]})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    assert [s["name"] for s in created["seats"]] == ["Zoë", "Bob"]
    assert _seats(db_url, created["match_id"]) == [
        (0, "Zoë", signed["account"]["id"]), (1, "Bob", None)]
    view = browser.get(f"/api/matches/{created['match_id']}/view",
                       headers={"X-Seat-Token": created["seats"][0]["token"]}).json()
    assert view["rated"] is True and view["pace"] == "correspondence"
    assert [(p["account"], p["free"], p["deleted"]) for p in view["players"]] == [
        (True, False, False), (False, False, False)]


def test_hotseat_gives_every_human_seat_and_is_never_rated(make: Any, db_url: str) -> None:
    browser: TestClient = make()
    signed = sign_up(browser, "Ann")
    headers = {CSRF_HEADER: signed["csrf"]}
    hotseat = {**TRIDENT, "mode": "hotseat"}
    refused = browser.post("/api/matches", json={**hotseat, "rated": True}, headers=headers)
    assert refused.status_code == 422 and code(refused) == "bad_request"
    assert "hot-seat" in refused.json()["error"]["message"]
    created = browser.post("/api/matches", json=hotseat, headers=headers).json()
    owner = signed["account"]["id"]
    assert _seats(db_url, created["match_id"]) == [(0, "Ann", owner), (1, "Ann", owner)]


def test_a_guest_cannot_create_a_rated_match(make: Any) -> None:
    guest: TestClient = make()
    refused = guest.post("/api/matches", json={**TRIDENT, "rated": True})
    assert refused.status_code == 401 and code(refused) == "not_logged_in"
    created = guest.post("/api/matches", json=TRIDENT)
    assert created.status_code == 201
    assert [s["name"] for s in created.json()["seats"]] == ["Ann", "Bob"]


def test_a_session_without_its_csrf_token_creates_nothing(make: Any, db_url: str) -> None:
    browser: TestClient = make()
    sign_up(browser, "Zoë")
    refused = browser.post("/api/matches", json=TRIDENT)
    assert refused.status_code == 403 and code(refused) == "bad_csrf"
    wrong = browser.post("/api/matches", json=TRIDENT, headers={CSRF_HEADER: "guess"})
    assert wrong.status_code == 403
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM matches")).scalar() == 0
    engine.dispose()


def test_pace_is_chosen_or_follows_the_turn_limit(make: Any) -> None:
    guest: TestClient = make()

    def pace(**body: Any) -> Any:
        created = guest.post("/api/matches", json={**TRIDENT, **body})
        assert created.status_code == 201, created.text
        seat = created.json()["seats"][0]
        return guest.get(f"/api/matches/{created.json()['match_id']}/view",
                         headers={"X-Seat-Token": seat["token"]}).json()["pace"]

    assert pace(options={"time_limit": 120}) == "live"
    assert pace(options={"time_limit": 86400}) == "correspondence"
    assert pace(options={"time_limit": 120}, pace="correspondence") == "correspondence"
    assert pace() == "correspondence"
    refused = guest.post("/api/matches", json={**TRIDENT, "pace": "blitz"})
    assert refused.status_code == 422
