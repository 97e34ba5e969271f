"""Contests' refusals and guards (issue 24): every change needs a session and its CSRF token
(a guest's sign-up needs none), the host's changes the host; bodies are bounded; sign-ups are
refused once closed, twice for an account, past the most entrants; the secret is shown once
and opens only its own entry; a contest with too few entrants is cancelled at the close, and
a host may cancel during sign-up; the close of sign-up survives a restart; changes are
rate-limited."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from contest_helpers import (
    SIGNUP,
    START,
    Browser,
    add_computer,
    closes_at,
    code,
    contest,
    new_contest,
    server,
    sign_up,
    signed_up,
    until,
)
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

import triverse.server.contests as contests_module
from triverse.server.clock import ManualClock


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def client(db_url: str, clock: ManualClock) -> Iterator[TestClient]:
    with server(db_url, clock) as test_client:
        yield test_client


def create_answer(client: TestClient, host: Browser, clock: ManualClock, **body: Any) -> Any:
    base = {"title": "Cup", "game": "trident", "signup_closes": closes_at(clock)}
    return client.post("/api/contests", headers=host.headers(), json={**base, **body})


def test_creating_needs_a_session_its_csrf_token_and_a_bounded_body(
    client: TestClient, clock: ManualClock,
) -> None:
    host = Browser(client, "Hostess")
    body = {"title": "Cup", "game": "trident", "signup_closes": closes_at(clock)}
    anonymous = client.post("/api/contests", json=body)
    assert anonymous.status_code == 401 and code(anonymous) == "not_logged_in"
    forged = client.post("/api/contests", headers=host.headers(csrf=False), json=body)
    assert forged.status_code == 403 and code(forged) == "bad_csrf"
    soon = (START + timedelta(seconds=5)).isoformat()
    late = (START + timedelta(days=31)).isoformat()
    refusals = {
        "bad_request": [{"title": ""}, {"title": "x" * 81}, {"rewards": [1] * 17},
                        {"rewards": [1_000_001]}, {"rewards": [-1]}, {"reward_name": "x" * 17},
                        {"players_per_board": 5}, {"turn_seconds": 10},
                        {"signup_closes": soon}, {"signup_closes": late},
                        {"signup_closes": "2026-12-04T12:00:00"}, {"secret": "x"},
                        {"title": 3}],
        "unknown_game": [{"game": "chess"}],
        "bad_options": [{"options": {"time_limit": 60}}, {"options": {"variant": "odd"}}],
    }
    for expected, bodies in refusals.items():
        for changed in bodies:
            answer = create_answer(client, host, clock, **changed)
            assert answer.status_code == 422 and code(answer) == expected, (changed, answer.text)
    assert client.get("/api/contests").json()["contests"] == []


def test_the_host_alone_makes_host_changes(client: TestClient, clock: ManualClock) -> None:
    host, other = Browser(client, "Hostess"), Browser(client, "Other")
    contest_id = new_contest(client, host, clock)
    entry = signed_up(client, contest_id, None, "Gus")
    base = f"/api/contests/{contest_id}"
    changes = [("post", f"{base}/computers", {"kind": "novice"}),
               ("post", f"{base}/announcements", {"text": "Hello"}),
               ("post", f"{base}/entries/{entry['entry']}/remove", None),
               ("post", f"{base}/close", None), ("delete", base, None)]
    for method, path, body in changes:
        for headers, status, expected in ((other.headers(), 403, "not_host"),
                                          (host.headers(csrf=False), 403, "bad_csrf"),
                                          ({}, 401, "not_logged_in")):
            answer = client.request(method, path, headers=headers, json=body)
            assert answer.status_code == status and code(answer) == expected, (path, expected)
    found = contest(client, contest_id, host)
    assert found["status"] == "signup" and [e["name"] for e in found["entries"]] == ["Gus"]
    assert found["announcements"] == [] and found["is_host"]
    assert not contest(client, contest_id, other)["is_host"]
    bad = client.post(f"{base}/computers", headers=host.headers(), json={"kind": "genius"})
    assert bad.status_code == 422 and code(bad) == "bad_request"
    long = client.post(f"{base}/announcements", headers=host.headers(), json={"text": "x" * 501})
    assert long.status_code == 422
    removed = client.post(f"{base}/entries/{entry['entry']}/remove", headers=host.headers())
    assert removed.status_code == 200 and removed.json()["entries"] == []


def test_sign_up_refusals_and_the_secret_shown_once(
    client: TestClient, clock: ManualClock, monkeypatch: pytest.MonkeyPatch,
) -> None:
    host, ann = Browser(client, "Hostess"), Browser(client, "Ann")
    contest_id = new_contest(client, host, clock)
    mine = signed_up(client, contest_id, ann)
    assert mine["name"] == "Ann" and mine["entry"] == 1
    twice = sign_up(client, contest_id, ann)
    assert twice.status_code == 409 and code(twice) == "already_entered"
    forged = client.post(f"/api/contests/{contest_id}/entries",
                         headers=ann.headers(csrf=False), json={})
    assert forged.status_code == 403 and code(forged) == "bad_csrf"
    for body in ({}, {"name": "  "}, {"name": "x" * 41}, {"name": 7}, {"name": "A", "x": 1}):
        bad = client.post(f"/api/contests/{contest_id}/entries", json=body)
        assert bad.status_code == 422 and code(bad) == "bad_request", body
    guest = signed_up(client, contest_id, None, "Gus")
    found = contest(client, contest_id, ann)
    assert found["me"] == {"entry": 1, "board": None, "seat": None, "removed": False}
    text = client.get(f"/api/contests/{contest_id}").text + client.get("/api/contests").text
    assert mine["secret"] not in text and guest["secret"] not in text
    me = client.get(f"/api/contests/{contest_id}/me", headers={"X-Seat-Token": guest["secret"]})
    assert me.status_code == 200 and me.json()["name"] == "Gus" and me.json()["play"] is None
    wrong = client.get(f"/api/contests/{contest_id}/me", headers={"X-Seat-Token": "nope"})
    assert wrong.status_code == 403 and code(wrong) == "wrong_token"
    outsider = client.get(f"/api/contests/{contest_id}/me",
                          headers=Browser(client, "Zed").headers(csrf=False))
    assert outsider.status_code == 404 and code(outsider) == "not_entered"
    monkeypatch.setattr(contests_module, "MAX_ENTRANTS", 3)
    add_computer(client, contest_id, host)
    full = sign_up(client, contest_id, None, "Gil")
    assert full.status_code == 409 and code(full) == "contest_full"
    gone = client.delete(f"/api/contests/{contest_id}/entries/me",
                         headers={"X-Seat-Token": guest["secret"]})
    assert gone.status_code == 204
    assert [e["name"] for e in contest(client, contest_id)["entries"]] == ["Ann", "Novice 3"]
    signed_up(client, contest_id, None, "Gil")  # room again; numbers are never given twice
    assert [e["entry"] for e in contest(client, contest_id)["entries"]] == [1, 3, 4]
    clock.advance(SIGNUP)
    until(lambda: contest(client, contest_id)["draw"]["seed"] is not None, "the close")
    late = sign_up(client, contest_id, None, "Late")
    assert late.status_code == 409 and code(late) == "signup_closed"
    leave = client.delete(f"/api/contests/{contest_id}/entries/me", headers=ann.headers())
    assert leave.status_code == 409 and code(leave) == "signup_closed"


def test_too_few_entrants_cancel_and_the_host_may_cancel(
    client: TestClient, clock: ManualClock,
) -> None:
    host = Browser(client, "Hostess")
    lonely = new_contest(client, host, clock)
    signed_up(client, lonely, None, "Gus")
    closed = client.post(f"/api/contests/{lonely}/close", headers=host.headers())
    assert closed.status_code == 200, closed.text
    assert closed.json()["status"] == "cancelled" and "only 1 signed up" in (
        closed.json()["cancel_reason"])
    assert closed.json()["boards"] == [] and closed.json()["draw"]["seed"] is None
    again = client.post(f"/api/contests/{lonely}/close", headers=host.headers())
    assert again.status_code == 409 and code(again) == "not_in_signup"
    dropped = new_contest(client, host, clock)
    answer = client.delete(f"/api/contests/{dropped}", headers=host.headers())
    assert answer.status_code == 204
    found = contest(client, dropped)
    assert found["status"] == "cancelled" and found["cancel_reason"] == "cancelled by the host"
    late = sign_up(client, dropped, None, "Gus")
    assert late.status_code == 409 and code(late) == "signup_closed"
    twice = client.delete(f"/api/contests/{dropped}", headers=host.headers())
    assert twice.status_code == 409 and code(twice) == "not_in_signup"


def test_too_many_announcements_are_refused(
    client: TestClient, clock: ManualClock, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(contests_module, "MAX_ANNOUNCEMENTS", 2)
    host = Browser(client, "Hostess")
    contest_id = new_contest(client, host, clock)
    for said in ("one", "two"):
        answer = client.post(f"/api/contests/{contest_id}/announcements",
                             headers=host.headers(), json={"text": f"  {said} "})
        assert answer.status_code == 201 and answer.json()["text"] == said
    third = client.post(f"/api/contests/{contest_id}/announcements", headers=host.headers(),
                        json={"text": "three"})
    assert third.status_code == 409 and code(third) == "too_many_announcements"
    assert [a["text"] for a in contest(client, contest_id)["announcements"]] == ["one", "two"]


def test_the_close_of_sign_up_survives_a_restart(db_url: str, clock: ManualClock) -> None:
    with server(db_url, clock) as first:
        host = Browser(first, "Hostess")
        contest_id = new_contest(first, host, clock)
        signed_up(first, contest_id, None, "Gus")
        add_computer(first, contest_id, host)
    clock.advance(SIGNUP + 60)  # the close passed while no server ran
    with server(db_url, clock) as second:
        found = until(lambda: contest(second, contest_id)["draw"]["seed"] is not None
                      and contest(second, contest_id), "the close after the restart")
        assert found["status"] == "running" and [len(b["seats"]) for b in found["boards"]] == [2]


def test_contest_changes_are_rate_limited(db_url: str, clock: ManualClock) -> None:
    with server(db_url, clock, rate_contest="3/minute") as client:
        host = Browser(client, "Hostess")
        contest_id = new_contest(client, host, clock)
        signed_up(client, contest_id, None, "Gus")
        add_computer(client, contest_id, host)
        limited = sign_up(client, contest_id, None, "Gil")
        assert limited.status_code == 429 and code(limited) == "rate_limited"
        assert limited.headers["Retry-After"]
        assert [e["name"] for e in contest(client, contest_id)["entries"]] == ["Gus", "Novice 2"]
    with server(db_url, clock, rate_contest_read="2/minute") as client:
        client.get("/api/contests")
        client.get(f"/api/contests/{contest_id}")
        reads = client.get(f"/api/contests/{contest_id}")
        assert reads.status_code == 429 and code(reads) == "rate_limited"


def test_a_restart_passes_a_removed_seat_and_ends_a_contest_left_running(
    db_url: str, clock: ManualClock,
) -> None:
    """What a stopped process left undone is done at the next start: the turn of an entrant
    removed meanwhile is passed at once, and a contest whose boards all ended finishes."""
    with server(db_url, clock) as first:
        host = Browser(first, "Hostess")
        timed = new_contest(first, host, clock)
        secrets = {signed_up(first, timed, None, name)["entry"]: "" for name in ("Gus", "Gil")}
        board = first.post(f"/api/contests/{timed}/close",
                           headers=host.headers()).json()["boards"][0]
        untimed = new_contest(first, host, clock, game="triangles", players_per_board=2)
        add_computer(first, untimed, host)
        add_computer(first, untimed, host)
        first.post(f"/api/contests/{untimed}/close", headers=host.headers())
        until(lambda: contest(first, untimed)["status"] == "finished", "the computers' end")
    to_move = board["seats"][board["to_move"]]["entry"]
    assert to_move in secrets
    engine = create_engine(db_url)
    with engine.begin() as connection:  # as if the process stopped right after these
        connection.execute(text("UPDATE contest_entries SET removed = true WHERE entry = :e "
                                "AND contest_id = :c"), {"e": to_move, "c": timed})
        connection.execute(text("UPDATE contests SET status = 'running', finished_at = NULL "
                                "WHERE id = :c"), {"c": untimed})
    engine.dispose()
    with server(db_url, clock) as second:  # the clock stands still: no deadline passes
        until(lambda: contest(second, timed)["boards"][0]["move"] == 1, "the pass")
        until(lambda: contest(second, untimed)["status"] == "finished", "the end")
