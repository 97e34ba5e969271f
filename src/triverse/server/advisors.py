"""Advice: the veteran's hints during a game and its reviews after it.

Both run in the computer players' worker pool (:class:`~triverse.server.bots.BotPool`) and are
kept in memory: a hint per (match, seat, move), up to ``cache_size`` of them; a seat's review
per (match, seat), up to ``review_cache``. While one is being computed a second request for the
same waits for the same answer. Nothing about advice is stored in the database.

Among several server processes (``Settings.redis_url``), exactly one process computes each
answer, and the others are given it:

- The answers are shared in Redis (:class:`RedisAdvice`): a JSON value at
  ``<redis_prefix>advice:<kind>:<match>:<seat>[:<move>]`` (``kind`` is ``hint`` or
  ``review``), kept :data:`HINT_TTL` or :data:`REVIEW_TTL` seconds.
- A process that does not find the answer there claims the job of the same name
  (``advice:<kind>:<match>:<seat>[:<move>]``, :mod:`triverse.server.jobs`); the holder looks
  again (another process may have just finished), computes, stores and gives up the claim. A
  process that cannot claim it looks in Redis every :data:`WAIT_POLL` seconds until the
  answer is there, or until the claim is free (its holder died, and its claim with its
  database connection) and it takes the job itself. It waits at most the job's own budget
  (``hint_budget``; ``review_total`` for a seat's review) and :data:`WAIT_MARGIN` seconds;
  then it computes without the claim, and says so in the log, rather than fail the request.
- Within one process the requests for an answer still share one task: only that task takes
  part in the above.
- If Redis fails, every process computes its own answers, as a lone one does (one warning per
  outage); a failing claim (the database) is handled the same way.

Advice belongs to a seat: it is derived from the seat's hand. Redis is a trusted internal store,
like PostgreSQL (in ``compose.yaml`` both are on the internal ``back`` network only); only the
servers read it, and they give a stored answer only to a request that the cache in memory
would answer (the seat's token already checked), exactly as they give the cached one.

Without Redis (the embedded default) there is no store and no claim: the answers are computed
and kept in memory only.

:class:`Advisors` is handed a match and the seat that asks (the token already checked); it
never changes a match.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

from triverse.core.records import PlayerInfo, Record
from triverse.core.rng import fresh_seed
from triverse.server.bots import BotPool
from triverse.server.config import Settings
from triverse.server.errors import ServerError
from triverse.server.jobs import Jobs, LocalJobs, give_up
from triverse.server.live import LiveMatch
from triverse.server.views import action_json

log = logging.getLogger(__name__)

Answer = dict[str, Any]

HINT_TTL = 60 * 60
"""Seconds a hint is kept in the shared store (a move is seldom thought over for longer)."""
REVIEW_TTL = 7 * 24 * 60 * 60
"""Seconds a seat's review is kept in the shared store."""
WAIT_POLL = 0.1
"""Seconds between two looks in the shared store while another process computes an answer."""
WAIT_MARGIN = 10.0
"""Seconds a process waits for another's answer beyond the job's own budget (the worker pool
may have queued the job)."""


def keep(cache: OrderedDict[Any, Answer], key: Any, value: Answer, size: int) -> None:
    """Put ``value`` in the LRU ``cache`` of at most ``size`` entries (at least one).

    >>> cache: OrderedDict[Any, Answer] = OrderedDict()
    >>> for n in range(3):
    ...     keep(cache, n, {"n": n}, 2)
    >>> list(cache)
    [1, 2]
    """
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > max(1, size):
        cache.popitem(last=False)


class _StoreDown(Exception):
    """The shared store failed: compute the answer here (:meth:`Advisors._shared`)."""


class AdviceStore(Protocol):
    """Answers shared by the server processes (see the module), by name
    (``<kind>:<match>:<seat>[:<move>]``). Any method may raise when the store is unreachable."""

    async def get(self, name: str) -> Answer | None:
        """The answer stored under ``name``, or ``None``."""
        ...

    async def put(self, name: str, answer: Answer, ttl: int) -> None:
        """Store ``answer`` under ``name`` for ``ttl`` seconds."""
        ...

    async def close(self) -> None:
        """Close the connections."""
        ...


