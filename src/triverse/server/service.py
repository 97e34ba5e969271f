"""The match service: creating matches, accepting moves, running computer players.

Everything the REST API and the websockets do goes through :class:`MatchService`. It is the
server's authority: an action is parsed and checked by the engine, stored in the database, and
only then applied to the cached state and announced on the match's pub/sub channel. Every
refusal raises a :class:`~triverse.server.errors.ServerError` and changes nothing.

In a game with a time limit the service also keeps each turn's deadline (stored with the move
that starts the turn) and records ``state.time_out()`` when the
:class:`~triverse.server.deadlines.DeadlineScheduler` says one has passed.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import StaticPool

from triverse.ai import LEVELS
from triverse.core.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    OptionError,
    TriverseError,
)
from triverse.core.events import Event
from triverse.core.game import Game, State
from triverse.core.records import PlayerInfo, Record
from triverse.core.rng import SEED_MAX, derive, fresh_seed
from triverse.games import plugins
from triverse.server.bots import BotPool, GameSpec, game_class_at
from triverse.server.clock import Clock, SystemClock, iso_utc
from triverse.server.config import Settings
from triverse.server.db import MatchRow, MoveRow, SeatRow, hash_token, make_engine, migrate
from triverse.server.deadlines import DeadlineScheduler, Pending
from triverse.server.errors import ServerError
from triverse.server.live import (
    LiveMatch,
    LogEntry,
    SeatInfo,
    preview_of,
    time_out_of,
    turn_time_limit,
)
from triverse.server.pubsub import Message, PubSub, match_channel
from triverse.server.views import action_json, jsonable, render_view

log = logging.getLogger(__name__)

T = TypeVar("T")

MODES = ("computer", "hotseat", "online")
"""``computer``: one human (or none, to watch) against computer players; ``hotseat``: several
human seats in one browser; ``online``: human seats invited by link."""
MAX_NAME = 40
THINK_RANGE = (0.2, 5.0)
"""The seconds a seat's thinking time may be (``SeatRequest.think``), inclusive."""
THINKING_LEVELS = ("veteran",)
"""The computer levels that search within a time budget per move (``docs/ai.md``), so that a
seat of that level may be given a thinking time; the others answer at once."""


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A game the server knows: an installed game plugin, or one added by the settings."""

    name: str
    title: str
    summary: str
    module: str | None
    """``"package.module:Class"``; ``None`` while the game is coming soon."""
    view: str | None = None
    """The browser's module for the game (its plugin's ``view``); ``None``: no table."""
    rules: str | None = None
    """The URL path of its rules page."""

    def cls(self) -> type[Game[Any, Any]]:
        """The game's class (only for an available game)."""
        if self.module is None:
            raise ServerError("game_unavailable", f"{self.title} is coming soon: it is not "
                              "built yet")
        return game_class_at(self.module)


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A seat asked for when creating a match."""

    kind: str = "human"
    name: str | None = None
    think: float | None = None
    """Seconds a computer seat of one of the :data:`THINKING_LEVELS` may think about a move
    (``None``: the game's default)."""


@dataclass(frozen=True, slots=True)
class CreatedMatch:
    """A new match: its id and, per seat, the token (``None`` for computer seats)."""

    match_id: str
    live: LiveMatch
    tokens: tuple[str | None, ...]


def seat_link(match_id: str, seat: int, token: str) -> str:
    """The invite link of a seat: the token sits in the fragment, which browsers never send.

    >>> seat_link("abc", 1, "TOKEN")
    '/play/abc?seat=1#TOKEN'
    """
    return f"/play/{match_id}?seat={seat}#{token}"


def spectator_link(match_id: str) -> str:
    """The link that shows a match's public view."""
    return f"/watch/{match_id}"


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes; they are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class _Conflict(Exception):
    """Another process stored this move number first."""


class MatchService:
    """Matches in the database, their replayed states in memory, the computer players and the
    turn deadlines.

    ``clock`` is the time source of every date the service stores (default: the system clock;
    tests pass a :class:`~triverse.server.clock.ManualClock`).
    """

    def __init__(
        self, settings: Settings, pubsub: PubSub, bots: BotPool, clock: Clock | None = None
    ) -> None:
        self.settings = settings
        self.pubsub = pubsub
        self.bots = bots
        self.clock: Clock = SystemClock() if clock is None else clock
        self.scheduler = DeadlineScheduler(self.clock, self._pending_deadlines, self.time_out,
                                           settings.deadline_poll)
        """Fires the time-outs of every timed match (see :mod:`triverse.server.deadlines`)."""
        self._timeout_notations: dict[GameSpec, str] = {}
        self.instance = uuid.uuid4().hex
        """Names this process in pub/sub messages, to tell its own from other processes'."""
        self.engine = make_engine(settings.db_url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._live: OrderedDict[str, LiveMatch] = OrderedDict()
        self._loading: dict[str, asyncio.Task[LiveMatch]] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._hints: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        """Hints given, by (match, seat, move): asking again for the same move is instant."""
        self._reviews: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        """Reviews of finished matches, by (match, seat)."""
        self._thinking: dict[tuple[Any, ...], asyncio.Future[dict[str, Any]]] = {}
        """Hints and reviews being computed: a second request waits for the same answer."""
        self._background: set[asyncio.Task[None]] = set()
        # An in-memory SQLite database is one connection: use it from one thread only.
        self._db_thread = (ThreadPoolExecutor(1, thread_name_prefix="triverse-db")
                           if isinstance(self.engine.pool, StaticPool) else None)
        self.games: dict[str, GameEntry] = {}
        for name, plugin in plugins().items():
            cls = plugin.game_class()
            self.games[name] = GameEntry(name, cls.title, cls.summary, plugin.engine,
                                         plugin.view, plugin.rules)
        for module in settings.extra_games:
            cls = game_class_at(module)
            self.games[cls.name] = GameEntry(cls.name, cls.title, cls.summary, module)

    # --- life cycle --------------------------------------------------------------------------
    def migrate(self) -> None:
        """Create or upgrade the tables (blocking; called once at start-up)."""
        migrate(self.engine)

    async def start(self) -> None:
        """Resume, in the background, every match where a computer player is to move; start
        the deadline scheduler (which first restores the pending deadlines, applying those that
        passed while the server was down) and the clocks of timed matches that lack one."""
        self._spawn(self._resume())
        self.scheduler.start()
        self._spawn(self._start_missing_clocks())

    async def close(self) -> None:
        """Stop the deadline scheduler and the computer players, and close the database."""
        await self.scheduler.close()
        tasks = [*self._bot_tasks.values(), *self._background]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._bot_tasks.clear()
        if self._db_thread is not None:
            self._db_thread.shutdown(wait=True)
        self.engine.dispose()

    async def _db(self, function: Callable[..., T], *args: Any) -> T:
        """Run a blocking database function off the event loop."""
        if self._db_thread is None:
            return await asyncio.to_thread(function, *args)
        return await asyncio.get_running_loop().run_in_executor(self._db_thread, function, *args)

    def _now(self) -> datetime:
        return self.clock.now()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resume(self) -> None:
        ids = await self._db(self._resume_candidates_sync)
        for match_id in ids:
            try:
                self._schedule_bots(await self.live(match_id))
            except Exception:
                log.exception("cannot resume match %s", match_id)
        if ids:
            log.info("resumed %d matches with a computer player to move", len(ids))

    def _resume_candidates_sync(self) -> list[str]:
        with self._sessions() as session:
            rows = session.execute(
                select(MatchRow.id)
                .join(SeatRow, (SeatRow.match_id == MatchRow.id)
                      & (SeatRow.seat == MatchRow.to_move))
                .where(MatchRow.status == "active", MatchRow.paused.is_(False),
                       SeatRow.kind != "human")
            ).scalars().all()
            return list(rows)

    # --- games --------------------------------------------------------------------------------
    def entry(self, name: str) -> GameEntry:
        """The game called ``name``, or ``unknown_game``."""
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(self.games)
            raise ServerError("unknown_game",
                              f"unknown game {name!r}; the games are: {known}") from None

    # --- creating a match -----------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        options: Mapping[str, object],
        seats: Sequence[SeatRequest],
        mode: str,
        seed: int | None = None,
    ) -> CreatedMatch:
        """Check and store a new match; start its computer players if one is to move."""
        entry = self.entry(game_name)
        cls = entry.cls()
        infos = self._check_seats(entry, cls, seats, mode)
        try:
            game = cls(len(infos), options)
        except OptionError as exc:
            raise ServerError("bad_options", str(exc)) from None
        if seed is not None:
            if not self.settings.allow_client_seed:
                raise ServerError("seed_not_allowed",
                                  "this server chooses the seed of every match itself")
            if not 0 <= seed <= SEED_MAX:
                raise ServerError("bad_request", f"seed is from 0 to {SEED_MAX}, not {seed}")
        seed = fresh_seed() if seed is None else seed
        state: State[Any] = game.new_initial_state(seed=seed)
        tokens = tuple(None if kind != "human" else secrets.token_urlsafe(24)
                       for kind, _, _ in infos)
        seat_infos = tuple(
            SeatInfo(i, kind, name, None if token is None else hash_token(token), think)
            for i, ((kind, name, think), token) in enumerate(zip(infos, tokens, strict=True))
        )
        assert entry.module is not None
        now = self._now()
        live = LiveMatch(
            id=secrets.token_urlsafe(9), game_name=entry.name, title=entry.title, mode=mode,
            seed=seed, spec=GameSpec.of(entry.module, game), game=game, state=state,
            seats=seat_infos, created_at=now,
        )
        live.deadline = self._deadline_for(live, state, now)
        await self._db(self._insert_sync, live)
        self._remember(live)
        self.scheduler.set(live.id, 0, live.deadline)
        log.info("match %s created: %s, %d seats, %s", live.id, entry.name, len(infos), mode)
        self._schedule_bots(live)
        return CreatedMatch(live.id, live, tokens)

    def _check_seats(
        self, entry: GameEntry, cls: type[Game[Any, Any]], seats: Sequence[SeatRequest],
        mode: str,
    ) -> list[tuple[str, str, float | None]]:
        if mode not in MODES:
            raise ServerError("bad_request", f"mode is one of {', '.join(MODES)}, not {mode!r}")
        if not cls.min_players <= len(seats) <= cls.max_players:
            raise ServerError("bad_seats", f"{entry.title} is for {cls.min_players} to "
                              f"{cls.max_players} players, not {len(seats)}")
        kinds = ("human", *LEVELS)
        out = []
        for i, seat in enumerate(seats):
            if seat.kind not in kinds:
                raise ServerError("bad_seats", f"seats[{i}].kind is {seat.kind!r}; it is one "
                                  f"of {', '.join(kinds)}")
            name = (seat.name or "").strip()
            if len(name) > MAX_NAME:
                raise ServerError("bad_seats", f"seats[{i}].name is longer than {MAX_NAME} "
                                  "characters")
            if not name:
                name = f"Player {i + 1}" if seat.kind == "human" else (
                    f"{seat.kind.capitalize()} {i + 1}")
            out.append((seat.kind, name, self._check_think(i, seat)))
        humans = sum(1 for kind, _, _ in out if kind == "human")
        if mode == "computer" and (humans > 1 or humans == len(out)):
            raise ServerError("bad_seats", "a game against the computer has at most one human "
                              "seat and at least one computer seat")
        if mode in ("hotseat", "online") and humans < 2:
            raise ServerError("bad_seats", f"a {mode} game needs at least two human seats "
                              "(use mode 'computer' for one)")
        return out

    @staticmethod
    def _check_think(i: int, seat: SeatRequest) -> float | None:
        """The seat's thinking time, checked: only for a level that searches, within
        :data:`THINK_RANGE`."""
        think = seat.think
        if think is None:
            return None
        if isinstance(think, bool) or not isinstance(think, int | float):
            raise ServerError("bad_seats", f"seats[{i}].think is a number of seconds, not "
                              f"{think!r}")
        if seat.kind == "human":
            raise ServerError("bad_seats", f"seats[{i}].think is for a computer seat: a "
                              "human thinks as long as they like")
        if seat.kind not in THINKING_LEVELS:
            raise ServerError("bad_seats", f"seats[{i}].think: the {seat.kind} level does "
                              "not search, so it takes no thinking time (only "
                              f"{', '.join(THINKING_LEVELS)} does)")
        low, high = THINK_RANGE
        if not low <= think <= high:  # NaN fails too
            raise ServerError("bad_seats", f"seats[{i}].think is {think} seconds; it is from "
                              f"{low:g} to {high:g}")
        return float(think)

    def _insert_sync(self, live: LiveMatch) -> None:
        with self._sessions.begin() as session:
            session.add(MatchRow(
                id=live.id, game=live.game_name, num_players=live.game.num_players,
                options=dict(live.game.options), seed=live.seed, mode=live.mode,
                status="finished" if live.finished else "active", paused=False, move_count=0,
                to_move=live.to_move, result=None, created_at=live.created_at,
                updated_at=live.created_at, finished_at=None, deadline=live.deadline,
            ))
            session.flush()
            for seat in live.seats:
                session.add(SeatRow(match_id=live.id, seat=seat.seat, kind=seat.kind,
                                    name=seat.name, token_hash=seat.token_hash,
                                    think=seat.think))

    # --- loading and caching -----------------------------------------------------------------
    async def live(self, match_id: str, fresh: bool = False) -> LiveMatch:
        """The match, replayed from the database if it is not in memory.

        With ``fresh``, moves stored by another process since are applied first.
        """
        live = self._live.get(match_id)
        if live is not None:
            self._live.move_to_end(match_id)
            if fresh:
                async with live.lock:
                    await self._catch_up(live)
            return live
        task = self._loading.get(match_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._load(match_id))
            self._loading[match_id] = task
            task.add_done_callback(lambda _t: self._loading.pop(match_id, None))
        return await asyncio.shield(task)

    async def _load(self, match_id: str) -> LiveMatch:
        live = await self._db(self._load_sync, match_id)
        self._remember(live)
        return live

    def _load_sync(self, match_id: str) -> LiveMatch:
        with self._sessions() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                raise ServerError("unknown_match", f"there is no match {match_id!r}")
            seats = tuple(
                SeatInfo(s.seat, s.kind, s.name, s.token_hash, s.think) for s in session.execute(
                    select(SeatRow).where(SeatRow.match_id == match_id).order_by(SeatRow.seat)
                ).scalars())
            moves = [(m.number, m.seat, m.action) for m in session.execute(
                select(MoveRow).where(MoveRow.match_id == match_id).order_by(MoveRow.number)
            ).scalars()]
            session.expunge(row)
        entry = self.entry(row.game)
        try:
            game = entry.cls()(row.num_players, row.options)
            state: State[Any] = game.new_initial_state(seed=row.seed)
        except TriverseError as exc:
            log.error("match %s cannot be set up again: %s", match_id, exc)
            raise ServerError("server_error", f"match {match_id!r} cannot be loaded: its game "
                              "no longer accepts its options") from None
        assert entry.module is not None
        live = LiveMatch(
            id=row.id, game_name=row.game, title=entry.title, mode=row.mode, seed=row.seed,
            spec=GameSpec.of(entry.module, game), game=game, state=state, seats=seats,
            created_at=_aware(row.created_at), paused=row.paused,
            deadline=None if row.deadline is None else _aware(row.deadline),
        )
        live.log.extend(self._replay(live.id, state, moves))
        return live

    @staticmethod
    def _replay(
        match_id: str, state: State[Any], moves: Sequence[tuple[int, int, str]]
    ) -> list[LogEntry]:
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

    def _remember(self, live: LiveMatch) -> None:
        self._live[live.id] = live
        self._live.move_to_end(live.id)
        while len(self._live) > self.settings.cache_size:
            for old_id, old in self._live.items():
                busy = (sum(old.connections.values()) > 0 or old_id in self._bot_tasks
                        or old.lock.locked() or old is live)
                if not busy:
                    del self._live[old_id]
                    break
            else:
                return

    async def _catch_up(self, live: LiveMatch) -> None:
        """Apply moves (and the pause flag, and the deadline) stored by another process. Hold
        the lock."""
        paused, deadline, moves = await self._db(self._status_sync, live.id,
                                                 live.state.move_number)
        live.paused = paused
        if moves:  # replay on a copy, so that views rendered meanwhile stay consistent
            state = live.state.clone()
            entries = await asyncio.to_thread(self._replay, live.id, state, moves)
            live.state = state
            live.log.extend(entries)
        live.deadline = deadline
        self.scheduler.set(live.id, live.state.move_number, deadline)

    def _status_sync(
        self, match_id: str, known: int
    ) -> tuple[bool, datetime | None, list[tuple[int, int, str]]]:
        with self._sessions() as session:
            row = session.execute(
                select(MatchRow.paused, MatchRow.move_count, MatchRow.deadline)
                .where(MatchRow.id == match_id)
            ).one()
            moves: list[tuple[int, int, str]] = []
            if row.move_count > known:
                moves = [(m.number, m.seat, m.action) for m in session.execute(
                    select(MoveRow).where(MoveRow.match_id == match_id,
                                          MoveRow.number >= known).order_by(MoveRow.number)
                ).scalars()]
            deadline = None if row.deadline is None else _aware(row.deadline)
            return bool(row.paused), deadline, moves

    async def catch_up(self, match_id: str) -> None:
        """Bring the cached match up to date with the database (after another process's
        update)."""
        live = self._live.get(match_id)
        if live is not None:
            async with live.lock:
                await self._catch_up(live)

    # --- seats and tokens ----------------------------------------------------------------------
    @staticmethod
    def authenticate(
        live: LiveMatch, token: str | None, seat: int | None = None, required: bool = True
    ) -> int | None:
        """The seat ``token`` opens (``None`` for no token when not ``required``).

        ``seat``, when given, must be the token's seat.
        """
        if not token:
            if required:
                raise ServerError("missing_token", "this needs a seat token (header "
                                  "X-Seat-Token, or 'token' in the websocket hello)")
            if seat is not None:
                raise ServerError("missing_token", f"seat {seat} needs its token")
            return None
        found = live.seat_for_hash(hash_token(token))
        if found is None:
            raise ServerError("wrong_token", f"this token opens no seat of match {live.id!r}")
        if seat is not None and seat != found:
            raise ServerError("wrong_token", f"this token is not seat {seat}'s")
        return found

    # --- views ----------------------------------------------------------------------------------
    async def view(
        self, match_id: str, token: str | None, log_limit: int | None = None
    ) -> dict[str, Any]:
        """The view of the token's seat, or the public view without a token."""
        live = await self.live(match_id, fresh=True)
        seat = self.authenticate(live, token, required=False)
        return render_view(live, seat, log_limit=log_limit)

    # --- actions --------------------------------------------------------------------------------
    async def act(self, match_id: str, token: str | None, text: str, move: int) -> LiveMatch:
        """Check, store and apply a human's action; returns the match after it.

        An action that arrives once the turn's deadline has passed is refused with
        ``time_up``, after recording the time-out that was due (as the scheduler would have a
        moment later). The action's arrival time is what counts, not when the match's lock is
        free.
        """
        arrived = self._now()
        live = await self.live(match_id)
        seat = self.authenticate(live, token)
        assert seat is not None
        missed: datetime | None = None
        async with live.lock:
            await self._catch_up(live)
            state = live.state
            if state.is_terminal():
                raise ServerError("game_over", "the game is over")
            if move != state.move_number:
                raise ServerError("stale_move", f"you saw move {move}; the game is at move "
                                  f"{state.move_number}")
            if state.current_player != seat:
                raise ServerError("not_your_turn", f"it is seat {state.current_player}'s "
                                  f"turn, not seat {seat}'s")
            if live.deadline is not None and arrived >= live.deadline:
                missed = live.deadline
                await self._advance(live, seat, None)
            else:
                with _refusals():
                    action = state.parse_action(text)
                if self._is_time_out(live, action):
                    raise ServerError("reserved_action", f"{text.strip()!r} is the time-out: "
                                      "the server records it when a turn's time runs out, and "
                                      "no player may send it")
                await self._advance(live, seat, action)
        self._schedule_bots(live)
        if missed is not None:
            raise ServerError("time_up", f"the time for move {move} ran out at "
                              f"{iso_utc(missed)}: seat {seat} missed the turn")
        return live

    def _is_time_out(self, live: LiveMatch, action: Any) -> bool:
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

    def _deadline_for(self, live: LiveMatch, state: State[Any], now: datetime) -> datetime | None:
        """When a turn starting ``now`` in ``state`` times out: ``None`` in an untimed game,
        once the game is over, and while a computer is to move (computers are never timed:
        they move in seconds, and a paused computer must wait for the resume)."""
        limit = turn_time_limit(live.game, state)
        seat = None if state.is_terminal() else state.current_player
        if limit is None or seat is None or live.seats[seat].is_bot:
            return None
        return now + timedelta(seconds=limit)

    async def _advance(self, live: LiveMatch, seat: int, action: Any | None) -> None:
        """Store ``action`` (legal, by ``seat``, for the current state), apply it, announce it.
        ``None`` records the time-out (``state.time_out()``) of ``seat`` instead.

        The next turn's deadline is computed and stored with the move. Once started this runs
        to the end even if the caller is cancelled (a websocket that closes mid-move), so that
        memory never falls behind a move the database holds.
        """
        number = live.state.move_number
        new_state = live.state.clone()
        if action is None:
            time_out = time_out_of(new_state)
            assert time_out is not None
            events: list[Event] = time_out()
            notation = str(new_state.history[-1])
        else:
            events = new_state.apply(action)
            notation = str(action)

        async def commit() -> None:
            now = self._now()
            deadline = self._deadline_for(live, new_state, now)
            try:
                await self._db(self._store_move_sync, live.id, number, seat, notation,
                               new_state, now, deadline)
            except _Conflict:
                await self._catch_up(live)
                raise ServerError("stale_move", f"move {number} was just played elsewhere; "
                                  f"the game is at move {live.state.move_number}") from None
            live.state = new_state
            live.deadline = deadline
            live.log.append(LogEntry(number, seat, notation, tuple(events)))
            self.scheduler.set(live.id, number + 1, deadline)
            await self._announce(live, "move" if action is not None else "timeout")

        await asyncio.shield(asyncio.ensure_future(commit()))

    def _store_move_sync(
        self, match_id: str, number: int, seat: int, action: str, after: State[Any],
        now: datetime, deadline: datetime | None,
    ) -> None:
        finished = after.is_terminal()
        try:
            with self._sessions.begin() as session:
                done = session.execute(
                    update(MatchRow)
                    .where(MatchRow.id == match_id, MatchRow.move_count == number)
                    .values(move_count=number + 1,
                            to_move=None if finished else after.current_player,
                            status="finished" if finished else "active",
                            result=after.result().to_json() if finished else None,
                            finished_at=now if finished else None, updated_at=now,
                            deadline=deadline)
                )
                if getattr(done, "rowcount", 1) != 1:
                    raise _Conflict
                session.add(MoveRow(match_id=match_id, number=number, seat=seat, action=action,
                                    created_at=now))
        except IntegrityError:
            raise _Conflict from None

    # --- time-outs --------------------------------------------------------------------------------
    async def time_out(self, match_id: str, move: int) -> bool:
        """Record the time-out of the turn at ``move``, if it is still that turn and its
        deadline (as the database has it) has passed; returns whether it was recorded.

        The scheduler calls this. A move stored first (here or by another process) makes it do
        nothing: the match's lock orders the two, and ``move`` must still be the move number.
        """
        live = await self.live(match_id)
        async with live.lock:
            await self._catch_up(live)
            deadline, seat = live.deadline, live.to_move
            if (seat is None or live.state.move_number != move or deadline is None
                    or self._now() < deadline):
                return False
            try:
                await self._advance(live, seat, None)
            except ServerError:  # another process stored this move first
                return False
        log.info("match %s: seat %d ran out of time at move %d", match_id, seat, move)
        self._schedule_bots(live)
        return True

    async def _pending_deadlines(self) -> list[Pending]:
        return await self._db(self._pending_deadlines_sync)

    def _pending_deadlines_sync(self) -> list[Pending]:
        with self._sessions() as session:
            rows = session.execute(
                select(MatchRow.id, MatchRow.move_count, MatchRow.deadline)
                .where(MatchRow.status == "active", MatchRow.deadline.is_not(None))
            ).all()
            return [(row.id, row.move_count, _aware(row.deadline)) for row in rows]

    async def _start_missing_clocks(self) -> None:
        """Give a deadline to every timed match whose human turn has none (a match created
        before the server kept deadlines): its clock starts now."""
        started = 0
        try:
            ids = await self._db(self._clockless_sync)
        except Exception:
            log.exception("cannot look for timed matches without a deadline")
            return
        for match_id in ids:
            try:
                live = await self.live(match_id)
                async with live.lock:
                    await self._catch_up(live)
                    number = live.state.move_number
                    deadline = self._deadline_for(live, live.state, self._now())
                    if live.deadline is not None or deadline is None:
                        continue
                    if not await self._db(self._set_deadline_sync, live.id, number, deadline):
                        continue
                    live.deadline = deadline
                    self.scheduler.set(live.id, number, deadline)
                await self._announce(live, "clock")
                started += 1
            except Exception:
                log.exception("cannot start the clock of match %s", match_id)
        if started:
            log.info("started the turn clock of %d timed matches", started)

    def _clockless_sync(self) -> list[str]:
        with self._sessions() as session:
            rows = session.execute(
                select(MatchRow.id, MatchRow.options)
                .join(SeatRow, (SeatRow.match_id == MatchRow.id)
                      & (SeatRow.seat == MatchRow.to_move))
                .where(MatchRow.status == "active", MatchRow.deadline.is_(None),
                       SeatRow.kind == "human")
            ).all()
            out = []
            for row in rows:
                limit = row.options.get("time_limit") if isinstance(row.options, dict) else None
                if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
                    out.append(row.id)
            return out

    def _set_deadline_sync(self, match_id: str, number: int, deadline: datetime) -> bool:
        with self._sessions.begin() as session:
            done = session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.move_count == number,
                       MatchRow.deadline.is_(None))
                .values(deadline=deadline)
            )
            return bool(getattr(done, "rowcount", 1) == 1)

    # --- previews -------------------------------------------------------------------------------
    async def preview(
        self, match_id: str, token: str | None, text: str, move: int | None = None,
        fresh: bool = True,
    ) -> tuple[int, dict[str, Any]]:
        """What the token's seat would score with the tentative action ``text``, as the
        engine's ``state.preview(text)`` explains it; and the move number it is for.

        Only for the seat to move, only in games whose state has ``preview`` (else
        ``not_supported``). Nothing changes and nothing is stored. ``move``, when given, must
        be the current move number. ``fresh`` first applies moves another process stored.
        """
        live = await self.live(match_id, fresh=fresh)
        seat = self.authenticate(live, token)
        state = live.state  # states are replaced, never changed in place: no lock needed
        preview = preview_of(state)
        if preview is None:
            raise ServerError("not_supported", f"{live.title} has no score preview")
        if state.is_terminal():
            raise ServerError("game_over", "the game is over")
        if move is not None and move != state.move_number:
            raise ServerError("stale_move", f"you saw move {move}; the game is at move "
                              f"{state.move_number}")
        if state.current_player != seat:
            raise ServerError("not_your_turn", f"it is seat {state.current_player}'s turn, not "
                              f"seat {seat}'s: a preview is for the seat to move")
        with _refusals():
            result = preview(text)
        to_json = getattr(result, "to_json", None)
        data = to_json() if callable(to_json) else jsonable(result)
        if not isinstance(data, dict):
            data = {"value": data}
        return state.move_number, data

    # --- hints and reviews ----------------------------------------------------------------------
    async def _once(
        self, key: tuple[Any, ...], compute: Callable[[], Coroutine[Any, Any, dict[str, Any]]]
    ) -> dict[str, Any]:
        """``compute()``, shared by every request for ``key`` while it runs."""
        running = self._thinking.get(key)
        if running is None:
            running = asyncio.ensure_future(compute())
            self._thinking[key] = running
            running.add_done_callback(lambda _f: self._thinking.pop(key, None))
        return await asyncio.shield(running)

    @staticmethod
    def _keep(cache: OrderedDict[Any, dict[str, Any]], key: Any, value: dict[str, Any],
              size: int) -> None:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > max(1, size):
            cache.popitem(last=False)

    async def hint(
        self, match_id: str, token: str | None, move: int | None = None
    ) -> dict[str, Any]:
        """The veteran's suggested move for the token's seat, which must be the seat to move:
        ``{"move": n, "hint": {notation, kind, description, fields}}``.

        It is computed in the worker pool from ``state.observation(seat)`` alone, within
        ``Settings.hint_budget`` seconds. Nothing is played or stored; asking again at the same
        move gives the same answer at once. ``move``, when given, must be the current move.
        """
        live = await self.live(match_id, fresh=True)
        seat = self.authenticate(live, token)
        assert seat is not None
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
        cached = self._hints.get(key)
        if cached is not None:
            return cached

        async def compute() -> dict[str, Any]:
            observation = state.observation(seat)
            rng = random.Random(fresh_seed())
            try:
                notation = await self.bots.hint(live.spec, observation,
                                                self.settings.hint_budget, rng,
                                                live.memory_of(seat))
                action = state.parse_action(notation)
            except Exception:
                log.exception("match %s: no hint for seat %d at move %d", live.id, seat,
                              number)
                raise ServerError("server_error", "the veteran could not find a hint") from None
            answer = {"move": number, "hint": action_json(state, action)}
            self._keep(self._hints, key, answer, self.settings.cache_size)
            return answer

        return await self._once(("hint", *key), compute)

    async def review(self, match_id: str, token: str | None) -> dict[str, Any]:
        """The veteran's review of a finished match: for the token's seat, that seat's
        decisions; without a token (a spectator), every seat's.

        Each seat's review runs in the worker pool (seats in parallel), with
        ``review_total / decisions`` seconds per decision, between ``review_floor`` and
        ``review_budget``; it is cached in memory, so asking again is instant.
        """
        live = await self.live(match_id, fresh=True)
        seat = self.authenticate(live, token, required=False)
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

    async def _seat_review(self, live: LiveMatch, seat: int) -> dict[str, Any]:
        """One seat's review, cached."""
        key = (live.id, seat)
        cached = self._reviews.get(key)
        if cached is not None:
            self._reviews.move_to_end(key)
            return cached

        async def compute() -> dict[str, Any]:
            settings = self.settings
            players = [PlayerInfo(s.name, s.kind) for s in live.seats]
            record = Record.from_state(live.state, players)
            decisions = await asyncio.to_thread(_decisions, record, seat)
            budget = min(settings.review_budget,
                         max(settings.review_floor, settings.review_total / max(1, decisions)))
            started = time.perf_counter()
            notes = await self.bots.review(record.to_json(), seat, budget)
            moves = await asyncio.to_thread(_annotate, record, notes)
            elapsed = time.perf_counter() - started
            log.info("match %s: reviewed seat %d, %d decisions at %.2f s, in %.1f s", live.id,
                     seat, decisions, budget, elapsed)
            part = {"seat": seat, "decisions": decisions, "budget": round(budget, 3),
                    "points_lost": round(sum(m["points_lost"] for m in moves), 2),
                    "moves": moves}
            self._keep(self._reviews, key, part, settings.review_cache)
            return part

        return await self._once(("review", *key), compute)

    async def _announce(self, live: LiveMatch, reason: str) -> None:
        message: Message = {"type": "changed", "match": live.id, "reason": reason,
                            "move": live.state.move_number, "origin": self.instance}
        await self.pubsub.publish(match_channel(live.id), message)

    # --- pause ---------------------------------------------------------------------------------
    async def set_paused(self, match_id: str, token: str | None, paused: bool) -> LiveMatch:
        """Pause or resume the computer players (any seat holder may)."""
        live = await self.live(match_id)
        self.authenticate(live, token)
        async with live.lock:
            await self._catch_up(live)
            if live.finished:
                raise ServerError("game_over", "the game is over")
            if live.paused != paused:
                await self._db(self._set_paused_sync, live.id, paused)
                live.paused = paused
        await self._announce(live, "pause")
        self._schedule_bots(live)
        return live

    def _set_paused_sync(self, match_id: str, paused: bool) -> None:
        with self._sessions.begin() as session:
            session.execute(update(MatchRow).where(MatchRow.id == match_id)
                            .values(paused=paused, updated_at=self._now()))

    # --- presence ------------------------------------------------------------------------------
    async def connect(self, live: LiveMatch, seat: int | None) -> None:
        """Count a websocket of ``seat`` (``None``: a spectator) and tell the others."""
        live.connections[seat] += 1
        if seat is not None and live.connections[seat] == 1:
            await self._announce(live, "presence")

    async def disconnect(self, live: LiveMatch, seat: int | None) -> None:
        """Forget a websocket of ``seat``."""
        live.connections[seat] -= 1
        if live.connections[seat] <= 0:
            del live.connections[seat]
            if seat is not None:
                await self._announce(live, "presence")

    # --- computer players ------------------------------------------------------------------------
    @staticmethod
    def _bot_to_move(live: LiveMatch) -> int | None:
        seat = live.to_move
        if seat is None or live.paused or not live.seats[seat].is_bot:
            return None
        return seat

    def _schedule_bots(self, live: LiveMatch) -> None:
        task = self._bot_tasks.get(live.id)
        if (task is not None and not task.done()) or self._bot_to_move(live) is None:
            return
        task = asyncio.get_running_loop().create_task(self._run_bots(live.id))
        self._bot_tasks[live.id] = task

        def forget(done: asyncio.Task[None]) -> None:
            if self._bot_tasks.get(live.id) is done:
                del self._bot_tasks[live.id]

        task.add_done_callback(forget)

    async def _run_bots(self, match_id: str) -> None:
        """Play the computer seats of a match for as long as one of them is to move."""
        try:
            while True:
                live = await self.live(match_id)
                seat = self._bot_to_move(live)
                if seat is None:
                    return
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                if self._bot_to_move(live) != seat:
                    continue
                await self._bot_move(live, seat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer players of match %s stopped", match_id)

    async def _bot_move(self, live: LiveMatch, seat: int) -> None:
        number = live.state.move_number
        level, think = live.seats[seat].kind, live.seats[seat].think
        observation = live.state.observation(seat)
        rng = derive(live.seed, "bot", seat, number)
        try:
            memory = live.memory_of(seat) if level == "veteran" else None
            notation: str | None = await self.bots.choose(level, live.spec, observation, rng,
                                                          think, memory)
        except Exception:
            log.exception("match %s: the %s player of seat %d failed at move %d", live.id,
                          level, seat, number)
            notation = None
        async with live.lock:
            await self._catch_up(live)
            if live.paused or live.state.move_number != number or live.finished:
                return
            action = None
            if notation is not None:
                try:
                    action = live.state.parse_action(notation)
                except TriverseError as exc:
                    log.error("match %s: the %s player of seat %d chose %r: %s", live.id,
                              level, seat, notation, exc)
            if action is not None and self._is_time_out(live, action):
                log.error("match %s: the %s player of seat %d chose the time-out", live.id,
                          level, seat)
                action = None
            if action is None:  # never stall a game: any legal action of the seat
                action = derive(live.seed, "fallback", seat, number).choice(
                    live.state.legal_action_list())
            try:
                await self._advance(live, seat, action)
            except ServerError:  # another process played it first
                return

    # --- finished games --------------------------------------------------------------------------
    async def record(self, match_id: str) -> dict[str, Any]:
        """The record of a finished match (``not_finished`` before the end)."""
        live = await self.live(match_id, fresh=True)
        if not live.finished:
            raise ServerError("not_finished", "the record is available when the game is over "
                              f"(it is at move {live.state.move_number})")
        players = [PlayerInfo(s.name, s.kind) for s in live.seats]
        meta = {"match_id": live.id, "mode": live.mode,
                "created": live.created_at.isoformat(timespec="seconds")}
        return Record.from_state(live.state, players, meta).to_json()

    async def replay_view(
        self, match_id: str, move: int, log_limit: int | None = None
    ) -> tuple[int, dict[str, Any]]:
        """The public view after ``move`` actions of a finished match, and the total."""
        live = await self.live(match_id, fresh=True)
        if not live.finished:
            raise ServerError("not_finished", "a game can be replayed when it is over")
        total = live.state.move_number
        if not 0 <= move <= total:
            raise ServerError("bad_request", f"move is from 0 to {total}, not {move}")

        def build() -> dict[str, Any]:
            state: State[Any] = live.game.new_initial_state(seed=live.seed)
            for entry in live.log[:move]:
                state.apply_notation(entry.action)
            return render_view(live, None, state, live.log[:move], log_limit)

        return total, await asyncio.to_thread(build)

    # --- my games ---------------------------------------------------------------------------------
    async def my_games(self, tokens: Sequence[str]) -> list[dict[str, Any]]:
        """The matches the given tokens open a seat of, most recently active first."""
        by_hash = {hash_token(t): t for t in tokens if t}
        if not by_hash:
            return []
        return await self._db(self._my_games_sync, by_hash)

    def _my_games_sync(self, by_hash: Mapping[str, str]) -> list[dict[str, Any]]:
        with self._sessions() as session:
            mine = session.execute(
                select(SeatRow, MatchRow).join(MatchRow, MatchRow.id == SeatRow.match_id)
                .where(SeatRow.token_hash.in_(list(by_hash)))
                .order_by(MatchRow.updated_at.desc(), MatchRow.id, SeatRow.seat)
            ).all()
            ids = sorted({match.id for _, match in mine})
            everyone: dict[str, list[SeatRow]] = {}
            if ids:
                for s in session.execute(select(SeatRow).where(SeatRow.match_id.in_(ids))
                                         .order_by(SeatRow.seat)).scalars():
                    everyone.setdefault(s.match_id, []).append(s)
            out = []
            for seat, match in mine:
                assert seat.token_hash is not None
                finished = match.status == "finished"
                entry = self.games.get(match.game)
                out.append({
                    "match_id": match.id,
                    "game": match.game,
                    "title": entry.title if entry else match.game,
                    "mode": match.mode,
                    "seat": seat.seat,
                    "name": seat.name,
                    "link": seat_link(match.id, seat.seat, by_hash[seat.token_hash]),
                    "players": [{"seat": s.seat, "name": s.name, "kind": s.kind,
                                 "think": s.think} for s in everyone.get(match.id, [])],
                    "move": match.move_count,
                    "to_move": match.to_move,
                    "your_turn": not finished and match.to_move == seat.seat,
                    "paused": match.paused,
                    "finished": finished,
                    "result": match.result,
                    "deadline": (None if finished or match.deadline is None
                                 else iso_utc(match.deadline)),
                    "created_at": _aware(match.created_at).isoformat(timespec="seconds"),
                    "updated_at": _aware(match.updated_at).isoformat(timespec="seconds"),
                })
            return out



@contextmanager
def _refusals() -> Iterator[None]:
    """The engine's refusals of an action as the protocol's errors (``game_over``,
    ``bad_notation``, ``illegal_action``)."""
    try:
        yield
    except GameOverError as exc:
        raise ServerError("game_over", str(exc)) from None
    except NotationError as exc:
        raise ServerError("bad_notation", str(exc)) from None
    except IllegalActionError as exc:
        raise ServerError("illegal_action", str(exc)) from None


def _decisions(record: Record, seat: int) -> int:
    """How many real decisions (two legal actions or more) ``seat`` made in ``record``."""
    state = record.initial_state()
    count = 0
    for text in record.actions:
        if state.current_player == seat and len(state.legal_action_list()) > 1:
            count += 1
        state.apply_notation(text)
    return count


def _annotate(record: Record, notes: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
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
