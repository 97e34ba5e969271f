"""The matches in the database: every SQL statement the server runs, and nothing else.

:class:`MatchRepository` owns the SQLAlchemy engine. Its methods are coroutines that run their
blocking work off the event loop (in asyncio's default thread pool, or in one thread of its own
for an in-memory SQLite database, which is a single connection). It knows rows and the plain
values of a match (:class:`StoredMatch`), not the rules of any game: replaying moves is the
live matches' job (:mod:`triverse.server.matches`).

Storing a move is guarded: ``UPDATE matches ... WHERE move_count = n`` and the primary key of
``moves`` make sure only one process stores move ``n`` of a match; the loser gets
:class:`MoveConflict`. The statements a move runs are SQLAlchemy Core (no ORM unit of work):
on PostgreSQL the update and the insert are one statement (a data-modifying ``WITH``) in
autocommit, so storing a move is one round trip; on SQLite, two statements in one transaction.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from sqlalchemy import Insert, Table, Update, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import StaticPool

from triverse.core.game import State
from triverse.server.db import MatchRow, MoveRow, SeatRow, make_engine, migrate
from triverse.server.deadlines import Pending
from triverse.server.live import LiveMatch, SeatInfo

T = TypeVar("T")

StoredMove = tuple[int, int, str]
"""A stored move: its number, the seat that played it, its notation."""


def aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes; they are UTC.

    >>> aware(datetime(2026, 12, 1, 9, 0)).isoformat()
    '2026-12-01T09:00:00+00:00'
    """
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class MoveConflict(Exception):
    """Another process stored this move number first."""


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match as the database holds it: what its game is set up from, and its moves."""

    id: str
    game: str
    num_players: int
    options: dict[str, Any]
    seed: int
    mode: str
    paused: bool
    created_at: datetime
    deadline: datetime | None
    seats: tuple[SeatInfo, ...]
    moves: list[StoredMove]
    rated: bool = False
    pace: str | None = None


@dataclass(frozen=True, slots=True)
class Status:
    """What may have changed in a match since a process last looked: the pause flag, the
    current turn's deadline, and the moves from the number it knew."""

    paused: bool
    deadline: datetime | None
    moves: list[StoredMove]


