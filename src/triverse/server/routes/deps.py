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


Service = Annotated[MatchService, Depends(service_of)]
"""The match service, as a route parameter."""
SeatToken = Annotated[str | None, Depends(seat_token)]
"""The request's seat token (``None``: none given), as a route parameter."""
LogLimit = Annotated[int | None, Query(alias="log", ge=0,
                                       description="only the last so many log entries")]
"""``?log=N``: only the last N log entries of a view."""
