"""The turn-deadline scheduler: one asyncio task for every timed match of the process.

Deadlines live in the database (``matches.deadline``, for the turn at ``matches.move_count``);
the scheduler only knows when to look. It keeps, per match, the latest ``(move, deadline)`` it
has heard of, and a heap of them by deadline. Its loop:

1. every ``poll`` seconds (and first at start-up) it re-reads the pending deadlines from the
   database, which restores them after a restart and picks up those another process set;
2. it fires every entry whose deadline has passed by the clock (one after another), by calling
   ``fire(match_id, move)``: the service then checks, under the match's lock and against the
   database, that the turn is still move ``move`` and due, and only then records the time-out;
3. it sleeps until the earliest deadline or the next poll, whichever comes first; :meth:`set`
   wakes it when an earlier deadline arrives, and a :class:`~triverse.server.clock.JumpingClock`
   when the time jumps.

Nothing here sleeps per match, so a deadline a day away costs one heap entry, and a restart
loses nothing. The heap is cleaned lazily: an entry that no longer matches its match's latest
one is dropped when it comes up.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime

from triverse.server.clock import Clock, JumpingClock

log = logging.getLogger(__name__)

Pending = tuple[str, int, datetime]
"""A pending deadline: the match, the move number of the turn it is for, and when."""


class DeadlineScheduler:
    """Fires ``fire(match_id, move)`` when a turn's deadline passes (see the module)."""

    def __init__(
        self,
        clock: Clock,
        load: Callable[[], Awaitable[Iterable[Pending]]],
        fire: Callable[[str, int], Awaitable[object]],
        poll: float = 60.0,
    ) -> None:
        self.clock = clock
        self.poll = poll
        self._load = load
        self._fire = fire
        self._current: dict[str, tuple[int, datetime]] = {}
        self._heap: list[tuple[datetime, str, int]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None

    # --- life cycle ------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the loop (its first pass restores the deadlines stored in the database)."""
        if self._task is not None:
            return
        self._loop = asyncio.get_running_loop()
        if isinstance(self.clock, JumpingClock):
            self._unsubscribe = self.clock.subscribe(self._wake_threadsafe)
        self._task = self._loop.create_task(self._run(), name="triverse-deadlines")

    async def close(self) -> None:
        """Stop the loop."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # --- what is pending -------------------------------------------------------------------------
    def set(self, match_id: str, move: int, deadline: datetime | None) -> None:
        """The turn at ``move`` of ``match_id`` ends at ``deadline`` (``None``: no clock runs).

        News about an earlier move than the one already known is ignored (a slow database read
        racing a move), so that the newest turn always wins.
        """
        known = self._current.get(match_id)
        if known is not None and known[0] > move:
            return
        if deadline is None:
            self._current.pop(match_id, None)
            return
        if known == (move, deadline):
            return
        self._current[match_id] = (move, deadline)
        heapq.heappush(self._heap, (deadline, match_id, move))
        if self._heap[0] == (deadline, match_id, move):
            self._wake.set()

    def pending(self) -> dict[str, tuple[int, datetime]]:
        """A copy of the latest ``(move, deadline)`` known per match."""
        return dict(self._current)

    def wake(self) -> None:
        """Look again now (from the event loop's thread)."""
        self._wake.set()

    def _wake_threadsafe(self) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self._wake.set)

    # --- the loop --------------------------------------------------------------------------------
    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_reload = loop.time()
        while True:
            if loop.time() >= next_reload:
                await self._reload()
                next_reload = loop.time() + self.poll
            self._wake.clear()
            await self._fire_due()
            delay = next_reload - loop.time()
            if self._heap:
                delay = min(delay, (self._heap[0][0] - self.clock.now()).total_seconds())
            if delay > 0 and not self._wake.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), delay)

    async def _reload(self) -> None:
        try:
            rows = list(await self._load())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cannot read the pending turn deadlines; trying again in %g s",
                          self.poll)
            return
        for match_id, move, deadline in rows:
            self.set(match_id, move, deadline)
        if len(self._heap) > 2 * len(self._current) + 100:  # mostly stale entries: rebuild
            self._heap = [(deadline, match_id, move)
                          for match_id, (move, deadline) in self._current.items()]
            heapq.heapify(self._heap)

    async def _fire_due(self) -> None:
        now = self.clock.now()
        due: list[tuple[str, int]] = []
        while self._heap and self._heap[0][0] <= now:
            deadline, match_id, move = heapq.heappop(self._heap)
            if self._current.get(match_id) == (move, deadline):
                del self._current[match_id]
                due.append((match_id, move))
        for match_id, move in due:
            try:
                await self._fire(match_id, move)
            except asyncio.CancelledError:
                raise
            except Exception:  # the next poll restores it if it is still pending
                log.exception("match %s: the time-out of move %d failed", match_id, move)
