"""Live matches: the database's matches replayed through their engines, cached in memory.

:class:`LiveMatches` finds a match (in the cache, or by loading and replaying it once however
many ask at the same time), and keeps a cached match in step with the database
(:meth:`LiveMatches.catch_up` applies the moves, pause flag and deadline another process
stored). Changing a match happens inside :meth:`LiveMatches.hold`: its lock, then a catch-up.

The cache itself is a :class:`MatchCache`, a small interface: :class:`LocalMatchCache` keeps
the matches of this process (least recently used out, never a busy one) and its locks are
``asyncio`` locks. A cache shared by several processes would implement the same five methods
(a lock could then be a database or Redis lock); nothing else changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import Any, Protocol

from triverse.core.errors import TriverseError
from triverse.core.game import State
from triverse.server.bots import GameSpec
from triverse.server.catalog import GameCatalog
from triverse.server.errors import ServerError, clip
from triverse.server.live import LiveMatch, LogEntry
from triverse.server.repository import Expected, MatchRepository, StoredMatch, StoredMove

log = logging.getLogger(__name__)


class MatchCache(Protocol):
    """Where replayed matches are kept between requests, and how one is locked."""

    def get(self, match_id: str) -> LiveMatch | None:
        """The cached match, if it is cached (and mark it recently used)."""
        ...

    def put(self, live: LiveMatch) -> None:
        """Keep ``live`` (and make room if the cache is full)."""
        ...

    def lock(self, live: LiveMatch) -> AbstractAsyncContextManager[Any]:
        """The lock that orders every change of ``live``."""
        ...

    def forget(self, match_id: str) -> None:
        """Drop the match (it no longer exists: an open game withdrawn)."""
        ...

    def __len__(self) -> int: ...


class LocalMatchCache:
    """The default :class:`MatchCache`: up to ``size`` matches in this process's memory.

    When full, the least recently used match leaves, unless it is busy: locked, with an open
    websocket, or ``keep(live)`` (the computer players' task runs). If every match is busy, the
    cache grows for a while instead.
    """

    def __init__(self, size: int, keep: Callable[[LiveMatch], bool] | None = None) -> None:
        self.size = size
        self.keep = keep
        self._matches: OrderedDict[str, LiveMatch] = OrderedDict()

    def get(self, match_id: str) -> LiveMatch | None:
        live = self._matches.get(match_id)
        if live is not None:
            self._matches.move_to_end(match_id)
        return live

    def put(self, live: LiveMatch) -> None:
        self._matches[live.id] = live
        self._matches.move_to_end(live.id)
        while len(self._matches) > self.size:
            for old_id, old in self._matches.items():
                if old is not live and not self._busy(old):
                    del self._matches[old_id]
                    break
            else:
                return

    def _busy(self, live: LiveMatch) -> bool:
        return (sum(live.connections.values()) > 0 or live.lock.locked()
                or (self.keep is not None and self.keep(live)))

    def lock(self, live: LiveMatch) -> AbstractAsyncContextManager[Any]:
        return live.lock

    def forget(self, match_id: str) -> None:
        self._matches.pop(match_id, None)

    def __len__(self) -> int:
        return len(self._matches)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._matches


DeadlineSeen = Callable[[str, int, datetime | None], None]
"""Told ``(match_id, move, deadline)`` whenever a match's current deadline is read."""


class LiveMatches:
    """Matches by id, replayed and cached (see the module)."""

    def __init__(
        self, repository: MatchRepository, catalog: GameCatalog, cache: MatchCache,
        deadline_seen: DeadlineSeen | None = None,
    ) -> None:
        self.repository = repository
        self.catalog = catalog
        self.cache = cache
        self.deadline_seen = deadline_seen
        self._loading: dict[str, asyncio.Task[LiveMatch]] = {}

    async def get(self, match_id: str, fresh: bool = False) -> LiveMatch:
        """The match, replayed from the database if it is not cached (``unknown_match`` if it
        does not exist). With ``fresh``, moves stored by another process are applied first;
        always while seats of an open game are free (another process may have given them
        away: a token they got must open them here too)."""
        live = self.cache.get(match_id)
        if live is not None:
            if fresh or live.free_seats:
                async with self.hold(live):
                    pass
            return live
        task = self._loading.get(match_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._load(match_id))
            self._loading[match_id] = task
            task.add_done_callback(lambda _t: self._loading.pop(match_id, None))
        return await asyncio.shield(task)

    def add(self, live: LiveMatch) -> None:
        """Cache a match just created."""
        self.cache.put(live)

    @asynccontextmanager
    async def hold(self, live: LiveMatch, at: int | None = None) -> AsyncIterator[LiveMatch]:
        """Lock ``live`` and bring it up to date with the database, for a change.

        With ``at``, a match cached at move ``at`` is not read from the database: a change
        then stores with the guard :meth:`expected` gives, which the database refuses if
        another process changed the match meanwhile (and the match is caught up then)."""
        async with self.cache.lock(live):
            if at is None or live.state.move_number != at:
                await self.catch_up(live)
            yield live

    @staticmethod
    def expected(live: LiveMatch) -> Expected:
        """What the database must still hold of ``live`` for a change made from memory."""
        return Expected(live.paused, live.deadline)

    async def refresh(
        self, match_id: str, news: tuple[str, int] | None = None, read: bool = True,
        seats: bool = False,
    ) -> LiveMatch | None:
        """Bring the cached match (if cached) up to date after another process's update, told
        by the message ``news`` (:meth:`MatchNews.news_key
        <triverse.server.pubsub.MatchNews.news_key>`); ``read=False``: the update changed
        nothing stored (presence); ``seats``: the seats changed too (taken, claimed, an
        account deleted), so they are read again. Returns the match if this call caught it
        up, ``None`` if it is not cached or was already caught up with ``news`` (another of its
        sockets heard the same message first)."""
        live = self.cache.get(match_id)
        if live is None:
            return None
        async with self.cache.lock(live):
            if news is not None and live.news_seen == news:
                return None
            if read:
                await self.catch_up(live, seats)
            live.news_seen = news
        return live

    async def catch_up(self, live: LiveMatch, seats: bool = False) -> None:
        """Apply moves (and the pause flag, and the deadline) stored by another process; with
        ``seats``, read the seats again too (always while seats of an open game are free:
        they are what changes then). Hold the lock. ``unknown_match`` if the match is gone
        (an open game withdrawn), which then leaves the cache."""
        status = await self.repository.status(live.id, live.state.move_number)
        if status is None:
            self.cache.forget(live.id)
            raise ServerError("unknown_match", f"there is no match {clip(live.id)} any more: "
                              "it was withdrawn")
        if seats or live.free_seats:
            live.seats = await self.repository.seats(live.id)
        live.paused = status.paused
        if status.moves:  # replay on a copy, so that views rendered meanwhile stay consistent
            state = live.state.clone()
            entries = await asyncio.to_thread(replay, live.id, state, status.moves)
            live.state = state
            live.log.extend(entries)
        live.deadline = status.deadline
        if self.deadline_seen is not None:
            self.deadline_seen(live.id, live.state.move_number, status.deadline)

    async def _load(self, match_id: str) -> LiveMatch:
        stored = await self.repository.load(match_id)
        if stored is None:
            raise ServerError("unknown_match", f"there is no match {clip(match_id)}")
        live = await asyncio.to_thread(self.build, stored)
        self.cache.put(live)
        return live

    def build(self, stored: StoredMatch) -> LiveMatch:
        """The match ``stored`` set up again and replayed."""
        entry = self.catalog.entry(stored.game)
        try:
            game = entry.cls()(stored.num_players, stored.options)
            state: State[Any] = game.new_initial_state(seed=stored.seed)
        except TriverseError as exc:
            log.error("match %s cannot be set up again: %s", stored.id, exc)
            raise ServerError("server_error", f"match {stored.id!r} cannot be loaded: its game "
                              "no longer accepts its options") from None
        assert entry.module is not None
        live = LiveMatch(
            id=stored.id, game_name=stored.game, title=entry.title, mode=stored.mode,
            seed=stored.seed, spec=GameSpec.of(entry.module, game), game=game, state=state,
            seats=stored.seats, created_at=stored.created_at, paused=stored.paused,
            deadline=stored.deadline, rated=stored.rated, pace=stored.pace, salt=stored.salt,
            commitment=stored.commitment,
        )
        live.log.extend(replay(live.id, state, stored.moves))
        return live


def replay(match_id: str, state: State[Any], moves: Sequence[StoredMove]) -> list[LogEntry]:
    """Apply stored moves to ``state`` (in place) and return their log entries."""
    entries = []
    for number, seat, action in moves:
        if number != state.move_number:
            raise ServerError("server_error", f"match {match_id!r}: move {number} is "
                              f"stored where move {state.move_number} was expected")
        try:
            events = state.apply_notation(action)
        except TriverseError as exc:
            log.error("match %s: stored move %d does not replay: %s", match_id, number, exc)
            raise ServerError("server_error", f"match {match_id!r}: stored move {number} "
                              "no longer replays") from None
        entries.append(LogEntry(number, seat, action, tuple(events)))
    return entries
