"""Redis clients of the server's parts (live updates, presence, advice): pooled connections,
where a command that finds every connection busy waits for one.

redis-py's asyncio client fails a command at once ("Too many connections") when its pool of
100 connections is in use, which a busy process reaches: 500 games moving at once publish 500
messages at once. A failed publish means a lost notice, and the other processes' sockets would
wait for the next one. A :class:`redis.asyncio.BlockingConnectionPool` makes the command wait
(up to ``timeout`` seconds) for a connection instead, and caps how many a process opens:
:data:`POOL_SIZE`, each command taking a fraction of a millisecond.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

POOL_SIZE = 32
"""The most connections one client of a process opens (a ``max_connections`` in the URL
overrides it)."""
TIMEOUT = 2.0
"""Seconds a command (connecting included) may take before it counts as failed, unless a
client is given another."""


def redis_client(url: str, *, timeout: float = TIMEOUT, decode: bool = False,
                 retry: bool = False) -> Redis:
    """A client of the Redis at ``url`` on a blocking pool; connecting, each command and the
    wait for a free connection are bounded by ``timeout`` seconds. ``decode``: answers as
    text; ``retry``: a command that fails on a connection is tried once more on a new one (a
    pooled connection left over from before a Redis restart fails once)."""
    options: dict[str, Any] = {"socket_connect_timeout": timeout, "socket_timeout": timeout,
                               "decode_responses": decode}
    if retry:
        options["retry"] = Retry(NoBackoff(), 1)
    pool = BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=timeout,
                                           **options)
    return Redis.from_pool(pool)
