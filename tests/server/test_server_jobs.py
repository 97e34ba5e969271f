"""Claims among several server processes: the shared claim on the database, and the job claims
that let exactly one process play a computer's turn or record a time-out."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse import cli
from triverse.server.config import Settings
from triverse.server.exclusive import DatabaseInUse, claim_database
from triverse.server.jobs import LocalJobs, PostgresJobs, jobs_for

SRC = str(Path(__file__).resolve().parents[2] / "src")


# --- the shared claim --------------------------------------------------------------------------
def test_servers_with_redis_share_a_database_and_keep_a_lone_one_out(
    pg_url: str,  # noqa: F811
) -> None:
    first = claim_database(pg_url, shared=True)
    second = claim_database(pg_url, shared=True)
    try:
        assert first.held and second.held
        with pytest.raises(DatabaseInUse, match="Several servers may share a PostgreSQL "
                                                "database only with Redis"):
            claim_database(pg_url)
    finally:
        first.release()
        second.release()
    alone = claim_database(pg_url)
    try:
        with pytest.raises(DatabaseInUse, match=r"a Triverse server without Redis is using the "
                                                r"database .* start it again with the same "
                                                r"--redis"):
            claim_database(pg_url, shared=True)
    finally:
        alone.release()
    claim_database(pg_url, shared=True).release()


def test_only_postgresql_can_be_shared(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="only servers on PostgreSQL can share a database"):
        claim_database(f"sqlite:///{tmp_path / 'games.sqlite3'}", shared=True)


def test_settings_refuse_what_several_processes_cannot_do(tmp_path: Path) -> None:
    sqlite = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with pytest.raises(ValueError, match="redis_url: several server processes share a "
                                         "PostgreSQL database, and sqlite is not one"):
        Settings(db_url=sqlite, redis_url="redis://127.0.0.1:6379/0")
    with pytest.raises(ValueError, match="workers: several server processes need redis_url"):
        Settings(db_url=sqlite, workers=2)
    alone = Settings(db_url=sqlite)
    assert not alone.clustered and alone.workers == 1
    assert Settings(db_url="postgresql://postgres@127.0.0.1:5432/test",
                    redis_url="redis://127.0.0.1:6379/0", workers=2).clustered


@pytest.mark.parametrize(("flags", "message"), [
    (["--redis", "redis://127.0.0.1:6379/0"],
     "redis_url: several server processes share a PostgreSQL database, and sqlite is not one"),
    (["--workers", "3"], "workers: several server processes need redis_url"),
    (["--workers", "0"], "workers: Input should be greater than or equal to 1"),
])
def test_serve_says_which_setting_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str,
) -> None:
    code = cli.main(["serve", "--db", f"sqlite:///{tmp_path / 'games.sqlite3'}", *flags])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.startswith(f"triverse serve: {message}")
    assert "errors.pydantic.dev" not in captured.err


# --- job claims --------------------------------------------------------------------------------
def test_one_process_claims_its_jobs_in_memory() -> None:
    async def run() -> None:
        jobs = jobs_for("sqlite://", clustered=False)
        assert isinstance(jobs, LocalJobs)
        assert await jobs.claim("computer:m") and jobs.holds("computer:m")
        assert not await jobs.claim("computer:m")
        assert await jobs.claim("deadline:m:3")
        await jobs.release("computer:m")
        assert not jobs.holds("computer:m") and await jobs.claim("computer:m")
        await jobs.close()
        assert not jobs.holds("deadline:m:3")

    asyncio.run(run())


def test_a_job_is_held_by_one_process_at_a_time(pg_url: str) -> None:  # noqa: F811
    async def run() -> None:
        a = jobs_for(pg_url, clustered=True, name="triverse jobs, a")
        b = jobs_for(pg_url, clustered=True, name="triverse jobs, b")
        assert isinstance(a, PostgresJobs) and isinstance(b, PostgresJobs)
        try:
            assert await a.claim("computer:m1")
            assert not await b.claim("computer:m1")  # held by the other process
            assert not await a.claim("computer:m1")  # and by this one's other tasks
            assert await b.claim("computer:m2")  # another job is free
            await a.release("computer:m1")
            assert await b.claim("computer:m1") and b.holds("computer:m1")
            await a.release("computer:m2")  # not held by a: nothing happens
            assert not await a.claim("computer:m2")
            await b.close()  # closing gives up every claim before it returns
            assert await a.claim("computer:m1") and await a.claim("computer:m2")
        finally:
            await a.close()
            await b.close()

    asyncio.run(run())


def test_jobs_of_other_schemas_are_other_jobs(pg_url: str) -> None:  # noqa: F811
    psycopg = pytest.importorskip("psycopg")
    other_schema = pg_url.rsplit("%3D", 1)[1] + "_b"

    async def run(other: str) -> None:
        a, b = PostgresJobs(pg_url), PostgresJobs(other)
        try:
            assert await a.claim("computer:m1") and await b.claim("computer:m1")
        finally:
            await a.close()
            await b.close()

    with psycopg.connect(pg_url.split("?")[0], autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{other_schema}"')
        try:
            asyncio.run(run(pg_url.rsplit("%3D", 1)[0] + "%3D" + other_schema))
        finally:
            admin.execute(f'DROP SCHEMA "{other_schema}" CASCADE')


HOLDER = textwrap.dedent("""
    import asyncio, sys, time
    from triverse.server.jobs import PostgresJobs

    async def main():
        jobs = PostgresJobs(sys.argv[1])
        assert await jobs.claim("computer:m1")
        print("held", flush=True)
        await asyncio.sleep(60)

    asyncio.run(main())
