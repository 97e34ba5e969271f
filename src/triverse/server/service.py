"""The match service: the server's parts put together, behind the methods the routes call.

Each responsibility lives in a part of its own, testable alone:

- :class:`~triverse.server.repository.MatchRepository`: every SQL statement (SQLAlchemy);
- :class:`~triverse.server.matches.LiveMatches`: matches replayed and cached, through a
  :class:`~triverse.server.matches.MatchCache` (its lock orders the changes of a match);
- :mod:`triverse.server.seats`: seats, tokens and their checks;
- :class:`~triverse.server.play.Referee`: creating matches and applying moves, pauses and
  time-outs as the rules allow;
- :class:`~triverse.server.clocks.TurnClocks`: turn deadlines and the deadline scheduler;
- :class:`~triverse.server.computers.ComputerPlayers`: the computer seats' tasks;
- :class:`~triverse.server.advisors.Advisors`: hints and reviews in the worker pool;
- :class:`~triverse.server.pubsub.MatchNews`: the changes announced on the
  :class:`~triverse.server.pubsub.PubSub`;
- :class:`~triverse.server.lobby.OpenGames`: open games (joined, withdrawn) and the lobby's
  list, kept live on its websockets by a :class:`~triverse.server.lobby.LobbyFeed`;
- :mod:`triverse.server.jobs`: claims that let exactly one process play a computer's turn or
  record a time-out, when several processes share the database.
- :class:`~triverse.server.push.Push`: Web Push, "your move" queued after a move (a listener
  of the referee's) and sent by its :class:`~triverse.server.push.PushSender`.
- :class:`~triverse.server.contests.Contests`: contests, their sign-up, draw and boards (a
  listener of the referee's), kept live on their websockets.

:class:`MatchService` wires them and adds only what spans parts: after a move, a pause or a
time-out the computer players are told; a seat's websocket counts as presence.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any

from triverse.server.accounts import Account, Accounts, LoggedIn
from triverse.server.advisors import Advisors, advice_store
from triverse.server.bots import BotPool
from triverse.server.catalog import GameCatalog, GameEntry
from triverse.server.clock import Clock, SystemClock
from triverse.server.clocks import TurnClocks
from triverse.server.computers import ComputerPlayers
from triverse.server.config import Settings
from triverse.server.contest_board import BoardMaker
from triverse.server.contest_store import ContestStore
from triverse.server.contests import Contests
from triverse.server.db import hash_token
from triverse.server.deadlines import DeadlineScheduler
from triverse.server.errors import ServerError
from triverse.server.finished import record_json, replay_view
from triverse.server.jobs import Jobs, give_up, jobs_for
from triverse.server.live import LiveMatch
from triverse.server.lobby import Joined, LobbyFeed, OpenGames
from triverse.server.matches import LiveMatches, LocalMatchCache, MatchCache
from triverse.server.metrics import ServerMetrics
from triverse.server.play import CreatedMatch, Referee, check_started
from triverse.server.presence import LocalPresence, Presence, RedisPresence
from triverse.server.pubsub import MatchNews, Message, PubSub
from triverse.server.push import Push
from triverse.server.quotas import Quotas
from triverse.server.ratings import Ratings
from triverse.server.repository import ClaimedSeat, KeyedSeat, MatchRepository
from triverse.server.seats import (
    MODES,
    THINK_RANGE,
    THINKING_LEVELS,
    SeatRequest,
    device_key,
    my_game_json,
    seat_link,
    spectator_link,
)
from triverse.server.views import render_view

log = logging.getLogger(__name__)

ACCOUNT_GAMES = 200
"""The most seats ``GET /api/account/games`` lists (the oldest finished ones are left out
first)."""
CLAIM_MAX = 100
"""The most seat tokens one claim may name."""

__all__ = [
    "MODES",
    "THINKING_LEVELS",
    "THINK_RANGE",
    "CreatedMatch",
    "GameEntry",
    "MatchService",
    "SeatRequest",
    "seat_link",
    "spectator_link",
]


class MatchService:
    """The server's parts, composed (see the module).

    ``clock`` is the time source of every date the service stores (default: the system clock;
    tests pass a :class:`~triverse.server.clock.ManualClock`). ``cache`` is where replayed
    matches are kept (default: a :class:`~triverse.server.matches.LocalMatchCache` of
    ``settings.cache_size``).
    """

    def __init__(
        self, settings: Settings, pubsub: PubSub, bots: BotPool, clock: Clock | None = None,
        cache: MatchCache | None = None,
    ) -> None:
        self.settings = settings
        self.pubsub = pubsub
        self.bots = bots
        self.clock: Clock = SystemClock() if clock is None else clock
        self.news = MatchNews(pubsub)
        self.catalog = GameCatalog()
        self.repository = MatchRepository(settings.db_url)
        self.jobs: Jobs = jobs_for(settings.db_url, settings.clustered,
                                   f"triverse jobs, {self.news.origin[:12]}")
        """Claims on work that one process does (a computer's turn, a time-out)."""
        self.presence: Presence = (
            LocalPresence() if settings.redis_url is None
            else RedisPresence(settings.redis_url, self.news.origin, settings.redis_prefix))
        """The seats connected to other processes."""
        # Among several processes, deadlines another one set are read every job_poll seconds.
        poll = (min(settings.deadline_poll, settings.job_poll) if settings.clustered
                else settings.deadline_poll)
        self.clocks = TurnClocks(self.clock, self.repository, self.time_out, poll)
        if cache is None:
            cache = LocalMatchCache(settings.cache_size,
                                    lambda live: self.computers.busy(live.id))
        self.matches = LiveMatches(self.repository, self.catalog, cache, self.clocks.seen)
        self.referee = Referee(settings, self.catalog, self.repository, self.matches,
                               self.clocks, self.news)
        self.accounts = Accounts(self.repository.engine, self.clock, self.repository.run,
                                 self._keys_ended)
        """Players' accounts and sessions (:mod:`triverse.server.accounts`)."""
        self.ratings = Ratings(self.repository.engine, self.clock, self.catalog,
                               self.repository.run)
        """Rated matches, leaderboards and profiles (:mod:`triverse.server.ratings`)."""
        self.referee.after_move.append(self.ratings.match_ended)
        self.push = Push(settings, self.repository.engine, self.clock, self.repository.run)
        """Web Push: the VAPID key, subscriptions, "your move" notifications and their
        sender (:mod:`triverse.server.push`)."""
        self.referee.after_move.append(self.push.after_move)
        self.metrics = ServerMetrics()
        """Moves, latencies and errors, for ``/metrics`` and the moves' log events."""
        self.computers = ComputerPlayers(settings, bots, self.matches, self.referee,
                                         self.clocks, self.repository, self.metrics, self.jobs)
        self.advisors = Advisors(settings, bots, self.jobs, advice_store(settings))
        self.quotas = Quotas(settings, self.computers.busy, self.computers.count)
        self.open = OpenGames(self.catalog, self.repository, self.matches, self.clocks,
                              self.news, pubsub, self.referee.seat_of)
        """Open games: joining, withdrawing, the lobby's list (:mod:`triverse.server.lobby`)."""
        self.lobby_feed = LobbyFeed(pubsub, self.open.games)
        """The lobby websockets of this process, and their subscription."""
        contest_store = ContestStore(self.repository.engine, self.repository.run)
        self.contests = Contests(settings, self.clock, self.catalog, contest_store, BoardMaker(
            self.catalog, contest_store, self.referee, self.matches, self.clocks, self.jobs,
            self.seats_changed, self.computers.schedule), self.jobs, pubsub)
        """Contests: sign-up, the draw, boards, host actions, their websockets
        (:mod:`triverse.server.contests`)."""
        self.referee.after_move.append(self.contests.after_move)
        self._admitting = asyncio.Lock()
        self._background: set[asyncio.Task[None]] = set()

    @property
    def instance(self) -> str:
        """Names this process in pub/sub messages, to tell its own from other processes'."""
        return self.news.origin

    @property
    def scheduler(self) -> DeadlineScheduler:
        """Fires the time-outs of every timed match (see :mod:`triverse.server.deadlines`)."""
        return self.clocks.scheduler

    @property
    def games(self) -> dict[str, GameEntry]:
        """Every game the server knows, by name, in the lobby's order."""
        return self.catalog.games

    def entry(self, name: str) -> GameEntry:
        """The game called ``name``, or ``unknown_game``."""
        return self.catalog.entry(name)

    # --- life cycle ------------------------------------------------------------------------------
    def migrate(self) -> None:
        """Create or upgrade the tables (blocking; called once at start-up)."""
        self.repository.migrate()

    async def start(self) -> None:
        """Resume, in the background, every match where a computer player is to move (and,
        among several processes, look again every ``job_poll`` seconds); start the deadline
        scheduler (which first restores the pending deadlines, applying those that passed
        while the server was down) and the clocks of timed matches that lack one; rate the
        rated matches that ended unrated (:meth:`Ratings.rate_missed
        <triverse.server.ratings.Ratings.rate_missed>`); read (or make) the VAPID key and start
        the push sender; start the contests' scheduler (closes of sign-up)."""
        await self.presence.start(self._presence_gone)
        self._spawn(self._resume())
        if self.settings.clustered:
            self._spawn(self.computers.sweep(self.settings.job_poll))
        self.clocks.start()
        self._spawn(self.clocks.start_missing(self.matches, self.news))
        self._spawn(self._rate_missed())
        await self.push.start()
        await self.contests.start()

    async def _resume(self) -> None:
        try:
            started = await self.computers.resume()
        except Exception:
            log.exception("cannot resume the matches with a computer player to move")
            return
        if started:
            log.info("resumed %d matches with a computer player to move", started)

    async def _rate_missed(self) -> None:
        try:
            rated = await self.ratings.rate_missed()
        except Exception:
            log.exception("cannot rate the finished rated matches left unrated")
            return
        if rated:
            log.info("rated %d finished matches left unrated", rated)

    async def close(self) -> None:
        """Stop the deadline scheduler, the computer players and the push sender, give up the
        claims, and close the database."""
        await self.clocks.close()
        await self.contests.close()
        await self.lobby_feed.close()
        for task in self._background:
            task.cancel()
        await asyncio.gather(self.computers.close(), *self._background,
                             return_exceptions=True)
        await self.push.close()
        await self.jobs.close()
        await self.advisors.close()
        await self.presence.close()
        self.repository.close()

    def _spawn(self, coro: Coroutine[Any, Any, object]) -> None:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # --- matches ---------------------------------------------------------------------------------
    async def create(
        self, game_name: str, options: Mapping[str, object], seats: Sequence[SeatRequest],
        mode: str, seed: int | None = None, client: str = "local",
        account: Account | None = None, rated: bool = False, pace: str | None = None,
    ) -> CreatedMatch:
        """Check and store a new match; start its computer players if one is to move.

        A match with a computer seat is first admitted by the computer quota
        (:class:`~triverse.server.quotas.ComputerQuota`) for ``client``, its address."""
        kinds = [seat.kind for seat in seats]
        if all(kind == "human" for kind in kinds):
            created = await self.referee.create(game_name, options, seats, mode, seed,
                                                account, rated, pace)
        else:
            async with self._admitting:  # admitted, created and counted before the next one
                self.quotas.computers.admit(client, kinds)
                created = await self.referee.create(game_name, options, seats, mode, seed,
                                                    account, rated, pace)
                self.computers.schedule(created.live)  # an open game's wait for its start
                self.quotas.computers.created(client, created.match_id, kinds)
        if created.live.free_seats:
            await self.open.announce("opened", created.match_id)
        return created

    async def join(
        self, match_id: str, seat: int | None = None, account: Account | None = None,
        name: str | None = None,
    ) -> Joined:
        """Take a free seat of an open game (:meth:`OpenGames.join`); the last one starts it,
        and its computers if one is to move."""
        joined = await self.open.join(match_id, seat, account, name)
        if joined.started:
            self.computers.schedule(joined.live)
        return joined

    async def withdraw(self, match_id: str, token: str | None) -> None:
        """Delete an open game nobody else joined (:meth:`OpenGames.withdraw`)."""
        await self.open.withdraw(match_id, token)

    async def live(self, match_id: str, fresh: bool = False) -> LiveMatch:
        """The match, replayed from the database if it is not in memory. With ``fresh``,
        moves stored by another process since are applied first."""
        return await self.matches.get(match_id, fresh)

    async def catch_up(self, match_id: str, message: Message | None = None) -> None:
        """Bring the cached match up to date after another process's update, which
        ``message`` told of (``None``, or a ``resync``: anything may have changed): the
        moves, pause and deadline from the database, and who is connected elsewhere."""
        message = {} if message is None else message
        reason = message.get("reason")
        live = await self.matches.refresh(match_id, MatchNews.news_key(message),
                                          read=reason not in ("presence", "keys"),
                                          seats=reason in (None, "resync", "seats"))
        if live is not None and reason in (None, "presence") and self.settings.clustered:
            live.elsewhere = await self.presence.elsewhere(match_id)

    async def open_seat(
        self, live: LiveMatch, token: str | None, seat: int | None = None,
        required: bool = True,
    ) -> KeyedSeat | None:
        """The seat ``token`` opens, its own token or a live session's device key, and when
        that key ends (:meth:`Referee.open_seat`)."""
        return await self.referee.open_seat(live, token, seat, required)

    async def seat_of(
        self, live: LiveMatch, token: str | None, seat: int | None = None,
        required: bool = True,
    ) -> int | None:
        """The seat number ``token`` opens (:meth:`Referee.seat_of`)."""
        return await self.referee.seat_of(live, token, seat, required)

    async def view(
        self, match_id: str, token: str | None, log_limit: int | None = None
    ) -> dict[str, Any]:
        """The view of the token's seat, or the public view without a token."""
        live = await self.matches.get(match_id, fresh=True)
        seat = await self.seat_of(live, token, required=False)
        return render_view(live, seat, log_limit=log_limit)

    async def my_games(self, tokens: Sequence[str]) -> list[dict[str, Any]]:
        """The matches the given tokens open a seat of, most recently active first."""
        by_hash = {hash_token(t): t for t in tokens if t}
        if not by_hash:
            return []
        out = []
        for held in await self.repository.held_seats(list(by_hash)):
            assert held.seat.token_hash is not None
            out.append(my_game_json(held, by_hash[held.seat.token_hash],
                                    self._title(held.match.game)))
        return out

    def _title(self, game: str) -> str:
        entry = self.catalog.get(game)
        return entry.title if entry else game

    # --- an account's seats ----------------------------------------------------------------------
    async def account_games(self, logged: LoggedIn, session_token: str) -> list[dict[str, Any]]:
        """The account's seats (:data:`ACCOUNT_GAMES` at most), its move first, then the
        other unfinished matches, then the finished ones, each most recently active first;
        each link holds a device key for the session whose cookie is ``session_token``
        (``not_logged_in`` if it ended meanwhile)."""
        held = await self.repository.account_seats(logged.account.id, ACCOUNT_GAMES)
        keys = [device_key(session_token, h.match.id, h.seat.seat) for h in held]
        kept = await self.repository.add_seat_keys(
            [(hash_token(key), h.match.id, h.seat.seat) for key, h in zip(keys, held,
                                                                          strict=True)],
            hash_token(session_token), self.clock.now())
        if not kept:
            raise ServerError("not_logged_in", "your session has ended")
        return [my_game_json(h, key, self._title(h.match.game))
                for key, h in zip(keys, held, strict=True)]

    async def claim(self, account: Account, tokens: Sequence[str]) -> list[ClaimedSeat]:
        """Give ``account`` the seats the guest ``tokens`` open that belong to no account
        (:meth:`MatchRepository.claim`; at most :data:`CLAIM_MAX` tokens); their matches'
        seats are read again, here and in every process."""
        if len(tokens) > CLAIM_MAX:
            raise ServerError("bad_request", f"a claim names at most {CLAIM_MAX} tokens")
        hashes = sorted({hash_token(token) for token in tokens if token})
        if not hashes:
            return []
        claimed = await self.repository.claim(account.id, account.name, hashes)
        await self.seats_changed(sorted({c.match_id for c in claimed if c.refused is None}))
        return claimed

    async def delete_account(self, logged: LoggedIn, password: str) -> None:
        """Delete the session's account (:meth:`Accounts.delete`): its seats become a deleted
        player's; the unfinished matches are told, and every cached one read again."""
        deleted = await self.accounts.delete(logged, password)
        await self.seats_changed(deleted.unfinished)
        await self.seats_changed(deleted.finished, announce=False)

    async def seats_changed(self, match_ids: Sequence[str], announce: bool = True) -> None:
        """The seats of ``match_ids`` changed in the database: read them again where this
        process caches the match and, with ``announce``, tell every process (news
        ``seats``)."""
        for match_id in match_ids:
            cached = self.matches.cache.get(match_id)
            if cached is not None:
                async with self.matches.cache.lock(cached):
                    cached.seats = await self.repository.seats(match_id)
            if announce:
                await self.news.changed(match_id, "seats",
                                        0 if cached is None else cached.state.move_number)

    async def _keys_ended(self, match_ids: Sequence[str]) -> None:
        """Device keys of ``match_ids`` ended with their session: the websockets they opened,
        in every process, check them again (news ``keys``)."""
        for match_id in match_ids:
            cached = self.matches.cache.get(match_id)
            await self.news.changed(match_id, "keys",
                                    0 if cached is None else cached.state.move_number)

    # --- play ------------------------------------------------------------------------------------
    async def act(self, match_id: str, token: str | None, text: str, move: int) -> LiveMatch:
        """Check, store and apply a human's action (:meth:`Referee.act`); returns the match."""
        started = self.metrics.start()
        try:
            live = await self.referee.act(match_id, token, text, move)
        except ServerError as exc:
            if exc.code == "time_up":  # the missed turn was recorded: a computer may be next
                live = await self.matches.get(match_id)
                self.metrics.moved(live, move, live.log[move].seat, "timeout", started)
                self.computers.schedule(live)
            raise
        self.metrics.moved(live, move, live.log[move].seat, "human", started)
        self.computers.schedule(live)
        return live

    async def set_paused(self, match_id: str, token: str | None, paused: bool) -> LiveMatch:
        """Pause or resume the computer players (any seat holder may)."""
        live = await self.referee.set_paused(match_id, token, paused)
        self.computers.schedule(live)
        return live

    async def time_out(self, match_id: str, move: int) -> bool:
        """Record the time-out of the turn at ``move`` if it is still due
        (:meth:`Referee.time_out`; the scheduler calls this); whether it was recorded."""
        job = f"deadline:{match_id}:{move}"
        if not await self.jobs.claim(job):  # another process records it
            return False
        try:
            started = self.metrics.start()
            live = await self.referee.time_out(match_id, move)
        finally:
            await give_up(self.jobs, job)
        if live is None:
            return False
        self.metrics.moved(live, move, live.log[move].seat, "timeout", started)
        self.computers.schedule(live)
        return True

    async def preview(
        self, match_id: str, token: str | None, text: str, move: int | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """The score preview of a tentative action (:meth:`Referee.preview`)."""
        return await self.referee.preview(match_id, token, text, move)

    # --- presence --------------------------------------------------------------------------------
    async def connect(self, live: LiveMatch, seat: int | None) -> None:
        """Count a websocket of ``seat`` (``None``: a spectator) here and, among several
        processes, in the shared presence, and tell the others."""
        live.connections[seat] += 1
        if seat is not None:
            await self.presence.joined(live.id, seat)
        if self.settings.clustered:
            live.elsewhere = await self.presence.elsewhere(live.id)
        if seat is not None and live.connections[seat] == 1:
            await self.news.changed(live.id, "presence", live.state.move_number)

    async def disconnect(self, live: LiveMatch, seat: int | None) -> None:
        """Forget a websocket of ``seat``."""
        live.connections[seat] -= 1
        if seat is not None:
            await self.presence.left(live.id, seat)
        if live.connections[seat] <= 0:
            del live.connections[seat]
            if seat is not None:
                await self.news.changed(live.id, "presence", live.state.move_number)

    async def _presence_gone(self, match_id: str) -> None:
        """Sockets of a dead process no longer count on ``match_id``: tell its sockets, in
        every process (each reads the match's presence again)."""
        cached = self.matches.cache.get(match_id)
        await self.news.changed(match_id, "presence",
                                0 if cached is None else cached.state.move_number)

    # --- advice and finished games ---------------------------------------------------------------
    async def hint(
        self, match_id: str, token: str | None, move: int | None = None
    ) -> dict[str, Any]:
        """The veteran's suggested move for the token's seat (:meth:`Advisors.hint`)."""
        live = await self.matches.get(match_id, fresh=True)
        seat = await self.seat_of(live, token)
        assert seat is not None
        check_started(live)
        return await self.advisors.hint(live, seat, move)

    async def review(self, match_id: str, token: str | None) -> dict[str, Any]:
        """The veteran's review of a finished match, for the token's seat or, without a token,
        every seat (:meth:`Advisors.review`)."""
        live = await self.matches.get(match_id, fresh=True)
        seat = await self.seat_of(live, token, required=False)
        return await self.advisors.review(live, seat)

    async def record(self, match_id: str) -> dict[str, Any]:
        """The record of a finished match (``not_finished`` before the end)."""
        return record_json(await self.matches.get(match_id, fresh=True))

    async def replay_view(
        self, match_id: str, move: int, log_limit: int | None = None
    ) -> tuple[int, dict[str, Any]]:
        """The public view after ``move`` actions of a finished match, and the total."""
        return await replay_view(await self.matches.get(match_id, fresh=True), move, log_limit)
