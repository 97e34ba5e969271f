"""Who is connected: the seats with an open websocket, in this process or in another.

A view shows which seats are connected (``seats[].connected``). A lone process knows it from
its own sockets (:attr:`LiveMatch.connections <triverse.server.live.LiveMatch.connections>`).
Among several processes a seat's socket may be open on another process, so each process also
keeps, per match, the seats connected *elsewhere* (:attr:`LiveMatch.elsewhere
<triverse.server.live.LiveMatch.elsewhere>`), read from a :class:`Presence`:

- :class:`LocalPresence`: nothing is elsewhere (one process, the embedded default).
- :class:`RedisPresence`: each process counts its sockets per match and seat in a Redis hash
  (``<prefix>presence:<match>``, field ``<process>:<seat>``), and says it is alive in a sorted
  set (``<prefix>processes``, scored by the time of its last heartbeat, every
  :data:`HEARTBEAT` seconds). A seat is connected elsewhere when another *live* process counts
  a socket for it. A process that dies, even by ``kill -9``, leaves its counts behind: they
  stop counting once its heartbeat is :data:`DEAD_AFTER` seconds old, and the first process to
  notice removes them and announces the change on the matches concerned (each process lists
  the matches it counted in ``<prefix>process-matches:<process>``, so that nothing needs a
  scan of the keys).

Presence is announced like any change: :class:`~triverse.server.pubsub.MatchNews` with the
reason ``presence``; a process that hears it from elsewhere reads the match's presence again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

__all__ = ["DEAD_AFTER", "HEARTBEAT", "LocalPresence", "Presence", "RedisPresence"]

HEARTBEAT = 5.0
"""Seconds between two heartbeats of a process (:class:`RedisPresence`)."""
DEAD_AFTER = 15.0
"""Seconds without a heartbeat after which a process's sockets no longer count."""

Announce = Callable[[str], Awaitable[object]]
"""Tells a match's subscribers that its presence changed (``MatchNews`` with ``presence``)."""


class Presence(Protocol):
    """The seats connected in other processes (see the module)."""

    async def joined(self, match_id: str, seat: int) -> None:
        """A socket of ``seat`` opened in this process."""
        ...

    async def left(self, match_id: str, seat: int) -> None:
        """A socket of ``seat`` closed in this process."""
        ...

    async def elsewhere(self, match_id: str) -> frozenset[int]:
        """The seats with a socket open in another live process."""
        ...

    async def start(self, announce: Announce) -> None:
        """Start the heartbeat; ``announce(match_id)`` tells a match that a dead process's
        sockets are gone."""
        ...

    async def close(self) -> None:
        """Stop the heartbeat and remove this process's counts."""
        ...


