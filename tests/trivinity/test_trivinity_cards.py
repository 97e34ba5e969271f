"""Trivinity's card data: every card parses, is priced on the curve, and every module fills
its stacks; the generated card list is up to date."""

from __future__ import annotations

from pathlib import Path

import pytest

from triverse.games.trivinity import actions, carddoc
from triverse.games.trivinity.cards import (
    MAX_PLAYERS,
    MODULE_FILES,
    TIER_COSTS,
    CardDataError,
    curve_value,
    load_table,
    parse_card,
    parse_module,
    parse_step,
)
from triverse.games.trivinity.text import card_text

TABLE = load_table()
ROOT = Path(__file__).resolve().parents[2]
SYMBOLS = {"core": "line", "heroes": "sword", "scoundrels": "mace", "zodiac": "star",
           "elements": "bolt", "world": "column", "disasters": "fissure", "servants": "feather"}
CARDS = [card for card in TABLE.designs if card.tier]


def test_every_module_is_there_with_its_symbol() -> None:
    assert [m.key for m in TABLE.modules] == list(MODULE_FILES)
    for module in TABLE.modules:
        assert module.symbol == SYMBOLS[module.key]
        assert len(module.glyph) == 1 and module.theme and module.style


def test_starting_cards() -> None:
    starters = [c for c in TABLE.designs if c.tier == 0]
    assert [(c.key, c.worth, c.copies) for c in starters] == [
        ("power", (1, 0, 0), 4), ("mana", (0, 1, 0), 4), ("tribute", (0, 0, 1), 4)]


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.key)
def test_cost_in_its_tier_range_and_on_the_curve(card: object) -> None:
    from triverse.games.trivinity.cards import Card

    assert isinstance(card, Card)
    low, high = TIER_COSTS[card.tier]
    assert low <= card.cost.total <= high, f"{card.key} costs {card.cost.total}"
    assert abs(card.cost.total - curve_value(card)) <= 1, (
        f"{card.key}: cost {card.cost.total}, curve {curve_value(card)}")
    assert card.worth_total >= 1
    assert card.name and card_text(card) == card_text(card).strip()


def test_every_module_fills_its_stacks_with_the_core_set() -> None:
    for module in TABLE.module_keys:
        for tier, least in ((1, 6), (2, 4), (3, 3)):
            cards = TABLE.tier_cards([module], tier)
            assert len(cards) // 3 >= least, (module, tier, len(cards))


def test_keys_unique_and_hands_fit_the_action_ids() -> None:
    assert len(TABLE.by_key) == len(TABLE.designs)
    assert TABLE.size < len(actions._PLAYS)
    assert TABLE.size == sum(TABLE.copies(d) for d in range(len(TABLE.designs)))
    assert sum(len(h) for h in TABLE.starters(MAX_PLAYERS)) == 12 * MAX_PLAYERS


def test_every_step_of_the_vocabulary_is_used() -> None:
    used = {step.op for card in TABLE.designs for step in card.steps}
    used |= {f"attack:{s.kind}" for card in TABLE.designs for s in card.steps if s.op == "attack"}
    expected = {"draw", "gain", "gain_choice", "gain_per", "surge", "cycle", "peek", "limbo",
                "take", "raise", "trash", "revive", "discount", "attack", "exile",
                "attack:discard", "attack:mill", "attack:banish", "attack:steal"}
    assert expected <= used
    assert any(c.delayed for c in CARDS) and any(c.ward for c in CARDS)
    assert any(c.reaction for c in CARDS)


@pytest.mark.parametrize(("raw", "message"), [
    ({"do": "fly"}, "unknown step 'fly'"),
    ({"do": "draw", "count": 2}, "unknown parameter 'count'"),
    ({"do": "draw", "n": 0}, "n must be a whole number from 1 to 9"),
    ({"do": "cycle", "tiers": [4]}, "tiers must be a list of 1, 2 and 3"),
    ({"do": "attack", "kind": "curse"}, "kind must be one of discard, mill, banish, steal"),
    ({"do": "attack", "kind": "steal"}, "a steal attack needs max_tier"),
    ({"do": "gain"}, "gains nothing"),
    ({"do": "gain_per", "resource": "gold", "count": "played"}, "resource must be one of"),
    ({"steps": 1}, "a step is a table with a 'do' name"),
])
def test_malformed_steps_name_the_problem(raw: dict[str, object], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        parse_step(raw, "test.toml card 1")


def test_malformed_cards_name_the_problem() -> None:
    good = {"key": "x", "name": "X", "tier": 1, "cost": {"any": 2}, "worth": {"power": 1}}
    assert parse_card(good, "core", "t").cost.total == 2
    cases = [
        ({**good, "key": "Bad Key"}, "'key' must be a lowercase slug"),
        ({**good, "tier": 5}, "tier must be a whole number from 0 to 3"),
        ({**good, "cost": {"gold": 1}}, "has 'gold'; the resources are"),
        ({**good, "ward": True}, "needs delayed = true"),
        ({**good, "colour": "red"}, "unknown field 'colour'"),
        ({**good, "reaction": {"heal": 1}}, "'reaction' is a table with an optional 'draw'"),
        ({**good, "tier": 0}, "tier 0 is for the core set's starting resource cards"),
    ]
    for raw, message in cases:
        with pytest.raises(CardDataError, match=message):
            parse_card(raw, "core", "t")
    with pytest.raises(CardDataError, match=r"the \[module\] table is missing"):
        parse_module({}, "x.toml")


def test_generated_docs_are_up_to_date() -> None:
    docs = ROOT / "docs" / "rules"
    if not (docs / carddoc.CARDS_FILE).exists():
        pytest.skip("the docs are not in this checkout")
    assert carddoc.main(["--docs", str(docs), "--check"]) == 0, (
        "run python -m triverse.games.trivinity.carddoc")
    text = (docs / carddoc.CARDS_FILE).read_text(encoding="utf-8")
    for card in CARDS:
        assert card.name in text
