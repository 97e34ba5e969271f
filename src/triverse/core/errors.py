"""Precise exceptions. Every one of them is a :class:`ValueError` where bad input caused it.

>>> from triverse.core.errors import IllegalActionError
>>> issubclass(IllegalActionError, ValueError)
True
"""

from __future__ import annotations

from typing import Any


class TriverseError(Exception):
    """Base class of every error Triverse raises on purpose."""


class NotationError(TriverseError, ValueError):
    """An action's text notation is malformed (its syntax, not its legality)."""


class IllegalActionError(TriverseError, ValueError):
    """A well-formed action that the rules do not allow in this state.

    The state is left exactly as it was before the attempt. ``str()`` is the English message;
    ``code`` and ``params`` say the same as a message code (docs/messages.md).

    >>> e = IllegalActionError("0-1: crosses a line", "refused.crosses", line="0-1")
    >>> str(e), e.code, e.params
    ('0-1: crosses a line', 'refused.crosses', {'line': '0-1'})
    """

    default_code = "refused"

    def __init__(self, message: str = "", code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.params = params


class OptionError(TriverseError, ValueError):
    """An unknown game option, a value of the wrong type, or a bad player count."""


class RecordError(TriverseError, ValueError):
    """A game record is malformed, or does not replay to what it claims."""


class GameOverError(IllegalActionError):
    """An action was attempted on a finished game."""

    default_code = "refused.game_over"
