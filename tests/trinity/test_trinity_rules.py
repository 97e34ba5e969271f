"""Trinity rules, each checked on a concrete position (see docs/rules/trinity.md)."""

from __future__ import annotations

import math
import random

import pytest
from trinity_helpers import new_state, scored, snapshot

from triverse.core.errors import IllegalActionError
from triverse.games._tiles.tiles import Place
from triverse.games._tiles.trigrid import ORIENTATIONS, cell_vertices, is_up
from triverse.games.trinity.engine import HAND_SIZES, SaveRefusedError, TrinityGame
from triverse.games.trinity.tiles import CHIRAL, DRAW, PASS, TILES, TILESET, tile

# Positions found by a search over distinct triangles (each list is a legal board, in order;
# the first is the triangle turned up to start the round).
HEXAGON_BOARD = ["0-1-4@0,0/1", "1-2-4@1,0/0", "0-2-1@1,-1/0", "0-1-3@0,-1/2", "1-3-3@-1,-1/2"]
HEXAGON = "0-3-1@-1,0/1"  # the sixth triangle around vertex 1,0; two sides touch
DOUBLE_BOARD = ["2-3-4@0,0/1", "0-4-3@1,0/2", "0-3-1@1,-1/2", "1-3-4@0,-1/2", "3-4-4@-1,-1/2",
                "2-2-4@0,1/1", "2-2-2@-1,1/0", "1-2-2@-2,1/0", "1-4-2@-2,0/1"]
DOUBLE = "2-4-3@-1,0/1"  # closes the rings around 1,0 and 0,1 at once
SPAN_BOARD = ["0-0-0@0,0/0", "0-0-2@1,0/1", "0-2-1@2,0/1", "0-1-5@2,1/0", "1-5-5@3,1/0",
              "2-5-5@3,2/1", "2-2-5@2,2/2", "2-4-5@1,2/1"]
SPAN = "0-0-4@0,1/0"  # one side on 0,0; the opposite point 1,2 is 2-4-5's corner
# The Slide board: a chain that comes round to 0,1 the long way, so that 1,1 touches 2,1 and
# 0,1 with two sides and closes no hexagon; a detour by 0,-1 ... -2,-1 makes -1,0 a Span.
SLIDE_BOARD = ["1-4-5@0,0/1", "4-5-5@1,0/0", "0-5-4@1,-1/0", "0-2-5@2,-1/0", "2-5-5@3,-1/0",
               "3-5-5@3,0/1", "1-3-5@4,0/2", "1-4-3@4,1/2", "0-3-4@3,1/1", "0-5-3@2,1/1",
               "1-1-5@0,1/1", "0-4-2@0,-1/2", "0-2-3@0,-2/2", "0-3-2@-1,-2/0", "0-2-2@-2,-2/0",
               "2-2-3@-2,-1/0"]
