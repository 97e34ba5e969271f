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
``{points}`` the event's points; everything else comes from ``params``.

>>> render("placed", {"tile": "2-5-5"}, {"placed": "{who} placed {tile} for {points}"},
...        who="Ann", points=12)
'Ann placed 2-5-5 for 12'
>>> render("refused.game_over", {})
'the game is over'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

#: The codes core itself raises, with their English templates.
CORE_MESSAGES: Mapping[str, str] = {
    "refused.game_over": "the game is over",
    "refused": "that action is not allowed here",
}


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
           who: str = "", points: int = 0) -> str:
    """The English text of a message: the game's template (or core's) filled in.

    An unknown code renders as the code itself, so nothing is ever lost.
    """
    template = (templates or {}).get(code) or CORE_MESSAGES.get(code)
    if template is None:
        return code
    values: dict[str, Any] = {"who": who, "points": points, **params}
    values = {k: _text(v) for k, v in values.items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return code


def _text(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return value
