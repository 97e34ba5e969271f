"""Trident's rules, each from a concrete position: the seed's and the rulebook's worked
examples, jokers, BIS, the opening squares, exchanges, the ends of the game, time-outs."""

from __future__ import annotations

import json

import pytest
from trident_helpers import position

from triverse.core.errors import GameOverError, IllegalActionError, NotationError, RecordError
from triverse.core.events import Event
from triverse.games.trident.engine import (
    NUM_ACTION_IDS,
    TridentGame,
    TridentObservation,
    complete_setup,
)
from triverse.games.trident.tiles import (
    JOKER,
    PASS,
    TIMEOUT,
    Exchange,
    Play,
    TimeOut,
    parse_action,
)

BOTH = ("seed", "triolet")


def points(events: list[Event], seat: int = 0) -> int:
    return sum(e.points for e in events if e.player == seat)


def score_of(board: list[str], rack: list[int | str], play: str, variant: str) -> int:
    state = position(board, [rack, [0]], variant=variant)
    preview = state.preview(play)
    assert preview.reason is None, preview.reason
    events = state.apply_notation(play)
    assert points(events) == preview.points == state.scores[0]
    return preview.points


# --- the seed's worked examples ---------------------------------------------------------------
@pytest.mark.parametrize("variant", BOTH)
def test_seed_example_two_next_to_four_scores_six(variant: str) -> None:
    assert score_of(["7:7=4"], [2, 0, 0], "7:8=2", variant) == 6


@pytest.mark.parametrize("variant", BOTH)
def test_seed_example_seven_and_eight_across_seven_above_two_scores_24(variant: str) -> None:
    state = position(["7:7=2"], [[7, 8, 0], [0]], variant=variant)
    events = state.apply_notation("6:7=7,6:8=8")
    assert [(e.label, e.points) for e in events if e.kind == "score"] == [
        ("Pair 7+8 = 15", 15), ("Pair 7+2 = 9", 9)]
    assert state.scores[0] == 24


@pytest.mark.parametrize("variant", BOTH)
def test_seed_example_trio_nine_added_to_two_and_four_scores_30(variant: str) -> None:
    assert score_of(["7:7=2", "7:8=4"], [9, 0, 0], "7:9=9", variant) == 30


# --- the rulebook's worked examples (multipliers) -------------------------------------------
@pytest.mark.parametrize("variant", BOTH)
def test_eleven_on_the_star_next_to_a_three_scores_25(variant: str) -> None:
    assert score_of([], [11, 3, 0], "7:7=11,7:8=3", variant) == 25


@pytest.mark.parametrize("variant", BOTH)
def test_six_doubled_plus_seven_scores_19(variant: str) -> None:
    assert score_of(["7:4=7"], [6, 0, 0], "7:3=6", variant) == 19


@pytest.mark.parametrize(("variant", "expected"), [("seed", 39), ("triolet", 60)])
def test_trio_completed_on_a_double(variant: str, expected: int) -> None:
    # seed: the double multiplies the 9 (18 + 2 + 4 + 15); Triolet: the Trio (30 x 2)
    assert score_of(["7:4=2", "7:5=4"], [9, 0, 0], "7:3=9", variant) == expected


@pytest.mark.parametrize(("variant", "expected"), [("seed", 48), ("triolet", 90)])
def test_trio_completed_on_a_triple(variant: str, expected: int) -> None:
    assert score_of(["4:2=2", "4:3=4"], [9, 0, 0], "4:1=9", variant) == expected


@pytest.mark.parametrize("variant", BOTH)
def test_tile_forming_two_pairs_is_multiplied_in_one_of_them_only(variant: str) -> None:
    # (11 x 2 + 1) + (11 + 3) = 37, not (22 + 1) + (22 + 3)
    state = position(["4:3=1", "5:4=3"], [[11, 0, 0], [0]], variant=variant)
    events = state.apply_notation("4:4=11")
    labels = [e.label for e in events if e.kind == "score"]
    assert labels == ["Pair 1+11×2 = 23", "Pair 11+3 = 14"]
    assert state.scores[0] == 37


