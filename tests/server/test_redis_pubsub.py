"""RedisPubSub against a real Redis: a private ``redis-server`` per test, on a free port, so
that a test can kill it and start it again (skipped when ``redis-server`` is missing).

Two ``RedisPubSub`` objects on one event loop stand for two server processes: each holds its
own connections, exactly as separate processes would.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import shutil
import signal
import socket
import subprocess
import time
import warnings
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from redis.asyncio import Redis

from triverse.server import redis_pubsub
from triverse.server.pubsub import InProcessPubSub, MatchNews, Message
from triverse.server.redis_pubsub import RedisPubSub

T = TypeVar("T")

REDIS_SERVER = shutil.which("redis-server")
pytestmark = pytest.mark.skipif(REDIS_SERVER is None, reason="no redis-server on this machine")


class PrivateRedis:
    """A ``redis-server`` of one test's own, which the test may kill and start again."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], cwd=self.directory, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()


def run(scenario: Coroutine[Any, Any, T]) -> T:
    """Run ``scenario`` on a new event loop; a test that would wait forever fails instead."""
    return asyncio.run(asyncio.wait_for(scenario, 20))


async def numsub(admin: Redis, channel: str) -> int:
    """How many connections Redis has subscribed to ``channel``."""
    [(_, count)] = await admin.pubsub_numsub(channel)
    return int(count)


async def until_numsub(admin: Redis, channel: str, expected: int) -> None:
    """Wait for Redis to see ``expected`` subscribers of ``channel`` (an unsubscription is
    confirmed to nobody, so this polls)."""
    while await numsub(admin, channel) != expected:
        await asyncio.sleep(0.01)


def changed(move: int) -> Message:
    return {"type": "changed", "match": "m", "reason": "move", "move": move, "origin": "p1"}


def test_messages_go_from_one_process_to_another(redis_server: PrivateRedis) -> None:
    """A message published by one process reaches the other's subscribers once, and its own
    subscribers once (at once, not again when it comes back from Redis)."""

    async def scenario() -> list[list[Message]]:
        first, second = RedisPubSub(redis_server.url), RedisPubSub(redis_server.url)
        try:
            async with first.subscribe("match:m") as mine, second.subscribe("match:m") as theirs:
                await first.publish("match:m", changed(1))
                got = [[await mine.get()], [await theirs.get()]]
                await second.publish("match:m", changed(2))
                got[0].append(await mine.get())  # changed(1) again, if its echo came through
                got[1].append(await theirs.get())
                return got
        finally:
            await first.close()
            await second.close()

    assert run(scenario()) == [[changed(1), changed(2)], [changed(1), changed(2)]]


def test_channels_and_prefixes_keep_apart(redis_server: PrivateRedis) -> None:
    """A subscriber gets its own channel's messages only, and only from hubs of its prefix."""

    async def scenario() -> dict[str, Message]:
        publisher = RedisPubSub(redis_server.url)
        other = RedisPubSub(redis_server.url, prefix="other:")
        reader = RedisPubSub(redis_server.url)
        try:
            x, y = reader.subscribe("match:x"), reader.subscribe("match:y")
            foreign = other.subscribe("match:x")
            for subscription in (x, y, foreign):
                await subscription.ready()
            await publisher.publish("match:y", {"to": "y"})
            await other.publish("match:x", {"to": "other x"})
            await publisher.publish("match:x", {"to": "x"})
            got = {"x": await x.get(), "y": await y.get(), "foreign": await foreign.get()}
            await publisher.publish("match:x", {"to": "x again"})
            got["x next"] = await x.get()
            return got
        finally:
            for hub in (publisher, other, reader):
                await hub.close()

    assert run(scenario()) == {"x": {"to": "x"}, "y": {"to": "y"},
                               "foreign": {"to": "other x"}, "x next": {"to": "x again"}}


def test_one_redis_subscription_per_channel_counted_by_its_local_subscribers(
        redis_server: PrivateRedis) -> None:
    """Local subscribers share one Redis connection and one subscription per channel, which
    goes when the last of them leaves and comes back with the next one."""

    async def scenario() -> list[tuple[int, int]]:
        hub, publisher = RedisPubSub(redis_server.url), RedisPubSub(redis_server.url)
        admin = Redis.from_url(redis_server.url)
        counts = []
        try:
            one, two = hub.subscribe("match:m"), hub.subscribe("match:m")
            await one.ready()
            await two.ready()
            counts.append((hub.subscribers("match:m"), await numsub(admin, "triverse:match:m")))
            await one.unsubscribe()
            await one.unsubscribe()  # a second time changes nothing
            await publisher.publish("match:m", changed(1))
            assert await two.get() == changed(1)
            counts.append((hub.subscribers("match:m"), await numsub(admin, "triverse:match:m")))
            await two.unsubscribe()
            await until_numsub(admin, "triverse:match:m", 0)
            counts.append((hub.subscribers("match:m"), await numsub(admin, "triverse:match:m")))
            async with hub.subscribe("match:m") as three:
                counts.append((hub.subscribers("match:m"),
                               await numsub(admin, "triverse:match:m")))
                await publisher.publish("match:m", changed(2))
                assert await three.get() == changed(2)
            return counts
        finally:
            await hub.close()
            await publisher.close()
            await admin.aclose()

    assert run(scenario()) == [(2, 1), (1, 1), (0, 0), (1, 1)]


