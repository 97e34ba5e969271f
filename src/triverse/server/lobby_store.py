"""The SQL of open games (:mod:`triverse.server.lobby`): taking a free seat, withdrawing a
game, and the lobby's list. Like :class:`~triverse.server.repository.MatchRepository`, it
knows rows, not rules, and runs its blocking work off the event loop (``run``: the
repository's). SQLAlchemy Core, no ORM.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, delete, select, update
from sqlalchemy.engine import Engine

from triverse.server.db import MatchRow, SeatRow
from triverse.server.live import is_free

MATCHES = cast(Table, MatchRow.__table__)
SEATS = cast(Table, SeatRow.__table__)


class SeatRefused(Exception):
    """A seat of an open game that cannot be taken, or a game that cannot be withdrawn:
    ``reason`` is ``unknown`` (no such match), ``not_open`` (it is not waiting for players),
    ``no_seat`` (no human seat of that number), ``taken`` (somebody has it), ``same_account``
    (the account already has a seat of the match) or ``joined`` (another player took a seat:
    too late to withdraw)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Taken:
    """A seat of an open game just taken, and whether that started the game (it was the last
    free seat)."""

    seat: int
    started: bool


@dataclass(frozen=True, slots=True)
class OpenGame:
    """A match waiting in the lobby for players, with its seats."""

    match: Any
    """The ``matches`` row (its columns as attributes)."""
    seats: list[Any]
    """The ``seats`` rows, in seat order."""


class LobbyStore:
    """Open games in the database (see the module)."""

    def __init__(self, engine: Engine, run: Callable[..., Awaitable[Any]]) -> None:
        self.engine = engine
        self.run = run

    async def take_seat(
        self, match_id: str, seat: int | None, token_hash: str, account_id: str | None,
        name: str | None, now: datetime, deadline: datetime | None,
    ) -> Taken:
        """Give a free human seat of an open match (``seat``, or the first free one) the
        token whose hash is ``token_hash``, ``account_id`` and ``name`` (``None``: keep its
        name); when it was the last free seat, the match becomes ``active`` with the first
        turn's ``deadline``. :class:`SeatRefused` otherwise.

        Safe among processes: the match's row is updated first (a row lock on PostgreSQL
        until the commit, the database's write lock on SQLite), so two takers of one match
        go one after the other, and the seat's ``UPDATE`` still requires it free (``WHERE
        token_hash IS NULL AND account_id IS NULL``): of two takers of one seat exactly one
        gets it."""
        taken: Taken = await self.run(self._take_seat, match_id, seat, token_hash, account_id,
                                      name, now, deadline)
        return taken

    def _take_seat(
        self, match_id: str, seat: int | None, token_hash: str, account_id: str | None,
        name: str | None, now: datetime, deadline: datetime | None,
    ) -> Taken:
        with self.engine.begin() as connection:
            self._lock_open(connection, match_id, now)
            seats = connection.execute(
                select(SEATS).where(SEATS.c.match_id == match_id).order_by(SEATS.c.seat)
            ).all()
            if account_id is not None and any(s.account_id == account_id for s in seats):
                raise SeatRefused("same_account")
            free = [s.seat for s in seats if is_free(s)]
            if seat is None:
                if not free:
                    raise SeatRefused("not_open")
                seat = free[0]
            elif not any(s.seat == seat and s.kind == "human" for s in seats):
                raise SeatRefused("no_seat")
            values: dict[str, Any] = {"token_hash": token_hash, "account_id": account_id}
            if name is not None:
                values["name"] = name
            done = connection.execute(
                update(SEATS).where(SEATS.c.match_id == match_id, SEATS.c.seat == seat,
                                    SEATS.c.token_hash.is_(None), SEATS.c.account_id.is_(None))
                .values(**values))
            if done.rowcount != 1:
                raise SeatRefused("taken")
            started = not [s for s in free if s != seat]
            if started:
                connection.execute(update(MATCHES).where(MATCHES.c.id == match_id)
                                   .values(status="active", deadline=deadline))
            return Taken(seat, started)

    async def withdraw(self, match_id: str, seat: int, now: datetime) -> None:
        """Delete an open match that nobody but ``seat`` (its creator's) has joined, with its
        seats (:class:`SeatRefused` otherwise: ``not_open``, ``joined``)."""
        await self.run(self._withdraw, match_id, seat, now)

    def _withdraw(self, match_id: str, seat: int, now: datetime) -> None:
        with self.engine.begin() as connection:
            self._lock_open(connection, match_id, now)
            seats = connection.execute(
                select(SEATS).where(SEATS.c.match_id == match_id)).all()
            if any(s.kind == "human" and s.seat != seat and not is_free(s) for s in seats):
                raise SeatRefused("joined")
            connection.execute(delete(MATCHES).where(MATCHES.c.id == match_id))

    @staticmethod
    def _lock_open(connection: Any, match_id: str, now: datetime) -> None:
        """Touch the open match's row (locking it until the commit), or refuse:
        ``unknown``, ``not_open``."""
        touched = connection.execute(
            update(MATCHES).where(MATCHES.c.id == match_id, MATCHES.c.status == "open")
            .values(updated_at=now))
        if touched.rowcount != 1:
            exists = connection.execute(
                select(MATCHES.c.id).where(MATCHES.c.id == match_id)).first()
            raise SeatRefused("unknown" if exists is None else "not_open")

    async def open_games(self, limit: int) -> list[OpenGame]:
        """The matches waiting for players, newest first, at most ``limit``."""
        games: list[OpenGame] = await self.run(self._open_games, limit)
        return games

    def _open_games(self, limit: int) -> list[OpenGame]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(MATCHES).where(MATCHES.c.status == "open")
                .order_by(MATCHES.c.created_at.desc(), MATCHES.c.id).limit(limit)).all()
            seats: dict[str, list[Any]] = {}
            if rows:
                for seat in connection.execute(
                        select(SEATS).where(SEATS.c.match_id.in_([r.id for r in rows]))
                        .order_by(SEATS.c.seat)):
                    seats.setdefault(seat.match_id, []).append(seat)
            return [OpenGame(row, seats.get(row.id, [])) for row in rows]


