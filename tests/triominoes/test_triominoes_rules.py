"""Tri-ominoes rules, each checked on a concrete position (see docs/rules/triominoes.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from triverse.core.errors import IllegalActionError
from triverse.core.events import Event, labels
from triverse.games import load_game
from triverse.games._tiles.trigrid import Board
from triverse.games.triominoes.engine import TriominoesState, complete_setup
from triverse.games.triominoes.tiles import PLACEMENTS, TILES, Place, tile

# Positions found by a search over matching placements (each list is a legal board in order).
HEXAGON_BOARD = ["1-1-5@0,0/0", "1-1-1@1,0/0", "0-1-1@1,-1/0", "0-0-1@0,-1/0", "0-1-5@-1,-1/0"]
HEXAGON_CLOSER = "1-5-5@-1,0/2"  # the sixth tile around vertex 1,0 (all corners 1 there)
BRIDGE_BOARD = ["0-3-3@0,0/0", "0-0-3@1,0/0", "0-1-3@2,0/0", "1-2-3@2,1/2", "1-1-2@3,1/0",
                "1-2-2@3,2/2", "0-2-2@2,2/1", "0-1-2@1,2/1"]
BRIDGE = "1-3-3@0,1/1"  # one edge on 0,0; its bottom corner 1,2 touches the tile at 1,2
DOUBLE_BOARD = ["4-4-5@0,0/0", "3-4-4@1,0/2", "2-3-4@1,-1/0", "2-2-4@0,-1/0", "1-2-4@-1,-1/1",
                "4-5-5@0,1/2", "0-5-5@-1,1/1", "0-0-5@-2,1/1", "0-1-5@-2,0/1"]
DOUBLE = "1-4-5@-1,0/0"  # closes the rings around 1,0 and 0,1
TRIPLE_BOARD = ["4-4-5@0,0/0", "3-4-4@1,0/2", "2-3-4@1,-1/0", "2-2-4@0,-1/0", "1-2-4@-1,-1/1",
                "1-1-2@-2,-1/1", "0-1-1@-3,-1/1", "0-0-1@-3,0/1", "4-5-5@0,1/2",
                "5-5-5@-1,1/0", "0-5-5@-2,1/0", "0-1-5@-2,0/1"]
TRIPLE = "1-4-5@-1,0/0"  # closes three rings at once


def new_state(setup: dict[str, Any], players: int = 2, **options: Any) -> TriominoesState:
    game = load_game("triominoes", players=players, **options)
    state = game.new_initial_state(seed=7, setup=complete_setup(setup))
    assert isinstance(state, TriominoesState)
    return state


def scored(events: list[Event]) -> list[str]:
    return [e.label for e in events if e.points or e.kind == "score"]


def snapshot(state: TriominoesState) -> str:
    views = [state.observation(p).to_json() for p in [None, *range(state.game.num_players)]]
    return json.dumps([views, state.scores, [str(a) for a in state.history], state.pool_pos,
                       [[str(t) for t in h] for h in state.hands], state.setup()])


# --- the tiles -----------------------------------------------------------------------------------
def test_the_56_tiles_ascend_clockwise_and_are_all_different() -> None:
    assert len(TILES) == 56 == len({t.values for t in TILES})
    assert all(t.values == tuple(sorted(t.values)) for t in TILES)
    assert sum(t.is_triple for t in TILES) == 6
    assert tile("3-5-1") is tile("1-3-5") and tile("3-5-1").total == 9


@pytest.mark.parametrize(("players", "size"), [(2, 9), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_hand_sizes(players: int, size: int) -> None:
    game = load_game("triominoes", players=players, variant="pressman")
    state = game.new_initial_state(seed=11)
    assert [len(h) for h in state.hands] == [size] * players
    assert state.pool_count == 56 - size * players


# --- opening -------------------------------------------------------------------------------------
def test_the_triple_five_opens() -> None:
    state = new_state({"hands": [["4-4-4", "0-1-2"], ["1-2-3", "5-5-5"]]})
    assert state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["5-5-5@0,0/0"]
    events = state.apply_notation("5-5-5@0,0/0")
    assert scored(events) == ["Tile 5-5-5 +15"]
    assert state.scores == [0, 15] and state.current_player == 0


def test_next_highest_triple_opens_and_must_be_played() -> None:
    state = new_state({"hands": [["2-2-2", "3-3-3"], ["4-4-4", "0-1-2"]]})
    assert state.current_player == 1
    reason = state.illegal_reason(Place(tile("0-1-2"), (0, 0), 0))
    assert reason == "the round opens with 4-4-4"
    assert state.illegal_reason(Place(tile("4-4-4"), (1, 0), 0)) == (
        "the first tile of a round goes at 0,0 with rotation 0")
    with pytest.raises(IllegalActionError, match="the round opens first"):
        state.apply_notation("draw")


@pytest.mark.parametrize(("variant", "expected", "total"), [
    ("seed", ["Tile 0-0-0 +0", "Triple zero +30"], 30),
    ("pressman", ["Tile 0-0-0 +0", "Triple start +10", "Triple zero +30"], 40),
])
def test_triple_zero_as_highest_triple(variant: str, expected: list[str], total: int) -> None:
    state = new_state({"hands": [["0-1-2"], ["0-0-0", "1-2-3"]]}, variant=variant)
    assert state.current_player == 1
    assert scored(state.apply_notation("0-0-0@0,0/0")) == expected
    assert state.scores == [0, total]


def test_pressman_triple_start_bonus() -> None:
    state = new_state({"hands": [["4-4-4", "0-1-2"], ["1-2-3"]]}, variant="pressman")
    assert scored(state.apply_notation("4-4-4@0,0/0")) == ["Tile 4-4-4 +12", "Triple start +10"]
    assert state.scores == [22, 0]


def test_pressman_holder_of_the_highest_triple_may_open_with_zero() -> None:
    setup = {"hands": [["0-1-2"], ["5-5-5", "0-0-0", "1-2-3"]]}
    pressman = new_state(setup, variant="pressman")
    assert [str(a) for a in pressman.legal_actions()] == ["5-5-5@0,0/0", "0-0-0@0,0/0"]
    assert pressman.observation(0).opening == (tile("5-5-5"), tile("0-0-0"))
    assert sum(e.points for e in pressman.apply_notation("0-0-0@0,0/0")) == 40
    seed = new_state(setup)
    assert [str(a) for a in seed.legal_actions()] == ["5-5-5@0,0/0"]


def test_pressman_highest_tile_opens_when_nobody_has_a_triple() -> None:
    state = new_state({"hands": [["3-5-5", "0-1-2"], ["4-5-5", "1-1-2"]]}, variant="pressman")
    assert state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["4-5-5@0,0/0"]
    assert scored(state.apply_notation("4-5-5@0,0/0")) == ["Tile 4-5-5 +14"]
    # Equal totals: the tile with the higher numbers (3-5-5 over 4-4-5).
    tie = new_state({"hands": [["4-4-5"], ["3-5-5"]]}, variant="pressman")
    assert tie.current_player == 1


def test_seed_players_draw_for_a_triple() -> None:
    setup = {"hands": [["0-1-2"], ["1-2-3"]], "pool": ["0-1-3", "1-2-4", "3-3-3", "0-1-4"]}
    state = new_state(setup)
    # Seat 0 draws 0-1-3, seat 1 draws 1-2-4, seat 0 draws the triple 3-3-3 and opens with it.
    assert state.current_player == 0
    assert state.hand(0) == (tile("0-1-2"), tile("0-1-3"), tile("3-3-3"))
    assert state.hand(1) == (tile("1-2-3"), tile("1-2-4"))
    assert state.scores == [0, 0]
    assert [str(a) for a in state.legal_actions()] == ["3-3-3@0,0/0"]


# --- matching and scoring ------------------------------------------------------------------------
def test_after_the_triple_five_the_next_tile_has_two_fives() -> None:
    state = new_state({"hands": [["4-5-5", "3-5-5", "1-5-5", "0-1-2"], ["5-5-5", "0-0-0"]]})
    state.apply_notation("5-5-5@0,0/0")
    actions = list(state.legal_actions())
    assert actions and all(sorted(a.tile.values)[1:] == [5, 5] for a in actions)  # type: ignore[union-attr]
    assert {str(a.tile) for a in actions} == {"4-5-5", "3-5-5", "1-5-5"}  # type: ignore[union-attr]


def test_seed_example_3_5_1_scores_nine() -> None:
    state = new_state({"hands": [["1-3-5", "0-0-0"], ["2-2-2"]], "board": ["3-5-5@0,0/0"]})
    action = state.parse_action("3-5-1@-1,0/2")  # written from its 3: the same tile and corners
    assert str(action) == "1-3-5@-1,0/0"
    assert scored(state.apply(action)) == ["Tile 1-3-5 +9"]
    assert state.scores == [9, 0]


def test_corner_mismatch_and_detached_placements_are_refused() -> None:
    state = new_state({"hands": [["4-5-5", "1-4-5", "2-2-3"], ["0-0-0"]],
                       "board": ["5-5-5@0,0/0"]})
    before = snapshot(state)
    # 1-4-5 at 1,0 rotation 0: its 1 would sit on the 5 at vertex 1,0.
    assert state.illegal_reason(Place(tile("1-4-5"), (1, 0), 0)) == (
        "corner 1 vs 5 at vertex 1,0")
    assert state.illegal_reason(Place(tile("4-5-5"), (3, 0), 0)) == (
        "no shared edge with a tile on the board")
    assert state.illegal_reason(Place(tile("4-5-5"), (0, 0), 0)) == "cell 0,0 is occupied"
    assert state.illegal_reason(Place(tile("0-0-0"), (1, 0), 0)) == "0-0-0 is not in your hand"
    for text in ("1-4-5@1,0/0", "4-5-5@3,0/0", "draw", "pass"):
        with pytest.raises(IllegalActionError):
            state.apply_notation(text)
    assert snapshot(state) == before
    assert state.illegal_reason(Place(tile("4-5-5"), (1, 0), 2)) is None


def test_hexagon_plus_50() -> None:
    state = new_state({"hands": [["1-5-5", "0-0-0"], ["2-2-2"]], "board": HEXAGON_BOARD})
    events = state.apply_notation(HEXAGON_CLOSER)
    assert scored(events) == ["Tile 1-5-5 +11", "Hexagon +50"]
    assert state.scores == [61, 0]


@pytest.mark.parametrize(("variant", "board", "closer", "expected"), [
    ("seed", DOUBLE_BOARD, DOUBLE, ["Tile 1-4-5 +10", "Hexagon +50", "Hexagon +50"]),
    ("pressman", DOUBLE_BOARD, DOUBLE, ["Tile 1-4-5 +10", "Double hexagon +60"]),
    ("seed", TRIPLE_BOARD, TRIPLE, ["Tile 1-4-5 +10"] + ["Hexagon +50"] * 3),
    ("pressman", TRIPLE_BOARD, TRIPLE, ["Tile 1-4-5 +10", "Triple hexagon +70"]),
])
def test_several_hexagons_at_once(variant: str, board: list[str], closer: str,
                                  expected: list[str]) -> None:
    state = new_state({"hands": [["1-4-5", "0-0-0"], ["2-2-2"]], "board": board},
                      variant=variant)
    assert scored(state.apply_notation(closer)) == expected
    assert state.scores[0] == sum(int(label.rsplit("+", 1)[1]) for label in expected)


def test_bridge_plus_40() -> None:
    state = new_state({"hands": [["1-3-3", "0-0-0"], ["2-2-2"]], "board": BRIDGE_BOARD})
    assert state.board.specials((0, 1)).contacts == 1
    assert scored(state.apply_notation(BRIDGE)) == ["Tile 1-3-3 +7", "Bridge +40"]
    assert state.scores == [47, 0]


def test_an_ordinary_edge_is_no_bridge() -> None:
    state = new_state({"hands": [["4-5-5", "0-0-0"], ["2-2-2"]], "board": ["5-5-5@0,0/0"]})
    assert scored(state.apply_notation("4-5-5@1,0/2")) == ["Tile 4-5-5 +14"]


# --- drawing and passing -------------------------------------------------------------------------
def test_seed_draw_minus_5_until_playable() -> None:
    state = new_state({"hands": [["0-0-0", "2-2-2"], ["5-5-5", "1-1-1"]],
                       "pool": ["0-1-2", "1-2-3", "4-5-5", "0-5-5"]})
    state.apply_notation("5-5-5@0,0/0")
    for expected_pool in (54 - 3, 54 - 4, 54 - 5):
        assert [str(a) for a in state.legal_actions()] == ["draw"]
        events = state.apply_notation("draw")
        assert labels(events) == ["Draw -5"] and state.current_player == 0
        assert events[0].data["pool"] == expected_pool
    # The third drawn tile (4-5-5) fits: drawing is over, it must be played.
    assert state.scores == [-15, 15]
    assert {str(a.tile) for a in state.legal_actions()} == {"4-5-5"}  # type: ignore[union-attr]
    reason = state.illegal_reason(state.game.parse_action("draw"))
    assert reason is not None and reason.startswith("you can play 4-5-5@")
    assert state.observation(0).draws_this_turn == 3


def test_a_draw_is_seen_by_the_drawer_only() -> None:
    state = new_state({"hands": [["0-0-0"], ["5-5-5", "1-1-1"]], "pool": ["0-1-2"]})
    state.apply_notation("5-5-5@0,0/0")
    (event,) = state.apply_notation("draw")
    assert event.to_json(0)["secret"] == {"tile": "0-1-2"}
    assert "0-1-2" not in json.dumps(event.to_json(1)) + json.dumps(event.to_json(None))


def _everything_in_hands(board: list[str], unplayable: list[str],
                         variant: str = "seed") -> TriominoesState:
    """Seat 0 holds ``unplayable``, seat 1 every other tile: the pool is empty."""
    on_board = {b.split("@")[0] for b in board}
    rest = [str(t) for t in TILES if str(t) not in unplayable and str(t) not in on_board]
    return new_state({"hands": [unplayable, rest], "pool": [], "board": board}, variant=variant)


@pytest.mark.parametrize(("variant", "penalty"), [("seed", 0), ("pressman", -10)])
def test_pass_when_the_pool_is_empty(variant: str, penalty: int) -> None:
    state = _everything_in_hands(["5-5-5@0,0/0"], ["0-0-0", "1-2-3"], variant)
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    assert state.illegal_reason(state.game.parse_action("draw")) == "the pool is empty: pass"
    events = state.apply_notation("pass")
    assert state.scores == [penalty, 0] and state.current_player == 1
    assert events[0].kind == "pass"


def test_pressman_three_draws_then_pass_minus_10() -> None:
    state = new_state({"hands": [["0-0-0", "2-2-2"], ["5-5-5", "1-1-1"]],
                       "pool": ["0-1-2", "1-2-3", "3-4-4", "4-5-5"]}, variant="pressman")
    state.apply_notation("5-5-5@0,0/0")
    state.scores = [0, 0]
    for _ in range(3):
        state.apply_notation("draw")
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    assert state.illegal_reason(state.game.parse_action("draw")) == (
        "you have drawn 3 tiles this turn, the most allowed: pass")
    assert scored(state.apply_notation("pass")) == ["Pass -10"]
    assert state.scores == [-25, 0] and state.current_player == 1
    # Seed rules: no limit, the fourth draw is allowed.
    seed = new_state({"hands": [["0-0-0", "2-2-2"], ["5-5-5", "1-1-1"]],
                      "pool": ["0-1-2", "1-2-3", "3-4-4", "4-5-5"]})
    seed.apply_notation("5-5-5@0,0/0")
    for _ in range(3):
        seed.apply_notation("draw")
    assert [str(a) for a in seed.legal_actions()] == ["draw"]


def test_no_voluntary_pass_or_draw() -> None:
    state = new_state({"hands": [["4-5-5", "0-0-0"], ["2-2-2"]], "board": ["5-5-5@0,0/0"]})
    for text in ("pass", "draw"):
        reason = state.illegal_reason(state.game.parse_action(text))
        assert reason is not None and reason.startswith("you can play 4-5-5@")
    stuck = new_state({"hands": [["0-0-0"], ["2-2-2"]], "board": ["5-5-5@0,0/0"]})
    assert stuck.illegal_reason(stuck.game.parse_action("pass")) == (
        "the pool still has 53 tiles: draw")


# --- the end of a round and of the game ----------------------------------------------------------
def test_going_out_scores_25_and_the_opponents_tiles() -> None:
    state = new_state({"hands": [["4-5-5"], ["0-1-2", "1-1-3", "2-4-5"], ["3-3-3"]],
                       "board": ["5-5-5@0,0/0"]}, players=3)
    events = state.apply_notation("4-5-5@1,0/2")
    # 0-1-2 (3) + 1-1-3 (5) + 2-4-5 (11) + 3-3-3 (9) = 28 in the other hands.
    assert scored(events)[:3] == ["Tile 4-5-5 +14", "Going out +25", "Opponents' tiles +28"]
    assert state.scores == [14 + 25 + 28, 0, 0]
    end = next(e for e in events if e.kind == "round_end")
    assert end.data["reason"] == "out" and end.data["winners"] == [0]
    # Nobody has 400: a new round, reshuffled and dealt.
    assert state.round == 2 and not state.is_terminal()
    assert [len(h) for h in state.hands] >= [7, 7, 7] and len(state.board) == 0
    assert any(e.kind == "round_start" for e in events)
    assert sum(len(h) for h in state.hands) + state.pool_count == 56


def _stuck_position(seed: int) -> tuple[list[str], list[str]]:
    """Lay random matching tiles until none of the rest fits anywhere: (board, the rest)."""
    rng = random.Random(seed)
    rest = list(TILES)
    rng.shuffle(rest)
    first = rest.pop()
    board = Board()
    board.place((0, 0), first.values)
    placed = [f"{first}@0,0/0"]
    while True:
        options = list(board.placements(PLACEMENTS, set(rest)))
        if not options:
            return placed, [str(t) for t in rest]
        t, cell, rotation = rng.choice(options)
        board.place(cell, t.placed(rotation))
        placed.append(str(Place(t, cell, rotation)))
        rest.remove(t)


def _blocked_position(variant: str, **options: Any) -> tuple[TriominoesState, list[int]]:
    """A 2-player position where neither hand fits the board and the pool is empty: seat 0's
    hand holds 18 points, seat 1's 24; the round is blocked once both have passed."""
    board, rest = next((b, r) for b, r in map(_stuck_position, range(200)) if len(r) >= 6)
    hands = [rest[0::2], rest[1::2]]
    totals = [sum(tile(t).total for t in h) for h in hands]
    state = new_state({"hands": hands, "pool": [], "board": board}, variant=variant, **options)
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    state.apply_notation("pass")
    assert not state.is_terminal() and state.round == 1
    return state, totals


