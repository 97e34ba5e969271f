"""``/api/health``: whether the stores the server needs answer.

:class:`Health` runs each check of a server at once, each within ``Settings.health_timeout``
seconds:

- ``database``: ``SELECT 1`` on the match database, off the event loop like every statement;
- ``redis``, when the server shares Redis with other processes (``TRIVERSE_REDIS_URL``):
  ``PING`` on the live updates' connection;
- ``redis`` too when the rate limits count in Redis (``TRIVERSE_RATE_STORAGE=redis://...``)
  and the server has no ``TRIVERSE_REDIS_URL``, else ``rate_storage``: ``PING`` on the rate
  limiter's own connection (any other shared storage the ``limits`` library offers is checked
  the same way, as ``rate_storage``).

A check that fails, raises or runs out of time is ``failing``, and the server answers ``503``;
why it failed goes to the log (``triverse.server.health``), not to the answer. While a check
runs, another request for it waits for the same one, so a flood of health requests to a slow
database costs one query at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from sqlalchemy import Engine, text

from triverse.server.quotas import REDIS_SCHEMES

if TYPE_CHECKING:
    from triverse.server.service import MatchService

log = logging.getLogger(__name__)

Check = Callable[[], Awaitable[bool]]
"""A health check: whether the part it looks at answers."""

OK = "ok"
FAILING = "failing"


def select_one(engine: Engine) -> bool:
    """Whether the database answers ``SELECT 1`` (blocking)."""
    with engine.connect() as connection:
        return connection.execute(text("SELECT 1")).scalar() == 1


def service_checks(service: MatchService) -> dict[str, Check]:
    """The checks of ``service``'s stores: the database, and the rate limits' storage unless it
    is this process's memory."""
    repository = service.repository

    async def database() -> bool:
        return await repository.run(select_one, repository.engine)

    checks: dict[str, Check] = {"database": database}
    ping = getattr(service.pubsub, "ping", None)
    if service.settings.redis_url is not None and callable(ping):

        async def redis() -> bool:
            await ping()
            return True

        checks["redis"] = redis
    scheme = service.settings.rate_storage.removeprefix("async+").partition("://")[0]
    if scheme != "memory":
        name = "redis" if scheme in REDIS_SCHEMES and "redis" not in checks else "rate_storage"
        checks[name] = service.quotas.rates.storage.check
    return checks


class Health:
    """Runs named checks (see the module) and reports them."""

    def __init__(self, checks: dict[str, Check], timeout: float) -> None:
        self.checks = checks
        self.timeout = timeout
        self._running: dict[str, asyncio.Task[bool]] = {}

    async def report(self) -> tuple[bool, dict[str, str]]:
        """Whether every check passed, and ``{"status": ..., name: "ok" or "failing"}``."""
        names = list(self.checks)
        passed = await asyncio.gather(*(self._shared(name) for name in names))
        healthy = all(passed)
        answer = {"status": OK if healthy else FAILING}
        answer.update({name: OK if ok else FAILING for name, ok in zip(names, passed,
                                                                        strict=True)})
        return healthy, answer

    async def _shared(self, name: str) -> bool:
        task = self._running.get(name)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._run(name))
            self._running[name] = task
            task.add_done_callback(lambda _done: self._running.pop(name, None))
        return await asyncio.shield(task)

    async def _run(self, name: str) -> bool:
        try:
            async with asyncio.timeout(self.timeout):
                ok = await self.checks[name]()
        except TimeoutError:
            log.warning("health: the %s check took over %g s", name, self.timeout)
            return False
        except Exception as exc:
            log.warning("health: the %s check failed: %s: %s", name, type(exc).__name__, exc)
            return False
        if not ok:
            log.warning("health: the %s check failed", name)
        return bool(ok)