@pytest.mark.parametrize(("variant", "expected"), [("seed", 53), ("triolet", 74)])
def test_trio_and_pair_from_one_tile_on_a_double(variant: str, expected: int) -> None:
    # Triolet: the Trio doubled, 60, and the pair 9 + 5 = 14: 74
    assert score_of(["4:2=2", "4:3=4", "5:4=5"], [9, 0, 0], "4:4=9", variant) == expected


@pytest.mark.parametrize(("variant", "expected"), [("seed", 69), ("triolet", 90)])
def test_two_trios_from_one_tile_on_a_double(variant: str, expected: int) -> None:
    # Triolet: one Trio doubled (60) and the other not (30): 90
    board = ["4:2=2", "4:3=4", "5:4=5", "6:4=1"]
    assert score_of(board, [9, 0, 0], "4:4=9", variant) == expected


def test_the_multiplier_goes_to_the_line_that_gains_most() -> None:
    # 9 on a double completes a Trio down and a pair across: the Trio gains 30, the pair 9
    state = position(["5:4=2", "6:4=4", "4:5=5"], [[9, 0, 0], [0]], variant="triolet")
    preview = state.preview("4:4=9")
    assert [(i.kind, i.multiplier) for i in preview.items] == [("pair", 1), ("trio", 2)]
    assert preview.points == 14 + 60


def test_a_used_premium_square_multiplies_no_more() -> None:
    state = position(["7:3=6", "7:4=7"], [[2, 0, 0], [0]])
    assert state.preview("8:3=2").points == 8


def test_lone_opening_tile_scores_its_value_doubled_by_the_star() -> None:
    state = position([], [[7, 0, 0], [0]])
    events = state.apply_notation("7:7=7")
    assert [e.label for e in events if e.kind == "score"] == ["Tile 7×2 = 14"]
    assert state.scores[0] == 14


# --- Triton / Triolet ----------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "name"), [("seed", "Triton"), ("triolet", "Triolet")])
def test_triton_adds_50_and_multiplies_the_trio(variant: str, name: str) -> None:
    state = position([], [[4, 5, 6], [0]], variant=variant)
    events = state.apply_notation("7:6=4,7:7=5,7:8=6")
    assert [(e.label, e.points) for e in events if e.kind == "score"] == [
        ("Trio 4+5+6 = 15, +15 bonus = 30, ×2 = 60", 60),
        (f"{name}: all three rack tiles in one play +50", 50)]


def test_triton_off_the_premium_squares() -> None:
    # the Trio 30, the Triton 50, and the pair 4 + 0 down column 8
    assert score_of(["8:8=0"], [4, 5, 6], "7:8=4,7:9=5,7:10=6", "seed") == 30 + 50 + 4


def test_triton_with_a_joker_earns_no_50() -> None:
    state = position([], [[4, 5, "*"], [0]])
    events = state.apply_notation("7:6=4,7:7=5,7:8=*6")
    assert [(e.label, e.points) for e in events if e.kind == "score"] == [
        ("Trio 4+5+*6 = 15, +15 bonus = 30, ×2 = 60", 60),
        ("Triton with a joker: no +50 bonus", 0)]


# --- jokers ---------------------------------------------------------------------------------------
def test_joker_scores_nothing_in_a_pair_but_keeps_its_value() -> None:
    state = position(["7:7=3"], [["*", 0, 0], [1, 0, 0]])
    events = state.apply_notation("7:8=*11")
    assert state.scores[0] == 3
    assert [e.label for e in events if e.kind == "score"] == [
        "Pair 3+*11 = 3 (a joker scores nothing in a pair)"]
    # It keeps 11: the row now needs exactly a 1, which scores the full Trio.
    assert state.preview("7:9=0").reason is not None
    events = state.apply_notation("7:9=1")
    assert [e.label for e in events if e.kind == "score"] == ["Trio 3+*11+1 = 15, +15 bonus = 30"]
    assert state.scores[1] == 30


def test_trio_with_a_joker_keeps_its_bonus() -> None:
    assert score_of(["7:7=2", "7:8=4"], ["*", 0, 0], "7:9=*9", "seed") == 30


def test_never_two_jokers_in_one_turn() -> None:
    state = position([], [["*", "*", 5], [0]])
    assert state.illegal_reason(parse_action("7:7=*5,7:8=*5")) == "never two jokers in one turn"
    assert not any(isinstance(a, Play) and sum(p.joker for p in a.tiles) > 1
                   for a in state.legal_actions())