def test_blocked_round_seed_keeps_the_scores_and_deals_again() -> None:
    state, totals = _blocked_position("seed")
    assert totals == [18, 24] and state.scores == [0, 0]
    events = state.apply_notation("pass")
    assert not any(e.points for e in events)
    end = next(e for e in events if e.kind == "round_end")
    assert end.label == "Round 1 is blocked: scores are kept, new deal"
    assert end.data == {"round": 1, "reason": "blocked", "winners": [], "hand_totals": totals,
                        "scores": [0, 0]}
    assert state.scores == [0, 0]
    assert state.round == 2 and not state.is_terminal()
    assert sum(len(h) for h in state.hands) + state.pool_count == 56 and not state.placed
    assert events[-1].kind == "round_start"


def test_a_blocked_seed_round_that_ends_the_game_says_no_new_deal() -> None:
    state, _ = _blocked_position("seed", max_rounds=1)
    events = state.apply_notation("pass")
    assert [e.label for e in events[-2:]] == ["Round 1 is blocked: scores are kept",
                                              "Game over: Seat 0, Seat 1 tie"]
    assert state.is_terminal() and state.scores == [0, 0]


@pytest.mark.parametrize(("variant", "rules_version"), [("pressman", 2), ("pressman", 1),
                                                         ("seed", 1)])