@dataclass(frozen=True, slots=True)
class Expected:
    """What a process holds of a match besides its moves: a move is stored only if the
    database agrees (else another process changed the match meanwhile)."""

    paused: bool
    deadline: datetime | None


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
    """A match waiting in the lobby for players, with its seats (rows, detached)."""

    match: MatchRow
    seats: list[SeatRow]


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat a token opens, its match, and every seat of that match (rows, detached)."""

    seat: SeatRow
    match: MatchRow
    everyone: list[SeatRow]


class MatchRepository:
    """The server's database (see the module)."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # An in-memory SQLite database is one connection: use it from one thread only.
        self._thread = (ThreadPoolExecutor(1, thread_name_prefix="triverse-db")
                        if isinstance(self.engine.pool, StaticPool) else None)
        self._one_statement = self.engine.dialect.name == "postgresql"
        """Whether a move is stored with one statement in autocommit (one round trip)."""
        self._autocommit = (make_engine(url, isolation_level="AUTOCOMMIT")
                            if self._one_statement else self.engine)
        """PostgreSQL: the connections that store moves, in autocommit from the start."""

    def migrate(self) -> None:
        """Create or upgrade the tables (blocking; called once at start-up)."""
        migrate(self.engine)

    def close(self) -> None:
        """Wait for the database thread (if any) and close the connections."""
        if self._thread is not None:
            self._thread.shutdown(wait=True)
        self.engine.dispose()
        self._autocommit.dispose()

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run a blocking database function off the event loop."""
        if self._thread is None:
            return await asyncio.to_thread(function, *args)
        return await asyncio.get_running_loop().run_in_executor(self._thread, function, *args)

    # --- writing ---------------------------------------------------------------------------
    async def insert(self, live: LiveMatch) -> None:
        """Store a new match and its seats (no moves yet)."""
        await self.run(self._insert, live)

    def _insert(self, live: LiveMatch) -> None:
        with self._sessions.begin() as session:
            session.add(MatchRow(
                id=live.id, game=live.game_name, num_players=live.game.num_players,
                options=dict(live.game.options), seed=live.seed, mode=live.mode,
                status=("finished" if live.finished else "open" if live.free_seats
                        else "active"),
                rated=live.rated, pace=live.pace, paused=False, move_count=0,
                to_move=live.to_move, result=None, created_at=live.created_at,
                updated_at=live.created_at, finished_at=None, deadline=live.deadline,
            ))
            session.flush()
            for seat in live.seats:
                session.add(SeatRow(match_id=live.id, seat=seat.seat, kind=seat.kind,
                                    name=seat.name, token_hash=seat.token_hash,
                                    think=seat.think, account_id=seat.account_id))

    async def store_move(
        self, match_id: str, number: int, seat: int, action: str, after: State[Any],
        now: datetime, deadline: datetime | None, expected: Expected | None = None,
    ) -> None:
        """Store move ``number`` and the match's summary after it (``after``: the state it
        led to; ``deadline``: the next turn's); :class:`MoveConflict` if it is taken, or if
        the match's pause flag or current deadline is not ``expected`` (``None``: only the
        move number is checked)."""
        await self.run(self._store_move, match_id, number, seat, action, after, now, deadline,
                       expected)

    def _store_move(
        self, match_id: str, number: int, seat: int, action: str, after: State[Any],
        now: datetime, deadline: datetime | None, expected: Expected | None,
    ) -> None:
        finished = after.is_terminal()
        values = {
            "m_id": match_id, "m_number": number, "new_count": number + 1,
            "new_to_move": None if finished else after.current_player,
            "new_status": "finished" if finished else "active",
            "new_result": after.result().to_json() if finished else None,
            "new_finished_at": now if finished else None, "new_deadline": deadline,
            "m_seat": seat, "m_action": action, "m_now": now,
        }
        if expected is not None:
            values["was_paused"], values["was_deadline"] = expected.paused, expected.deadline
        shape = (expected is not None, expected is not None and expected.deadline is None)
        try:
            if self._one_statement:
                with self._autocommit.connect() as connection:
                    stored = connection.execute(_store_in_one(shape), values).first()
                if stored is None:
                    raise MoveConflict
                return
            with self.engine.begin() as connection:
                if connection.execute(_guarded_update(shape), values).rowcount != 1:
                    raise MoveConflict
                connection.execute(_INSERT_MOVE, values)
        except IntegrityError:
            raise MoveConflict from None

    async def set_paused(self, match_id: str, paused: bool, now: datetime) -> None:
        """Set the match's pause flag."""
        await self.run(self._set_paused, match_id, paused, now)

    def _set_paused(self, match_id: str, paused: bool, now: datetime) -> None:
        with self._sessions.begin() as session:
            session.execute(update(MatchRow).where(MatchRow.id == match_id)
                            .values(paused=paused, updated_at=now))

    async def set_deadline(self, match_id: str, number: int, deadline: datetime) -> bool:
        """Give the turn at ``number`` its first deadline; whether it was still without one
        (and still that turn)."""
        return await self.run(self._set_deadline, match_id, number, deadline)

    def _set_deadline(self, match_id: str, number: int, deadline: datetime) -> bool:
        with self._sessions.begin() as session:
            done = session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.move_count == number,
                       MatchRow.deadline.is_(None))
                .values(deadline=deadline)
            )
            return bool(getattr(done, "rowcount", 1) == 1)

    # --- open games ------------------------------------------------------------------------
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
        return await self.run(self._take_seat, match_id, seat, token_hash, account_id, name,
                              now, deadline)

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
            free = [s.seat for s in seats if _free(s)]
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
            if any(s.kind == "human" and s.seat != seat and not _free(s) for s in seats):
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
        return await self.run(self._open_games, limit)

    def _open_games(self, limit: int) -> list[OpenGame]:
        with self._sessions() as session:
            rows = list(session.execute(
                select(MatchRow).where(MatchRow.status == "open")
                .order_by(MatchRow.created_at.desc(), MatchRow.id).limit(limit)
            ).scalars())
            seats: Mapping[str, list[SeatRow]] = {}
            if rows:
                seats = _group(session.execute(
                    select(SeatRow).where(SeatRow.match_id.in_([r.id for r in rows]))
                    .order_by(SeatRow.seat)).scalars())
            return [OpenGame(row, seats.get(row.id, [])) for row in rows]

    # --- reading ---------------------------------------------------------------------------
    async def load(self, match_id: str) -> StoredMatch | None:
        """The match with its seats and moves, ``None`` if there is none."""
        return await self.run(self._load, match_id)

    def _load(self, match_id: str) -> StoredMatch | None:
        with self._sessions() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return None
            seats = self._seats(match_id)
            moves = [(m.number, m.seat, m.action) for m in session.execute(
                select(MoveRow).where(MoveRow.match_id == match_id).order_by(MoveRow.number)
            ).scalars()]
            return StoredMatch(
                id=row.id, game=row.game, num_players=row.num_players, options=row.options,
                seed=row.seed, mode=row.mode, paused=row.paused,
                created_at=aware(row.created_at),
                deadline=None if row.deadline is None else aware(row.deadline),
                seats=seats, moves=moves, rated=row.rated, pace=row.pace,
            )

    async def status(self, match_id: str, known: int) -> Status | None:
        """The pause flag, the deadline, and the moves from number ``known`` on (``None``:
        the match is gone, an open game withdrawn)."""
        return await self.run(self._status, match_id, known)

    def _status(self, match_id: str, known: int) -> Status | None:
        with self.engine.connect() as connection:
            row = connection.execute(_STATUS, {"m_id": match_id}).first()
            if row is None:
                return None
            moves: list[StoredMove] = []
            if row.move_count > known:
                moves = [(m.number, m.seat, m.action) for m in connection.execute(
                    _MOVES_FROM, {"m_id": match_id, "known": known})]
            deadline = None if row.deadline is None else aware(row.deadline)
            return Status(bool(row.paused), deadline, moves)

    async def seats(self, match_id: str) -> tuple[SeatInfo, ...]:
        """The match's seats as stored now (who took them, their names)."""
        return await self.run(self._seats, match_id)

    def _seats(self, match_id: str) -> tuple[SeatInfo, ...]:
        with self._sessions() as session:
            return tuple(
                SeatInfo(s.seat, s.kind, s.name, s.token_hash, s.think, s.account_id,
                         s.deleted)
                for s in session.execute(select(SeatRow).where(SeatRow.match_id == match_id)
                                         .order_by(SeatRow.seat)).scalars())

    async def computer_to_move(self) -> list[str]:
        """The active, unpaused matches whose seat to move is a computer's."""
        return await self.run(self._computer_to_move)

    def _computer_to_move(self) -> list[str]:
        with self._sessions() as session:
            rows = session.execute(
                select(MatchRow.id)
                .join(SeatRow, (SeatRow.match_id == MatchRow.id)
                      & (SeatRow.seat == MatchRow.to_move))
                .where(MatchRow.status == "active", MatchRow.paused.is_(False),
                       SeatRow.kind != "human")
            ).scalars().all()
            return list(rows)

    async def pending_deadlines(self) -> list[Pending]:
        """Every active match's current turn deadline, where one runs."""
        return await self.run(self._pending_deadlines)

    def _pending_deadlines(self) -> list[Pending]:
        with self._sessions() as session:
            rows = session.execute(
                select(MatchRow.id, MatchRow.move_count, MatchRow.deadline)
                .where(MatchRow.status == "active", MatchRow.deadline.is_not(None))
            ).all()
            return [(row.id, row.move_count, aware(row.deadline)) for row in rows]

    async def clockless(self) -> list[str]:
        """The active matches with a positive ``time_limit`` option whose human turn has no
        deadline (stored before the server kept deadlines)."""
        return await self.run(self._clockless)

    def _clockless(self) -> list[str]:
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

    async def held_seats(self, token_hashes: Sequence[str]) -> list[HeldSeat]:
        """The seats whose token hashes are given, most recently active match first."""
        return await self.run(self._held_seats, token_hashes)

    def _held_seats(self, token_hashes: Sequence[str]) -> list[HeldSeat]:
        with self._sessions() as session:
            mine = session.execute(
                select(SeatRow, MatchRow).join(MatchRow, MatchRow.id == SeatRow.match_id)
                .where(SeatRow.token_hash.in_(list(token_hashes)))
                .order_by(MatchRow.updated_at.desc(), MatchRow.id, SeatRow.seat)
            ).all()
            ids = sorted({match.id for _, match in mine})
            everyone: Mapping[str, list[SeatRow]] = {}
            if ids:
                everyone = _group(session.execute(
                    select(SeatRow).where(SeatRow.match_id.in_(ids)).order_by(SeatRow.seat)
                ).scalars())
            return [HeldSeat(seat, match, everyone.get(match.id, [])) for seat, match in mine]


