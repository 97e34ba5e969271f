"""Game options: declared once per game, parsed the same way everywhere.

The CLI's ``--option NAME=VALUE``, the records' ``options`` object and the web New Game dialog
all use the names and values declared here.

Each option also has a human ``label`` and, for an option with choices, a label and a one-line
explanation for each choice (``choice_labels``), which the New Game dialog shows; they are
English here and translated by the clients' catalogues.

>>> spec = OptionSpec("rounds", int, 1, "Number of rounds", minimum=1, maximum=3,
...                   label="Rounds")
>>> spec.parse("2")
2
>>> spec.parse("4")
Traceback (most recent call last):
...
triverse.core.errors.OptionError: option 'rounds' must be at most 3, not 4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from triverse.core.errors import OptionError

OptionValue = int | bool | str
ChoiceLabels = Mapping[OptionValue, tuple[str, str]]
"""Each choice of an option: its label and a one-line explanation."""

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game: its name, type, default and allowed values."""

    name: str
    kind: type[int] | type[bool] | type[str]
    default: OptionValue
    help: str
    choices: tuple[str, ...] | tuple[int, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    """The option's name for a player ("Rules"); the name with spaces when empty."""
    choice_labels: ChoiceLabels = field(
        default_factory=lambda: MappingProxyType({}), hash=False)
    """For each choice (each value of a bool), its label and a one-line explanation:
    ``{"seed": ("This app's rules", "As the original app plays: ...")}``."""

    def __post_init__(self) -> None:
        labels = MappingProxyType(dict(self.choice_labels))
        object.__setattr__(self, "choice_labels", labels)
        allowed: tuple[OptionValue, ...] | None = (
            (True, False) if self.kind is bool else self.choices)
        for value, pair in labels.items():
            if allowed is None or value not in allowed:
                raise ValueError(f"option {self.name!r}: a label for {value!r}, which is not "
                                 "one of its choices")
            if len(pair) != 2 or not all(isinstance(x, str) and x for x in pair):
                raise ValueError(f"option {self.name!r}: the label of {value!r} is a "
                                 "(label, explanation) pair of texts")

    @property
    def title(self) -> str:
        """The label, or the name with spaces when there is no label.

        >>> OptionSpec("max_rounds", int, 50, "Safety stop").title
        'Max rounds'
        """
        return self.label or self.name.replace("_", " ").capitalize()

    def _labelled_order(self) -> list[OptionValue]:
        """The labelled values in the order of the choices (true before false for a bool)."""
        order: tuple[OptionValue, ...] = (
            (True, False) if self.kind is bool else self.choices or ())
        return [value for value in order if value in self.choice_labels]

    def parse(self, value: object) -> OptionValue:
        """Check and convert ``value`` (a string from the CLI, or a JSON value)."""
        result: OptionValue
        if self.kind is bool:
            if isinstance(value, bool):
                result = value
            elif isinstance(value, str) and value.lower() in _TRUE | _FALSE:
                result = value.lower() in _TRUE
            else:
                raise OptionError(f"option {self.name!r} is true or false, not {value!r}")
        elif self.kind is int:
            if isinstance(value, bool):
                raise OptionError(f"option {self.name!r} is a whole number, not {value!r}")
            try:
                result = int(value) if isinstance(value, (int, str)) else int(str(value))
            except ValueError:
                raise OptionError(
                    f"option {self.name!r} is a whole number, not {value!r}"
                ) from None
            if self.minimum is not None and result < self.minimum:
                raise OptionError(f"option {self.name!r} must be at least {self.minimum}, "
                                  f"not {result}")
            if self.maximum is not None and result > self.maximum:
                raise OptionError(f"option {self.name!r} must be at most {self.maximum}, "
                                  f"not {result}")
        else:
            if not isinstance(value, str):
                raise OptionError(f"option {self.name!r} is a text value, not {value!r}")
            result = value
        if self.choices is not None and result not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name!r} is one of {allowed}; not {result!r}")
        return result

    def to_json(self) -> dict[str, Any]:
        """A JSON description, for the web New Game dialog."""
        return {
            "name": self.name,
            "type": self.kind.__name__,
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "label": self.title,
            "choice_labels": [
                {"value": value, "label": self.choice_labels[value][0],
                 "explanation": self.choice_labels[value][1]}
                for value in self._labelled_order()
            ],
        }


def resolve_options(
    specs: Iterable[OptionSpec], given: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """Every declared option with its value: the given one, checked, or the default.

    >>> specs = [OptionSpec("target", int, 400, "Score to win")]
    >>> resolve_options(specs, {"target": "300"})
    {'target': 300}
    >>> resolve_options(specs, {"targt": 1})
    Traceback (most recent call last):
    ...
    triverse.core.errors.OptionError: unknown option 'targt'; this game has: target
    """
    by_name = {spec.name: spec for spec in specs}
    given = dict(given or {})
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "no options"
        raise OptionError(f"unknown option {unknown[0]!r}; this game has: {known}")
    return {
        name: spec.parse(given[name]) if name in given else spec.default
        for name, spec in by_name.items()
    }


def parse_option_args(pairs: Iterable[str]) -> dict[str, str]:
    """Split CLI ``NAME=VALUE`` strings.

    >>> parse_option_args(["variant=pressman", "target=300"])
    {'variant': 'pressman', 'target': '300'}
    """
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"an option is written NAME=VALUE, not {pair!r}")
        out[name.strip()] = value.strip()
    return out
