"""Contests: a host's game for many players, drawn onto boards (``docs/contests.md``).

A host (an account) creates a contest: the game and options, the board size, the time per
turn, the close of sign-up and the place rewards. Players sign up (an account, or a guest by
name); every human entrant gets a secret, once, of which the server keeps the sha256. The host
may add computer entrants. At the close of sign-up (its time, or the host's word) the entrants
are drawn onto boards from the contest's seed (:mod:`triverse.server.contest_draw`; the seed
was committed to at the creation, and is revealed now), and each board's match is created
through the :class:`~triverse.server.play.Referee` with the seats in posting order: a human's
seat takes the sha256 of their secret as its token (the secret opens the seat) and their
account. Too few entrants cancel the contest instead.

Exactly one process closes a contest: it claims the job ``contest:<id>``
(:mod:`triverse.server.jobs`) and moves the status from ``signup`` to ``closing`` with a
conditional ``UPDATE``; sign-ups lock the same row, so none slips in after the draw. The
boards are recorded one by one, so a process that stops midway leaves a ``closing`` contest
that the next close (any process, at start-up or at its next read) takes up again with the
same draw. The closes wait in a :class:`~triverse.server.deadlines.DeadlineScheduler` of the
part's own, fed from the database every ``contest_poll`` seconds.

Every move on a board (a listener of the referee's) tells the contest's watchers, ends the
contest with its last board, and, when the seat to move is a removed entrant's, records its
time-out at once (the same scheduler, key ``pass:<match>``). In a game without a time-out rule
a novice computer takes the removed entrant's seat instead.

Every change is published on the channel ``contest:<id>`` as "look again"; each process's
:class:`ContestFeeds` reads the contest again (once a burst) for its websockets.
"""

from __future__ import annotations

import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from triverse.ai import LEVELS
from triverse.core.errors import OptionError
from triverse.core.fairness import new_salt
from triverse.core.rng import fresh_seed
from triverse.server.accounts import Account
from triverse.server.catalog import GameCatalog
from triverse.server.clock import Clock
from triverse.server.config import Settings
from triverse.server.contest_board import BoardMaker
from triverse.server.contest_draw import contest_commitment
from triverse.server.contest_store import ContestData, ContestStore, Refused
from triverse.server.contest_views import contest_json, entry_json, me_json, summary_json
from triverse.server.db import hash_token
from triverse.server.deadlines import DeadlineScheduler
from triverse.server.errors import ServerError, clip
from triverse.server.fanout import dumps
from triverse.server.jobs import Jobs, give_up
from triverse.server.live import LiveMatch
from triverse.server.lobby import LobbyFeed, LobbyWatcher
from triverse.server.pubsub import PubSub
from triverse.server.repository import aware
from triverse.server.seats import MAX_NAME, new_token

log = logging.getLogger(__name__)

MAX_ENTRANTS = 200
"""The most entrants a contest takes."""
MAX_ANNOUNCEMENTS = 100
"""The most announcements a contest keeps."""
LIST_MAX = 100
"""The most contests ``GET /api/contests`` lists (the newest)."""
MAX_SIGNUP = timedelta(days=30)
"""The latest close of sign-up, from the creation."""
SEED_BOUND = 2**53
"""A contest's seed is below this, so that JavaScript reads it exactly."""
KNOWN_MATCHES = 4096
"""How many matches' contests (or none) a process remembers (the others are looked up once
a move)."""
BOARD_RECORDED = timedelta(minutes=1)
"""How long after its creation a match may still become a contest's board."""
REFUSALS = {
    "unknown": ("unknown_contest", "there is no contest {contest}"),
    "closed": ("signup_closed", "the sign-up of contest {contest} is closed"),
    "full": ("contest_full", f"contest {{contest}} has {MAX_ENTRANTS} entrants, the most "
             "it takes"),
    "entered": ("already_entered", "your account has already signed up for contest "
                "{contest}"),
    "not_entered": ("not_entered", "that is no entrant of contest {contest}"),
    "not_running": ("not_in_signup", "contest {contest} is over: nobody can be removed"),
    "announcements": ("too_many_announcements", f"contest {{contest}} has "
                      f"{MAX_ANNOUNCEMENTS} announcements, the most it keeps"),
}


