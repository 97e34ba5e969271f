"""The same flow on PostgreSQL (skipped only when no server answers at 127.0.0.1:5432)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from server_helpers import create, play_to_end, tokens_of, view, wait_view
from test_server_persist import old_rules_matches_replay

from triverse.core.records import Record, replay
from triverse.server.app import create_app
from triverse.server.clock import ManualClock

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A URL whose connections use a fresh schema of their own, dropped afterwards."""
    psycopg = pytest.importorskip("psycopg")
    try:
        admin = psycopg.connect(PG_URL, connect_timeout=3, autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL is not reachable at {PG_URL}: {exc}".strip())
    schema = f"triverse_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


def test_postgresql_play_restart_and_record(pg_url: str) -> None:
    def app() -> TestClient:
        return TestClient(create_app(pg_url, bot_delay=0, bot_workers=1,
                                     allow_client_seed=True))

    first = create_app(pg_url, bot_delay=0, bot_workers=1, allow_client_seed=True)
    assert first.state.settings.db_url.startswith("postgresql+psycopg://")
    with TestClient(first) as client:
        created = create(client, ["human", "average"], seed=4)
        match_id, tokens = created["match_id"], tokens_of(created)
        play_to_end(client, match_id, tokens, max_moves=10)
        before = view(client, match_id, tokens[0])
        assert not before["finished"]
    with app() as client:
        final = play_to_end(client, match_id, tokens)
        assert final["finished"] and final["move"] >= before["move"]
        record = client.get(f"/api/matches/{match_id}/record").json()
        assert replay(Record.from_json(record)).scores == final["scores"]
        games = client.post("/api/my-games", json={"tokens": [tokens[0]]}).json()["matches"]
        assert [g["match_id"] for g in games] == [match_id] and games[0]["finished"]
        assert games[0]["result"] == final["result"]


def test_postgresql_keeps_turn_deadlines(pg_url: str) -> None:
    clock = ManualClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))

    def app() -> TestClient:
        return TestClient(create_app(pg_url, bot_delay=0, bot_workers=1,
                                     allow_client_seed=True, clock=clock))

    with app() as client:
        created = client.post("/api/matches", json={
            "game": "trident", "options": {"time_limit": 3600}, "mode": "hotseat", "seed": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        match_id = created["match_id"]
        deadline = view(client, match_id)["deadline"]
        assert deadline == "2026-12-01T10:00:00.000Z"
    with app() as client:
        assert view(client, match_id)["deadline"] == deadline  # timestamptz, back in UTC
        clock.advance(3601)
        after = wait_view(client, match_id, None, lambda v: v["move"] == 1)
        assert after["log"][0]["events"][0]["kind"] == "timeout"
        assert after["deadline"] == "2026-12-01T11:00:01.000Z"


def test_postgresql_migrates_old_triominoes_matches_to_rules_version_1(pg_url: str) -> None:
    old_rules_matches_replay(pg_url)
