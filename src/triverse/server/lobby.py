"""Open games: matches published in the lobby, whose free seats anyone may take.

A match created in mode ``open`` gives a token to its creator's seat only (the first human
seat); its other human seats are free: no token, no account
(:attr:`~triverse.server.live.LiveMatch.free_seats`), and its status is ``open``. While a seat
is free nobody moves: actions, previews, pauses and hints are refused with ``not_started``,
the computer seats wait and no turn clock runs. :meth:`OpenGames.join` gives a free seat a
fresh token (and the joiner's account, logged in); the last one starts the game: status
``active``, the first turn's deadline, the computers. :meth:`OpenGames.withdraw` deletes an
open game nobody else has joined.

The lobby's list (:meth:`OpenGames.games`) is read from the database. Every change of it
(opened, joined, started, withdrawn) is published on the pub/sub channel
:data:`LOBBY_CHANNEL`, which every server process hears (over Redis among several); each
process's :class:`LobbyFeed` then reads the list again, once for however many changes came
close together, and sends it to its lobby websockets (``/ws/lobby``). The messages carry no
game content, only "look again".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from triverse.server.accounts import Account
from triverse.server.catalog import GameCatalog
from triverse.server.clocks import TurnClocks
from triverse.server.db import hash_token
from triverse.server.errors import ServerError
from triverse.server.fanout import dumps
from triverse.server.live import LiveMatch, is_free
from triverse.server.lobby_store import LobbyStore, OpenGame, SeatRefused
from triverse.server.matches import LiveMatches
from triverse.server.pubsub import MatchNews, PubSub
from triverse.server.repository import MatchRepository, aware
from triverse.server.seats import new_token

log = logging.getLogger(__name__)

LOBBY_CHANNEL = "lobby"
"""The pub/sub channel of the lobby's changes."""
LOBBY_MAX = 100
"""The most open games the lobby lists (the newest)."""
COALESCE = 0.2
"""Seconds a :class:`LobbyFeed` waits after reading the list before it reads it again: the
changes of a burst cost one read a process."""
RETRY = 2.0
"""Seconds a :class:`LobbyFeed` waits before it reads the list again after a failed read (the
database away)."""


SeatOf = Callable[[LiveMatch, str | None], Awaitable[int | None]]
"""Finds the seat a token opens in a match (``missing_token``, ``wrong_token`` otherwise)."""


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat of an open game just taken: its token (shown once) and whether the game
    started."""

    live: LiveMatch
    seat: int
    token: str
    started: bool


def time_limit_of(options: dict[str, Any]) -> int | None:
    """The seconds per turn that a match's options give, ``None`` when untimed.

    >>> time_limit_of({"time_limit": 86400}), time_limit_of({"time_limit": 0}), time_limit_of({})
    (86400, None, None)
    """
    limit = options.get("time_limit")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
        return None
    return limit


def lobby_game_json(game: OpenGame, title: str) -> dict[str, Any]:
    """An open game as the lobby lists it (``docs/protocol.md``, "Open games")."""
    match, seats = game.match, game.seats
    options = dict(match.options or {})
    return {
        "match_id": match.id,
        "game": match.game,
        "title": title,
        "options": options,
        "players": match.num_players,
        "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "free": is_free(s),
                   "account": s.account_id is not None} for s in seats],
        "free": sum(1 for s in seats if is_free(s)),
        "waiting": [s.name for s in seats if s.kind == "human" and not is_free(s)],
        "pace": match.pace,
        "time_limit": time_limit_of(options),
        "rated": match.rated,
        "created_at": aware(match.created_at).isoformat(timespec="seconds"),
    }


REFUSALS = {
    "unknown": ("unknown_match", "there is no match {match}"),
    "not_open": ("not_open", "match {match} is not an open game waiting for players (it has "
                 "started, or was withdrawn)"),
    "no_seat": ("bad_seats", "seat {seat} is not a human seat of match {match}"),
    "taken": ("seat_taken", "seat {seat} of match {match} was taken by somebody else"),
    "same_account": ("bad_seats", "your account already has a seat in match {match}"),
    "joined": ("already_joined", "another player has joined match {match}: it can no longer "
               "be withdrawn"),
}
"""The protocol's error for each :class:`~triverse.server.repository.SeatRefused` reason."""


