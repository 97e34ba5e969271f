"""Web Push over REST (:mod:`triverse.server.push`, ``docs/protocol.md``, "Push
notifications").

- ``GET /api/push/key``: the application server key browsers subscribe with.
- ``POST /api/push/subscriptions`` stores a browser's subscription for the logged-in account
  (``201 {id}``); ``DELETE /api/push/subscriptions {endpoint}`` deletes it (``204``). Both rely
  on the session cookie, so both need its CSRF token (``bad_csrf``).
- ``GET /api/push/outbox``: the account's latest notifications, sent or not.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from triverse.server.push import ENDPOINT_MAX, check_subscription
from triverse.server.routes.deps import ERRORS, Changing, Service, Session

router = APIRouter(tags=["push"])


class PushKeys(BaseModel):
    """A subscription's keys, as the browser's ``PushSubscription.toJSON()`` has them."""

    model_config = ConfigDict(extra="forbid")
    p256dh: str = Field(max_length=128, description="the browser's P-256 public key, "
                        "base64url")
    auth: str = Field(max_length=64, description="the 16-byte authentication secret, "
                      "base64url")


class PushSubscriptionBody(BaseModel):
    """A browser's push subscription (``PushSubscription.toJSON()``) and the language its
    notifications are written in."""

    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(max_length=ENDPOINT_MAX, description="the push service's URL for "
                          "this browser (https, on a push service's host)")
    keys: PushKeys
    lang: str | None = Field(None, max_length=35, description="en, pl or fr (or a tag of "
                             "one: pl-PL); another or none: en")
    expirationTime: int | None = Field(None, description="ignored (the browser's)")


class PushEndpoint(BaseModel):
    """The endpoint of a subscription to delete."""

    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(max_length=ENDPOINT_MAX)


@router.get("/api/push/key", responses=ERRORS)
async def push_key(service: Service) -> dict[str, str]:
    """The server's VAPID public key: the ``applicationServerKey`` to subscribe with (the
    uncompressed P-256 point, base64url without padding)."""
    return {"public_key": await service.push.public_key()}


@router.post("/api/push/subscriptions", status_code=201, responses=ERRORS)
async def subscribe(body: PushSubscriptionBody, logged: Changing,
                    service: Service) -> dict[str, str]:
    """Store this browser's push subscription for the account ("your move" in its
    correspondence games). At most 10 an account: one more replaces the oldest. The same
    endpoint again updates its subscription."""
    subscription = check_subscription(service.settings, body.endpoint, body.keys.p256dh,
                                      body.keys.auth, body.lang)
    return {"id": await service.push.subscribe(logged.account.id, subscription)}


@router.delete("/api/push/subscriptions", status_code=204, responses=ERRORS)
async def unsubscribe(body: PushEndpoint, logged: Changing, service: Service) -> Response:
    """Delete the account's subscription of this endpoint (nothing if it has none)."""
    await service.push.unsubscribe(logged.account.id, body.endpoint)
    return Response(status_code=204)


@router.get("/api/push/outbox", responses=ERRORS)
async def outbox(logged: Session, service: Service) -> list[dict[str, Any]]:
    """The account's latest notifications (at most 50), newest first: each one's ``payload``,
    when it was queued (``created``) and ``sent`` (``null``: not yet), and the last ``error``
    in sending it."""
    return await service.push.outbox(logged.account.id)