def refusal(exc: Refused, contest_id: str) -> ServerError:
    """The error a refused change of a contest is answered with."""
    code, message = REFUSALS[exc.reason]
    return ServerError(code, message.format(contest=clip(contest_id)))


def contest_channel(contest_id: str) -> str:
    """The pub/sub channel of a contest's changes.

    >>> contest_channel("abc")
    'contest:abc'
    """
    return f"contest:{contest_id}"


@dataclass(frozen=True, slots=True)
class NewContest:
    """What a host asks for (checked by :meth:`Contests.create`)."""

    title: str
    game: str
    options: dict[str, Any]
    players_per_board: int | None
    turn_seconds: int
    signup_closes: datetime
    rewards: tuple[int, ...]
    reward_name: str


@dataclass(frozen=True, slots=True)
class SignedUp:
    """A new human entrant: their number, name and secret (shown once)."""

    entry: int
    name: str
    secret: str


def check_name(name: str | None) -> str:
    """A guest's name, stripped: 1 to :data:`~triverse.server.seats.MAX_NAME` characters."""
    name = (name or "").strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise ServerError("bad_request", f"a name is 1 to {MAX_NAME} characters")
    return name


class Contests:
    """Contests: their sign-up, draw, boards, host actions and live feed (see the module).

    ``maker`` creates the boards' matches and passes removed entrants' turns.
    """

    def __init__(
        self, settings: Settings, clock: Clock, catalog: GameCatalog, store: ContestStore,
        maker: BoardMaker, jobs: Jobs, pubsub: PubSub,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.catalog = catalog
        self.store = store
        self.maker = maker
        self.jobs = jobs
        self.pubsub = pubsub
        self.scheduler = DeadlineScheduler(clock, self._pending, self._fire,
                                           settings.contest_poll)
        """The closes of sign-up, and the removed entrants' turns to pass."""
        self.feeds = ContestFeeds(pubsub, self.public)
        self._known: OrderedDict[str, str | None] = OrderedDict()
        """The contest of each match asked about lately (``None``: no board)."""

    async def start(self) -> None:
        """Start the scheduler (its first read restores the pending closes)."""
        self.scheduler.start()

    async def close(self) -> None:
        """Stop the scheduler and the feeds."""
        await self.scheduler.close()
        await self.feeds.close()

    async def changed(self, contest_id: str) -> None:
        """Tell every process's watchers of the contest to look again."""
        await self.pubsub.publish(contest_channel(contest_id),
                                  {"type": "contest", "contest": contest_id})

    # --- reading -------------------------------------------------------------------------------
    async def data(self, contest_id: str) -> ContestData:
        """The contest's rows (``unknown_contest``)."""
        data = await self.store.read(contest_id)
        if data is None:
            raise ServerError("unknown_contest", f"there is no contest {clip(contest_id)}")
        return data

    def _title(self, game: str) -> str:
        entry = self.catalog.get(game)
        return game if entry is None else entry.title

    async def public(self, contest_id: str) -> dict[str, Any]:
        """The public contest (``docs/contests.md``)."""
        return await self._render(await self.data(contest_id))

    async def _render(self, data: ContestData) -> dict[str, Any]:
        lives = {board.match_id: await self.maker.matches.get(board.match_id, fresh=True)
                 for board in data.boards}
        return contest_json(data, self._title(data.contest.game), lives)

    async def view(self, contest_id: str, account: Account | None) -> dict[str, Any]:
        """The contest for a viewer: with ``is_host`` and the account's own entry (``me``)."""
        data = await self.data(contest_id)
        out = await self._render(data)
        if account is not None:
            out["is_host"] = data.contest.host_id == account.id
            out["me"] = me_json(next((e for e in data.entries if e.account_id == account.id),
                                     None))
        return out

    async def summaries(self) -> list[dict[str, Any]]:
        """The newest contests, at most :data:`LIST_MAX`."""
        return [summary_json(s, self._title(s.contest.game))
                for s in await self.store.summaries(LIST_MAX)]

    # --- creating ------------------------------------------------------------------------------
    async def create(self, host: Account, new: NewContest) -> str:
        """Check and store a new contest hosted by ``host``; its id."""
        values = self._checked(new)
        contest_id = secrets.token_urlsafe(9)
        seed = fresh_seed() % SEED_BOUND
        salt = new_salt()
        now = self.clock.now()
        await self.store.create({
            **values, "id": contest_id, "status": "signup", "host_id": host.id,
            "host_name": host.name, "seed": seed, "salt": salt,
            "commitment": contest_commitment(salt, contest_id, seed),
            "created_at": now, "updated_at": now})
        self.scheduler.set(f"close:{contest_id}", 0, values["signup_closes"])
        log.info("contest %s created: %s", contest_id, new.game)
        return contest_id

    def _checked(self, new: NewContest) -> dict[str, Any]:
        entry = self.catalog.entry(new.game)
        cls = entry.cls()
        title = new.title.strip()
        if not 1 <= len(title) <= 80:
            raise ServerError("bad_request", "a contest's title is 1 to 80 characters")
        size = min(4, cls.max_players) if new.players_per_board is None else (
            new.players_per_board)
        if not cls.min_players <= size <= cls.max_players:
            raise ServerError("bad_request", f"{entry.title} is for {cls.min_players} to "
                              f"{cls.max_players} players a board, not {size}")
        timed = any(spec.name == "time_limit" for spec in cls.option_specs)
        if "time_limit" in new.options:
            raise ServerError("bad_options", "a contest's time per turn is its turn_seconds, "
                              "not an option")
        if timed and new.turn_seconds < self.settings.contest_min_turn:
            raise ServerError("bad_request", "turn_seconds is at least "
                              f"{self.settings.contest_min_turn}")
        try:
            cls(size, {**new.options, **({"time_limit": new.turn_seconds} if timed else {})})
        except OptionError as exc:
            raise ServerError("bad_options", str(exc)) from None
        now = self.clock.now()
        closes = aware(new.signup_closes)
        if not (now + timedelta(seconds=self.settings.contest_min_signup) <= closes
                <= now + MAX_SIGNUP):
            raise ServerError("bad_request", "signup_closes is at least "
                              f"{self.settings.contest_min_signup:g} seconds and at most 30 "
                              "days from now")
        return {"title": title, "game": entry.name, "options": dict(new.options),
                "players_per_board": size, "turn_seconds": new.turn_seconds if timed else None,
                "signup_closes": closes, "rewards": list(new.rewards),
                "reward_name": new.reward_name.strip() or "points"}

    # --- signing up ------------------------------------------------------------------------------
    async def sign_up(self, contest_id: str, account: Account | None,
                      name: str | None) -> SignedUp:
        """Sign a human up: an account (its name) or a guest (``name``). The secret is
        returned once."""
        name = account.name if account is not None else check_name(name)
        secret = new_token()
        values = {"name": name, "kind": "human", "secret_hash": hash_token(secret),
                  "account_id": None if account is None else account.id}
        number = await self._add(contest_id, values)
        return SignedUp(number, name, secret)

    async def _add(self, contest_id: str, values: dict[str, Any]) -> int:
        try:
            number = await self.store.add_entry(contest_id, values, self.clock.now(),
                                                MAX_ENTRANTS)
        except Refused as exc:
            raise refusal(exc, contest_id) from None
        await self.changed(contest_id)
        return number

    async def add_computer(self, contest_id: str, host: Account, kind: str,
                           name: str | None) -> dict[str, Any]:
        """The host adds a computer entrant of level ``kind``; the entry."""
        self.host_of(await self.data(contest_id), host)
        if kind not in LEVELS:
            raise ServerError("bad_request", f"kind is one of {', '.join(LEVELS)}, not "
                              f"{clip(kind)}")
        given = None if name is None or not name.strip() else check_name(name)
        number = await self._add(contest_id, {"name": given, "kind": kind,
                                              "account_id": None, "secret_hash": None})
        data = await self.data(contest_id)
        return entry_json(next(e for e in data.entries if e.entry == number))

    async def entry_of(self, contest_id: str, secret: str | None,
                       account: Account | None) -> Any:
        """The entry the secret opens, else the account's (``missing_token``,
        ``wrong_token``, ``not_entered``)."""
        await self.data(contest_id)
        if not secret and account is None:
            raise ServerError("missing_token", "this needs your secret (header X-Seat-Token) "
                              "or a session")
        found = await self.store.find_entry(
            contest_id, hash_token(secret) if secret else None,
            None if account is None else account.id)
        if found is None and secret and account is None:
            raise ServerError("wrong_token", "this secret opens no entry of contest "
                              f"{clip(contest_id)}")
        if found is None:
            raise ServerError("not_entered", f"you have not signed up for contest "
                              f"{clip(contest_id)}")
        return found

    async def withdraw(self, contest_id: str, secret: str | None,
                       account: Account | None) -> None:
        """An entrant leaves during sign-up."""
        entry = await self.entry_of(contest_id, secret, account)
        try:
            await self.store.delete_entry(contest_id, entry.entry, self.clock.now())
        except Refused as exc:
            raise refusal(exc, contest_id) from None
        await self.changed(contest_id)

    # --- the host --------------------------------------------------------------------------------
    @staticmethod
    def host_of(data: ContestData, account: Account) -> None:
        """Refuse (``not_host``) unless ``account`` hosts the contest."""
        if data.contest.host_id != account.id:
            raise ServerError("not_host", "only the contest's host may do this")

    async def announce(self, contest_id: str, host: Account, text: str) -> dict[str, Any]:
        """The host posts an announcement; it, as listed."""
        self.host_of(await self.data(contest_id), host)
        text = text.strip()
        if not 1 <= len(text) <= 500:
            raise ServerError("bad_request", "an announcement is 1 to 500 characters")
        now = self.clock.now()
        try:
            await self.store.announce(contest_id, text, now, MAX_ANNOUNCEMENTS)
        except Refused as exc:
            raise refusal(exc, contest_id) from None
        await self.changed(contest_id)
        data = await self.data(contest_id)
        last: dict[str, Any] = contest_json(data, "", {})["announcements"][-1]
        return last

    async def cancel(self, contest_id: str, host: Account) -> None:
        """The host cancels the contest during sign-up (``not_in_signup`` later)."""
        self.host_of(await self.data(contest_id), host)
        if not await self.store.set_status(contest_id, ("signup",), "cancelled",
                                           self.clock.now(),
                                           cancel_reason="cancelled by the host"):
            raise ServerError("not_in_signup", "the contest's sign-up is over: it can no "
                              "longer be cancelled")
        await self.changed(contest_id)

    async def remove(self, contest_id: str, host: Account, entry: int) -> None:
        """The host removes an entrant: deleted during sign-up; once playing, marked removed,
        and their turns passed (or played by a novice, without a time-out rule)."""
        data = await self.data(contest_id)
        self.host_of(data, host)
        kind = next((e.kind for e in data.entries if e.entry == entry), "human")
        if kind != "human" and data.contest.status != "signup":
            raise ServerError("bad_request", "a computer entrant never leaves: it can be "
                              "removed only during sign-up")
        try:
            if data.contest.status == "signup":
                await self.store.delete_entry(contest_id, entry, self.clock.now())
            else:
                removed = await self.store.remove(contest_id, entry)
                board = next((b for b in data.boards if b.board == removed.board), None)
                if board is not None and removed.seat is not None:
                    await self._pass_later(board.match_id, removed.seat)
        except Refused as exc:
            raise refusal(exc, contest_id) from None
        log.info("contest %s: entry %d removed", contest_id, entry)
        await self.changed(contest_id)

    async def _pass_later(self, match_id: str, seat: int) -> None:
        """A removed entrant's seat: pass its turn now if it is to move (the scheduler), or
        hand it to a novice in a game without a time-out rule."""
        live = await self.maker.matches.get(match_id, fresh=True)
        if live.finished:
            return
        if live.time_limit is None:
            await self.maker.to_computer(live, seat)
        elif live.to_move == seat:
            self.scheduler.set(f"pass:{match_id}", live.state.move_number, self.clock.now())

    # --- closing ---------------------------------------------------------------------------------
    async def close_now(self, contest_id: str, host: Account) -> None:
        """The host closes the sign-up early (``not_in_signup`` once it is closed)."""
        data = await self.data(contest_id)
        self.host_of(data, host)
        if data.contest.status != "signup":
            raise ServerError("not_in_signup", "the contest's sign-up is already closed")
        await self._close(contest_id, early=True)

    async def _close(self, contest_id: str, early: bool) -> None:
        """Close the sign-up (when due, or ``early``), draw and start the boards, or cancel
        for too few entrants; again for a draw left unfinished. Only the process holding the
        job ``contest:<id>`` does it."""
        job = f"contest:{contest_id}"
        if not await self.jobs.claim(job):
            return
        try:
            data = await self.store.read(contest_id)
            if data is None:
                return
            status, now = data.contest.status, self.clock.now()
            if status == "signup" and (early or now >= aware(data.contest.signup_closes)):
                if not await self.store.set_status(contest_id, ("signup",), "closing", now,
                                                   closed_at=now):
                    return
            elif status != "closing":
                return
            await self.maker.draw(contest_id)
        finally:
            await give_up(self.jobs, job)
        await self.changed(contest_id)

    # --- the scheduler -------------------------------------------------------------------------
    async def _pending(self) -> list[tuple[str, int, datetime]]:
        """What the scheduler waits for, read from the database: the closes of sign-up, the
        removed entrants to move (now), the contests to end (now)."""
        closes = [(f"close:{cid}", 0, aware(closes)) for cid, closes in await self.store.due()]
        now = self.clock.now()
        return closes + [(f"pass:{match_id}", move, now)
                         for match_id, move in await self.store.removed_to_move()] + [
            (f"finish:{cid}", 0, now) for cid in await self.store.over()]

    async def _fire(self, key: str, move: int) -> None:
        what, _, name = key.partition(":")
        if what == "close":
            await self._close(name, early=False)
        elif what == "pass":
            await self.maker.pass_removed(name, move)  # the referee's listeners tell
        elif what == "finish" and await self.store.finish_if_over(name, self.clock.now()):
            log.info("contest %s finished", name)
            await self.changed(name)

    # --- the boards' moves ---------------------------------------------------------------------
    async def board_of(self, live: LiveMatch) -> str | None:
        """The contest whose board ``live`` is, if it is one: remembered (the
        :data:`KNOWN_MATCHES` last asked), except that a match younger than
        :data:`BOARD_RECORDED` is not yet taken for no board (another process's computer may
        move on a board before its contest records it)."""
        if live.id in self._known:
            self._known.move_to_end(live.id)
            return self._known[live.id]
        found = await self.store.board_of(live.id)
        if found is not None or self.clock.now() - live.created_at > BOARD_RECORDED:
            self._known[live.id] = found
            while len(self._known) > KNOWN_MATCHES:
                self._known.popitem(last=False)
        return found

    async def after_move(self, live: LiveMatch, number: int) -> None:
        """A listener of the referee's: a board's move is the contest's news; its last board's
        end ends it; a removed entrant to move is passed at once."""
        contest_id = await self.board_of(live)
        if contest_id is None:
            return
        seat = live.to_move
        if live.finished:
            if await self.store.finish_if_over(contest_id, self.clock.now()):
                log.info("contest %s finished", contest_id)
        elif (seat is not None and live.time_limit is not None
              and seat in await self.store.removed_seats(live.id)):
            self.scheduler.set(f"pass:{live.id}", live.state.move_number, self.clock.now())
        await self.changed(contest_id)


class ContestFeeds:
    """This process's contest websockets, one :class:`~triverse.server.lobby.LobbyFeed` (a
    subscription to :func:`contest_channel`) per contest watched."""

    def __init__(self, pubsub: PubSub,
                 read: Callable[[str], Awaitable[dict[str, Any]]]) -> None:
        self.pubsub = pubsub
        self.read = read
        self.feeds: dict[str, LobbyFeed] = {}

    async def watch(self, contest_id: str) -> tuple[LobbyFeed, LobbyWatcher]:
        """A watcher of the contest, once its feed hears every later change."""
        feed = self.feeds.get(contest_id)
        if feed is None:
            feed = self.feeds[contest_id] = LobbyFeed(
                self.pubsub, lambda: self.read(contest_id), channel=contest_channel(contest_id),
                render=contest_message, what=f"contest {contest_id}")
        return feed, await feed.watch()

    def unwatch(self, contest_id: str, feed: LobbyFeed, watcher: LobbyWatcher) -> None:
        """Forget a watcher; the contest's last one ends its feed."""
        feed.unwatch(watcher)
        if not feed.watchers and self.feeds.get(contest_id) is feed:
            del self.feeds[contest_id]

    async def close(self) -> None:
        """End every feed."""
        feeds, self.feeds = list(self.feeds.values()), {}
        for feed in feeds:
            await feed.close()


def contest_message(contest: dict[str, Any]) -> str:
    """The contest websocket's message, as text."""
    return dumps({"type": "contest", "contest": contest})


