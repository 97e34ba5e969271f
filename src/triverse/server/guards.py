"""What every request passes through: a body size limit, the security headers, the websocket's
``Origin`` check, and seat tokens kept out of the logs.

- :class:`BodyLimit` refuses a request body over the limit with ``413 too_large`` before the
  application reads it (at once when ``Content-Length`` says so, else as soon as the bytes
  received pass the limit);
- :class:`SecurityHeaders` adds :data:`SECURITY_HEADERS` to every HTTP answer: a
  Content-Security-Policy that allows only the server's own scripts, styles and connections,
  and no framing;
- :func:`origin_allowed` decides whether a websocket may open: no ``Origin`` (a program, not a
  browser), the server's own, or one the settings allow;
- :class:`RedactTokens` hides ``token=...`` query values in log lines; :func:`redact_logs`
  puts it on uvicorn's loggers and the server's own.

>>> redact('127.0.0.1:5 - "GET /api/matches/m1/view?log=4&token=fEwFMteu HTTP/1.1" 200')
'127.0.0.1:5 - "GET /api/matches/m1/view?log=4&token=[redacted] HTTP/1.1" 200'
>>> same_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
True
>>> same_origin("https://play.example.org", "play.example.org")
True
>>> same_origin("http://evil.example", "127.0.0.1:8000")
False
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Mapping
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from triverse.server.errors import STATUS, cut

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
"""Only the server's own scripts, styles, images and connections; no inline script or style
(the web UI keeps all of them in files), no plug-ins, and no page may frame these."""

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
"""The headers of every HTTP answer. ``no-referrer``: a seat's page must not tell the next
site its address; ``X-Frame-Options`` says ``frame-ancestors 'none'`` to older browsers."""


def error_response(code: str, message: str, headers: Mapping[str, str] | None = None,
                   status: int | None = None,
                   reason: Mapping[str, Any] | None = None) -> JSONResponse:
    """The protocol's REST error, ``{"error": {"code": ..., "message": ...}}`` (and
    ``reason``, an engine refusal's message code, when given), with the code's status (or
    ``status``), the security headers and ``headers``."""
    body: dict[str, Any] = {"code": code, "message": cut(message)}
    if reason is not None:
        body["reason"] = dict(reason)
    return JSONResponse({"error": body},
                        status_code=STATUS[code] if status is None else status,
                        headers={**SECURITY_HEADERS, **(headers or {})})


# --- the body limit --------------------------------------------------------------------------
class BodyTooLarge(HTTPException):
    """A request body passed the limit while it was read (answered ``413 too_large``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, too_large_message(limit))


def too_large_message(limit: int) -> str:
    """What a refused body is told."""
    return f"the request body is over the limit of {limit:,} bytes"


class BodyLimit:
    """ASGI middleware: HTTP request bodies of at most ``limit`` bytes."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length", "")
        if length.isdigit() and int(length) > self.limit:
            answer = error_response("too_large", too_large_message(self.limit),
                                    {"Connection": "close"})
            await answer(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        await self.app(scope, limited, send)


# --- the security headers --------------------------------------------------------------------
class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


# --- the websocket's origin ------------------------------------------------------------------
def _authority(netloc: str) -> tuple[str, int | None] | None:
    """``(host, port)`` of ``netloc``, the port ``None`` when absent or a default one."""
    try:
        parts = urlsplit(f"//{netloc}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host:
        return None
    return host, None if port in (80, 443) else port


def same_origin(origin: str, host: str) -> bool:
    """Whether the browser origin ``origin`` is the server that the ``Host`` header ``host``
    names: the same host and port (default ports left out; the scheme is not compared, so that
    a proxy that ends TLS in front of the server changes nothing)."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or parts.path not in ("", "/"):
        return False
    mine = _authority(host)
    return mine is not None and _authority(parts.netloc) == mine


def origin_allowed(headers: Headers, allowed: Collection[str]) -> bool:
    """Whether a websocket with these handshake headers may open: without ``Origin`` (a
    program: browsers always send it), from the server's own origin, or from one of
    ``allowed`` (``"*"``: any)."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if "*" in allowed or origin.rstrip("/").lower() in allowed:
        return True
    host = headers.get("host")
    return host is not None and same_origin(origin, host)


CLOSE_POLICY = 1008
"""The websocket close code of a refused handshake, where a server cannot answer it in HTTP."""


async def refuse_origin(websocket: WebSocket) -> None:
    """Refuse a websocket handshake from a foreign origin: ``403 bad_origin`` in HTTP where the
    server can send one (uvicorn can), else a close before it opens."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(error_response(
            "bad_origin", "this server's match websockets are for its own pages"))
    else:
        await websocket.close(code=CLOSE_POLICY)


# --- tokens out of the logs ------------------------------------------------------------------
TOKEN_IN_URL = re.compile(r"([?&;]token=)[^&;#\s\"']+", re.IGNORECASE)
"""A ``token`` query parameter's value, in a URL inside any text."""
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with the value of every ``token=`` query parameter replaced."""
    return TOKEN_IN_URL.sub(r"\g<1>" + REDACTED, text) if "token=" in text.lower() else text


def _redact_value(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """A logging filter that hides seat tokens sent as ``?token=`` in log records.

    Each of a record's arguments is redacted on its own, so that a formatter that reads them
    (uvicorn's access log does) still finds them; if the message they make still shows a
    token (the template had ``token=%s``), the record becomes that message, redacted.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_value(arg) for arg in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {key: _redact_value(arg) for key, arg in record.args.items()}
        if not record.args:
            if isinstance(record.msg, str):
                record.msg = redact(record.msg)
            return True
        try:
            message = record.getMessage()
        except (TypeError, ValueError, KeyError):
            return True  # a broken record: logging reports it as it would have
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


REDACT_TOKENS = RedactTokens()
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "triverse")
"""Loggers that get :data:`REDACT_TOKENS`, besides every ``triverse.*`` logger."""


def redact_logs() -> None:
    """Put :data:`REDACT_TOKENS` on uvicorn's loggers (the access log among them) and on every
    ``triverse`` logger there is (a filter of a logger sees only that logger's records). It
    stays when uvicorn configures its logging later; a second call changes nothing."""
    names = set(LOGGERS) | {name for name in logging.root.manager.loggerDict
                            if name.startswith("triverse.")}
    for name in sorted(names):
        logger = logging.getLogger(name)
        if REDACT_TOKENS not in logger.filters:
            logger.addFilter(REDACT_TOKENS)
