"""Declared shapes of JSON-like values, checked in one call that names the path of a bad part.

A game reads a custom starting position (a *setup*) from JSON. Instead of checking its shape by
hand, it declares the shape once and lets :func:`validate` check it and convert it: the value
of every :class:`Parsed` part comes back parsed, the rest as given.

>>> tile = Parsed(int, "a tile number like '7'")
>>> shape = Fields(
...     required={"hands": ListOf(ListOf(tile, what="a hand (a list of tiles)"), length=2,
...                               what="a list of 2 hands, one per seat")},
...     optional={"turn": Integer(minimum=0, maximum=1)},
... )
>>> validate(shape, {"hands": [["1", "2"], ["3"]]}, "setup")
{'hands': [[1, 2], [3]]}
>>> validate(shape, {"hands": [["1", "2"], ["3", 7]]}, "setup")
Traceback (most recent call last):
...
triverse.core.errors.RecordError: setup.hands[1][1]: expected a tile number like '7', got 7
>>> validate(shape, {"hands": [["1"], ["x"]]}, "setup")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
triverse.core.errors.RecordError: setup.hands[1][0]: expected a tile number like '7', got 'x' (...)
>>> validate(shape, {"hands": [[], []], "turn": 2}, "setup")
Traceback (most recent call last):
...
triverse.core.errors.RecordError: setup.turn: expected a whole number from 0 to 1, got 2

The messages have one form: the path, then what was expected and what came instead
(``expected ..., got ...``), or what is wrong with a key of an object (``missing``, ``unknown
key``). Long values are shortened. The error class is :class:`~triverse.core.errors.RecordError`
unless another is given.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from triverse.core.errors import RecordError

T = TypeVar("T")

SHOWN_CHARS = 60
"""A value longer than this in a message is cut, with ``...`` at the end."""


def shown(value: object) -> str:
    """``repr(value)``, cut to :data:`SHOWN_CHARS` characters.

    >>> shown([1, 2])
    '[1, 2]'
    >>> shown(list(range(40)))
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16...'
    """
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


class Schema(ABC, Generic[T]):
    """The declared shape of a value; :meth:`check` checks one value and converts it."""

    what: str
    """The expected shape in words, as the message says it: ``expected <what>``."""

    @abstractmethod
    def fits(self, value: object) -> bool:
        """Whether ``value`` has this shape's JSON type (an :class:`AnyOf` picks by it)."""

    @abstractmethod
    def check(self, value: object, path: str, error: type[Exception]) -> T:
        """``value`` converted, or ``error`` raised with a message naming ``path``."""

    def refuse(self, value: object, path: str, error: type[Exception],
               detail: str = "") -> Exception:
        """The error for a ``value`` that is not of this shape (for the caller to raise)."""
        more = f" ({detail})" if detail else ""
        return error(f"{path}: expected {self.what}, got {shown(value)}{more}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}" if low != high else f"exactly {low}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return ""


class Integer(Schema[int]):
    """A whole number (not ``true`` or ``false``), optionally from ``minimum`` to ``maximum``.

    >>> validate(Integer(minimum=1), 0, "round")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: round: expected a whole number at least 1, got 0
    >>> validate(Integer(), True, "score")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: score: expected a whole number, got True
    """

    def __init__(self, *, minimum: int | None = None, maximum: int | None = None,
                 what: str | None = None) -> None:
        self.minimum = minimum
        self.maximum = maximum
        bounds = _range_text(minimum, maximum)
        self.what = what or ("a whole number " + bounds).strip()

    def fits(self, value: object) -> bool:
        return _is_int(value)

    def check(self, value: object, path: str, error: type[Exception]) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.refuse(value, path, error)
        if ((self.minimum is not None and value < self.minimum)
                or (self.maximum is not None and value > self.maximum)):
            raise self.refuse(value, path, error)
        return value


class Boolean(Schema[bool]):
    """``true`` or ``false``.

    >>> validate(Boolean(), "yes", "span")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: span: expected true or false, got 'yes'
    """

    what = "true or false"

    def fits(self, value: object) -> bool:
        return isinstance(value, bool)

    def check(self, value: object, path: str, error: type[Exception]) -> bool:
        if not isinstance(value, bool):
            raise self.refuse(value, path, error)
        return value


class Choice(Schema[T]):
    """One of a few given values (texts or numbers), compared exactly.

    >>> validate(Choice(("seed", "triolet")), "pressman", "variant")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: variant: expected one of 'seed', 'triolet', got 'pressman'
    """

    def __init__(self, choices: Sequence[T], *, what: str | None = None) -> None:
        self.choices = tuple(choices)
        self.what = what or "one of " + ", ".join(repr(c) for c in self.choices)

    def fits(self, value: object) -> bool:
        return any(type(value) is type(c) for c in self.choices)

    def check(self, value: object, path: str, error: type[Exception]) -> T:
        for choice in self.choices:
            if type(value) is type(choice) and value == choice:
                return choice
        raise self.refuse(value, path, error)


class Text(Schema[str]):
    """Any text.

    >>> validate(Text(), 3, "name")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: name: expected a text, got 3
    """

    def __init__(self, *, what: str = "a text") -> None:
        self.what = what

    def fits(self, value: object) -> bool:
        return isinstance(value, str)

    def check(self, value: object, path: str, error: type[Exception]) -> str:
        if not isinstance(value, str):
            raise self.refuse(value, path, error)
        return value


class Parsed(Schema[T]):
    """A value of type ``kind`` (text unless told) that ``parse`` turns into something else.

    ``parse`` refuses a value by raising :class:`ValueError` (a ``NotationError`` is one); its
    message is added to the error's, in brackets.

    >>> value = Parsed(lambda text: int(text, 16), "a hexadecimal number like 'ff'")
    >>> validate(value, "1f", "colour")
    31
    >>> validate(value, 31, "colour")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: colour: expected a hexadecimal number like 'ff', got 31
    """

    def __init__(self, parse: Callable[[Any], T], what: str,
                 kind: type | tuple[type, ...] = str) -> None:
        self.parse = parse
        self.what = what
        self.kinds = kind if isinstance(kind, tuple) else (kind,)

    def fits(self, value: object) -> bool:
        """Of one of the kinds (``true`` and ``false`` are not numbers here)."""
        return isinstance(value, self.kinds) and (bool in self.kinds
                                                  or not isinstance(value, bool))

    def check(self, value: object, path: str, error: type[Exception]) -> T:
        if not self.fits(value):
            raise self.refuse(value, path, error)
        try:
            return self.parse(value)
        except ValueError as exc:
            raise self.refuse(value, path, error, str(exc)) from None


class ListOf(Schema[list[T]]):
    """A list whose items all have the shape ``item``: of exactly ``length`` items, or from
    ``min_length`` to ``max_length``; with ``unique``, no item twice (compared as converted).

    >>> seats = ListOf(Integer(minimum=0, maximum=2), length=3, unique=True,
    ...                what="the seats 0 to 2, each once")
    >>> validate(seats, [2, 0, 1], "order")
    [2, 0, 1]
    >>> validate(seats, [2, 0], "order")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: order: expected the seats 0 to 2, each once, got a list of 2
    >>> validate(seats, [2, 0, 2], "order")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: order[2]: expected the seats 0 to 2, each once, got 2 twice
    >>> validate(ListOf(Integer(), max_length=2), [1, 2, 3], "pair")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: pair: expected a list of at most 2 items, got a list of 3
    """

    def __init__(self, item: Schema[T], *, length: int | None = None,
                 min_length: int | None = None, max_length: int | None = None,
                 unique: bool = False, what: str | None = None) -> None:
        self.item = item
        self.min_length = length if length is not None else min_length
        self.max_length = length if length is not None else max_length
        self.unique = unique
        count = _range_text(self.min_length, self.max_length)
        count = count.removeprefix("exactly ").removeprefix("from ")
        self.what = what or ("a list of " + count + " items" if count else "a list")

    def fits(self, value: object) -> bool:
        return isinstance(value, list)

    def check(self, value: object, path: str, error: type[Exception]) -> list[T]:
        if not isinstance(value, list):
            raise self.refuse(value, path, error)
        n = len(value)
        if ((self.min_length is not None and n < self.min_length)
                or (self.max_length is not None and n > self.max_length)):
            raise error(f"{path}: expected {self.what}, got a list of {n}")
        out = [self.item.check(v, f"{path}[{i}]", error) for i, v in enumerate(value)]
        if self.unique:
            for i, v in enumerate(out):
                if v in out[:i]:
                    raise error(f"{path}[{i}]: expected {self.what}, got {shown(value[i])} twice")
        return out


class Fields(Schema[dict[str, Any]]):
    """An object (a JSON object, a :class:`~collections.abc.Mapping` in Python) with the
    ``required`` keys and any of the ``optional`` ones, and no other; each key's value of its
    declared shape. The result holds the keys given, their values converted.

    >>> shape = Fields(required={"hand": ListOf(Integer())}, optional={"name": Text()})
    >>> validate(shape, {"name": "Ann"}, "player")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: player.hand: missing; it is required
    >>> validate(shape, {"hand": [], "age": 3}, "player")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: player.age: unknown key; player has the keys hand, name
    >>> validate(shape, [], "player")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: player: expected an object with the keys hand, name, got []
    """

    def __init__(self, required: Mapping[str, Schema[Any]] | None = None,
                 optional: Mapping[str, Schema[Any]] | None = None, *,
                 what: str | None = None) -> None:
        self.required = dict(required or {})
        self.optional = dict(optional or {})
        self.keys = (*self.required, *self.optional)
        self.what = what or ("an object with the keys " + ", ".join(self.keys) if self.keys
                             else "an object")

    def fits(self, value: object) -> bool:
        return isinstance(value, Mapping)

    def check(self, value: object, path: str, error: type[Exception]) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise self.refuse(value, path, error)
        for key in value:
            if key not in self.required and key not in self.optional:
                raise error(f"{path}.{key}: unknown key; {path} has the keys "
                            f"{', '.join(self.keys)}")
        for key in self.required:
            if key not in value:
                raise error(f"{path}.{key}: missing; it is required")
        shapes = self.required | self.optional
        return {key: shapes[key].check(value[key], f"{path}.{key}", error)
                for key in self.keys if key in value}


class AnyOf(Schema[Any]):
    """One of several shapes, picked by JSON type: the first of ``options`` that :meth:`fits`
    the value checks it (so its messages name the deeper problem).

    >>> stack = AnyOf(ListOf(Text()), Fields(required={"cards": ListOf(Text())}),
    ...               what="cards, or an object with 'cards'")
    >>> validate(stack, {"cards": ["a"]}, "stack")
    {'cards': ['a']}
    >>> validate(stack, 5, "stack")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: stack: expected cards, or an object with 'cards', got 5
    """

    def __init__(self, *options: Schema[Any], what: str | None = None) -> None:
        self.options = options
        self.what = what or " or ".join(o.what for o in options)

    def fits(self, value: object) -> bool:
        return any(o.fits(value) for o in self.options)

    def check(self, value: object, path: str, error: type[Exception]) -> Any:
        for option in self.options:
            if option.fits(value):
                return option.check(value, path, error)
        raise self.refuse(value, path, error)


def validate(schema: Schema[T], value: object, path: str = "value",
             error: type[Exception] = RecordError) -> T:
    """``value`` checked against ``schema`` and converted; else ``error`` raised, its message
    starting with the path of the bad part (``path`` names the value itself).

    >>> validate(ListOf(Integer(), length=2), [1, "2"], "scores")
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: scores[1]: expected a whole number, got '2'
    >>> from triverse.core.errors import OptionError
    >>> validate(Integer(), None, "rounds", OptionError)
    Traceback (most recent call last):
    ...
    triverse.core.errors.OptionError: rounds: expected a whole number, got None
    """
    return schema.check(value, path, error)


__all__ = [
    "AnyOf",
    "Boolean",
    "Choice",
    "Fields",
    "Integer",
    "ListOf",
    "Parsed",
    "Schema",
    "Text",
    "shown",
    "validate",
]
