"""Live updates between the parts of the server, and later between server processes.

Everything that changes a match (a move, a pause, a player connecting) publishes a small JSON
message on the match's channel; each websocket connection subscribes to that channel and, on a
message, renders its own seat's view afresh from the state. Messages never carry game content,
so a shared broker would see nothing secret.

:class:`InProcessPubSub` serves one process. A second process would plug in another
implementation of :class:`PubSub` (Redis ``PUBLISH``/``SUBSCRIBE``, PostgreSQL
``LISTEN``/``NOTIFY``); see ``docs/server.md``. :class:`MatchNews` is what the rest of the
server publishes through: one kind of message, signed with the process's ``origin``.

>>> import asyncio
>>> async def demo() -> list[dict[str, object]]:
...     hub = InProcessPubSub()
...     async with hub.subscribe("match:x") as sub:
...         await hub.publish("match:x", {"type": "changed", "move": 3})
...         return [await sub.get()]
>>> asyncio.run(demo())
[{'type': 'changed', 'move': 3}]
"""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any, Protocol, Self

Message = dict[str, Any]
"""A JSON object (only JSON types, so that any broker can carry it)."""


def match_channel(match_id: str) -> str:
    """The channel of one match's updates."""
    return f"match:{match_id}"


class Subscription(Protocol):
    """Messages of one channel, from subscription until :meth:`unsubscribe`.

    Iterate with ``async for``, or await :meth:`get`. Use as an async context manager to be
    sure of unsubscribing (entering it also awaits :meth:`ready`).
    """

    channel: str

    async def ready(self) -> None:
        """Wait until messages published from now on, by any process, reach this subscription.

        A subscriber that reads the state after ``ready`` and then follows the messages misses
        nothing. In one process that holds at once; a broker first confirms the subscription.
        """
        ...

    async def get(self) -> Message:
        """The next message (waits for one)."""
        ...

    def __aiter__(self) -> AsyncIterator[Message]: ...

    async def unsubscribe(self) -> None:
        """Stop receiving; further :meth:`get` calls never return."""
        ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class PubSub(Protocol):
    """Publish JSON messages on named channels; subscribe to a channel's messages."""

    async def publish(self, channel: str, message: Message) -> None:
        """Send ``message`` to every current subscriber of ``channel`` (in every process)."""
        ...

    def subscribe(self, channel: str) -> Subscription:
        """Start receiving the messages of ``channel`` published from now on."""
        ...

    async def close(self) -> None:
        """Release connections; subscribers receive nothing more."""
        ...


class _Hub(Protocol):
    """What a :class:`_LocalSubscription` asks of the hub that fills its queue."""

    def _remove(self, subscription: _LocalSubscription) -> None: ...

    async def _ready(self, subscription: _LocalSubscription) -> None: ...


class _LocalSubscription:
    """A queue of one subscriber, in this process, filled by its hub (:class:`InProcessPubSub`,
    or a broker's reader such as ``RedisPubSub``'s)."""

    def __init__(self, hub: _Hub, channel: str, maxsize: int) -> None:
        self.channel = channel
        self._hub = hub
        self._queue: asyncio.Queue[Message] = asyncio.Queue(maxsize)

    def _put(self, message: Message) -> None:
        # Updates say "something changed": when a slow reader falls behind, the oldest can go.
        if self._queue.full():
            self._queue.get_nowait()
        self._queue.put_nowait(message)

    async def ready(self) -> None:
        await self._hub._ready(self)

    async def get(self) -> Message:
        return await self._queue.get()

    def __aiter__(self) -> AsyncIterator[Message]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Message]:
        while True:
            yield await self._queue.get()

    async def unsubscribe(self) -> None:
        self._hub._remove(self)

    async def __aenter__(self) -> Self:
        try:
            await self.ready()
        except BaseException:  # cancelled while waiting: __aexit__ will not run
            await self.unsubscribe()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.unsubscribe()


class InProcessPubSub:
    """The default :class:`PubSub`: channels are sets of queues in this process's memory.

    Must be used from one event loop. Each subscriber's queue holds at most ``maxsize``
    messages; beyond that the oldest is dropped.
    """

    def __init__(self, maxsize: int = 64) -> None:
        self._maxsize = maxsize
        self._channels: dict[str, set[_LocalSubscription]] = {}

    async def publish(self, channel: str, message: Message) -> None:
        for subscription in tuple(self._channels.get(channel, ())):
            subscription._put(message)

    def subscribe(self, channel: str) -> Subscription:
        subscription = _LocalSubscription(self, channel, self._maxsize)
        self._channels.setdefault(channel, set()).add(subscription)
        return subscription

    def subscribers(self, channel: str) -> int:
        """How many subscribers ``channel`` has (for tests and diagnostics)."""
        return len(self._channels.get(channel, ()))

    async def _ready(self, subscription: _LocalSubscription) -> None:
        """A subscription here receives every later message from the start."""

    def _remove(self, subscription: _LocalSubscription) -> None:
        subs = self._channels.get(subscription.channel)
        if subs is not None:
            subs.discard(subscription)
            if not subs:
                del self._channels[subscription.channel]

    async def close(self) -> None:
        self._channels.clear()


class MatchNews:
    """Announces that a match changed, on its channel, signed with this process's ``origin``.

    Every message is ``{"type": "changed", "match", "reason", "move", "origin", "seq"}``;
    ``reason`` is ``move``, ``timeout``, ``pause``, ``presence``, ``clock``, ``seats`` (a seat
    was taken, claimed or its account deleted: the seats are read again), ``keys`` (device
    keys of the match ended with their session: the sockets opened with one check it again;
    nothing stored of the match changed) or ``withdrawn`` (an open game deleted: its sockets
    close); ``seq`` numbers
    the process's messages, so that a process that hears the same message on several sockets
    catches up once (:func:`news_key`).
    """

    def __init__(self, pubsub: PubSub, origin: str | None = None) -> None:
        self.pubsub = pubsub
        self.origin = uuid.uuid4().hex if origin is None else origin
        """Names this process in the messages, to tell its own from other processes'."""
        self._seq = itertools.count()

    async def changed(self, match_id: str, reason: str, move: int) -> None:
        """Tell the match's subscribers that it changed."""
        message: Message = {"type": "changed", "match": match_id, "reason": reason,
                            "move": move, "origin": self.origin, "seq": next(self._seq)}
        await self.pubsub.publish(match_channel(match_id), message)

    @staticmethod
    def news_key(message: Message) -> tuple[str, int] | None:
        """What tells one message from another (its origin and number); ``None`` for a message
        without them (a ``resync`` after the broker's connection came back).

        >>> MatchNews.news_key({"type": "changed", "origin": "a1", "seq": 4})
        ('a1', 4)
        >>> MatchNews.news_key({"type": "resync"}) is None
        True
        """
        origin, seq = message.get("origin"), message.get("seq")
        if isinstance(origin, str) and isinstance(seq, int):
            return origin, seq
        return None

    def from_elsewhere(self, message: Message) -> bool:
        """Whether ``message`` came from another process (whose changes are in the database,
        not yet in this process's memory)."""
        return message.get("origin") != self.origin
