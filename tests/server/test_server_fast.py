"""The move path made cheap without changing what it does: an action at the cached move reads
nothing from the database, and the store's guard catches what another process changed instead;
log entries made once per viewer; a seat's view rendered once per change; PostgreSQL
connections pinged only after being idle."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Json, tokens_of
from sqlalchemy import create_engine, text, update
from test_server_pieces import START, parts_of, run
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse.core.events import Event
from triverse.server import ws
from triverse.server.db import MatchRow, ping_when_idle
from triverse.server.errors import ServerError
from triverse.server.live import LogEntry
from triverse.server.pubsub import InProcessPubSub
from triverse.server.seats import SeatRequest
from triverse.server.views import LOG_CACHE_MOVES, log_json


@pytest.fixture(params=["sqlite", "postgresql"])
def any_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """A SQLite file, and a PostgreSQL schema of its own (skipped when none is reachable)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fast.sqlite3'}"
    else:
        yield request.getfixturevalue("pg_url")


class Counted:
    """Wraps an async method and counts its calls."""

    def __init__(self, method: Any) -> None:
        self.method, self.calls = method, 0

    async def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return await self.method(*args)


def test_an_action_at_the_cached_move_reads_nothing_and_a_change_elsewhere_is_caught(
    any_url: str,
) -> None:
    async def scenario() -> None:
        hub = InProcessPubSub()
        async with parts_of(any_url, hub) as one, parts_of(any_url, hub) as other:
            created = await one.referee.create("trident", {"time_limit": 60}, [
                SeatRequest("human"), SeatRequest("human")], "hotseat", seed=2)
            match_id, tokens = created.match_id, created.tokens
            live = await other.matches.get(match_id)  # "other" caches it at move 0
            status = Counted(other.repository.status)
            other.repository.status = status  # type: ignore[method-assign]

            # "one" pauses the match: "other" does not know, and plays from memory.
            await one.referee.set_paused(match_id, tokens[0], True)
            seat = live.to_move
            assert seat is not None and live.paused is False
            play = str(live.state.legal_action_list()[0])
            after = await other.referee.act(match_id, tokens[seat], play, 0)
            # The guard refused the first try; caught up (one read), the action was made.
            assert status.calls == 1 and after.paused is True
            assert after.state.move_number == 1 and after.log[0].action == play
            stored = await one.repository.load(match_id)
            assert stored is not None and [m[2] for m in stored.moves] == [play]

            # The next action, at the cached move, reads nothing from the database.
            seat = after.to_move
            assert seat is not None
            await other.referee.act(match_id, tokens[seat],
                                    str(after.state.legal_action_list()[0]), 1)
            assert status.calls == 1 and after.state.move_number == 2

            # Elsewhere, the turn's deadline is set to a moment already past: the action
            # "other" would accept from memory is refused as late (the due time-out is made).
            with one.repository.engine.begin() as connection:
                connection.execute(update(MatchRow).where(MatchRow.id == match_id)
                                   .values(deadline=START - timedelta(seconds=1)))
            seat = after.to_move
            assert seat is not None and after.deadline is not None
            with pytest.raises(ServerError) as refused:
                await other.referee.act(match_id, tokens[seat],
                                        str(after.state.legal_action_list()[0]), 2)
            assert refused.value.code == "time_up" and status.calls == 2
            assert after.state.move_number == 3 and after.log[2].action == "timeout"

    run(scenario)


def test_log_entries_are_made_once_per_viewer_and_the_cache_stays_small() -> None:
    secret = Event("draw", player=0, secret={"tile": "1-2-3"})
    entries = [LogEntry(n, n % 2, f"a{n}", (secret,)) for n in range(9 * LOG_CACHE_MOVES)]
    cache: dict[Any, Any] = {}
    for viewer in (0, 1, None):
        first = log_json(entries[:40], viewer, cache)
        again = log_json(entries[:40], viewer, cache)
        assert first == log_json(entries[:40], viewer)  # what the uncached log makes
        assert all(a is b for a, b in zip(first, again, strict=True))
    seen = {viewer: log_json(entries[:1], viewer, cache)[0] for viewer in (0, 1, None)}
    assert "tile" in str(seen[0]) and "tile" not in str(seen[1]) and "action" not in seen[None]
    # An entry replaced (a match loaded again) is made afresh, not taken from the cache.
    other = LogEntry(0, 0, "b0", ())
    assert log_json([other], 0, cache)[0]["action"] == "b0"
    for start in range(0, len(entries), 40):  # a long game: only the recent moves are kept
        log_json(entries[start:start + 40], 0, cache)
    assert len(cache) <= 8 * LOG_CACHE_MOVES + 40  # pruned once past 8 * LOG_CACHE_MOVES
    assert min(number for number, _ in cache) > 40  # the first moves, of every viewer, gone


def test_a_seat_view_is_rendered_once_per_move(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[int | None] = []
    real = ws.render_view

    def counting(live: Any, seat: int | None, *args: Any, **kwargs: Any) -> Json:
        rendered.append(seat)
        return real(live, seat, *args, **kwargs)

    monkeypatch.setattr(ws, "render_view", counting)
    answer = client.post("/api/matches", json={
        "game": "triominoes", "mode": "hotseat", "seed": 5,
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    created: Json = answer.json()
    tokens = tokens_of(created)
    match_id = created["match_id"]
    with client.websocket_connect(f"/ws/matches/{match_id}") as zero, \
            client.websocket_connect(f"/ws/matches/{match_id}") as one:
        zero.send_json({"type": "hello", "token": tokens[0]})
        one.send_json({"type": "hello", "token": tokens[1]})
        views = {0: zero.receive_json()["view"], 1: one.receive_json()["view"]}
        mover = 0 if views[0]["your_turn"] else 1
        sockets = {0: zero, 1: one}
        # Connecting: each seat's first view, and the second seat's presence shows to the first.
        time.sleep(0.2)
        for seat in (0, 1):  # the presence views pushed meanwhile, up to the pong
            sockets[seat].send_json({"type": "ping", "id": "p"})
            while sockets[seat].receive_json()["type"] != "pong":
                pass
        before = len(rendered)
        action = views[mover]["legal_actions"][0]["notation"]
        sockets[mover].send_json({"type": "action", "id": "a", "move": 0, "action": action})
        assert sockets[mover].receive_json()["type"] == "accepted"
        assert sockets[mover].receive_json()["view"]["move"] == 1
        assert sockets[1 - mover].receive_json()["view"]["move"] == 1
        time.sleep(0.2)  # the mover's socket also hears of the move: nothing new to render
        for seat in (0, 1):
            sockets[seat].send_json({"type": "ping", "id": "q"})
            assert sockets[seat].receive_json()["type"] == "pong"
        assert sorted(rendered[before:]) == [0, 1]


def test_a_postgresql_connection_idle_and_dropped_is_replaced_at_checkout(
    pg_url: str,  # noqa: F811
) -> None:
    url = pg_url.replace("postgresql://", "postgresql+psycopg://", 1)
    engine = create_engine(url, pool_size=1, max_overflow=0)
    ping_when_idle(engine, after=0.05)
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            first = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
        with admin.connect() as connection:  # the database drops the pooled connection
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
        time.sleep(0.1)
        with engine.connect() as connection:  # idle: pinged, found dead, replaced
            second = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
        assert second != first
        with engine.connect() as connection:  # in use a moment ago: not pinged
            assert connection.execute(text("SELECT pg_backend_pid()")).scalar_one() == second
    finally:
        engine.dispose()
        admin.dispose()
