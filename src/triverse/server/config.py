"""Server settings: one typed object, read from ``TRIVERSE_*`` environment variables.

:class:`Settings` is a pydantic-settings model. Every field can be set by the environment
variable ``TRIVERSE_`` + its name in capitals (``TRIVERSE_BOT_DELAY=0.3``), and overridden by
the arguments it is built with (``create_app`` and ``triverse serve`` pass theirs that way);
``docs/server.md`` has the table. Empty variables count as unset.

>>> database_url("postgresql://postgres@127.0.0.1:5432/test")
'postgresql+psycopg://postgres@127.0.0.1:5432/test'
>>> database_url("postgres://u@h/db")
'postgresql+psycopg://u@h/db'
>>> database_url("sqlite:///games.sqlite3")
'sqlite:///games.sqlite3'
>>> Settings(db_url="sqlite://", bot_delay=0).bot_delay
0.0
>>> Settings(db_url="sqlite://", allowed_origins="https://Play.example.org/, http://a:81",
...          ).allowed_origins
('https://play.example.org', 'http://a:81')
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from pydantic import AfterValidator, BeforeValidator, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from triverse.server import DEFAULT_HOST, DEFAULT_PORT

APP_NAME = "triverse"
ENV_PREFIX = "TRIVERSE_"
"""Every setting's environment variable is this and the setting's name in capitals."""
DB_ENV = "TRIVERSE_DB_URL"
"""Environment variable read when no database URL is given."""
DEFAULT_DB_FILE = "triverse.sqlite3"

BotExecutor = Literal["process", "thread"]
LogFormat = Literal["text", "json"]


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


def _resolve_url(value: Any) -> Any:
    """The database URL resolved by :func:`database_url` (empty or ``None``: the default)."""
    return database_url(value or None) if value is None or isinstance(value, str) else value


Seconds = Annotated[float, Field(gt=0)]
"""A positive number of seconds."""


def _origins(value: Any) -> Any:
    """Origins from a comma-separated string (or a list), each as browsers send it: lower
    case, no ending slash."""
    if isinstance(value, str):
        value = value.split(",")
    if isinstance(value, (list, tuple)):
        return tuple(str(v).strip().rstrip("/").lower() for v in value if str(v).strip())
    return value


def _rate_limit(value: Any) -> Any:
    """``value`` if the ``limits`` library reads it (``"20/minute;200/hour"``)."""
    if isinstance(value, str):
        from limits import parse_many

        parse_many(value)  # a ValueError names what does not parse
    return value


RateLimit = Annotated[str, AfterValidator(_rate_limit)]
"""Rate limits in the ``limits`` notation: ``N/second|minute|hour|day``, several with ``;``."""


PUSH_HOSTS = ("fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com",
              "push.apple.com")
"""The Web Push services of Chrome (and the browsers built on it), Firefox, Edge and Safari."""


def _hosts(value: Any) -> Any:
    """Host names from a comma-separated string (or a list), in lower case."""
    if isinstance(value, str):
        value = value.split(",")
    if isinstance(value, (list, tuple)):
        return tuple(str(v).strip().lower() for v in value if str(v).strip())
    return value


def _contact(value: str) -> str:
    """``value`` if it is a ``mailto:`` address or an ``https:`` URL (a VAPID ``sub``)."""
    if not re.fullmatch(r"mailto:[^@\s]+@[^@\s]+|https://[^\s/]+(/\S*)?", value):
        raise ValueError("a push contact is a mailto: address or an https: URL")
    return value


class Settings(BaseSettings):
    """Everything :func:`triverse.server.app.create_app` and ``triverse serve`` can be told.

    Frozen: a part of the server that keeps it sees the same values for its whole life.
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_ignore_empty=True, frozen=True, extra="forbid",
    )

    db_url: Annotated[str, BeforeValidator(_resolve_url)] = Field(
        default="", validate_default=True)
    """A SQLAlchemy URL, resolved by :func:`database_url` (unset: the default SQLite file)."""
    host: str = DEFAULT_HOST
    """The address ``triverse serve`` listens on."""
    port: int = Field(DEFAULT_PORT, ge=0, le=65535)
    """The port ``triverse serve`` listens on."""
    bot_delay: float = Field(0.6, ge=0)
    """Seconds a computer player waits before each move, so humans can follow."""
    bot_workers: int | None = Field(None, ge=1)
    """Size of the computer players' worker pool (``None``: up to 4, fewer on small machines)."""
    bot_executor: BotExecutor = "process"
    """``process``: a process pool (real parallelism); ``thread``: a thread pool."""
    static_dir: Path | None = None
    """The web UI served at ``/`` (default: the ``triverse/web`` package directory)."""
    allow_client_seed: bool = False
    """Whether a new match may name its seed. A chosen seed reveals the deal to whoever chose
    it, so this is for tests and reproducible demos, not for fair online play."""
    bot_secret: SecretStr | None = None
    """The key of the computer players' chance, mixed with each match's seed (unset: a random
    key per process). Never sent: with it and a seed, a computer's replies could be foreseen.
    Set it (long and random) only to reproduce computer moves across restarts or processes."""
    cache_size: int = Field(500, ge=1)
    """How many matches to keep replayed in memory (connected or bot-driven ones never leave),
    and how many hints."""
    hello_timeout: Seconds = 15.0
    """Seconds a websocket may take to send its first (``hello``) message."""
    deadline_poll: Seconds = 60.0
    """Seconds between the deadline scheduler's reads of the pending turn deadlines from the
    database (it also wakes for every deadline it is told of, and at the earliest one)."""
    hint_budget: Seconds = 0.8
    """Seconds the veteran thinks about a hint (a little under the second a player waits)."""
    review_budget: Seconds = 0.25
    """The most seconds the veteran thinks about each decision of a post-game review."""
    review_total: Seconds = 12.0
    """Seconds a seat's review should take at most: a long game gets less per decision
    (``review_total / decisions``, between ``review_floor`` and ``review_budget``)."""
    review_floor: Seconds = 0.05
    """The least seconds per reviewed decision, however long the game."""
    review_cache: int = Field(256, ge=1)
    """How many reviews (one per match and seat) to keep in memory."""
    max_body: int = Field(64 * 1024, ge=1024)
    """The largest HTTP request body, in bytes, and the longest websocket message, in
    characters: a larger one is refused (``413 too_large``) before it is parsed."""
    allowed_origins: Annotated[tuple[str, ...], NoDecode, BeforeValidator(_origins)] = ()
    """Browser origins besides the server's own whose pages may open a match websocket
    (comma-separated, ``https://play.example.org``; ``*``: any). A websocket without an
    ``Origin`` (a program, not a browser) is always let in."""
    api_docs: bool = True
    """Whether ``/docs`` serves the REST API's interactive documentation (its scripts and styles
    come from the ``fastapi-offline`` package, never from a CDN)."""
    # --- limits (docs/server.md, "Security"): per client address, in the ``limits`` notation
    rate_storage: str = "memory://"
    """Where the rate limits count: a ``limits`` storage URI (``memory://``: this process;
    ``redis://host:6379`` shares the counts between processes)."""
    rate_create: RateLimit = "60/minute;600/hour"
    """Matches a client address may create."""
    rate_action: RateLimit = "300/minute"
    """Actions and pauses (REST and websocket) a client address may send."""
    rate_preview: RateLimit = "600/minute"
    """Score previews a client address may ask for."""
    rate_hint: RateLimit = "30/minute"
    """Hints a client address may ask for."""
    rate_review: RateLimit = "20/minute"
    """Reviews a client address may ask for."""
    rate_token_failure: RateLimit = "20/minute;100/hour"
    """Wrong seat tokens a client address may send; past that, whatever it sends with a token
    is refused until the window moves on."""
    rate_login: RateLimit = "10/minute;100/hour"
    """Log-in and sign-up attempts a client address may make."""
    rate_login_name: RateLimit = "10/minute;50/hour"
    """Failed log-ins on one account, from any address; past that even the right password
    waits for the window to move on."""
    rate_join: RateLimit = "30/minute;300/hour"
    """Seats of open games a client address may take, and open games it may withdraw."""
    rate_lobby: RateLimit = "120/minute"
    """Lists of open games (``GET /api/lobby``, and ``/ws/lobby`` connections) a client address
    may ask for."""
    rate_players: RateLimit = "120/minute"
    """Public profiles and leaderboards a client address may ask for."""
    rate_account: RateLimit = "60/minute;600/hour"
    """Claims of guest seats and lists of an account's games a client address may ask for."""
    rate_contest: RateLimit = "30/minute;300/hour"
    """Contest changes a client address may ask for: contests created, sign-ups and
    withdrawals, and every host action (computers, close, removal, announcement, cancel)."""
    rate_contest_read: RateLimit = "120/minute"
    """Contests (lists, one contest, an entrant's own entry, ``/ws/contests`` connections) a
    client address may read."""
    computer_matches_per_client: int = Field(3, ge=0)
    """Unfinished matches without a human seat that one client address may have."""
    computer_queue: int = Field(64, ge=1)
    """Matches with a computer to move (waiting or thinking) past which new matches with a
    computer seat are refused (``server_busy``)."""
    sockets_per_match: int = Field(200, ge=1)
    """Websockets open at once on one match."""
    sockets_per_client: int = Field(20, ge=1)
    """Websockets one client address may have open at once."""
    lobby_sockets: int = Field(1000, ge=1)
    """Lobby websockets (``/ws/lobby``) open at once on this process."""
    # --- contests (docs/contests.md)
    contest_min_signup: Seconds = 60.0
    """The least seconds from a contest's creation to the close of its sign-up."""
    contest_min_turn: int = Field(60, ge=1)
    """The least ``turn_seconds`` a contest may give its boards' turns."""
    contest_poll: Seconds = 30.0
    """Seconds between a process's reads of the contests whose sign-up is due to close (and
    of the removed entrants' turns to pass), which restores them after a restart and picks up
    those another process made; a contest made here is known at once."""
    # --- observability (docs/server.md, "Metrics, logs and health")
    metrics: bool = True
    """Whether ``/metrics`` serves the Prometheus metrics (``false``: a ``404``). They show the
    server's load (moves, sockets, queues, errors), never a match's content or a token."""
    log_format: LogFormat = "text"
    """How ``triverse serve`` writes its logs: ``text`` (uvicorn's lines) or ``json`` (one JSON
    object a line, for a log collector; ``triverse serve --log-json``)."""
    health_timeout: Seconds = 3.0
    """Seconds each check of ``/api/health`` (the database, Redis) may take before it counts as
    failing."""
    # --- several processes (docs/server.md, "Several processes")
    redis_url: str | None = None
    """The Redis that several server processes on one PostgreSQL database share
    (``redis://host:6379/0``): live updates between them and who is connected. Unset: one
    process, which claims its database for itself (the embedded default)."""
    redis_prefix: str = Field("triverse:", min_length=1)
    """What the names of Triverse's keys and channels in Redis start with (servers with
    another prefix share nothing with these: several sites, or tests, on one Redis)."""
    workers: int = Field(1, ge=1)
    """How many server processes ``triverse serve`` starts on its port (more than one needs
    ``redis_url``)."""
    job_poll: Seconds = 2.0
    """With ``redis_url``: seconds between a process's looks for work that no live process
    holds (a computer to move, a turn deadline), so that the work of a process that died is
    picked up by another within seconds."""

    # --- push notifications (docs/server.md, "Push notifications")
    push_send: bool = True
    """Whether this process sends the queued Web Push notifications (``false``: they are
    queued and listed in the outbox, never sent)."""
    push_contact: Annotated[str, AfterValidator(_contact)] = "mailto:admin@localhost"
    """The VAPID ``sub`` claim: how a push service reaches whoever runs this server
    (``mailto:`` address or ``https:`` URL). Set it to a real one in production."""
    push_hosts: Annotated[tuple[str, ...], NoDecode, BeforeValidator(_hosts)] = PUSH_HOSTS
    """The push services' hosts (and the hosts under them) a subscription's endpoint may be
    on, comma-separated (``*``: any): the server posts to no other."""
    push_allow_http: bool = False
    """Whether a subscription's endpoint may be a plain ``http`` URL (tests with a local
    push service; never in production)."""
    push_poll: Seconds = 30.0
    """Seconds between the sender's looks for due notifications (queued by another process,
    or to try again); a notification this process queues is sent at once."""
    push_timeout: Seconds = 10.0
    """Seconds a push service may take to answer before the attempt counts as failed."""
    push_ttl: int = Field(86400, ge=0, le=2419200)
    """Seconds a push service keeps a notification for a browser that is offline."""

    @model_validator(mode="after")
    def _several_processes(self) -> Settings:
        """Several processes share PostgreSQL and Redis; refuse what cannot work."""
        if self.redis_url is not None and not self.db_url.startswith("postgresql"):
            raise ValueError("redis_url: several server processes share a PostgreSQL "
                             f"database, and {self.db_url.partition(':')[0]} is not one")
        if self.workers > 1 and self.redis_url is None:
            raise ValueError("workers: several server processes need redis_url (or "
                             "TRIVERSE_REDIS_URL) to share live updates")
        return self

    @property
    def clustered(self) -> bool:
        """Whether this process is one of several (it has Redis to share with them)."""
        return self.redis_url is not None


def settings_with(**given: Any) -> Settings:
    """:class:`Settings` from the environment, overridden by the ``given`` values that are not
    ``None`` (the arguments a caller left out).

    >>> settings_with(db_url="sqlite://", bot_delay=None, cache_size=3).cache_size
    3
    """
    return Settings(**{name: value for name, value in given.items() if value is not None})
