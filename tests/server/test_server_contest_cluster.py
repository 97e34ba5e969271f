"""Contests among several server processes (issue 24): two services on one PostgreSQL schema
and one Redis both see a contest's sign-up close, and exactly one makes the draw (one match a
board, none left over); a contest websocket on one follows a change made on the other."""

from __future__ import annotations

from datetime import timedelta

import pytest
from contest_helpers import (
    SIGNUP,
    START,
    Browser,
    add_computer,
    contest,
    new_contest,
    server,
    signed_up,
    until,
)
from server_helpers import REDIS_URL
from sqlalchemy import create_engine, text
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse.server.clock import ManualClock


def counts(url: str, contest_id: str) -> tuple[int, int]:
    """How many matches and how many boards the database holds."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as connection:
            matches = connection.execute(text("SELECT COUNT(*) FROM matches")).scalar_one()
            boards = connection.execute(text(
                "SELECT COUNT(*) FROM contest_boards WHERE contest_id = :c"),
                {"c": contest_id}).scalar_one()
    finally:
        engine.dispose()
    return int(matches), int(boards)


@pytest.mark.parametrize("rounds", [3])
def test_two_processes_close_a_contest_exactly_once(
    pg_url: str, prefix: str, rounds: int,  # noqa: F811
) -> None:
    clock = ManualClock(START)
    shared = {"redis_url": REDIS_URL, "redis_prefix": prefix, "rate_storage": "memory://"}
    with server(pg_url, clock, **shared) as one, server(pg_url, clock, **shared) as two:
        host = Browser(one, "Hostess")
        made = []
        for number in range(rounds):
            contest_id = new_contest(one, host, clock)
            made.append(contest_id)
            for name in ("Ann", "Bob", "Cid", "Dan", "Eve"):
                signed_up(two if number % 2 else one, contest_id, None, name)
            add_computer(one, contest_id, host)
        with two.websocket_connect(f"/ws/contests/{made[0]}") as socket:
            assert socket.receive_json()["contest"]["status"] == "signup"
            clock.set(START + timedelta(seconds=SIGNUP + 1))  # both schedulers see it due
            for contest_id in made:
                until(lambda c=contest_id: contest(two, c)["draw"]["seed"] is not None,
                      "the close", timeout=60)
            while not socket.receive_json()["contest"]["boards"]:
                pass  # the websocket of process two heard the close (made by either)
        for contest_id in made:
            found = contest(one, contest_id)
            assert found["status"] == "running"
            assert [len(b["seats"]) for b in found["boards"]] == [3, 3]
        matches, _ = counts(pg_url, made[0])
        assert matches == 2 * rounds  # no board's match made twice
        assert [counts(pg_url, c)[1] for c in made] == [2] * rounds
