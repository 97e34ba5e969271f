"""Storage: the tables, the engine, and the migrations run at start-up.

Three tables hold the games (``docs/server.md`` describes them): ``matches`` (one row a match,
with a few denormalised columns so that start-up and "my games" need no replay, and the current
turn's deadline in a game with a time limit), ``seats`` (one row a seat, with the sha256 of its
secret token, or a computer seat's thinking time) and ``moves`` (one row an accepted action, in
notation). A match's state is rebuilt by replaying its moves through the engine. Two more hold
the players: ``accounts`` and their ``sessions`` (:mod:`triverse.server.accounts`). Four hold
contests (:mod:`triverse.server.contests`): ``contests``, ``contest_entries``,
``contest_boards`` and ``contest_announcements``.

The primary key ``(match_id, number)`` of ``moves`` is what keeps two server processes from
both storing a move ``number`` for the same match: the second insert fails and its process
reloads the match instead.
"""

from __future__ import annotations

import hashlib
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_MIGRATION_LOCK_KEY = 0x7472_6976_6572_7365 & 0x7FFF_FFFF_FFFF_FFFF
"""A PostgreSQL advisory-lock key ("triverse"), so two processes never migrate at once."""


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def hash_token(token: str) -> str:
    """The sha256 hex digest under which a seat token is stored.

    >>> len(hash_token("abc"))
    64
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


class MatchRow(Base):
    """One match: the game, its options and seed, and a summary of where it stands."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    num_players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    mode: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``active`` or ``finished``."""
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True,
                                                      index=True)
    """When the turn at ``move_count`` times out: only in a game with a time limit, while a
    human is to move (migration ``r0002``)."""
    rated: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """Whether the match counts for ratings when it ends (migration ``r0006``)."""
    pace: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """``live`` (minutes a turn) or ``correspondence`` (hours or days a turn), as the lobby
    lists a game; ``NULL`` for matches made before (migration ``r0006``)."""


class SeatRow(Base):
    """One seat of a match: who plays it, and the hash of its token (humans only)."""

    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    think: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Seconds a computer seat that searches (the veteran) thinks about a move; ``NULL``: the
    game's default (migration ``r0003``)."""
    account_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True)
    """The account that took the seat; ``NULL``: a guest, a computer, or a deleted account
    (migration ``r0006``)."""
    deleted: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """The seat's account was deleted: it shows as "deleted player" (migration ``r0006``)."""


class MoveRow(Base):
    """One accepted action, in the game's notation; ``number`` counts from 0."""

    __tablename__ = "moves"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A player's account: a name unique whatever its case, and an argon2id hash of the
    password (migration ``r0005``)."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    """As the player wrote it at sign-up."""
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    """The name case-folded: ``Zoe`` and ``zoe`` are one name."""
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A logged-in browser: the sha256 of its session cookie, and the token it must send back
    with every change it asks for (CSRF); both end at ``expires_at`` or at log-out."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatKeyRow(Base):
    """A seat token minted for one logged-in browser, so that an account's seats open on
    every device it logs in on; it ends with the session (migration ``r0006``)."""

    __tablename__ = "seat_keys"
    __table_args__ = (ForeignKeyConstraint(["match_id", "seat"], ["seats.match_id", "seats.seat"],
                                           ondelete="CASCADE"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    session_hash: Mapped[str] = mapped_column(
        String(64), ForeignKey("sessions.token_hash", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """An account's OpenSkill rating for one game and player count (migration ``r0006``)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "game", "players", "mu"),)

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    """Rated matches played."""
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """What a rated match changed of one seat's rating: written once, when the match ends
    (the primary key refuses a second writer) (migration ``r0006``)."""

    __tablename__ = "rating_changes"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True)
    """``NULL``: a computer seat (its anchor rating never changes) or a deleted account."""
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription, for an account (migration ``r0006``)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(Text)
    endpoint_hash: Mapped[str] = mapped_column(String(64), unique=True)
    """The endpoint's sha256: an endpoint is one subscription, whatever its length."""
    p256dh: Mapped[str] = mapped_column(String(255))
    auth: Mapped[str] = mapped_column(String(255))
    lang: Mapped[str] = mapped_column(String(8))
    """The language its notifications are written in (``en``, ``pl``, ``fr``)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PushQueueRow(Base):
    """A Web Push notification to send, sent (``sent_at``) or given up (``error``)
    (migration ``r0006``)."""

    __tablename__ = "push_queue"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subscription_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    error: Mapped[str | None] = mapped_column(Text, nullable=True)


class ServerSecretRow(Base):
    """A value every server process shares, such as the VAPID key pair (migration
    ``r0006``)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class ContestRow(Base):
    """A contest: a host's game for many players on several boards (migration ``r0008``,
    :mod:`triverse.server.contests`)."""

    __tablename__ = "contests"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The options of every board's match (with ``time_limit`` from ``turn_seconds``)."""
    players_per_board: Mapped[int] = mapped_column(Integer)
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Seconds a turn, in a game with a time-out rule; ``NULL``: turns are not timed."""
    signup_closes: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``signup``, ``closing`` (the draw being made), ``running``, ``finished`` or
    ``cancelled``."""
    cancel_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    host_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True)
    """The host's account (``NULL`` once it is deleted: nobody hosts it any more)."""
    host_name: Mapped[str] = mapped_column(String(64))
    rewards: Mapped[list[int]] = mapped_column(JSON)
    """The reward of each place on a board, first place first."""
    reward_name: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(BigInteger)
    """The draw's seed: secret until the draw is made."""
    salt: Mapped[str] = mapped_column(String(64))
    """The commitment's salt: secret until the draw is made."""
    commitment: Mapped[str] = mapped_column(String(64))
    """The SHA-256 that binds the seed, shown from the creation."""
    entries_made: Mapped[int] = mapped_column(Integer, server_default="0")
    """The entry numbers given so far (an entry's number is never given again)."""
    announcements_made: Mapped[int] = mapped_column(Integer, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                         nullable=True)