def test_a_slow_reader_loses_the_oldest_messages(redis_server: PrivateRedis) -> None:
    """A subscriber's queue keeps the newest ``maxsize`` messages."""

    async def scenario() -> list[Message]:
        hub, publisher = RedisPubSub(redis_server.url, maxsize=2), RedisPubSub(redis_server.url)
        try:
            slow, marker = hub.subscribe("match:slow"), hub.subscribe("match:marker")
            await slow.ready()
            await marker.ready()
            for move in range(1, 6):
                await publisher.publish("match:slow", changed(move))
            # One connection delivers in order: once the marker is in, so are all five.
            await publisher.publish("match:marker", {"type": "marker"})
            assert await marker.get() == {"type": "marker"}
            return [await slow.get(), await slow.get()]
        finally:
            await hub.close()
            await publisher.close()

    assert run(scenario()) == [changed(4), changed(5)]


def test_ready_means_redis_confirmed_the_subscription(redis_server: PrivateRedis) -> None:
    """After ``ready()`` Redis counts the subscription; ``ready()`` of a subscription that has
    left, or of an in-process one, returns at once."""

    async def scenario() -> list[int]:
        hub = RedisPubSub(redis_server.url)
        admin = Redis.from_url(redis_server.url)
        try:
            seen = []
            for n in range(3):
                subscription = hub.subscribe(f"match:{n}")
                await subscription.ready()
                seen.append(await numsub(admin, f"triverse:match:{n}"))
            gone = hub.subscribe("match:gone")
            await gone.unsubscribe()
            await gone.ready()
            local = InProcessPubSub().subscribe("match:local")
            await local.ready()
            return seen
        finally:
            await hub.close()
            await admin.aclose()

    assert run(scenario()) == [1, 1, 1]


def test_publishing_while_redis_is_down_does_not_raise(
        redis_server: PrivateRedis, caplog: pytest.LogCaptureFixture) -> None:
    """A publish with Redis down still reaches this process's subscribers, logs one warning
    for the outage, and raises nothing; ``ping`` raises; once Redis is back, publishing works
    again (and says so)."""
    caplog.set_level(logging.INFO, logger="triverse.server.redis_pubsub")

    async def scenario() -> list[Message]:
        hub = RedisPubSub(redis_server.url, timeout=1)
        news = MatchNews(hub, origin="p1")
        got = []
        try:
            await hub.ping()
            async with hub.subscribe("match:m") as local:
                redis_server.kill()
                with pytest.raises(Exception, match=r"(?i)connect"):
                    await hub.ping()
                for move in (1, 2, 3):
                    await news.changed("m", "move", move)
                    got.append(await local.get())
                redis_server.start()
                await hub.ping()
                await news.changed("m", "move", 4)
                while (message := await local.get()).get("type") != "changed":
                    assert message == {"type": "resync"}
                got.append(message)
            return got
        finally:
            await hub.close()

    assert run(scenario()) == [{**changed(move), "seq": move - 1} for move in (1, 2, 3, 4)]
    publishing = [r.getMessage() for r in caplog.records if "publish" in r.getMessage()]
    assert len(publishing) == 2, publishing
    assert publishing[0].startswith("cannot publish to Redis")
    assert publishing[1] == "publishing to Redis again"


def test_after_redis_restarts_every_subscriber_gets_resync_then_live_messages(
        redis_server: PrivateRedis, caplog: pytest.LogCaptureFixture) -> None:
    """Killing Redis and starting it again on the same port: the reader reconnects, subscribes
    again, puts ``{"type": "resync"}`` into every subscriber's queue (also one that came
    during the outage), then delivers live messages again; one warning and one info line."""
    caplog.set_level(logging.INFO, logger="triverse.server.redis_pubsub")

    async def scenario() -> tuple[list[Message], list[Message], bool]:
        hub, publisher = RedisPubSub(redis_server.url), RedisPubSub(redis_server.url)
        admin = Redis.from_url(redis_server.url)
        try:
            subscriptions = [hub.subscribe("match:a"), hub.subscribe("match:a"),
                             hub.subscribe("match:b")]
            for subscription in subscriptions:
                await subscription.ready()
            redis_server.kill()
            await publisher.publish("match:a", changed(1))  # lost: Redis is down
            latecomer = hub.subscribe("match:c")
            await latecomer.ready()  # at once: Redis is down, a resync will follow
            subscriptions.append(latecomer)
            redis_server.start()
            resyncs = [await subscription.get() for subscription in subscriptions]
            for channel in ("match:a", "match:b", "match:c"):
                await publisher.publish(channel, changed(2))
            live = [await subscription.get() for subscription in subscriptions]
            news = MatchNews(InProcessPubSub(), origin="p2")
            return resyncs, live, all(news.from_elsewhere(m) for m in resyncs)
        finally:
            await hub.close()
            await publisher.close()
            await admin.aclose()

    resyncs, live, elsewhere = run(scenario())
    assert resyncs == [{"type": "resync"}] * 4
    assert live == [changed(2)] * 4
    assert elsewhere  # a resync counts as news from another process: read the database
    lines = [(r.levelname, r.getMessage()) for r in caplog.records
             if "pub/sub connection" in r.getMessage()]
    assert [level for level, _ in lines] == ["WARNING", "INFO"], lines
    assert lines[1][1] == ("the Redis pub/sub connection is back: subscribed again to 3 "
                           "channel(s), told 4 subscriber(s) to read the database again")


