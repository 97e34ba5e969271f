"""The shared model: options, events, results, errors and the record format."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from triverse.core.errors import IllegalActionError, NotationError, OptionError, RecordError
from triverse.core.events import Event, score_totals
from triverse.core.game import Result, rank_by_score
from triverse.core.options import OptionSpec, parse_option_args, resolve_options
from triverse.core.records import FORMAT, VERSION, PlayerInfo, Record
from triverse.core.rng import derive
from triverse.games import available_games, game_class, load_game

SPECS = (
    OptionSpec("variant", str, "seed", "Rules", choices=("seed", "pressman")),
    OptionSpec("target", int, 400, "Score to win", minimum=50, maximum=2000),
    OptionSpec("again", bool, False, "Play again after a triangle"),
)


def test_errors_are_value_errors() -> None:
    for cls in (IllegalActionError, NotationError, OptionError, RecordError):
        assert issubclass(cls, ValueError)


def test_options_default_and_parse() -> None:
    assert resolve_options(SPECS, None) == {"variant": "seed", "target": 400, "again": False}
    given_opts = {"variant": "pressman", "target": "300", "again": "yes"}
    assert resolve_options(SPECS, given_opts) == {
        "variant": "pressman", "target": 300, "again": True}


@pytest.mark.parametrize(
    ("given_opts", "message"),
    [
        ({"variant": "house"}, "option 'variant' is one of seed, pressman; not 'house'"),
        ({"target": "lots"}, "option 'target' is a whole number, not 'lots'"),
        ({"target": 10}, "option 'target' must be at least 50, not 10"),
        ({"again": "maybe"}, "option 'again' is true or false, not 'maybe'"),
        ({"colour": "red"}, "unknown option 'colour'; this game has: again, target, variant"),
        ({"target": True}, "option 'target' is a whole number, not True"),
    ],
)
def test_option_errors_name_the_problem(given_opts: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError) as info:
        resolve_options(SPECS, given_opts)
    assert str(info.value) == message


def test_cli_option_pairs() -> None:
    assert parse_option_args(["a=1", " b = two "]) == {"a": "1", "b": "two"}
    with pytest.raises(OptionError, match="NAME=VALUE"):
        parse_option_args(["novalue"])


def test_event_secret_is_seen_by_its_player_only() -> None:
    event = Event("draw", 2, -5, "Draw -5", {"pool": 10}, {"tile": "0-1-2"})
    assert event.view(2) is event
    assert event.view(1).secret is None
    assert event.view(None).secret is None
    assert "secret" not in event.to_json(0)
    assert "secret" not in event.to_json(None)
    assert event.to_json(2)["secret"] == {"tile": "0-1-2"}
    assert "0-1-2" not in json.dumps(event.to_json(1))


def test_score_totals() -> None:
    events = [Event("score", 0, 9), Event("draw", 1, -5), Event("place", 0), Event("x", None, 3)]
    assert score_totals(events, 2) == [9, -5]


@given(st.lists(st.integers(-50, 500), min_size=1, max_size=6))
def test_ranks_are_competition_ranks(scores: list[int]) -> None:
    ranks = rank_by_score(scores)
    for i, score in enumerate(scores):
        assert ranks[i] == 1 + sum(other > score for other in scores)
    result = Result.from_scores(scores)
    assert set(result.winners) == {i for i, s in enumerate(scores) if s == max(scores)}
    assert result.is_draw == (len(result.winners) > 1)
    assert Result.from_json(result.to_json()) == result


def test_rng_is_derived_from_seed_and_labels_only() -> None:
    a = [derive(7, "round", 2).random() for _ in range(2)]
    assert a[0] == a[1]
    assert derive(7, "round", 2).random() != derive(7, "round", 3).random()
    assert derive(7, "round", 2).random() != derive(8, "round", 2).random()


def test_the_five_games_are_found_as_plugins_in_seed_order() -> None:
    assert available_games() == ["trinity", "triangles", "trivinity", "trident", "triominoes"]
    for name in available_games():
        cls = game_class(name)
        assert cls.name == name and cls.title and cls.summary


def test_an_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(OptionError, match="unknown game 'chess'; the games are: trinity, "):
        game_class("chess")


def test_player_count_is_checked() -> None:
    with pytest.raises(OptionError, match="for 2 to 6 players, not 7"):
        load_game("triominoes", players=7)


def _record_json() -> dict[str, object]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": "triominoes",
        "options": {},
        "players": [{"name": "A", "kind": "human"}, {"name": "B", "kind": "average"}],
        "seed": 1,
        "setup": None,
        "commitment": None,
        "actions": [],
        "result": None,
        "meta": {},
    }


def test_record_json_round_trip() -> None:
    record = Record.from_json(_record_json())
    assert record.players == (PlayerInfo("A", "human"), PlayerInfo("B", "average"))
    assert Record.loads(record.dumps()) == record
    assert record.to_json() == _record_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "pgn"}, "not a Triverse record"),
        ({"version": 99}, "record version 99 is not supported"),
        ({"seed": "x"}, "'seed' must be a int"),
        ({"seed": None}, "'seed' must be a int"),
        ({"actions": "draw"}, "'actions' must be a list"),
        ({"actions": [1]}, r"actions\[0\] must be a string"),
        ({"players": [{"kind": "human"}]}, r"players\[0\] must be an object with a 'name'"),
        ({"players": [{"name": "A", "kind": "genius"}]}, r"players\[0\].kind is 'genius'"),
        ({"result": {"scores": [1]}}, "'result' is malformed"),
        ({"setup": [1, 2]}, "'setup' must be an object or null"),
    ],
)
def test_malformed_records_name_the_problem(change: dict[str, object], message: str) -> None:
    data = _record_json() | change
    with pytest.raises(RecordError, match=message):
        Record.from_json(data)


def test_record_missing_field_and_bad_json() -> None:
    data = _record_json()
    del data["game"]
    with pytest.raises(RecordError, match="the record has no 'game'"):
        Record.from_json(data)
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.loads("{nope")
    with pytest.raises(RecordError, match="a record is a JSON object"):
        Record.loads("[]")
