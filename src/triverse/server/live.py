"""A match held in memory: its game, its current state and its log of moves.

The database is the truth; a :class:`LiveMatch` is that truth replayed through the engine and
cached, plus what only this process knows (its websocket connections and its lock).
"""

from __future__ import annotations

import asyncio
import copy
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from triverse.ai.knowledge import Memory, knowledge_for
from triverse.core.events import Event
from triverse.core.game import Game, State
from triverse.server.bots import GameSpec

PACES = ("live", "correspondence")
"""How fast a match is meant to go: ``live`` (minutes a turn, both players at the table) or
``correspondence`` (hours or days a turn)."""
LIVE_TURN_LIMIT = 3600
"""A turn limit below this many seconds makes a match ``live`` by default."""


def pace_of(game: Game[Any, Any], chosen: str | None) -> str:
    """A match's pace: the one ``chosen``, else ``live`` for a turn limit under an hour,
    else ``correspondence``.

    >>> from triverse.games.trident.engine import TridentGame
    >>> pace_of(TridentGame(2, {"time_limit": 300}), None)
    'live'
    >>> pace_of(TridentGame(2, {"time_limit": 86400}), None), pace_of(TridentGame(2), "live")
    ('correspondence', 'live')
    """
    if chosen is not None:
        return chosen
    limit = game.options.get("time_limit")
    if isinstance(limit, int) and not isinstance(limit, bool) and 0 < limit < LIVE_TURN_LIMIT:
        return "live"
    return "correspondence"


def is_free(seat: Any) -> bool:
    """Whether ``seat`` (a :class:`SeatInfo`, or a ``seats`` row) is a human seat nobody has
    taken: no token, no account (an open game waits for it)."""
    return bool(seat.kind == "human" and seat.token_hash is None and seat.account_id is None)


def turn_time_limit(game: Game[Any, Any], state: State[Any]) -> int | None:
    """The seconds a player has for a turn, or ``None`` when turns are not timed.

    Generic: a game is timed when its options hold a positive whole ``time_limit`` and its
    state can record a missed turn (``state.time_out()``).
    """
    limit = game.options.get("time_limit")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
        return None
    return limit if time_out_of(state) is not None else None


def time_out_of(state: State[Any]) -> Callable[[], list[Event]] | None:
    """The state's ``time_out`` method (the player to move misses the turn), if it has one."""
    method = getattr(state, "time_out", None)
    return method if callable(method) else None


def preview_of(state: State[Any]) -> Callable[[str], Any] | None:
    """The state's ``preview`` method (the score of a tentative play), if it has one."""
    method = getattr(state, "preview", None)
    return method if callable(method) else None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat of a match: ``kind`` is ``human`` or a computer level; ``think`` the seconds a
    computer level that searches may think about a move (``None``: the game's default)."""

    seat: int
    kind: str
    name: str
    token_hash: str | None
    think: float | None = None
    account_id: str | None = None
    """The account that took the seat (``None``: a guest, a computer, a deleted account)."""
    deleted: bool = False
    """The seat's account was deleted: it shows as "deleted player"."""

    @property
    def is_bot(self) -> bool:
        """Whether a computer plays this seat."""
        return self.kind != "human"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted action: its number (from 0), the seat that played it, its notation and
    the events it caused (secrets included: they are filtered per viewer when sent)."""

    number: int
    seat: int
    action: str
    events: tuple[Event, ...]


@dataclass(eq=False)
class Recall:
    """A replay of a match up to ``state``'s move, and a seat's memory of it so far."""

    state: State[Any]
    memory: Memory = field(default_factory=dict)


@dataclass(eq=False)
class LiveMatch:
    """One match, replayed and cached. Change it only while holding :attr:`lock`."""

    id: str
    game_name: str
    title: str
    mode: str
    seed: int
    spec: GameSpec
    game: Game[Any, Any]
    state: State[Any]
    seats: tuple[SeatInfo, ...]
    created_at: datetime
    paused: bool = False
    deadline: datetime | None = None
    """When the current turn times out (``None``: no clock runs); set with :attr:`state`."""
    rated: bool = False
    """Whether the match counts for ratings when it ends."""
    pace: str | None = None
    """``live`` or ``correspondence`` (:data:`PACES`); ``None`` for a match made before."""
    salt: str | None = None
    """The salt of the shuffle commitment: secret until the game ends, when the record
    reveals it (``None``: a match made before commitments, which has none)."""
    commitment: str | None = None
    """The commitment to the match's randomness (:func:`triverse.core.fairness.game_commitment`),
    shown to everyone from the first move."""
    log: list[LogEntry] = field(default_factory=list)
    connections: Counter[int | None] = field(default_factory=Counter)
    """Open websockets per seat (``None``: spectators), in this process."""
    elsewhere: frozenset[int] = frozenset()
    """The seats with a websocket open in another server process
    (:mod:`triverse.server.presence`)."""
    news_seen: tuple[str, int] | None = None
    """The last news from another process that this match was caught up with (its origin and
    number): the match's other sockets, told the same news, need not read the database."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    recalls: dict[int, Recall] = field(default_factory=dict)
    """Per seat, what its veteran (or hint) remembers so far: see :meth:`memory_of`."""
    log_cache: dict[tuple[int, int | None], tuple[LogEntry, dict[str, Any]]] = field(
        default_factory=dict)
    """The recent log entries as each viewer sees them (:func:`triverse.server.views.log_json`),
    made once rather than at every view."""

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal()

    @property
    def to_move(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        return None if self.state.is_terminal() else self.state.current_player

    @property
    def time_limit(self) -> int | None:
        """Seconds per turn, ``None`` when turns are not timed."""
        return turn_time_limit(self.game, self.state)

    @property
    def free_seats(self) -> tuple[int, ...]:
        """The human seats nobody has taken yet (an open game waits for them)."""
        return tuple(s.seat for s in self.seats if is_free(s))

    def seat_for_hash(self, token_hash: str) -> int | None:
        """The seat whose token has this hash, if any."""
        for seat in self.seats:
            if seat.token_hash is not None and seat.token_hash == token_hash:
                return seat.seat
        return None

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has an open websocket, here or in another server process (computer
        seats always count)."""
        return self.seats[seat].is_bot or self.connections[seat] > 0 or seat in self.elsewhere

    def memory_of(self, seat: int) -> Memory | None:
        """What a veteran playing ``seat`` remembers before the current move, as it would had
        it played every one of the seat's turns: the game's knowledge fed with the seat's
        observation at each of them (:meth:`Knowledge.remember`), replayed from the match's
        moves; ``None`` for a game whose knowledge remembers nothing. Only the seat's own
        observations are read, so nothing hidden from the seat gets in. Kept per seat and
        brought up to date from where it stopped; the caller gets a copy."""
        knowledge = knowledge_for(self.game)
        if not knowledge.remembers:
            return None
        recall = self.recalls.get(seat)
        if recall is None or recall.state.move_number > self.state.move_number:
            recall = self.recalls[seat] = Recall(self.game.new_initial_state(seed=self.seed))
        replay = recall.state
        for entry in self.log[replay.move_number:self.state.move_number]:
            if entry.seat == seat:
                knowledge.remember(recall.memory, replay.observation(seat))
            replay.apply_notation(entry.action)
        return copy.deepcopy(recall.memory)
