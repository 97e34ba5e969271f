"""Computer players, run off the event loop in a worker pool.

A bot move is computed by :func:`choose_notation` in a worker (a process by default, for real
parallelism, since the engines are pure Python). The worker receives only what a computer player
may see: the game's class path, player count and options, the seat's :class:`Observation`, a
:class:`random.Random` keyed by a server secret, the match seed and the move number
(:func:`triverse.server.computers.computer_rng`), the seat's thinking time (for the veteran)
and, for a veteran whose game's knowledge remembers, what the seat remembers of the game (its
knowledge fed with the seat's own observation at each of its earlier turns, replayed by the
server: ``LiveMatch.memory_of``). It answers with the action's notation, which the server
parses and checks like any human's.

The same pool answers a seat's request for a hint (:func:`hint_notation`: the veteran's move,
from the seat's observation only) and computes post-game reviews (:func:`review_seat`, from the
record of a finished game).

Jobs are shared fairly between matches (:class:`FairQueue`): at most one job of a match is in
the pool at a time, and among the matches that wait, the one that has asked for the least
thinking so far goes first, so that a novice's move is not stuck behind many veteran searches.

This module imports nothing from the web stack, so worker processes start quickly under the
``spawn`` and ``forkserver`` start methods too. Game classes are loaded by
:func:`triverse.core.plugins.resolve_game`.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import os
import random
from collections.abc import AsyncIterator, Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from triverse.ai import VeteranPlayer, make_player
from triverse.ai.knowledge import Memory
from triverse.ai.review import hint, review
from triverse.core.game import Game, Observation
from triverse.core.options import OptionValue
from triverse.core.plugins import resolve_game
from triverse.core.records import Record

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A configured game, in a form that crosses process boundaries cheaply."""

    module: str
    """``"package.module:ClassName"`` of the :class:`Game` subclass."""
    players: int
    options: tuple[tuple[str, OptionValue], ...]

    @classmethod
    def of(cls, module: str, game: Game[Any, Any]) -> GameSpec:
        """The spec of ``game``, whose class lives at ``module``."""
        return cls(module, game.num_players, tuple(sorted(game.options.items())))

    def build(self) -> Game[Any, Any]:
        """The game itself (cached per process)."""
        return _build_game(self)


@functools.lru_cache(maxsize=64)
def _build_game(spec: GameSpec) -> Game[Any, Any]:
    return resolve_game(spec.module)(spec.players, dict(spec.options))


def choose_notation(
    level: str, spec: GameSpec, observation: Observation, rng: random.Random,
    time_budget: float | None = None, memory: Memory | None = None,
) -> str:
    """The notation of the action a ``level`` computer player picks (runs in a worker).

    ``time_budget``: the seconds a level that searches (the veteran) may think, as the seat
    was created with; ``None``: the game's default. ``memory``: what the veteran remembers of
    the game, digested from the seat's own earlier observations (``LiveMatch.memory_of``)."""
    game = spec.build()
    player = make_player(level, time_budget)
    if memory is not None and isinstance(player, VeteranPlayer):
        player.memory = memory
    return str(player.choose(game, observation, rng))


def hint_notation(
    spec: GameSpec, observation: Observation, time_budget: float, rng: random.Random,
    memory: Memory | None = None,
) -> str:
    """The notation of the veteran's suggested move for the seat whose observation this is
    (runs in a worker; it sees nothing but the observation and what the seat remembers)."""
    return str(hint(spec.build(), observation, time_budget, rng, memory))


def review_seat(
    record: dict[str, Any], seat: int, time_budget: float, threshold: float = 0.5
) -> list[dict[str, Any]]:
    """The veteran's review of ``seat``'s decisions in a game record (JSON), each
    ``MoveReview.to_json()`` (runs in a worker)."""
    notes = review(Record.from_json(record), seat=seat, time_budget=time_budget,
                   threshold=threshold)
    return [note.to_json() for note in notes]


def _ready() -> int:
    return os.getpid()


QUICK = 0.01
"""The expected seconds of a job that does not search (a novice's or an average's move)."""
SEARCH = 0.1
"""Jobs expected to take longer than this many seconds are searches (see :class:`FairQueue`)."""


@dataclass(eq=False)
class _Waiting:
    """A job waiting for its turn in a :class:`FairQueue`."""

    tag: float
    """Its virtual finish: the owner's virtual time when it arrived, plus its cost."""
    order: int
    start: float
    cost: float
    owner: Hashable
    ready: asyncio.Future[None]


