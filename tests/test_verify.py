"""Shuffles anyone can verify: every game's deal, records' commitments, ``triverse verify``."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from triverse import load_game
from triverse.ai import make_player
from triverse.cli import main
from triverse.core.errors import RecordError
from triverse.core.fairness import SCHEME, commitment, digest, game_commitment
from triverse.core.game import State
from triverse.core.records import VERSION, Record
from triverse.core.verify import VerificationError, verify

SALT = "5a" * 16

SMALL = {
    "trident": {},
    "triominoes": {"target": 100},
    "trinity": {},
    "triangles": {"stars": 24},
    "trivinity": {"turn_limit": 5},
}
"""Options that make a short game of each."""


def finished(name: str, seed: int = 11, players: int = 2) -> State[Any]:
    """A whole game of ``name`` played by novice computer players."""
    game = load_game(name, players, **SMALL[name])
    state: State[Any] = game.new_initial_state(seed=seed)
    bot, rng = make_player("novice"), random.Random(seed)
    while not state.is_terminal():
        state.apply(bot.choose(game, state.observation(state.current_player), rng))
    return state


def record_of(name: str) -> Record:
    state = finished(name)
    return Record.from_state(state, ["Ann", "Bob"], salt=SALT)


# --- deal(): each game's, from concrete seeds ------------------------------------------------
def test_trident_deal_is_the_bag_in_draw_order_and_the_order_of_play() -> None:
    state = load_game("trident", 3).new_initial_state(seed=7)
    deal = state.deal()
    assert deal["order"] == [1, 0, 2] and list(state.order) == [1, 0, 2]
    assert deal["aside"] == 0 and len(deal["tiles"]) == 83
    assert deal["tiles"][:9] == [5, 7, 1, 4, 1, 6, 0, 11, 13]
    # Three to each seat in the order of play: seat 1, then 0, then 2.
    assert state.rack(1) == (1, 5, 7) and state.rack(0) == (1, 4, 6)
    assert state.rack(2) == (0, 11, 13)
    assert deal["tiles"][9] == state.bag[-1] == 3  # the next tile drawn
    assert [t for t in deal["tiles"][9:] if t != "*"] == \
        [t for t in reversed(state.bag) if t < 16]


def test_trident_triolet_deal_sets_the_first_three_aside() -> None:
    state = load_game("trident", 2, variant="triolet").new_initial_state(seed=7)
    deal = state.deal()
    assert deal["aside"] == 3 and deal["tiles"][:3] == [5, 7, 1]
    assert state.aside == [1, 5, 7]
    assert deal["order"] == [1, 0] and state.rack(1) == (1, 4, 6)


def test_trident_deal_is_the_same_in_every_position() -> None:
    state = load_game("trident", 2).new_initial_state(seed=7)
    before = state.deal()
    for _ in range(6):
        state.apply(next(state.legal_actions()))
    assert state.deal() == before and state.clone().deal() == before


@pytest.mark.parametrize(("name", "first", "pool"), [
    ("triominoes", ["0-0-5", "1-2-4", "0-1-2"], ["0-3-5", "3-3-4"]),
    ("trinity", ["0-2-1", "0-3-4", "3-3-4"], ["1-1-1", "5-5-5"]),
])
def test_tile_games_deal_round_one_in_shuffled_order(name: str, first: list[str],
                                                     pool: list[str]) -> None:
    state: Any = load_game(name, 2).new_initial_state(seed=7)
    deal = state.deal()
    assert deal["hands"][0][:3] == first and deal["pool"][:2] == pool
    for seat in (0, 1):
        assert sorted(deal["hands"][seat]) == sorted(str(t) for t in state.hand(seat))
    assert deal["pool"] == [str(t) for t in state.pool]
    assert len(deal["hands"][0]) + len(deal["hands"][1]) + len(deal["pool"]) == \
        len(state.game.tileset.tiles)


def test_tile_game_setup_deal_is_the_setup_hands_and_pool() -> None:
    setup = {"hands": [["0-0-0", "1-1-1"], ["2-2-2"]],
             "pool": ["3-3-3", "4-4-4", "5-5-5"] + [
                 str(t) for t in load_game("triominoes", 2).tileset.tiles
                 if str(t) not in ("0-0-0", "1-1-1", "2-2-2", "3-3-3", "4-4-4", "5-5-5")]}
    state = load_game("triominoes", 2).new_initial_state(seed=3, setup=setup)
    assert state.deal() == {"hands": setup["hands"], "pool": setup["pool"]}


def test_triangles_deal_is_the_star_cloud() -> None:
    state: Any = load_game("triangles", 2, stars=24).new_initial_state(seed=7)
    deal = state.deal()
    assert deal["stars"][:2] == [[1054, 713], [5159, 1764]] and len(deal["stars"]) == 24
    assert deal["stars"] == [list(p) for p in state.board.stars]


def test_trivinity_deal_is_modules_order_decks_and_stacks() -> None:
    state: Any = load_game("trivinity", 2).new_initial_state(seed=7)
    deal = state.deal()
    assert deal["modules"] == ["scoundrels", "zodiac"] and deal["order"] == [1, 0]
    assert deal["decks"][0][:5] == ["mana", "tribute", "power", "power", "power"]
    for seat in (0, 1):  # the hands are the top five of each deck
        hand = Counter(state.table.card(c).key for c in state.hands[seat])
        assert hand == Counter(deal["decks"][seat][:5])
    assert [len(s) for s in deal["stacks"]] == [8, 8, 8, 6, 6, 6, 4, 4, 4]
    assert deal["stacks"][0][:2] == ["oracle", "wayside-shrine"]
    top = state.stacks[0][-1]
    assert state.table.card(top).key == "oracle"
    assert deal["limbo"][:2] == ["grand-temple", "constellation"]
    assert deal["limbo"] == [state.table.card(c).key for c in state.limbo_down]


@pytest.mark.parametrize("name", sorted(SMALL))
def test_deal_is_deterministic_json(name: str) -> None:
    one = load_game(name, 2).new_initial_state(seed=99).deal()
    assert one == load_game(name, 2).new_initial_state(seed=99).deal()
    assert one != load_game(name, 2).new_initial_state(seed=100).deal()
    assert json.loads(json.dumps(one)) == one


# --- records of version 3 ----------------------------------------------------------------------
def test_a_record_commits_to_the_initial_state_under_its_salt() -> None:
    state = finished("trident")
    record = Record.from_state(state, ["Ann", "Bob"], salt=SALT)
    initial = load_game("trident", 2).new_initial_state(seed=state.seed)
    assert record.commitment is not None
    assert record.commitment.digest == game_commitment(initial, SALT)
    assert record.commitment.salt == SALT and record.commitment.deal == initial.deal()
    data = record.to_json()
    assert data["version"] == VERSION == 3 and data["commitment"]["scheme"] == SCHEME
    assert Record.loads(record.dumps()) == record


def test_the_digest_is_recomputable_by_hand_from_the_canonical_json() -> None:
    import hashlib

    record = record_of("triangles")
    data = record.to_json()
    block = data["commitment"]
    payload = {"scheme": "triverse-1", "game": data["game"], "players": len(data["players"]),
               "options": data["options"], "seed": data["seed"], "setup": data["setup"],
               "deal": hashlib.sha256(json.dumps(block["deal"], sort_keys=True,
                                                 separators=(",", ":")).encode()).hexdigest(),
               "salt": block["salt"]}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(text.encode()).hexdigest() == block["digest"]
    assert digest(block["deal"]) == payload["deal"]
    assert commitment(SALT, {k: v for k, v in payload.items() if k != "salt"}) == block["digest"]


def test_a_fresh_salt_each_record_unless_given() -> None:
    state = finished("triangles")
    one, two = (Record.from_state(state, ["A", "B"]) for _ in range(2))
    assert one.commitment and two.commitment and one.commitment.salt != two.commitment.salt
    assert verify(one).digest == one.commitment.digest


def test_a_record_refuses_a_salt_that_is_not_hex() -> None:
    state = load_game("triangles", 2, stars=24).new_initial_state(seed=7)
    with pytest.raises(RecordError, match=r"commitment\.salt must be 32 lowercase hex digits"):
        Record.from_state(state, ["A", "B"], salt="not a salt")


@pytest.mark.parametrize(("change", "message"), [
    ({"scheme": "md5"}, "commitment.scheme is 'md5'"),
    ({"digest": "abc"}, "commitment.digest must be 64 lowercase hex digits"),
    ({"digest": None}, "commitment.digest must be 64"),
    ({"salt": "Z" * 32}, "commitment.salt must be 32 lowercase hex digits"),
    ({"deal": [1, 2]}, "commitment.deal must be an object"),
    ({"extra": 1}, "commitment.extra: not a field"),
])
def test_a_malformed_commitment_is_refused_naming_the_field(change: dict[str, Any],
                                                            message: str) -> None:
    data = record_of("triangles").to_json()
    data["commitment"] = {**data["commitment"], **change}
    with pytest.raises(RecordError, match=message):
        Record.from_json(data)


def test_a_commitment_that_is_not_an_object_is_refused() -> None:
    data = record_of("triangles").to_json()
    data["commitment"] = "abc"
    with pytest.raises(RecordError, match="'commitment' must be an object or null"):
        Record.from_json(data)


def test_a_version_2_record_is_read_without_a_commitment_and_does_not_verify() -> None:
    data = record_of("triangles").to_json()
    data["version"] = 2
    del data["commitment"]
    record = Record.from_json(data)
    assert record.commitment is None
    with pytest.raises(VerificationError, match=r"^commitment: the record has no commitment") \
            as failure:
        verify(record)
    assert failure.value.check == "commitment"


# --- verify --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SMALL))
def test_verify_passes_on_a_finished_game_of_every_game(name: str) -> None:
    record = record_of(name)
    report = verify(record)
    assert record.commitment is not None and report.digest == record.commitment.digest
    assert report.actions == len(record.actions) > 0
    assert report.result == record.result is not None
    if name != "triangles":  # Triangles has no draws: its one chance is the star cloud
        assert report.draws and all(d.drawn for d in report.draws)


def test_verify_reports_the_draws_the_seed_gave() -> None:
    record = record_of("triominoes")
    report = verify(record)
    state = record.initial_state()
    assert report.draws[0].drawn["tile"] in state.deal()["pool"]


@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_changed_seed_fails(name: str) -> None:
    record = record_of(name)
    with pytest.raises(VerificationError) as failure:
        verify(replace(record, seed=record.seed + 1))
    assert failure.value.check in ("deal", "digest")


@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_changed_salt_fails_the_digest(name: str) -> None:
    record = record_of(name)
    assert record.commitment is not None
    changed = replace(record, commitment=replace(record.commitment, salt="00" * 16))
    with pytest.raises(VerificationError, match=r"^digest: the published digest"):
        verify(changed)


def test_one_changed_deal_entry_fails_naming_it() -> None:
    record = record_of("trident")
    assert record.commitment is not None
    deal = json.loads(json.dumps(record.commitment.deal))
    deal["tiles"][20], deal["tiles"][31] = deal["tiles"][31], deal["tiles"][20]
    assert deal["tiles"][20] != deal["tiles"][31]
    changed = replace(record, commitment=replace(record.commitment, deal=deal))
    with pytest.raises(VerificationError, match=r"^deal: deal\.tiles\[20\] is "):
        verify(changed)


def test_a_deal_changed_with_its_seed_still_fails_the_digest() -> None:
    record = record_of("trinity")
    assert record.commitment is not None
    other = load_game("trinity", 2).new_initial_state(seed=record.seed + 1)
    changed = replace(record, seed=record.seed + 1,
                      commitment=replace(record.commitment, deal=other.deal()))
    with pytest.raises(VerificationError, match=r"^digest:"):
        verify(changed)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_one_changed_action_fails(name: str) -> None:
    record = record_of(name)
    state = record.initial_state()
    actions = list(record.actions)
    for k in range(3):
        state.apply_notation(actions[k])
    others = [str(a) for a in state.legal_actions() if str(a) != actions[3]]
    actions[3] = others[-1]  # a pass, an end of turn, a draw: anything but what was played
    with pytest.raises(VerificationError) as failure:
        verify(replace(record, actions=tuple(actions)))
    assert failure.value.check in ("replay", "result")


def test_a_tile_the_seed_did_not_give_is_an_illegal_replay() -> None:
    record = record_of("trident")
    state = record.initial_state()
    seat = state.current_player
    assert seat is not None
    missing = next(t for t in range(1, 16) if t not in state.rack(seat))
    actions = (f"7:7={missing}", *record.actions[1:])
    with pytest.raises(VerificationError, match=r"^replay: action 1 \('7:7="):
        verify(replace(record, actions=actions))


def test_a_changed_result_fails() -> None:
    record = record_of("triominoes")
    assert record.result is not None
    wrong = replace(record.result, scores=tuple(s + 1 for s in record.result.scores))
    with pytest.raises(VerificationError, match=r"^result: the record says scores"):
        verify(replace(record, result=wrong))


# --- the command ----------------------------------------------------------------------------
def test_cli_verify_exit_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = record_of("trivinity")
    good = tmp_path / "good.json"
    record.save(good)
    assert main(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert record.commitment is not None and f"commitment {record.commitment.digest} holds" in out
    assert f"{len(record.actions)} actions replayed from the seed" in out
    assert main(["verify", str(good), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["holds"] is True and data["actions"] == len(record.actions)
    bad = tmp_path / "bad.json"
    changed = record.to_json()
    changed["commitment"]["salt"] = "11" * 16
    bad.write_text(json.dumps(changed), encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    assert "triverse verify: the record does not hold: digest:" in capsys.readouterr().err
    assert main(["verify", str(bad), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["check"] == "digest"
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2", encoding="utf-8")
    assert main(["verify", str(junk)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "none.json")]) == 2


def test_the_suite_verifies_every_record_it_makes() -> None:
    # tests/conftest.py keeps every record made from a state and verifies it after the test.
    pending = getattr(Record.from_state, "_pending", None)
    assert pending is not None, "tests/conftest.py wraps Record.from_state"
    record = Record.from_state(finished("triangles"), ["A", "B"])
    assert pending[-1] is record
