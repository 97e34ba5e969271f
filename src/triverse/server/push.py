"""Web Push: "your move" notifications for correspondence games (``docs/server.md``, "Push
notifications").

- **The VAPID key pair** (RFC 8292) is made once and kept in ``server_secrets``, so that every
  server process signs with the same key and a browser's subscription works whichever sends:
  the first process to start inserts it, a second one's insert fails on the primary key and
  both read the one stored (:meth:`Push.vapid`). Browsers get its public half, the
  uncompressed P-256 point in base64url without padding (``GET /api/push/key``).
- **Subscriptions** belong to an account: at most :data:`SUBSCRIPTIONS` (subscribing one more
  replaces the oldest); an endpoint is one subscription whatever account subscribes it (its
  sha256 is unique), so subscribing it again updates it and, from another account, moves it
  there with its history dropped. Endpoints must be ``https`` URLs on a push service's host
  (``Settings.push_hosts``), so that the server posts to nowhere else.
- **The queue.** After a move (:meth:`Push.after_move`, one of the referee's listeners, run by
  the one process that stored the move), when the seat now to move is a person's, belongs to
  an account and the match is a ``correspondence`` one, one ``push_queue`` row is written per
  subscription of that account, its payload in the subscription's language. The payload never
  names the move that was played (it could tell what a hand held), only whose turn it is.
- **The sender** (:class:`PushSender`, a task of each process while ``Settings.push_send``)
  sends the due rows with ``pywebpush``, at most :data:`SENDING_AT_ONCE` at a time in threads
  of its own. A row is claimed by raising its ``attempts`` from the number it was read with
  (``UPDATE ... WHERE attempts = n AND sent_at IS NULL``): among several processes exactly one
  makes each attempt. Sent: ``sent_at``. ``404``/``410`` (the browser unsubscribed): the
  subscription is deleted (and its rows with it). Other failures: ``error``, and another
  attempt after :data:`RETRY_AFTER`, :data:`ATTEMPTS` in all.

>>> key = public_key(Vapid.from_raw(b"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE"))
>>> len(key), key[:12]
(87, 'BG_wO5SSQc4d')
>>> due_after(0), due_after(2), due_after(ATTEMPTS)
(0, 150, None)
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from triverse.i18n import LANGUAGES, language, language_code, pgettext
from triverse.server.clock import Clock
from triverse.server.config import Settings
from triverse.server.db import (
    PushQueueRow,
    PushSubscriptionRow,
    SeatRow,
    ServerSecretRow,
)
from triverse.server.errors import ServerError, cut
from triverse.server.live import LiveMatch
from triverse.server.repository import aware

log = logging.getLogger(__name__)

__all__ = ["ATTEMPTS", "SUBSCRIPTIONS", "Push", "PushSender", "public_key"]

VAPID_SECRET = "vapid_private_key"
"""The ``server_secrets`` row of the VAPID private key (its 32 bytes, base64url)."""
SUBSCRIPTIONS = 10
"""Push subscriptions an account may have; one more replaces its oldest."""
ENDPOINT_MAX = 2048
"""The longest endpoint URL taken."""
OUTBOX = 50
"""Notifications ``GET /api/push/outbox`` lists, newest first."""
ATTEMPTS = 5
"""Attempts to send a notification before it is given up."""
RETRY_AFTER = (30, 120, 600, 3600)
"""Seconds between a failed attempt and the next (the ``n``-th attempt is due
``sum(RETRY_AFTER[:n])`` seconds after the notification was queued)."""
SENDING_AT_ONCE = 4
"""Notifications a process sends at the same time (each in a thread of the sender's own)."""
BATCH = 100
"""Notifications claimed at a time."""
KEEP = timedelta(days=7)
"""How long sent and given-up notifications are kept (for the outbox) before they are
deleted."""
PRUNE_EVERY = 600.0
"""Seconds between two deletions of old notifications."""
GONE = (404, 410)
"""The push service's answers that mean the subscription no longer exists."""


def b64url(data: bytes) -> str:
    """``data`` in base64url without padding (as browsers write push keys)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of base64url ``text``, with or without padding (``ValueError`` if it is not
    base64url).

    >>> unb64url("AQI"), unb64url("AQI=")
    (b'\\x01\\x02', b'\\x01\\x02')
    """
    if not text or any(c not in _B64URL for c in text.rstrip("=")):
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except binascii.Error:
        raise ValueError("not base64url") from None


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def public_key(vapid: Vapid) -> str:
    """The application server key browsers subscribe with: the uncompressed P-256 point of
    ``vapid``'s public key, base64url without padding (87 characters)."""
    point: bytes = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(point)


def due_after(attempts: int) -> int | None:
    """Seconds after it was queued that a notification tried ``attempts`` times is due again
    (``None``: given up)."""
    return None if attempts >= ATTEMPTS else sum(RETRY_AFTER[:attempts])


@dataclass(frozen=True, slots=True)
class Subscription:
    """A checked subscription, as ``POST /api/push/subscriptions`` sends it."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str


def check_subscription(settings: Settings, endpoint: str, p256dh: str, auth: str,
                       lang: str | None) -> Subscription:
    """The subscription if it can be sent to (``bad_request`` otherwise): an ``https`` endpoint
    (``http`` only with ``push_allow_http``) on one of ``push_hosts``, a P-256 public key
    (``p256dh``, 65 bytes) and a 16-byte ``auth`` secret. ``lang``: a language Triverse speaks,
    or a tag of one (``pl-PL``); else English."""
    if len(endpoint) > ENDPOINT_MAX:
        raise ServerError("bad_request", f"a push endpoint is at most {ENDPOINT_MAX} characters")
    parts = urlsplit(endpoint)
    schemes = ("https", "http") if settings.push_allow_http else ("https",)
    host = (parts.hostname or "").lower()
    if parts.scheme not in schemes or not host or parts.username or parts.password:
        raise ServerError("bad_request", "a push endpoint is an https URL")
    if not host_allowed(host, settings.push_hosts):
        raise ServerError("bad_request", f"{host} is not a push service this server sends to")
    try:
        point = unb64url(p256dh)
        if len(point) != 65:
            raise ValueError("not 65 bytes")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, UnsupportedAlgorithm):
        raise ServerError("bad_request", "keys.p256dh is not a P-256 public key in base64url"
                          ) from None
    try:
        secret = unb64url(auth)
    except ValueError:
        secret = b""
    if len(secret) != 16:
        raise ServerError("bad_request", "keys.auth is not 16 bytes in base64url")
    return Subscription(endpoint, b64url(point), b64url(secret), language_code(lang) or "en")


def host_allowed(host: str, allowed: Sequence[str]) -> bool:
    """Whether ``host`` is one of ``allowed`` or under one of them (``*``: any host).

    >>> host_allowed("fcm.googleapis.com", ("fcm.googleapis.com",))
    True
    >>> host_allowed("wns2-par02p.notify.windows.com", ("notify.windows.com",))
    True
    >>> host_allowed("evilnotify.windows.com", ("notify.windows.com",))
    False
    """
    return any(h == "*" or host == h or host.endswith("." + h) for h in allowed)


def _digest(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode("utf-8")).hexdigest()


def your_move(live: LiveMatch, seat: int, mover: str, timed_out: bool,
              lang: str) -> dict[str, Any]:
    """The payload of a "your move" notification for ``seat`` of ``live``, in ``lang``:
    who moved (``mover``, the seat's name), never what was played."""
    with language(lang if lang in LANGUAGES else "en"):
        game = pgettext("game", live.title)
        title = pgettext("push", "Your turn in {game}").format(game=game)
        if timed_out:
            body = pgettext("push", "{player} ran out of time: it is your turn.")
        else:
            body = pgettext("push", "{player} has played: it is your turn.")
    return {
        "type": "your_move", "title": title,
        "body": body.format(player=mover),
        "url": f"/play/{live.id}?seat={seat}", "match_id": live.id, "game": live.game_name,
        "move": live.state.move_number,
    }


class Push:
    """The VAPID key, the subscriptions and the queue of notifications (see the module).

    ``run`` runs a blocking function off the event loop (the repository's threads)."""

    def __init__(self, settings: Settings, engine: Engine, clock: Clock,
                 run: Callable[..., Awaitable[Any]]) -> None:
        self.settings = settings
        self.engine = engine
        self.clock = clock
        self._run = run
        self._vapid: Vapid | None = None
        self._loading = asyncio.Lock()
        self.sender = PushSender(self)
        self.queued = asyncio.Event()
        """Set when this process queued a notification: its sender wakes up."""

    # --- life cycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Read (or make) the VAPID key; start the sender if ``push_send``."""
        await self.vapid()
        if self.settings.push_send:
            self.sender.start()

    async def close(self) -> None:
        """Stop the sender."""
        await self.sender.close()

    # --- the key -------------------------------------------------------------------------------
    async def vapid(self) -> Vapid:
        """The VAPID key pair every process shares (made by the first that needs it)."""
        if self._vapid is None:
            async with self._loading:
                if self._vapid is None:
                    raw: str = await self._run(self._load_key, b64url(
                        ec.generate_private_key(ec.SECP256R1()).private_numbers()
                        .private_value.to_bytes(32, "big")))
                    self._vapid = Vapid.from_raw(raw.encode("ascii"))
        return self._vapid

    def _load_key(self, fresh: str) -> str:
        """The stored private key, after storing ``fresh`` if there was none."""
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(ServerSecretRow).values(name=VAPID_SECRET,
                                                                  value=fresh))
        except IntegrityError:
            pass  # another process stored one first: that one is the key
        with self.engine.connect() as connection:
            value: str = connection.execute(select(ServerSecretRow.value).where(
                ServerSecretRow.name == VAPID_SECRET)).scalar_one()
        return value

    async def public_key(self) -> str:
        """The application server key for browsers (:func:`public_key`)."""
        return public_key(await self.vapid())

    # --- subscriptions -------------------------------------------------------------------------
    async def subscribe(self, account_id: str, subscription: Subscription) -> str:
        """Store ``subscription`` for the account (see the module); its id."""
        for _ in range(3):  # another request inserting the same endpoint: update it
            try:
                found: str = await self._run(self._subscribe, account_id, subscription,
                                             self.clock.now())
                return found
            except IntegrityError:
                continue
        raise ServerError("server_busy", "the subscription is being changed elsewhere")

    def _subscribe(self, account_id: str, subscription: Subscription, now: datetime) -> str:
        digest = _digest(subscription.endpoint)
        values = {"account_id": account_id, "endpoint": subscription.endpoint,
                  "p256dh": subscription.p256dh, "auth": subscription.auth,
                  "lang": subscription.lang, "created_at": now}
        with self.engine.begin() as connection:
            row = connection.execute(
                select(PushSubscriptionRow.id, PushSubscriptionRow.account_id)
                .where(PushSubscriptionRow.endpoint_hash == digest)).first()
            if row is None:
                subscription_id = secrets.token_urlsafe(12)
                connection.execute(insert(PushSubscriptionRow).values(
                    id=subscription_id, endpoint_hash=digest, **values))
            else:
                subscription_id = row.id
                if row.account_id != account_id:  # another account's notifications stay its
                    connection.execute(delete(PushQueueRow).where(
                        PushQueueRow.subscription_id == subscription_id))
                connection.execute(update(PushSubscriptionRow).where(
                    PushSubscriptionRow.id == subscription_id).values(**values))
            _keep_newest(connection, account_id)
        return subscription_id

    async def unsubscribe(self, account_id: str, endpoint: str) -> bool:
        """Delete the account's subscription of ``endpoint``; whether it had one."""
        deleted: bool = await self._run(self._unsubscribe, account_id, _digest(endpoint))
        return deleted

    def _unsubscribe(self, account_id: str, digest: str) -> bool:
        with self.engine.begin() as connection:
            return connection.execute(delete(PushSubscriptionRow).where(
                PushSubscriptionRow.endpoint_hash == digest,
                PushSubscriptionRow.account_id == account_id)).rowcount > 0

    async def outbox(self, account_id: str) -> list[dict[str, Any]]:
        """The account's latest notifications (at most :data:`OUTBOX`), newest first."""
        found: list[dict[str, Any]] = await self._run(self._outbox, account_id)
        return found

    def _outbox(self, account_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(PushQueueRow.payload, PushQueueRow.created_at, PushQueueRow.sent_at,
                       PushQueueRow.error)
                .join(PushSubscriptionRow,
                      PushSubscriptionRow.id == PushQueueRow.subscription_id)
                .where(PushSubscriptionRow.account_id == account_id)
                .order_by(PushQueueRow.id.desc()).limit(OUTBOX)).all()
        return [{"payload": row.payload, "created": aware(row.created_at).isoformat(),
                 "sent": None if row.sent_at is None else aware(row.sent_at).isoformat(),
                 "error": row.error} for row in rows]

    # --- the queue -----------------------------------------------------------------------------
    async def after_move(self, live: LiveMatch, number: int) -> object:
        """Queue "your move" for the seat now to move, if a person's of an account, in a
        correspondence match, and not the seat that just moved (a referee listener)."""
        seat = live.to_move
        if (seat is None or live.pace != "correspondence" or live.seats[seat].is_bot
                or live.seats[seat].account_id is None):  # a guest's: no database read
            return 0
        entry = live.log[number] if number < len(live.log) else live.log[-1]
        if entry.seat == seat:  # the same seat plays again
            return 0
        timed_out = any(event.kind == "timeout" for event in entry.events)
        queued: int = await self._run(self._enqueue, live, seat, entry.seat, timed_out,
                                      self.clock.now())
        if queued:
            self.queued.set()
        return queued

    def _enqueue(self, live: LiveMatch, seat: int, mover: int, timed_out: bool,
                 now: datetime) -> int:
        """Queue a notification per subscription of the account that holds ``seat`` (as the
        database has it, names included: an account deleted meanwhile gets nothing), unless
        that account also holds the seat that moved (one person's hot-seat)."""
        with self.engine.begin() as connection:
            seats = {row.seat: row for row in connection.execute(
                select(SeatRow.seat, SeatRow.account_id, SeatRow.name).where(
                    SeatRow.match_id == live.id, SeatRow.seat.in_((seat, mover))))}
            account = seats[seat].account_id if seat in seats else None
            if account is None or seats[mover].account_id == account:
                return 0
            subscriptions = connection.execute(
                select(PushSubscriptionRow.id, PushSubscriptionRow.lang)
                .where(PushSubscriptionRow.account_id == account)).all()
            if not subscriptions:
                return 0
            connection.execute(insert(PushQueueRow), [
                {"subscription_id": sub.id, "created_at": now, "attempts": 0,
                 "payload": your_move(live, seat, seats[mover].name, timed_out, sub.lang)}
                for sub in subscriptions])
        return len(subscriptions)


@dataclass(frozen=True, slots=True)
class Claimed:
    """A notification this process is sending: its row and where it goes."""

    id: int
    payload: dict[str, Any]
    subscription_id: str
    endpoint: str
    p256dh: str
    auth: str


def _no_redirects() -> requests.Session:
    """A requests session that follows no redirect (``TooManyRedirects`` instead): a push
    service does not redirect, and a redirect could point the server at an address of its own
    network."""
    session = requests.Session()
    session.max_redirects = 0
    return session


class PushSender:
    """Sends the queued notifications (see the module): woken when this process queues one,
    and every ``push_poll`` seconds for those another process queued and the retries."""

    def __init__(self, push: Push) -> None:
        self.push = push
        self.settings = push.settings
        self._task: asyncio.Task[None] | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._sending = asyncio.Semaphore(SENDING_AT_ONCE)
        self._prune_at = 0.0

    def start(self) -> None:
        """Start sending in the background."""
        self._threads = ThreadPoolExecutor(SENDING_AT_ONCE, thread_name_prefix="triverse-push")
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def close(self) -> None:
        """Stop sending (a notification being sent is tried again later)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait([self._task])
            self._task = None
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None

    async def _loop(self) -> None:
        queued = self.push.queued
        while True:
            queued.clear()
            try:
                await self.send_due()
                if time.monotonic() >= self._prune_at:
                    await self.push._run(self._prune, self.push.clock.now() - KEEP)
                    self._prune_at = time.monotonic() + PRUNE_EVERY
            except Exception:
                log.exception("push: cannot send the queued notifications")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(queued.wait(), self.settings.push_poll)

    async def send_due(self) -> int:
        """Send every notification that is due (claimed by this process); how many were
        sent."""
        sent = 0
        while True:
            claimed: list[Claimed] = await self.push._run(self._claim, self.push.clock.now())
            results = await asyncio.gather(*(self._send(c) for c in claimed))
            sent += sum(results)
            if len(claimed) < BATCH:
                return sent

    def _claim(self, now: datetime) -> list[Claimed]:
        """The due notifications, each claimed for one attempt by this process."""
        due = or_(*(and_(PushQueueRow.attempts == n,
                         PushQueueRow.created_at <= now - timedelta(seconds=due_after(n) or 0))
                    for n in range(ATTEMPTS)))
        with self.push.engine.begin() as connection:
            rows = connection.execute(
                select(PushQueueRow.id, PushQueueRow.attempts, PushQueueRow.payload,
                       PushSubscriptionRow.id.label("subscription_id"),
                       PushSubscriptionRow.endpoint, PushSubscriptionRow.p256dh,
                       PushSubscriptionRow.auth)
                .join(PushSubscriptionRow,
                      PushSubscriptionRow.id == PushQueueRow.subscription_id)
                .where(PushQueueRow.sent_at.is_(None), due)
                .order_by(PushQueueRow.id).limit(BATCH)).all()
            claimed = []
            for row in rows:
                won = connection.execute(
                    update(PushQueueRow)
                    .where(PushQueueRow.id == row.id, PushQueueRow.attempts == row.attempts,
                           PushQueueRow.sent_at.is_(None))
                    .values(attempts=PushQueueRow.attempts + 1)).rowcount
                if won:
                    claimed.append(Claimed(row.id, row.payload, row.subscription_id,
                                           row.endpoint, row.p256dh, row.auth))
        return claimed

    async def _send(self, claimed: Claimed) -> bool:
        """Send one claimed notification and record how it went; whether it was sent."""
        if not host_allowed((urlsplit(claimed.endpoint).hostname or "").lower(),
                            self.settings.push_hosts):  # the list changed since it was stored
            await self._failed(claimed, "the endpoint is not on a push service this server "
                               "sends to")
            return False
        async with self._sending:
            loop = asyncio.get_running_loop()
            try:
                await loop.run_in_executor(self._threads, self._post, claimed)
            except WebPushException as exc:
                status = exc.response.status_code if exc.response is not None else None
                if status in GONE:
                    await self.push._run(self._forget, claimed.subscription_id)
                    log.info("push: subscription %s is gone (%s): deleted",
                             claimed.subscription_id, status)
                    return False
                await self._failed(claimed, f"the push service answered {status}"
                                   if status is not None else "the push service did not answer")
                return False
            except Exception as exc:  # refused connection, time-out, redirect, ...
                # Only the error's kind: its message may quote the endpoint, a secret URL.
                await self._failed(claimed, f"the push service could not be reached "
                                   f"({type(exc).__name__})")
                return False
        await self.push._run(self._sent, claimed.id, self.push.clock.now())
        return True

    def _post(self, claimed: Claimed) -> None:
        """Encrypt the payload (aes128gcm), sign the VAPID claims and post it (blocking)."""
        vapid = self.push._vapid
        assert vapid is not None
        with _no_redirects() as session:
            webpush(
                {"endpoint": claimed.endpoint,
                 "keys": {"p256dh": claimed.p256dh, "auth": claimed.auth}},
                json.dumps(claimed.payload, ensure_ascii=False, separators=(",", ":")),
                vapid_private_key=vapid, vapid_claims={"sub": self.settings.push_contact},
                timeout=self.settings.push_timeout, ttl=self.settings.push_ttl,
                headers={"Urgency": "normal", "Topic": _topic(claimed.payload)},
                requests_session=session)

    async def _failed(self, claimed: Claimed, error: str) -> None:
        log.warning("push: notification %d not sent: %s", claimed.id, error)
        await self.push._run(self._record_error, claimed.id, cut(error, 500))

    def _sent(self, row_id: int, now: datetime) -> None:
        with self.push.engine.begin() as connection:
            connection.execute(update(PushQueueRow).where(PushQueueRow.id == row_id)
                               .values(sent_at=now, error=None))

    def _record_error(self, row_id: int, error: str) -> None:
        with self.push.engine.begin() as connection:
            connection.execute(update(PushQueueRow).where(PushQueueRow.id == row_id)
                               .values(error=error))

    def _forget(self, subscription_id: str) -> None:
        with self.push.engine.begin() as connection:
            connection.execute(delete(PushSubscriptionRow).where(
                PushSubscriptionRow.id == subscription_id))

    def _prune(self, before: datetime) -> None:
        """Delete the notifications queued before ``before`` that were sent or given up."""
        with self.push.engine.begin() as connection:
            connection.execute(delete(PushQueueRow).where(
                PushQueueRow.created_at < before,
                or_(PushQueueRow.sent_at.is_not(None), PushQueueRow.attempts >= ATTEMPTS)))


def _topic(payload: dict[str, Any]) -> str:
    """The push ``Topic`` of a notification: a newer one about the same match replaces one
    the push service still holds (at most 32 base64url characters)."""
    return b64url(hashlib.sha256(str(payload.get("match_id")).encode()).digest()[:24])


def _keep_newest(connection: Connection, account_id: str) -> None:
    """Delete the account's subscriptions past its :data:`SUBSCRIPTIONS` newest."""
    count = connection.execute(select(func.count()).select_from(PushSubscriptionRow).where(
        PushSubscriptionRow.account_id == account_id)).scalar_one()
    if count <= SUBSCRIPTIONS:
        return
    old = connection.execute(
        select(PushSubscriptionRow.id).where(PushSubscriptionRow.account_id == account_id)
        .order_by(PushSubscriptionRow.created_at.desc(), PushSubscriptionRow.id)
        .offset(SUBSCRIPTIONS)).scalars().all()
    connection.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.id.in_(old)))
