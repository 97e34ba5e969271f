"""Trivinity's cards as data: the effect vocabulary, the TOML loader and the card table.

Every card lives in a TOML file under ``cards/``, one file a module (the core set and the seven
modules). A card's effect is a list of *steps* from a small vocabulary that the engine
interprets (``draw``, ``gain``, ``cycle``, ``attack`` ...); this module parses and checks them,
prices them on the cost curve (:func:`curve_value`), and builds the immutable :class:`CardTable`
in which every physical card is a small integer.

>>> table = load_table()
>>> card = table.design("divine-forge")
>>> card.name, card.tier, card.cost.total, card.worth
('Divine Forge', 2, 5, (3, 0, 0))
>>> table.design("power").tier        # the starting cards are tier 0: never in the stacks
0
>>> [m.key for m in table.modules][:3]
['core', 'heroes', 'scoundrels']
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from triverse.core.errors import TriverseError

RESOURCES = ("power", "mana", "tribute")
"""The three resources, in their fixed order: every resource triple is (Power, Mana, Tribute)."""

MODULE_FILES = (
    "core", "heroes", "scoundrels", "zodiac", "elements", "world", "disasters", "servants",
)
"""The card files, in the order of the card table (the core set first)."""

TIER_COSTS = {1: (2, 3), 2: (4, 6), 3: (7, 9)}
"""The designer's guide: the total cost of a card of each tier, smallest and largest."""

STARTER_COPIES = 4
"""Each player starts with this many cards of each resource."""

MAX_PLAYERS = 4

# --- the vocabulary ------------------------------------------------------------------------
CHOICE_OPS = frozenset({"gain_choice", "cycle", "peek", "limbo", "take", "raise", "trash",
                        "revive"})
"""Steps that ask their player to choose (a resource, a stack, a hand card, a Limbo card)."""

ATTACK_KINDS = ("discard", "mill", "banish", "steal")
COUNTS = ("empty_stacks", "played", "delayed", "buried", "opponents")
"""What ``gain_per`` counts; :data:`COUNT_TYPICAL` is its typical value, for the cost curve."""
COUNT_TYPICAL = {"empty_stacks": 1.0, "played": 2.0, "delayed": 0.5, "buried": 1.0,
                 "opponents": 1.0}

# The cost curve: what each part of a card is worth, in resources of cost.
CURVE: dict[str, float] = {
    "worth": 1.5,          # per resource of printed worth: it pays every time and it scores
    "draw": 1.0,           # per card drawn
    "gain": 1.0,           # per resource gained (pool only, never scored)
    "gain_choice": 1.0,    # per resource, plus the flat bonus below for the choice
    "gain_choice_flat": 0.25,
    "gain_per": 1.0,       # per resource at the count's typical value (COUNT_TYPICAL)
    "surge": 1.0,          # per card discarded from the deck for its worth
    "cycle": 0.5,
    "peek": 0.25,          # per face-down card seen
    "limbo": 1.0,
    "take": 0.5,           # per point of the largest cost it may take
    "raise": 0.5,
    "trash": 0.75,
    "trash_refund": 1.0,   # extra, when the trashed card's worth is gained
    "revive": 0.5,         # per point of the largest cost it may take from Limbo
    "discount": 0.75,      # per resource off the "any" part of purchases
    "attack_discard": 1.5,  # per card each opponent discards
    "attack_mill": 0.5,    # per card milled
    "attack_banish": 1.5,
    "attack_steal": 1.0,   # per tier the stolen card may have (a starter is tier 0) ...
    "attack_steal_flat": 0.5,  # ... plus this
    "exile": -1.5,         # the card is used once, then goes to Limbo (with its score)
    "delayed": -0.5,       # "Until your next turn": the benefit comes a turn later
    "ward": 0.5,           # attacks are blocked while the card waits
    "reaction": 1.0,       # may be revealed from the hand to block an attack
    "reaction_draw": 0.5,  # per card the reaction draws
    "tier2": 1.0,          # the tier bonus: +1 point at the end
    "tier3": 3.0,          # +3 points at the end
}


