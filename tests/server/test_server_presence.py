"""Presence shared between server processes in Redis (the system Redis, a key prefix of each
test's own)."""

from __future__ import annotations

import asyncio

from server_helpers import REDIS_URL

from triverse.server.presence import DEAD_AFTER, LocalPresence, RedisPresence


class Clock:
    """Seconds since the epoch, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_one_process_has_nobody_elsewhere() -> None:
    async def run() -> None:
        presence = LocalPresence()
        await presence.joined("m", 0)
        assert await presence.elsewhere("m") == frozenset()
        await presence.close()

    asyncio.run(run())


def test_a_seat_connected_to_another_process_is_seen_until_it_leaves(prefix: str) -> None:
    async def run() -> None:
        clock = Clock()
        a = RedisPresence(REDIS_URL, "a" * 32, prefix, clock)
        b = RedisPresence(REDIS_URL, "b" * 32, prefix, clock)
        told: list[str] = []

        async def announce(match_id: str) -> None:
            told.append(match_id)

        await a.start(announce)
        await b.start(announce)
        try:
            await a.joined("m1", 0)
            await a.joined("m1", 0)  # two tabs of seat 0
            await b.joined("m1", 1)
            assert await b.elsewhere("m1") == {0}  # its own sockets are not "elsewhere"
            assert await a.elsewhere("m1") == {1}
            assert await a.elsewhere("m2") == frozenset()
            await a.left("m1", 0)
            assert await b.elsewhere("m1") == {0}  # one tab is still open
            await a.left("m1", 0)
            assert await b.elsewhere("m1") == frozenset()
            assert told == []
        finally:
            await a.close()
            await b.close()

    asyncio.run(run())


def test_a_dead_process_stops_counting_and_is_buried_once(prefix: str) -> None:
    async def run() -> None:
        clock = Clock()
        dead = RedisPresence(REDIS_URL, "d" * 32, prefix, clock)
        b = RedisPresence(REDIS_URL, "b" * 32, prefix, clock)
        c = RedisPresence(REDIS_URL, "c" * 32, prefix, clock)
        told: list[str] = []

        async def announce(match_id: str) -> None:
            told.append(match_id)

        for presence in (dead, b, c):
            await presence.start(announce)
        try:
            await dead.joined("m1", 0)
            await dead.joined("m2", 1)
            assert await b.elsewhere("m1") == {0}
            # The process stops beating (killed); the others go on.
            clock.now += DEAD_AFTER + 1
            await b.beat()
            await c.beat()
            assert await b.elsewhere("m1") == frozenset()  # no longer counts, at once
            buried_by_b = await b.bury()
            buried_by_c = await c.bury()
            assert buried_by_b == ["d" * 32] and buried_by_c == []  # buried once
            assert sorted(told) == ["m1", "m2"]
            keys = [key async for key in b._redis.scan_iter(match=f"{prefix}*")]
            assert f"{prefix}presence:m1" not in keys and f"{prefix}presence:m2" not in keys
            assert f"{prefix}process-matches:{'d' * 32}" not in keys
        finally:
            for presence in (b, c):
                await presence.close()
            await dead._redis.aclose()

    asyncio.run(run())


def test_a_stopped_process_removes_its_counts(prefix: str) -> None:
    async def run() -> None:
        a = RedisPresence(REDIS_URL, "a" * 32, prefix)
        b = RedisPresence(REDIS_URL, "b" * 32, prefix)

        async def announce(_match_id: str) -> None:
            return None

        await a.start(announce)
        await b.start(announce)
        try:
            await a.joined("m1", 1)
            assert await b.elsewhere("m1") == {1}
            await a.close()
            assert await b.elsewhere("m1") == frozenset()
            assert await b._redis.zscore(f"{prefix}processes", "a" * 32) is None
        finally:
            await b.close()

    asyncio.run(run())


def test_presence_without_redis_shows_only_this_process() -> None:
    async def run() -> None:
        presence = RedisPresence("redis://127.0.0.1:1/0", "a" * 32, "triverse-test-gone:")
        await presence.joined("m1", 0)  # logged, not raised: a courtesy, not a move
        assert await presence.elsewhere("m1") == frozenset()
        await presence.close()

    asyncio.run(run())