SLIDE_SPAN = "1-3-4@-1,0/1"  # one side on 0,0; the opposite point -1,0 is 2-2-3's corner
SLIDE = "0-1-5@1,1/2"  # two sides, on 2,1 and 0,1, and no hexagon
PLAIN = "1-5-2@5,0/1"  # a one-side play on the Slide board, no special
# Found by playing random games to a round that ends with every player passing: the position
# before the first of those passes. The pool is empty and neither hand fits the board.
DRAWN_ROUND = {
    "hands": [["2-2-2", "1-5-5", "3-5-5"], ["3-3-3", "0-5-3", "0-0-0", "0-0-3"]],
    "board": [
        "0-1-3@0,0/0", "0-3-5@-1,0/2", "2-5-3@-2,0/1", "0-3-1@1,0/0", "0-4-3@1,-1/1",
        "1-3-4@2,-1/2", "1-4-5@2,-2/2", "0-0-4@0,-1/1", "4-4-5@1,-2/1", "1-2-3@-2,1/1",
        "1-1-5@3,-2/2", "2-4-5@-3,0/1", "0-2-1@-3,1/1", "0-2-2@-4,1/1", "4-5-5@-3,-1/1",
        "1-5-3@3,-3/2", "1-3-5@2,-3/0", "0-5-2@-5,1/2", "2-5-5@-6,1/2", "0-2-5@-6,0/0",
        "5-5-5@-7,1/0", "0-4-5@-5,2/2", "1-1-4@4,-2/1", "1-4-4@4,-1/0", "4-4-4@5,-1/0",
        "1-2-4@5,-2/0", "1-4-2@5,-3/1", "3-4-4@6,-1/2", "0-5-1@-7,0/2", "2-2-4@-4,0/2",
        "2-3-4@6,-2/0", "0-1-4@-7,-1/2", "2-3-3@7,-2/0", "3-3-5@8,-2/1", "3-4-5@9,-2/0",
        "0-5-5@-7,2/1", "1-1-3@2,-4/1", "2-2-3@7,-3/1", "1-4-3@3,-1/0", "0-1-2@-3,2/0",
        "2-5-4@-4,-1/0", "1-2-2@-2,2/0", "0-5-4@10,-2/2", "2-2-5@-2,3/0", "1-1-2@-1,2/0",
        "3-5-4@9,-3/1", "1-2-5@-3,3/1", "1-5-4@-8,-1/1", "1-5-2@-3,4/0", "0-3-4@3,0/1",
        "2-4-3@7,-1/2", "2-4-4@5,0/1", "0-4-2@-5,0/0", "0-4-4@11,-2/1", "1-3-2@0,2/0",
        "0-1-5@-8,0/1", "0-2-3@0,3/1", "0-0-5@-8,2/2", "0-0-1@-8,3/0", "0-1-1@-9,0/1",
        "0-3-3@1,3/1", "0-3-2@1,4/0", "3-3-4@2,3/1", "2-3-5@8,-1/1", "0-0-2@0,4/1",
        "1-3-3@1,2/0", "1-1-1@1,-4/0", "0-2-4@0,5/0", "0-4-1@-10,0/2"],
    "scores": [190, 241],
}


def specials(events: list[object]) -> list[str]:
    return [e.data["special"] for e in events  # type: ignore[attr-defined]
            if e.kind == "special"]  # type: ignore[attr-defined]


# --- the triangles -------------------------------------------------------------------------------
def test_the_76_triangles() -> None:
    """"56 triangles with all the various combinations of the numbers 0 - 5 as well as the
    reverse order for triangles that do not contain a double"."""
    assert len(TILES) == 76 == len({t.values for t in TILES})
    multisets = {tuple(sorted(t.values)) for t in TILES}
    assert len(multisets) == 56
    doubles = [t for t in TILES if len(set(t.values)) < 3]
    assert len(doubles) == 36 and len(CHIRAL) == 40
    assert len({tuple(sorted(t.values)) for t in CHIRAL}) == 20
    assert sum(t.total for t in TILES) == 76 * 7.5


def test_chirality_a_triangle_and_its_mirror_are_different() -> None:
    t, m = tile("0-1-2"), tile("0-2-1")
    assert t is not m and TILESET.mirror(t) is m and TILESET.mirror(m) is t
    assert tile("2-1-0") is m and tile("1-2-0") is t
    for d in (tile("0-0-1"), tile("3-5-5"), tile("4-4-4")):
        assert TILESET.mirror(d) is d  # "their reverses are the same triangle"
    for c in CHIRAL:
        assert TILESET.mirror(c) is not c and TILESET.mirror(c) in CHIRAL


def _clockwise_reading(cell: tuple[int, int], values: tuple[int, int, int]) -> tuple[int, ...]:
    """The numbers on a cell's corners, read clockwise on the screen (y downwards) from the
    corner with the smallest screen angle, computed from the geometry (not from the corner
    numbering)."""
    points = [(x * 0.5, y * math.sqrt(3) / 2) for x, y in cell_vertices(cell)]
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    # With y downwards, increasing atan2(y, x) turns clockwise on the screen.
    order = sorted(range(3), key=lambda i: math.atan2(points[i][1] - cy, points[i][0] - cx))
    return tuple(values[i] for i in order)