class CardDataError(TriverseError, ValueError):
    """A card file is malformed: the message names the file, the card and the problem."""


@dataclass(frozen=True, slots=True)
class Cost:
    """A price: typed parts that only their resource pays, and an ``any`` part that any does.

    >>> Cost(power=2, any=3).total
    5
    """

    power: int = 0
    mana: int = 0
    tribute: int = 0
    any: int = 0

    @property
    def typed(self) -> tuple[int, int, int]:
        return (self.power, self.mana, self.tribute)

    @property
    def total(self) -> int:
        return self.power + self.mana + self.tribute + self.any


@dataclass(frozen=True, slots=True)
class Step:
    """One step of an effect. ``op`` names it; the other fields are its parameters.

    Internal steps (an attack's parts, a delayed card's worth) have ops starting with ``_``.
    """

    op: str
    n: int = 1
    gain: tuple[int, int, int] = (0, 0, 0)
    resource: int = 0
    count: str = ""
    max: int = 0
    tiers: tuple[int, ...] = (1, 2, 3)
    max_cost: int = 99
    bottom: bool = False
    optional: bool = False
    refund: bool = False
    kind: str = ""
    target: str = "each"
    max_tier: int = 3

    @property
    def is_choice(self) -> bool:
        return self.op in CHOICE_OPS


@dataclass(frozen=True, slots=True)
class Card:
    """A card design. Several physical copies of it may be in a game."""

    key: str
    name: str
    module: str
    tier: int
    cost: Cost
    worth: tuple[int, int, int]
    steps: tuple[Step, ...] = ()
    delayed: bool = False
    ward: bool = False
    reaction: bool = False
    reaction_draw: int = 0
    copies: int = 1
    flavor: str = ""

    @property
    def worth_total(self) -> int:
        return sum(self.worth)

    @property
    def attacks(self) -> bool:
        return any(step.op == "attack" for step in self.steps)


@dataclass(frozen=True, slots=True)
class Module:
    """A card set: the core set or one of the seven modules."""

    key: str
    name: str
    symbol: str
    """The symbol's name, drawn on each card: ``line``, ``sword``, ``mace`` ..."""
    glyph: str
    """One character for the symbol in plain text."""
    theme: str
    style: str
    cards: tuple[Card, ...] = field(default=())


# --- parsing -------------------------------------------------------------------------------
_STEP_KEYS: dict[str, frozenset[str]] = {
    "draw": frozenset({"n"}),
    "gain": frozenset(RESOURCES),
    "gain_choice": frozenset({"n"}),
    "gain_per": frozenset({"resource", "n", "count", "max"}),
    "surge": frozenset({"n"}),
    "cycle": frozenset({"tiers", "optional", "times"}),
    "peek": frozenset({"n", "tiers", "optional"}),
    "limbo": frozenset({"tiers", "optional", "times"}),
    "take": frozenset({"tiers", "max_cost", "from", "optional"}),
    "raise": frozenset({"tiers", "optional"}),
    "trash": frozenset({"optional", "refund", "times"}),
    "revive": frozenset({"max_cost", "optional"}),
    "discount": frozenset({"n"}),
    "attack": frozenset({"kind", "n", "target", "max_tier"}),
    "exile": frozenset(),
}
"""Every step of the vocabulary and the parameters it takes (besides ``do``)."""

_CARD_KEYS = frozenset({"key", "name", "tier", "copies", "cost", "worth", "effect", "delayed",
                        "ward", "reaction", "flavor"})


