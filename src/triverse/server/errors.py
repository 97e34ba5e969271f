"""The server's errors: a stable machine ``code``, an HTTP status and a message for people.

REST answers carry them as ``{"error": {"code": ..., "message": ...}}`` and websockets as
``{"type": "error", "code": ..., "message": ...}``; ``docs/protocol.md`` lists every code.
A message never echoes unbounded input: :func:`clip` shortens what it quotes, and a message is
cut at :data:`MESSAGE_MAX` characters whatever it holds.

>>> clip("x" * 500)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (500 characters)"
>>> len(ServerError("bad_notation", "cannot read " + "y" * 10_000).message) <= MESSAGE_MAX
True
"""

from __future__ import annotations

from typing import Any

STATUS: dict[str, int] = {
    "bad_json": 400,
    "bad_request": 422,
    "unknown_game": 422,
    "unknown_language": 404,
    "bad_options": 422,
    "bad_seats": 422,
    "seed_not_allowed": 422,
    "bad_notation": 422,
    "illegal_action": 422,
    "reserved_action": 422,
    "not_supported": 422,
    "missing_token": 401,
    "bad_credentials": 401,
    "not_logged_in": 401,
    "bad_csrf": 403,
    "name_taken": 409,
    "wrong_token": 403,
    "bad_origin": 403,
    "not_found": 404,
    "unknown_match": 404,
    "unknown_player": 404,
    "unknown_contest": 404,
    "not_entered": 404,
    "not_host": 403,
    "signup_closed": 409,
    "already_entered": 409,
    "contest_full": 409,
    "not_in_signup": 409,
    "too_many_announcements": 409,
    "stale_move": 409,
    "not_your_turn": 409,
    "time_up": 409,
    "game_over": 409,
    "not_finished": 409,
    "not_started": 409,
    "not_open": 409,
    "seat_taken": 409,
    "already_joined": 409,
    "too_large": 413,
    "rate_limited": 429,
    "too_many_computer_matches": 429,
    "too_many_sockets": 429,
    "server_busy": 503,
    "server_error": 500,
}
"""Every error code and the HTTP status it is answered with."""

MESSAGE_MAX = 600
"""The most characters of an error message (a longer one is cut, ending with ``...``)."""
CLIP = 60
"""The most characters of a client's input that :func:`clip` quotes."""


def clip(value: object, limit: int = CLIP) -> str:
    """``repr(value)``, shortened to about ``limit`` characters when it is longer: for quoting
    what a client sent in an error message.

    >>> clip("1-4-5@2,0/1")
    "'1-4-5@2,0/1'"
    """
    text = value if isinstance(value, str) else None
    shown = repr(value if text is None else text[:limit + 1])
    if text is not None and len(text) > limit:
        return f"{repr(text[:limit])[:-1]}...{shown[-1]} ({len(text)} characters)"
    return shown if len(shown) <= limit + 2 else shown[:limit] + "..."


def cut(message: str, limit: int = MESSAGE_MAX) -> str:
    """``message``, cut to ``limit`` characters (ending with ``...``) when it is longer.

    >>> cut("abcdef", 5)
    'ab...'
    """
    return message if len(message) <= limit else message[:limit - 3] + "..."


class ServerError(Exception):
    """A request the server refuses; nothing was changed.

    >>> ServerError("stale_move", "you saw move 3; the game is at move 4").status
    409

    ``retry_after``: the whole seconds after which the same request may succeed (a limit's
    refusal: REST sends it as the ``Retry-After`` header, a websocket error as ``retry_after``).

    >>> ServerError("rate_limited", "too many actions", retry_after=3).retry_after
    3

    ``reason``: for an engine's refusal, its message code and parameters
    (``{"code": "refused.crosses", "params": {...}}``, docs/messages.md), for clients to render.
    """

    def __init__(self, code: str, message: str, retry_after: int | None = None,
                 reason: dict[str, Any] | None = None) -> None:
        if code not in STATUS:
            raise ValueError(f"unknown error code {code!r}")
        message = cut(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.reason = reason

    @property
    def status(self) -> int:
        """The HTTP status of this error."""
        return STATUS[self.code]

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "message": ...}``, and ``reason`` when the error has one."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        return out
