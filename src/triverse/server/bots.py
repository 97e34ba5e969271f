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

This module imports nothing from the web stack, so worker processes start quickly under the
``spawn`` and ``forkserver`` start methods too. Game classes are loaded by
:func:`triverse.server.catalog.game_class_at`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from triverse.ai import VeteranPlayer, make_player
from triverse.ai.knowledge import Memory
from triverse.ai.review import hint, review
from triverse.core.game import Game, Observation
from triverse.core.options import OptionValue
from triverse.core.records import Record
from triverse.server.catalog import game_class_at

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
    return game_class_at(spec.module)(spec.players, dict(spec.options))


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
    ) -> str:
        """Run :func:`choose_notation` in the pool; a crashed process pool is rebuilt once."""
        return await self.run(choose_notation, level, spec, observation, rng, time_budget,
                              memory)

    async def hint(
        self, spec: GameSpec, observation: Observation, time_budget: float, rng: random.Random,
        memory: Memory | None = None,
    ) -> str:
        """Run :func:`hint_notation` in the pool."""
        return await self.run(hint_notation, spec, observation, time_budget, rng, memory)

    async def review(
        self, record: dict[str, Any], seat: int, time_budget: float, threshold: float = 0.5
    ) -> list[dict[str, Any]]:
        """Run :func:`review_seat` in the pool."""
        return await self.run(review_seat, record, seat, time_budget, threshold)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in the pool (both must be picklable for a process pool);
        a crashed process pool is rebuilt once."""
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