class LocalPresence:
    """One process: no socket is elsewhere."""

    async def joined(self, match_id: str, seat: int) -> None:
        return None

    async def left(self, match_id: str, seat: int) -> None:
        return None

    async def elsewhere(self, match_id: str) -> frozenset[int]:
        return frozenset()

    async def start(self, announce: Announce) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisPresence:
    """Presence shared in Redis (see the module). ``origin`` names this process, as in
    :class:`~triverse.server.pubsub.MatchNews`; ``clock`` gives seconds since the epoch (the
    heartbeats of processes on several machines are compared, so not a monotonic clock)."""

    def __init__(self, url: str, origin: str, prefix: str = "triverse:",
                 clock: Callable[[], float] = time.time) -> None:
        from triverse.server.redis_pool import redis_client  # the redis extra

        self.origin = origin
        self.prefix = prefix
        self.clock = clock
        self._redis: Any = redis_client(url, decode=True)
        self._task: asyncio.Task[None] | None = None
        self._announce: Announce | None = None
        self._warned = False

    # --- keys ------------------------------------------------------------------------------------
    def _match_key(self, match_id: str) -> str:
        return f"{self.prefix}presence:{match_id}"

    @property
    def _processes_key(self) -> str:
        return f"{self.prefix}processes"

    def _matches_of(self, origin: str) -> str:
        return f"{self.prefix}process-matches:{origin}"

    # --- counting ---------------------------------------------------------------------------------
    async def joined(self, match_id: str, seat: int) -> None:
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.hincrby(self._match_key(match_id), f"{self.origin}:{seat}", 1)
                pipe.sadd(self._matches_of(self.origin), match_id)
                await pipe.execute()
        except Exception as exc:
            self._unreachable(exc)

    async def left(self, match_id: str, seat: int) -> None:
        key, field = self._match_key(match_id), f"{self.origin}:{seat}"
        try:
            count = int(await self._redis.hincrby(key, field, -1))
            if count <= 0:
                await self._redis.hdel(key, field)
        except Exception as exc:
            self._unreachable(exc)

    async def elsewhere(self, match_id: str) -> frozenset[int]:
        try:
            counts: dict[str, str] = await self._redis.hgetall(self._match_key(match_id))
            if not counts:
                return frozenset()
            origins = sorted({field.rpartition(":")[0] for field in counts} - {self.origin})
            if not origins:
                return frozenset()
            beats = await self._redis.zmscore(self._processes_key, origins)
        except Exception as exc:
            self._unreachable(exc)
            return frozenset()
        alive = {origin for origin, beat in zip(origins, beats, strict=True)
                 if beat is not None and float(beat) > self.clock() - DEAD_AFTER}
        seats = set()
        for field, count in counts.items():
            origin, _, seat = field.rpartition(":")
            if origin in alive and int(count) > 0 and seat.isdigit():
                seats.add(int(seat))
        return frozenset(seats)

    def _unreachable(self, exc: Exception) -> None:
        """Presence is a courtesy: without Redis, views show only this process's sockets."""
        if not self._warned:
            log.warning("presence: Redis is unreachable (%s); seats connected to other server "
                        "processes may show as away until it is back", exc)
            self._warned = True

    # --- heartbeat and the dead ------------------------------------------------------------------
    async def start(self, announce: Announce) -> None:
        self._announce = announce
        await self.beat()
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name="triverse-presence")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self.beat()
                await self.bury()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._unreachable(exc)

    async def beat(self) -> None:
        """Say this process is alive."""
        await self._redis.zadd(self._processes_key, {self.origin: self.clock()})
        if self._warned:
            log.info("presence: Redis is reachable again")
            self._warned = False

    async def bury(self) -> list[str]:
        """Remove the counts of every process without a heartbeat for :data:`DEAD_AFTER`
        seconds, and announce the change on their matches; the processes buried (by this
        process: the one whose ``ZREM`` removed a process buries it)."""
        dead = await self._redis.zrangebyscore(self._processes_key, "-inf",
                                               self.clock() - DEAD_AFTER)
        buried = []
        for origin in dead:
            if origin == self.origin or not await self._redis.zrem(self._processes_key, origin):
                continue  # alive after all (a long pause), or buried by another process
            buried.append(origin)
            matches = await self._redis.smembers(self._matches_of(origin))
            for match_id in sorted(matches):
                await self._forget(origin, match_id)
                if self._announce is not None:
                    await self._announce(match_id)
            await self._redis.delete(self._matches_of(origin))
            log.info("presence: server process %s stopped answering; its %d matches' sockets "
                     "no longer count", origin[:12], len(matches))
        return buried

    async def _forget(self, origin: str, match_id: str) -> None:
        key = self._match_key(match_id)
        fields = [field for field in await self._redis.hkeys(key)
                  if field.rpartition(":")[0] == origin]
        if fields:
            await self._redis.hdel(key, *fields)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        try:
            for match_id in await self._redis.smembers(self._matches_of(self.origin)):
                await self._forget(self.origin, match_id)
            await self._redis.delete(self._matches_of(self.origin))
            await self._redis.zrem(self._processes_key, self.origin)
        except Exception as exc:
            log.warning("presence: could not remove this process's counts from Redis (%s); "
                        "they stop counting within %g s", exc, DEAD_AFTER)
        finally:
            await self._redis.aclose()