def test_a_joker_is_declared_in_the_notation() -> None:
    with pytest.raises(NotationError, match="a joker is written"):
        parse_action("7:7=*")


# --- placement rules ------------------------------------------------------------------------------
@pytest.mark.parametrize(("board", "rack", "play", "reason"), [
    ([], [5, 0, 0], "7:8=5", "the first play covers the centre star (7:7)"),
    (["7:7=5"], [5, 0, 0], "9:9=5", "a play must touch a tile already on the board"),
    (["7:7=5"], [5, 0, 0], "7:7=5", "square 7:7 already holds a 5"),
    (["7:7=5"], [5, 0, 0], "7:8=6", "you do not have a 6 on your rack (0 0 5)"),
    (["7:7=5"], [5, 4, 0], "7:8=5,7:9=5", "you do not have 2 5s on your rack (0 4 5)"),
    (["7:7=5"], [5, 4, 0], "8:8=5,7:9=4",
     "the tiles of a play go in one row or one column (nothing diagonal)"),
    (["7:7=5"], [5, 4, 0], "7:8=4,7:10=5",
     "the tiles must touch, or be joined by tiles already down: 7:9 between them is empty"),
    (["7:7=9"], [8, 0, 0], "7:8=8",
     "two tiles side by side total 15 or less, not 9 + 8 = 17 (across from 7:7)"),
    (["7:7=9", "7:8=2"], [5, 0, 0], "7:9=5",
     "three tiles side by side total exactly 15, not 9 + 2 + 5 = 16 (across from 7:7)"),
    (["7:7=9", "7:8=2", "7:9=4"], [0, 0, 0], "7:10=0",
     "never more than three tiles side by side (4 in a line) (across from 7:7)"),
    (["7:7=1", "8:8=2"], [3, 0, 0], "7:8=3", None),
])
def test_placement_rules_name_the_problem(board: list[str], rack: list[int], play: str,
                                          reason: str | None) -> None:
    state = position(board, [rack, [0]])
    assert state.illegal_reason(parse_action(play)) == reason
    if reason is not None:
        with pytest.raises(IllegalActionError, match="^" + play.replace("*", r"\*")):
            state.apply_notation(play)


def test_diagonal_neighbours_do_not_make_lines() -> None:
    state = position(["7:7=14", "8:8=13"], [[12, 0, 0], [0]])
    assert state.illegal_reason(parse_action("6:6=0")) == \
        "a play must touch a tile already on the board"
    assert state.illegal_reason(parse_action("8:7=0")) is None


def test_a_play_joined_through_a_tile_on_the_board() -> None:
    state = position(["7:7=5"], [[4, 6, 0], [0]])
    assert state.preview("7:6=4,7:8=6").points == 30


def test_the_first_four_tiles_may_not_form_a_2x2_square() -> None:
    state = position(["7:7=1", "7:8=2", "8:7=3"], [[4, 8, 0], [0]])
    reason = "the first four tiles may not form a 2x2 square"
    assert state.illegal_reason(parse_action("8:8=4")) == reason
    # Past four tiles in one play: either new tile may be the fourth.
    assert state.illegal_reason(parse_action("8:8=4,8:9=8")) == reason
    assert parse_action("8:8=4") not in set(state.legal_actions())
    # Elsewhere the same tile is fine.
    assert state.illegal_reason(parse_action("6:8=4")) is None


def test_the_2x2_rule_ends_with_the_fourth_tile() -> None:
    state = position(["7:7=1", "7:8=2", "8:7=3", "6:7=11"], [[4, 0, 0], [0]])
    assert state.illegal_reason(parse_action("8:8=4")) is None


def test_the_first_nine_tiles_may_not_form_a_3x3_square() -> None:
    # The magic square 2 7 6 / 9 5 1 / 4 3 8: every line totals 15.
    board = ["6:6=2", "6:7=7", "6:8=6", "7:6=9", "7:7=5", "7:8=1", "8:6=4", "8:7=3"]
    state = position(board, [[8, 0, 0], [0]])
    assert state.illegal_reason(parse_action("8:8=8")) == \
        "the first nine tiles may not form a 3x3 square"
    assert not any(isinstance(a, Play) and 8 * 15 + 8 in a.squares
                   for a in state.legal_actions())


