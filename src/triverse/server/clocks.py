"""Turn clocks: when each turn of a timed match ends, and what its time-out is.

A match is timed when its game's options hold a positive ``time_limit`` and its state has
``time_out()`` (:func:`~triverse.server.live.turn_time_limit`). :class:`TurnClocks` computes a
turn's deadline (:meth:`TurnClocks.deadline_for`), recognises the time-out's notation so that
no player may send it (:meth:`TurnClocks.is_time_out`), owns the process's
:class:`~triverse.server.deadlines.DeadlineScheduler` (fed from the database and told of every
deadline read or stored), and at start-up gives a clock to the timed matches stored without
one (:meth:`TurnClocks.start_missing`). Recording a time-out is play, not clock-keeping: the
scheduler calls the ``fire`` function it is given.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from triverse.core.game import State
from triverse.server.bots import GameSpec
from triverse.server.clock import Clock
from triverse.server.deadlines import DeadlineScheduler
from triverse.server.live import LiveMatch, time_out_of, turn_time_limit
from triverse.server.matches import LiveMatches
from triverse.server.pubsub import MatchNews
from triverse.server.repository import MatchRepository

log = logging.getLogger(__name__)


class TurnClocks:
    """The deadlines of timed matches (see the module).

    ``fire(match_id, move)`` records the time-out of the turn at ``move`` if it is still due.
    """

    def __init__(
        self, clock: Clock, repository: MatchRepository,
        fire: Callable[[str, int], Awaitable[object]], poll: float = 60.0,
    ) -> None:
        self.clock = clock
        self.repository = repository
        self.scheduler = DeadlineScheduler(clock, repository.pending_deadlines, fire, poll)
        """Fires the time-outs of every timed match (see :mod:`triverse.server.deadlines`)."""
        self._timeout_notations: dict[GameSpec, str] = {}

    def now(self) -> datetime:
        """The clock's time."""
        return self.clock.now()

    def start(self) -> None:
        """Start the scheduler (its first pass restores the deadlines in the database)."""
        self.scheduler.start()

    async def close(self) -> None:
        """Stop the scheduler."""
        await self.scheduler.close()

    def seen(self, match_id: str, move: int, deadline: datetime | None) -> None:
        """The turn at ``move`` of ``match_id`` ends at ``deadline`` (``None``: no clock)."""
        self.scheduler.set(match_id, move, deadline)

    @staticmethod
    def deadline_for(live: LiveMatch, state: State[Any], now: datetime) -> datetime | None:
        """When a turn starting ``now`` in ``state`` times out: ``None`` in an untimed game,
        once the game is over, while a computer is to move (computers are never timed:
        they move in seconds, and a paused computer must wait for the resume), and while
        seats of an open game are free (its clock starts when it does)."""
        if live.free_seats:
            return None
        return TurnClocks.start_deadline(live, state, now)

    @staticmethod
    def start_deadline(live: LiveMatch, state: State[Any], now: datetime) -> datetime | None:
        """:meth:`deadline_for`, as if every seat were taken: the first deadline of an open
        game that starts ``now``."""
        limit = turn_time_limit(live.game, state)
        seat = None if state.is_terminal() else state.current_player
        if limit is None or seat is None or live.seats[seat].is_bot:
            return None
        return now + timedelta(seconds=limit)

    def is_time_out(self, live: LiveMatch, action: Any) -> bool:
        """Whether ``action`` is what ``state.time_out()`` records in this game (timed games
        only: an untimed game's engine refuses its time-out notation by itself)."""
        if live.time_limit is None or live.finished:
            return False
        notation = self._timeout_notations.get(live.spec)
        if notation is None:
            probe = live.state.clone()
            time_out = time_out_of(probe)
            assert time_out is not None
            time_out()
            notation = str(probe.history[-1])
            self._timeout_notations[live.spec] = notation
        return str(action) == notation

    async def start_missing(self, matches: LiveMatches, news: MatchNews) -> int:
        """Give a deadline to every timed match whose human turn has none (a match created
        before the server kept deadlines): its clock starts now. Returns how many started."""
        started = 0
        try:
            ids = await self.repository.clockless()
        except Exception:
            log.exception("cannot look for timed matches without a deadline")
            return 0
        for match_id in ids:
            try:
                if await self._start_one(matches, news, match_id):
                    started += 1
            except Exception:
                log.exception("cannot start the clock of match %s", match_id)
        if started:
            log.info("started the turn clock of %d timed matches", started)
        return started

    async def _start_one(self, matches: LiveMatches, news: MatchNews, match_id: str) -> bool:
        live = await matches.get(match_id)
        async with matches.hold(live):
            number = live.state.move_number
            deadline = self.deadline_for(live, live.state, self.now())
            if live.deadline is not None or deadline is None:
                return False
            if not await self.repository.set_deadline(live.id, number, deadline):
                return False
            live.deadline = deadline
            self.seen(live.id, number, deadline)
        await news.changed(live.id, "clock", live.state.move_number)
        return True
