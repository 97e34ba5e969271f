"""Server settings and the database URL.

>>> database_url("postgresql://postgres@127.0.0.1:5432/test")
'postgresql+psycopg://postgres@127.0.0.1:5432/test'
>>> database_url("postgres://u@h/db")
'postgresql+psycopg://u@h/db'
>>> database_url("sqlite:///games.sqlite3")
'sqlite:///games.sqlite3'
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import platformdirs

APP_NAME = "triverse"
DB_ENV = "TRIVERSE_DB_URL"
"""Environment variable read when no database URL is given."""
DEFAULT_DB_FILE = "triverse.sqlite3"

BotExecutor = Literal["process", "thread"]


def default_database_path() -> Path:
    """The default SQLite file: ``triverse.sqlite3`` in the user's data directory."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / DEFAULT_DB_FILE


def database_url(url: str | None = None) -> str:
    """The SQLAlchemy URL to use.

    ``None`` means ``$TRIVERSE_DB_URL`` if set, else the default SQLite file (its directory is
    created). ``postgresql://`` and ``postgres://`` URLs are mapped to the psycopg 3 driver.
    """
    if url is None:
        url = os.environ.get(DB_ENV) or None
    if url is None:
        path = default_database_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


@dataclass(frozen=True)
class Settings:
    """Everything :func:`triverse.server.app.create_app` can be told."""

    db_url: str
    """A SQLAlchemy URL, already resolved by :func:`database_url`."""
    bot_delay: float = 0.6
    """Seconds a computer player waits before each move, so humans can follow."""
    bot_workers: int | None = None
    """Size of the computer players' worker pool (``None``: up to 4, fewer on small machines)."""
    bot_executor: BotExecutor = "process"
    """``process``: a process pool (real parallelism); ``thread``: a thread pool."""
    static_dir: Path | None = None
    """The web UI served at ``/`` (default: the ``triverse/web`` package directory)."""
    allow_client_seed: bool = False
    """Whether a new match may name its seed. A chosen seed reveals the deal to whoever chose
    it, so this is for tests and reproducible demos, not for fair online play."""
    cache_size: int = 500
    """How many matches to keep replayed in memory (connected or bot-driven ones never leave)."""
    hello_timeout: float = 15.0
    """Seconds a websocket may take to send its first (``hello``) message."""
    deadline_poll: float = 60.0
    """Seconds between the deadline scheduler's reads of the pending turn deadlines from the
    database (it also wakes for every deadline it is told of, and at the earliest one)."""
    extra_games: tuple[str, ...] = field(default=())
    """Extra games beyond the catalogue, as ``"package.module:Class"`` (named by the class's
    ``name``): a game can be tried in the server before it joins the catalogue."""
