"""The Triverse web server: an authoritative game server over REST and websockets.

- :func:`create_app` builds the ASGI application (:mod:`triverse.server.app`);
- :func:`serve` runs it with uvicorn (``triverse serve``);
- :class:`~triverse.server.config.Settings` are its settings, from ``TRIVERSE_*`` variables.

``docs/server.md`` explains how it runs; ``docs/protocol.md`` is the protocol the browser speaks.
The web stack is imported only when one of these is called.

>>> address("0.0.0.0", 8000)
'http://0.0.0.0:8000/'
>>> address("::1", 8000)
'http://[::1]:8000/'
"""

from __future__ import annotations

import gc
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def address(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> str:
    """The URL a browser opens for a server listening on ``host:port``."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def create_app(db_url: str | None = None, **kwargs: Any) -> FastAPI:
    """The ASGI application; see :func:`triverse.server.app.create_app` for the options."""
    from triverse.server.app import create_app as _create_app

    return _create_app(db_url, **kwargs)


GC_THRESHOLDS = (10_000, 50, 1_000)
"""The garbage collector's thresholds in a server process (:func:`tune_garbage_collector`)."""


def tune_garbage_collector() -> None:
    """Make the cyclic garbage collector run less often in a server process.

    A server holds hundreds of replayed matches, millions of objects that live long, and each
    move makes thousands of short-lived ones (states are cloned, not changed in place). With
    CPython's default thresholds (700, 10, 10) a full collection came every few seconds under
    load and walked every live object: 160 to 410 ms with 500 games in memory, during which no
    socket is served (``docs/performance.md``, "A server's pauses"). Almost nothing it finds is
    garbage: the engines' objects are freed by reference counting. With these thresholds the
    young generation is collected every 10,000 allocations instead of 700, and the old
    generations a hundred times less often; cyclic garbage (a failed task's traceback, say)
    is still collected, later. ``triverse serve`` calls this once per process.
    """
    gc.set_threshold(*GC_THRESHOLDS)


def serve(
    host: str | None = None,
    port: int | None = None,
    db_url: str | None = None,
    *,
    log_level: str = "info",
    **kwargs: Any,
) -> None:
    """Run the server with uvicorn until interrupted (Ctrl-C stops it cleanly).

    ``host``, ``port`` and ``db_url``, and every further keyword argument that names a setting
    (``bot_delay=0.3``, say), override the ``TRIVERSE_*`` environment variables
    (:class:`~triverse.server.config.Settings`); ``settings=`` gives them all at once. The
    other keyword arguments go to :func:`create_app` (``pubsub``, ``clock``, ``cache``).
    Logs are uvicorn's lines and the ``triverse`` loggers', as text or JSON lines
    (``log_format``: :func:`triverse.server.logs.logging_config`).
    """
    import uvicorn

    from triverse.server.app import create_app as _create_app
    from triverse.server.config import Settings, settings_with
    from triverse.server.logs import logging_config

    settings = kwargs.pop("settings", None)
    if settings is None:
        given = {name: kwargs.pop(name) for name in list(kwargs) if name in Settings.model_fields}
        settings = settings_with(host=host, port=port, db_url=db_url, **given)
    tune_garbage_collector()
    log_config = logging_config(settings.log_format, log_level)
    if settings.workers > 1:
        # uvicorn starts each worker process afresh: it builds its application from the
        # environment, so the settings travel there.
        if kwargs:
            raise TypeError(f"several workers build their own application: {sorted(kwargs)} "
                            "cannot be passed to them")
        os.environ.update(settings_environment(settings))
        uvicorn.run("triverse.server.app:app_from_environment", factory=True,
                    workers=settings.workers, host=settings.host, port=settings.port,
                    log_level=log_level, log_config=log_config)
        return
    app = _create_app(settings=settings, **kwargs)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level=log_level,
                log_config=log_config)


def settings_environment(settings: Any) -> dict[str, str]:
    """The ``TRIVERSE_*`` environment variables that give a new process ``settings`` (those
    set to something else than the default).

    >>> from triverse.server.config import Settings
    >>> env = settings_environment(Settings(db_url="sqlite://", bot_delay=0,
    ...                                     allowed_origins="https://a.example"))
    >>> env["TRIVERSE_DB_URL"], env["TRIVERSE_BOT_DELAY"], env["TRIVERSE_ALLOWED_ORIGINS"]
    ('sqlite://', '0.0', 'https://a.example')
    """
    from pydantic import SecretStr

    from triverse.server.config import ENV_PREFIX

    env = {}
    for name, field in type(settings).model_fields.items():
        value = getattr(settings, name)
        if value == field.default and name != "db_url":
            continue
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        elif isinstance(value, (tuple, list)):
            value = ",".join(str(item) for item in value)
        elif isinstance(value, bool):
            value = "true" if value else "false"
        if value is not None:
            env[ENV_PREFIX + name.upper()] = str(value)
    return env


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "GC_THRESHOLDS", "address", "create_app", "serve",
           "settings_environment", "tune_garbage_collector"]