def test_blocked_round_lowest_hand_scores_the_others_minus_its_own(variant: str,
                                                                   rules_version: int) -> None:
    """Pressman's settlement; also the seed rules' version 1 (games played before D11)."""
    state, totals = _blocked_position(variant, rules_version=rules_version)
    penalty = 10 if variant == "pressman" else 0
    events = state.apply_notation("pass")
    end = next(e for e in events if e.kind == "round_end")
    assert end.data["reason"] == "blocked" and end.data["hand_totals"] == totals
    assert end.label == "Round 1 is blocked: Seat 0 with the fewest points in hand"
    assert scored(events)[-2:] == ["Opponents' tiles +24", "Own tiles -18"]
    low = min(totals)
    expected = [-penalty + (sum(totals) - 2 * low if t == low else 0) for t in totals]
    assert state.scores == expected == [6 - penalty, -penalty]
    assert state.round == 2


def test_reaching_the_target_ends_the_game_after_the_round() -> None:
    setup = {"hands": [["4-5-5"], ["0-1-2"]], "board": ["5-5-5@0,0/0"], "scores": [380, 100]}
    state = new_state(setup)
    events = state.apply_notation("4-5-5@1,0/2")
    assert state.is_terminal() and state.current_player is None
    assert list(state.legal_actions()) == []
    assert state.scores[0] >= 400
    assert events[-1].kind == "game_end" and events[-1].label == "Game over: Seat 0 wins"
    assert state.result().winners == (0,)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_notation("draw")


