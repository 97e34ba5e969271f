"""A match held in memory: its game, its current state and its log of moves.

The database is the truth; a :class:`LiveMatch` is that truth replayed through the engine and
cached, plus what only this process knows (its websocket connections and its lock).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from triverse.core.events import Event
from triverse.core.game import Game, State
from triverse.server.bots import GameSpec
from triverse.server.db import hash_token


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat of a match: ``kind`` is ``human`` or a computer level."""

    seat: int
    kind: str
    name: str
    token_hash: str | None

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
    log: list[LogEntry] = field(default_factory=list)
    connections: Counter[int | None] = field(default_factory=Counter)
    """Open websockets per seat (``None``: spectators), in this process."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal()

    @property
    def to_move(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        return None if self.state.is_terminal() else self.state.current_player

    def seat_for_hash(self, token_hash: str) -> int | None:
        """The seat whose token has this hash, if any."""
        for seat in self.seats:
            if seat.token_hash is not None and seat.token_hash == token_hash:
                return seat.seat
        return None

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat ``token`` opens, if any."""
        return None if not token else self.seat_for_hash(hash_token(token))

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has an open websocket here (computer seats always count)."""
        return self.seats[seat].is_bot or self.connections[seat] > 0
