"""What the routes share: the service, the seat token and the log limit, as dependencies.

The seat token is read in one place: the ``X-Seat-Token`` header, else an ``Authorization:
Bearer`` header, else the ``token`` query parameter (for clients that cannot set headers: the
server's logs hide its value); ``None`` without any. A client address that sent too many wrong
tokens is refused (``rate_limited``) whatever token it sends, until its window moves on;
:func:`limited` counts a route's requests against their rate limit.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Query
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from triverse.server.accounts import CSRF_HEADER, SESSION_COOKIE, Accounts, LoggedIn
from triverse.server.errors import ServerError
from triverse.server.quotas import client_address
from triverse.server.schemas import ErrorAnswer
from triverse.server.service import MatchService

TOKEN_HEADER = "X-Seat-Token"
"""The header that carries a seat token."""

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorAnswer} for status in (400, 401, 403, 404, 409, 422, 429)
}
"""The error answers a route may give, for the OpenAPI documentation."""


def service_of(connection: HTTPConnection) -> MatchService:
    """The application's match service."""
    service: MatchService = connection.app.state.service
    return service


BEARER = HTTPBearer(auto_error=False, scheme_name="SeatToken",
                    description="the seat's token, as `Authorization: Bearer <token>`")
"""The ``Authorization: Bearer`` header (``None`` without one, or with another scheme)."""


async def seat_token(
    connection: HTTPConnection,
    header: Annotated[str | None, Header(alias=TOKEN_HEADER,
                                         description="the seat's token")] = None,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)] = None,
    query: Annotated[str | None, Query(alias="token",
                                       description="the seat's token (prefer a header)")] = None,
) -> str | None:
    """The seat token of a request: the ``X-Seat-Token`` header's, else the ``Authorization:
    Bearer`` header's, else the query string's (refused while the client address is locked
    out for wrong tokens)."""
    token = header or (bearer.credentials if bearer is not None else None) or query
    if token:
        await service_of(connection).quotas.rates.check("token_failure",
                                                         client_address(connection))
    return token


def limited(kind: str) -> Any:
    """A route dependency that counts each request against the ``kind`` rate limit of its
    client address (``rate_limited`` past it)."""

    async def count(connection: HTTPConnection) -> None:
        await service_of(connection).quotas.rates.hit(kind, client_address(connection))

    return Depends(count)


async def current(connection: HTTPConnection) -> LoggedIn:
    """The request's live session (``not_logged_in`` without one)."""
    logged = await service_of(connection).accounts.session(
        connection.cookies.get(SESSION_COOKIE))
    if logged is None:
        raise ServerError("not_logged_in", "you are not logged in")
    return logged


CsrfHeader = Annotated[str | None, Header(alias=CSRF_HEADER,
                                          description="the session's CSRF token")]


async def changing(logged: Annotated[LoggedIn, Depends(current)],
                   csrf: CsrfHeader = None) -> LoggedIn:
    """The request's live session, for a change: its CSRF token must come with it
    (``bad_csrf`` otherwise)."""
    if not Accounts.csrf_ok(logged, csrf):
        raise ServerError("bad_csrf", f"a change needs the session's token in {CSRF_HEADER}")
    return logged


async def maybe_changing(connection: HTTPConnection, csrf: CsrfHeader = None) -> LoggedIn | None:
    """For a change anyone may ask for (a guest too): the request's live session, if it has
    one, and then its CSRF token must come with it (``bad_csrf``); ``None`` for a guest."""
    logged = await service_of(connection).accounts.session(
        connection.cookies.get(SESSION_COOKIE))
    if logged is not None and not Accounts.csrf_ok(logged, csrf):
        raise ServerError("bad_csrf", f"a logged-in change needs the session's token in "
                          f"{CSRF_HEADER}")
    return logged


Session = Annotated[LoggedIn, Depends(current)]
"""The request's live session (``not_logged_in`` without one), as a route parameter."""
Changing = Annotated[LoggedIn, Depends(changing)]
"""The request's live session and its CSRF token, for a change, as a route parameter."""
MaybeChanging = Annotated[LoggedIn | None, Depends(maybe_changing)]
"""The session of a change a guest may ask for too (``None``: a guest), as a route
parameter."""

Service = Annotated[MatchService, Depends(service_of)]
"""The match service, as a route parameter."""
SeatToken = Annotated[str | None, Depends(seat_token)]
"""The request's seat token (``None``: none given), as a route parameter."""
LogLimit = Annotated[int | None, Query(alias="log", ge=0,
                                       description="only the last so many log entries")]
"""``?log=N``: only the last N log entries of a view."""