def _free(seat: Any) -> bool:
    """Whether a seat row is a human seat nobody has taken (of an open game)."""
    return bool(seat.kind == "human" and seat.token_hash is None and seat.account_id is None)


def _group(seats: Any) -> dict[str, list[SeatRow]]:
    out: dict[str, list[SeatRow]] = {}
    for seat in seats:
        out.setdefault(seat.match_id, []).append(seat)
    return out


# --- the statements of a move, built once ------------------------------------------------------
MATCHES = cast(Table, MatchRow.__table__)
MOVES = cast(Table, MoveRow.__table__)
SEATS = cast(Table, SeatRow.__table__)

_STATUS = select(MATCHES.c.paused, MATCHES.c.move_count, MATCHES.c.deadline).where(
    MATCHES.c.id == bindparam("m_id"))
_MOVES_FROM = (select(MOVES.c.number, MOVES.c.seat, MOVES.c.action)
               .where(MOVES.c.match_id == bindparam("m_id"),
                      MOVES.c.number >= bindparam("known"))
               .order_by(MOVES.c.number))
_INSERT_MOVE = insert(MOVES).values(
    match_id=bindparam("m_id"), number=bindparam("m_number"), seat=bindparam("m_seat"),
    action=bindparam("m_action"), created_at=bindparam("m_now"))

