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

from sqlalchemy import Insert, Table, Update, bindparam, case, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import StaticPool

from triverse.core.game import State
from triverse.server.db import (
    MatchRow,
    MoveRow,
    SeatKeyRow,
    SeatRow,
    SessionRow,
    make_engine,
    migrate,
)
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
    salt: str | None = None
    commitment: str | None = None


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


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat a token opens, its match, and every seat of that match (rows, detached)."""

    seat: SeatRow
    match: MatchRow
    everyone: list[SeatRow]


@dataclass(frozen=True, slots=True)
class ClaimedSeat:
    """A seat an account claimed (or could not claim: ``refused`` says why)."""

    match_id: str
    seat: int
    refused: str | None = None


@dataclass(frozen=True, slots=True)
class KeyedSeat:
    """The seat a token opens and, for a device key, when its session ends (the key with
    it; ``None``: a seat's own token, which does not end)."""

    seat: int
    until: datetime | None


SeatKey = tuple[str, str, int]
"""A device key to keep: the sha256 of its token, its match and its seat."""


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
                rated=live.rated, pace=live.pace, salt=live.salt, commitment=live.commitment,
                paused=False, move_count=0,
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
                seats=seats, moves=moves, rated=row.rated, pace=row.pace, salt=row.salt,
                commitment=row.commitment,
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
            return _with_everyone(session, mine)

    # --- an account's seats ----------------------------------------------------------------
    async def account_seats(self, account_id: str, limit: int) -> list[HeldSeat]:
        """The account's seats, at most ``limit``: first those whose move it is, then those
        of the other unfinished matches, then of the finished ones, each most recently active
        first."""
        return await self.run(self._account_seats, account_id, limit)

    def _account_seats(self, account_id: str, limit: int) -> list[HeldSeat]:
        rank = case((MatchRow.status == "finished", 2), (MatchRow.to_move == SeatRow.seat, 0),
                    else_=1)
        with self._sessions() as session:
            mine = session.execute(
                select(SeatRow, MatchRow).join(MatchRow, MatchRow.id == SeatRow.match_id)
                .where(SeatRow.account_id == account_id)
                .order_by(rank, MatchRow.updated_at.desc(), MatchRow.id, SeatRow.seat)
                .limit(limit)
            ).all()
            return _with_everyone(session, mine)

    async def add_seat_keys(self, keys: Sequence[SeatKey], session_hash: str,
                            now: datetime) -> bool:
        """Keep the device keys ``keys`` of the session whose cookie's sha256 is
        ``session_hash`` (those it has already are left as they are); ``False`` if the session
        is gone (none kept)."""
        try:
            await self.run(self._add_seat_keys, keys, session_hash, now)
        except IntegrityError:  # the session (or, never, the seat) is gone
            return False
        return True

    def _add_seat_keys(self, keys: Sequence[SeatKey], session_hash: str, now: datetime) -> None:
        if not keys:
            return
        with self.engine.begin() as connection:
            known = set(connection.execute(
                select(SeatKeyRow.token_hash)
                .where(SeatKeyRow.session_hash == session_hash,
                       SeatKeyRow.token_hash.in_([key for key, _, _ in keys]))).scalars())
            rows = [{"token_hash": key, "match_id": match_id, "seat": seat,
                     "session_hash": session_hash, "created_at": now}
                    for key, match_id, seat in keys if key not in known]
            if rows:  # two listings at once may both add a key: the second one is ignored
                connection.execute(_insert_ignoring(connection.dialect.name, SeatKeyRow), rows)

    async def seat_for_key(self, match_id: str, token_hash: str,
                           now: datetime) -> KeyedSeat | None:
        """The seat of ``match_id`` the device key whose sha256 is ``token_hash`` opens: only
        while its session lives and the seat belongs to the session's account."""
        return await self.run(self._seat_for_key, match_id, token_hash, now)

    def _seat_for_key(self, match_id: str, token_hash: str, now: datetime) -> KeyedSeat | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(SeatKeyRow.seat, SessionRow.expires_at)
                .join(SessionRow, SessionRow.token_hash == SeatKeyRow.session_hash)
                .join(SeatRow, (SeatRow.match_id == SeatKeyRow.match_id)
                      & (SeatRow.seat == SeatKeyRow.seat))
                .where(SeatKeyRow.token_hash == token_hash, SeatKeyRow.match_id == match_id,
                       SessionRow.expires_at > now,
                       SeatRow.account_id == SessionRow.account_id)).first()
        if row is None or aware(row.expires_at) <= now:
            return None
        return KeyedSeat(int(row.seat), aware(row.expires_at))

    async def claim(self, account_id: str, name: str,
                    token_hashes: Sequence[str]) -> list[ClaimedSeat]:
        """Give the account the human seats whose token hashes are given and that belong to
        no account (nor to a deleted one), named ``name``. In a rated match an account holds
        one seat at most: a seat of a rated match where it holds another is refused."""
        return await self.run(self._claim, account_id, name, token_hashes)

    def _claim(self, account_id: str, name: str,
               token_hashes: Sequence[str]) -> list[ClaimedSeat]:
        with self.engine.begin() as connection:
            candidates = connection.execute(
                select(SeatRow.match_id, SeatRow.seat, MatchRow.rated)
                .join(MatchRow, MatchRow.id == SeatRow.match_id)
                .where(SeatRow.token_hash.in_(list(token_hashes)),
                       SeatRow.account_id.is_(None), SeatRow.deleted.is_(False),
                       SeatRow.kind == "human")
                .order_by(SeatRow.match_id, SeatRow.seat)).all()
            rated = sorted({row.match_id for row in candidates if row.rated})
            held: set[str] = set()
            if rated:  # PostgreSQL: one claim at a time in a rated match (SQLite: one writer)
                connection.execute(select(MatchRow.id).where(MatchRow.id.in_(rated))
                                   .with_for_update())
                held = set(connection.execute(
                    select(SeatRow.match_id).where(SeatRow.match_id.in_(rated),
                                                   SeatRow.account_id == account_id)
                ).scalars())
            out = []
            for row in candidates:
                if row.rated and row.match_id in held:
                    out.append(ClaimedSeat(row.match_id, row.seat,
                                           "you hold another seat of this rated match"))
                    continue
                taken = connection.execute(
                    update(SeatRow)
                    .where(SeatRow.match_id == row.match_id, SeatRow.seat == row.seat,
                           SeatRow.account_id.is_(None), SeatRow.deleted.is_(False))
                    .values(account_id=account_id, name=name))
                if taken.rowcount != 1:
                    continue  # another account claimed it just now
                held.add(row.match_id)
                out.append(ClaimedSeat(row.match_id, row.seat))
            return out


