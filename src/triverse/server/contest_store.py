"""The SQL of contests (:mod:`triverse.server.contests`): contests, their entrants, boards and
announcements. Like :class:`~triverse.server.repository.MatchRepository`, it knows rows, not
rules, and runs its blocking work off the event loop (``run``: the repository's).
SQLAlchemy Core, no ORM.

Every change that depends on a contest's status first updates the contest's row with the
status in its ``WHERE`` (a row lock on PostgreSQL until the commit, the database's write lock
on SQLite): a sign-up and the close of sign-up go one after the other, and of two processes
closing one contest exactly one changes its status.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine

from triverse.server.db import (
    ContestAnnouncementRow,
    ContestBoardRow,
    ContestEntryRow,
    ContestRow,
    MatchRow,
    SeatRow,
)

CONTESTS = cast(Table, ContestRow.__table__)
ENTRIES = cast(Table, ContestEntryRow.__table__)
BOARDS = cast(Table, ContestBoardRow.__table__)
NEWS = cast(Table, ContestAnnouncementRow.__table__)
MATCHES = cast(Table, MatchRow.__table__)
SEATS = cast(Table, SeatRow.__table__)


class Refused(Exception):
    """A change the contest's rows refuse: ``reason`` is ``unknown`` (no such contest),
    ``closed`` (not in sign-up), ``full``, ``entered`` (the account has an entry),
    ``not_entered`` (no such entry), ``not_running`` or ``announcements`` (too many)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ContestData:
    """A contest's rows: the contest, its entries (by number), boards (by number) and
    announcements (oldest first)."""

    contest: Any
    entries: list[Any]
    boards: list[Any]
    announcements: list[Any]


@dataclass(frozen=True, slots=True)
class Summary:
    """A contest as lists show it: its row and how many entrants it has."""

    contest: Any
    entrants: int


@dataclass(frozen=True, slots=True)
class SeatGiven:
    """An entrant's seat on a board: the seat's token hash and account."""

    entry: int
    seat: int
    secret_hash: str | None
    account_id: str | None