@pytest.mark.parametrize("t", TILES, ids=str)
def test_six_orientations_turn_but_never_flip(t: object) -> None:
    """On an up and a down cell, with three rotations each, the corners read clockwise are
    always a rotation of the triangle's own clockwise reading, never of its mirror's."""
    from triverse.games._tiles.tiles import Tile

    assert isinstance(t, Tile)
    turns = {tuple(t.values[(i + r) % 3] for i in range(3)) for r in range(3)}
    mirror = TILESET.mirror(t)
    assert mirror is not None
    mirror_turns = {tuple(mirror.values[(i + r) % 3] for i in range(3)) for r in range(3)}
    for up, rotation in ORIENTATIONS:
        cell = (0, 0) if up else (1, 0)
        assert is_up(cell) == up
        reading = _clockwise_reading(cell, Place(t, cell, rotation).values)
        assert reading in turns
        if mirror is not t:
            assert reading not in mirror_turns


# --- dealing and starting a round ----------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_and_the_triangle_turned_up(players: int) -> None:
    state = TrinityGame(players, {}).new_initial_state(seed=11)
    size = HAND_SIZES[players]
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.placed) == 1 and state.placed[0].cell == (0, 0)
    assert state.pool_count == 76 - size * players - 1
    assert state.current_player == 0 and state.round == 1


def test_the_first_triangle_comes_from_the_pool_and_scores_nobody() -> None:
    state = new_state({"hands": [["0-1-2"], ["0-1-3"]], "pool": ["2-5-4"]})
    assert [str(p) for p in state.placed] == ["2-5-4@0,0/0"]
    assert state.scores == [0, 0]


@pytest.mark.parametrize(("round_number", "opener"), [(1, 0), (2, 1), (3, 2)])
def test_the_opener_goes_round_the_table(round_number: int, opener: int) -> None:
    state = new_state({"hands": [["0-1-2"], ["0-1-3"], ["0-1-4"]], "round": round_number},
                      players=3)
    assert state.current_player == opener


def test_a_tiebreaker_is_opened_by_a_seat_that_plays_it() -> None:
    state = new_state({"hands": [[], ["0-1-3"], ["0-1-4"]], "round": 4, "active": [1, 2],
                       "baseline": [5, 9, 9], "scores": [5, 9, 9]}, players=3)
    assert state.current_player == 1  # round 4 would be seat 0's, who sits out


# --- matching ------------------------------------------------------------------------------------
def test_a_play_shares_a_side_and_matches_every_touching_corner() -> None:
    state = new_state({"hands": [["0-5-5", "1-2-3", "4-5-5"], ["0-1-2"]],
                       "board": ["5-5-5@0,0/0"]})
    assert state.illegal_reason(Place(tile("0-5-5"), (0, 0), 0)) == "cell 0,0 is occupied"
    assert state.illegal_reason(Place(tile("0-5-5"), (2, 0), 0)) == (
        "no shared edge with a tile on the board")
    assert state.illegal_reason(Place(tile("1-2-3"), (1, 0), 0)) == (
        "corner 1 vs 5 at vertex 1,0")
    assert state.illegal_reason(Place(tile("0-1-2"), (1, 0), 0)) == "0-1-2 is not in your hand"
    assert state.illegal_reason(Place(tile("0-5-5"), (1, 0), 2)) is None
    # A corner that touches a triangle at a point only must match it too: 0,1 shares a side
    # with 0,0 on the Span board, and its bottom point 1,2 is 2-4-5's corner 4.
    span = new_state({"hands": [["0-0-3", "0-0-4"], ["5-5-5"]], "board": SPAN_BOARD})
    assert span.illegal_reason(Place(tile("0-0-3"), (0, 1), 0)) == "corner 3 vs 4 at vertex 1,2"
    assert span.illegal_reason(Place(tile("0-0-4"), (0, 1), 0)) is None


def test_a_play_scores_the_sum_of_its_numbers() -> None:
    state = new_state({"hands": [["3-5-5", "0-1-2"], ["0-1-3"]], "board": ["5-5-5@0,0/0"]})
    events = state.apply_notation("3-5-5@0,1/1")
    assert scored(events) == ["Tile 3-5-5 +13"] and state.scores == [13, 0]
    assert state.current_player == 1


