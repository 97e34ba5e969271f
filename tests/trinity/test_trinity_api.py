"""Trinity through the core model: notation, integer ids, setups, saving, observations, text."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from trinity_helpers import new_state, play_to, snapshot

from triverse.core.errors import IllegalActionError, NotationError, OptionError, RecordError
from triverse.core.records import Record, replay
from triverse.games._tiles.engine import WINDOW_X, WINDOW_Y
from triverse.games._tiles.trigrid import UNKNOWN
from triverse.games.trinity.engine import (
    SaveRefusedError,
    TrinityGame,
    TrinityObservation,
    TrinityState,
    complete_setup,
)
from triverse.games.trinity.tiles import DRAW, PASS, TILES, Place, parse_action, tile
from triverse.games.triominoes.tiles import tile as triominoes_tile

N = 76
NUM_IDS = N * N * 9 + N + 2


# --- notation ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("0-1-2@3,-1/2", "0-1-2@3,-1/2"),
    ("0-2-1@3,-1/2", "0-2-1@3,-1/2"),
    ("1-2-0@3,-1/1", "0-1-2@3,-1/2"),
    ("2-1-0@0,0", "0-2-1@0,0/1"),
    ("1-0-2@0,0/0", "0-2-1@0,0/2"),
    ("5-0-0@1,0/0", "0-0-5@1,0/2"),
    ("4-4-4@-2,5/1", "4-4-4@-2,5/0"),
    (" 0-1-2 @ 3 , -1 / 2 ", "0-1-2@3,-1/2"),
    ("Draw", "draw"),
    ("PASS", "pass"),
])
def test_notation_reads_and_writes_back(text: str, expected: str) -> None:
    action = parse_action(text)
    assert str(action) == expected
    assert parse_action(str(action)) == action
    if isinstance(action, Place):  # the same corners get the same numbers
        raw = parse_action(text.replace(" ", ""))
        assert isinstance(raw, Place) and raw.values == action.values


def test_every_clockwise_reading_is_a_triangle_and_mirrors_stay_apart() -> None:
    readings = [(a, b, c) for a in range(6) for b in range(6) for c in range(6)]
    found = {tile(f"{a}-{b}-{c}") for a, b, c in readings}
    assert found == set(TILES)
    assert parse_action("0-1-2@1,0/0") != parse_action("0-2-1@1,0/0")


@pytest.mark.parametrize(("text", "message"), [
    ("", "not a Trinity action"),
    ("play", "not a Trinity action"),
    ("0-1-2@3", "not a Trinity action"),
    ("0-1@0,0/0", "a tile is written as three numbers 0-5"),
    ("0-1-6@0,0/0", "tile numbers run from 0 to 5"),
    ("0-1-2@0,0/3", "the rotation is 0, 1 or 2, not 3"),
])
def test_bad_notation_is_a_notation_error(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action(text)


def test_triangles_are_unique_objects_even_through_copies_and_pickles() -> None:
    t = tile("2-5-3")
    assert copy.deepcopy(t) is t and pickle.loads(pickle.dumps(t)) is t
    assert t is not triominoes_tile("2-3-5") and str(t) != "2-3-5"
    other = triominoes_tile("2-3-5")
    assert pickle.loads(pickle.dumps(other)) is other  # each set unpickles its own
    with pytest.raises(TypeError):
        type(t)((1, 2, 3), 99)
    state = play_to(3, 2, 20)
    again = pickle.loads(pickle.dumps(state))
    assert snapshot(again) == snapshot(state)


def test_describe_action() -> None:
    game = TrinityGame()
    assert game.describe_action(DRAW) == "draw a tile from the pool"
    assert game.describe_action(PASS) == "pass"
    assert game.describe_action(parse_action("0-2-1@1,0/1")) == (
        "play 0-2-1 at 1,0, corners clockwise from top left: 2 1 0")


# --- integer ids ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_action_ids_round_trip_and_are_distinct(seed: int, players: int) -> None:
    game = TrinityGame(players, {"rounds": 1})
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    assert game.num_distinct_actions == NUM_IDS
    while not state.is_terminal():
        actions = state.legal_action_list()
        ids = [state.encode_action(a) for a in actions]
        assert len(set(ids)) == len(ids)
        assert all(0 <= i < NUM_IDS for i in ids)
        assert [state.decode_action(i) for i in ids] == actions
        state.apply(rng.choice(actions))
    assert len(state.history) <= game.max_game_length


def test_meaningless_ids_are_refused() -> None:
    state = play_to(4, 2, 6)
    with pytest.raises(IllegalActionError, match="no Trinity action has id"):
        state.decode_action(NUM_IDS)
    with pytest.raises(IllegalActionError, match="this round has opened"):
        state.decode_action(NUM_IDS - 3)  # a first tile on the empty board
    with pytest.raises(IllegalActionError, match="names placed tile 76"):
        state.decode_action(((0 * N + 75) * 3 + 0) * 3 + 0)
    with pytest.raises(IllegalActionError, match="no action id here"):
        state.encode_action(Place(tile("0-1-2"), (40, 40), 0))


# --- setups and records --------------------------------------------------------------------------
def test_setup_round_trips_through_a_record() -> None:
    setup = complete_setup({"hands": [["4-5-5", "0-1-2"], ["0-0-0", "1-2-3"]],
                            "board": ["5-5-5@0,0/0"], "scores": [15, 0], "current": 0,
                            "span": True, "round": 2})
    game = TrinityGame(2, {"rounds": 2})
    state = game.new_initial_state(seed=3, setup=setup)
    assert state.setup() == setup | {"draws": 0, "passes": 0}
    state.apply_notation("4-5-5@1,0/2")
    record = Record.from_state(state, ["A", "B"])
    again = replay(Record.loads(record.dumps()))
    assert again.observation(None).to_json() == state.observation(None).to_json()
    assert game.new_initial_state(seed=3).setup() is None


@pytest.mark.parametrize(("change", "message"), [
    ({"hands": [["5-5-5"]]}, r"^setup\.hands: expected a list of 2 hands"),
    ({"hands": [["0-1-2"], ["2-0-1"]]}, "tile 0-1-2 is in the setup twice"),
    ({"span": "yes"}, r"^setup\.span: expected true or false, got 'yes'$"),
    ({"active": [0, 1]}, r"^setup\.active: only in a tiebreaker round \(a 'round' above 3\)$"),
    ({"round": 4}, r"^setup\.active: missing; a tiebreaker round \(round 4\) needs it$"),
    ({"round": 4, "active": [0, 1]}, r"^setup\.baseline: missing; a tiebreaker round"),
    ({"round": 4, "active": [1], "baseline": [0, 0]},
     r"^setup\.active: expected two or more seats 0-1, in order, got a list of 1$"),
    ({"round": 4, "active": [1, 0], "baseline": [0, 0]},
     r"^setup\.active: expected two or more seats 0-1, in order, got \[1, 0\]$"),
    ({"round": 4, "active": [0, 2], "baseline": [0, 0]},
     r"^setup\.active\[1\]: expected a seat 0-1, got 2$"),
    ({"round": 4, "active": [0, 0], "baseline": [0, 0]},
     r"^setup\.active\[1\]: expected two or more seats 0-1, in order, got 0 twice$"),
    ({"round": 4, "active": [0, 1], "baseline": [0]},
     r"^setup\.baseline: expected a list of 2 whole numbers"),
    ({"round": 14}, r"^setup\.round: expected a whole number from 1 to 13, got 14$"),
    ({"colour": 1}, r"^setup\.colour: unknown key; setup has the keys hands, .*, active, "
                    r"baseline, span$"),
])
def test_bad_setups_name_the_problem(change: dict[str, Any], message: str) -> None:
    setup = complete_setup({"hands": [["5-5-5", "0-1-2"], ["3-3-3"]]}) | change
    with pytest.raises(RecordError, match=message):
        TrinityGame(2, {}).new_initial_state(seed=1, setup=setup)


def test_a_tiebreaker_setup_keeps_the_seats_that_sit_out_empty_handed() -> None:
    base = {"hands": [["0-1-2"], ["0-1-3"], ["0-1-4"]], "round": 4, "active": [0, 1],
            "baseline": [9, 9, 1], "scores": [9, 9, 1]}
    with pytest.raises(RecordError, match=r"^setup\.hands\[2\] holds triangles, but seat 2 "
                                          r"sits out"):
        new_state(base, players=3)
    with pytest.raises(RecordError, match=r"^setup\.current: seat 2 is not in this round$"):
        new_state(base | {"hands": [["0-1-2"], ["0-1-3"], []], "board": ["5-5-5@0,0/0"],
                          "current": 2}, players=3)


def test_a_round_needs_a_triangle_to_turn_up() -> None:
    everything = [str(t) for t in TILES]
    with pytest.raises(RecordError, match="no triangle to turn up"):
        TrinityGame(2, {}).new_initial_state(seed=1, setup={
            "hands": [everything[:40], everything[40:]], "pool": []})


# --- saving --------------------------------------------------------------------------------------
def test_save_is_json_and_is_refused_once_the_game_is_over() -> None:
    state = play_to(6, 2, 30)
    saved = state.save()
    assert json.loads(json.dumps(saved)) == saved
    assert saved["format"] == "trinity-save" and saved["seed"] == state.seed
    assert saved["position"]["current"] == state.current_player
    over = play_to(6, 2, 10_000)
    assert over.is_terminal() and not over.can_save()
    assert over.save_refusal() == "the game is over"
    with pytest.raises(SaveRefusedError, match="cannot save now: the game is over"):
        over.save()


@pytest.mark.parametrize(("change", "message"), [
    ({"format": "triverse-record"}, "not a saved Trinity game"),
    ({"version": 2}, "saved-game version 2 is not supported"),
    ({"game": {"game": "trinity", "players": 3, "options": {}}}, "the save is of"),
    ({"seed": "x"}, "'seed' is a whole number"),
    ({"position": None}, "'position' is a setup object"),
    ({"position": {"hands": []}}, r"^setup\.pool: missing; it is required$"),
])
def test_bad_saves_are_refused(change: dict[str, Any], message: str) -> None:
    game = TrinityGame(2, {})
    saved = game.new_initial_state(seed=2).save() | change
    with pytest.raises(RecordError, match=message):
        game.load(saved)


# --- observations --------------------------------------------------------------------------------
def test_observation_shows_own_hand_and_counts_only() -> None:
    state = play_to(8, 3, 30)
    for seat in range(3):
        obs = state.observation(seat)
        assert obs.hand == state.hand(seat)
        data = obs.to_json()
        assert json.loads(json.dumps(data)) == data
        assert data["hand_counts"] == [len(h) for h in state.hands]
        assert data["pool_count"] == state.pool_count
        assert data["active"] == [0, 1, 2] and data["baseline"] is None
        assert "move_number" not in data and "seed" not in data
    assert state.observation(None).to_json()["hand"] is None
    with pytest.raises(ValueError, match="no seat 3"):
        state.observation(3)


def test_tensor_has_the_declared_length_and_layout() -> None:
    game = TrinityGame(4, {})
    state = play_to(9, 4, 50)
    for seat in (None, 0, 3):
        tensor = state.observation(seat).to_tensor()
        assert len(tensor) == game.tensor_size
        assert all(isinstance(v, float) for v in tensor)
    own = state.observation(2).to_tensor()
    assert [i for i in range(N) if own[i] == 1.0] == sorted(t.index for t in state.hand(2))
    assert [i - N for i in range(N, 2 * N) if own[i] == 1.0] == sorted(
        p.tile.index for p in state.placed)
    board = state.board
    window = own[game.tensor_size - len(WINDOW_X) * len(WINDOW_Y) * 5:]
    k = 0
    for y in WINDOW_Y:
        for x in WINDOW_X:
            cell = (x, y)
            expected = [float(cell in board.cells), float(cell in board.frontier)] + [
                0.0 if v == UNKNOWN else (v + 1) / 6 for v in board.pattern(cell)]
            assert window[k:k + 5] == expected, cell
            k += 5


def test_determinize_keeps_what_the_seat_knows() -> None:
    state = play_to(10, 3, 25, rounds=3)
    game = state.game
    seat = state.current_player
    assert seat is not None
    obs = state.observation(seat)
    other = game.determinize(obs, random.Random(1))
    assert isinstance(other, TrinityState)
    assert other.observation(seat).to_json() == obs.to_json()
    assert other.seed != state.seed
    assert sorted(str(a) for a in other.legal_actions()) == sorted(
        str(a) for a in state.legal_actions())
    with pytest.raises(TypeError):
        game.determinize(object(), random.Random(1))
    with pytest.raises(ValueError, match="not of"):
        TrinityGame(2, {}).determinize(obs, random.Random(1))


def test_render_text_shows_board_scores_and_hand() -> None:
    state = play_to(12, 2, 20)
    text = state.game.render_text(state.observation(0))
    assert text.startswith("Trinity: round 1 of 1")
    assert "seat 0 (you)" in text and "pool:" in text and "Your hand:" in text
    assert "*" in text and "y 0" in text and "Saving is allowed." in text
    spectator = state.game.render_text(state.observation(None))
    assert "Your hand" not in spectator
    tiebreak = new_state({"hands": [[], ["0-1-3"], ["0-1-4"]], "round": 4, "active": [1, 2],
                          "baseline": [5, 9, 9], "scores": [5, 9, 9]}, players=3)
    text = tiebreak.game.render_text(tiebreak.observation(1))
    assert text.startswith("Trinity: tiebreaker round 1 (seats 1, 2;")
    assert "(sits out the tiebreaker)" in text and "Saving is not allowed now." in text
    with pytest.raises(TypeError):
        state.game.render_text(object())  # type: ignore[arg-type]


def test_game_declares_its_options_and_bounds() -> None:
    assert [spec.name for spec in TrinityGame.option_specs] == ["rounds", "max_tiebreakers"]
    game = TrinityGame(4, {"rounds": 2})
    assert game.rounds == 2 and game.hand_size == 7 and game.last_round == 12
    assert game.min_score < 0 < game.max_score
    assert game.max_game_length == 12 * (2 * N + (N + 1) * 4)
    assert isinstance(game.new_initial_state(seed=1).observation(0), TrinityObservation)
    assert TrinityGame().rounds == 3 and TrinityGame().num_players == 2
    for bad in ({"rounds": 0}, {"rounds": 4}, {"max_tiebreakers": 0}):
        with pytest.raises(OptionError):
            TrinityGame(2, bad)
    with pytest.raises(OptionError, match="2 to 4 players"):
        TrinityGame(5, {})
