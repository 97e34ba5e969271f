"""What one client may ask of the server, and how much work the server takes on.

- :class:`RateLimits`: requests per client address and kind (creating matches, actions,
  previews, hints, reviews, wrong tokens), counted by the ``limits`` library in a moving
  window, in a storage named by a URI (``memory://`` in this process, ``redis://...`` shared);
- :class:`ComputerQuota`: unfinished matches without a human seat per client address, and the
  matches with a computer to move on the whole server, checked when a match is created;
- :class:`SocketQuota`: websockets open at once per match and per client address, and on
  the lobby.

Every refusal is a :class:`~triverse.server.errors.ServerError` with ``retry_after`` where
waiting helps. ``docs/server.md`` ("Security", "Limits") has the defaults and the figures.

>>> quota = SocketQuota(sockets_per_match=2, sockets_per_client=1)
>>> quota.open("m", "1.2.3.4"); quota.open("m", "5.6.7.8")
>>> quota.open("m", "9.9.9.9")
Traceback (most recent call last):
...
triverse.server.errors.ServerError: match 'm' has 2 websockets open, the most it takes
>>> quota.close("m", "1.2.3.4"); quota.open("m", "9.9.9.9")
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence

from limits import RateLimitItem, parse_many
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import HTTPConnection

from triverse.server.config import Settings
from triverse.server.errors import ServerError

RATE_KINDS = {
    "create": "new matches",
    "action": "actions",
    "preview": "score previews",
    "hint": "hints",
    "review": "reviews",
    "token_failure": "wrong seat tokens",
    "login": "log-in and sign-up attempts",
    "login_name": "failed log-ins",
    "join": "seats taken or games withdrawn in the lobby",
    "lobby": "lobby lists",
    "players": "profile and leaderboard requests",
    "account": "claims and lists of an account's games",
    "contest": "contest changes (new contests, sign-ups, host actions)",
    "contest_read": "contest reads",
}
"""The kinds of request counted per client address (``Settings.rate_<kind>``), and how a
refusal names them."""

REDIS_SCHEMES = ("redis", "rediss", "redis+unix")
"""Storage URIs served by the ``redis`` package (the ``limits`` library's other client for
them, ``coredis``, is not used)."""
BUSY_RETRY = 10
"""Seconds a ``server_busy`` refusal asks a client to wait."""


def client_address(connection: HTTPConnection) -> str:
    """The address a request or websocket comes from (behind a proxy, the proxy's, unless the
    ASGI server is told to trust its forwarded headers: uvicorn's ``--proxy-headers``)."""
    client = connection.client
    return client.host if client is not None and client.host else "unknown"


class RateLimits:
    """Requests per client address and kind, in a moving window (``Settings.rate_*``)."""

    def __init__(self, settings: Settings) -> None:
        uri = settings.rate_storage.removeprefix("async+")
        scheme = uri.partition("://")[0]
        options = {"implementation": "redispy"} if scheme in REDIS_SCHEMES else {}
        storage = storage_from_string("async+" + uri, **options)
        assert isinstance(storage, Storage)
        self.storage = storage
        self.limiter = MovingWindowRateLimiter(storage)
        self.items: dict[str, list[RateLimitItem]] = {
            kind: parse_many(getattr(settings, f"rate_{kind}")) for kind in RATE_KINDS}

    async def hit(self, kind: str, client: str) -> None:
        """Count one request of ``kind`` from ``client``, or refuse it (``rate_limited``,
        counting nothing) if one of its limits is reached."""
        await self.check(kind, client)
        await self.count(kind, client)

    async def count(self, kind: str, client: str) -> None:
        """Count one request of ``kind`` from ``client`` (a wrong token, once refused)."""
        for item in self.items[kind]:
            await self.limiter.hit(item, kind, client)

    async def check(self, kind: str, client: str, whose: str = "from your address") -> None:
        """Refuse (``rate_limited``) if ``client`` (an address, or another key: an account)
        has reached a limit of ``kind``; count nothing. ``whose`` says in the refusal whose
        requests were counted."""
        for item in self.items[kind]:
            if not await self.limiter.test(item, kind, client):
                stats = await self.limiter.get_window_stats(item, kind, client)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                raise ServerError("rate_limited", f"too many {RATE_KINDS[kind]} {whose}: at "
                                  f"most {item}; try again in {wait} s", retry_after=wait)

    async def reset(self) -> None:
        """Forget every count (tests)."""
        await self.storage.reset()


class ComputerQuota:
    """The computer players' share of the server, checked when a match is created.

    ``running(match_id)`` says whether a match still has a computer to move, and
    ``queued()`` how many matches have one (:class:`~triverse.server.computers.ComputerPlayers`).
    A match with a computer seat is refused with ``server_busy`` (503) while ``computer_queue``
    matches or more wait for a computer; one without a human seat is refused with
    ``too_many_computer_matches`` (429) while its client address has
    ``computer_matches_per_client`` such matches unfinished. Matches resumed at start-up count
    towards the queue but towards no client.
    """

    def __init__(self, settings: Settings, running: Callable[[str], bool],
                 queued: Callable[[], int]) -> None:
        self.per_client = settings.computer_matches_per_client
        self.queue = settings.computer_queue
        self.running = running
        self.queued = queued
        self._by_client: dict[str, set[str]] = {}

    def admit(self, client: str, kinds: Sequence[str]) -> None:
        """Refuse a new match with these seat kinds from ``client`` if a cap is reached."""
        if all(kind == "human" for kind in kinds):
            return
        waiting = self.queued()
        if waiting >= self.queue:
            raise ServerError("server_busy", f"the computer players are busy with {waiting} "
                              "matches; try again later", retry_after=BUSY_RETRY)
        if "human" not in kinds:
            mine = self._mine(client)
            if len(mine) >= self.per_client:
                raise ServerError("too_many_computer_matches", f"your address has {len(mine)} "
                                  "matches without a human seat going on, the most it may have "
                                  "at once; wait for one to end", retry_after=BUSY_RETRY)

    def created(self, client: str, match_id: str, kinds: Sequence[str]) -> None:
        """Count a new match of ``client`` if it has no human seat."""
        if "human" not in kinds:
            self._mine(client).add(match_id)

    def _mine(self, client: str) -> set[str]:
        """The client's matches without a human seat that are still going on."""
        mine = {m for m in self._by_client.get(client, ()) if self.running(m)}
        self._by_client[client] = mine
        return mine


class SocketQuota:
    """Websockets open at once, per match and per client address (in this process), and
    lobby websockets (``/ws/lobby``): at most ``lobby_sockets``, counted per client address
    with its match sockets."""

    def __init__(self, sockets_per_match: int, sockets_per_client: int,
                 lobby_sockets: int = 1000) -> None:
        self.per_match = sockets_per_match
        self.per_client = sockets_per_client
        self.lobby_cap = lobby_sockets
        self.lobby = 0
        self.matches: Counter[str] = Counter()
        self.clients: Counter[str] = Counter()

    def open_lobby(self, client: str) -> None:
        """Count a new lobby socket, or refuse it (``too_many_sockets``)."""
        if self.lobby >= self.lobby_cap:
            raise ServerError("too_many_sockets", f"the lobby has {self.lobby} websockets "
                              "open, the most it takes")
        if self.clients[client] >= self.per_client:
            raise ServerError("too_many_sockets", f"your address has {self.clients[client]} "
                              "websockets open, the most it may have")
        self.lobby += 1
        self.clients[client] += 1

    def close_lobby(self, client: str) -> None:
        """Forget a socket counted by :meth:`open_lobby`."""
        self.lobby -= 1
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]

    def open(self, match_id: str, client: str) -> None:
        """Count a new socket, or refuse it (``too_many_sockets``)."""
        if self.matches[match_id] >= self.per_match:
            raise ServerError("too_many_sockets", f"match {match_id!r} has "
                              f"{self.matches[match_id]} websockets open, the most it takes")
        if self.clients[client] >= self.per_client:
            raise ServerError("too_many_sockets", f"your address has {self.clients[client]} "
                              "websockets open, the most it may have")
        self.matches[match_id] += 1
        self.clients[client] += 1

    def close(self, match_id: str, client: str) -> None:
        """Forget a socket counted by :meth:`open`."""
        for counter, key in ((self.matches, match_id), (self.clients, client)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]


class Quotas:
    """The server's limits together (see the module)."""

    def __init__(self, settings: Settings, running: Callable[[str], bool],
                 queued: Callable[[], int]) -> None:
        self.rates = RateLimits(settings)
        self.computers = ComputerQuota(settings, running, queued)
        self.sockets = SocketQuota(settings.sockets_per_match, settings.sockets_per_client,
                                   settings.lobby_sockets)
