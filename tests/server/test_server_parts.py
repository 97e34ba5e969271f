"""The server's parts on their own: configuration, migrations, pub/sub, the bot pool, views."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from pathlib import Path

import pytest
from sqlalchemy import inspect

from triverse import load_game
from triverse.server import address
from triverse.server.bots import BotPool, GameSpec
from triverse.server.config import DB_ENV, database_url, default_database_path
from triverse.server.db import make_engine, migrate
from triverse.server.pubsub import InProcessPubSub
from triverse.server.views import jsonable


def test_database_urls(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert database_url("postgresql://u@h:5432/db") == "postgresql+psycopg://u@h:5432/db"
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.sqlite3") == "sqlite:///x.sqlite3"
    monkeypatch.setenv(DB_ENV, "sqlite:///from-env.sqlite3")
    assert database_url(None) == "sqlite:///from-env.sqlite3"
    monkeypatch.delenv(DB_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = database_url(None)
    assert url == f"sqlite:///{default_database_path()}"
    assert default_database_path().parent.is_dir()
    assert "triverse" in str(default_database_path())
    assert address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"


def test_migrations_are_idempotent(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    migrate(engine)
    migrate(engine)
    tables = set(inspect(engine).get_table_names())
    assert tables == {"alembic_version", "matches", "seats", "moves", "accounts", "sessions",
                      "seat_keys", "ratings", "rating_changes", "push_subscriptions",
                      "push_queue", "server_secrets", "contests", "contest_entries",
                      "contest_boards", "contest_announcements"}
    engine.dispose()


def test_in_process_pubsub() -> None:
    async def scenario() -> None:
        hub = InProcessPubSub(maxsize=2)
        async with hub.subscribe("a") as first, hub.subscribe("a") as second:
            other = hub.subscribe("b")
            assert hub.subscribers("a") == 2
            for n in range(3):
                await hub.publish("a", {"n": n})
            # A slow reader loses the oldest messages only.
            assert [await first.get(), await first.get()] == [{"n": 1}, {"n": 2}]
            iterator = aiter(second)
            assert await anext(iterator) == {"n": 1}
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(other.get(), 0.01)
            await other.unsubscribe()
        assert hub.subscribers("a") == 0 and hub.subscribers("b") == 0
        await hub.publish("a", {"n": 9})  # nobody listens: fine
        await hub.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("method", ["spawn", None])
def test_bot_pool_chooses_a_legal_action(method: str | None) -> None:
    game = load_game("triominoes", players=2, target=60)
    state = game.new_initial_state(seed=8)
    seat = state.current_player
    assert seat is not None
    spec = GameSpec.of("triverse.games.triominoes.engine:TriominoesGame", game)
    context = multiprocessing.get_context(method) if method else None
    pool = BotPool("process", 1, mp_context=context)
    pool.start()
    try:
        notation = asyncio.run(pool.choose("average", spec, state.observation(seat),
                                           random.Random(1)))
    finally:
        pool.shutdown()
    assert state.is_legal(state.parse_action(notation))
    threads = BotPool("thread", 1)
    try:
        again = asyncio.run(threads.choose("average", spec, state.observation(seat),
                                           random.Random(1)))
    finally:
        threads.shutdown()
    assert again == notation  # the same rng gives the same choice, wherever it runs
    with pytest.raises(ValueError, match="process"):
        BotPool("fibre")


def test_jsonable_actions() -> None:
    game = load_game("triominoes", players=2)
    state = game.new_initial_state(seed=8)
    action = next(state.legal_actions())
    data = jsonable(action)
    assert isinstance(data, dict) and isinstance(data.get("tile"), str)
    assert jsonable({1: {2, 3}, "e": None}) == {"1": [2, 3], "e": None}
