"""Accounts and sessions over REST (:mod:`triverse.server.accounts`, ``docs/protocol.md``).

- ``POST /api/accounts`` signs up and logs in; ``POST /api/session`` logs in; both answer the
  account and the session's CSRF token, and set the session cookie.
- ``GET /api/session``: the logged-in account and its CSRF token (``not_logged_in`` without a
  live session).
- ``DELETE /api/session`` logs out; ``POST /api/session/password`` changes the password (every
  session ends, a new one is set); ``DELETE /api/account`` deletes the account. These three rely
  on the cookie, so each also needs the session's CSRF token in ``X-CSRF-Token`` (``bad_csrf``
  without it).

An account's seats (``docs/protocol.md``, "An account's seats"):

- ``POST /api/account/claim`` (cookie and CSRF token): the seats the given guest tokens open
  that belong to no account now belong to this one.
- ``GET /api/account/games``: the account's seats, its move first, each with a link whose token
  is a device key of this browser's session.

Log-ins and sign-ups count against ``Settings.rate_login`` per client address, and failed
log-ins against ``Settings.rate_login_name`` per account; claims and lists of an account's
games against ``Settings.rate_account`` per client address.
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
from triverse.server.routes.deps import ERRORS, Changing, Service, Session, limited
from triverse.server.schemas import Claimed, ClaimRequest, MyGames

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
    """Delete the account (its password confirms it), every session of it and their device
    keys. Its games stay: its seats show as "deleted player"."""
    await service.quotas.rates.hit("login", client_address(request))
    await service.delete_account(logged, body.password)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/api/account/claim", responses=ERRORS, dependencies=[limited("account")])
async def claim(body: ClaimRequest, logged: Changing, service: Service) -> Claimed:
    """Claim this browser's guest seats into the account: the seats the given tokens open
    that belong to no account now belong to this one, and bear its name (unknown tokens, and
    seats of another account, are left alone). An account holds one seat of a rated match:
    another seat of it is refused (``refused``)."""
    claimed = await service.claim(logged.account, body.tokens)
    return Claimed.model_validate({
        "claimed": [{"match_id": c.match_id, "seat": c.seat}
                    for c in claimed if c.refused is None],
        "refused": [{"match_id": c.match_id, "seat": c.seat, "reason": c.refused}
                    for c in claimed if c.refused is not None]})


@router.get("/api/account/games", responses=ERRORS, dependencies=[limited("account")])
async def account_games(logged: Session, request: Request, service: Service) -> MyGames:
    """The account's seats on every device: first those where it is its move, then the other
    unfinished matches, then the finished ones, each most recently active first (200 at
    most). Each ``link`` holds a device key: a token for this browser's session, which opens
    the seat like its own token until the session ends."""
    return MyGames.model_validate({"matches": await service.account_games(
        logged, request.cookies.get(SESSION_COOKIE, ""))})
