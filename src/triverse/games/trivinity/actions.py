"""Trivinity's actions: the value type, its notation, and its OpenSpiel-style ids.

A turn is several actions by the same player (``docs/notation.md``)::

    play 2, discard 1, discard-all, buy 7, end
    stack 4, card 1, seat 2, resource mana, limbo 1, block 3, pass     (answers to effects)

>>> parse_action("buy 7"), str(TrivinityAction("resource", 2))
(TrivinityAction(kind='buy', arg=7), 'resource tribute')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from triverse.core.errors import IllegalActionError, NotationError
from triverse.games.trivinity.cards import RESOURCES
from triverse.games.trivinity.rules import STACKS

# Action kinds whose argument is a number (1-based), and those without one.
_NUMBERED = ("play", "discard", "card", "block", "limbo", "buy", "stack", "seat")
_BARE = ("discard-all", "pass", "end")
ANSWERS = {"stack": "stack", "free": "stack", "card": "card", "seat": "seat",
           "resource": "resource", "limbo": "limbo", "block": "block"}
"""The action kind that answers each kind of pending decision."""


@dataclass(frozen=True, slots=True)
class TrivinityAction:
    """One action. ``arg`` is 1-based for hand slots, stacks, seats and Limbo cards, and the
    resource index (0 Power, 1 Mana, 2 Tribute) for ``resource``.

    >>> str(TrivinityAction("buy", 7)), str(TrivinityAction("resource", 1))
    ('buy 7', 'resource mana')
    """

    kind: str
    arg: int = 0

    def __str__(self) -> str:
        if self.kind in _BARE:
            return self.kind
        if self.kind == "resource":
            return f"resource {RESOURCES[self.arg]}"
        return f"{self.kind} {self.arg}"


def parse_action(text: str) -> TrivinityAction:
    """Read an action's notation (syntax only).

    >>> parse_action("  Play 3 "), parse_action("resource t")
    (TrivinityAction(kind='play', arg=3), TrivinityAction(kind='resource', arg=2))
    >>> parse_action("buy ten")
    Traceback (most recent call last):
    ...
    triverse.core.errors.NotationError: 'buy ten': buy takes a number, as in 'buy 3'
    """
    words = text.strip().lower().split()
    if not words:
        raise NotationError("an empty action; try 'play 1', 'buy 4' or 'end'")
    kind = words[0]
    if kind in _BARE:
        if len(words) != 1:
            raise NotationError(f"{text!r}: {kind} takes nothing after it")
        return TrivinityAction(kind)
    if kind == "resource":
        return _parse_resource(text, words)
    if kind not in _NUMBERED:
        known = ", ".join((*_NUMBERED, "resource", *_BARE))
        raise NotationError(f"{text!r}: unknown action {kind!r}; the actions are {known}")
    if len(words) != 2 or not words[1].isdigit() or len(words[1]) > 4:
        raise NotationError(f"{text!r}: {kind} takes a number, as in '{kind} 3'")
    number = int(words[1])
    if number < 1:
        raise NotationError(f"{text!r}: numbers start at 1")
    return TrivinityAction(kind, number)


def _parse_resource(text: str, words: list[str]) -> TrivinityAction:
    if len(words) != 2:
        raise NotationError(f"{text!r}: write 'resource power', 'resource mana' or "
                            f"'resource tribute'")
    for i, name in enumerate(RESOURCES):
        if words[1] in (name, name[0]):
            return TrivinityAction("resource", i)
    raise NotationError(f"{text!r}: the resources are power, mana and tribute")


@cache
def action(kind: str, arg: int = 0) -> TrivinityAction:
    """The shared instance of an action (legal-action lists reuse them)."""
    return TrivinityAction(kind, arg)


_MAX_SLOTS = 512  # more than the cards of the largest game (a test checks it)
_PLAYS = tuple(action("play", i) for i in range(1, _MAX_SLOTS + 1))
_DISCARDS = tuple(action("discard", i) for i in range(1, _MAX_SLOTS + 1))
_BUYS = tuple(action("buy", s) for s in range(1, STACKS + 1))
_DISCARD_ALL, _PASS, _END = action("discard-all"), action("pass"), action("end")

# --- ids -----------------------------------------------------------------------------------
# Ids: five blocks of ``size`` (a hand slot or Limbo card each: play, discard, card, block,
# limbo), then buy 1-9, stack 1-9, seat 1-4, the three resources, and the bare actions.
_SLOTTED = ("play", "discard", "card", "block", "limbo")
_FIXED = (("buy", 0, 9), ("stack", 9, 9), ("seat", 18, 4), ("resource", 22, 3))


def num_action_ids(size: int) -> int:
    """How many action ids a game of ``size`` cards has.

    >>> num_action_ids(100)
    528
    """
    return 5 * size + 28


def encode_action(action: TrivinityAction, size: int) -> int:
    """The id of ``action`` in a game of ``size`` cards.

    >>> encode_action(TrivinityAction("buy", 2), 100), encode_action(TrivinityAction("end"), 100)
    (501, 527)
    """
    kind, arg = action.kind, action.arg
    if kind in _SLOTTED:
        if not 1 <= arg <= size:
            raise IllegalActionError(f"{action}: no id for slot {arg}")
        return _SLOTTED.index(kind) * size + arg - 1
    for name, start, count in _FIXED:
        if kind == name:
            index = arg if kind == "resource" else arg - 1
            if not 0 <= index < count:
                raise IllegalActionError(f"{action}: no id for {kind} {arg}")
            return 5 * size + start + index
    return 5 * size + 25 + _BARE.index(kind)


def decode_action(action_id: int, size: int) -> TrivinityAction:
    """The action of an id in a game of ``size`` cards (the inverse of :func:`encode_action`).

    >>> decode_action(501, 100), decode_action(3, 100)
    (TrivinityAction(kind='buy', arg=2), TrivinityAction(kind='play', arg=4))
    """
    if not 0 <= action_id < num_action_ids(size):
        raise IllegalActionError(f"action id {action_id} is out of range")
    if action_id < 5 * size:
        return TrivinityAction(_SLOTTED[action_id // size], action_id % size + 1)
    rest = action_id - 5 * size
    for kind, start, count in _FIXED:
        if start <= rest < start + count:
            index = rest - start
            return TrivinityAction(kind, index if kind == "resource" else index + 1)
    return TrivinityAction(_BARE[rest - 25])
