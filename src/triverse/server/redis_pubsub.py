"""Live updates between server processes, through Redis ``PUBLISH``/``SUBSCRIBE``.

:class:`RedisPubSub` is the :class:`~triverse.server.pubsub.PubSub` of servers that run as
several processes on one database (issue 22): a move stored by one process reaches the
websockets of every process, each of which then reads the database again.

**Why pub/sub and not Redis streams.** A message carries no game content, only "match *m*
changed, look again"; the database is the truth. A socket that missed messages (its process
lost Redis for a while, or the socket itself reconnected) catches up from the database: the
websocket ``hello`` carries the move the client knows and the server sends what it lacks. A
replayable log of messages would add storage, trimming and consumer bookkeeping and would
still have to be checked against the database, so fire-and-forget pub/sub is enough, provided
that a subscriber learns when it may have missed something. It does: see "Reconnection".

**Connections.** One process holds one Redis connection in subscribed mode, whatever its
number of subscribers. A background reader (started on the first :meth:`RedisPubSub.subscribe`,
on the running event loop) reads it and puts each message into the queues of that channel's
local subscribers; each queue is bounded and drops its oldest message when a reader falls
behind, as :class:`~triverse.server.pubsub.InProcessPubSub`'s do. The Redis channel is
subscribed when its first local subscriber arrives and unsubscribed when its last one leaves.
:meth:`RedisPubSub.publish` uses other, pooled connections (:mod:`triverse.server.redis_pool`:
a publish waits for a free one rather than fail). Channels are named in Redis with a prefix
(``triverse:`` by default), so that several installations can share one Redis.

**Wire format.** A Redis message is the JSON object ``{"sender": ..., "message": ...}``, where
``message`` is the published object and ``sender`` names the publishing :class:`RedisPubSub`.
The publisher puts a message into its own process's queues at once, so its local sockets
keep updating while Redis is unreachable, and its reader skips the copy that comes back from
Redis.

**Readiness.** ``subscribe`` is synchronous, but Redis confirms a subscription later. A
subscription's ``ready()`` (awaited by ``async with``) returns once Redis confirmed it, so that
a subscriber that reads the database after ``ready()`` misses no later change. While Redis is
unreachable ``ready()`` returns at once: the subscriber will get a ``resync`` (below) anyway.

**Reconnection.** When the subscribed connection drops (Redis restarted, the network failed,
or nothing came for twice :data:`HEALTH_INTERVAL` although the reader sends ``PING`` when
idle), the reader
logs one warning for the outage and reconnects with a backoff (:data:`RECONNECT_FIRST` seconds,
doubling up to :data:`RECONNECT_MAX`). Once connected it subscribes again to every channel that
has local subscribers and, when Redis has confirmed them all, puts ``{"type": "resync"}`` into
every local subscriber's queue and logs an info line. Messages may have been lost meanwhile; a
``resync`` has no ``origin``, so a socket takes it for news from another process and reads the
database again. A :meth:`RedisPubSub.publish` that fails (Redis down) logs one warning per
outage and drops the Redis copy of the message without raising: the change is already in the
database, and the other processes' sockets catch up at their own ``resync`` (or, if only this
process's publishing failed, at the match's next message or their own next request, which
reads the database first).

Everything runs on one event loop. Examples need a Redis server, so there are none here; see
``tests/server/test_redis_pubsub.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import uuid
from dataclasses import dataclass, field
from typing import Any

import orjson
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import RedisError

from triverse.server.pubsub import Message, Subscription, _LocalSubscription
from triverse.server.redis_pool import TIMEOUT, redis_client

log = logging.getLogger(__name__)

RECONNECT_FIRST = 0.1
"""Seconds before the reader's first attempt to reconnect; each failure doubles the wait."""

RECONNECT_MAX = 2.0
"""The longest wait, in seconds, between two attempts to reconnect."""

HEALTH_INTERVAL = 15.0
"""Seconds of silence after which the reader sends ``PING``; a connection that stays silent
for twice as long counts as lost (a peer that vanished without closing it)."""


