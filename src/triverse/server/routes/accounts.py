"""Accounts and sessions over REST (:mod:`triverse.server.accounts`, ``docs/protocol.md``).

- ``POST /api/accounts`` signs up and logs in; ``POST /api/session`` logs in; both answer the
  account and the session's CSRF token, and set the session cookie.
- ``GET /api/session``: the logged-in account and its CSRF token (``not_logged_in`` without a
  live session).
- ``DELETE /api/session`` logs out; ``POST /api/session/password`` changes the password (every
  session ends, a new one is set); ``DELETE /api/account`` deletes the account. These three rely
  on the cookie, so each also needs the session's CSRF token in ``X-CSRF-Token`` (``bad_csrf``
  without it).

Log-ins and sign-ups count against ``Settings.rate_login`` per client address, and failed
log-ins against ``Settings.rate_login_name`` per account.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from triverse.server.accounts import (
    SESSION_COOKIE,
    SESSION_DAYS,
    LoggedIn,
    name_key,
)
from triverse.server.errors import ServerError
from triverse.server.quotas import client_address
from triverse.server.routes.deps import ERRORS, Changing, Service, Session

router = APIRouter(tags=["accounts"])


class Credentials(BaseModel):
    """A name and a password (sign-up, log-in)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class PasswordChange(BaseModel):
    """The current password and the new one."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


class PasswordOnly(BaseModel):
    """The current password, to confirm a deletion."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1024)


def _answer(logged: LoggedIn) -> dict[str, Any]:
    return {"account": logged.account.to_json(), "csrf": logged.csrf}


def _set_cookie(request: Request, response: Response, logged: LoggedIn) -> None:
    assert logged.token is not None
    response.set_cookie(SESSION_COOKIE, logged.token, max_age=SESSION_DAYS * 24 * 3600,
                        path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


@router.post("/api/accounts", status_code=201, responses=ERRORS)
async def sign_up(body: Credentials, request: Request, response: Response,
                  service: Service) -> dict[str, Any]:
    """Make an account and log this browser in."""
    await service.quotas.rates.hit("login", client_address(request))
    logged = await service.accounts.sign_up(body.name, body.password)
    _set_cookie(request, response, logged)
    return _answer(logged)


@router.post("/api/session", responses=ERRORS)
async def log_in(body: Credentials, request: Request, response: Response,
                 service: Service) -> dict[str, Any]:
    """Log this browser in (``bad_credentials`` for a wrong password or an unknown name)."""
    rates = service.quotas.rates
    await rates.hit("login", client_address(request))
    account = "account:" + name_key(body.name)
    await rates.check("login_name", account, "on this account")
    try:
        logged = await service.accounts.log_in(body.name, body.password)
    except ServerError as exc:
        if exc.code == "bad_credentials":
            await rates.count("login_name", account)
        raise
    _set_cookie(request, response, logged)
    return _answer(logged)


@router.get("/api/session", responses=ERRORS)
async def session(logged: Session) -> dict[str, Any]:
    """The logged-in account and its CSRF token."""
    return _answer(logged)


@router.delete("/api/session", status_code=204, responses=ERRORS)
async def log_out(_logged: Changing, request: Request, service: Service) -> Response:
    """Log this browser out."""
    await service.accounts.log_out(request.cookies.get(SESSION_COOKIE, ""))
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/api/session/password", responses=ERRORS)
async def change_password(body: PasswordChange, logged: Changing, request: Request,
                          response: Response, service: Service) -> dict[str, Any]:
    """Change the password: every session of the account ends, this browser gets a new one."""
    await service.quotas.rates.hit("login", client_address(request))
    fresh = await service.accounts.change_password(logged, body.password, body.new_password)
    _set_cookie(request, response, fresh)
    return _answer(fresh)


@router.delete("/api/account", status_code=204, responses=ERRORS)
async def delete_account(body: PasswordOnly, logged: Changing, request: Request,
                         service: Service) -> Response:
    """Delete the account (its password confirms it) and every session of it."""
    await service.quotas.rates.hit("login", client_address(request))
    await service.accounts.delete(logged, body.password)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response
