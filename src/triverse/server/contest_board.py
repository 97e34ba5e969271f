"""A contest's boards: the draw made into matches, and the removed entrants' seats
(:mod:`triverse.server.contests`).

:meth:`BoardMaker.draw` draws a closing contest's boards from its seed
(:mod:`triverse.server.contest_draw`) and creates each board's match through the
:class:`~triverse.server.play.Referee` (mode ``online``, or ``computer`` for a board with
fewer than two humans; never rated), with the seats in posting order. Each board is recorded
with its seats' tokens (the sha256 of each human entrant's secret) and accounts in one
transaction; a board already recorded (a draw taken up again after a stop) is kept. The
computers start once the contest runs.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from triverse.server.catalog import GameCatalog
from triverse.server.clocks import TurnClocks
from triverse.server.contest_draw import board_sizes, draw
from triverse.server.contest_store import ContestStore, SeatGiven
from triverse.server.errors import ServerError
from triverse.server.jobs import Jobs, give_up
from triverse.server.live import LiveMatch
from triverse.server.matches import LiveMatches
from triverse.server.play import Referee
from triverse.server.seats import SeatRequest

log = logging.getLogger(__name__)

REMOVED_LEVEL = "novice"
"""The computer that plays a removed entrant's seat in a game without a time-out rule."""


def board_mode(kinds: Sequence[str]) -> str:
    """The mode of a board's match: ``online`` with two humans or more, else ``computer``.

    >>> board_mode(["human", "novice", "human"]), board_mode(["human", "novice"])
    ('online', 'computer')
    """
    return "online" if sum(1 for kind in kinds if kind == "human") >= 2 else "computer"


def board_options(options: dict[str, Any], turn_seconds: int | None) -> dict[str, Any]:
    """A board's match options: the contest's, and ``time_limit`` from ``turn_seconds`` in a
    game with a time-out rule.

    >>> board_options({"variant": "seed"}, 3600)
    {'variant': 'seed', 'time_limit': 3600}
    """
    return {**options, **({} if turn_seconds is None else {"time_limit": turn_seconds})}


class BoardMaker:
    """Creates a contest's boards and passes its removed entrants' turns (see the module)."""

    def __init__(
        self, catalog: GameCatalog, store: ContestStore, referee: Referee,
        matches: LiveMatches, clocks: TurnClocks, jobs: Jobs,
        seats_changed: Callable[[Sequence[str]], Awaitable[None]],
        schedule: Callable[[LiveMatch], None],
    ) -> None:
        self.catalog = catalog
        self.store = store
        self.referee = referee
        self.matches = matches
        self.clocks = clocks
        self.jobs = jobs
        self.seats_changed = seats_changed
        """Reads a match's seats again, here and in every process."""
        self.schedule = schedule
        """Starts a match's computers if one is to move."""

    async def draw(self, contest_id: str) -> None:
        """Draw a ``closing`` contest's boards and start them (status ``running``), or cancel
        it for too few entrants (status ``cancelled``). Hold the contest's job."""
        data = await self.store.read(contest_id)
        if data is None or data.contest.status != "closing":
            return
        contest = data.contest
        cls = self.catalog.entry(contest.game).cls()
        by_number = {entry.entry: entry for entry in data.entries}
        sizes = board_sizes(len(by_number), contest.players_per_board, cls.min_players,
                            cls.max_players)
        if not sizes:
            reason = (f"only {len(by_number)} signed up; a board needs at least "
                      f"{cls.min_players} players")
            await self.store.set_status(contest_id, ("closing",), "cancelled",
                                        self.clocks.now(), cancel_reason=reason)
            log.info("contest %s cancelled: %s", contest_id, reason)
            return
        made = {board.board: board.match_id for board in data.boards}
        options = board_options(dict(contest.options), contest.turn_seconds)
        for number, members in enumerate(draw(contest.seed, list(by_number), sizes), 1):
            if number not in made:
                made[number] = await self._board(contest, number,
                                                 [by_number[n] for n in members], options)
        await self.store.set_status(contest_id, ("closing",), "running", self.clocks.now())
        log.info("contest %s: %d boards started", contest_id, len(made))
        for match_id in made.values():
            self.schedule(await self.matches.get(match_id))

    async def _board(self, contest: Any, number: int, members: Sequence[Any],
                     options: dict[str, Any]) -> str:
        """Create and record board ``number`` with ``members`` (entries, in posting
        order)."""
        seats = [SeatRequest(entry.kind, entry.name) for entry in members]
        created = await self.referee.create(contest.game, options, seats,
                                            board_mode([e.kind for e in members]))
        await self.store.add_board(contest.id, number, created.match_id, [
            SeatGiven(entry.entry, seat, entry.secret_hash, entry.account_id)
            for seat, entry in enumerate(members)])
        await self.seats_changed([created.match_id])
        return created.match_id

    async def pass_removed(self, match_id: str, move: int) -> bool:
        """Record the time-out of the turn at ``move`` if it is still that turn and a removed
        entrant's (the job ``deadline:<match>:<move>`` keeps two processes, or the turn's own
        deadline, from both recording it); whether it was recorded."""
        job = f"deadline:{match_id}:{move}"
        if not await self.jobs.claim(job):
            return False
        try:
            live = await self.matches.get(match_id)
            async with self.matches.hold(live):
                seat = live.to_move
                if (seat is None or live.state.move_number != move or live.time_limit is None
                        or seat not in await self.store.removed_seats(match_id)):
                    return False
                try:
                    await self.referee.advance(live, seat, None)
                except ServerError:  # another process stored this move first
                    return False
        finally:
            await give_up(self.jobs, job)
        log.info("match %s: removed seat %d passed at move %d", match_id, seat, move)
        self.schedule(live)
        return True

    async def to_computer(self, live: LiveMatch, seat: int) -> None:
        """A novice plays ``seat`` from now on (a game without a time-out rule)."""
        await self.store.seat_to_computer(live.id, seat, REMOVED_LEVEL)
        await self.seats_changed([live.id])
        self.schedule(live)