class RedisAdvice:
    """Answers shared in Redis, at ``<prefix>advice:<name>``, as JSON (see the module)."""

    def __init__(self, url: str, prefix: str = "triverse:") -> None:
        from triverse.server.redis_pool import redis_client  # the redis extra

        self.prefix = prefix
        self._redis: Any = redis_client(url, decode=True)

    def key(self, name: str) -> str:
        """The Redis key of the answer called ``name``.

        >>> RedisAdvice("redis://127.0.0.1:6379/0", "t:").key("hint:m1:0:7")
        't:advice:hint:m1:0:7'
        """
        return f"{self.prefix}advice:{name}"

    async def get(self, name: str) -> Answer | None:
        value = await self._redis.get(self.key(name))
        if value is None:
            return None
        answer = json.loads(value)
        if not isinstance(answer, dict):
            raise ValueError(f"{self.key(name)} holds {type(answer).__name__}, not an answer")
        return answer

    async def put(self, name: str, answer: Answer, ttl: int) -> None:
        await self._redis.set(self.key(name), json.dumps(answer), ex=ttl)

    async def close(self) -> None:
        await self._redis.aclose()


def advice_store(settings: Settings) -> RedisAdvice | None:
    """The store shared with the other server processes: in Redis among several processes,
    none for a lone one.

    >>> advice_store(Settings(db_url="sqlite://")) is None
    True
    """
    if settings.redis_url is None:
        return None
    return RedisAdvice(settings.redis_url, settings.redis_prefix)