def _with_everyone(session: Any, mine: Sequence[Any]) -> list[HeldSeat]:
    """The ``(seat, match)`` rows ``mine`` as :class:`HeldSeat`, with every seat of their
    matches (one more query)."""
    ids = sorted({match.id for _, match in mine})
    everyone: Mapping[str, list[SeatRow]] = {}
    if ids:
        everyone = _group(session.execute(
            select(SeatRow).where(SeatRow.match_id.in_(ids)).order_by(SeatRow.seat)
        ).scalars())
    return [HeldSeat(seat, match, everyone.get(match.id, [])) for seat, match in mine]


def _insert_ignoring(dialect: str, row: type[Any]) -> Insert:
    """``INSERT`` into ``row``'s table that skips a row whose primary key is taken
    (PostgreSQL's and SQLite's ``ON CONFLICT DO NOTHING``)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert
        return postgresql_insert(row).on_conflict_do_nothing()
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert
        return sqlite_insert(row).on_conflict_do_nothing()
    return insert(row)


def _group(seats: Any) -> dict[str, list[SeatRow]]:
    out: dict[str, list[SeatRow]] = {}
    for seat in seats:
        out.setdefault(seat.match_id, []).append(seat)
    return out


# --- the statements of a move, built once ------------------------------------------------------
MATCHES = cast(Table, MatchRow.__table__)
MOVES = cast(Table, MoveRow.__table__)

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