# --- BIS ------------------------------------------------------------------------------------------
def test_bis_square_scores_refills_and_plays_again() -> None:
    state = position(["1:2=3"], [[4, 9, 1], [0, 0, 0]], bag=[12, 13])
    events = state.apply_notation("1:1=4")
    assert [e.kind for e in events] == ["place", "score", "draw", "bis"]
    assert state.scores[0] == 7
    assert state.current_player == 0
    assert state.rack(0) == (1, 9, 12)
    assert events[2].secret == {"tiles": ["12"]}
    state.apply_notation("pass")
    assert state.current_player == 1


def test_bis_replay_can_chain() -> None:
    state = position(["1:2=3", "7:1=1"], [[4, 5, 0], [0, 0, 0]])
    state.apply_notation("1:1=4")
    state.apply_notation("7:0=5")
    assert state.current_player == 0


# --- exchanges ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "bag", "allowed"), [
    ("seed", 6, True), ("seed", 5, False), ("triolet", 5, True), ("triolet", 4, False)])
def test_exchange_thresholds(variant: str, bag: int, allowed: bool) -> None:
    state = position(racks=[[15, 14, 13], [12, 12, 11]], variant=variant)
    state.bag = state.bag[-bag:]  # (the other tiles are simply gone: only the count matters)
    reason = state.illegal_reason(parse_action("exchange 15"))
    if allowed:
        assert reason is None
        assert Exchange((15,)) in set(state.legal_actions())
    else:
        rule = "more than five" if variant == "seed" else "at least five"
        assert reason == (f"exchanges are allowed only while {rule} tiles are in the bag; it "
                          f"holds {bag}")
        assert not any(isinstance(a, Exchange) for a in state.legal_actions())


def test_exchange_reshuffles_and_draws_as_many() -> None:
    state = position([], [[15, 14, 13], [0, 0, 0]])
    before = state.bag_count
    events = state.apply_notation("exchange 13,15")
    assert state.bag_count == before
    assert len(state.rack(0)) == 3 and 14 in state.rack(0)
    assert [e.kind for e in events] == ["exchange", "draw"]
    assert events[0].secret == {"returned": ["13", "15"]}
    assert state.current_player == 1
    again = position([], [[15, 14, 13], [0, 0, 0]])
    again.apply_notation("exchange 13,15")
    assert again.rack(0) == state.rack(0) and again.bag == state.bag


def test_exchange_needs_the_tiles() -> None:
    state = position([], [[15, 14, 13], [0]])
    assert state.illegal_reason(Exchange((12,))) == "you do not have a 12 on your rack (13 14 15)"
    assert state.illegal_reason(Exchange(())) == "an exchange returns 1, 2 or 3 tiles, not 0"


def test_distinct_exchanges_only() -> None:
    state = position([], [[5, 5, "*"], [0]])
    exchanges = [str(a) for a in state.legal_actions() if isinstance(a, Exchange)]
    assert exchanges == ["exchange 5", "exchange *", "exchange 5,5", "exchange 5,*",
                         "exchange 5,5,*"]


# --- the end --------------------------------------------------------------------------------------
def _crowded_setup(racks: list[list[int | str]]) -> dict[str, object]:
    """Racks, an empty bag, and every other tile alone on the board: on the squares of one
    colour of a checkerboard, from the top row down (so no two touch)."""
    from collections import Counter

    from triverse.games.trident.tiles import FULL_COUNTS, KINDS

    named: Counter[int] = Counter(JOKER if t == "*" else int(t) for r in racks for t in r)
    rest = [kind for kind in KINDS for _ in range(FULL_COUNTS[kind] - named[kind])]
    squares = [(r, c) for r in range(15) for c in range(15) if (r + c) % 2 == 0]
    board = [f"{r}:{c}={'*0' if t == JOKER else t}"
             for (r, c), t in zip(squares, rest, strict=False)]
    return {"racks": racks, "bag": [], "board": board}