class Advisors:
    """The veteran's hints and reviews (see the module).

    ``jobs`` are the claims the processes share (default: this process's own) and ``store``
    the answers they share (default: none, each process computes its own). A process waits for
    another's answer at most the job's budget and ``wait_margin`` seconds.
    """

    def __init__(self, settings: Settings, bots: BotPool, jobs: Jobs | None = None,
                 store: AdviceStore | None = None, wait_margin: float = WAIT_MARGIN) -> None:
        self.settings = settings
        self.bots = bots
        self.jobs: Jobs = LocalJobs() if jobs is None else jobs
        self.store = store
        self.wait_margin = wait_margin
        self._store_down = False
        """Whether the shared store failed last time (it is logged once per outage)."""
        self.hints: OrderedDict[tuple[str, int, int], Answer] = OrderedDict()
        """Hints given, by (match, seat, move): asking again for the same move is instant."""
        self.reviews: OrderedDict[tuple[str, int], Answer] = OrderedDict()
        """Reviews of finished matches, by (match, seat)."""
        self._thinking: dict[tuple[Any, ...], asyncio.Future[Answer]] = {}
        """Hints and reviews being computed: a second request waits for the same answer."""

    async def _once(
        self, key: tuple[Any, ...], compute: Callable[[], Coroutine[Any, Any, Answer]]
    ) -> Answer:
        """``compute()``, shared by every request for ``key`` while it runs."""
        running = self._thinking.get(key)
        if running is None:
            running = asyncio.ensure_future(compute())
            self._thinking[key] = running
            running.add_done_callback(lambda _f: self._thinking.pop(key, None))
        return await asyncio.shield(running)

    async def close(self) -> None:
        """Close the shared store (the claims are the service's, closed with it)."""
        if self.store is not None:
            await self.store.close()

    # --- sharing between processes ---------------------------------------------------------------
    async def _shared(
        self, name: str, ttl: int, budget: float,
        compute: Callable[[], Coroutine[Any, Any, Answer]],
    ) -> Answer:
        """The answer called ``name``: from the shared store, or computed by exactly one
        process and stored there (see the module). Without a store, or while it fails,
        ``compute()``."""
        if self.store is None:
            return await compute()
        try:
            return await self._from_store(self.store, name, ttl, budget, compute)
        except _StoreDown:
            return await compute()

    async def _from_store(
        self, store: AdviceStore, name: str, ttl: int, budget: float,
        compute: Callable[[], Coroutine[Any, Any, Answer]],
    ) -> Answer:
        """:meth:`_shared` with a store; raises :class:`_StoreDown` if it fails to read."""
        found = await self._look(store, name)
        if found is not None:
            return found
        job = f"advice:{name}"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget + self.wait_margin
        while True:
            try:
                claimed = await self.jobs.claim(job)
            except Exception:
                log.exception("cannot claim %s: computing it without the claim", job)
                return await self._compute_and_store(store, name, ttl, compute)
            if claimed:
                try:
                    found = await self._look(store, name)  # finished just before the claim?
                    if found is not None:
                        return found
                    return await self._compute_and_store(store, name, ttl, compute)
                finally:
                    await give_up(self.jobs, job)
            if loop.time() >= deadline:
                log.warning("%s: another process has held it for %.1f s without an answer; "
                            "computing it here as well", job, budget + self.wait_margin)
                return await self._compute_and_store(store, name, ttl, compute)
            await asyncio.sleep(WAIT_POLL)
            found = await self._look(store, name)
            if found is not None:
                return found

    async def _look(self, store: AdviceStore, name: str) -> Answer | None:
        """The stored answer or ``None``; :class:`_StoreDown` if the store fails."""
        try:
            found = await store.get(name)
        except Exception as exc:
            self._store_failed(exc)
            raise _StoreDown from exc
        self._store_works()
        return found

    async def _compute_and_store(
        self, store: AdviceStore, name: str, ttl: int,
        compute: Callable[[], Coroutine[Any, Any, Answer]],
    ) -> Answer:
        """``compute()``, stored for the other processes. It is returned as stored (through
        JSON: lists, not tuples), so that every process gives the same values."""
        shared: Answer = json.loads(json.dumps(await compute()))
        try:
            await store.put(name, shared, ttl)
        except Exception as exc:
            self._store_failed(exc)
        else:
            self._store_works()
        return shared

    def _store_failed(self, exc: Exception) -> None:
        """The shared store failed: each process computes its own answers meanwhile."""
        if not self._store_down:
            log.warning("advice: the shared store is unreachable (%s); hints and reviews are "
                        "computed by each server process until it is back", exc)
            self._store_down = True

    def _store_works(self) -> None:
        if self._store_down:
            log.info("advice: the shared store is reachable again")
            self._store_down = False

    # --- hints ---------------------------------------------------------------------------------
    async def hint(self, live: LiveMatch, seat: int, move: int | None = None) -> Answer:
        """The veteran's suggested move for ``seat``, which must be the seat to move:
        ``{"move": n, "hint": {notation, kind, description, fields}}``.

        It is computed in the worker pool from ``state.observation(seat)`` alone, within
        ``Settings.hint_budget`` seconds. ``move``, when given, must be the current move.
        """
        state = live.state  # states are replaced, never changed in place: no lock needed
        number = state.move_number
        if state.is_terminal():
            raise ServerError("game_over", "the game is over: there is nothing to hint")
        if move is not None and move != number:
            raise ServerError("stale_move", f"you saw move {move}; the game is at move {number}")
        if state.current_player != seat:
            raise ServerError("not_your_turn", f"it is seat {state.current_player}'s turn, not "
                              f"seat {seat}'s: a hint is for the seat to move")
        key = (live.id, seat, number)
        cached = self.hints.get(key)
        if cached is not None:
            return cached

        async def compute() -> Answer:
            observation = state.observation(seat)
            rng = random.Random(fresh_seed())
            try:
                notation = await self.bots.hint(live.spec, observation,
                                                self.settings.hint_budget, rng,
                                                live.memory_of(seat), owner=live.id)
                action = state.parse_action(notation)
            except Exception:
                log.exception("match %s: no hint for seat %d at move %d", live.id, seat,
                              number)
                raise ServerError("server_error", "the veteran could not find a hint") from None
            return {"move": number, "hint": action_json(state, action)}

        async def shared() -> Answer:
            answer = await self._shared(f"hint:{live.id}:{seat}:{number}", HINT_TTL,
                                        self.settings.hint_budget, compute)
            keep(self.hints, key, answer, self.settings.cache_size)
            return answer

        return await self._once(("hint", *key), shared)

    # --- reviews -------------------------------------------------------------------------------
    async def review(self, live: LiveMatch, seat: int | None) -> Answer:
        """The veteran's review of a finished match: for ``seat``, that seat's decisions; for
        ``None`` (a spectator), every seat's.

        Each seat's review runs in the worker pool (seats in parallel), with
        ``review_total / decisions`` seconds per decision, between ``review_floor`` and
        ``review_budget``; it is cached in memory, so asking again is instant.
        """
        if not live.finished:
            raise ServerError("not_finished", "a game is reviewed when it is over (it is at "
                              f"move {live.state.move_number})")
        seats = [seat] if seat is not None else list(range(live.game.num_players))
        parts = await asyncio.gather(*(self._seat_review(live, s) for s in seats))
        moves = sorted((m for part in parts for m in part["moves"]), key=lambda m: m["index"])
        return {
            "match_id": live.id,
            "seat": seat,
            "total": live.state.move_number,
            "seats": [{k: v for k, v in part.items() if k != "moves"} for part in parts],
            "moves": moves,
        }

    def budget(self, decisions: int) -> float:
        """Seconds per decision of a seat's review with so many decisions."""
        settings = self.settings
        return min(settings.review_budget,
                   max(settings.review_floor, settings.review_total / max(1, decisions)))

    async def _seat_review(self, live: LiveMatch, seat: int) -> Answer:
        """One seat's review, cached."""
        key = (live.id, seat)
        cached = self.reviews.get(key)
        if cached is not None:
            self.reviews.move_to_end(key)
            return cached

        async def compute() -> Answer:
            players = [PlayerInfo(s.name, s.kind) for s in live.seats]
            record = Record.from_state(live.state, players)
            decisions = await asyncio.to_thread(count_decisions, record, seat)
            budget = self.budget(decisions)
            started = time.perf_counter()
            notes = await self.bots.review(record.to_json(), seat, budget, owner=live.id,
                                           cost=budget * decisions)
            moves = await asyncio.to_thread(annotate, record, notes)
            elapsed = time.perf_counter() - started
            log.info("match %s: reviewed seat %d, %d decisions at %.2f s, in %.1f s", live.id,
                     seat, decisions, budget, elapsed)
            return {"seat": seat, "decisions": decisions, "budget": round(budget, 3),
                    "points_lost": round(sum(m["points_lost"] for m in moves), 2),
                    "moves": moves}

        async def shared() -> Answer:
            part = await self._shared(f"review:{live.id}:{seat}", REVIEW_TTL,
                                      self.settings.review_total, compute)
            keep(self.reviews, key, part, self.settings.review_cache)
            return part

        return await self._once(("review", *key), shared)


def count_decisions(record: Record, seat: int) -> int:
    """How many real decisions (two legal actions or more) ``seat`` made in ``record``."""
    state = record.initial_state()
    count = 0
    for text in record.actions:
        if state.current_player == seat and len(state.legal_action_list()) > 1:
            count += 1
        state.apply_notation(text)
    return count


def annotate(record: Record, notes: Sequence[Answer]) -> list[Answer]:
    """The review's notes with what a UI shows: ``move`` (the replay step before the move),
    and the played and suggested actions described on the position they were chosen in
    (``played_description``, ``suggestion``: notation, kind, description, fields)."""
    by_index = {note["index"]: note for note in notes}
    state = record.initial_state()
    out = []
    for index, text in enumerate(record.actions):
        note = by_index.get(index)
        if note is not None:
            played = state.parse_action(text)
            suggested = state.parse_action(note["suggested"])
            out.append({**note, "move": index,
                        "played_description": state.describe_action(played),
                        "suggestion": action_json(state, suggested)})
        state.apply_notation(text)
    return out
