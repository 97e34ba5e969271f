"""Fixtures of the server tests: an app on a fresh SQLite file, with instant computer moves, and
a Redis key prefix of a test's own."""

from __future__ import annotations

import faulthandler
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import REDIS_URL

from triverse.server.app import create_app
from triverse.server.config import settings_with


@pytest.fixture(autouse=True)
def _no_hang(request: pytest.FixtureRequest) -> Iterator[None]:
    """A websocket test waiting for a message that never comes would hang: after two minutes
    (two hours for the long property tests of ``--long``), print every thread's stack and stop
    instead."""
    limit = 7200 if request.config.getoption("--long") else 120
    faulthandler.dump_traceback_later(limit, exit=True, file=sys.stderr)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A SQLite database file of this test's own."""
    return f"sqlite:///{tmp_path / 'triverse.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A running server (lifespan included) on ``db_url``."""
    with TestClient(create_app(db_url, bot_delay=0, bot_workers=1,
                               allow_client_seed=True)) as test_client:
        yield test_client


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix of this test's own; its keys are deleted afterwards."""
    redis = pytest.importorskip("redis")
    name = f"triverse-test-{uuid.uuid4().hex[:12]}:"
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as exc:
        client.close()
        pytest.skip(f"Redis is not reachable at {REDIS_URL}: {exc}")
    yield name
    try:
        keys = list(client.scan_iter(match=f"{name}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
def make(db_url: str) -> Iterator[Any]:
    """Browsers on one server: ``make()`` is a new client with cookies of its own;
    ``make(**settings)``, the first time, sets the server's settings."""
    clients: list[TestClient] = []
    app: list[Any] = []

    def new(base_url: str = "http://testserver", **settings: Any) -> TestClient:
        if not app:  # the first client runs the application's lifespan for all of them
            app.append(create_app(settings=settings_with(
                db_url=db_url, bot_delay=0, bot_workers=1, **settings)))
            clients.append(TestClient(app[0]).__enter__())
        return TestClient(app[0], base_url=base_url)

    yield new
    for client in clients:
        client.__exit__(None, None, None)
