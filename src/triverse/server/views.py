"""What each seat is shown: the per-seat view, built only from what that seat may see.

The view is the one JSON document the browser renders (``docs/protocol.md`` gives its shape).
Its game content comes from three places only:

- ``state.observation(seat).to_json()`` (``observation(None)`` for spectators);
- the events of every move, each through ``Event.to_json(seat)``, which drops other seats'
  secrets; a move's notation is shown only to the seat that played it, since in some games
  notation names hidden things (an exchange of rack tiles, say);
- the legal actions, only to the seat whose turn it is.

Besides, it says whether turns are timed (``time_limit``) and when the current one ends
(``deadline``), whether the game offers score previews (``game.preview``), and the match's
shuffle ``commitment`` (a digest only: never its salt, seed or deal, which the record reveals
at the end).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any

from triverse.core.game import State
from triverse.server.clock import iso_utc
from triverse.server.live import LiveMatch, LogEntry, preview_of, turn_time_limit


def jsonable(value: Any) -> Any:
    """``value`` in JSON types: dataclasses become objects, tuples and sets lists, enums
    their values; anything else its ``str``.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Move:
    ...     tile: tuple[int, int, int]
    ...     cell: tuple[int, int]
    ...     rotation: int
    >>> jsonable(Move((1, 2, 3), (0, -1), 2))
    {'tile': [1, 2, 3], 'cell': [0, -1], 'rotation': 2}
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [jsonable(v) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return items
    return str(value)


def action_json(state: State[Any], action: Any) -> dict[str, Any]:
    """A legal action for the UI: notation, its class name in lower case (``place``,
    ``draw``), an English description, its fields, and what the game notes beside it where it
    has an ``action_notes`` method (Triangles: the triangles a line would close), so that a
    client shows them without judging the rules itself."""
    fields = jsonable(action)
    out = {
        "notation": str(action),
        "kind": type(action).__name__.lower(),
        "description": state.describe_action(action),
        "fields": fields if isinstance(fields, dict) else None,
    }
    notes = getattr(state, "action_notes", None)
    if callable(notes):
        out["notes"] = notes(action)
    return out


LogCache = dict[tuple[int, int | None], tuple[LogEntry, dict[str, Any]]]
"""Log entries as a viewer sees them, by (move, viewer), with the entry each was made from."""

LOG_CACHE_MOVES = 64
"""How many of the last moves a :data:`LogCache` keeps (a view shows the last 40 at most,
as the web UI asks; older entries are made again when asked for)."""


def log_json(
    entries: Sequence[LogEntry], viewer: int | None, cache: LogCache | None = None
) -> list[dict[str, Any]]:
    """The move log as ``viewer`` may see it. With ``cache``, each entry is made once per
    viewer (entries are never changed, and the objects made are never changed either)."""
    if cache is None:
        return [_log_item(entry, viewer) for entry in entries]
    out = []
    for entry in entries:
        held = cache.get((entry.number, viewer))
        if held is not None and held[0] is entry:
            out.append(held[1])
            continue
        item = _log_item(entry, viewer)
        cache[(entry.number, viewer)] = (entry, item)
        out.append(item)
    if entries and len(cache) > 8 * LOG_CACHE_MOVES:
        oldest = entries[-1].number - LOG_CACHE_MOVES
        for key in [key for key in cache if key[0] < oldest]:
            del cache[key]
    return out


def _log_item(entry: LogEntry, viewer: int | None) -> dict[str, Any]:
    item: dict[str, Any] = {
        "move": entry.number,
        "player": entry.seat,
        "events": [event.to_json(viewer) for event in entry.events],
    }
    if viewer is not None and viewer == entry.seat:
        item["action"] = entry.action
    return item


def players_json(live: LiveMatch) -> list[dict[str, Any]]:
    """The seats: names, kinds, computers' thinking times, whether each is connected,
    belongs to an account (its name is the account's), is still free (an open game) or was
    an account's that was deleted (shown as "deleted player")."""
    free = live.free_seats
    return [
        {"seat": s.seat, "name": s.name, "kind": s.kind, "think": s.think,
         "connected": live.connected(s.seat), "account": s.account_id is not None,
         "free": s.seat in free, "deleted": s.deleted}
        for s in live.seats
    ]


def render_view(
    live: LiveMatch,
    seat: int | None,
    state: State[Any] | None = None,
    log: Sequence[LogEntry] | None = None,
    log_limit: int | None = None,
) -> dict[str, Any]:
    """The view of ``live`` for ``seat`` (``None``: a spectator).

    ``state`` and ``log`` default to the match's current ones; the replay endpoint passes an
    earlier position (which has no deadline). ``log_limit`` keeps only the last so many log
    entries.
    """
    current = state is None or state is live.state
    state = live.state if state is None else state
    log = live.log if log is None else log
    if log_limit is not None:
        log = log[max(0, len(log) - log_limit):]
    finished = state.is_terminal()
    to_move = None if finished else state.current_player
    your_turn = seat is not None and to_move == seat and not live.free_seats
    legal = (
        [action_json(state, a) for a in state.legal_actions()] if your_turn else []
    )
    deadline = live.deadline if current and not finished else None
    return {
        "match_id": live.id,
        "game": {
            "name": live.game_name,
            "title": live.title,
            "players": live.game.num_players,
            "options": dict(live.game.options),
            "preview": preview_of(state) is not None,
        },
        "mode": live.mode,
        "rated": live.rated,
        "pace": live.pace,
        "commitment": live.commitment,
        "seat": seat,
        "players": players_json(live),
        "move": state.move_number,
        "to_move": to_move,
        "your_turn": your_turn,
        "time_limit": turn_time_limit(live.game, state),
        "deadline": None if deadline is None else iso_utc(deadline),
        "paused": live.paused,
        "finished": finished,
        "result": state.result().to_json() if finished else None,
        "scores": list(state.scores),
        "observation": state.observation(seat).to_json(),
        "legal_actions": legal,
        "log": log_json(log, seat, live.log_cache),
    }