def test_placing_the_last_tile_with_the_bag_empty_ends_the_game() -> None:
    state = TridentGame(3).new_initial_state(seed=1, setup=_crowded_setup(
        [[1], [5, "*", 7], [15, 2]]))
    play = next(a for a in state.legal_actions() if isinstance(a, Play))
    events = state.apply(play)
    assert state.is_terminal() and state.current_player is None
    end = [e for e in events if e.label.startswith("Tiles left")]
    # 5 + 0 (a joker) + 7 + 15 + 2
    assert [(e.player, e.points, e.label) for e in end] == [
        (0, 29, "Tiles left on the other racks +29")]
    over = events[-1]
    assert over.kind == "game_over" and over.data["reason"] == "out"
    assert over.data["ranks"] == list(state.result().ranks)
    assert list(state.legal_actions()) == []
    with pytest.raises(GameOverError):
        state.apply(PASS)


def test_the_last_tile_on_a_bis_square_still_ends_the_game() -> None:
    state = position(["13:12=3"], [[1], [5, 7]])
    state.bag = []  # (the other tiles are simply gone)
    events = state.apply_notation("13:13=1")
    assert state.is_terminal() and events[-1].data["reason"] == "out"
    assert not any(e.kind == "bis" for e in events)
    assert state.scores == [4 + 12, 0]


def test_everybody_passing_in_turn_ends_the_game_and_racks_count_against() -> None:
    state = position(["7:7=5"], [[15, 14, "*"], [1, 2, 3]])
    state.apply(PASS)
    assert not state.is_terminal()
    events = state.apply(PASS)
    assert state.is_terminal()
    assert state.scores == [-29, -6]
    assert [e.label for e in events if e.points] == ["Tiles left on the rack -29",
                                                      "Tiles left on the rack -6"]
    assert events[-1].data["reason"] == "passes"
    assert state.result().ranks == (2, 1)


def test_a_play_or_an_exchange_breaks_the_run_of_passes() -> None:
    state = position(["7:7=5"], [[15, 14, 13], [1, 2, 3], [4, 5, 6]])
    state.apply(PASS)
    state.apply(PASS)
    state.apply_notation("exchange 4")
    state.apply(PASS)
    state.apply(PASS)
    assert not state.is_terminal()
    state.apply(PASS)
    assert state.is_terminal()


def test_three_rounds_without_a_tile_placed_end_the_game() -> None:
    state = position(["7:7=5"], [[15, 14, 13], [12, 12, 11]])
    limit = state.game.stall_limit
    assert limit == 6
    for turn in range(limit):  # noqa: B007
        assert not state.is_terminal()
        seat = state.current_player
        assert seat is not None
        events = state.apply(Exchange((state.rack(seat)[0],)))
    assert state.is_terminal() and events[-1].data["reason"] == "stalled"
    assert turn == limit - 1


def test_bag_count_is_announced_from_ten_tiles() -> None:
    state = position(["7:7=5"], [[1, 2, 3], [0, 0, 0]], bag=list(range(4, 15)))
    # complete_setup puts the named bag first; keep only the 11 named tiles in the bag
    state.bag = state.bag[-11:]
    events = state.apply_notation("7:8=1")
    bag_events = [e for e in events if e.kind == "bag"]
    assert [(e.label, e.data) for e in bag_events] == [("10 tiles left in the bag",
                                                        {"count": 10})]
    assert state.observation(None).to_json()["bag_announced"] is True


# --- time limits ----------------------------------------------------------------------------------
def test_time_out_misses_the_turn_and_is_recorded() -> None:
    state = position(["7:7=5"], [[1, 2, 3], [4, 5, 6]], time_limit=3600)
    events = state.time_out()
    assert [e.kind for e in events] == ["timeout"]
    assert state.current_player == 1
    assert state.history == [TIMEOUT] and str(state.history[0]) == "timeout"
    assert TIMEOUT not in set(state.legal_actions())
    # time-outs count as passes for the end of the game
    state.time_out()
    assert state.is_terminal()
    with pytest.raises(GameOverError):
        state.time_out()


def test_no_time_out_without_a_time_limit() -> None:
    state = position(["7:7=5"], [[1, 2, 3], [4, 5, 6]])
    with pytest.raises(IllegalActionError, match="no time limit"):
        state.time_out()
    assert state.history == []
    assert isinstance(parse_action("timeout"), TimeOut)


