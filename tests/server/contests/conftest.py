"""The contest tests' fixtures: a server whose clock the test moves (in place of the server
tests' ``client``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from contest_helpers import START, server
from fastapi.testclient import TestClient

from triverse.server.clock import ManualClock


@pytest.fixture
def clock() -> ManualClock:
    """The time of a contest test, moved by the test."""
    return ManualClock(START)


@pytest.fixture
def client(db_url: str, clock: ManualClock) -> Iterator[TestClient]:
    """A server on its own SQLite file, with the tests' contest limits and ``clock``."""
    with server(db_url, clock) as test_client:
        yield test_client