def refusal(exc: SeatRefused, match_id: str, seat: int | None = None) -> ServerError:
    """The error a refused join or withdrawal is answered with."""
    code, message = REFUSALS[exc.reason]
    return ServerError(code, message.format(match=repr(match_id), seat=seat))


class OpenGames:
    """Joining and withdrawing open games, and the lobby's list (see the module)."""

    def __init__(
        self, catalog: GameCatalog, repository: MatchRepository, matches: LiveMatches,
        clocks: TurnClocks, news: MatchNews, pubsub: PubSub, seat_of: SeatOf,
    ) -> None:
        self.catalog = catalog
        self.seat_of = seat_of
        """The seat a token opens (the seat's own token, or a device key of a live session:
        :meth:`Referee.seat_of <triverse.server.play.Referee.seat_of>`)."""
        self.repository = repository
        self.store = LobbyStore(repository.engine, repository.run)
        """The SQL of open games."""
        self.matches = matches
        self.clocks = clocks
        self.news = news
        self.pubsub = pubsub

    async def announce(self, reason: str, match_id: str) -> None:
        """Tell every process's lobby that the open games changed (``reason``: ``opened``,
        ``joined``, ``started`` or ``withdrawn``)."""
        await self.pubsub.publish(LOBBY_CHANNEL, {"type": "lobby", "reason": reason,
                                                  "match": match_id,
                                                  "origin": self.news.origin})

    async def join(
        self, match_id: str, seat: int | None, account: Account | None, name: str | None,
    ) -> Joined:
        """Take a free seat of an open game (``seat``, or the first free one) with a fresh
        token; logged in (``account``), the seat is the account's and bears its name, else
        ``name`` if given. The last free seat starts the game (status ``active``, the first
        turn's deadline). Refusals: ``unknown_match``, ``not_logged_in`` (a rated game),
        ``not_open``, ``bad_seats`` (not a human seat; the account already sits there),
        ``seat_taken``."""
        live = await self.matches.get(match_id)
        if live.rated and account is None:
            raise ServerError("not_logged_in", "a rated game is for players logged in to an "
                              "account")
        token = new_token()
        async with self.matches.hold(live):  # the seats read again while some are free
            if not live.free_seats:
                raise refusal(SeatRefused("not_open"), match_id)
            now = self.clocks.now()
            deadline = self.clocks.start_deadline(live, live.state, now)
            try:
                taken = await self.store.take_seat(
                    match_id, seat, hash_token(token), None if account is None else account.id,
                    account.name if account is not None else name, now, deadline)
            except SeatRefused as exc:
                if exc.reason == "unknown":
                    self.matches.cache.forget(match_id)
                raise refusal(exc, match_id, seat) from None
            live.seats = await self.repository.seats(match_id)
            if taken.started:
                live.deadline = deadline
                self.clocks.seen(match_id, live.state.move_number, deadline)
        log.info("match %s: seat %d taken%s", match_id, taken.seat,
                 ", the game starts" if taken.started else "")
        await self.news.changed(match_id, "seats", live.state.move_number)
        await self.announce("started" if taken.started else "joined", match_id)
        return Joined(live, taken.seat, token, taken.started)

    async def withdraw(self, match_id: str, token: str | None) -> None:
        """Delete an open game that nobody but its creator (the token's seat) has joined:
        ``not_open`` once it started, ``already_joined`` once somebody else took a seat."""
        live = await self.matches.get(match_id)
        seat = await self.seat_of(live, token)
        assert seat is not None
        async with self.matches.hold(live):
            if not live.free_seats:
                raise refusal(SeatRefused("not_open"), match_id)
            try:
                await self.store.withdraw(match_id, seat, self.clocks.now())
            except SeatRefused as exc:
                raise refusal(exc, match_id, seat) from None
            self.matches.cache.forget(match_id)
        log.info("match %s: the open game was withdrawn", match_id)
        await self.news.changed(match_id, "withdrawn", live.state.move_number)
        await self.announce("withdrawn", match_id)

    async def games(self) -> list[dict[str, Any]]:
        """The open games, newest first, at most :data:`LOBBY_MAX`."""
        out = []
        for game in await self.store.open_games(LOBBY_MAX):
            entry = self.catalog.get(game.match.game)
            out.append(lobby_game_json(game, entry.title if entry else game.match.game))
        return out