Shape = tuple[bool, bool]
"""Which guard a move's update has: whether the pause flag and deadline are checked, and
whether the deadline expected is none."""


@functools.cache
def _guarded_update(shape: Shape) -> Update:
    """``UPDATE matches ... WHERE id = :m_id AND move_count = :m_number`` (and the pause flag
    and deadline, as ``shape`` says)."""
    guard = [MATCHES.c.id == bindparam("m_id"), MATCHES.c.move_count == bindparam("m_number")]
    checked, no_deadline = shape
    if checked:
        guard.append(MATCHES.c.paused == bindparam("was_paused"))
        guard.append(MATCHES.c.deadline.is_(None) if no_deadline
                     else MATCHES.c.deadline == bindparam("was_deadline"))
    return update(MATCHES).where(*guard).values(
        move_count=bindparam("new_count"), to_move=bindparam("new_to_move"),
        status=bindparam("new_status"), result=bindparam("new_result"),
        finished_at=bindparam("new_finished_at"), updated_at=bindparam("m_now"),
        deadline=bindparam("new_deadline"))


@functools.cache
def _store_in_one(shape: Shape) -> Insert:
    """PostgreSQL: the guarded update and the move's insert in one statement, ``WITH done AS
    (UPDATE ... RETURNING id) INSERT INTO moves SELECT ... FROM done RETURNING number``: no
    row inserted (none returned) when the update matched none."""
    done = _guarded_update(shape).returning(MATCHES.c.id).cte("done")
    row = select(done.c.id, bindparam("m_number", type_=MOVES.c.number.type),
                 bindparam("m_seat", type_=MOVES.c.seat.type),
                 bindparam("m_action", type_=MOVES.c.action.type),
                 bindparam("m_now", type_=MOVES.c.created_at.type))
    return (insert(MOVES).from_select(["match_id", "number", "seat", "action", "created_at"],
                                      row).add_cte(done).returning(MOVES.c.number))
