"""Accounts: an optional identity for a player, across browsers and devices.

Anyone can still play as a guest, with seat tokens. An account is a name and a password:

- **Names** are 3 to 24 letters, digits, ``_``, ``-`` or ``.`` (any script's letters, in Unicode
  NFC), unique whatever their case: ``Zoë`` and ``zoë`` are one name (:func:`name_key`).
- **Passwords** are 8 to 128 characters, kept only as an argon2id hash (``argon2-cffi``'s
  defaults: 64 MiB, 3 passes), computed in a thread, at most :data:`HASHING_AT_ONCE` at a time
  so that a flood of log-ins cannot take every core and all the memory.
- **A session** is a random cookie value (``triverse_session``, HttpOnly, SameSite=Lax, Secure
  over HTTPS) whose sha256 the database keeps, with a CSRF token: every change made on the
  strength of the cookie (log out, change the password, delete the account) must also send the
  token back in the ``X-CSRF-Token`` header, which another site's page cannot read. A session
  lasts :data:`SESSION_DAYS` days; changing the password ends every other one.
- **A wrong password and an unknown name get the same answer**, and take as long: an unknown
  name is checked against a dummy hash.
- **Device keys** (``seat_keys``, :func:`triverse.server.seats.device_key`) open an account's
  seats in one logged-in browser; they go with their session (the foreign key cascades), and
  :attr:`Accounts.keys_ended` is told which matches they opened, so that their websockets are
  closed.
- **Deleting an account** keeps its games: its seats become :data:`DELETED_NAME`'s
  (``deleted``, no account), its sessions and their device keys go.

>>> name_key("Zoë"), name_key("ZOË") == name_key("zoë")
('zoë', True)
>>> check_name("ab")
Traceback (most recent call last):
...
triverse.server.errors.ServerError: a name is 3 to 24 letters, digits, '_', '-' or '.'
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import secrets
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from triverse.server.clock import Clock
from triverse.server.db import AccountRow, MatchRow, SeatKeyRow, SeatRow, SessionRow
from triverse.server.errors import ServerError
from triverse.server.repository import aware

__all__ = ["DELETED_NAME", "SESSION_COOKIE", "Account", "Accounts", "LoggedIn", "check_name",
           "name_key"]

SESSION_COOKIE = "triverse_session"
"""The cookie that holds a logged-in browser's session."""
CSRF_HEADER = "X-CSRF-Token"
"""The header that carries the session's CSRF token with every change it asks for."""
SESSION_DAYS = 30
"""How long a session lasts."""
HASHING_AT_ONCE = 2
"""Password hashes computed at the same time, at most (each takes 64 MiB for a moment)."""
NAME = re.compile(r"[\w.-]{3,24}")
PASSWORD_MIN, PASSWORD_MAX = 8, 128
DELETED_NAME = "deleted player"
"""The name a deleted account's seats take."""
KeysEnded = Callable[[Sequence[str]], Awaitable[None]]
"""Told the matches whose device keys just ended with their sessions."""


def name_key(name: str) -> str:
    """The form of a name that is unique: NFC, case-folded."""
    return unicodedata.normalize("NFC", name).casefold()


def check_name(name: str) -> str:
    """``name`` in NFC if it is a valid account name (``bad_request`` otherwise)."""
    normal = unicodedata.normalize("NFC", name)
    if not NAME.fullmatch(normal) or normal.startswith(("-", ".")):
        raise ServerError("bad_request", "a name is 3 to 24 letters, digits, '_', '-' or '.'")
    return normal


def check_password(password: str) -> None:
    """``bad_request`` unless ``password`` is 8 to 128 characters."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ServerError("bad_request", f"a password is {PASSWORD_MIN} to {PASSWORD_MAX} "
                          "characters")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the server shows it: never its hash."""

    id: str
    name: str
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created": self.created_at.isoformat()}


@dataclass(frozen=True, slots=True)
class LoggedIn:
    """A session: its account, the cookie's value (only when it was just made) and its CSRF
    token."""

    account: Account
    csrf: str
    token: str | None = None


