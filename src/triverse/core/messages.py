"""Message codes: what events and refusals say, as a code with named parameters.

Engines keep English labels and notation for logs and records, but every :class:`Event` and
every :class:`~triverse.core.errors.IllegalActionError` also carries a stable ``code`` and
``params`` (JSON values, never English: notation, numbers, card keys), so that clients render
them in their own words and a later catalogue can translate them.

A refusal reason is a :class:`Reason`: the English text, which it still *is* (a ``str``), and its
code and parameters.

>>> r = Reason("no shared edge", "refused.no_shared_edge", cell="1,0/0")
>>> str(r), r.code, r.params
('no shared edge', 'refused.no_shared_edge', {'cell': '1,0/0'})

Core knows no game's codes: each game declares English templates for its own
(``Game.messages``), and :func:`render` fills one in. ``{who}`` is the player's name and
``{points}`` the event's points; everything else comes from ``params``. A parameter named in
:data:`SEAT_PARAMS` is a seat (0-based), shown by its name when ``names`` are given.

>>> render("placed", {"tile": "2-5-5"}, {"placed": "{who} placed {tile} for {points}"},
...        who="Ann", points=12)
'Ann placed 2-5-5 for 12'
>>> render("refused.game_over", {})
'the game is over'

A template may give a singular and a plural form, ``"one|many"``, chosen by ``count``:

>>> drew = {"drew": "{who} drew a tile ({points})|{who} drew {count} tiles ({points})"}
>>> render("drew", {"count": 7}, drew, who="Ann", points=-35)
'Ann drew 7 tiles (-35)'

A string parameter ``V`` that the templates name (an entry ``"name:V"``, a card's name say) is
shown by that name:

>>> render("bought", {"card": "apollo"}, {"bought": "{who} bought {card}", "name:apollo": "Apollo"},
...        who="Ann")
'Ann bought Apollo'
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from triverse.core.events import Event


@dataclass(frozen=True, slots=True)
class Text:
    """An English text of a game's data that players read, for the translation catalogues
    (:mod:`triverse.i18n.catalogue`): its gettext context, msgid and, for a plural, the plural
    msgid."""

    context: str
    msgid: str
    plural: str | None = None


def template_text(game: str, code: str, template: str) -> Text:
    """The catalogue entry of a message template: context ``"<game>:<code>"``, a ``"one|many"``
    template a plural.

    >>> template_text("climb", "drew", "{who} drew a tile|{who} drew {count} tiles")
    Text(context='climb:drew', msgid='{who} drew a tile', plural='{who} drew {count} tiles')
    """
    one, sep, many = template.partition("|")
    return Text(f"{game}:{code}", one, many if sep else None)


YOU = "you:"
"""The prefix of a template said to the player it is about: ``"you:again"``."""


def second_person(code: str, templates: Mapping[str, str]) -> str | None:
    """The template of ``code`` said to its own player, for the feed of that player's screen:
    the game's ``"you:<code>"`` where it gives one (``"You play again"``), else its template
    with ``{who}`` as the subject made ``You`` (English past tenses read the same); None when
    ``{who}`` is not the subject.

    >>> second_person("drew", {"drew": "{who} drew a tile|{who} drew {count} tiles"})
    'You drew a tile|You drew {count} tiles'
    >>> second_person("again", {"again": "{who} plays again", "you:again": "You play again"})
    'You play again'
    >>> second_person("bonus", {"bonus": "{who}: Triton +{bonus}"}) is None
    True
    """
    if YOU + code in templates:
        return templates[YOU + code]
    template = templates.get(code, "")
    forms = template.split("|")
    if not template or not all(form.startswith("{who} ") for form in forms):
        return None
    return "|".join("You " + form[len("{who} "):] for form in forms)


#: The codes core itself raises, with their English templates.
CORE_MESSAGES: Mapping[str, str] = {
    "refused.game_over": "the game is over",
    "refused": "that action is not allowed here",
}


#: The parameters that are seats, in every game.
SEAT_PARAMS = frozenset({"winner", "opener", "owner", "seat", "from"})


class Reason(str):
    """Why an action is refused: English text that also carries a message code and parameters.

    It is a ``str`` (the English reason), so code that only wants the text keeps working.
    """

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str, **params: Any) -> Reason:
        obj = super().__new__(cls, text)
        obj.code = code
        obj.params = params
        return obj


def message_of(reason: str) -> tuple[str, dict[str, Any]]:
    """The code and parameters of a refusal reason (``"refused"`` for plain text).

    >>> message_of("plain text")
    ('refused', {})
    """
    if isinstance(reason, Reason):
        return reason.code, dict(reason.params)
    return "refused", {}


def template_fields(template: str) -> set[str]:
    """The named fields a template uses.

    >>> sorted(template_fields("{who} drew {count} tiles ({points})"))
    ['count', 'points', 'who']
    """
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def render(code: str, params: Mapping[str, Any], templates: Mapping[str, str] | None = None, *,
           who: str = "", points: int = 0, names: Sequence[str] | None = None,
           you: bool = False) -> str:
    """The English text of a message: the game's template (or core's) filled in; with ``you``,
    said to its own player (:func:`second_person`) where the template has that form.

    An unknown code renders as the code itself, so nothing is ever lost.

    >>> render("again", {}, {"again": "{who} plays again", "you:again": "You play again"},
    ...        who="Ann", you=True)
    'You play again'
    """
    template = (templates or {}).get(code, CORE_MESSAGES.get(code))
    if you and template:
        template = second_person(code, {**(templates or {}), code: template}) or template
    if template is None:
        return code
    if not template:  # the event needs no line of its own
        return ""
    if "|" in template:
        one, _, many = template.partition("|")
        template = one if params.get("count") == 1 else many
    values: dict[str, Any] = {"who": who, "points": points, **params}
    if names is not None:
        for key in SEAT_PARAMS & values.keys():
            seat = values[key]
            if isinstance(seat, int) and 0 <= seat < len(names):
                values[key] = names[seat]
    values = {k: _text(_named(v, templates or {})) for k, v in values.items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return code


def _named(value: Any, templates: Mapping[str, str]) -> Any:
    """``value`` with every string the templates name (``"name:V"``) replaced by its name."""
    if isinstance(value, str):
        return templates.get(f"name:{value}", value)
    if isinstance(value, list | tuple):
        return [_named(v, templates) for v in value]
    return value


def _text(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return value


def grouped(events: Iterable[Event]) -> list[Event]:
    """The events with each run of one player's same counted event (draws, say) made one:
    ``count`` and ``points`` summed, secret lists joined, so a log says it in one line.

    >>> draw = Event("draw", 0, -5, code="drew", params={"count": 1}, secret={"tiles": ["1-2-3"]})
    >>> [(e.params, e.points, e.secret) for e in grouped([draw, draw, Event("pass", 0)])]
    [({'count': 2}, -10, {'tiles': ['1-2-3', '1-2-3']}), ({}, 0, None)]
    """
    out: list[Event] = []
    for event in events:
        last = out[-1] if out else None
        if (last is not None and event.code and last.code == event.code
                and last.player == event.player and isinstance(event.params.get("count"), int)
                and _same_but_count(last.params, event.params)):
            out[-1] = replace(last, points=last.points + event.points,
                              params={**last.params,
                                      "count": last.params["count"] + event.params["count"]},
                              secret=_joined(last.secret, event.secret))
        else:
            out.append(event)
    return out


def _same_but_count(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k != "count"} == \
        {k: v for k, v in b.items() if k != "count"}


def _joined(a: Mapping[str, Any] | None,
            b: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    if a is None or b is None:
        return a or b
    out = dict(a)
    for key, value in b.items():
        before = out.get(key)
        if isinstance(before, list) and isinstance(value, list):
            out[key] = before + value
        elif before is not None and before != value:
            out[key] = [*(before if isinstance(before, list) else [before]), value]
        else:
            out[key] = value
    return out