def _int(value: object, where: str, lo: int = 0, hi: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise CardDataError(f"{where} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise CardDataError(f"{where} must be true or false, not {value!r}")
    return value


def _resources(value: object, where: str, allow_any: bool) -> dict[str, int]:
    if not isinstance(value, dict):
        raise CardDataError(f"{where} must be a table such as {{ power = 2 }}, not {value!r}")
    allowed = (*RESOURCES, "any") if allow_any else RESOURCES
    out: dict[str, int] = {}
    for name, amount in value.items():
        if name not in allowed:
            raise CardDataError(f"{where} has {name!r}; the resources are {', '.join(allowed)}")
        out[name] = _int(amount, f"{where}.{name}", 0, 20)
    return out


def parse_step(raw: object, where: str) -> list[Step]:
    """Parse one TOML step (``times`` expands it into copies).

    >>> parse_step({"do": "cycle", "times": 2, "tiers": [1]}, "example")
    [Step(op='cycle', ... tiers=(1,), ...), Step(op='cycle', ... tiers=(1,), ...)]
    >>> parse_step({"do": "fly"}, "example")
    Traceback (most recent call last):
    ...
    triverse.games.trivinity.cards.CardDataError: example: unknown step 'fly'; the steps are ...
    """
    if not isinstance(raw, dict) or not isinstance(raw.get("do"), str):
        raise CardDataError(f"{where}: a step is a table with a 'do' name, not {raw!r}")
    op = raw["do"]
    if op not in _STEP_KEYS:
        raise CardDataError(f"{where}: unknown step {op!r}; the steps are "
                            f"{', '.join(sorted(_STEP_KEYS))}")
    where = f"{where} ({op})"
    extra = set(raw) - {"do"} - _STEP_KEYS[op]
    if extra:
        raise CardDataError(f"{where}: unknown parameter {sorted(extra)[0]!r}; it takes "
                            f"{', '.join(sorted(_STEP_KEYS[op])) or 'nothing'}")
    args: dict[str, Any] = {"op": op, **_common_parameters(raw, where)}
    if op in _STEP_PARAMETERS:
        args.update(_STEP_PARAMETERS[op](raw, where))
    times = _int(raw.get("times", 1), f"{where} times", 1, 3)
    step = Step(**args)
    return [step] * times


def _common_parameters(raw: dict[str, Any], where: str) -> dict[str, Any]:
    """The parameters several steps take: ``n``, ``optional``, ``tiers``, ``max_cost``."""
    args: dict[str, Any] = {}
    if "n" in raw:
        args["n"] = _int(raw["n"], f"{where} n", 1, 9)
    if "optional" in raw:
        args["optional"] = _bool(raw["optional"], f"{where} optional")
    if "tiers" in raw:
        tiers = raw["tiers"]
        if (not isinstance(tiers, list) or not tiers
                or any(t not in (1, 2, 3) or isinstance(t, bool) for t in tiers)):
            raise CardDataError(f"{where} tiers must be a list of 1, 2 and 3, not {tiers!r}")
        args["tiers"] = tuple(sorted(set(tiers)))
    if "max_cost" in raw:
        args["max_cost"] = _int(raw["max_cost"], f"{where} max_cost", 1, 9)
    return args


def _gain_parameters(raw: dict[str, Any], where: str) -> dict[str, Any]:
    gained = _resources({k: v for k, v in raw.items() if k != "do"}, where, False)
    gain = tuple(gained.get(r, 0) for r in RESOURCES)
    if not any(gain):
        raise CardDataError(f"{where} gains nothing")
    return {"gain": gain}


def _gain_per_parameters(raw: dict[str, Any], where: str) -> dict[str, Any]:
    resource = raw.get("resource")
    if resource not in RESOURCES:
        raise CardDataError(f"{where} resource must be one of {', '.join(RESOURCES)}")
    count = raw.get("count")
    if count not in COUNTS:
        raise CardDataError(f"{where} count must be one of {', '.join(COUNTS)}, "
                            f"not {count!r}")
    return {"resource": RESOURCES.index(str(resource)), "count": count,
            "max": _int(raw.get("max", 9), f"{where} max", 1, 9)}


def _take_parameters(raw: dict[str, Any], where: str) -> dict[str, Any]:
    source = raw.get("from", "top")
    if source not in ("top", "bottom"):
        raise CardDataError(f"{where} from must be 'top' or 'bottom', not {source!r}")
    return {"bottom": source == "bottom"}


def _trash_parameters(raw: dict[str, Any], where: str) -> dict[str, Any]:
    if "refund" in raw:
        return {"refund": _bool(raw["refund"], f"{where} refund")}
    return {}


def _attack_parameters(raw: dict[str, Any], where: str) -> dict[str, Any]:
    kind = raw.get("kind")
    if kind not in ATTACK_KINDS:
        raise CardDataError(f"{where} kind must be one of {', '.join(ATTACK_KINDS)}, "
                            f"not {kind!r}")
    target = raw.get("target", "each")
    if target not in ("each", "one"):
        raise CardDataError(f"{where} target must be 'each' or 'one', not {target!r}")
    args: dict[str, Any] = {"kind": kind, "target": target}
    if "max_tier" in raw:
        args["max_tier"] = _int(raw["max_tier"], f"{where} max_tier", 0, 3)
    if kind in ("banish", "steal") and "max_tier" not in raw:
        raise CardDataError(f"{where}: a {kind} attack needs max_tier")
    return args


_STEP_PARAMETERS: dict[str, Callable[[dict[str, Any], str], dict[str, Any]]] = {
    "gain": _gain_parameters,
    "gain_per": _gain_per_parameters,
    "take": _take_parameters,
    "trash": _trash_parameters,
    "attack": _attack_parameters,
}
"""The steps with parameters of their own, and how each reads them."""


def parse_card(raw: object, module: str, where: str) -> Card:
    """Parse and check one ``[[card]]`` table."""
    if not isinstance(raw, dict):
        raise CardDataError(f"{where}: a card is a table")
    key = raw.get("key")
    if not isinstance(key, str) or not key or not all(c.isalnum() or c == "-" for c in key):
        raise CardDataError(f"{where}: 'key' must be a lowercase slug, not {key!r}")
    where = f"{where} {key!r}"
    extra = set(raw) - _CARD_KEYS
    if extra:
        raise CardDataError(f"{where}: unknown field {sorted(extra)[0]!r}")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise CardDataError(f"{where}: 'name' is missing")
    tier = _int(raw.get("tier"), f"{where} tier", 0, 3)
    copies = _int(raw.get("copies", 1), f"{where} copies", 1, 9)
    cost = Cost(**_resources(raw.get("cost", {}), f"{where} cost", True))
    worth_parts = _resources(raw.get("worth", {}), f"{where} worth", False)
    worth = (worth_parts.get("power", 0), worth_parts.get("mana", 0),
             worth_parts.get("tribute", 0))
    steps = _card_steps(raw.get("effect", []), where)
    delayed, ward, reaction, reaction_draw = _card_keywords(raw, where)
    flavor = raw.get("flavor", "")
    if not isinstance(flavor, str):
        raise CardDataError(f"{where}: 'flavor' must be text")
    if tier == 0 and (module != "core" or steps or cost.total):
        raise CardDataError(f"{where}: tier 0 is for the core set's starting resource cards")
    return Card(key, name, module, tier, cost, worth, steps, delayed, ward, reaction,
                reaction_draw, copies, flavor)


def _card_steps(raw_effect: object, where: str) -> tuple[Step, ...]:
    if not isinstance(raw_effect, list):
        raise CardDataError(f"{where}: 'effect' must be a list of steps")
    steps: list[Step] = []
    for i, raw_step in enumerate(raw_effect):
        steps.extend(parse_step(raw_step, f"{where} step {i + 1}"))
    return tuple(steps)


def _card_keywords(raw: dict[str, Any], where: str) -> tuple[bool, bool, bool, int]:
    """A card's keywords: delayed, ward, reaction, and the reaction's draw."""
    delayed = _bool(raw.get("delayed", False), f"{where} delayed")
    ward = _bool(raw.get("ward", False), f"{where} ward")
    if ward and not delayed:
        raise CardDataError(f"{where}: a ward only works while the card waits, so it needs "
                            f"delayed = true")
    reaction_raw = raw.get("reaction")
    reaction_draw = 0
    if reaction_raw is not None:
        if not isinstance(reaction_raw, dict) or set(reaction_raw) - {"draw"}:
            raise CardDataError(f"{where}: 'reaction' is a table with an optional 'draw'")
        reaction_draw = _int(reaction_raw.get("draw", 0), f"{where} reaction draw", 0, 3)
    return delayed, ward, reaction_raw is not None, reaction_draw


def parse_module(data: Mapping[str, Any], filename: str) -> Module:
    """Parse one module file's contents."""
    head = data.get("module")
    if not isinstance(head, dict):
        raise CardDataError(f"{filename}: the [module] table is missing")
    values: dict[str, str] = {}
    for name in ("key", "name", "symbol", "glyph", "theme", "style"):
        value = head.get(name)
        if not isinstance(value, str) or not value:
            raise CardDataError(f"{filename}: [module] needs a {name!r}")
        values[name] = value
    raw_cards = data.get("card", [])
    if not isinstance(raw_cards, list) or not raw_cards:
        raise CardDataError(f"{filename}: there are no [[card]] tables")
    cards = tuple(parse_card(raw, values["key"], f"{filename} card {i + 1}")
                  for i, raw in enumerate(raw_cards))
    return Module(cards=cards, **values)


# --- the cost curve ------------------------------------------------------------------------
def step_value(step: Step) -> float:
    """What a step is worth on the cost curve, in resources of cost.

    >>> step_value(Step("draw", n=2))
    2.0
    >>> step_value(Step("attack", kind="steal", max_tier=1))
    1.5
    """
    c = CURVE
    op = step.op
    if op == "draw":
        return c["draw"] * step.n
    if op == "gain":
        return c["gain"] * sum(step.gain)
    if op == "gain_choice":
        return c["gain_choice"] * step.n + c["gain_choice_flat"]
    if op == "gain_per":
        return c["gain_per"] * step.n * min(step.max, COUNT_TYPICAL[step.count])
    if op == "surge":
        return c["surge"] * step.n
    if op == "peek":
        return c["peek"] * step.n
    if op in ("take", "revive"):
        return c[op] * step.max_cost
    if op == "trash":
        return c["trash"] + (c["trash_refund"] if step.refund else 0.0)
    if op == "discount":
        return c["discount"] * step.n
    if op == "attack":
        if step.kind == "steal":
            return c["attack_steal"] * step.max_tier + c["attack_steal_flat"]
        if step.kind == "banish":
            return c["attack_banish"]
        return c[f"attack_{step.kind}"] * step.n
    return c[op]


def curve_value(card: Card) -> float:
    """A card's price on the cost curve: its worth, its steps, its keywords and its tier bonus.

    A card's actual cost stays within one resource of this value (a test checks it).

    >>> curve_value(load_table().design("divine-forge"))   # 3 worth x 1.5 + tier-2 bonus 1
    5.5
    """
    c = CURVE
    value = c["worth"] * card.worth_total + sum(step_value(s) for s in card.steps)
    if card.delayed:
        value += c["delayed"]
    if card.ward:
        value += c["ward"]
    if card.reaction:
        value += c["reaction"] + c["reaction_draw"] * card.reaction_draw
    if card.tier == 2:
        value += c["tier2"]
    elif card.tier == 3:
        value += c["tier3"]
    return value


# --- the table -----------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class CardTable:
    """Every card design of every module, and every physical card as a small integer.

    Physical cards ("instances") are numbered design by design, in the order of the files in
    :data:`MODULE_FILES`; the starting cards have ``STARTER_COPIES * MAX_PLAYERS`` copies each,
    of which a game uses ``STARTER_COPIES`` per player.
    """

    modules: tuple[Module, ...]
    designs: tuple[Card, ...]
    design_of: tuple[int, ...]
    """Instance id -> design index."""
    first_instance: tuple[int, ...]
    """Design index -> its first instance id (its copies are consecutive)."""
    by_key: Mapping[str, int]
    """Design key -> design index."""

    @property
    def size(self) -> int:
        """The number of physical cards in the table (every module, four players)."""
        return len(self.design_of)

    def design(self, key: str) -> Card:
        return self.designs[self.by_key[key]]

    def card(self, instance: int) -> Card:
        return self.designs[self.design_of[instance]]

    def module(self, key: str) -> Module:
        for module in self.modules:
            if module.key == key:
                return module
        raise KeyError(key)

    @property
    def module_keys(self) -> tuple[str, ...]:
        """The seven optional modules (not the core set)."""
        return tuple(m.key for m in self.modules if m.key != "core")

    def copies(self, design: int) -> int:
        card = self.designs[design]
        return card.copies * MAX_PLAYERS if card.tier == 0 else card.copies

    def instances(self, design: int) -> range:
        start = self.first_instance[design]
        return range(start, start + self.copies(design))

    def starters(self, players: int) -> list[list[int]]:
        """Each player's twelve starting cards (4 Power, 4 Mana, 4 Tribute)."""
        out: list[list[int]] = [[] for _ in range(players)]
        for design, card in enumerate(self.designs):
            if card.tier == 0:
                first = self.first_instance[design]
                for p in range(players):
                    out[p].extend(range(first + p * card.copies, first + (p + 1) * card.copies))
        return out

    def tier_cards(self, modules: Sequence[str], tier: int) -> list[int]:
        """The instances of ``tier`` in the core set and ``modules`` (each module once)."""
        wanted = {"core", *modules}
        return [i for d, card in enumerate(self.designs)
                if card.tier == tier and card.module in wanted for i in self.instances(d)]

    def in_play(self, modules: Sequence[str], players: int) -> tuple[int, ...]:
        """Every instance in a game with these modules and players, sorted."""
        return _in_play(self, tuple(sorted(set(modules))), players)


@cache
def _in_play(table: CardTable, modules: tuple[str, ...], players: int) -> tuple[int, ...]:
    cards = [i for hand in table.starters(players) for i in hand]
    for tier in (1, 2, 3):
        cards.extend(table.tier_cards(modules, tier))
    return tuple(sorted(cards))


def build_table(modules: Sequence[Module]) -> CardTable:
    """Number the cards of ``modules`` and check that their keys are unique."""
    designs: list[Card] = []
    by_key: dict[str, int] = {}
    design_of: list[int] = []
    first: list[int] = []
    for module in modules:
        for card in module.cards:
            if card.key in by_key:
                raise CardDataError(f"card key {card.key!r} is used twice")
            by_key[card.key] = len(designs)
            designs.append(card)
            first.append(len(design_of))
            count = card.copies * MAX_PLAYERS if card.tier == 0 else card.copies
            design_of.extend([len(designs) - 1] * count)
    return CardTable(tuple(modules), tuple(designs), tuple(design_of), tuple(first), by_key)


@cache
def load_table() -> CardTable:
    """The card table from the packaged TOML files (read once per process)."""
    folder = resources.files("triverse.games.trivinity") / "cards"
    modules = []
    for name in MODULE_FILES:
        filename = f"{name}.toml"
        text = (folder / filename).read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise CardDataError(f"{filename}: not valid TOML: {exc}") from None
        module = parse_module(data, filename)
        if module.key != name:
            raise CardDataError(f"{filename}: [module] key is {module.key!r}, not {name!r}")
        modules.append(module)
    return build_table(modules)
