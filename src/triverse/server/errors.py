"""The server's errors: a stable machine ``code``, an HTTP status and a message for people.

REST answers carry them as ``{"error": {"code": ..., "message": ...}}`` and websockets as
``{"type": "error", "code": ..., "message": ...}``; ``docs/protocol.md`` lists every code.
"""

from __future__ import annotations

STATUS: dict[str, int] = {
    "bad_json": 400,
    "bad_request": 422,
    "unknown_game": 422,
    "bad_options": 422,
    "bad_seats": 422,
    "seed_not_allowed": 422,
    "bad_notation": 422,
    "illegal_action": 422,
    "reserved_action": 422,
    "not_supported": 422,
    "missing_token": 401,
    "wrong_token": 403,
    "not_found": 404,
    "unknown_match": 404,
    "stale_move": 409,
    "not_your_turn": 409,
    "time_up": 409,
    "game_over": 409,
    "not_finished": 409,
    "rate_limited": 429,
    "too_many_computer_matches": 429,
    "too_many_sockets": 429,
    "server_busy": 503,
    "server_error": 500,
}
"""Every error code and the HTTP status it is answered with."""


class ServerError(Exception):
    """A request the server refuses; nothing was changed.

    >>> ServerError("stale_move", "you saw move 3; the game is at move 4").status
    409

    ``retry_after``: the whole seconds after which the same request may succeed (a limit's
    refusal: REST sends it as the ``Retry-After`` header, a websocket error as ``retry_after``).

    >>> ServerError("rate_limited", "too many actions", retry_after=3).retry_after
    3
    """

    def __init__(self, code: str, message: str, retry_after: int | None = None) -> None:
        if code not in STATUS:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after

    @property
    def status(self) -> int:
        """The HTTP status of this error."""
        return STATUS[self.code]

    def to_json(self) -> dict[str, str]:
        """``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}