""")


@pytest.fixture
def holder(pg_url: str) -> Iterator[subprocess.Popen[str]]:  # noqa: F811
    """A process that claims the job ``computer:m1`` and waits (killed at the end)."""
    process = subprocess.Popen([sys.executable, "-c", HOLDER, pg_url], stdout=subprocess.PIPE,
                               text=True, env={**os.environ, "PYTHONPATH": SRC})
    try:
        assert process.stdout is not None and process.stdout.readline() == "held\n"
        yield process
    finally:
        process.kill()
        process.wait()


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9")
def test_the_jobs_of_a_killed_process_are_free_at_once(
    pg_url: str, holder: subprocess.Popen[str],  # noqa: F811
) -> None:
    async def claim_soon(jobs: PostgresJobs) -> float:
        """Seconds until the job could be claimed (PostgreSQL may take a moment to see the
        killed process's socket closed)."""
        started = time.monotonic()
        while not await jobs.claim("computer:m1"):
            assert time.monotonic() - started < 10, "the killed process's claim never ended"
            await asyncio.sleep(0.05)
        return time.monotonic() - started

    async def run() -> None:
        jobs = PostgresJobs(pg_url)
        try:
            assert not await jobs.claim("computer:m1")
            holder.send_signal(signal.SIGKILL)
            holder.wait()
            await claim_soon(jobs)
            assert jobs.holds("computer:m1")
        finally:
            await jobs.close()

    asyncio.run(run())


def test_claims_survive_a_dropped_connection_by_claiming_again(
    pg_url: str,  # noqa: F811
) -> None:
    psycopg = pytest.importorskip("psycopg")

    async def run() -> None:
        jobs = PostgresJobs(pg_url, name="triverse jobs, dropped")
        other = PostgresJobs(pg_url)
        try:
            assert await jobs.claim("computer:m1")
            with psycopg.connect(pg_url.split("?")[0], autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE application_name = 'triverse jobs, dropped'")
            # The lock went with the connection: another process may take the job now.
            deadline = time.monotonic() + 10
            while not await other.claim("computer:m1"):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            await other.release("computer:m1")
            # The first one notices the loss at its next claim and connects again.
            assert await jobs.claim("computer:m2")
            assert not jobs.holds("computer:m1")
            assert await jobs.claim("computer:m1")
        finally:
            await jobs.close()
            await other.close()

    asyncio.run(run())
