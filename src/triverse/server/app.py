"""The ASGI application: REST API, the match websocket and the web UI's static files.

The routes are :mod:`triverse.server.routes` (one router per area); this module builds the
settings and the parts, puts the guards of :mod:`triverse.server.guards` around them (a body
limit, security headers, tokens kept out of the logs), and answers every error in the
protocol's shape.

>>> app = create_app("sqlite://")
>>> paths = app.openapi()["paths"]
>>> [path in paths for path in ("/api/health", "/api/matches", "/api/session")]
[True, True, True]
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

import triverse
from triverse.server import tune_garbage_collector
from triverse.server.bots import BotPool
from triverse.server.clock import Clock
from triverse.server.config import BotExecutor, Settings, settings_with
from triverse.server.errors import ServerError
from triverse.server.exclusive import claim_database, keep_claim
from triverse.server.guards import (
    BodyLimit,
    SecurityHeaders,
    error_response,
    redact_logs,
    too_large_message,
)
from triverse.server.health import Health, service_checks
from triverse.server.matches import MatchCache
from triverse.server.metrics import ServerMetrics, install_metrics
from triverse.server.pubsub import InProcessPubSub, PubSub
from triverse.server.quotas import client_address
from triverse.server.routes import API_ROUTERS
from triverse.server.routes.deps import TOKEN_HEADER, service_of
from triverse.server.routes.pages import install_api_docs, install_pages
from triverse.server.service import MatchService

log = logging.getLogger(__name__)

WEB_DIR = Path(triverse.__file__).parent / "web"

__all__ = ["TOKEN_HEADER", "WEB_DIR", "app_from_environment", "create_app"]


def create_app(
    db_url: str | None = None,
    *,
    settings: Settings | None = None,
    bot_delay: float | None = None,
    bot_workers: int | None = None,
    bot_executor: BotExecutor | None = None,
    static_dir: str | Path | None = None,
    allow_client_seed: bool | None = None,
    pubsub: PubSub | None = None,
    clock: Clock | None = None,
    deadline_poll: float | None = None,
    hint_budget: float | None = None,
    review_budget: float | None = None,
    review_total: float | None = None,
    cache: MatchCache | None = None,
) -> FastAPI:
    """The Triverse web server as an ASGI application.

    Its :class:`~triverse.server.config.Settings` are ``settings`` if given, else read from
    the ``TRIVERSE_*`` environment variables, overridden by every argument given here that
    is not ``None`` (``docs/server.md`` has the table). ``db_url``: a SQLAlchemy URL
    (``postgresql://`` works and uses psycopg 3); unset, a SQLite file in the user's data
    directory. Migrations run when the application starts.

    Besides: ``pubsub`` is the live update hub (by default a
    :class:`~triverse.server.redis_pubsub.RedisPubSub` on ``settings.redis_url``, or an
    in-process one without Redis); ``clock`` the time
    source of deadlines and dates (the system clock by default; tests pass a
    :class:`~triverse.server.clock.ManualClock`); ``cache`` where replayed matches are kept
    (a :class:`~triverse.server.matches.LocalMatchCache` by default).
    """
    if settings is None:
        settings = settings_with(
            db_url=db_url, bot_delay=bot_delay, bot_workers=bot_workers,
            bot_executor=bot_executor, static_dir=static_dir,
            allow_client_seed=allow_client_seed,
            deadline_poll=deadline_poll, hint_budget=hint_budget,
            review_budget=review_budget, review_total=review_total,
        )
    hub = _hub(settings) if pubsub is None else pubsub
    service = MatchService(settings, hub, BotPool(settings.bot_executor, settings.bot_workers),
                           clock, cache)
    app = FastAPI(
        title="Triverse",
        version=triverse.__version__,
        summary="Five 'tri' games on one server: REST, a websocket per match, the web UI.",
        description="The protocol, with every message, is in `docs/protocol.md`.",
        lifespan=_claiming(service, _lifespan(service, close_pubsub=pubsub is None)),
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = service
    app.state.settings = settings
    app.state.pubsub = hub
    app.state.health = Health(service_checks(service), settings.health_timeout)
    service.metrics.watch(service)
    _install(app, service, settings)
    return app


def _hub(settings: Settings) -> PubSub:
    """The live-update hub: Redis shared with other processes, or this process's own."""
    if settings.redis_url is None:
        return InProcessPubSub()
    from triverse.server.redis_pubsub import RedisPubSub  # the redis extra

    return RedisPubSub(settings.redis_url, prefix=settings.redis_prefix)


def app_from_environment() -> FastAPI:
    """The application with its settings read from the ``TRIVERSE_*`` environment alone: what
    each worker process of ``triverse serve --workers N`` runs (its garbage collector tuned
    as :func:`triverse.server.tune_garbage_collector` says)."""
    tune_garbage_collector()
    return create_app(settings=settings_with())


def _install(app: FastAPI, service: MatchService, settings: Settings) -> None:
    """The error handlers, the guards every request passes, the routes, ``/metrics`` and the
    pages."""
    _install_error_handlers(app, service.metrics)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    # Scripts, styles, pages and JSON answers of 1 kB or more go gzipped to a client that takes
    # it (the translation catalogues shrink to a fifth; docs/performance.md, "Web").
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    app.add_middleware(SecurityHeaders)  # added last: outermost, so it sees every answer
    redact_logs()
    for router in API_ROUTERS:
        app.include_router(router)
    if settings.metrics:
        install_metrics(app, service.metrics)
    if settings.api_docs:
        install_api_docs(app)
    install_pages(app, settings.static_dir or WEB_DIR, service.games.values())


def _lifespan(
    service: MatchService, close_pubsub: bool
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Start the worker pool, migrate, start the service; at the end close them in reverse
    (and the pub/sub if the application made it)."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        service.bots.start()  # first, before the server has threads of its own (fork safety)
        service.migrate()
        await service.start()
        log.info("Triverse server ready (database %s%s)", _safe_url(service.settings.db_url),
                 ", sharing Redis" if service.settings.clustered else "",
                 extra={"event": "started", "instance": service.instance,
                        "pid": os.getpid()})
        try:
            yield
        finally:
            await service.close()
            service.bots.shutdown()
            if close_pubsub:
                await service.pubsub.close()

    return lifespan


def _claiming(
    service: MatchService, lifespan: Callable[[FastAPI], AbstractAsyncContextManager[None]]
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """``lifespan``, inside a claim on the database (:mod:`triverse.server.exclusive`; shared
    by the servers that share Redis): a second server that may not share it stops before
    anything starts, with
    :class:`~triverse.server.exclusive.DatabaseInUse`; the claim is given up last."""

    @asynccontextmanager
    async def claimed(app: FastAPI) -> AsyncIterator[None]:
        claim = claim_database(service.settings.db_url, shared=service.settings.clustered)
        watch = asyncio.create_task(keep_claim(claim)) if claim.can_lapse else None
        try:
            async with lifespan(app):
                yield
        finally:
            if watch is not None:
                watch.cancel()
                await asyncio.wait([watch])
            claim.release()

    return claimed


def _safe_url(url: str) -> str:
    """The URL without its password, for logs."""
    head, sep, tail = url.partition("@")
    if not sep or "://" not in head:
        return url
    scheme, _, credentials = head.partition("://")
    return f"{scheme}://{credentials.split(':')[0]}@{tail}"


# --- errors ----------------------------------------------------------------------------------
def _error(metrics: ServerMetrics, status: int, code: str, message: str,
           headers: dict[str, str] | None = None) -> JSONResponse:
    metrics.error(code, "http")
    return error_response(code, message, headers, status)


BAD_BODIES: dict[type[BaseException], str] = {
    UnicodeDecodeError: "it is not UTF-8",
    RecursionError: "it is nested too deeply",
}
"""Why a body FastAPI could not read is not JSON, by the error it met."""


def _where(loc: Sequence[Any]) -> str:
    parts = [p for p in loc if p not in ("body", "query", "header", "path")]
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the request"


METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
"""The methods a ``405`` answer's ``Allow`` header may name."""


def _allowed_methods(app: FastAPI, request: Request) -> str:
    """The ``Allow`` header of a ``405``: the methods a route at the request's path takes (the
    web UI's files, which no route serves: ``GET, HEAD``)."""
    allowed = [method for method in METHODS if any(
        not isinstance(route, Mount)
        and route.matches({**request.scope, "method": method})[0] == Match.FULL
        for route in app.router.routes)]
    return ", ".join(allowed or ("GET", "HEAD"))


def _install_error_handlers(app: FastAPI, metrics: ServerMetrics) -> None:
    """Every error answered in the protocol's shape, and counted (``triverse_errors_total``)."""

    @app.exception_handler(ServerError)
    async def server_error(request: Request, exc: ServerError) -> JSONResponse:
        metrics.error(exc.code, "http")
        if exc.code == "wrong_token":  # a guess: counted towards the address's lockout
            await service_of(request).quotas.rates.count("token_failure",
                                                         client_address(request))
        answer = error_response(exc.code, exc.message, None, exc.status, exc.reason)
        if exc.retry_after is not None:
            answer.headers["Retry-After"] = str(exc.retry_after)
        return answer

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        for err in errors:
            if err.get("type") == "json_invalid":
                detail = err.get("ctx", {}).get("error", "")
                return _error(metrics, 400, "bad_json",
                              f"the body is not valid JSON: {detail}".strip())
        message = "; ".join(f"{_where(err.get('loc', ()))}: {err.get('msg', 'invalid')}"
                            for err in errors)
        return _error(metrics, 422, "bad_request", message or "the request is not valid")

    @app.exception_handler(Exception)
    async def crash(_request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", exc_info=exc)
        return _error(metrics, 500, "server_error", "the server failed to handle this request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        status, headers = exc.status_code, dict(exc.headers or {})
        cause = exc.__cause__
        why = BAD_BODIES.get(type(cause)) if status == 400 and cause is not None else None
        if why is not None:  # FastAPI's "error parsing the body", from the error it met
            return _error(metrics, 400, "bad_json", f"the body is not valid JSON: {why}")
        if status == 413:
            return _error(metrics, 413, "too_large",
                          too_large_message(app.state.settings.max_body))
        if status == 405:
            headers["Allow"] = _allowed_methods(app, request)
        code = "not_found" if status == 404 else "http_error"
        return _error(metrics, status, code, str(exc.detail), headers)