def test_time_limit_option_bounds() -> None:
    from triverse.core.errors import OptionError

    assert TridentGame(2, {"time_limit": 86400}).time_limit == 86400
    with pytest.raises(OptionError):
        TridentGame(2, {"time_limit": 86401})
    assert TridentGame(2).time_limit == 0


# --- setup, notation, ids, views ------------------------------------------------------------------
def test_turn_order_is_drawn_from_the_seed() -> None:
    orders = {TridentGame(4).new_initial_state(seed=s).order for s in range(20)}
    assert len(orders) > 5
    state = TridentGame(4).new_initial_state(seed=3)
    assert state.current_player == state.order[0]
    assert state.order == TridentGame(4).new_initial_state(seed=3).order


def test_triolet_variant_sets_three_unseen_tiles_aside() -> None:
    state = TridentGame(2, {"variant": "triolet"}).new_initial_state(seed=4)
    assert len(state.aside) == 3 and state.bag_count == 83 - 3 - 6
    obs = state.observation(0).to_json()
    assert obs["aside_count"] == 3
    assert TridentGame(2).new_initial_state(seed=4).bag_count == 77


@pytest.mark.parametrize(("change", "message"), [
    ({"racks": [[1, 2, 3]]}, r"^setup\.racks: expected a list of 2 racks, one per seat, got a "
                             r"list of 1$"),
    ({"racks": [[1, 2, 3, 4], [5]]}, r"^setup\.racks\[0\]: expected a rack of 1 to 3 tiles, got "
                                     r"a list of 4$"),
    ({"racks": [["x"], [5]]}, r"^setup\.racks\[0\]\[0\]: expected a tile \(0 to 15, or '\*' for "
                              r"a joker\), got 'x'$"),
    ({"bag": [0]}, r"the setup has 1 tile of value 0 \(racks, bag, aside and board "
                   r"together\); Trident has 9"),
    ({"bag": ["*"]}, "the setup has 0 tiles of value 0"),
    ({"bag": [16]}, r"^setup\.bag\[0\]: expected a tile \(0 to 15, or '\*' for a joker\), got "
                    r"16$"),
    ({"board": ["7:7=9", "7:8=9"]}, r"^setup\.board: its lines break the rules: .*two tiles side "
                                    r"by side total 15 or less"),
    ({"board": ["7:7=9", "7:7=1"]}, r"^setup\.board\[1\]: square 7:7 is named twice$"),
    ({"board": ["77=9"]}, r"^setup\.board\[0\]: expected a tile on a square like '7:7=5' or "
                          r"'7:8=\*3', got '77=9'$"),
    ({"board": ["7:7=99"]}, r"^setup\.board\[0\]: .*got '7:7=99' \(a tile's value is 0 to 15, "
                            r"not 99\)$"),
    ({"aside": [1, 2, 3]}, r"^setup\.aside: expected a list of 0 tiles \(the seed rules set 0 "
                           r"aside\), got a list of 3$"),
    ({"order": [0, 0]}, r"^setup\.order\[1\]: expected the seats 0 to 1, each once, in their "
                        r"order of play, got 0 twice$"),
    ({"turn": 2}, r"^setup\.turn: expected a whole number from 0 to 1, got 2$"),
    ({"colour": "red"}, r"^setup\.colour: unknown key; setup has the keys racks, bag, aside, "),
])
def test_bad_setups_name_the_problem(change: dict[str, object], message: str) -> None:
    setup = complete_setup({"racks": [[1, 2, 3], [4, 5, 6]]}) | change
    with pytest.raises(RecordError, match=message):
        TridentGame(2).new_initial_state(seed=1, setup=setup)


def test_a_triolet_setup_names_the_tiles_set_aside() -> None:
    with pytest.raises(RecordError, match=r"^setup\.aside: missing; the triolet rules set 3 "
                                          r"tiles aside$"):
        TridentGame(2, {"variant": "triolet"}).new_initial_state(
            seed=1, setup={"racks": [[1], [2]], "bag": []})