@dataclass(frozen=True, slots=True)
class Deleted:
    """What deleting an account changed: the matches where its seats were (unfinished, then
    finished), now a deleted player's."""

    unfinished: tuple[str, ...]
    finished: tuple[str, ...]


class Accounts:
    """Accounts and sessions in the server's database (see the module). ``run`` runs a
    blocking function off the event loop (the repository's threads); ``keys_ended`` is told
    the matches whose device keys ended with a session (log-out, password change,
    deletion)."""

    def __init__(self, engine: Engine, clock: Clock,
                 run: Callable[..., Awaitable[Any]], keys_ended: KeysEnded | None = None) -> None:
        self.engine = engine
        self.clock = clock
        self._run = run
        self.keys_ended = keys_ended
        self._hasher = PasswordHasher()
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self._dummy: str | None = None

    # --- passwords --------------------------------------------------------------------------------
    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self._hasher.hash, password)

    async def _verify(self, stored: str, password: str) -> bool:
        async with self._hashing:
            return await asyncio.to_thread(self._check, stored, password)

    def _check(self, stored: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    async def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = await self._hash(secrets.token_urlsafe(16))
        return self._dummy

    # --- accounts ---------------------------------------------------------------------------------
    async def sign_up(self, name: str, password: str) -> LoggedIn:
        """Make an account and log it in (``name_taken`` if the name is used, whatever its
        case)."""
        name = check_name(name)
        check_password(password)
        hashed = await self._hash(password)
        account = Account(secrets.token_urlsafe(12), name, self.clock.now())
        try:
            await self._run(self._insert, account, hashed)
        except IntegrityError:
            raise ServerError("name_taken", f"the name {name!r} is taken") from None
        return await self._open(account)

    def _insert(self, account: Account, hashed: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(insert(AccountRow).values(
                id=account.id, name=account.name, name_key=name_key(account.name),
                password_hash=hashed, created_at=account.created_at))

    async def log_in(self, name: str, password: str) -> LoggedIn:
        """A new session for the account called ``name`` if ``password`` is its password;
        ``bad_credentials`` otherwise, the same for an unknown name."""
        found: tuple[Account, str] | None = await self._run(
            self._find, AccountRow.name_key, name_key(unicodedata.normalize("NFC", name)))
        stored = found[1] if found is not None else await self._dummy_hash()
        right = await self._verify(stored, password)
        if found is None or not right:
            raise ServerError("bad_credentials", "the name or the password is wrong")
        account, hashed = found
        if self._hasher.check_needs_rehash(hashed):
            await self._run(self._set_hash, account.id, await self._hash(password))
        return await self._open(account)

    def _find(self, column: Any, value: str) -> tuple[Account, str] | None:
        """The account whose ``column`` (its id, or its name's key) is ``value``, and its
        password hash."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.created_at,
                       AccountRow.password_hash).where(column == value)).first()
        if row is None:
            return None
        return Account(row.id, row.name, aware(row.created_at)), row.password_hash

    async def _confirm(self, session: LoggedIn, password: str) -> None:
        """``bad_credentials`` unless ``password`` is the session's account's password."""
        found: tuple[Account, str] | None = await self._run(self._find, AccountRow.id,
                                                            session.account.id)
        if found is None or not await self._verify(found[1], password):
            raise ServerError("bad_credentials", "the password is wrong")

    def _set_hash(self, account_id: str, hashed: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(update(AccountRow).where(AccountRow.id == account_id)
                               .values(password_hash=hashed))

    async def change_password(self, session: LoggedIn, password: str, new: str) -> LoggedIn:
        """Change the session's account's password (``bad_credentials`` if ``password`` is
        not the current one): every session ends, with its device keys, and a new one is
        returned."""
        check_password(new)
        await self._confirm(session, password)
        await self._run(self._set_hash, session.account.id, await self._hash(new))
        await self._ended(await self._run(self._end_all, session.account.id))
        return await self._open(session.account)

    async def delete(self, session: LoggedIn, password: str) -> Deleted:
        """Delete the session's account, its sessions and their device keys
        (``bad_credentials`` if ``password`` is not its password); its name is free again.
        Its games stay: its seats become a deleted player's (:data:`DELETED_NAME`)."""
        await self._confirm(session, password)
        found: tuple[Deleted, list[str]] = await self._run(self._delete, session.account.id)
        deleted, keyed = found
        await self._ended([m for m in keyed if m not in deleted.unfinished])
        return deleted

    def _delete(self, account_id: str) -> tuple[Deleted, list[str]]:
        with self.engine.begin() as connection:
            keyed = _keyed(connection, SessionRow.account_id == account_id)
            matches = connection.execute(
                select(MatchRow.id, MatchRow.status).join(SeatRow, SeatRow.match_id == MatchRow.id)
                .where(SeatRow.account_id == account_id).distinct().order_by(MatchRow.id)).all()
            connection.execute(update(SeatRow).where(SeatRow.account_id == account_id)
                               .values(account_id=None, deleted=True, name=DELETED_NAME))
            # The sessions' device keys go with them (ON DELETE CASCADE).
            connection.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            connection.execute(delete(AccountRow).where(AccountRow.id == account_id))
        deleted = Deleted(tuple(m.id for m in matches if m.status != "finished"),
                          tuple(m.id for m in matches if m.status == "finished"))
        return deleted, keyed

    async def _ended(self, match_ids: Sequence[str]) -> None:
        if match_ids and self.keys_ended is not None:
            await self.keys_ended(match_ids)

    # --- sessions ---------------------------------------------------------------------------------
    async def _open(self, account: Account) -> LoggedIn:
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = self.clock.now()
        await self._run(self._insert_session, _digest(token), account.id, csrf, now,
                        now + timedelta(days=SESSION_DAYS))
        return LoggedIn(account, csrf, token)

    def _insert_session(self, digest: str, account_id: str, csrf: str, now: datetime,
                        expires: datetime) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(SessionRow).where(SessionRow.expires_at < now))
            connection.execute(insert(SessionRow).values(
                token_hash=digest, account_id=account_id, csrf=csrf, created_at=now,
                expires_at=expires))

    async def session(self, token: str | None) -> LoggedIn | None:
        """The live session whose cookie is ``token``, if any."""
        if not token:
            return None
        found: LoggedIn | None = await self._run(self._session, _digest(token),
                                                 self.clock.now())
        return found

    def _session(self, digest: str, now: datetime) -> LoggedIn | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(SessionRow.csrf, SessionRow.expires_at, AccountRow.id, AccountRow.name,
                       AccountRow.created_at)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.token_hash == digest)).first()
        if row is None or aware(row.expires_at) <= now:
            return None
        return LoggedIn(Account(row.id, row.name, aware(row.created_at)), row.csrf)

    @staticmethod
    def csrf_ok(session: LoggedIn, sent: str | None) -> bool:
        """Whether ``sent`` is the session's CSRF token (compared in constant time)."""
        return sent is not None and hmac.compare_digest(sent.encode(), session.csrf.encode())

    async def log_out(self, token: str) -> None:
        """End the session whose cookie is ``token``, and its device keys."""
        await self._ended(await self._run(self._end, _digest(token)))

    def _end(self, digest: str) -> list[str]:
        with self.engine.begin() as connection:
            keyed = _keyed(connection, SessionRow.token_hash == digest)
            connection.execute(delete(SessionRow).where(SessionRow.token_hash == digest))
        return keyed

    def _end_all(self, account_id: str) -> list[str]:
        with self.engine.begin() as connection:
            keyed = _keyed(connection, SessionRow.account_id == account_id)
            connection.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
        return keyed


def _keyed(connection: Connection, sessions: Any) -> list[str]:
    """The matches the device keys of the sessions ``sessions`` selects open."""
    return list(connection.execute(
        select(SeatKeyRow.match_id).join(SessionRow,
                                         SessionRow.token_hash == SeatKeyRow.session_hash)
        .where(sessions).distinct().order_by(SeatKeyRow.match_id)).scalars())