# --- special plays -------------------------------------------------------------------------------
@pytest.mark.parametrize("span_before", [False, True])
def test_hexagon_and_a_two_side_hexagon_is_no_slide(span_before: bool) -> None:
    state = new_state({"hands": [[HEXAGON.split("@")[0], "0-0-0"], ["5-5-5"]],
                       "board": HEXAGON_BOARD, "span": span_before})
    events = state.apply_notation(HEXAGON)
    assert scored(events) == ["Tile 0-3-1 +4", "Hexagon +40"]  # 0-1-3's mirror image
    assert specials(events) == ["hexagon"]
    assert state.scores == [44, 0]


def test_two_hexagons_at_once_score_40_each() -> None:
    state = new_state({"hands": [["2-4-3", "0-0-0"], ["5-5-5"]], "board": DOUBLE_BOARD})
    events = state.apply_notation(DOUBLE)
    assert scored(events) == ["Tile 2-4-3 +9", "Hexagon +40", "Hexagon +40"]
    assert sorted(e.data["vertex"] for e in events if e.kind == "special") == [[0, 1], [1, 0]]


def test_span() -> None:
    state = new_state({"hands": [["0-0-4", "5-5-5"], ["3-3-3"]], "board": SPAN_BOARD})
    assert not state.span_played
    events = state.apply_notation(SPAN)
    assert scored(events) == ["Tile 0-0-4 +4", "Span +50"]
    assert specials(events) == ["span"] and state.span_played
    assert state.observation(1).span_played


def test_slide_after_a_span_in_the_same_game() -> None:
    state = new_state({"hands": [["1-3-4", "1-5-2"], ["0-1-5", "5-5-5"]],
                       "board": SLIDE_BOARD})
    assert scored(state.apply_notation(SLIDE_SPAN)) == ["Tile 1-3-4 +8", "Span +50"]
    events = state.apply_notation(SLIDE)
    assert scored(events) == ["Tile 0-1-5 +6", "Slide +60"]
    assert specials(events) == ["slide"] and state.scores == [58, 66]


def test_the_same_two_side_play_before_any_span_is_no_slide() -> None:
    state = new_state({"hands": [["1-3-4", "1-5-2"], ["0-1-5", "5-5-5"]],
                       "board": SLIDE_BOARD})
    assert scored(state.apply_notation(PLAIN)) == ["Tile 1-5-2 +8"]
    events = state.apply_notation(SLIDE)
    assert scored(events) == ["Tile 0-1-5 +6"] and specials(events) == []
    assert state.board.specials((-1, 0)).span  # the Span is still there to be played


def test_a_span_of_an_earlier_round_counts_for_slides() -> None:
    """"The Slide can only be played after a Span has been formed in the game": a Span that
    also ends the round opens Slides for the rest of the game."""
    state = new_state({"hands": [["0-0-4"], ["3-3-3"]], "board": SPAN_BOARD}, rounds=2)
    events = state.apply_notation(SPAN)
    assert "Span +50" in scored(events) and state.round == 2
    assert state.span_played and state.observation(0).span_played
    slide = new_state({"hands": [["1-3-4"], ["0-1-5", "5-5-5"]], "board": SLIDE_BOARD,
                       "current": 1, "span": True, "round": 2}, rounds=2)
    assert scored(slide.apply_notation(SLIDE)) == ["Tile 0-1-5 +6", "Slide +60"]


# --- drawing and passing -------------------------------------------------------------------------
def test_only_a_player_who_cannot_play_draws_and_each_draw_costs_5() -> None:
    state = new_state({"hands": [["0-1-2"], ["4-5-5", "0-0-1"]], "board": ["5-5-5@0,0/0"],
                       "pool": ["0-1-3", "1-5-5"], "current": 1})
    assert state.illegal_reason(DRAW) == (
        "you can play 4-5-5@1,0/2; you draw only when you cannot play")
    state.apply_notation("4-5-5@1,0/2")
    assert [str(a) for a in state.legal_actions()] == ["draw"]
    assert state.illegal_reason(PASS) == "the pool still has 72 tiles: draw"
    first = state.apply(DRAW)
    assert scored(first) == ["Draw -5"] and first[0].secret == {"tile": "0-1-3"}
    assert first[0].to_json(1).get("secret") is None
    assert state.current_player == 0 and [str(a) for a in state.legal_actions()] == ["draw"]
    state.apply(DRAW)  # 1-5-5: now a triangle fits, so the player plays
    assert state.scores == [-10, 14] and state.draws == 2
    assert all(str(a).startswith("1-5-5@") for a in state.legal_actions())
    assert state.illegal_reason(DRAW) is not None


