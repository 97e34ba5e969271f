"""Hints and reviews among several server processes: exactly one process computes each answer,
shares it in Redis, and the others are given it (the system PostgreSQL and Redis, a schema and
a key prefix of each test's own)."""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from server_helpers import REDIS_URL
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse import load_game
from triverse.core.game import Observation
from triverse.games import plugin
from triverse.server.advisors import (
    HINT_TTL,
    REVIEW_TTL,
    Advisors,
    Answer,
    RedisAdvice,
    advice_store,
)
from triverse.server.bots import GameSpec
from triverse.server.config import Settings
from triverse.server.jobs import Jobs, LocalJobs, PostgresJobs
from triverse.server.live import LiveMatch, SeatInfo

UNREACHABLE = "redis://127.0.0.1:1/0"
"""A Redis URL nobody listens on."""


# --- stand-ins -----------------------------------------------------------------------------------
@dataclass
class GatedBots:
    """A stand-in for a process's worker pool: counts its hints and reviews, each of which
    waits for :attr:`gate` (open by default) and answers the first legal action (no notes
    for a review)."""

    live: LiveMatch
    calls: list[str] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when a job starts."""

    def __post_init__(self) -> None:
        self.gate.set()

    async def hint(self, spec: GameSpec, observation: Observation, budget: float,
                   rng: random.Random, memory: Any = None, owner: Any = None) -> str:
        self.calls.append("hint")
        self.started.set()
        await self.gate.wait()
        return str(self.live.state.legal_action_list()[0])

    async def review(self, record: dict[str, Any], seat: int, budget: float,
                     threshold: float = 0.5, owner: Any = None,
                     cost: float = 0.0) -> list[dict[str, Any]]:
        self.calls.append("review")
        self.started.set()
        await self.gate.wait()
        return []


class CountingJobs:
    """Claims that count the claims refused (the process found another holding the job)."""

    def __init__(self, jobs: Jobs) -> None:
        self.inner = jobs
        self.refused: list[str] = []
        self.taken: list[str] = []

    async def claim(self, job: str) -> bool:
        taken = await self.inner.claim(job)
        (self.taken if taken else self.refused).append(job)
        return taken

    async def release(self, job: str) -> None:
        await self.inner.release(job)

    def holds(self, job: str) -> bool:
        return self.inner.holds(job)

    async def close(self) -> None:
        await self.inner.close()


class FlakyStore(RedisAdvice):
    """The real store, which fails (as an unreachable Redis does) while :attr:`down`."""

    down = False

    async def get(self, name: str) -> Answer | None:
        if self.down:
            raise ConnectionError("Redis is down (test)")
        return await super().get(name)

    async def put(self, name: str, answer: Answer, ttl: int) -> None:
        if self.down:
            raise ConnectionError("Redis is down (test)")
        await super().put(name, answer, ttl)


@dataclass
class Process:
    """One server "process": its advisors, claims, store and worker pool."""

    advisors: Advisors
    jobs: CountingJobs
    bots: GatedBots


def live_match(name: str = "triangles", seed: int = 3, finished: bool = False) -> LiveMatch:
    """A match of two humans in memory; with ``finished``, played to the end at random."""
    game = load_game(name, 2)
    live = LiveMatch(
        id=f"m{uuid.uuid4().hex[:10]}", game_name=name, title=name, mode="hotseat", seed=seed,
        spec=GameSpec.of(plugin(name).engine, game), game=game,
        state=game.new_initial_state(seed=seed),
        seats=(SeatInfo(0, "human", "Ann", None), SeatInfo(1, "human", "Bob", None)),
        created_at=datetime.now(UTC))
    if finished:
        rng = random.Random(seed)
        state = live.state.clone()
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_action_list()))
        live.state = state
    return live


@asynccontextmanager
async def processes(
    url: str, redis_url: str, prefix: str, live: LiveMatch, count: int = 2,
    store: type[RedisAdvice] = RedisAdvice, **settings: Any,
) -> AsyncIterator[list[Process]]:
    """``count`` processes on the PostgreSQL at ``url`` sharing the Redis at ``redis_url``."""
    config = Settings.model_validate({"db_url": url, **settings})
    made = []
    for _ in range(count):
        bots = GatedBots(live)
        jobs = CountingJobs(PostgresJobs(config.db_url))
        advisors = Advisors(config, bots, jobs, store(redis_url, prefix))  # type: ignore[arg-type]
        made.append(Process(advisors, jobs, bots))
    try:
        yield made
    finally:
        for process in made:
            process.bots.gate.set()
            await process.jobs.close()
            await process.advisors.close()


async def until(condition: Callable[[], bool]) -> None:
    """Wait (a few seconds at most) until ``condition()``."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never came true")


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())  # type: ignore[arg-type]


def calls(made: list[Process]) -> list[str]:
    return [call for process in made for call in process.bots.calls]


