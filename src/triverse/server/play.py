"""Play: creating a match, and every change of a match's state that the rules allow.

The :class:`Referee` is the server's authority on the rules: an action is parsed and checked
by the engine, stored in the database, and only then applied to the cached state and announced
on the match's channel (:meth:`Referee.advance`). Every refusal raises a
:class:`~triverse.server.errors.ServerError` and changes nothing. The referee knows nothing of
how matches are cached or locked (:class:`~triverse.server.matches.LiveMatches`), of how
changes travel (:class:`~triverse.server.pubsub.MatchNews`) or of who plays the computer seats
(:mod:`triverse.server.computers`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from triverse.core.errors import GameOverError, IllegalActionError, NotationError, OptionError
from triverse.core.events import Event
from triverse.core.fairness import game_commitment, new_salt
from triverse.core.game import State
from triverse.core.rng import SEED_MAX, fresh_seed
from triverse.server.accounts import Account
from triverse.server.bots import GameSpec
from triverse.server.catalog import GameCatalog
from triverse.server.clock import iso_utc
from triverse.server.clocks import TurnClocks
from triverse.server.config import Settings
from triverse.server.db import hash_token
from triverse.server.errors import ServerError, clip
from triverse.server.live import (
    PACES,
    LiveMatch,
    LogEntry,
    SeatInfo,
    pace_of,
    preview_of,
    time_out_of,
)
from triverse.server.matches import LiveMatches
from triverse.server.pubsub import MatchNews
from triverse.server.repository import KeyedSeat, MatchRepository, MoveConflict
from triverse.server.seats import SeatRequest, check_seats, new_token, open_seat
from triverse.server.views import jsonable

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CreatedMatch:
    """A new match: its id and, per seat, the token (``None`` for computer seats)."""

    match_id: str
    live: LiveMatch
    tokens: tuple[str | None, ...]


@contextmanager
def refusals() -> Iterator[None]:
    """The engine's refusals of an action as the protocol's errors (``game_over``,
    ``bad_notation``, ``illegal_action``)."""
    try:
        yield
    except GameOverError as exc:
        raise ServerError("game_over", str(exc), reason=_reason(exc)) from None
    except NotationError as exc:
        raise ServerError("bad_notation", str(exc)) from None
    except IllegalActionError as exc:
        raise ServerError("illegal_action", str(exc), reason=_reason(exc)) from None


def _reason(exc: IllegalActionError) -> dict[str, Any]:
    """A refusal's message code and parameters, as errors carry them."""
    return {"code": exc.code, "params": dict(exc.params)}


def owner_seats(seats: Sequence[tuple[str, str, float | None]], mode: str) -> tuple[int, ...]:
    """The seats of a new match that its logged-in creator takes: every human seat in
    hot-seat (one browser plays them all), else the first human seat.

    >>> owner_seats([("veteran", "V", None), ("human", "A", None), ("human", "B", None)],
    ...             "online")
    (1,)
    >>> owner_seats([("human", "A", None), ("human", "B", None)], "hotseat")
    (0, 1)
    """
    humans = tuple(i for i, (kind, _, _) in enumerate(seats) if kind == "human")
    return humans if mode == "hotseat" else humans[:1]


def check_turn(state: State[Any], seat: int | None, move: int | None, what: str = "") -> None:
    """Refuse unless the game goes on, ``move`` (when given) is its move number, and ``seat``
    is to move (``what``: ``" a preview is for the seat to move"``, say)."""
    if state.is_terminal():
        raise ServerError("game_over", "the game is over")
    if move is not None and move != state.move_number:
        raise ServerError("stale_move", f"you saw move {move}; the game is at move "
                          f"{state.move_number}")
    if state.current_player != seat:
        raise ServerError("not_your_turn", f"it is seat {state.current_player}'s turn, not "
                          f"seat {seat}'s{':' if what else ''}{what}")