def test_no_trading_in_and_a_pass_only_on_an_empty_pool() -> None:
    every = [str(t) for t in TILES if str(t) not in ("5-5-5", "0-1-2", "0-1-3", "4-5-5")]
    state = new_state({"hands": [["0-1-2"], ["0-1-3", "4-5-5", *every]],
                       "board": ["5-5-5@0,0/0"], "pool": []})
    assert state.pool_count == 0
    assert state.illegal_reason(DRAW) == "the pool is empty: pass"
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    events = state.apply(PASS)
    assert [e.label for e in events] == ["Pass"] and state.scores == [0, 0]
    assert state.current_player == 1 and state.passes == 1


# --- the end of a round --------------------------------------------------------------------------
def test_a_round_won_by_playing_the_last_triangle() -> None:
    """+25 and the sum of the numbers on all the other players' triangles, by hand:
    0-1-2 (3) + 1-3-4 (8) + 2-2-2 (6) + 0-0-1 (1) = 18."""
    state = new_state({"hands": [["4-5-5"], ["0-1-2", "1-3-4"], ["2-2-2", "0-0-1"]],
                       "board": ["5-5-5@0,0/0"], "scores": [10, 20, 30]}, players=3,
                      rounds=2)
    events = state.apply_notation("4-5-5@1,0/2")
    assert scored(events) == ["Tile 4-5-5 +14", "Going out +25", "Opponents' tiles +18"]
    assert state.scores == [10 + 14 + 25 + 18, 20, 30]
    end = next(e for e in events if e.kind == "round_end")
    assert end.data["reason"] == "out" and end.data["winner"] == 0
    assert end.data["hand_totals"] == [0, 11, 7]
    assert state.round == 2 and [len(h) for h in state.hands] == [7, 7, 7]
    assert state.current_player == 1 and len(state.placed) == 1


def test_a_round_drawn_by_all_passing_has_no_bonus() -> None:
    state = new_state(DRAWN_ROUND, rounds=2)
    assert state.pool_count == 0 and len(state.placed) == 69
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    first = state.apply(PASS)
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    second = state.apply(PASS)
    assert not scored(first + second)
    end = next(e for e in second if e.kind == "round_end")
    assert end.data["reason"] == "draw" and end.data["winner"] is None
    assert end.label == "Round 1 is a draw: every player passed"
    assert state.scores == [190, 241] and state.round == 2
    assert next(e for e in second if e.kind == "round_start").data["opener"] == 1


def test_the_game_ends_after_its_rounds_with_the_standings() -> None:
    state = new_state({"hands": [["4-5-5"], ["0-1-2"], ["2-2-2"]], "board": ["5-5-5@0,0/0"],
                       "scores": [10, 20, 30], "round": 2}, players=3, rounds=2)
    events = state.apply_notation("4-5-5@1,0/2")
    assert state.is_terminal() and events[-1].kind == "game_end"
    result = state.result()
    assert result.scores == (10 + 14 + 25 + 9, 20, 30) and result.ranks == (1, 3, 2)
    assert list(state.legal_actions()) == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(PASS)