class FairQueue:
    """Turns in a pool of ``slots`` workers, shared fairly between owners (matches).

    Weighted fair queueing: each job says whom it is for (``owner``) and about how many
    seconds it will take (``cost``). An owner's jobs are tagged with its virtual time, which
    grows by each job's cost and starts, for an owner that was idle, at the queue's current
    virtual time; a free slot goes to the waiting job with the smallest tag whose owner has
    no job running. So a match runs at most one job at a time, and a cheap job (a novice's
    move) waits for at most the jobs already running, not for every search queued before it.
    Besides, searches (jobs of more than :data:`SEARCH` seconds) hold at most all the slots but
    one when there are two or more, so that a move that needs no search finds a worker at once
    even while every match around it searches.

    >>> async def demo() -> list[str]:
    ...     queue, order = FairQueue(1), []
    ...     async def job(owner: str, cost: float) -> None:
    ...         async with queue.turn(owner, cost):
    ...             order.append(owner)
    ...             await asyncio.sleep(0)
    ...     jobs = [job("veteran", 5.0), job("veteran", 5.0), job("other", 5.0),
    ...             job("novice", QUICK)]
    ...     await asyncio.gather(*jobs)
    ...     return order
    >>> asyncio.run(demo())
    ['veteran', 'novice', 'other', 'veteran']
    """

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.running: dict[Hashable, float] = {}
        """The owners with a job in the pool, and its cost."""
        self.waiting: list[_Waiting] = []
        self._finish: dict[Hashable, float] = {}
        self._virtual = 0.0
        self._order = itertools.count()

    @asynccontextmanager
    async def turn(self, owner: Hashable | None, cost: float) -> AsyncIterator[None]:
        """Wait for a slot for a job of ``owner`` (``None``: an owner of its own) expected
        to take ``cost`` seconds; hold it for the ``async with`` block."""
        key: Hashable = object() if owner is None else owner
        start = max(self._virtual, self._finish.get(key, 0.0))
        self._finish[key] = start + cost
        job = _Waiting(start + cost, next(self._order), start, cost, key,
                       asyncio.get_running_loop().create_future())
        self.waiting.append(job)
        self._dispatch()
        try:
            await job.ready
        except asyncio.CancelledError:
            if job.ready.done() and not job.ready.cancelled():
                self._release(key)  # granted as it was cancelled
            else:
                self.waiting.remove(job)
            raise
        try:
            yield
        finally:
            self._release(key)

    def _dispatch(self) -> None:
        while len(self.running) < self.slots:
            searches = sum(1 for cost in self.running.values() if cost > SEARCH)
            may_search = self.slots == 1 or searches < self.slots - 1
            ready = [job for job in self.waiting if job.owner not in self.running
                     and (may_search or job.cost <= SEARCH)]
            if not ready:
                return
            job = min(ready, key=lambda j: (j.tag, j.order))
            self.waiting.remove(job)
            self.running[job.owner] = job.cost
            self._virtual = max(self._virtual, job.start)
            job.ready.set_result(None)

    def _release(self, owner: Hashable) -> None:
        self.running.pop(owner, None)
        if self._finish.get(owner, 0.0) <= self._virtual and not any(
                job.owner == owner for job in self.waiting):
            self._finish.pop(owner, None)  # idle: it would start at the virtual time anyway
        self._dispatch()


def default_workers() -> int:
    """One worker per CPU, at most four."""
    return max(1, min(4, os.cpu_count() or 1))


class BotPool:
    """The pool computer players think in.

    ``kind`` is ``"process"`` (a :class:`ProcessPoolExecutor` with the platform's default
    start method unless ``mp_context`` says otherwise) or ``"thread"``. :meth:`start` launches
    the workers at once (before the server starts its own threads, which matters with ``fork``);
    :meth:`shutdown` cancels queued work and waits for the workers to exit.
    """

    def __init__(
        self, kind: str = "process", workers: int | None = None,
        mp_context: BaseContext | None = None,
    ) -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot executor is 'process' or 'thread', not {kind!r}")
        self.kind = kind
        self.workers = workers if workers is not None else default_workers()
        if self.workers < 1:
            raise ValueError("the bot pool needs at least one worker")
        self._mp_context = mp_context
        self._executor: Executor | None = None
        self.queue = FairQueue(self.workers)
        """Who goes next into the pool (see :class:`FairQueue`)."""

    def _make(self) -> Executor:
        if self.kind == "process":
            return ProcessPoolExecutor(self.workers, mp_context=self._mp_context)
        return ThreadPoolExecutor(self.workers, thread_name_prefix="triverse-bot")

    def start(self) -> None:
        """Create the executor and wait until its workers answer."""
        if self._executor is None:
            self._executor = self._make()
            self._executor.submit(_ready).result(timeout=60)

    async def choose(
        self, level: str, spec: GameSpec, observation: Observation, rng: random.Random,
        time_budget: float | None = None, memory: Memory | None = None,
        owner: Hashable | None = None, cost: float = QUICK,
    ) -> str:
        """Run :func:`choose_notation` in the pool for ``owner`` (a match), expected to take
        ``cost`` seconds; a crashed process pool is rebuilt once."""
        return await self.run(choose_notation, level, spec, observation, rng, time_budget,
                              memory, owner=owner, cost=cost)

    async def hint(
        self, spec: GameSpec, observation: Observation, time_budget: float, rng: random.Random,
        memory: Memory | None = None, owner: Hashable | None = None,
    ) -> str:
        """Run :func:`hint_notation` in the pool for ``owner``."""
        return await self.run(hint_notation, spec, observation, time_budget, rng, memory,
                              owner=owner, cost=time_budget)

    async def review(
        self, record: dict[str, Any], seat: int, time_budget: float, threshold: float = 0.5,
        owner: Hashable | None = None, cost: float = QUICK,
    ) -> list[dict[str, Any]]:
        """Run :func:`review_seat` in the pool for ``owner``, expected to take ``cost`` s."""
        return await self.run(review_seat, record, seat, time_budget, threshold,
                              owner=owner, cost=cost)

    async def run(self, function: Callable[..., T], *args: Any, owner: Hashable | None = None,
                  cost: float = QUICK) -> T:
        """Run ``function(*args)`` in the pool (both must be picklable for a process pool)
        when :attr:`queue` gives ``owner`` its turn; a crashed process pool is rebuilt once."""
        async with self.queue.turn(owner, cost):
            return await self._run(function, *args)

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        if self._executor is None:
            self.start()
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            assert self._executor is not None
            try:
                return await loop.run_in_executor(self._executor, function, *args)
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                log.warning("the bot process pool broke; starting a new one")
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._make()
        raise AssertionError("unreachable")

    def shutdown(self) -> None:
        """Cancel queued work and wait for the workers to exit."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
