"""Tri-ominoes through the core model: notation, integer ids, setups, observations, text."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from triverse.core.errors import IllegalActionError, NotationError, RecordError
from triverse.core.records import VERSION, Record, ReplayError, replay
from triverse.games import load_game
from triverse.games._tiles.trigrid import UNKNOWN
from triverse.games.triominoes.engine import (
    NUM_ACTION_IDS,
    RULES_VERSION,
    WINDOW_X,
    WINDOW_Y,
    TriominoesGame,
    TriominoesObservation,
    TriominoesState,
    complete_setup,
)
from triverse.games.triominoes.tiles import DRAW, PASS, TILES, Place, parse_action, tile


def play(seed: int, steps: int, players: int = 2, **options: Any) -> TriominoesState:
    game = load_game("triominoes", players=players, **options)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_action_list()))
    assert isinstance(state, TriominoesState)
    return state


# --- notation ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("0-1-2@3,-1/2", "0-1-2@3,-1/2"),
    ("1-2-0@3,-1/1", "0-1-2@3,-1/2"),
    ("2-0-1@0,0", "0-1-2@0,0/2"),
    ("4-4-4@-2,5/1", "4-4-4@-2,5/0"),
    (" 0-1-2 @ 3 , -1 / 2 ", "0-1-2@3,-1/2"),
    ("Draw", "draw"),
    ("PASS", "pass"),
])
def test_notation_reads_and_writes_back(text: str, expected: str) -> None:
    action = parse_action(text)
    assert str(action) == expected
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(("text", "message"), [
    ("", "not a Tri-ominoes action"),
    ("play", "not a Tri-ominoes action"),
    ("0-1-2@3", "not a Tri-ominoes action"),
    ("0-1-2@a,b/0", "not a Tri-ominoes action"),
    ("0-1@0,0/0", "a tile is written as three numbers 0-5"),
    ("0-1-6@0,0/0", "tile numbers run from 0 to 5"),
    ("2-1-0@0,0/0", "no tile reads 2-1-0 clockwise"),
    ("0-1-2@0,0/5", "the rotation is 0, 1 or 2, not 5"),
])
def test_bad_notation_is_a_notation_error(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action(text)


def test_tiles_are_unique_objects_even_through_copies_and_pickles() -> None:
    t = tile("2-3-5")
    assert copy.deepcopy(t) is t and pickle.loads(pickle.dumps(t)) is t
    action = Place(t, (1, 0), 2)
    assert pickle.loads(pickle.dumps(action)) == action
    with pytest.raises(TypeError):
        type(t)((1, 2, 3), 99)
    assert sorted([tile("5-5-5"), tile("0-0-0")]) == [TILES[0], TILES[55]]


def test_describe_action() -> None:
    game = load_game("triominoes")
    assert game.describe_action(DRAW) == "draw a tile from the pool"
    assert game.describe_action(PASS) == "pass"
    assert game.describe_action(parse_action("1-3-5@0,0/1")) == (
        "play 1-3-5 at 0,0, corners clockwise from the apex: 3 5 1")


# --- integer ids ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_action_ids_round_trip_and_are_distinct(seed: int) -> None:
    game = load_game("triominoes", players=3, target=150)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    assert game.num_distinct_actions == NUM_ACTION_IDS
    while not state.is_terminal():
        actions = state.legal_action_list()
        ids = [state.encode_action(a) for a in actions]
        assert len(set(ids)) == len(ids)
        assert all(0 <= i < game.num_distinct_actions for i in ids)
        assert [state.decode_action(i) for i in ids] == actions
        state.apply(rng.choice(actions))
    assert len(state.history) <= game.max_game_length


def test_meaningless_ids_are_refused() -> None:
    state = play(4, 12)
    with pytest.raises(IllegalActionError, match="no Tri-ominoes action has id"):
        state.decode_action(NUM_ACTION_IDS)
    with pytest.raises(IllegalActionError, match="this round has opened"):
        state.decode_action(NUM_ACTION_IDS - 3)  # an opening id
    # Anchor 55 in a round with few tiles down.
    with pytest.raises(IllegalActionError, match="names placed tile 56"):
        state.decode_action(((0 * 56 + 55) * 3 + 0) * 3 + 0)
    # Anchor 0, across the edge towards an occupied cell (the second tile sits next to the first).
    first_neighbour = state.placed[1].cell
    edge = [c for c in (state.board.from_anchor(0, e) for e in range(3))].index(first_neighbour)
    with pytest.raises(IllegalActionError, match="occupied"):
        state.decode_action(((0 * 56 + 0) * 3 + edge) * 3 + 0)


# --- records of the rules' first version -------------------------------------------------------
OLD_RECORD = Path(__file__).parent / "data" / "blocked_seed_round_v1.json"
"""A finished seed-rules game (random play to 150) saved in record format 1 by Triverse before
a blocked seed round kept the scores: its round 1 is blocked and was settled (D11)."""


def test_an_old_record_with_a_settled_blocked_seed_round_replays_to_its_result() -> None:
    record = Record.load(OLD_RECORD)
    assert record.options["rules_version"] == 1 and record.result is not None
    state = replay(record)  # checks the stored result
    assert list(record.result.scores) == state.scores == [144, 328]
    events = [e for _, _, _, evs in record.steps() for e in evs]
    blocked = next(e for e in events if e.kind == "round_end" and e.data["reason"] == "blocked")
    assert blocked.label == "Round 1 is blocked: Seat 1 with the fewest points in hand"
    assert [e.label for e in events if e.data.get("reason") in ("opponents_tiles", "own_tiles")
            ][:2] == ["Opponents' tiles +39", "Own tiles -6"]
    # Saved again, it is a record of today's version that names the old rules.
    again = Record.loads(record.dumps())
    assert again.to_json()["version"] == VERSION == 3 and again == record
    assert replay(again).scores == [144, 328]


def test_the_same_actions_under_todays_rules_keep_the_blocked_round_scores() -> None:
    data = json.loads(OLD_RECORD.read_text(encoding="utf-8"))
    data["version"] = VERSION
    today = Record.from_json(data)
    assert "rules_version" not in today.options
    with pytest.raises(ReplayError, match=r"the replay gives \[144, 295\]"):
        replay(today)
    state = today.initial_state()
    assert state.game.options["rules_version"] == RULES_VERSION
    events = [e for _, _, _, evs in today.steps(state) for e in evs]
    blocked = next(e for e in events if e.kind == "round_end" and e.data["reason"] == "blocked")
    assert blocked.label == "Round 1 is blocked: scores are kept, new deal"
    # The old record's 115 and 143 after the settlement (+39 -6 to Seat 1) were 115 and 110.
    assert blocked.data["scores"] == [115, 110]
    assert state.is_terminal() and state.scores == [144, 295]


# --- setups --------------------------------------------------------------------------------------
def test_setup_round_trips_through_a_record() -> None:
    setup = complete_setup({"hands": [["4-5-5", "0-1-2"], ["0-0-0", "1-2-3"]],
                            "board": ["5-5-5@0,0/0"], "scores": [15, 0], "current": 0})
    game = load_game("triominoes", variant="pressman")
    state = game.new_initial_state(seed=3, setup=setup)
    assert state.setup() == setup | {"draws": 0, "passes": 0}
    state.apply_notation("4-5-5@1,0/2")
    record = Record.from_state(state, ["A", "B"])
    again = replay(Record.loads(record.dumps()))
    assert again.observation(None).to_json() == state.observation(None).to_json()
    fresh = game.new_initial_state(seed=3)
    assert fresh.setup() is None


@pytest.mark.parametrize(("change", "message"), [
    ({"hands": [["5-5-5"]]}, r"^setup\.hands: expected a list of 2 hands, one per seat, got a "
                             r"list of 1$"),
    ({"hands": [["5-5-5"], ["5-5-5"]]}, r"tile 5-5-5 is in the setup twice: setup\.hands\[0\]\[0\] "
                                        r"and setup\.hands\[1\]\[0\]"),
    ({"hands": [["5-5-5"], ["9-9-9"]]}, r"^setup\.hands\[1\]\[0\]: expected a tile like '1-3-5', "
                                        r"got '9-9-9' \(tile numbers run from 0 to 5"),
    ({"hands": [["5-5-5"], [7]]}, r"^setup\.hands\[1\]\[0\]: expected a tile like '1-3-5', got 7$"),
    ({"board": ["1-2-3@1,0/0"]}, r"^setup\.board\[0\] 1-2-3@1,0/0: a round's first tile is at 0,0"),
    ({"board": ["1-2-3@0,0/0", "4-4-4@1,0/0"]}, r"^setup\.board\[1\] 4-4-4@1,0/0: corner 4 vs 1"),
    ({"board": ["pass"]}, r"^setup\.board\[0\]: expected a placement like '5-5-5@0,0/0', got "
                          r"'pass' \(pass is an action, but not a placement\)$"),
    ({"colour": 1}, r"^setup\.colour: unknown key; setup has the keys hands, pool, board, "),
    ({"current": 1}, r"^setup\.current: needs a 'board'"),
    ({"scores": [1]}, r"^setup\.scores: expected a list of 2 whole numbers, one per seat, got a "
                      r"list of 1$"),
    ({"round": 0}, r"^setup\.round: expected a whole number from 1 to 50, got 0$"),
])
def test_bad_setups_name_the_problem(change: dict[str, Any], message: str) -> None:
    base: dict[str, Any] = {"hands": [["5-5-5", "0-1-2"], ["3-3-3"]]}
    setup = complete_setup(base | {k: v for k, v in change.items() if k == "board"}) | change
    with pytest.raises(RecordError, match=message):
        load_game("triominoes").new_initial_state(seed=1, setup=setup)


def test_setup_must_hold_all_56_tiles() -> None:
    setup = {"hands": [["5-5-5"], ["0-1-2"]], "pool": ["0-0-0"]}
    with pytest.raises(RecordError, match="lacks 53 of the 56 tiles \\(0-0-1, 0-0-2"):
        load_game("triominoes").new_initial_state(seed=1, setup=setup)
    with pytest.raises(RecordError, match=r"^setup\.pool: missing; it is required$"):
        load_game("triominoes").new_initial_state(seed=1, setup={"hands": [[], []]})


def test_setup_with_an_empty_hand_mid_round_is_refused() -> None:
    setup = complete_setup({"hands": [["5-5-5"], []], "board": ["1-2-3@0,0/0"]})
    with pytest.raises(RecordError, match=r"^setup\.hands\[1\] is empty"):
        load_game("triominoes").new_initial_state(seed=1, setup=setup)


# --- observations --------------------------------------------------------------------------------
def test_observation_shows_own_hand_and_counts_only() -> None:
    state = play(8, 30, players=3)
    for seat in range(3):
        obs = state.observation(seat)
        assert obs.hand == state.hand(seat)
        data = obs.to_json()
        assert json.loads(json.dumps(data)) == data
        assert data["hand_counts"] == [len(h) for h in state.hands]
        assert data["pool_count"] == state.pool_count
    spectator = state.observation(None).to_json()
    assert spectator["hand"] is None
    with pytest.raises(ValueError, match="no seat 3"):
        state.observation(3)


def test_tensor_has_the_declared_length() -> None:
    game = load_game("triominoes", players=4)
    state = play(9, 50, players=4)
    for seat in (None, 0, 3):
        tensor = state.observation(seat).to_tensor()
        assert len(tensor) == game.tensor_size
        assert all(isinstance(v, float) for v in tensor)
    own = state.observation(2).to_tensor()
    assert [i for i in range(56) if own[i] == 1.0] == sorted(t.index for t in state.hand(2))
    assert [i - 56 for i in range(56, 112) if own[i] == 1.0] == sorted(
        p.tile.index for p in state.placed)
    # The board window: occupied, open to play, and the three corner values of each cell.
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
    state = play(10, 25)
    game = state.game
    seat = state.current_player
    assert seat is not None
    obs = state.observation(seat)
    other = game.determinize(obs, random.Random(1))
    assert isinstance(other, TriominoesState)
    assert other.observation(seat).to_json() == obs.to_json()
    assert other.seed != state.seed
    assert sorted(str(a) for a in other.legal_actions()) == sorted(
        str(a) for a in state.legal_actions())
    with pytest.raises(TypeError):
        game.determinize(object(), random.Random(1))


def test_determinize_places_the_announced_opening_tile() -> None:
    game = load_game("triominoes")
    state = game.new_initial_state(seed=2, setup=complete_setup(
        {"hands": [["0-1-2"], ["5-5-5", "1-1-1"]]}))
    other = game.determinize(state.observation(0), random.Random(3))
    assert tile("5-5-5") in other.hands[1] and len(other.hands[1]) == 2
    assert [str(a) for a in other.legal_actions()] == ["5-5-5@0,0/0"]


def test_render_text_shows_board_scores_and_hand() -> None:
    state = play(12, 20)
    seat = 0
    text = state.game.render_text(state.observation(seat))
    assert text.startswith("Tri-ominoes, seed rules: round")
    assert "seat 0 (you)" in text and "pool:" in text and "Your hand:" in text
    assert "*" in text and "y 0" in text
    for t in state.hand(1):
        assert f"Your hand: {t}" not in text
    spectator = state.game.render_text(state.observation(None))
    assert "Your hand" not in spectator


def test_game_declares_its_options_and_variants() -> None:
    assert TriominoesGame.variants.keys() == {"seed", "pressman"}
    game = TriominoesGame(6, {"variant": "pressman", "target": 300})
    assert game.rules.max_draws == 3 and game.hand_size == 6
    assert game.min_score < 0 < 300 < game.max_score
    assert game.max_game_length > 0
    assert isinstance(game.new_initial_state(seed=1).observation(0), TriominoesObservation)
