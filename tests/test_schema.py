"""Declared shapes of JSON values (triverse.core.schema): conversion, and messages that name the
path of the bad part."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from triverse.core.errors import NotationError, OptionError, RecordError
from triverse.core.schema import (
    AnyOf,
    Boolean,
    Choice,
    Fields,
    Integer,
    ListOf,
    Parsed,
    Text,
    shown,
    validate,
)


def _tile(text: str) -> tuple[int, ...]:
    parts = text.split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise NotationError(f"a tile is three numbers joined by '-', not {text!r}")
    return tuple(int(p) for p in parts)


TILE = Parsed(_tile, "a tile like '1-2-3'")
PLAYER = Fields(required={"hand": ListOf(TILE, what="a hand (a list of tiles)")},
                optional={"score": Integer(minimum=0)})
SETUP = Fields(
    required={"players": ListOf(PLAYER, length=2, what="a list of 2 players, one per seat")},
    optional={
        "turn": Integer(minimum=0, maximum=1),
        "variant": Choice(("seed", "pressman")),
        "open": Boolean(),
        "name": Text(),
        "order": ListOf(Integer(minimum=0, maximum=1), length=2, unique=True,
                        what="the seats 0 and 1, each once"),
    },
)
GOOD: dict[str, Any] = {"players": [{"hand": ["1-2-3"]}, {"hand": [], "score": 4}],
                        "turn": 1, "variant": "pressman", "open": False, "name": "x",
                        "order": [1, 0]}


def _message(value: object) -> str:
    with pytest.raises(RecordError) as info:
        validate(SETUP, value, "setup")
    return str(info.value)


def test_a_good_value_comes_back_converted() -> None:
    out = validate(SETUP, GOOD, "setup")
    assert out == GOOD | {"players": [{"hand": [(1, 2, 3)]}, {"hand": [], "score": 4}]}
    assert validate(SETUP, {"players": [{"hand": []}, {"hand": []}]}, "setup") == {
        "players": [{"hand": []}, {"hand": []}]}


@pytest.mark.parametrize(("change", "message"), [
    ({"players": [{"hand": ["1-2-3"]}, {"hand": ["4-5-6", "1-2", "7-7-7"]}]},
     "setup.players[1].hand[1]: expected a tile like '1-2-3', got '1-2' (a tile is three "
     "numbers joined by '-', not '1-2')"),
    ({"players": [{"hand": ["1-2-3"]}, {"hand": ["4-5-6", "1-2-3", 7]}]},
     "setup.players[1].hand[2]: expected a tile like '1-2-3', got 7"),
    ({"players": [{"hand": []}]},
     "setup.players: expected a list of 2 players, one per seat, got a list of 1"),
    ({"players": [{"hand": []}, 3]},
     "setup.players[1]: expected an object with the keys hand, score, got 3"),
    ({"players": [{"hand": []}, {"hand": "1-2-3"}]},
     "setup.players[1].hand: expected a hand (a list of tiles), got '1-2-3'"),
    ({"players": [{"hand": []}, {}]}, "setup.players[1].hand: missing; it is required"),
    ({"players": [{"hand": []}, {"hand": [], "score": -1}]},
     "setup.players[1].score: expected a whole number at least 0, got -1"),
    ({"turn": 2}, "setup.turn: expected a whole number from 0 to 1, got 2"),
    ({"turn": True}, "setup.turn: expected a whole number from 0 to 1, got True"),
    ({"turn": 1.0}, "setup.turn: expected a whole number from 0 to 1, got 1.0"),
    ({"variant": "triolet"}, "setup.variant: expected one of 'seed', 'pressman', got 'triolet'"),
    ({"open": 1}, "setup.open: expected true or false, got 1"),
    ({"name": None}, "setup.name: expected a text, got None"),
    ({"order": [1, 1]}, "setup.order[1]: expected the seats 0 and 1, each once, got 1 twice"),
    ({"colour": "red"},
     "setup.colour: unknown key; setup has the keys players, turn, variant, open, name, order"),
])
def test_a_bad_part_is_named_by_its_path(change: dict[str, Any], message: str) -> None:
    assert _message(GOOD | change) == message


def test_a_missing_key_and_a_non_object_are_named() -> None:
    assert _message({}) == "setup.players: missing; it is required"
    assert _message([1]) == ("setup: expected an object with the keys players, turn, variant, "
                             "open, name, order, got [1]")


def test_long_values_are_shortened() -> None:
    message = _message(GOOD | {"name": list(range(100))})
    assert message.startswith("setup.name: expected a text, got [0, 1, 2,")
    assert message.endswith("...") and len(message) < 120
    assert shown("x" * 10) == "'xxxxxxxxxx'"


def test_unknown_keys_are_reported_before_missing_ones() -> None:
    assert _message({"colour": 1}).startswith("setup.colour: unknown key")


def test_the_error_class_can_be_chosen() -> None:
    with pytest.raises(OptionError, match=r"^rounds: expected a whole number at most 3, got 4$"):
        validate(Integer(maximum=3), 4, "rounds", OptionError)


def test_list_lengths_and_their_words() -> None:
    assert ListOf(Integer(), length=3).what == "a list of 3 items"
    assert ListOf(Integer(), min_length=1, max_length=3).what == "a list of 1 to 3 items"
    assert ListOf(Integer(), min_length=2).what == "a list of at least 2 items"
    assert ListOf(Integer()).what == "a list"
    with pytest.raises(RecordError, match=r"^rack: expected a list of 1 to 3 items, got a list "
                                          r"of 0$"):
        validate(ListOf(Integer(), min_length=1, max_length=3), [], "rack")


def test_parsed_values_of_other_kinds_and_booleans() -> None:
    tile = Parsed(lambda v: 16 if v == "*" else int(v), "a tile (0 to 15, or '*')",
                  kind=(int, str))
    assert validate(ListOf(tile), [3, "*"], "bag") == [3, 16]
    with pytest.raises(RecordError, match=r"^bag\[0\]: expected a tile \(0 to 15, or '\*'\), "
                                          r"got True$"):
        validate(ListOf(tile), [True], "bag")
    with pytest.raises(RecordError, match=r"^bag\[0\]: expected .*, got 'x' \(invalid literal"):
        validate(ListOf(tile), ["x"], "bag")


def test_any_of_picks_the_shape_by_type_and_reports_deeper_problems() -> None:
    stack = AnyOf(ListOf(Text()), Fields(required={"cards": ListOf(Text())},
                                         optional={"buried": Integer(minimum=0)}))
    assert validate(stack, ["a"], "stack") == ["a"]
    assert validate(stack, {"cards": [], "buried": 0}, "stack") == {"cards": [], "buried": 0}
    with pytest.raises(RecordError, match=r"^stack\.buried: expected a whole number at least 0"):
        validate(stack, {"cards": [], "buried": -1}, "stack")
    with pytest.raises(RecordError, match=r"^stack: expected a list or an object with the keys "
                                          r"cards, buried, got 3$"):
        validate(stack, 3, "stack")


def test_choice_compares_types_exactly() -> None:
    choice = Choice((0, 1))
    assert validate(choice, 1, "bit") == 1
    with pytest.raises(RecordError, match="got True"):
        validate(choice, True, "bit")


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=10))
def test_any_json_value_is_accepted_or_refused_with_a_path(value: object) -> None:
    try:
        validate(SETUP, value, "setup")
    except RecordError as exc:
        assert str(exc).startswith("setup")
