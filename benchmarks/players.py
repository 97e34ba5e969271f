"""What players' requests cost the server (issue 23): log-ins, the lobby, an account's games,
a leaderboard and a profile, and rating a match.

    python benchmarks/players.py                        # SQLite (a temporary file)
    python benchmarks/players.py --db postgresql://postgres@127.0.0.1:5432/test

The server runs in this process (``create_app`` behind Starlette's test client, no network),
on a fresh database: a temporary SQLite file, or a schema of its own on PostgreSQL, dropped at
the end. Rate limits are lifted so that the loops measure the work, not the refusals. Each
figure is the median (and the 90th percentile) of the wall-clock time of ``--repeat`` requests,
client included, after the setup that makes the situation:

- **sign-up, log-in**: an argon2id hash (argon2-cffi's defaults: 64 MiB, 3 passes) or check;
- **lobby**: ``GET /api/lobby`` with ``--open`` open games waiting;
- **account's games**: ``GET /api/account/games`` for an account with ``--seats`` seats
  (each a device key derived for the session);
- **leaderboard**: ``GET /api/ratings/trident?players=2`` with ``--rated`` rated accounts;
- **profile**: ``GET /api/players/{name}`` of the account with ``--seats`` seats;
- **rating function**: :func:`triverse.server.ratings.rate` of a 2- and a 4-player result.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, text

from triverse.server.accounts import CSRF_HEADER
from triverse.server.app import create_app
from triverse.server.config import settings_with
from triverse.server.db import AccountRow, RatingRow
from triverse.server.ratings import MU, SIGMA, Skill, rate

PASSWORD = "correct horse battery"
UNLIMITED = {f"rate_{kind}": "1000000/minute" for kind in (
    "create", "login", "login_name", "account", "players", "lobby", "join")}
TWO = {"game": "trident", "mode": "online", "seats": [{"kind": "human"}, {"kind": "human"}]}


@contextmanager
def database(url: str) -> Iterator[str]:
    """A fresh database: a temporary SQLite file, or a PostgreSQL schema of its own."""
    if url == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'players.sqlite3'}"
        return
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{url}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


def timed(repeat: int, request: Callable[[], Any]) -> tuple[float, float]:
    """The median and 90th percentile, in milliseconds, of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        answer = request()
        times.append((time.perf_counter() - started) * 1000)
        status = getattr(answer, "status_code", 200)
        assert status < 400, answer.text
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))]


def sign_up(client: TestClient, name: str) -> str:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def measure(url: str, args: argparse.Namespace) -> list[tuple[str, float, float]]:
    """Every figure of one database."""
    rows: list[tuple[str, float, float]] = []
    app = create_app(settings=settings_with(db_url=url, bot_delay=0, bot_workers=1,
                                            push_send=False, **UNLIMITED))
    with TestClient(app) as main:
        names = iter(f"runner{i}" for i in range(10_000))
        rows.append(("sign-up (argon2id hash)",
                     *timed(args.repeat, lambda: main.post("/api/accounts", json={
                         "name": next(names), "password": PASSWORD}))))
        rows.append(("log-in (argon2id check)",
                     *timed(args.repeat, lambda: main.post("/api/session", json={
                         "name": "runner0", "password": PASSWORD}))))
        opener = TestClient(app)
        for _ in range(args.open):
            assert opener.post("/api/matches", json={**TWO, "mode": "open"}).status_code == 201
        rows.append((f"lobby, {args.open} open games",
                     *timed(args.repeat, lambda: main.get("/api/lobby"))))
        player = TestClient(app)
        csrf = sign_up(player, "Ada")
        for _ in range(args.seats):
            created = player.post("/api/matches", json=TWO, headers={CSRF_HEADER: csrf})
            assert created.status_code == 201, created.text
        rows.append((f"account's games, {args.seats} seats",
                     *timed(args.repeat, lambda: player.get("/api/account/games"))))
        rows.append((f"profile, {args.seats} seats",
                     *timed(args.repeat, lambda: main.get("/api/players/Ada"))))
        fill_ratings(url, args.rated)
        rows.append((f"leaderboard, {args.rated} rated accounts",
                     *timed(args.repeat, lambda: main.get("/api/ratings/trident?players=2"))))
    for players in (2, 4):
        rows.append((f"rating function, {players} players",
                     *timed(args.repeat, rating_of(players))))
    return rows


def rating_of(players: int) -> Callable[[], Any]:
    """A call that rates a result of ``players`` new accounts, all placed differently."""
    before, ranks, fixed = [Skill(MU, SIGMA)] * players, list(range(1, players + 1)), [
        False] * players
    return lambda: rate(ranks, before, fixed)


def fill_ratings(url: str, count: int) -> None:
    """``count`` accounts with a Trident rating each, written straight into the tables."""
    now = datetime.now(UTC)
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(insert(AccountRow), [
            {"id": f"rated{i}", "name": f"rated{i}", "name_key": f"rated{i}",
             "password_hash": "-", "created_at": now} for i in range(count)])
        connection.execute(insert(RatingRow), [
            {"account_id": f"rated{i}", "game": "trident", "players": 2,
             "mu": 15 + (i * 7919 % 2000) / 100, "sigma": 2 + (i % 50) / 10, "games": 10,
             "updated_at": now} for i in range(count)])
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", action="append", help="sqlite or a PostgreSQL URL "
                        "(repeatable; default sqlite)")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--open", type=int, default=100, help="open games in the lobby")
    parser.add_argument("--seats", type=int, default=200, help="seats of the account")
    parser.add_argument("--rated", type=int, default=1000, help="rated accounts")
    args = parser.parse_args()
    for url in args.db or ["sqlite"]:
        print(f"\n{url.split('://')[0] if '://' in url else url}: median / p90, ms")
        with database(url) as fresh:
            for label, median, p90 in measure(fresh, args):
                print(f"  {label:<40} {median:8.2f} {p90:8.2f}")


if __name__ == "__main__":
    main()
