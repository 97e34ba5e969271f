"""A claim on the database, held for the process's lifetime: one server alone, or several that
share it.

Each server process keeps the matches it serves replayed in memory
(:mod:`triverse.server.matches`). A process without Redis hears of nobody else's moves, so a
second process on the same database would serve copies that fall behind the moves the first
one stores. So a server claims its database at start-up (:func:`claim_database`, from the
application's lifespan) and gives the claim up when it stops; a second server on the same
database is refused with :class:`DatabaseInUse`. :func:`check_database` only looks, for
``triverse serve`` to refuse early and plainly.

Servers that share Redis (``Settings.redis_url``) hear of each other's changes, so they take a
*shared* claim (``shared=True``): any number of them may hold it together, while it still
keeps out a server without Redis, and a server without Redis keeps them out (PostgreSQL's
shared and exclusive advisory locks on the same key).

- **PostgreSQL**: ``pg_try_advisory_lock(key)`` (``pg_try_advisory_lock_shared``) on a
  connection of the claim's own, in autocommit, kept open until the end. Advisory locks belong
  to one database of a cluster; the key is derived from the schema the tables live in
  (``current_schema()``), so servers on other schemas of the same database are not refused.
  The connection is named (its ``application_name``) after the process, so a refusal can say
  who holds the lock. A connection can drop while the server lives (the database restarts):
  :func:`keep_claim` checks it every :data:`RENEW_EVERY` seconds and takes the lock again on a
  new one.
- **A SQLite file**: an exclusive, non-blocking ``flock`` on the file ``<database>.lock``
  beside it (Windows: ``msvcrt.locking``), which the holder writes its process id, host and
  start time into. Not on the database file itself: SQLite locks that with ``fcntl`` record
  locks, which some file systems (NFS) implement with the same mechanism. The lock file is
  never deleted (deleting a file another process has open and locked would let a third
  process lock a new file of the same name).
- **In-memory SQLite**: nothing to claim (no other process can open it).
- **Other databases**: no claim; a warning is logged.

Either kind of lock belongs to an open file or connection that the operating system closes
when the process ends, however it ends: a server killed with ``kill -9`` leaves no claim
behind, and nothing needs cleaning up or timing out (a lock row with a heartbeat would). The
computer players' worker processes are forked from the server; each drops its copy of a held
claim's descriptor at once (``os.register_at_fork``), so that a worker that outlives a killed
server does not keep its claim.

>>> claim = claim_database("sqlite://")
>>> claim.where
'an in-memory database'
>>> claim.release()
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import socket
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, make_url, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import NullPool

from triverse.server.config import database_url

log = logging.getLogger(__name__)

__all__ = ["RENEW_EVERY", "DatabaseClaim", "DatabaseInUse", "check_database", "claim_database",
           "keep_claim", "lock_file_of"]

RENEW_EVERY = 30.0
"""Seconds between two checks of a claim that can lapse (:func:`keep_claim`)."""

_HELD_FDS: set[int] = set()
"""The file descriptors of the claims this process holds (dropped in forked children)."""


def _drop_claims_in_child() -> None:
    """In a forked child, point every held claim's descriptor at ``/dev/null``: the child no
    longer keeps the lock file open (or the PostgreSQL socket), while the descriptor numbers
    stay valid for anything the child inherited that might still name them."""
    if not _HELD_FDS:
        return
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in _HELD_FDS:
            os.dup2(null, fd)
    finally:
        os.close(null)
    _HELD_FDS.clear()


if sys.platform != "win32":
    os.register_at_fork(after_in_child=_drop_claims_in_child)


class DatabaseInUse(RuntimeError):
    """Another Triverse server holds the claim on this database."""


def _whoami() -> str:
    return f"pid {os.getpid()} on {socket.gethostname()}"


class DatabaseClaim:
    """A claim on a database (see the module): :meth:`release` gives it up.

    ``where`` names the database as a person reads it. This base class is the claim that
    holds nothing (an in-memory database, or a kind of database without a lock).
    """

    def __init__(self, where: str) -> None:
        self.where = where

    @property
    def held(self) -> bool:
        """Whether this claim still holds a lock."""
        return False

    @property
    def can_lapse(self) -> bool:
        """Whether the claim can be lost while the process lives (a PostgreSQL connection
        can drop: the database restarts, say), so that :func:`keep_claim` should renew it."""
        return False

    def renew(self) -> bool:
        """Check that the claim is still held and, if it was lost, take it again; whether it
        is held (blocking: it may reach the database)."""
        return self.held

    def release(self) -> None:
        """Give the claim up (again: nothing happens)."""


class _FileClaim(DatabaseClaim):
    """A lock on ``<database>.lock`` (see the module)."""

    def __init__(self, where: str, path: Path, create: bool = True) -> None:
        """Lock ``path`` (made if missing, and told who holds it; ``create=False`` for a
        look: neither)."""
        super().__init__(where)
        self.path = path
        fd = os.open(path, os.O_RDWR | (os.O_CREAT if create else 0), 0o644)
        try:
            if not _lock_file(fd):
                holder = _read_holder(fd)
                raise DatabaseInUse(_refusal(where, holder))
            if create and sys.platform != "win32":  # (Windows: not below the locked byte;
                os.ftruncate(fd, 0)                   # only the first line is read anyway)
            if create:
                os.write(fd, f"triverse serve: {_whoami()}, since {_now()}\n".encode())
        except BaseException:
            os.close(fd)
            raise
        self._fd: int | None = fd
        _HELD_FDS.add(fd)

    @classmethod
    def look(cls, where: str, path: Path) -> None:
        """:class:`DatabaseInUse` if a server holds the lock file ``path`` now; a missing
        file is free (every holder creates it), and is not created."""
        with contextlib.suppress(FileNotFoundError):
            cls(where, path, create=False).release()

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        _HELD_FDS.discard(fd)
        os.close(fd)  # closing the last descriptor of the open file releases its lock


class _PostgresClaim(DatabaseClaim):
    """An advisory lock on a connection of its own (see the module); ``shared``: the lock that
    servers sharing Redis hold together."""

    def __init__(self, where: str, url: str, shared: bool = False) -> None:
        super().__init__(where)
        self.shared = shared
        self._base_where = where
        self._engine: Engine = create_engine(
            url, poolclass=NullPool,
            connect_args={"application_name": f"triverse serve, {_whoami()}"[:63]})
        self._mutex = threading.Lock()
        self._connection: Connection | None = None
        self._fd: int | None = None
        self._released = False
        self.backend: int | None = None
        """The PostgreSQL process id of the connection that holds the lock."""
        try:
            self._take()
        except BaseException:
            self._engine.dispose()
            raise

    def _take(self) -> None:
        """Connect and take the lock (:class:`DatabaseInUse` if it is taken)."""
        connection = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            schema = connection.execute(text("SELECT current_schema()")).scalar() or ""
            self.key = postgres_key(str(schema))
            if schema and schema != "public":
                self.where = f"{self._base_where} (schema {schema})"
            taken = connection.execute(text(f"SELECT pg_try_advisory_lock{self._kind}(:key)"),
                                       {"key": self.key}).scalar()
            if not taken:
                raise DatabaseInUse(_refusal(self.where, _postgres_holder(connection,
                                                                          self.key),
                                             self.shared))
            self.backend = connection.execute(text("SELECT pg_backend_pid()")).scalar()
            fd = _socket_of(connection)
        except BaseException:
            connection.close()
            raise
        self._connection, self._fd = connection, fd
        if fd is not None:
            _HELD_FDS.add(fd)

    @property
    def _kind(self) -> str:
        """The suffix of PostgreSQL's advisory-lock functions for this claim's lock."""
        return "_shared" if self.shared else ""

    def _drop(self) -> Connection | None:
        """Forget the connection (the caller closes it)."""
        connection, self._connection = self._connection, None
        if self._fd is not None:
            _HELD_FDS.discard(self._fd)
            self._fd = None
        return connection

    @property
    def held(self) -> bool:
        return self._connection is not None

    @property
    def can_lapse(self) -> bool:
        return True

    def renew(self) -> bool:
        with self._mutex:
            if self._released:
                return False
            if self._connection is not None:
                try:
                    self._connection.execute(text("SELECT 1"))
                    return True
                except Exception as exc:
                    log.warning("the connection holding the claim on %s was lost (%s); "
                                "claiming the database again", self.where, exc)
                    lost = self._drop()
                    if lost is not None:
                        with contextlib.suppress(Exception):
                            lost.invalidate()
                            lost.close()
            try:
                self._take()
            except DatabaseInUse as exc:
                log.error("this server lost its claim on the database, and cannot take it "
                          "again: %s", exc)
                return False
            except Exception as exc:
                log.error("this server lost its claim on the database %s and cannot reach "
                          "it to claim it again (%s); it will try again", self.where, exc)
                return False
            log.info("claimed the database %s again", self.where)
            return True

    def release(self) -> None:
        with self._mutex:
            if self._released:
                return
            self._released = True
            connection = self._drop()
            try:
                if connection is not None:
                    connection.execute(text(f"SELECT pg_advisory_unlock{self._kind}(:key)"),
                                       {"key": self.key})
            except Exception as exc:  # the connection is gone, and its lock with it
                log.warning("releasing the claim on %s: %s", self.where, exc)
            finally:
                if connection is not None:
                    connection.close()
                self._engine.dispose()


def postgres_key(schema: str) -> int:
    """The advisory-lock key (a signed 64-bit number) of a server whose tables are in
    ``schema``.

    >>> postgres_key("public") == postgres_key("public") != postgres_key("other")
    True
    >>> -2**63 <= postgres_key("public") < 2**63
    True
    """
    digest = hashlib.sha256(f"triverse serve\0{schema}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def lock_file_of(database: str | os.PathLike[str]) -> Path:
    """The lock file of a SQLite database file: ``<database>.lock``, beside the file its
    path leads to (symbolic links followed).

    >>> lock_file_of("/srv/games/triverse.sqlite3").name
    'triverse.sqlite3.lock'
    """
    real = Path(os.path.realpath(database))
    return real.with_name(real.name + ".lock")


def claim_database(url: str, shared: bool = False) -> DatabaseClaim:
    """Claim the database at the SQLAlchemy ``url`` for this process, until the claim's
    :meth:`~DatabaseClaim.release` (see the module). :class:`DatabaseInUse` if another server
    (another process, or another application in this one) holds it; with ``shared`` (servers
    that share Redis, PostgreSQL only), if a server without Redis holds it."""
    parsed = make_url(database_url(url))
    backend = parsed.get_backend_name()
    if shared and backend != "postgresql":
        raise ValueError("only servers on PostgreSQL can share a database")
    if backend == "sqlite":
        path = _sqlite_file(parsed.database, dict(parsed.query))
        if path is None:
            return DatabaseClaim("an in-memory database")
        return _FileClaim(path, lock_file_of(path))
    where = parsed.render_as_string(hide_password=True)
    if backend == "postgresql":
        return _PostgresClaim(where, parsed.render_as_string(hide_password=False), shared)
    log.warning("no claim on %s: another server process could use it at the same time, "
                "which Triverse does not support yet", where)
    return DatabaseClaim(where)


def check_database(url: str, shared: bool = False) -> None:
    """:class:`DatabaseInUse` if another server holds the claim on the database at ``url``
    now (one that ``shared`` servers, which share Redis, cannot hold with it); nothing is kept
    (and no lock file is made). A look before starting, for a clear message: only
    :func:`claim_database` makes sure."""
    parsed = make_url(database_url(url))
    if parsed.get_backend_name() == "sqlite":
        path = _sqlite_file(parsed.database, dict(parsed.query))
        if path is not None:
            _FileClaim.look(path, lock_file_of(path))
        return
    claim_database(url, shared).release()


async def keep_claim(claim: DatabaseClaim, every: float | None = None) -> None:
    """Renew ``claim`` every ``every`` seconds (:data:`RENEW_EVERY`) until cancelled: a
    PostgreSQL claim whose connection dropped is taken again, and an error is logged if
    another server took it meanwhile."""
    while True:
        await asyncio.sleep(RENEW_EVERY if every is None else every)
        await asyncio.to_thread(claim.renew)


def _sqlite_file(database: str | None, query: dict[str, Any]) -> str | None:
    """The database file of a SQLite URL, ``None`` for an in-memory database.

    >>> _sqlite_file("games.sqlite3", {}), _sqlite_file(None, {}), _sqlite_file(":memory:", {})
    ('games.sqlite3', None, None)
    >>> _sqlite_file("file:games.sqlite3", {"uri": "true"})
    'games.sqlite3'
    >>> _sqlite_file("file:x", {"uri": "true", "mode": "memory", "cache": "shared"})
    """
    if not database or database == ":memory:" or query.get("mode") == "memory":
        return None
    if str(query.get("uri", "")).lower() in ("true", "1") and database.startswith("file:"):
        name, _, options = database.removeprefix("file:").partition("?")
        if "mode=memory" in options.split("&") or not name or name == ":memory:":
            return None
        return name
    return database


def _refusal(where: str, holder: str, shared: bool = False) -> str:
    who = f" ({holder})" if holder else ""
    if shared:
        return (f"a Triverse server without Redis is using the database {where}{who}: stop "
                "it, or start it again with the same --redis as this one")
    return (f"another Triverse server is using the database {where}{who}: stop it first, or "
            "give this server another database. Several servers may share a PostgreSQL "
            "database only with Redis (--redis, TRIVERSE_REDIS_URL), all of them.")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _lock_file(fd: int) -> bool:
    """Lock the open file ``fd`` exclusively, without waiting; whether it was free."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, 1 << 20, os.SEEK_SET)  # a byte past the holder's line, which stays readable
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        os.lseek(fd, 0, os.SEEK_SET)
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _read_holder(fd: int) -> str:
    """What the holder of a lock file wrote into it (its first line), if anything."""
    try:
        line = os.pread(fd, 200, 0) if hasattr(os, "pread") else b""
    except OSError:
        return ""
    return line.decode("utf-8", "replace").partition("\n")[0].removeprefix(
        "triverse serve: ").strip()


def _socket_of(connection: Connection) -> int | None:
    """The socket of a psycopg connection under SQLAlchemy."""
    fileno = getattr(connection.connection.dbapi_connection, "fileno", None)
    return int(fileno()) if callable(fileno) else None


def _postgres_holder(connection: Connection, key: int) -> str:
    """Who holds the advisory lock ``key`` in this database, as its connection is named
    (empty if that cannot be seen)."""
    unsigned = key & 0xFFFF_FFFF_FFFF_FFFF
    try:
        name = connection.execute(text(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND l.classid::bigint = :high AND l.objid::bigint = :low"),
            {"high": unsigned >> 32, "low": unsigned & 0xFFFF_FFFF}).scalar()
    except Exception:
        return ""
    return str(name).removeprefix("triverse serve, ") if name else ""
