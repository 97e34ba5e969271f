"""Events: what happened when an action was applied.

:meth:`triverse.core.game.State.apply` returns a list of events: a tile placed, ``Hexagon +50``,
a draw of ``-5``, a round ended. Score changes are events too, and a state's scores are always the
sum of the ``points`` of the events it emitted.

An event may carry a ``secret`` (the tile a player drew, say) that only ``player`` may see;
:meth:`Event.view` strips it for everyone else.

Every event also carries a message ``code`` with ``params`` (JSON values, no English) that
clients render in words (see :mod:`triverse.core.messages` and docs/messages.md).

>>> e = Event("draw", player=1, points=-5, label="Draw -5", secret={"tile": "1-2-3"},
...           code="drew")
>>> e.view(0).secret is None, e.view(1).secret
(True, {'tile': '1-2-3'})
>>> e.to_json(0)
{'kind': 'draw', 'player': 1, 'points': -5, 'label': 'Draw -5', 'data': {}, 'code': 'drew', \
'params': {}}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """One thing that happened.

    ``kind`` is a short machine name (``"place"``, ``"score"``, ``"draw"``, ``"round_end"`` ...),
    ``player`` the seat it concerns (``None`` for the table), ``points`` the score change it brings
    to that player, ``label`` the text a player reads (``"Span +50"``), ``data`` public details in
    JSON types, and ``secret`` details only ``player`` may see. ``code`` and ``params`` are
    the message clients render (``params`` public, JSON values, no English).
    """

    kind: str
    player: int | None = None
    points: int = 0
    label: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)
    secret: Mapping[str, Any] | None = None
    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, kind: str, player: int | None = None, points: int = 0, label: str = "",
                 data: Mapping[str, Any] | None = None, secret: Mapping[str, Any] | None = None,
                 code: str = "", params: Mapping[str, Any] | None = None) -> None:
        # Each field set through its slot directly: every move of every game (and of every
        # computer player's search) makes events, and this takes about half the time of a frozen
        # dataclass's own __init__ (which goes through object.__setattr__ for each field).
        _set_kind(self, kind)
        _set_player(self, player)
        _set_points(self, points)
        _set_label(self, label)
        _set_data(self, {} if data is None else data)
        _set_secret(self, secret)
        _set_code(self, code)
        _set_params(self, {} if params is None else params)

    def view(self, viewer: int | None) -> Event:
        """The event as ``viewer`` may see it (``None``: a spectator)."""
        if self.secret is None or (viewer is not None and viewer == self.player):
            return self
        return replace(self, secret=None)

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        """A JSON object of the event as ``viewer`` may see it."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "player": self.player,
            "points": self.points,
            "label": self.label,
            "data": dict(self.data),
            "code": self.code,
            "params": dict(self.params),
        }
        if self.secret is not None and viewer is not None and viewer == self.player:
            out["secret"] = dict(self.secret)
        return out


_set_kind, _set_player, _set_points, _set_label, _set_data, _set_secret, _set_code, _set_params = (
    Event.__dict__[name].__set__ for name in Event.__slots__)


def score_totals(events: Iterable[Event], num_players: int) -> list[int]:
    """Sum the points of ``events`` per player.

    >>> score_totals([Event("score", 0, 9), Event("draw", 1, -5), Event("score", 0, 50)], 2)
    [59, -5]
    """
    totals = [0] * num_players
    for event in events:
        if event.points and event.player is not None:
            totals[event.player] += event.points
    return totals


def labels(events: Sequence[Event]) -> list[str]:
    """The labels of the events that have one, in order (handy in tests and logs)."""
    return [e.label for e in events if e.label]