def _text(value: Any) -> str:
    """A reply item as text (replies are bytes unless the URL asks to decode them)."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


@dataclass(eq=False)
class _Channel:
    """The local subscribers of one channel, and whether their subscription is settled: set
    once Redis confirmed it, or while Redis is unreachable (a ``resync`` will follow)."""

    subscribers: set[_LocalSubscription] = field(default_factory=set)
    settled: asyncio.Event = field(default_factory=asyncio.Event)


class RedisPubSub:
    """A :class:`~triverse.server.pubsub.PubSub` shared by processes through Redis at ``url``.

    ``prefix`` goes before every channel name in Redis. Each subscriber's queue holds at most
    ``maxsize`` messages (the oldest is dropped beyond that). ``timeout`` bounds, in seconds,
    connecting to Redis and each command's wait for an answer, so that a Redis that hangs
    delays a move by at most about twice that (one retry on a fresh connection).
    """

    def __init__(self, url: str, *, prefix: str = "triverse:", maxsize: int = 64,
                 timeout: float = TIMEOUT) -> None:
        self._prefix = prefix
        self._maxsize = maxsize
        self._timeout = timeout
        self._sender = uuid.uuid4().hex
        # One retry, on a new connection: a pooled connection left over from before a Redis
        # restart fails once, then the command goes through.
        self._client = redis_client(url, timeout=timeout, retry=True)
        self._channels: dict[str, _Channel] = {}
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()  # the set of wanted channels changed
        # The state of the current subscribed connection: channels whose last command was
        # SUBSCRIBE, and how many of each channel's (un)subscribe replies are yet to come.
        self._connected = False
        self._requested: set[str] = set()
        self._inflight: dict[str, int] = {}
        self._down = False  # the last attempt failed: subscriptions are settled at once
        self._resync_pending = False
        self._outage_logged = False
        self._backoff = RECONNECT_FIRST
        self._publish_failing = False
        self._closed = False

    # --- the PubSub protocol -------------------------------------------------------------------
    async def publish(self, channel: str, message: Message) -> None:
        """Put ``message`` into this process's subscribers' queues and publish it to the other
        processes; when Redis cannot be reached, log that (once per outage) and go on."""
        if self._closed:
            return
        payload = orjson.dumps({"sender": self._sender, "message": message})
        self._deliver(channel, message)
        try:
            await self._client.publish(self._prefix + channel, payload)
        except (RedisError, OSError) as exc:
            if not self._publish_failing:
                self._publish_failing = True
                log.warning("cannot publish to Redis (%s): news goes to this process's "
                            "sockets only until Redis answers again; the others read the "
                            "database when their own connection is back", exc)
            return
        if self._publish_failing:
            self._publish_failing = False
            log.info("publishing to Redis again")

    def subscribe(self, channel: str) -> Subscription:
        """Start receiving ``channel``'s messages; await the subscription's ``ready()`` (or
        enter it with ``async with``) to be sure that Redis delivers the next ones.

        Must be called with the event loop running; raises :class:`RuntimeError` after
        :meth:`close`."""
        if self._closed:
            raise RuntimeError("this RedisPubSub is closed: it takes no new subscribers")
        if self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(
                self._run(), name="RedisPubSub reader")
        state = self._channels.get(channel)
        if state is None:
            state = self._channels[channel] = _Channel()
            if self._down or self._confirmed(channel):
                state.settled.set()
            self._changed.set()
        subscription = _LocalSubscription(self, channel, self._maxsize)
        state.subscribers.add(subscription)
        return subscription

    async def close(self) -> None:
        """Stop the reader and close every connection; subscribers receive nothing more and
        their ``ready()`` returns at once."""
        self._closed = True
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.cancel()
            await asyncio.wait((reader,))
        for state in self._channels.values():
            state.settled.set()
        self._channels.clear()
        await self._client.aclose()

    # --- beyond the protocol -------------------------------------------------------------------
    async def ping(self) -> None:
        """Check that Redis answers (raises :class:`redis.exceptions.RedisError` otherwise)."""
        await self._client.ping()

    def subscribers(self, channel: str) -> int:
        """How many subscribers ``channel`` has in this process (for tests and diagnostics)."""
        state = self._channels.get(channel)
        return 0 if state is None else len(state.subscribers)

    # --- the subscriptions' hub ----------------------------------------------------------------
    async def _ready(self, subscription: _LocalSubscription) -> None:
        state = self._channels.get(subscription.channel)
        if state is not None and subscription in state.subscribers:
            await state.settled.wait()

    def _remove(self, subscription: _LocalSubscription) -> None:
        state = self._channels.get(subscription.channel)
        if state is None or subscription not in state.subscribers:
            return
        state.subscribers.discard(subscription)
        if not state.subscribers:
            del self._channels[subscription.channel]
            state.settled.set()  # nobody waits for a channel that is gone
            self._changed.set()
            self._maybe_resync()

    def _deliver(self, channel: str, message: Message) -> None:
        state = self._channels.get(channel)
        if state is not None:
            for subscription in tuple(state.subscribers):
                subscription._put(message)

    def _confirmed(self, channel: str) -> bool:
        """Whether Redis confirmed the current connection's subscription to ``channel``."""
        return self._connected and channel in self._requested and channel not in self._inflight

    # --- the reader ----------------------------------------------------------------------------
    async def _run(self) -> None:
        """Hold the subscribed connection, reconnecting after every failure, until cancelled."""
        while True:
            # The reader's own connection, with the publishing pool's settings but no socket
            # timeout: redis-py would then wrap each write in asyncio.wait_for, which on Python
            # 3.11 can swallow the cancellation sent by close(). Connecting and reading have
            # timeouts of their own here.
            pool = self._client.connection_pool
            connection = pool.connection_class(**{**pool.connection_kwargs,
                                                  "socket_timeout": None})
            failure: Exception = ConnectionError("the Redis pub/sub connection ended")
            try:
                async with asyncio.timeout(self._timeout):
                    await connection.connect()  # type: ignore[no-untyped-call]
                self._connected, self._down = True, False
                for state in self._channels.values():
                    state.settled.clear()  # until Redis confirms it on this connection
                self._changed.set()
                await self._serve(connection)
            except Exception as exc:  # any failure: the reader must live on
                failure = exc
            finally:
                self._connected = False
                self._requested.clear()
                self._inflight.clear()
                await connection.disconnect(nowait=True)
            if not self._outage_logged:
                self._outage_logged = True
                log.warning("lost the Redis pub/sub connection (%s: %s): reconnecting; "
                            "subscribers will read the database again once it is back",
                            type(failure).__name__, failure)
            self._down = self._resync_pending = True
            for state in self._channels.values():
                state.settled.set()
            await asyncio.sleep(self._backoff)
            self._backoff = min(2 * self._backoff, RECONNECT_MAX)

    async def _serve(self, connection: AbstractConnection) -> None:
        """Send (un)subscriptions and read replies on ``connection`` until either fails."""
        self._maybe_resync()  # when there is nothing to subscribe again
        tasks = (asyncio.create_task(self._write_loop(connection)),
                 asyncio.create_task(self._read_loop(connection)))
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks)
            # Both are retrieved: one may fail while the other's failure is being handled.
            failures = [task.exception() for task in tasks if not task.cancelled()]
        raise next((exc for exc in failures if exc is not None),
                   ConnectionError("the Redis pub/sub connection ended"))

    async def _write_loop(self, connection: AbstractConnection) -> None:
        """Bring Redis's subscriptions in line with the local subscribers whenever they
        change, and ``PING`` after :data:`HEALTH_INTERVAL` seconds without a command."""
        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            wanted = set(self._channels)
            add = sorted(wanted - self._requested)
            drop = sorted(self._requested - wanted)
            if add or drop:
                self._requested = wanted
                for channel in add + drop:  # counted before sending: replies may come at once
                    self._inflight[channel] = self._inflight.get(channel, 0) + 1
                if add:
                    await connection.send_command(
                        "SUBSCRIBE", *(self._prefix + c for c in add), check_health=False)
                if drop:
                    await connection.send_command(
                        "UNSUBSCRIBE", *(self._prefix + c for c in drop), check_health=False)
                last = loop.time()
                continue
            self._changed.clear()
            wait = last + HEALTH_INTERVAL - loop.time()
            if wait <= 0:
                await connection.send_command("PING", check_health=False)
                last = loop.time()
                continue
            # Not asyncio.wait_for: on Python 3.11 it can swallow a cancellation that comes
            # just as the event is set, and close() would wait for this task forever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._changed.wait()

    async def _read_loop(self, connection: AbstractConnection) -> None:
        while True:
            # The timeout is ours: redis-py's own (read_response's timeout) answers None on
            # silence and keeps the connection, and silence is what must end it here.
            silence = 2 * HEALTH_INTERVAL
            try:
                async with asyncio.timeout(silence):
                    reply = await connection.read_response(timeout=math.inf, push_request=True)
            except TimeoutError:
                raise ConnectionError(f"Redis sent nothing for {silence:g} s, not even the "
                                      "answer to PING") from None
            if not isinstance(reply, list) or len(reply) < 3:
                continue  # a PING's answer
            kind, name = _text(reply[0]), _text(reply[1])
            if not name.startswith(self._prefix):
                continue
            channel = name[len(self._prefix):]
            if kind == "message":
                self._receive(channel, reply[2])
            elif kind in ("subscribe", "unsubscribe"):
                left = self._inflight.get(channel, 0) - 1
                if left > 0:
                    self._inflight[channel] = left
                else:
                    self._inflight.pop(channel, None)
                state = self._channels.get(channel)
                if state is not None and self._confirmed(channel):
                    state.settled.set()
                self._maybe_resync()

    def _receive(self, channel: str, data: Any) -> None:
        if channel not in self._channels:
            return  # its last subscriber left while the UNSUBSCRIBE was on its way
        try:
            envelope = orjson.loads(data)
        except orjson.JSONDecodeError:
            envelope = None
        if not (isinstance(envelope, dict) and isinstance(envelope.get("message"), dict)):
            log.warning("ignored a message on Redis channel %s%s that is not "
                        '{"sender": ..., "message": {...}}', self._prefix, channel)
            return
        if envelope.get("sender") != self._sender:  # this process's own went out at once
            self._deliver(channel, envelope["message"])

    def _maybe_resync(self) -> None:
        """After a failure, once every channel is subscribed again: tell every subscriber to
        read the database again (messages may have been lost meanwhile)."""
        if not (self._resync_pending and self._connected):
            return
        if not all(self._confirmed(channel) for channel in self._channels):
            return
        self._resync_pending = False
        self._backoff = RECONNECT_FIRST
        told = 0
        for state in self._channels.values():
            for subscription in tuple(state.subscribers):
                subscription._put({"type": "resync"})
                told += 1
        if self._outage_logged:
            self._outage_logged = False
            log.info("the Redis pub/sub connection is back: subscribed again to %d "
                     "channel(s), told %d subscriber(s) to read the database again",
                     len(self._channels), told)
