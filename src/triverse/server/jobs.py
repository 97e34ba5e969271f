"""Work that exactly one server process does: a computer player's turns, a turn's time-out, a
hint or a review.

Several server processes on one database (``Settings.redis_url``) could each start the same
work: every process hears that a computer is to move, every process's deadline scheduler knows
when a turn ends. Before it acts, a process *claims* the job by name (``computer:<match>``,
``deadline:<match>:<move>``, ``advice:hint:<match>:<seat>:<move>``); a claim another process
holds is refused, and the process leaves the job to it.

- :class:`LocalJobs` is the one process's claims (the embedded default): a set in memory, since
  the only competitors are this process's own tasks.
- :class:`PostgresJobs` takes a PostgreSQL session advisory lock per job, on a connection of
  its own. PostgreSQL releases a session's locks when its connection closes, so a process that
  dies, even by ``kill -9``, leaves no claim behind: the operating system closes its socket and
  the job is free at once. The other processes look for work nobody holds every
  ``Settings.job_poll`` seconds (:meth:`ComputerPlayers.sweep
  <triverse.server.computers.ComputerPlayers.sweep>`, the deadline scheduler's reads), so a
  dead process's work is picked up within seconds.

A claim only decides who *tries*: every change is still stored with the optimistic
``move_count`` guard (:mod:`triverse.server.repository`), which the database checks. If the
claims' connection drops (the database restarts), its locks are gone; the process logs it and
claims again on a new connection, and in the moment between, the guard keeps two processes
from both storing a move.

>>> import asyncio
>>> async def demo() -> tuple[bool, bool, bool]:
...     jobs = LocalJobs()
...     first = await jobs.claim("computer:m1")
...     again = await jobs.claim("computer:m1")
...     await jobs.release("computer:m1")
...     return first, again, await jobs.claim("computer:m1")
>>> asyncio.run(demo())
(True, False, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import threading
from typing import Protocol

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import NullPool

log = logging.getLogger(__name__)

__all__ = ["Jobs", "LocalJobs", "PostgresJobs", "give_up", "job_key", "jobs_for"]


class Jobs(Protocol):
    """Claims on named jobs, each held by at most one process (see the module)."""

    async def claim(self, job: str) -> bool:
        """Take the job if nobody (no process, no task of this one) holds it; whether taken."""
        ...

    async def release(self, job: str) -> None:
        """Give up a job this process holds (a job it does not hold: nothing happens)."""
        ...

    def holds(self, job: str) -> bool:
        """Whether this process holds the job."""
        ...

    async def close(self) -> None:
        """Give up every claim."""
        ...


class LocalJobs:
    """The claims of a lone process (see the module)."""

    def __init__(self) -> None:
        self._held: set[str] = set()

    async def claim(self, job: str) -> bool:
        if job in self._held:
            return False
        self._held.add(job)
        return True

    async def release(self, job: str) -> None:
        self._held.discard(job)

    def holds(self, job: str) -> bool:
        return job in self._held

    async def close(self) -> None:
        self._held.clear()


async def give_up(jobs: Jobs, job: str) -> None:
    """Release ``job``, logging (not raising) a failure: the work is done either way, and a
    claim that cannot be released went with its connection."""
    try:
        await jobs.release(job)
    except Exception:
        log.exception("cannot give up the claim %s", job)


def job_key(schema: str, job: str) -> int:
    """The advisory-lock key (a signed 64-bit number) of ``job`` for the tables in ``schema``.

    >>> job_key("public", "computer:m1") == job_key("public", "computer:m1")
    True
    >>> job_key("public", "computer:m1") != job_key("other", "computer:m1")
    True
    >>> -2**63 <= job_key("public", "deadline:m1:4") < 2**63
    True
    """
    digest = hashlib.sha256(f"triverse job\0{schema}\0{job}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class PostgresJobs:
    """Claims as PostgreSQL session advisory locks on a connection of their own (see the
    module). ``name`` names the connection (its ``application_name``), so that
    ``pg_stat_activity`` and ``pg_locks`` show which process holds what."""

    def __init__(self, url: str, name: str = "triverse jobs") -> None:
        self._engine: Engine = create_engine(
            url, poolclass=NullPool, connect_args={"application_name": name[:63]})
        self._mutex = threading.Lock()
        self._connection: Connection | None = None
        self._schema = ""
        self._held: set[str] = set()
        self._closed = False

    def _connected(self) -> Connection:
        """The claims' connection, opened (again) if need be. Hold the mutex."""
        if self._connection is None:
            connection = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            self._schema = str(connection.execute(text("SELECT current_schema()")).scalar()
                               or "")
            self._connection = connection
        return self._connection

    def _lost(self, exc: Exception) -> None:
        """The connection failed: its locks are gone with it. Hold the mutex."""
        if self._held:
            log.warning("the connection holding %d job claims was lost (%s); they are free "
                        "for other processes now", len(self._held), exc)
        self._held.clear()
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.invalidate()
                connection.close()

    def _claim(self, job: str) -> bool:
        with self._mutex:
            if self._closed or job in self._held:
                return False
            for attempt in (1, 2):  # once more on a new connection if the old one dropped
                try:
                    connection = self._connected()
                    taken = bool(connection.execute(
                        text("SELECT pg_try_advisory_lock(:key)"),
                        {"key": job_key(self._schema, job)}).scalar())
                except Exception as exc:
                    self._lost(exc)
                    if attempt == 2:
                        raise
                    continue
                if taken:
                    self._held.add(job)
                return taken
            raise AssertionError("unreachable")

    def _release(self, job: str) -> None:
        with self._mutex:
            if job not in self._held:
                return
            self._held.discard(job)
            if self._connection is None:
                return
            try:
                self._connection.execute(text("SELECT pg_advisory_unlock(:key)"),
                                         {"key": job_key(self._schema, job)})
            except Exception as exc:
                self._lost(exc)

    def _close(self) -> None:
        with self._mutex:
            self._closed = True
            held, self._held = self._held, set()
            connection, self._connection = self._connection, None
            if connection is not None:
                with contextlib.suppress(Exception):
                    # The server frees a closed session's locks only when its backend has
                    # exited, a moment after the close; unlocking first frees them before
                    # close() returns, so another process can claim them at once.
                    if held:
                        connection.execute(text("SELECT pg_advisory_unlock_all()"))
                    connection.close()
            self._engine.dispose()

    async def claim(self, job: str) -> bool:
        return await asyncio.to_thread(self._claim, job)

    async def release(self, job: str) -> None:
        await asyncio.to_thread(self._release, job)

    def holds(self, job: str) -> bool:
        return job in self._held

    async def close(self) -> None:
        await asyncio.to_thread(self._close)


def jobs_for(db_url: str, clustered: bool, name: str = "triverse jobs") -> Jobs:
    """The claims a server process uses: on PostgreSQL when it is one of several processes
    (``clustered``), else this process's own."""
    if clustered and db_url.startswith("postgresql"):
        return PostgresJobs(db_url, name)
    return LocalJobs()