# --- one computation for all ---------------------------------------------------------------------
def test_two_processes_asking_for_a_hint_at_once_compute_it_once(
    pg_url: str, prefix: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        live = live_match()
        seat = live.to_move
        assert seat is not None
        async with processes(pg_url, REDIS_URL, prefix, live, count=3) as made:
            a, b, later = made
            a.bots.gate.clear()
            b.bots.gate.clear()
            asks = [asyncio.ensure_future(p.advisors.hint(live, seat)) for p in (a, b)]
            await until(lambda: a.bots.started.is_set() or b.bots.started.is_set())
            holder, waiter = (a, b) if a.bots.started.is_set() else (b, a)
            await until(lambda: bool(waiter.jobs.refused))  # the other process holds it
            holder.bots.gate.set()
            waiter.bots.gate.set()
            first, second = await asyncio.gather(*asks)
            assert calls(made) == ["hint"] and holder.bots.calls == ["hint"]
            assert first == second
            assert first["move"] == live.state.move_number
            assert first["hint"]["notation"] in {str(x) for x in live.state.legal_actions()}
            assert waiter.jobs.taken == []  # it never claimed: the answer came first
            assert not holder.jobs.holds(f"advice:hint:{live.id}:{seat}:0")  # given up

            # A process that asks later is given the stored answer, without a claim.
            assert await later.advisors.hint(live, seat) == first
            assert calls(made) == ["hint"] and later.jobs.taken == later.jobs.refused == []
            # Kept in Redis for an hour, under the documented key.
            store = later.advisors.store
            assert isinstance(store, RedisAdvice)
            key = f"{prefix}advice:hint:{live.id}:{seat}:{live.state.move_number}"
            assert store.key(f"hint:{live.id}:{seat}:0") == key
            assert 0 < await store._redis.ttl(key) <= HINT_TTL

    run(scenario)


def test_two_processes_asking_for_a_review_at_once_compute_each_seat_once(
    pg_url: str, prefix: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        live = live_match(finished=True)
        async with processes(pg_url, REDIS_URL, prefix, live, count=3) as made:
            a, b, later = made
            a.bots.gate.clear()
            b.bots.gate.clear()
            asks = [asyncio.ensure_future(a.advisors.review(live, 0)),
                    asyncio.ensure_future(b.advisors.review(live, 0))]
            await until(lambda: a.bots.started.is_set() or b.bots.started.is_set())
            holder, waiter = (a, b) if a.bots.started.is_set() else (b, a)
            await until(lambda: bool(waiter.jobs.refused))
            holder.bots.gate.set()
            waiter.bots.gate.set()
            first, second = await asyncio.gather(*asks)
            assert calls(made) == ["review"] and first == second
            assert first["match_id"] == live.id and first["seat"] == 0
            assert [part["seat"] for part in first["seats"]] == [0]
            assert first["seats"][0]["decisions"] > 0

            # A spectator's review asks for both seats: seat 0's is stored, seat 1's is new.
            everyone = await later.advisors.review(live, None)
            assert [part["seat"] for part in everyone["seats"]] == [0, 1]
            assert everyone["seats"][0] == first["seats"][0]
            assert calls(made) == ["review", "review"] and later.bots.calls == ["review"]
            assert await a.advisors.review(live, None) == everyone  # both stored now
            assert calls(made) == ["review", "review"]
            store = later.advisors.store
            assert isinstance(store, RedisAdvice)
            ttl = await store._redis.ttl(store.key(f"review:{live.id}:1"))
            assert HINT_TTL < ttl <= REVIEW_TTL

    run(scenario)


def test_requests_of_one_process_share_its_one_part_in_the_claim(
    pg_url: str, prefix: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        live = live_match()
        seat = live.to_move
        assert seat is not None
        async with processes(pg_url, REDIS_URL, prefix, live, count=1) as (alone,):
            answers = await asyncio.gather(*(alone.advisors.hint(live, seat) for _ in range(5)))
            assert all(answer == answers[0] for answer in answers)
            assert alone.bots.calls == ["hint"]
            assert alone.jobs.taken == [f"advice:hint:{live.id}:{seat}:0"]

    run(scenario)


# --- a holder that dies or stalls ----------------------------------------------------------------
def test_when_the_holder_dies_the_waiting_process_computes_the_answer(
    pg_url: str, prefix: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        live = live_match()
        seat = live.to_move
        assert seat is not None
        async with processes(pg_url, REDIS_URL, prefix, live) as (a, b):
            a.bots.gate.clear()  # a holds the claim and never answers
            dying = asyncio.ensure_future(a.advisors.hint(live, seat))
            await until(a.bots.started.is_set)
            waiting = asyncio.ensure_future(b.advisors.hint(live, seat))
            await until(lambda: bool(b.jobs.refused))
            assert not waiting.done()
            await a.jobs.close()  # a's database connection closes: its claim is free
            answer = await waiting
            assert b.bots.calls == ["hint"] and b.jobs.taken == [
                f"advice:hint:{live.id}:{seat}:0"]
            assert answer["hint"]["notation"] in {str(x) for x in live.state.legal_actions()}
            a.bots.gate.set()  # let the "dead" process's task end
            await dying

    run(scenario)


def test_a_process_stops_waiting_for_a_stalled_holder_and_computes_itself(
    pg_url: str, prefix: str, caplog: pytest.LogCaptureFixture,  # noqa: F811
) -> None:
    async def scenario() -> None:
        live = live_match()
        seat = live.to_move
        assert seat is not None
        async with processes(pg_url, REDIS_URL, prefix, live, hint_budget=0.05) as (a, b):
            b.advisors.wait_margin = 0.0
            a.bots.gate.clear()  # a holds the claim, alive, and takes for ever
            stalled = asyncio.ensure_future(a.advisors.hint(live, seat))
            await until(a.bots.started.is_set)
            with caplog.at_level(logging.WARNING, logger="triverse.server.advisors"):
                answer = await b.advisors.hint(live, seat)
            assert b.bots.calls == ["hint"] and b.jobs.refused and not b.jobs.taken
            assert answer["hint"]["notation"] in {str(x) for x in live.state.legal_actions()}
            assert any("another process has held it" in r.getMessage()
                       for r in caplog.records)
            a.bots.gate.set()
            assert await stalled == answer

    run(scenario)


# --- without Redis, or while it fails ------------------------------------------------------------
def test_an_unreachable_redis_falls_back_to_computing_here(
    pg_url: str, caplog: pytest.LogCaptureFixture,  # noqa: F811
) -> None:
    async def scenario() -> None:
        live = live_match()
        finished = live_match(finished=True)
        seat = live.to_move
        assert seat is not None
        async with processes(pg_url, UNREACHABLE, "unused:", live) as (a, b):
            with caplog.at_level(logging.WARNING, logger="triverse.server.advisors"):
                first, second = await asyncio.gather(a.advisors.hint(live, seat),
                                                     b.advisors.hint(live, seat))
                review = await a.advisors.review(finished, None)
            assert first == second  # each process computed its own
            assert a.bots.calls == ["hint", "review", "review"] and b.bots.calls == ["hint"]
            assert [part["seat"] for part in review["seats"]] == [0, 1]
            unreachable = [r for r in caplog.records
                           if "shared store is unreachable" in r.getMessage()]
            assert len(unreachable) == 2  # once in each process
            assert a.jobs.taken == b.jobs.taken == []  # no claim without the store

    run(scenario)


def test_a_redis_outage_is_logged_once_and_sharing_resumes_after_it(
    pg_url: str, prefix: str, caplog: pytest.LogCaptureFixture,  # noqa: F811
) -> None:
    async def scenario() -> None:
        live = live_match()
        async with processes(pg_url, REDIS_URL, prefix, live, count=2,
                             store=FlakyStore) as (a, b):
            store = a.advisors.store
            assert isinstance(store, FlakyStore)
            store.down = True
            with caplog.at_level(logging.INFO, logger="triverse.server.advisors"):
                for _ in range(3):  # three moves, each hinted while Redis is down
                    seat = live.to_move
                    assert seat is not None
                    answer = await a.advisors.hint(live, seat)
                    live.state = live.state.clone()
                    live.state.apply(live.state.parse_action(answer["hint"]["notation"]))
                store.down = False
                seat = live.to_move
                assert seat is not None
                shared = await a.advisors.hint(live, seat)
            messages = [r.getMessage() for r in caplog.records]
            assert sum("shared store is unreachable" in m for m in messages) == 1
            assert sum("reachable again" in m for m in messages) == 1
            assert a.bots.calls == ["hint"] * 4 and a.jobs.taken == [
                f"advice:hint:{live.id}:{seat}:{live.state.move_number}"]
            assert await b.advisors.hint(live, seat) == shared and b.bots.calls == []

    run(scenario)


def test_a_lone_process_has_no_store_and_claims_nothing() -> None:
    async def scenario() -> None:
        live = live_match()
        seat = live.to_move
        assert seat is not None
        settings = Settings.model_validate({"db_url": "sqlite://"})
        assert advice_store(settings) is None
        bots = GatedBots(live)
        jobs = CountingJobs(LocalJobs())
        advisors = Advisors(settings, bots, jobs, advice_store(settings))  # type: ignore[arg-type]
        first, again = await asyncio.gather(advisors.hint(live, seat), advisors.hint(live, seat))
        assert first is again and bots.calls == ["hint"]
        assert jobs.taken == jobs.refused == []
        await advisors.close()

    run(scenario)


def test_the_store_of_a_clustered_server_is_redis_under_its_prefix(
    pg_url: str, prefix: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        settings = Settings.model_validate({"db_url": pg_url, "redis_url": REDIS_URL,
                                            "redis_prefix": prefix})
        store = advice_store(settings)
        assert isinstance(store, RedisAdvice)
        try:
            assert await store.get("hint:m:0:1") is None
            await store.put("hint:m:0:1", {"move": 1, "hint": {"notation": "x"}}, 60)
            assert await store.get("hint:m:0:1") == {"move": 1, "hint": {"notation": "x"}}
            assert await store._redis.exists(f"{prefix}advice:hint:m:0:1")
        finally:
            await store.close()

    run(scenario)