@dataclass(eq=False)
class LobbyWatcher:
    """One lobby websocket's mailbox: the newest list only (an older one is never worth
    sending)."""

    latest: str | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def put(self, text: str) -> None:
        self.latest = text
        self.changed.set()

    async def next(self) -> str:
        """The newest list not yet taken (waits for one)."""
        await self.changed.wait()
        self.changed.clear()
        assert self.latest is not None
        return self.latest


def open_games_message(games: list[dict[str, Any]]) -> str:
    """The lobby websocket's message, as text."""
    return dumps({"type": "open_games", "games": games})


class LobbyFeed:
    """This process's lobby websockets, kept up to date by one subscription to
    :data:`LOBBY_CHANNEL` while any is open: each burst of news (from any process, or a
    ``resync`` after Redis came back) costs one read of the list (``read``), sent to every
    watcher.

    Another channel's feed (a contest's, :mod:`triverse.server.contests`) names its
    ``channel``, how a read is rendered as the message (``render``) and ``what`` it reads
    (for the log)."""

    def __init__(self, pubsub: PubSub, read: Callable[[], Awaitable[Any]],
                 pause: float = COALESCE, channel: str = LOBBY_CHANNEL,
                 render: Callable[[Any], str] = open_games_message,
                 what: str = "the open games for the lobby") -> None:
        self.pubsub = pubsub
        self.read = read
        self.pause = pause
        self.channel = channel
        self.render = render
        self.what = what
        self.watchers: set[LobbyWatcher] = set()
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self.reads = 0
        """How many times the list was read for the watchers (tests, diagnostics)."""

    async def watch(self) -> LobbyWatcher:
        """A new watcher, once the subscription hears every later change."""
        watcher = LobbyWatcher()
        self.watchers.add(watcher)
        if self._task is None or self._task.done():
            self._ready = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run(self._ready),
                                                                name=f"{self.channel} feed")
        ready = self._ready
        try:
            await ready.wait()
        except BaseException:
            self.unwatch(watcher)
            raise
        return watcher

    def unwatch(self, watcher: LobbyWatcher) -> None:
        """Forget a watcher; the last one stops the subscription."""
        self.watchers.discard(watcher)
        if not self.watchers and self._task is not None:
            self._task.cancel()
            self._task = None

    async def close(self) -> None:
        """Stop the subscription."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self, ready: asyncio.Event) -> None:
        dirty = asyncio.Event()
        subscription = self.pubsub.subscribe(self.channel)

        async def listen() -> None:
            async for _message in subscription:
                dirty.set()

        listener = asyncio.get_running_loop().create_task(listen())
        try:
            await subscription.ready()
            ready.set()
            failing = False
            while True:
                await dirty.wait()
                dirty.clear()
                try:
                    text = self.render(await self.read())
                except Exception:
                    if not failing:  # once per outage, not every few seconds
                        log.exception("cannot read %s; trying again every %g s", self.what,
                                      RETRY)
                    failing = True
                    dirty.set()
                    await asyncio.sleep(RETRY)
                    continue
                if failing:
                    failing = False
                    log.info("reading %s again", self.what)
                self.reads += 1
                for watcher in tuple(self.watchers):
                    watcher.put(text)
                await asyncio.sleep(self.pause)
        finally:
            ready.set()  # nobody waits for a feed that ended
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
            await subscription.unsubscribe()