class ContestStore:
    """Contests in the database (see the module)."""

    def __init__(self, engine: Engine, run: Callable[..., Awaitable[Any]]) -> None:
        self.engine = engine
        self.run = run

    # --- reading -------------------------------------------------------------------------------
    async def read(self, contest_id: str) -> ContestData | None:
        """The contest's rows, ``None`` if there is no such contest."""
        found: ContestData | None = await self.run(self._read, contest_id)
        return found

    def _read(self, contest_id: str) -> ContestData | None:
        with self.engine.connect() as connection:
            contest = connection.execute(
                select(CONTESTS).where(CONTESTS.c.id == contest_id)).first()
            if contest is None:
                return None
            entries = connection.execute(select(ENTRIES).where(
                ENTRIES.c.contest_id == contest_id).order_by(ENTRIES.c.entry)).all()
            boards = connection.execute(select(BOARDS).where(
                BOARDS.c.contest_id == contest_id).order_by(BOARDS.c.board)).all()
            news = connection.execute(select(NEWS).where(
                NEWS.c.contest_id == contest_id).order_by(NEWS.c.number)).all()
            return ContestData(contest, list(entries), list(boards), list(news))

    async def summaries(self, limit: int) -> list[Summary]:
        """The newest contests, at most ``limit``, with their entrant counts."""
        found: list[Summary] = await self.run(self._summaries, limit)
        return found

    def _summaries(self, limit: int) -> list[Summary]:
        counted = (select(ENTRIES.c.contest_id, func.count().label("n"))
                   .group_by(ENTRIES.c.contest_id).subquery())
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(CONTESTS, func.coalesce(counted.c.n, 0).label("entrants"))
                .outerjoin(counted, counted.c.contest_id == CONTESTS.c.id)
                .order_by(CONTESTS.c.created_at.desc(), CONTESTS.c.id).limit(limit)).all()
        return [Summary(row, int(row.entrants)) for row in rows]

    async def board_of(self, match_id: str) -> str | None:
        """The contest whose board ``match_id`` is, if any."""
        found: str | None = await self.run(self._scalar, select(BOARDS.c.contest_id).where(
            BOARDS.c.match_id == match_id))
        return found

    async def removed_seats(self, match_id: str) -> set[int]:
        """The seats of the board ``match_id`` whose entrants were removed."""
        seats: set[int] = await self.run(self._removed_seats, match_id)
        return seats

    def _removed_seats(self, match_id: str) -> set[int]:
        with self.engine.connect() as connection:
            return {int(seat) for seat in connection.execute(
                select(ENTRIES.c.seat).join(BOARDS, and_(
                    BOARDS.c.contest_id == ENTRIES.c.contest_id,
                    BOARDS.c.board == ENTRIES.c.board))
                .where(BOARDS.c.match_id == match_id, ENTRIES.c.removed.is_(True))).scalars()}

    def _scalar(self, query: Any) -> Any:
        with self.engine.connect() as connection:
            return connection.execute(query).scalar()

    async def due(self) -> list[tuple[str, datetime]]:
        """The contests whose sign-up is open (or whose draw was begun and not finished, by
        a process that stopped), and when each closes."""
        rows: list[tuple[str, datetime]] = await self.run(self._due)
        return rows

    def _due(self) -> list[tuple[str, datetime]]:
        with self.engine.connect() as connection:
            return [(row.id, row.signup_closes) for row in connection.execute(
                select(CONTESTS.c.id, CONTESTS.c.signup_closes)
                .where(CONTESTS.c.status.in_(("signup", "closing"))))]

    async def over(self) -> list[str]:
        """The running contests whose boards have all ended (the listener that ends a
        contest with its last board failed, or its process stopped)."""
        ids: list[str] = await self.run(self._over)
        return ids

    def _over(self) -> list[str]:
        playing = (select(BOARDS.c.contest_id).join(MATCHES, MATCHES.c.id == BOARDS.c.match_id)
                   .where(MATCHES.c.status != "finished"))
        with self.engine.connect() as connection:
            return list(connection.execute(select(CONTESTS.c.id).where(
                CONTESTS.c.status == "running", CONTESTS.c.id.not_in(playing))).scalars())

    async def removed_to_move(self) -> list[tuple[str, int]]:
        """The board matches (unfinished) whose seat to move is a removed entrant's, and
        their move numbers."""
        rows: list[tuple[str, int]] = await self.run(self._removed_to_move)
        return rows

    def _removed_to_move(self) -> list[tuple[str, int]]:
        with self.engine.connect() as connection:
            return [(row.id, row.move_count) for row in connection.execute(
                select(MATCHES.c.id, MATCHES.c.move_count)
                .join(BOARDS, BOARDS.c.match_id == MATCHES.c.id)
                .join(ENTRIES, and_(ENTRIES.c.contest_id == BOARDS.c.contest_id,
                                    ENTRIES.c.board == BOARDS.c.board,
                                    ENTRIES.c.seat == MATCHES.c.to_move))
                .where(MATCHES.c.status == "active", ENTRIES.c.removed.is_(True)))]

    # --- sign-up -------------------------------------------------------------------------------
    async def create(self, values: dict[str, Any]) -> None:
        """Store a new contest (its row's ``values``)."""
        await self.run(self._execute, insert(CONTESTS).values(**values))

    def _execute(self, statement: Any) -> None:
        with self.engine.begin() as connection:
            connection.execute(statement)

    async def add_entry(
        self, contest_id: str, values: dict[str, Any], now: datetime, most: int,
    ) -> int:
        """Add an entrant (``values``: name (``None``: the kind and number, for a computer),
        kind, account_id, secret_hash) to a contest in sign-up, at most ``most`` entrants;
        its number (:class:`Refused`: ``unknown``,
        ``closed``, ``full``, ``entered``)."""
        number: int = await self.run(self._add_entry, contest_id, values, now, most)
        return number

    def _add_entry(self, contest_id: str, values: dict[str, Any], now: datetime,
                   most: int) -> int:
        with self.engine.begin() as connection:
            _in_signup(connection, contest_id, now, entries_made=CONTESTS.c.entries_made + 1)
            entries = connection.execute(select(ENTRIES.c.account_id).where(
                ENTRIES.c.contest_id == contest_id)).scalars().all()
            if len(entries) >= most:
                raise Refused("full")
            account = values.get("account_id")
            if account is not None and account in entries:
                raise Refused("entered")
            number = int(connection.execute(select(CONTESTS.c.entries_made).where(
                CONTESTS.c.id == contest_id)).scalar_one())
            if values.get("name") is None:  # a computer unnamed: its level and number
                values = {**values, "name": f"{str(values['kind']).capitalize()} {number}"}
            connection.execute(insert(ENTRIES).values(
                contest_id=contest_id, entry=number, created_at=now, **values))
            return number

    async def find_entry(self, contest_id: str, secret_hash: str | None,
                         account_id: str | None) -> Any | None:
        """The entry whose secret has ``secret_hash``, else the account's, if any."""
        found: Any | None = await self.run(self._find_entry, contest_id, secret_hash,
                                           account_id)
        return found

    def _find_entry(self, contest_id: str, secret_hash: str | None,
                    account_id: str | None) -> Any | None:
        with self.engine.connect() as connection:
            for column, value in ((ENTRIES.c.secret_hash, secret_hash),
                                  (ENTRIES.c.account_id, account_id)):
                if value is not None:
                    row = connection.execute(select(ENTRIES).where(
                        ENTRIES.c.contest_id == contest_id, column == value)).first()
                    if row is not None:
                        return row
        return None

    async def delete_entry(self, contest_id: str, entry: int, now: datetime) -> None:
        """Delete an entry of a contest in sign-up (:class:`Refused`: ``unknown``,
        ``closed``, ``not_entered``)."""
        await self.run(self._delete_entry, contest_id, entry, now)

    def _delete_entry(self, contest_id: str, entry: int, now: datetime) -> None:
        with self.engine.begin() as connection:
            _in_signup(connection, contest_id, now)
            done = connection.execute(delete(ENTRIES).where(
                ENTRIES.c.contest_id == contest_id, ENTRIES.c.entry == entry))
            if done.rowcount != 1:
                raise Refused("not_entered")

    # --- status --------------------------------------------------------------------------------
    async def set_status(self, contest_id: str, old: Sequence[str], new: str, now: datetime,
                         **values: Any) -> bool:
        """Change the status from one of ``old`` to ``new`` (with ``values``); whether this
        call changed it (``False``: it was not in ``old``, another process changed it)."""
        done: bool = await self.run(self._set_status, contest_id, old, new, now, values)
        return done

    def _set_status(self, contest_id: str, old: Sequence[str], new: str, now: datetime,
                    values: dict[str, Any]) -> bool:
        with self.engine.begin() as connection:
            done = connection.execute(update(CONTESTS).where(
                CONTESTS.c.id == contest_id, CONTESTS.c.status.in_(tuple(old)))
                .values(status=new, updated_at=now, **values))
            return bool(done.rowcount == 1)

    async def add_board(self, contest_id: str, board: int, match_id: str,
                        seats: Sequence[SeatGiven]) -> None:
        """Record a board and its match, each entrant's board and seat, and give each human
        seat its entrant's secret hash (as its token) and account, at once."""
        await self.run(self._add_board, contest_id, board, match_id, seats)

    def _add_board(self, contest_id: str, board: int, match_id: str,
                   seats: Sequence[SeatGiven]) -> None:
        with self.engine.begin() as connection:
            connection.execute(insert(BOARDS).values(contest_id=contest_id, board=board,
                                                     match_id=match_id))
            for given in seats:
                connection.execute(update(ENTRIES).where(
                    ENTRIES.c.contest_id == contest_id, ENTRIES.c.entry == given.entry)
                    .values(board=board, seat=given.seat))
                if given.secret_hash is not None:
                    connection.execute(update(SEATS).where(
                        SEATS.c.match_id == match_id, SEATS.c.seat == given.seat)
                        .values(token_hash=given.secret_hash, account_id=given.account_id))

    async def finish_if_over(self, contest_id: str, now: datetime) -> bool:
        """Mark a running contest finished if every board's match is; whether this call
        did."""
        done: bool = await self.run(self._finish_if_over, contest_id, now)
        return done

    def _finish_if_over(self, contest_id: str, now: datetime) -> bool:
        with self.engine.begin() as connection:
            playing = connection.execute(
                select(func.count()).select_from(BOARDS.join(
                    MATCHES, MATCHES.c.id == BOARDS.c.match_id))
                .where(BOARDS.c.contest_id == contest_id,
                       MATCHES.c.status != "finished")).scalar_one()
            if playing:
                return False
            done = connection.execute(update(CONTESTS).where(
                CONTESTS.c.id == contest_id, CONTESTS.c.status == "running")
                .values(status="finished", updated_at=now, finished_at=now))
            return bool(done.rowcount == 1)

    # --- host actions during play ---------------------------------------------------------------
    async def remove(self, contest_id: str, entry: int) -> Any:
        """Mark an entrant of a running contest removed; its row (:class:`Refused`:
        ``not_running``, ``not_entered``)."""
        row: Any = await self.run(self._remove, contest_id, entry)
        return row

    def _remove(self, contest_id: str, entry: int) -> Any:
        with self.engine.begin() as connection:
            status = connection.execute(select(CONTESTS.c.status).where(
                CONTESTS.c.id == contest_id)).scalar()
            if status != "running":
                raise Refused("not_running")
            done = connection.execute(update(ENTRIES).where(
                ENTRIES.c.contest_id == contest_id, ENTRIES.c.entry == entry)
                .values(removed=True))
            if done.rowcount != 1:
                raise Refused("not_entered")
            return connection.execute(select(ENTRIES).where(
                ENTRIES.c.contest_id == contest_id, ENTRIES.c.entry == entry)).one()

    async def seat_to_computer(self, match_id: str, seat: int, level: str) -> None:
        """A computer of ``level`` plays ``seat`` of ``match_id`` from now on: its token no
        longer opens it."""
        await self.run(self._execute, update(SEATS).where(
            SEATS.c.match_id == match_id, SEATS.c.seat == seat)
            .values(kind=level, token_hash=None, think=None))

    async def announce(self, contest_id: str, text: str, now: datetime, most: int) -> int:
        """Add an announcement (at most ``most`` a contest); its number (:class:`Refused`:
        ``unknown``, ``announcements``)."""
        number: int = await self.run(self._announce, contest_id, text, now, most)
        return number

    def _announce(self, contest_id: str, text: str, now: datetime, most: int) -> int:
        with self.engine.begin() as connection:
            done = connection.execute(update(CONTESTS).where(
                CONTESTS.c.id == contest_id, CONTESTS.c.announcements_made < most)
                .values(announcements_made=CONTESTS.c.announcements_made + 1))
            if done.rowcount != 1:
                exists = connection.execute(select(CONTESTS.c.id).where(
                    CONTESTS.c.id == contest_id)).first()
                raise Refused("unknown" if exists is None else "announcements")
            number = int(connection.execute(select(CONTESTS.c.announcements_made).where(
                CONTESTS.c.id == contest_id)).scalar_one())
            connection.execute(insert(NEWS).values(contest_id=contest_id, number=number,
                                                   text=text, created_at=now))
            return number


def _in_signup(connection: Connection, contest_id: str, now: datetime,
               **values: Any) -> None:
    """Touch a contest's row while its sign-up is open (locking it until the commit), or
    refuse: ``unknown``, ``closed``."""
    touched = connection.execute(update(CONTESTS).where(
        CONTESTS.c.id == contest_id, CONTESTS.c.status == "signup",
        CONTESTS.c.signup_closes > now).values(updated_at=now, **values))
    if touched.rowcount != 1:
        exists = connection.execute(select(CONTESTS.c.id).where(
            CONTESTS.c.id == contest_id)).first()
        raise Refused("unknown" if exists is None else "closed")