class ContestEntryRow(Base):
    """An entrant of a contest: a human (an account's, or a guest's, known by the sha256 of
    their secret) or a computer level; their board and seat once drawn (migration
    ``r0008``)."""

    __tablename__ = "contest_entries"
    __table_args__ = (UniqueConstraint("contest_id", "account_id",
                                       name="uq_contest_entries_account"),)

    contest_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("contests.id", ondelete="CASCADE"), primary_key=True)
    entry: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Numbered from 1 in sign-up order, within the contest."""
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    """``human`` or a computer level."""
    account_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True)
    secret_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    """The sha256 of a human's secret (also their seat's token); ``NULL`` for a computer."""
    removed: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """The host removed them once the boards started: their turns are passed."""
    board: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ContestBoardRow(Base):
    """A board of a contest and the match played on it (migration ``r0008``)."""

    __tablename__ = "contest_boards"

    contest_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("contests.id", ondelete="CASCADE"), primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), unique=True)


class ContestAnnouncementRow(Base):
    """A host's announcement on a contest's page (migration ``r0008``)."""

    __tablename__ = "contest_announcements"

    contest_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("contests.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def make_engine(url: str, **options: Any) -> Engine:
    """A SQLAlchemy engine for ``url``; SQLite gets WAL, foreign keys and a busy timeout.
    ``options`` go to ``create_engine`` for other databases (``isolation_level``, say)."""
    if url.startswith("sqlite"):
        memory = ":memory:" in url or url in ("sqlite://", "sqlite:///")
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30},
            # An in-memory database exists once per connection: share a single one.
            **({"poolclass": StaticPool} if memory else {}),
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
                # With WAL, NORMAL keeps the database consistent after a crash and drops the
                # sync on every commit (3.9 ms each here: benchmarks/ws_load.py).
                cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    # The pool holds a connection for every thread that may use one at once (asyncio's default
    # executor has min(32, cores + 4) threads), so connections are not opened per move.
    threads = min(32, (os.cpu_count() or 1) + 4)
    engine = create_engine(url, pool_size=threads + 1, max_overflow=4, **options)
    ping_when_idle(engine)
    return engine


PING_AFTER = 1.0
"""Seconds a pooled connection may have been idle before it is checked at checkout."""


def ping_when_idle(engine: Engine, after: float = PING_AFTER) -> None:
    """Check a pooled connection that has been idle more than ``after`` seconds as it is
    checked out (one round trip), and replace it if the database dropped it (a restart, say):
    ``pool_pre_ping`` checks every checkout, a round trip before every move under load. A
    connection dropped while in use fails that statement, and the pool replaces it then."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since <= after:
            return  # new, or in use a moment ago
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            raise DisconnectionError("the database dropped the connection") from exc


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema with Alembic (idempotent).

    On PostgreSQL an advisory lock makes concurrent start-ups wait for each other.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": _MIGRATION_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
