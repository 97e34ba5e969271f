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
from typing import Any, Literal

import platformdirs

APP_NAME = "triverse"
DB_ENV = "TRIVERSE_DB_URL"
"""Environment variable read when no database URL is given."""
DEFAULT_DB_FILE = "triverse.sqlite3"

BotExecutor = Literal["process", "thread"]

THINKING_ENV = {"hint_budget": "TRIVERSE_HINT_BUDGET", "review_budget": "TRIVERSE_REVIEW_BUDGET",
                "review_total": "TRIVERSE_REVIEW_TOTAL"}
"""The environment variables that set the hint's and the review's thinking times."""


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


def thinking_times(**given: float | None) -> dict[str, Any]:
    """The settings among ``hint_budget``, ``review_budget`` and ``review_total`` that are
    given, or else set by their environment variables (seconds, positive).

    >>> thinking_times(hint_budget=0.2, review_budget=None)
    {'hint_budget': 0.2}
    """
    out: dict[str, Any] = {}
    for name, value in given.items():
        env = THINKING_ENV[name]
        if value is None and os.environ.get(env):
            try:
                value = float(os.environ[env])
            except ValueError:
                raise ValueError(f"${env} is a number of seconds, not "
                                 f"{os.environ[env]!r}") from None
        if value is not None:
            if not value > 0:
                raise ValueError(f"{name} is a positive number of seconds, not {value}")
            out[name] = value
    return out


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
    hint_budget: float = 0.8
    """Seconds the veteran thinks about a hint (a little under the second a player waits)."""
    review_budget: float = 0.25
    """The most seconds the veteran thinks about each decision of a post-game review."""
    review_total: float = 12.0
    """Seconds a seat's review should take at most: a long game gets less per decision
    (``review_total / decisions``, between ``review_floor`` and ``review_budget``)."""
    review_floor: float = 0.05
    """The least seconds per reviewed decision, however long the game."""
    review_cache: int = 256
    """How many reviews (one per match and seat) to keep in memory."""
    extra_games: tuple[str, ...] = field(default=())
    """Extra games beyond the catalogue, as ``"package.module:Class"`` (named by the class's
    ``name``): a game can be tried in the server before it joins the catalogue."""
