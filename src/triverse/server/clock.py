"""The server's time source: the system clock, or a clock that moves only when told.

Everything the server dates (turn deadlines, ``created_at`` and ``updated_at``, move rows) comes
from one :class:`Clock`, so that tests and demos can run a match with a time limit of a minute,
or of a day, without waiting for it:

>>> from datetime import UTC, datetime
>>> clock = ManualClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
>>> clock.advance(90)
>>> clock.now().isoformat()
'2026-12-01T09:01:30+00:00'

A clock that can jump (:class:`ManualClock`) also tells its subscribers when it does, so that
the deadline scheduler looks again at once instead of at the end of its current sleep.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """A source of the current time, timezone-aware UTC."""

    def now(self) -> datetime:
        """The current time (aware, UTC)."""
        ...


@runtime_checkable
class JumpingClock(Clock, Protocol):
    """A clock that can move by more than the time that passed, and says so."""

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` (from any thread) whenever the time is set; returns a function
        that unsubscribes it."""
        ...


class SystemClock:
    """The system's clock (the default)."""

    def now(self) -> datetime:
        """``datetime.now(UTC)``."""
        return datetime.now(UTC)


class ManualClock:
    """A clock that stands still until :meth:`advance` or :meth:`set` moves it (thread-safe).

    Subscribers (the deadline scheduler of each running server using it) are called after every
    change, from the thread that made it.
    """

    def __init__(self, start: datetime | None = None) -> None:
        if start is not None and start.tzinfo is None:
            raise ValueError("a ManualClock starts at an aware datetime (UTC)")
        self._now = (start or datetime.now(UTC)).astimezone(UTC)
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    def now(self) -> datetime:
        """The time it was set to."""
        with self._lock:
            return self._now

    def set(self, moment: datetime) -> None:
        """Jump to ``moment`` (aware; backwards too), then tell the subscribers."""
        if moment.tzinfo is None:
            raise ValueError("set the clock to an aware datetime (UTC)")
        with self._lock:
            self._now = moment.astimezone(UTC)
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback()

    def advance(self, seconds: float) -> None:
        """Move forward by ``seconds``, then tell the subscribers."""
        self.set(self.now() + timedelta(seconds=seconds))

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` after every change; returns the function that stops it."""
        with self._lock:
            self._callbacks.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unsubscribe


def iso_utc(moment: datetime) -> str:
    """``moment`` as ISO 8601 in UTC, to the millisecond (naive datetimes are taken as UTC).

    >>> iso_utc(datetime(2026, 12, 1, 9, 0, 0, 123456, tzinfo=UTC))
    '2026-12-01T09:00:00.123Z'
    """
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