def check_started(live: LiveMatch) -> None:
    """Refuse (``not_started``) while seats of an open game wait for players."""
    free = live.free_seats
    if free:
        raise ServerError("not_started", f"this open game waits for {len(free)} more "
                          f"player{'s' if len(free) > 1 else ''} to take "
                          f"{'their seats' if len(free) > 1 else 'a seat'} in the lobby")


class Referee:
    """Creates matches and applies the moves, pauses and time-outs the rules allow."""

    def __init__(
        self, settings: Settings, catalog: GameCatalog, repository: MatchRepository,
        matches: LiveMatches, clocks: TurnClocks, news: MatchNews,
    ) -> None:
        self.settings = settings
        self.catalog = catalog
        self.repository = repository
        self.matches = matches
        self.clocks = clocks
        self.news = news
        self.after_move: list[Callable[[LiveMatch, int], Awaitable[object]]] = []
        """Called, in order, by the process that stored a move (``live`` and the move's
        number) once it is applied and announced: ratings when a match ends, "your move"
        notifications. A listener's error is logged, never the move's."""

    # --- seats ---------------------------------------------------------------------------------
    async def open_seat(
        self, live: LiveMatch, token: str | None, seat: int | None = None,
        required: bool = True,
    ) -> KeyedSeat | None:
        """The seat ``token`` opens: its own token, or a device key of a live session
        (:func:`triverse.server.seats.open_seat`); ``None`` for no token when not
        ``required``."""
        return await open_seat(live, token, seat, required, self._keyed)

    async def seat_of(
        self, live: LiveMatch, token: str | None, seat: int | None = None,
        required: bool = True,
    ) -> int | None:
        """The seat number ``token`` opens (:meth:`open_seat`): the one check of a token,
        whatever asks (views, actions, previews, pauses, hints, reviews, websockets)."""
        opened = await self.open_seat(live, token, seat, required)
        return None if opened is None else opened.seat

    async def _keyed(self, match_id: str, digest: str) -> KeyedSeat | None:
        return await self.repository.seat_for_key(match_id, digest, self.clocks.now())

    # --- creating a match ----------------------------------------------------------------------
    async def create(
        self, game_name: str, options: Mapping[str, object], seats: Sequence[SeatRequest],
        mode: str, seed: int | None = None, account: Account | None = None,
        rated: bool = False, pace: str | None = None,
    ) -> CreatedMatch:
        """Check and store a new match.

        ``account``: who creates it, logged in; their seats (:func:`owner_seats`) belong to
        the account and bear its name. ``rated``: the match counts for ratings when it ends
        (only for an account, never in hot-seat). ``pace``: ``live`` or ``correspondence``
        (:func:`~triverse.server.live.pace_of` when ``None``).

        An ``open`` match gives a token to its first human seat only, the creator's: the
        others are free (no token, no account) until players take them from the lobby
        (:mod:`triverse.server.lobby`); until then it has no clock and nobody moves."""
        entry = self.catalog.entry(game_name)
        cls = entry.cls()
        infos = check_seats(entry.title, cls.min_players, cls.max_players, seats, mode)
        if rated and account is None:
            raise ServerError("not_logged_in", "a rated match is for a logged-in account")
        if rated and mode == "hotseat":
            raise ServerError("bad_request", "a hot-seat match cannot be rated: every seat "
                              "plays in one browser")
        if pace is not None and pace not in PACES:
            raise ServerError("bad_request", f"pace is one of {', '.join(PACES)}, not "
                              f"{clip(pace)}")
        owned = owner_seats(infos, mode) if account is not None else ()
        try:
            game = cls(len(infos), options)
        except OptionError as exc:
            raise ServerError("bad_options", str(exc)) from None
        seed = fresh_seed() if seed is None else self._check_seed(seed)
        state: State[Any] = game.new_initial_state(seed=seed)
        creator = owner_seats(infos, mode)[:1]
        tokens = tuple(
            None if kind != "human" or (mode == "open" and i not in creator) else new_token()
            for i, (kind, _, _) in enumerate(infos))
        seat_infos = tuple(
            SeatInfo(i, kind, account.name if account is not None and i in owned else name,
                     None if token is None else hash_token(token), think,
                     account.id if account is not None and i in owned else None)
            for i, ((kind, name, think), token) in enumerate(zip(infos, tokens, strict=True))
        )
        assert entry.module is not None
        now = self.clocks.now()
        salt = new_salt()  # the commitment to the seed and deal is shown from move 0
        live = LiveMatch(
            id=secrets.token_urlsafe(9), game_name=entry.name, title=entry.title, mode=mode,
            seed=seed, spec=GameSpec.of(entry.module, game), game=game, state=state,
            seats=seat_infos, created_at=now, rated=rated, pace=pace_of(game, pace),
            salt=salt, commitment=game_commitment(state, salt))
        live.deadline = self.clocks.deadline_for(live, state, now)
        await self.repository.insert(live)
        self.matches.add(live)
        self.clocks.seen(live.id, 0, live.deadline)
        log.info("match %s created: %s, %d seats, %s", live.id, entry.name, len(infos), mode)
        return CreatedMatch(live.id, live, tokens)

    def _check_seed(self, seed: int) -> int:
        if not self.settings.allow_client_seed:
            raise ServerError("seed_not_allowed",
                              "this server chooses the seed of every match itself")
        if not 0 <= seed <= SEED_MAX:
            raise ServerError("bad_request", f"seed is from 0 to {SEED_MAX}, not {seed}")
        return seed

    # --- actions --------------------------------------------------------------------------------
    async def act(self, match_id: str, token: str | None, text: str, move: int) -> LiveMatch:
        """Check, store and apply a human's action; returns the match after it.

        An action that arrives once the turn's deadline has passed is refused with
        ``time_up``, after recording the time-out that was due (as the scheduler would have a
        moment later). The action's arrival time is what counts, not when the match's lock is
        free.
        """
        arrived = self.clocks.now()
        live = await self.matches.get(match_id)
        seat = await self.seat_of(live, token)
        assert seat is not None
        # The database is read only if this process's copy is behind the move the client saw;
        # the store's guard refuses the move if another process changed the match meanwhile.
        async with self.matches.hold(live, at=move):
            try:
                missed = await self._act(live, seat, text, move, arrived)
            except ServerError as exc:
                if exc.code != "stale_move" or live.state.move_number != move:
                    raise
                # Only the pause flag or the deadline had changed elsewhere: caught up, again.
                missed = await self._act(live, seat, text, move, arrived)
        if missed is not None:
            raise ServerError("time_up", f"the time for move {move} ran out at "
                              f"{iso_utc(missed)}: seat {seat} missed the turn")
        return live

    async def _act(
        self, live: LiveMatch, seat: int, text: str, move: int, arrived: datetime
    ) -> datetime | None:
        """Check and make ``seat``'s action ``text`` (the match held); the deadline the action
        arrived after, if it did (the time-out due was recorded instead)."""
        if live.free_seats:  # an open game: has its last seat been taken elsewhere?
            await self.matches.catch_up(live)
        check_started(live)
        check_turn(live.state, seat, move)
        if live.deadline is not None and arrived >= live.deadline:
            missed = live.deadline
            await self.advance(live, seat, None)
            return missed
        with refusals():
            action = live.state.parse_action(text)
        if self.clocks.is_time_out(live, action):
            raise ServerError("reserved_action", f"{clip(text.strip())} is the time-out: "
                              "the server records it when a turn's time runs out, and "
                              "no player may send it")
        await self.advance(live, seat, action)
        return None

    async def advance(self, live: LiveMatch, seat: int, action: Any | None) -> None:
        """Store ``action`` (legal, by ``seat``, for the current state), apply it, announce it.
        ``None`` records the time-out (``state.time_out()``) of ``seat`` instead. Hold the
        match (:meth:`LiveMatches.hold`).

        The next turn's deadline is computed and stored with the move. Once started this runs
        to the end even if the caller is cancelled (a websocket that closes mid-move), so that
        memory never falls behind a move the database holds. ``stale_move`` if another process
        stored this move first.
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

        expected = self.matches.expected(live)

        async def commit() -> None:
            now = self.clocks.now()
            deadline = self.clocks.deadline_for(live, new_state, now)
            try:
                await self.repository.store_move(live.id, number, seat, notation, new_state,
                                                 now, deadline, expected)
            except MoveConflict:
                await self.matches.catch_up(live)
                if live.state.move_number == number:
                    raise ServerError("stale_move", f"match {live.id} changed elsewhere "
                                      f"while move {number} was made") from None
                raise ServerError("stale_move", f"move {number} was just played elsewhere; "
                                  f"the game is at move {live.state.move_number}") from None
            live.state = new_state
            live.deadline = deadline
            live.log.append(LogEntry(number, seat, notation, tuple(events)))
            self.clocks.seen(live.id, number + 1, deadline)
            await self.news.changed(live.id, "move" if action is not None else "timeout",
                                    live.state.move_number)
            for listener in self.after_move:
                try:
                    await listener(live, number)
                except Exception:
                    log.exception("match %s: a listener failed after move %d", live.id, number)

        await asyncio.shield(asyncio.ensure_future(commit()))

    # --- pause and time-outs -------------------------------------------------------------------
    async def set_paused(self, match_id: str, token: str | None, paused: bool) -> LiveMatch:
        """Pause or resume the computer players (any seat holder may)."""
        live = await self.matches.get(match_id)
        await self.seat_of(live, token)
        async with self.matches.hold(live):
            check_started(live)
            if live.finished:
                raise ServerError("game_over", "the game is over")
            if live.paused != paused:
                await self.repository.set_paused(live.id, paused, self.clocks.now())
                live.paused = paused
        await self.news.changed(live.id, "pause", live.state.move_number)
        return live

    async def time_out(self, match_id: str, move: int) -> LiveMatch | None:
        """Record the time-out of the turn at ``move``, if it is still that turn and its
        deadline (as the database has it) has passed; returns the match if it was recorded.

        A move stored first (here or by another process) makes it do nothing: the match's
        lock orders the two, and ``move`` must still be the move number.
        """
        live = await self.matches.get(match_id)
        async with self.matches.hold(live):
            deadline, seat = live.deadline, live.to_move
            if (seat is None or live.state.move_number != move or deadline is None
                    or self.clocks.now() < deadline):
                return None
            try:
                await self.advance(live, seat, None)
            except ServerError:  # another process stored this move first
                return None
        log.info("match %s: seat %d ran out of time at move %d", match_id, seat, move)
        return live

    # --- previews -------------------------------------------------------------------------------
    async def preview(
        self, match_id: str, token: str | None, text: str, move: int | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """What the token's seat would score with the tentative action ``text``, as the
        engine's ``state.preview(text)`` explains it; and the move number it is for.

        Only for the seat to move, only in games whose state has ``preview`` (else
        ``not_supported``). Nothing changes and nothing is stored. ``move``, when given, must
        be the current move number. Moves another process stored are applied first, so the
        move number is the database's.
        """
        live = await self.matches.get(match_id, fresh=True)
        seat = await self.seat_of(live, token)
        check_started(live)
        state = live.state  # states are replaced, never changed in place: no lock needed
        preview = preview_of(state)
        if preview is None:
            raise ServerError("not_supported", f"{live.title} has no score preview")
        check_turn(state, seat, move, " a preview is for the seat to move")
        with refusals():
            result = preview(text)
        to_json = getattr(result, "to_json", None)
        data = to_json() if callable(to_json) else jsonable(result)
        if not isinstance(data, dict):
            data = {"value": data}
        return state.move_number, data