def test_subscriptions_wait_for_redis_after_it_is_back(redis_server: PrivateRedis) -> None:
    """While the reader waits to reconnect, ``ready()`` returns at once; once it is back, a new
    channel's ``ready()`` waits for Redis to confirm it, as at first."""

    async def scenario() -> int:
        hub = RedisPubSub(redis_server.url)
        admin = Redis.from_url(redis_server.url)
        try:
            first = hub.subscribe("match:first")
            await first.ready()
            redis_server.kill()
            during = hub.subscribe("match:during")
            await during.ready()
            redis_server.start()
            assert await first.get() == {"type": "resync"}
            after = hub.subscribe("match:after")
            await after.ready()
            return await numsub(admin, "triverse:match:after")
        finally:
            await hub.close()
            await admin.aclose()

    assert run(scenario()) == 1


def test_a_redis_that_stops_answering_is_found_out_by_ping(
        redis_server: PrivateRedis, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Idle, the reader sends ``PING`` (and the connection stays up); when Redis stops
    answering without closing the connection (here: the process is stopped), the reader takes
    the silence for a lost connection, and once Redis answers again the subscribers get a
    ``resync`` and live messages."""
    monkeypatch.setattr(redis_pubsub, "HEALTH_INTERVAL", 0.05)
    caplog.set_level(logging.INFO, logger="triverse.server.redis_pubsub")
    process = redis_server.process
    assert process is not None

    async def pings(admin: Redis) -> int:
        stats = await admin.info("commandstats")
        return int(stats.get("cmdstat_ping", {}).get("calls", 0))

    async def scenario() -> list[Message]:
        hub = RedisPubSub(redis_server.url, timeout=0.5)
        publisher, admin = RedisPubSub(redis_server.url), Redis.from_url(redis_server.url)
        try:
            async with hub.subscribe("match:m") as subscription:
                while await pings(admin) < 3:
                    await asyncio.sleep(0.02)
                assert not caplog.records  # the pings kept the connection as it was
                await publisher.publish("match:m", changed(1))
                got = [await subscription.get()]
                process.send_signal(signal.SIGSTOP)
                try:
                    while not caplog.records:  # the reader's warning
                        await asyncio.sleep(0.02)
                finally:
                    process.send_signal(signal.SIGCONT)
                got.append(await subscription.get())
                await publisher.publish("match:m", changed(2))
                got.append(await subscription.get())
                return got
        finally:
            for hub_ in (hub, publisher):
                await hub_.close()
            await admin.aclose()

    assert run(scenario()) == [changed(1), {"type": "resync"}, changed(2)]
    assert [r.levelname for r in caplog.records] == ["WARNING", "INFO"]
    assert "Redis sent nothing for 0.1 s" in caplog.records[0].getMessage()


def test_close_leaves_nothing_behind(redis_server: PrivateRedis) -> None:
    """``close`` ends the reader and both connections: no task is left, Redis sees no client
    but the test's own, nothing warns; afterwards ``subscribe`` refuses and ``publish`` does
    nothing."""

    async def scenario() -> tuple[int, int]:
        hub, publisher = RedisPubSub(redis_server.url), RedisPubSub(redis_server.url)
        admin = Redis.from_url(redis_server.url)
        try:
            async with hub.subscribe("match:m") as subscription:
                await publisher.publish("match:m", changed(1))
                assert await subscription.get() == changed(1)
                waiting = asyncio.create_task(subscription.get())
                await hub.close()
                await publisher.close()
                await subscription.ready()  # returns: the hub is closed
                with pytest.raises(RuntimeError, match="closed"):
                    hub.subscribe("match:m")
                await hub.publish("match:m", changed(2))
                waiting.cancel()
                await asyncio.wait((waiting,))
            tasks = sum("RedisPubSub" in task.get_coro().__qualname__  # type: ignore[union-attr]
                        for task in asyncio.all_tasks())
            while len(await admin.client_list()) > 1:  # closing is seen by Redis a bit later
                await asyncio.sleep(0.01)
            return tasks, len(await admin.client_list())
        finally:
            await admin.aclose()

    gc.collect()  # whatever earlier tests left is not this test's
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert run(scenario()) == (0, 1)
        gc.collect()
    assert [str(w.message) for w in caught] == []
