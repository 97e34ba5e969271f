"""Views sent to many sockets: the public view rendered once per change, and a move's change.

A match's spectators all see the same public view. :func:`public_view` renders it once for
each state of the match (and each log limit asked for) and hands every spectator the same
:class:`Rendered` view, whose JSON text is made once too. :func:`changes` is what a socket
that already holds the previous view is sent instead of the new one (a ``changes`` message,
``docs/protocol.md``): the view's fields whose value changed, and the log entries added. A
:class:`Rendered` view keeps the changes from the view before it, so that every spectator
who had that one gets the same text.

>>> old = {"move": 1, "scores": [0, 0], "paused": False, "log": [{"move": 0}]}
>>> new = {"move": 2, "scores": [0, 5], "paused": False, "log": [{"move": 0}, {"move": 1}]}
>>> changes(old, new)
{'type': 'changes', 'move': 2, 'changes': {'move': 2, 'scores': [0, 5]}, 'log': [{'move': 1}]}
>>> apply_changes(old, changes(old, new)) == new
True
"""

from __future__ import annotations

import json
import weakref
from dataclasses import dataclass, field
from typing import Any

import orjson

from triverse.server.live import LiveMatch
from triverse.server.views import render_view

Json = dict[str, Any]


def dumps(message: Any) -> str:
    """Compact JSON, as every websocket message is sent (``orjson``: non-ASCII characters as
    themselves, not ``\\u`` escapes; the standard library's encoder for what it refuses).

    >>> dumps({"move": 2, "name": "Zoë", 3: [1.5, None]})
    '{"move":2,"name":"Zoë","3":[1.5,null]}'
    """
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # keys that are not strings (slower), integers beyond 64 bits
        try:
            return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            return json.dumps(message, separators=(",", ":"))


def changes(old: Json, new: Json) -> Json | None:
    """The ``changes`` message that turns view ``old`` into view ``new``: every field but the
    log whose value differs, and the log entries after ``old``'s last one. ``None`` when
    ``new``'s log does not continue ``old``'s (then the whole view is sent)."""
    old_log, new_log = old["log"], new["log"]
    last = old_log[-1]["move"] if old_log else -1
    if new_log and new_log[-1]["move"] < last:
        return None
    added = [entry for entry in new_log if entry["move"] > last]
    if not new_log and old_log:
        return None
    changed = {key: value for key, value in new.items() if key != "log" and old.get(key) != value}
    return {"type": "changes", "move": new["move"], "changes": changed, "log": added}


def apply_changes(view: Json, message: Json, log_limit: int | None = None) -> Json:
    """The view a client holds after applying a ``changes`` message to ``view`` (the
    browser's ``connection.js`` does the same): the changed fields replaced, the new log
    entries appended, and only the last ``log_limit`` entries kept if it asked for a limit."""
    log = [*view["log"], *message["log"]]
    if log_limit is not None:
        log = log[max(0, len(log) - log_limit):]
    return {**view, **message["changes"], "log": log}


@dataclass(eq=False)
class Rendered:
    """A view and its JSON text (made once, when first needed)."""

    view: Json
    previous: Rendered | None = None
    """The view before it, for the changes between them."""
    _text: str | None = None
    _changes: str | None = field(default=None, repr=False)
    _changes_made: bool = False

    @property
    def text(self) -> str:
        """The view's JSON."""
        if self._text is None:
            self._text = dumps(self.view)
        return self._text

    def changes_from(self, old: Json) -> str | None:
        """The ``changes`` message from ``old`` as JSON text, without ``server_time`` and its
        closing brace (``None``: send the whole view). Made once for the previous view."""
        if self.previous is not None and old is self.previous.view:
            if not self._changes_made:
                self._changes = _open(changes(old, self.view))
                self._changes_made = True
            return self._changes
        return _open(changes(old, self.view))


def _open(message: Json | None) -> str | None:
    """``message``'s JSON without its closing brace (for a ``server_time`` to follow)."""
    return None if message is None else dumps(message)[:-1]


@dataclass(eq=False)
class _Public:
    """The last public view of one match and log limit, and what it was rendered from."""

    state: Any
    key: tuple[Any, ...]
    rendered: Rendered


_PUBLIC: weakref.WeakKeyDictionary[LiveMatch, dict[int | None, _Public]] = (
    weakref.WeakKeyDictionary())


def view_key(live: LiveMatch) -> tuple[Any, ...]:
    """What a view is made of besides the state (which is replaced, never changed in place, at
    every move) and what never changes: it is rendered again when one of them changes (the
    seats too: taken in an open game, claimed, or their account deleted)."""
    return (len(live.log), live.paused, live.deadline, live.seats,
            tuple(live.connected(seat.seat) for seat in live.seats))


def public_view(live: LiveMatch, log_limit: int | None = None) -> Rendered:
    """The public (spectators') view of ``live``, rendered once per change of the match and
    shared by every caller."""
    views = _PUBLIC.setdefault(live, {})
    key = view_key(live)
    held = views.get(log_limit)
    if held is not None and held.state is live.state and held.key == key:
        return held.rendered
    view = render_view(live, None, log_limit=log_limit)
    if held is not None and held.rendered.view == view:
        rendered = held.rendered
    else:
        rendered = Rendered(view, None if held is None else held.rendered)
        if held is not None:
            held.rendered.previous = None  # one step of history is enough
    views[log_limit] = _Public(live.state, key, rendered)
    return rendered