# --- tiebreakers ---------------------------------------------------------------------------------
def test_a_three_round_game_ending_in_a_tie_goes_to_a_tiebreaker() -> None:
    """Seat 0 goes out in round 3 and ties seat 1 at 143; only they play the tiebreaker, which
    cannot be saved; nobody leaves it below 143; it ends with a single winner."""
    state = new_state({"hands": [["4-5-5"], ["0-1-2"], ["0-0-1"]], "board": ["5-5-5@0,0/0"],
                       "scores": [100, 143, 50], "round": 3}, players=3, rounds=3)
    assert state.can_save()
    events = state.apply_notation("4-5-5@1,0/2")
    assert state.scores == [143, 143, 50]
    tie = next(e for e in events if e.kind == "tiebreaker")
    assert tie.data["seats"] == [0, 1] and tie.label.startswith("Seat 0 and Seat 1 are tied")
    assert state.round == 4 and state.tiebreaker and state.active == (0, 1)
    assert state.baseline == (143, 143, 50)
    assert [len(h) for h in state.hands] == [9, 9, 0]
    assert state.current_player == 0
    assert not state.can_save() and state.observation(2).can_save is False
    with pytest.raises(SaveRefusedError, match="during a tiebreaker round"):
        state.save()
    rng = random.Random(3)
    while not state.is_terminal():
        assert state.current_player in state.active and not state.can_save()
        events = state.apply(rng.choice(state.legal_action_list()))
        for end in (e for e in events if e.kind == "round_end"):
            assert min(end.data["scores"][s] for s in (0, 1)) >= 143
    assert state.scores[2] == 50
    result = state.result()
    assert len(result.winners) == 1 and result.ranks[2] == 3


def test_the_tiebreaker_score_floor() -> None:
    """Seat 0 draws four triangles (-20) and plays one worth 10; seat 1 goes out. Seat 0 lost
    10 in the tiebreaker, so its score is reset to 100 by a score event."""
    state = new_state({"hands": [["0-1-2"], ["4-5-5"], []], "board": ["5-5-5@0,0/0"],
                       "pool": ["0-1-3", "0-2-4", "1-2-3", "0-5-5"], "scores": [100, 100, 75],
                       "round": 4, "active": [0, 1], "baseline": [100, 100, 75]},
                      players=3, rounds=3)
    for _ in range(4):
        state.apply(DRAW)
    state.apply_notation("0-5-5@1,0/2")
    assert state.scores == [90, 100, 75]
    events = state.apply_notation("4-5-5@0,1/1")
    assert scored(events) == ["Tile 4-5-5 +14", "Going out +25", "Opponents' tiles +19",
                              "Tiebreaker floor +10"]
    floor = next(e for e in events if e.label.startswith("Tiebreaker floor"))
    assert floor.player == 0 and floor.kind == "score" and floor.data["restored"] == 100
    assert state.scores == [100, 158, 75] and state.is_terminal()
    assert state.result().ranks == (2, 1, 3)


def test_a_tie_that_persists_is_played_again_by_the_still_tied_seats() -> None:
    setup = {"hands": [["0-0-0"], ["4-5-5"], ["0-0-1"]], "board": ["5-5-5@0,0/0"],
             "scores": [140, 100, 100], "round": 4, "active": [0, 1, 2],
             "baseline": [100, 100, 100], "current": 1}
    state = new_state(setup, players=3, rounds=3)
    state.apply_notation("4-5-5@1,0/2")  # 100 + 14 + 25 + 1 = 140
    assert state.scores == [140, 140, 100]
    assert state.round == 5 and state.active == (0, 1) and state.baseline == (140, 140, 100)
    assert not state.is_terminal() and state.hands[2] == {}
    capped = new_state(setup, players=3, rounds=3, max_tiebreakers=1)
    events = capped.apply_notation("4-5-5@1,0/2")
    assert capped.is_terminal() and events[-1].label == "Game over: Seat 0, Seat 1 tie"
    assert capped.result().ranks == (1, 1, 3)


# --- saving --------------------------------------------------------------------------------------
def test_a_saved_game_resumes_exactly() -> None:
    game = TrinityGame(3, {"rounds": 2})
    state = game.new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        state.apply(rng.choice(state.legal_action_list()))
    saved = state.save()
    resumed = game.load(saved)
    assert resumed.observation(None).to_json() == state.observation(None).to_json()
    for seat in range(3):
        assert resumed.observation(seat).to_json() == state.observation(seat).to_json()
        assert resumed.hand(seat) == state.hand(seat)
    assert resumed.pool[resumed.pool_pos:] == state.pool[state.pool_pos:]
    before = snapshot(state)
    while not state.is_terminal():  # the same actions give the same game, next round too
        action = rng.choice(state.legal_action_list())
        assert scored(state.apply(action)) == scored(resumed.apply(action))
        assert resumed.observation(0).to_json() == state.observation(0).to_json()
    assert resumed.result() == state.result() and before != snapshot(state)