def test_a_lower_target_and_the_round_limit() -> None:
    low = new_state({"hands": [["4-5-5"], ["0-1-2"]], "board": ["5-5-5@0,0/0"]}, target=40)
    low.apply_notation("4-5-5@1,0/2")
    assert low.is_terminal()
    capped = new_state({"hands": [["4-5-5"], ["0-1-2"]], "board": ["5-5-5@0,0/0"]},
                       max_rounds=1)
    capped.apply_notation("4-5-5@1,0/2")
    assert capped.is_terminal() and capped.scores[0] < 400


def test_an_illegal_action_changes_nothing() -> None:
    game = load_game("triominoes", players=3, variant="pressman")
    state = game.new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        before = snapshot(state)
        for text in ("0-0-1@9,9/0", "pass", "draw", "5-5-5@0,0/1", "1-2-3@1,0/2"):
            action = game.parse_action(text)
            if state.illegal_reason(action) is not None:
                with pytest.raises(IllegalActionError):
                    state.apply(action)
                assert snapshot(state) == before
        state.apply(rng.choice(state.legal_action_list()))


def test_play_passes_to_the_left() -> None:
    state = new_state({"hands": [["0-0-0", "1-1-2"], ["5-5-5", "0-1-2"], ["4-5-5", "1-2-3"]]},
                      players=3)
    assert state.current_player == 1
    state.apply_notation("5-5-5@0,0/0")
    assert state.current_player == 2
    state.apply_notation("4-5-5@1,0/2")
    assert state.current_player == 0
    state.apply_notation("draw")
    assert state.current_player == 0  # drawing does not end the turn


def test_pressman_passes_with_tiles_left_do_not_block_the_round() -> None:
    unplayable = ["0-1-2", "0-1-3", "0-2-3", "1-2-3", "0-0-1", "0-0-2", "0-0-3"]
    state = new_state({"hands": [["0-0-0", "2-2-2"], ["5-5-5", "1-1-1"]],
                       "pool": unplayable}, variant="pressman")
    state.apply_notation("5-5-5@0,0/0")
    for seat in (0, 1):
        assert state.current_player == seat
        for _ in range(3):
            state.apply_notation("draw")
        state.apply_notation("pass")
    assert state.passes == 2 and state.pool_count == 56 - 4 - 6
    assert state.round == 1 and state.current_player == 0
    assert [str(a) for a in state.legal_actions()] == ["draw"]
