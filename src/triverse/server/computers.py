"""Computer players: one asyncio task per match while a computer seat is to move.

The task waits ``bot_delay``, asks the worker pool (:class:`~triverse.server.bots.BotPool`)
for the seat's move from its observation alone, and plays it through the referee like any
human's move (same checks, same lock), then loops while a computer is to move. A computer that
fails, or picks something unplayable, is replaced for that move by a random legal action, so
that a game never stalls. At start-up :meth:`ComputerPlayers.resume` restarts the tasks of
every match where a computer is to move.

Among several server processes, a match's task first claims the job ``computer:<match>``
(:mod:`triverse.server.jobs`) and holds it until no computer is to move: exactly one process
plays a match's computers at a time. Every ``Settings.job_poll`` seconds each process looks for
matches where a computer is to move and nobody plays (:meth:`ComputerPlayers.sweep`): those of
a process that stopped or died, whose claims died with its database connection.

A computer's chance (its generator, and the fallback's) comes from :func:`computer_rng`: keyed
by a secret of the server's (``Settings.bot_secret``, else random per process) and the match
seed, so that nothing a seat sees, not even a seed it chose, foretells a computer's reply.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import secrets
from typing import Any

from triverse.ai.knowledge import knowledge_for
from triverse.core.errors import TriverseError
from triverse.server.bots import QUICK, BotPool
from triverse.server.clocks import TurnClocks
from triverse.server.config import Settings
from triverse.server.errors import ServerError
from triverse.server.jobs import Jobs, LocalJobs, give_up
from triverse.server.live import LiveMatch
from triverse.server.matches import LiveMatches
from triverse.server.metrics import ServerMetrics
from triverse.server.play import Referee
from triverse.server.repository import MatchRepository
from triverse.server.seats import THINKING_LEVELS

log = logging.getLogger(__name__)


SECRET_BYTES = 32
"""The size of the random key a process draws when ``Settings.bot_secret`` is unset."""


def computer_rng(secret: bytes, seed: int, *labels: object) -> random.Random:
    """A computer player's generator: HMAC-SHA-256 of the match ``seed`` and ``labels``,
    keyed by the server's ``secret``, so that it cannot be worked out without the key.

    >>> a = computer_rng(b"key", 7, "bot", 1, 12).random()
    >>> a == computer_rng(b"key", 7, "bot", 1, 12).random()
    True
    >>> a == computer_rng(b"other key", 7, "bot", 1, 12).random()
    False
    >>> from triverse.core.rng import derive
    >>> a == derive(7, "bot", 1, 12).random()
    False
    """
    message = ":".join([str(seed), *(str(label) for label in labels)]).encode()
    return random.Random(hmac.new(secret, message, hashlib.sha256).digest())


def computer_to_move(live: LiveMatch) -> int | None:
    """The seat to move if a computer plays it, the match is not paused and no seat of an
    open game waits for a player (computers wait for the game to start)."""
    seat = live.to_move
    if seat is None or live.paused or not live.seats[seat].is_bot or live.free_seats:
        return None
    return seat


class ComputerPlayers:
    """The tasks that play the computer seats of this process's matches."""

    def __init__(
        self, settings: Settings, bots: BotPool, matches: LiveMatches, referee: Referee,
        clocks: TurnClocks, repository: MatchRepository, metrics: ServerMetrics | None = None,
        jobs: Jobs | None = None,
    ) -> None:
        self.settings = settings
        self.bots = bots
        self.matches = matches
        self.referee = referee
        self.clocks = clocks
        self.repository = repository
        self.metrics = ServerMetrics() if metrics is None else metrics
        self.jobs: Jobs = LocalJobs() if jobs is None else jobs
        """Claims on the matches' computer turns, shared by the server processes."""
        given = settings.bot_secret
        self._secret = (secrets.token_bytes(SECRET_BYTES) if given is None
                        else given.get_secret_value().encode())
        """The key of the computer players' chance (see :func:`computer_rng`); never sent."""
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def busy(self, match_id: str) -> bool:
        """Whether a task plays computer seats of the match."""
        return match_id in self._tasks

    def count(self) -> int:
        """How many matches have a computer to move (their tasks wait or think)."""
        return len(self._tasks)

    def schedule(self, live: LiveMatch) -> None:
        """Start the match's task if a computer is to move and none runs."""
        if computer_to_move(live) is not None:
            self._start(live.id)

    def _start(self, match_id: str) -> bool:
        """Start the match's task unless one runs; whether one started."""
        task = self._tasks.get(match_id)
        if task is not None and not task.done():
            return False
        task = asyncio.get_running_loop().create_task(self._run(match_id))
        self._tasks[match_id] = task

        def forget(done: asyncio.Task[None]) -> None:
            if self._tasks.get(match_id) is done:
                del self._tasks[match_id]

        task.add_done_callback(forget)
        return True

    async def resume(self) -> int:
        """Start the task of every stored match where a computer is to move and no task of
        this process plays; how many started (each then claims its match, and leaves it to
        the process that holds it)."""
        ids = await self.repository.computer_to_move()
        return sum(self._start(match_id) for match_id in ids)

    async def sweep(self, every: float) -> None:
        """Every ``every`` seconds, :meth:`resume`: the matches of a process that stopped or
        died are taken over (run until cancelled, among several processes)."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.resume()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cannot look for matches with a computer player to move")

    async def close(self) -> None:
        """Cancel every task and wait for them."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()

    async def _run(self, match_id: str) -> None:
        """Play the computer seats of a match for as long as one of them is to move, holding
        the match's claim (another process that holds it plays them instead)."""
        job = f"computer:{match_id}"
        try:
            if not await self.jobs.claim(job):
                return
        except Exception:
            log.exception("cannot claim the computer players of match %s", match_id)
            return
        try:
            # Among several processes, the cached match may be behind the database.
            fresh = self.settings.clustered
            while True:
                live = await self.matches.get(match_id, fresh=fresh)
                seat = computer_to_move(live)
                if seat is None:
                    return
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                if computer_to_move(live) != seat:
                    continue
                await self._move(live, seat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer players of match %s stopped", match_id)
        finally:
            await asyncio.shield(give_up(self.jobs, job))

    async def _move(self, live: LiveMatch, seat: int) -> None:
        number = live.state.move_number
        notation = await self._think(live, seat)
        started = self.metrics.start()
        async with self.matches.hold(live):
            if live.paused or live.state.move_number != number or live.finished:
                return
            action = self._playable(live, seat, notation)
            if action is None:  # never stall a game: any legal action of the seat
                action = computer_rng(self._secret, live.seed, "fallback", seat, number).choice(
                    live.state.legal_action_list())
            # Stored, announced and logged as one: a task cancelled mid-move (the server
            # stopping) still logs the move the database got.
            await asyncio.shield(asyncio.ensure_future(
                self._advance(live, seat, action, number, started)))

    async def _advance(self, live: LiveMatch, seat: int, action: Any, number: int,
                       started: float) -> None:
        try:
            await self.referee.advance(live, seat, action)
        except ServerError:  # another process played it first
            return
        self.metrics.moved(live, number, seat, "computer", started)

    async def _think(self, live: LiveMatch, seat: int) -> str | None:
        """The notation the seat's computer picks in the pool (``None`` if it failed)."""
        number = live.state.move_number
        level, think = live.seats[seat].kind, live.seats[seat].think
        observation = live.state.observation(seat)
        rng = computer_rng(self._secret, live.seed, "bot", seat, number)
        try:
            memory = live.memory_of(seat) if level == "veteran" else None
            cost = (think or knowledge_for(live.game).default_budget
                    if level in THINKING_LEVELS else QUICK)
            return await self.bots.choose(level, live.spec, observation, rng, think, memory,
                                          owner=live.id, cost=cost)
        except Exception:
            log.exception("match %s: the %s player of seat %d failed at move %d", live.id,
                          level, seat, number)
            return None

    def _playable(self, live: LiveMatch, seat: int, notation: str | None) -> Any | None:
        """The action ``notation`` names, unless it does not parse or is the time-out."""
        if notation is None:
            return None
        level = live.seats[seat].kind
        try:
            action = live.state.parse_action(notation)
        except TriverseError as exc:
            log.error("match %s: the %s player of seat %d chose %r: %s", live.id,
                      level, seat, notation, exc)
            return None
        if self.clocks.is_time_out(live, action):
            log.error("match %s: the %s player of seat %d chose the time-out", live.id,
                      level, seat)
            return None
        return action
