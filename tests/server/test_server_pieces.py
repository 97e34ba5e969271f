"""The parts of the match service, each without the application: settings and the ``serve``
command, the repository, the live-match cache, seats, the referee (with two "processes" on
one database), turn clocks, computer players and advisors (with a stand-in worker pool)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from triverse.core.game import Observation
from triverse.server.advisors import Advisors
from triverse.server.bots import GameSpec
from triverse.server.catalog import GameCatalog
from triverse.server.clock import ManualClock
from triverse.server.clocks import TurnClocks
from triverse.server.computers import ComputerPlayers
from triverse.server.config import Settings, settings_with
from triverse.server.errors import ServerError
from triverse.server.matches import LiveMatches, LocalMatchCache
from triverse.server.play import Referee
from triverse.server.pubsub import InProcessPubSub, MatchNews, match_channel
from triverse.server.repository import MatchRepository, MoveConflict
from triverse.server.seats import SeatRequest, check_seats

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
HUMAN_AND_NOVICE = [SeatRequest("human"), SeatRequest("novice")]


@dataclass
class FakeBots:
    """A stand-in for the worker pool: the first legal action, at once; counts the jobs."""

    jobs: list[str] = field(default_factory=list)
    answer: str | None = None
    """When set, every job answers this notation instead."""
    states: dict[int, Any] = field(default_factory=dict)
    """The true state of each match (by ``id`` of its spec), to find a legal action in."""

    async def choose(self, level: str, spec: GameSpec, observation: Observation,
                     rng: random.Random, think: float | None = None,
                     memory: Any = None, owner: Any = None, cost: float = 0.0) -> str:
        self.jobs.append("choose")
        return self.answer or self._first(spec, observation)

    async def hint(self, spec: GameSpec, observation: Observation, budget: float,
                   rng: random.Random, memory: Any = None, owner: Any = None) -> str:
        self.jobs.append("hint")
        await asyncio.sleep(0.01)  # long enough for a second request to arrive meanwhile
        return self.answer or self._first(spec, observation)

    async def review(self, record: dict[str, Any], seat: int, budget: float,
                     threshold: float = 0.5, owner: Any = None,
                     cost: float = 0.0) -> list[dict[str, Any]]:
        self.jobs.append("review")
        return []

    def _first(self, spec: GameSpec, observation: Observation) -> str:
        return str(self.states[id(spec)].legal_action_list()[0])


@dataclass
class Parts:
    """The parts of one "process", wired as the service wires them."""

    settings: Settings
    repository: MatchRepository
    clock: ManualClock
    matches: LiveMatches
    clocks: TurnClocks
    news: MatchNews
    referee: Referee
    pubsub: InProcessPubSub
    fired: list[tuple[str, int]]


def make_parts(url: str, clock: ManualClock, pubsub: InProcessPubSub | None = None) -> Parts:
    settings = Settings(db_url=url, allow_client_seed=True, bot_delay=0, cache_size=2)
    repository = MatchRepository(settings.db_url)
    repository.migrate()
    fired: list[tuple[str, int]] = []

    async def fire(match_id: str, move: int) -> None:
        fired.append((match_id, move))

    clocks = TurnClocks(clock, repository, fire, settings.deadline_poll)
    matches = LiveMatches(repository, GameCatalog(), LocalMatchCache(settings.cache_size),
                          clocks.seen)
    hub = InProcessPubSub() if pubsub is None else pubsub
    news = MatchNews(hub)
    referee = Referee(settings, matches.catalog, repository, matches, clocks, news)
    return Parts(settings, repository, clock, matches, clocks, news, referee, hub, fired)


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'parts.sqlite3'}"


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())  # type: ignore[arg-type]


@asynccontextmanager
async def parts_of(url: str, pubsub: InProcessPubSub | None = None) -> AsyncIterator[Parts]:
    parts = make_parts(url, ManualClock(START), pubsub)
    try:
        yield parts
    finally:
        parts.repository.close()


# --- settings ------------------------------------------------------------------------------------
def test_settings_come_from_the_environment_and_arguments_win(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRIVERSE_DB_URL", "postgres://u@h/db")
    monkeypatch.setenv("TRIVERSE_BOT_DELAY", "0.25")
    monkeypatch.setenv("TRIVERSE_HINT_BUDGET", "0.4")
    monkeypatch.setenv("TRIVERSE_BOT_WORKERS", "")  # empty: unset
    settings = Settings()
    assert settings.db_url == "postgresql+psycopg://u@h/db"
    assert (settings.bot_delay, settings.hint_budget, settings.bot_workers) == (0.25, 0.4, None)
    given = settings_with(db_url="sqlite://", bot_delay=0, hint_budget=None)
    assert (given.db_url, given.bot_delay, given.hint_budget) == ("sqlite://", 0.0, 0.4)
    for bad in ({"hint_budget": 0}, {"bot_executor": "fibre"}, {"port": 70000},
                {"no_such_setting": 1}):
        with pytest.raises(ValueError):
            Settings(db_url="sqlite://", **bad)
    monkeypatch.setenv("TRIVERSE_REVIEW_TOTAL", "soon")
    with pytest.raises(ValueError, match="review_total"):
        Settings()


def test_serve_flags_override_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    import triverse.server
    from triverse import cli

    served: list[Settings] = []
    monkeypatch.setattr(triverse.server, "serve", lambda **kw: served.append(kw["settings"]))
    monkeypatch.setenv("TRIVERSE_HOST", "0.0.0.0")
    monkeypatch.setenv("TRIVERSE_PORT", "9000")
    monkeypatch.setenv("TRIVERSE_DB_URL", "sqlite:///env.sqlite3")
    out = io.StringIO()
    assert cli.main(["serve", "--port", "9001", "--db", "sqlite:///flag.sqlite3"], out) == 0
    assert "http://0.0.0.0:9001/" in out.getvalue()
    assert (served[0].host, served[0].port, served[0].db_url) == (
        "0.0.0.0", 9001, "sqlite:///flag.sqlite3")


# --- repository, live matches and the cache ----------------------------------------------------
def test_the_repository_stores_moves_once_and_reads_them_back(url: str) -> None:
    async def scenario() -> None:
        async with parts_of(url) as parts:
            created = await parts.referee.create("triominoes", {"target": 60},
                                                 HUMAN_AND_NOVICE, "computer", seed=3)
            live, repo = created.live, parts.repository
            stored = await repo.load(live.id)
            assert stored is not None and stored.seed == 3 and stored.moves == []
            assert [s.kind for s in stored.seats] == ["human", "novice"]
            after = live.state.clone()
            action = after.legal_action_list()[0]
            after.apply(action)
            await repo.store_move(live.id, 0, 0, str(action), after, START, None)
            with pytest.raises(MoveConflict):  # move 0 is taken
                await repo.store_move(live.id, 0, 0, str(action), after, START, None)
            status = await repo.status(live.id, 0)
            assert status.moves == [(0, 0, str(action))] and not status.paused
            assert (await repo.status(live.id, 1)).moves == []
            assert await repo.load("nothing") is None
            held = await repo.held_seats([live.seats[0].token_hash or ""])
            assert [(h.seat.seat, h.match.move_count, len(h.everyone)) for h in held] == [
                (0, 1, 2)]
            assert await repo.computer_to_move() == (
                [live.id] if after.current_player == 1 else [])

    run(scenario)


def test_live_matches_load_once_catch_up_and_keep_busy_ones(url: str) -> None:
    async def scenario() -> None:
        async with parts_of(url) as one, parts_of(url) as other:
            ids = []
            for seed in range(3):
                created = await one.referee.create("trinity", {}, HUMAN_AND_NOVICE,
                                                   "computer", seed=seed)
                ids.append(created.match_id)
            cache = one.matches.cache
            assert len(cache) == 2 and ids[0] not in cache  # least recently used out
            first, second = await asyncio.gather(other.matches.get(ids[0]),
                                                 other.matches.get(ids[0]))
            assert first is second  # loaded and replayed once
            first.connections[None] += 1  # a spectator's socket: busy
            for match_id in ids[1:]:
                await other.matches.get(match_id)
            assert ids[0] in other.matches.cache
            # A move stored by "one" reaches "other" when it catches up.
            live = await one.matches.get(ids[0])
            seat = live.to_move
            assert seat is not None
            async with one.matches.hold(live):
                await one.referee.advance(live, seat, live.state.legal_action_list()[0])
            assert first.state.move_number == 0
            await other.matches.refresh(ids[0])
            assert first.state.move_number == 1 and first.log[0].action == live.log[0].action
            with pytest.raises(ServerError, match="no match"):
                await other.matches.get("missing")

    run(scenario)


# --- seats -------------------------------------------------------------------------------------
def test_seats_and_tokens(url: str) -> None:
    async def scenario() -> None:
        async with parts_of(url) as parts:
            created = await parts.referee.create("triominoes", {}, [SeatRequest("human"),
                                                 SeatRequest("human")], "hotseat")
            live, tokens = created.live, created.tokens
            assert await parts.referee.seat_of(live, tokens[1]) == 1
            assert await parts.referee.seat_of(live, None, required=False) is None
            cases: list[tuple[Any, ...]] = [
                (None, None, True, "missing_token"), (None, 0, False, "missing_token"),
                ("forged", None, True, "wrong_token"), (tokens[0], 1, True, "wrong_token")]
            for token, seat, required, code in cases:
                with pytest.raises(ServerError) as refused:
                    await parts.referee.seat_of(live, token, seat, required)
                assert refused.value.code == code

    run(scenario)
    refusals = [
        ([SeatRequest("human")], "computer", "bad_seats"),
        ([SeatRequest("human")] * 2, "computer", "bad_seats"),
        ([SeatRequest("human"), SeatRequest("novice")], "hotseat", "bad_seats"),
        ([SeatRequest("human"), SeatRequest("robot")], "computer", "bad_seats"),
        ([SeatRequest("human"), SeatRequest("average", think=1)], "computer", "bad_seats"),
        ([SeatRequest("human"), SeatRequest("novice")], "solo", "bad_request"),
    ]
    for seats, mode, code in refusals:
        with pytest.raises(ServerError) as refused:
            check_seats("Trinity", 2, 3, seats, mode)
        assert refused.value.code == code


# --- the referee, across two processes -----------------------------------------------------------
def test_two_referees_on_one_database_store_each_move_once(url: str) -> None:
    async def scenario() -> None:
        hub = InProcessPubSub()
        async with parts_of(url, hub) as one, parts_of(url, hub) as other:
            created = await one.referee.create("triominoes", {"target": 60}, [
                SeatRequest("human"), SeatRequest("human")], "hotseat", seed=4)
            match_id, live = created.match_id, created.live
            seat = live.to_move
            assert seat is not None
            token = created.tokens[seat]
            notation = str(live.state.legal_action_list()[0])
            async with hub.subscribe(match_channel(match_id)) as news:
                await other.matches.get(match_id)  # "other" caches the match at move 0
                await one.referee.act(match_id, token, notation, 0)
                message = await news.get()
                assert message["reason"] == "move" and message["move"] == 1
                assert one.news.from_elsewhere(message) is False
                assert other.news.from_elsewhere(message) is True
            # "other" still holds move 0 in memory; the database refuses its copy of move 0.
            stale = await other.matches.get(match_id)
            with pytest.raises(ServerError) as refused:
                await other.referee.act(match_id, token, notation, 0)
            assert refused.value.code == "stale_move" and stale.state.move_number == 1
            with pytest.raises(ServerError) as refused:
                await one.referee.act(match_id, token, notation, 1)
            assert refused.value.code == "not_your_turn"
            paused = await one.referee.set_paused(match_id, token, True)
            assert paused.paused and (await other.matches.get(match_id, fresh=True)).paused

    run(scenario)


# --- turn clocks --------------------------------------------------------------------------------
def test_turn_clocks_time_a_human_turn_and_know_the_time_out(url: str) -> None:
    async def scenario() -> None:
        async with parts_of(url) as parts:
            created = await parts.referee.create("trident", {"time_limit": 60}, [
                SeatRequest("human"), SeatRequest("human")], "hotseat", seed=2)
            live = created.live
            assert live.deadline == START + timedelta(seconds=60)
            assert parts.clocks.scheduler.pending() == {live.id: (0, live.deadline)}
            assert parts.clocks.is_time_out(live, "timeout")
            assert not parts.clocks.is_time_out(live, live.state.legal_action_list()[0])
            assert await parts.referee.time_out(live.id, 0) is None  # not due yet
            parts.clock.advance(60)
            timed_out = await parts.referee.time_out(live.id, 0)
            assert timed_out is live and live.log[0].action == "timeout"
            assert live.deadline == START + timedelta(seconds=120)
            untimed = await parts.referee.create("trident", {}, HUMAN_AND_NOVICE, "computer")
            assert untimed.live.deadline is None
            assert not parts.clocks.is_time_out(untimed.live, "timeout")
            assert await parts.clocks.start_missing(parts.matches, parts.news) == 0

    run(scenario)


# --- computer players and advisors --------------------------------------------------------------
def test_computer_players_play_a_match_to_the_end_and_never_stall(url: str) -> None:
    async def scenario() -> None:
        async with parts_of(url) as parts:
            bots = FakeBots(answer="no such move")  # every answer unplayable: the fallback
            computers = ComputerPlayers(parts.settings, bots, parts.matches,  # type: ignore[arg-type]
                                        parts.referee, parts.clocks, parts.repository)
            created = await parts.referee.create(
                "triominoes", {"target": 30}, [SeatRequest("novice"), SeatRequest("average")],
                "computer", seed=9)
            computers.schedule(created.live)
            assert computers.busy(created.match_id)
            for _ in range(2000):
                if created.live.finished:
                    break
                await asyncio.sleep(0.005)
            assert created.live.finished and len(bots.jobs) == created.live.state.move_number
            await computers.close()
            assert not computers.busy(created.match_id)

    run(scenario)


def test_advisors_hint_once_per_move_and_review_finished_games_only(url: str) -> None:
    async def scenario() -> None:
        async with parts_of(url) as parts:
            bots = FakeBots()
            advisors = Advisors(parts.settings, bots)  # type: ignore[arg-type]
            created = await parts.referee.create("triominoes", {}, [
                SeatRequest("human"), SeatRequest("human")], "hotseat", seed=6)
            live = created.live
            bots.states[id(live.spec)] = live.state
            seat = live.to_move
            assert seat is not None
            first, again = await asyncio.gather(advisors.hint(live, seat),
                                                advisors.hint(live, seat, 0))
            assert first == again and bots.jobs == ["hint"]  # one job for both requests
            assert first["hint"]["notation"] in {str(a) for a in live.state.legal_actions()}
            assert await advisors.hint(live, seat) is first and bots.jobs == ["hint"]
            for args, code in (((1 - seat,), "not_your_turn"), ((seat, 5), "stale_move")):
                with pytest.raises(ServerError) as refused:
                    await advisors.hint(live, *args)
                assert refused.value.code == code
            with pytest.raises(ServerError) as refused:
                await advisors.review(live, None)
            assert refused.value.code == "not_finished"
            assert advisors.budget(1) == parts.settings.review_budget
            assert advisors.budget(10**6) == parts.settings.review_floor

    run(scenario)