def test_setup_round_trips() -> None:
    setup = complete_setup({"racks": [[1, 2, 3], [4, 5, "*"]], "board": ["7:7=5", "7:8=*3"],
                            "scores": [10, 20], "order": [1, 0]})
    state = TridentGame(2).new_initial_state(seed=1, setup=setup)
    assert state.setup() == setup
    assert state.current_player == 1 and state.scores == [10, 20]
    again = TridentGame(2).new_initial_state(seed=1, setup=state.setup())
    assert again.board == state.board and again.racks == state.racks


@pytest.mark.parametrize("text", ["7:7=5", "7:7=5,7:8=*10,7:9=0", "exchange 3,5,*", "pass",
                                  "timeout", "14:0=15"])
def test_notation_round_trips(text: str) -> None:
    assert str(parse_action(text)) == text
    assert parse_action(str(parse_action(text))) == parse_action(text)


@pytest.mark.parametrize(("text", "message"), [
    ("7:7=16", "a tile's value is 0 to 15, not 16"),
    ("15:7=1", "row 15 is off the board"),
    ("7:15=1", "column 15 is off the board"),
    ("7:7=1,7:7=2", "square 7:7 is named twice"),
    ("7-7=1", "is not a tile placement like 7:8=5"),
    ("exchange", "name the tiles to exchange"),
    ("exchange 3,x", "'x' is not a tile"),
    ("", "an empty action"),
])
def test_bad_notation_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action(text)


def test_action_ids_round_trip_on_every_legal_action() -> None:
    for rack in ([5, 5, "*"], [1, 2, 3], ["*", "*", 7]):
        state = position(["7:7=5", "7:8=3"], [rack, [0]])
        ids = set()
        for action in state.legal_actions():
            action_id = state.encode_action(action)
            assert 0 <= action_id < NUM_ACTION_IDS
            assert state.decode_action(action_id) == action
            ids.add(action_id)
        assert len(ids) == len(list(state.legal_actions()))
    with pytest.raises(IllegalActionError):
        state.decode_action(NUM_ACTION_IDS)
    with pytest.raises(IllegalActionError):
        state.decode_action(1)  # square 0, a single tile with a joker value but no joker


def test_observation_shows_only_the_own_rack() -> None:
    state = position(["7:7=5"], [[1, 2, 3], [13, 14, 15]])
    mine = state.observation(0)
    assert isinstance(mine, TridentObservation)
    assert mine.rack == (1, 2, 3) and mine.rack_counts == (3, 3)
    assert state.observation(None).rack is None
    data = mine.to_json()
    assert data["rack"] == ["1", "2", "3"] and data["rack_counts"] == [3, 3]
    assert "15" not in json.dumps(data)
    assert len(mine.to_tensor()) == TridentGame(2).tensor_size


def test_render_text_marks_the_premium_squares() -> None:
    state = position(["7:7=5", "7:8=*3"], [[1, 2, 3], [4, 5, 6]])
    text = state.game.render_text(state.observation(0))
    lines = text.splitlines()
    assert lines[0].split() == [str(c) for c in range(15)]
    assert lines[1 + 7].split() == ["7", "B", ".", ".", "x2", ".", ".", ".", "5", "*3", ".",
                                    ".", "x2", ".", ".", "B"]
    assert lines[1 + 1].split()[5] == "x3"
    assert "Your rack: 1 2 3" in text
    assert state.game.describe_action(parse_action("7:9=*0")) == "play a joker as 0 at 7:9"
    assert state.game.describe_action(TIMEOUT) == "time out (the turn is missed)"


def test_preview_explains_or_refuses() -> None:
    state = position(["7:4=2", "7:5=4"], [[9, 1, 0], [0]], variant="triolet")
    preview = state.preview("7:3=9")
    assert preview.legal and preview.points == 60 and not preview.bis
    assert preview.to_json()["items"][0]["multiplier"] == 2
    assert preview.to_json()["items"][0]["premium_square"] == [7, 3]
    assert state.preview("7:3=1").reason == (
        "three tiles side by side total exactly 15, not 1 + 2 + 4 = 7 (across from 7:3)")
    assert state.preview("7:3").reason is not None
    assert state.preview("pass").reason == "only a play of tiles has a preview"
    assert state.history == [] and state.scores == [0, 0]
