"""Trivinity's rules, each from a concrete position (docs/rules/trivinity.md)."""

from __future__ import annotations

import json

import pytest
from trivinity_helpers import act, hand, keys, kinds, position, setup_json, slot, zones

from triverse.core.errors import IllegalActionError, NotationError, RecordError
from triverse.core.events import score_totals
from triverse.games.trivinity.engine import (
    TrivinityAction,
    TrivinityGame,
    parse_action,
)

P5 = ["power"] * 4 + ["mana"]


# --- set-up ---------------------------------------------------------------------------------
def test_opening_deal_rows_by_tier_and_limbo_remainder() -> None:
    game = TrivinityGame(2, {"module_1": "heroes", "module_2": "zodiac"})
    state = game.new_initial_state(seed=11)
    # tier 1: core 12 + heroes 7 + zodiac 6 = 25 -> 8 a stack, 1 to Limbo
    # tier 2: 9 + 6 + 5 = 20 -> 6 a stack, 2 to Limbo; tier 3: 6 + 3 + 3 = 12 -> 4 a stack
    assert [len(s) for s in state.stacks] == [8, 8, 8, 6, 6, 6, 4, 4, 4]
    assert len(state.limbo_down) == 3 and not state.limbo_up
    for s, stack in enumerate(state.stacks):
        assert all(state.card(c).tier == s // 3 + 1 for c in stack)
    for q in range(2):
        assert len(state.hands[q]) == 5 and len(state.decks[q]) == 7
        assert sorted(keys(state, state.hands[q] + state.decks[q])) == sorted(
            ["power"] * 4 + ["mana"] * 4 + ["tribute"] * 4)
    view = state.observation(0)
    assert all(v.top >= 0 and v.face_down == v.count - 1 for v in view.stacks)
    assert view.limbo_down == 3
    assert sorted(state.order) == [0, 1] and state.current_player == state.order[0]
    assert sorted(zones(state)) == list(game.table.in_play(("heroes", "zodiac"), 2))


def test_random_modules_are_distinct_and_follow_the_seed() -> None:
    game = TrivinityGame(4, {"module_2": "world"})
    for seed in range(20):
        modules = game.choose_modules(seed)
        assert modules[1] == "world" and len(set(modules)) == 4
        assert modules == game.choose_modules(seed)
    assert len({TrivinityGame(2).choose_modules(seed) for seed in range(30)}) > 5


def test_turn_order_is_random() -> None:
    firsts = {TrivinityGame(3).new_initial_state(seed=seed).order[0] for seed in range(30)}
    assert firsts == {0, 1, 2}


def test_two_seats_choosing_the_same_module_add_it_once() -> None:
    game = TrivinityGame(2, {"module_1": "world", "module_2": "world"})
    state = game.new_initial_state(seed=2)
    assert state.modules == ("world", "world")
    assert sum(len(s) for s in state.stacks) + len(state.limbo_down) == 27 + 15


# --- discarding -----------------------------------------------------------------------------
def test_discard_all_gains_any_face_up_tier1_card_free() -> None:
    state = position(hands={0: P5}, stacks={1: ["spark-of-creation", "acolyte"],
                                            2: ["oracle"], 4: ["divine-forge"]})
    events = act(state, "discard-all")
    assert "discard_all" in kinds(events)
    assert state.current_player == 0 and state.pending is not None
    assert [str(a) for a in state.legal_actions()] == ["stack 1", "stack 2", "stack 3", "pass"]
    with pytest.raises(IllegalActionError, match="the free card is a tier-1 card"):
        state.parse_action("stack 4")
    act(state, "stack 1")
    assert keys(state, state.discards[0])[-1] == "spark-of-creation"
    assert state.pool == [0, 0, 0] and state.free_used
    assert keys(state, [state.stacks[0][-1]]) == ["acolyte"]
    assert [str(a) for a in state.legal_actions()] == ["end"]


def test_discarding_card_by_card_also_earns_the_free_card() -> None:
    state = position(hands={0: ["power", "mana"]})
    act(state, "discard 1")
    assert state.pending is None
    act(state, "discard 1")
    assert state.pending is not None and state.pending.kind == "free"
    act(state, "pass")
    assert state.pending is None and state.free_used


def test_no_free_card_after_resolving_a_card() -> None:
    state = position(hands={0: ["power", "mana"]})
    act(state, "play 1", "discard 1")
    assert state.pending is None and not state.hands[0]


# --- until your next turn ---------------------------------------------------------------------
def test_until_your_next_turn_grants_its_worth_only_next_turn() -> None:
    state = position(modules=("world", "heroes"), hands={0: ["granary", "power"]})
    act(state, f"play {slot(state, 'granary')}")  # Granary: worth 2 Tribute; gain 1 Tribute
    assert state.pool == [0, 0, 0]
    assert keys(state, state.delayed[0]) == ["granary"]
    assert state.observation(1).delayed[0] == tuple(state.delayed[0])  # public
    act(state, "play 1", "end")
    assert state.current_player == 1
    events = act(state, "end")
    assert state.current_player == 0
    assert "resolve" in kinds(events)
    assert state.pool == [0, 0, 3]
    assert keys(state, state.played[0]) == ["granary"] and not state.delayed[0]


# --- cycle --------------------------------------------------------------------------------------
def test_cycle_puts_the_top_face_up_beneath_the_stack() -> None:
    state = position(modules=("zodiac", "heroes"), hands={0: ["comet"]},
                     stacks={4: ["divine-forge", "wellspring", "grand-temple"]})
    act(state, "play 1")
    assert state.pending is not None and state.pending.kind == "stack"
    events = act(state, "stack 4")
    assert "cycle" in kinds(events)
    assert keys(state, state.stacks[3]) == ["divine-forge", "grand-temple", "wellspring"]
    view = state.observation(1).stacks[3]
    assert keys(state, view.buried) == ["divine-forge"]
    assert keys(state, [view.top]) == ["wellspring"] and view.face_down == 1
    assert state.pool == [0, 2, 0]


def test_cycling_every_card_leaves_all_face_up() -> None:
    state = position(modules=("zodiac", "heroes"), hands={0: ["constellation"]},
                     stacks={4: ["divine-forge", "wellspring"]})
    act(state, "play 1", "stack 4", "stack 4")
    view = state.observation(1).stacks[3]
    assert view.face_down == 0 and keys(state, [view.top]) == ["divine-forge"]
    assert keys(state, view.buried) == ["wellspring"]


# --- the end --------------------------------------------------------------------------------
@pytest.mark.parametrize(("line", "last"), [
    ((1, 2, 3), 2), ((1, 4, 7), 1), ((3, 6, 9), 3), ((1, 5, 9), 1), ((3, 5, 7), 3)])
def test_three_empty_stacks_in_a_line_end_the_game_at_once(line: tuple[int, ...],
                                                           last: int) -> None:
    stacks: dict[int, list[str]] = {s: [] for s in line}
    stacks[last] = ["acolyte"]
    state = position(hands={0: P5}, stacks=stacks)
    act(state, "play 1", "play 1")
    events = act(state, f"buy {last}")
    assert state.is_terminal() and state.current_player is None
    assert state.end_reason == {"reason": "line", "line": list(line)}
    assert kinds(events)[-3:] == ["final_score", "final_score", "game_end"]
    assert not list(state.legal_actions())


def test_three_empty_stacks_not_in_a_line_do_not_end_it() -> None:
    state = position(hands={0: P5}, stacks={1: [], 2: ["acolyte"], 4: [], 6: [], 8: []})
    act(state, "play 1", "play 1", "buy 2")
    assert not state.is_terminal()


def test_final_score_computed_by_hand() -> None:
    state = position(
        hands={0: P5},
        decks={0: ["divine-forge", "throne-of-the-sun", "wellspring", "blessing-of-rain"]},
        stacks={1: ["spark-of-creation"], 2: [], 3: []})
    act(state, "play 1", "play 1", "play 1", "buy 1")
    # Power 4 + 3 + 4 + 2 = 13, Mana 4 + 3 + 2 = 9, Tribute 4: best two 22,
    # plus 2 tier-2 cards and 3 for the tier-3 card: 27. Player 2 has the 12 starting cards: 8.
    assert state.scores == [27, 8]
    assert state.result().winners == (0,)


def test_final_score_events_carry_the_breakdown() -> None:
    state = position(hands={0: P5}, decks={0: ["divine-forge", "throne-of-the-sun"]},
                     stacks={1: ["spark-of-creation"], 2: [], 3: []})
    events = act(state, "play 1", "play 1", "play 1", "buy 1")
    final = {e.player: e for e in events if e.kind == "final_score"}
    assert final[0].points == 13 + 4 + 1 + 3
    assert final[0].data["best_two"] == 17 and final[0].data["best"] == ["power", "mana"]
    assert final[0].data["tier2"] == 1 and final[0].data["tier3"] == 1
    assert final[1].points == 8
    assert score_totals(events, 2) == state.scores


def test_tie_goes_to_the_player_with_fewer_turns() -> None:
    state = position(hands={0: P5}, decks={1: ["spark-of-creation"]},
                     stacks={1: ["spark-of-creation"], 2: [], 3: []})
    act(state, "play 1", "play 1", "play 1", "buy 1")
    assert state.scores == [10, 10]
    assert state.turns == [1, 0]
    assert state.result().ranks == (2, 1)


def test_turn_limit_is_a_safety_end() -> None:
    game = TrivinityGame(2, {"turn_limit": 5})
    state = game.new_initial_state(seed=3)
    while not state.is_terminal():
        state.apply(TrivinityAction("end"))
    assert state.turns == [5, 5]
    assert state.end_reason == {"reason": "turn_limit", "turns": 5}
    assert state.result().is_draw  # 8 each, same turns, no tier-3 cards


def test_full_rounds_variant_finishes_the_round() -> None:
    state = position(hands={0: P5}, stacks={1: ["acolyte"], 2: [], 3: []},
                     options={"variant": "full-rounds"})
    events = act(state, "play 1", "play 1", "buy 1")
    assert not state.is_terminal() and "line" in kinds(events)
    act(state, "end")
    assert state.current_player == 1 and not state.is_terminal()
    act(state, "end")
    assert state.is_terminal() and state.turns == [1, 1]
    assert state.end_reason["line"] == [1, 2, 3]


# --- purchases --------------------------------------------------------------------------------
def test_purchase_pays_typed_parts_then_any_from_the_largest() -> None:
    state = position(hands={0: ["power", "power", "power", "mana", "mana"]},
                     stacks={4: ["divine-forge", "wellspring"]})
    for _ in range(5):
        act(state, "play 1")
    assert state.pool == [3, 2, 0]
    events = act(state, "buy 4")
    assert state.pool == [0, 0, 0]
    assert keys(state, state.discards[0]) == ["divine-forge"]
    assert "buy" in kinds(events) and state.phase == "buy"
    with pytest.raises(IllegalActionError, match="you cannot afford Wellspring: it costs 2 "
                                                 "Mana \\+ 3 any"):
        state.parse_action("buy 4")


def test_typed_costs_must_match() -> None:
    state = position(hands={0: ["mana"] * 4 + ["tribute"]}, stacks={1: ["spark-of-creation"]})
    for _ in range(5):
        act(state, "play 1")
    assert "buy 1" not in [str(a) for a in state.legal_actions()]
    with pytest.raises(IllegalActionError, match="cannot afford Spark of Creation"):
        state.parse_action("buy 1")


def test_no_playing_after_a_purchase_and_several_purchases_allowed() -> None:
    state = position(hands={0: P5}, stacks={1: ["acolyte", "acolyte"], 2: ["oracle"]})
    act(state, "play 1", "play 1", "play 1", "play 1", "buy 1")
    with pytest.raises(IllegalActionError, match="played and discarded before purchases"):
        state.parse_action("play 1")
    act(state, "buy 2")
    assert keys(state, state.discards[0]) == ["acolyte", "oracle"]


def test_end_of_turn_discards_and_draws_five() -> None:
    state = position(hands={0: ["power", "mana"]}, decks={0: ["tribute", "tribute"]},
                     discards={0: ["mana"]})
    assert len(state.decks[0]) == 9  # the two Tributes, then the missing starting cards
    act(state, "play 1", "end")
    assert len(state.hands[0]) == 5 and len(state.decks[0]) == 4
    assert keys(state, state.discards[0]) == ["mana", "mana", "power"]
    assert state.current_player == 1


def test_drawing_shuffles_the_discard_pile_when_the_deck_runs_out() -> None:
    state = position(hands={0: ["power"]}, decks={0: ["mana", "mana"]},
                     discards={0: ["power"] * 3 + ["mana"] * 2 + ["tribute"] * 4})
    events = act(state, "end")
    assert "shuffle" in kinds(events)
    assert len(state.hands[0]) == 5 and len(state.decks[0]) == 7 and not state.discards[0]
# --- the effect vocabulary --------------------------------------------------------------------
def test_draw_is_secret_to_the_drawer() -> None:
    state = position(hands={0: ["acolyte"]}, decks={0: ["mana"]})
    events = act(state, "play 1")
    draw = next(e for e in events if e.kind == "draw")
    assert draw.secret is not None and draw.view(1).secret is None
    assert hand(state) == ["mana"]
    assert state.pool == [0, 0, 1]


def test_gain_and_mill_attack() -> None:
    state = position(modules=("scoundrels", "world"), hands={0: ["saboteur"]},
                     decks={1: ["mana"]})
    events = act(state, "play 1")
    assert state.pool == [1, 0, 1]
    assert "mill" in kinds(events)
    assert keys(state, state.discards[1]) == ["mana"]


def test_gain_choice_and_exile() -> None:
    state = position(modules=("elements", "world"), hands={0: ["gust"]})
    act(state, "play 1")
    assert state.pending is not None and state.pending.kind == "resource"
    assert [str(a) for a in state.legal_actions()] == [
        "resource power", "resource mana", "resource tribute"]
    act(state, "resource tribute")
    assert state.pool == [0, 1, 2]
    assert keys(state, state.limbo_up) == ["gust"] and not state.played[0]
    assert state.totals[0][1] == 4  # Gust's worth left with it


def test_gain_per_played_card_is_capped() -> None:
    state = position(hands={0: ["power", "power", "mana", "eager-recruit"]})
    act(state, "play 1", "play 1", "play 1")
    act(state, f"play {slot(state, 'eager-recruit')}")
    assert state.pool == [2 + 1 + 2, 1, 0]  # two Power, its own 1, +2 (three played, cap 2)


def test_gain_per_empty_stack() -> None:
    state = position(modules=("disasters", "world"), hands={0: ["ash-cloud"]},
                     stacks={1: [], 5: []})
    act(state, "play 1")
    assert state.pool == [0, 2 + 2, 0]  # Ash Cloud's worth 2, +1 Mana an empty stack


def test_surge_discards_from_the_deck_and_gains_its_worth() -> None:
    state = position(modules=("elements", "world"), hands={0: ["ember"]},
                     decks={0: ["mana", "power"]})
    events = act(state, "play 1")
    assert state.pool == [2, 1, 0]  # Ember's worth 2 Power, and the surged Mana
    assert keys(state, state.discards[0]) == ["mana"]
    assert "surge" in kinds(events)


def test_peek_is_private_and_remembered() -> None:
    state = position(hands={0: ["oracle"]},
                     stacks={4: ["divine-forge", "wellspring", "grand-temple", "prophet"]})
    act(state, "play 1")
    events = act(state, "stack 4")
    peek = next(e for e in events if e.kind == "peek")
    assert peek.secret is not None and keys(state, peek.secret["cards"]) == [
        "wellspring", "grand-temple"]
    assert peek.view(1).secret is None
    mine = state.observation(0).stacks[3].known
    assert [(d, state.card(c).key) for d, c in mine] == [(2, "grand-temple"), (1, "wellspring")]
    assert state.observation(1).stacks[3].known == ()
    act(state, "pass")  # the optional cycle
    assert state.pending is None


def test_limbo_sends_a_stack_top_away() -> None:
    state = position(modules=("disasters", "world"), hands={0: ["tremor"]},
                     stacks={1: ["acolyte", "oracle"], 4: ["divine-forge"]})
    act(state, "play 1")
    with pytest.raises(IllegalActionError, match="stack 4 is not a target"):
        state.parse_action("stack 4")
    act(state, "stack 1")
    assert keys(state, state.limbo_up) == ["acolyte"]
    assert keys(state, state.stacks[0]) == ["oracle"]


def test_take_gains_a_top_card_costing_at_most() -> None:
    state = position(hands={0: ["envoy-of-the-gods"]}, stacks={2: ["oracle"]})
    act(state, "play 1", "stack 2")
    assert keys(state, state.discards[0]) == ["oracle"]
    assert state.totals[0][1] == 4 + 1 + 1


def test_take_from_the_bottom_and_raise() -> None:
    state = position(modules=("zodiac", "world"), hands={0: ["sibyl-of-the-spheres", "mason"]},
                     stacks={4: (["divine-forge", "wellspring", "grand-temple"], 1),
                             5: (["prophet", "crossroads", "envoy-of-the-gods"], 1)})
    act(state, f"play {slot(state, 'sibyl-of-the-spheres')}")
    assert [str(a) for a in state.legal_actions()][:2] == ["stack 4", "stack 5"]
    act(state, "stack 4")  # Grand Temple was buried at the bottom of stack 4
    assert keys(state, state.discards[0]) == ["grand-temple"]
    assert state.buried[3] == 0
    act(state, "play 1", "stack 5")  # Mason raises the buried Envoy to the top of stack 5
    assert keys(state, [state.stacks[4][-1]]) == ["envoy-of-the-gods"]
    assert state.buried[4] == 0
    act(state, "pass")


def test_trash_and_refund() -> None:
    state = position(modules=("servants", "world"), hands={0: ["penitent", "mana", "power"]})
    act(state, f"play {slot(state, 'penitent')}")
    assert state.pending is not None and state.pending.kind == "card"
    act(state, f"card {slot(state, 'mana')}")
    assert keys(state, state.limbo_up) == ["mana"]
    assert state.pool == [0, 1, 1] and state.totals[0][:3] == [4, 3, 5]  # Penitent: 1 T


def test_revive_gains_from_limbo() -> None:
    state = position(modules=("servants", "world"),
                     hands={0: ["wayside-shrine", "psychopomp", "acolyte"]})
    act(state, f"play {slot(state, 'wayside-shrine')}", f"card {slot(state, 'acolyte')}")
    # Tribute: 4 starting cards, Wayside Shrine 2, Psychopomp 1 (Acolyte's 1 is gone)
    assert keys(state, state.limbo_up) == ["acolyte"] and state.totals[0][2] == 7
    act(state, "play 1")
    assert [str(a) for a in state.legal_actions()] == ["limbo 1"]
    act(state, "limbo 1")
    assert keys(state, state.discards[0]) == ["acolyte"] and not state.limbo_up
    assert state.totals[0][2] == 8


def test_discount_reduces_the_any_part() -> None:
    state = position(modules=("world", "heroes"), hands={0: ["market-square", "power"]},
                     stacks={1: ["harvest-offering"], 4: ["divine-forge"]})
    act(state, "play 1", "play 1")
    assert state.pool == [1, 0, 1] and state.discount == 2
    act(state, "buy 1")  # 1 Tribute + 2 any: the discount pays the any part
    assert state.pool == [1, 0, 0] and state.discount == 0


def test_attack_discard_is_decided_by_the_victim() -> None:
    state = position(modules=("scoundrels", "world"), hands={0: ["cutpurse"], 1: P5})
    act(state, "play 1")
    assert state.current_player == 1
    assert state.pending is not None and state.pending.kind == "card"
    act(state, "card 3")
    assert state.current_player == 0 and len(state.hands[1]) == 4
    assert keys(state, state.discards[1]) == ["power"]


def test_attack_banish_and_steal() -> None:
    state = position(modules=("scoundrels", "world"), hands={0: ["extortionist", "pickpocket"]},
                     decks={1: ["power", "divine-forge"]}, discards={1: ["acolyte"]})
    act(state, f"play {slot(state, 'extortionist')}")
    # The top card of player 2's deck, a starting Power, goes to Limbo: Power 4 + 3 - 1.
    assert keys(state, state.limbo_up) == ["power"] and state.totals[1][0] == 6
    act(state, "play 1")  # the Pickpocket takes the Acolyte on top of the discard pile
    assert keys(state, state.discards[0]) == ["acolyte"] and not state.discards[1]
    assert state.totals[0][2] == 4 + 2 + 1 + 1 and state.totals[1][2] == 4


def test_banish_spares_higher_tiers_and_steal_needs_a_low_tier() -> None:
    state = position(modules=("scoundrels", "world"), hands={0: ["extortionist", "pickpocket"]},
                     decks={1: ["divine-forge"]}, discards={1: ["wellspring"]})
    act(state, f"play {slot(state, 'extortionist')}")
    assert not state.limbo_up
    assert keys(state, state.discards[1]) == ["wellspring", "divine-forge"]
    state.discards[1].reverse()  # the Wellspring (tier 2) on top
    events = act(state, "play 1")
    assert "no_target" in kinds(events) and not state.discards[0]


def test_reaction_blocks_an_attack() -> None:
    state = position(modules=("scoundrels", "heroes"), hands={0: ["cutpurse"],
                                                              1: ["squire", "champion", "mana"]},
                     decks={1: ["tribute"]})
    act(state, "play 1")
    assert state.current_player == 1 and state.pending is not None
    assert state.pending.kind == "block"
    assert [str(a) for a in state.legal_actions()] == ["block 2", "block 3", "pass"]
    champion = slot(state, "champion", 1)
    events = act(state, f"block {champion}")
    assert "block" in kinds(events)
    assert state.current_player == 0 and len(state.hands[1]) == 4  # Champion drew one
    assert not state.discards[1]


def test_declining_to_block_takes_the_attack() -> None:
    state = position(modules=("scoundrels", "heroes"), hands={0: ["cutpurse"],
                                                              1: ["squire", "mana"]})
    act(state, "play 1", "pass")
    assert state.current_player == 1 and state.pending is not None
    assert state.pending.kind == "card"
    act(state, "card 1")
    assert len(state.hands[1]) == 1


def test_a_reaction_in_the_deck_still_asks_so_the_question_reveals_nothing() -> None:
    state = position(modules=("scoundrels", "heroes"), hands={0: ["cutpurse"], 1: ["mana"]},
                     decks={1: ["squire"]})
    act(state, "play 1")
    assert [str(a) for a in state.legal_actions()] == ["pass"]


def test_ward_blocks_attacks_while_the_card_waits() -> None:
    state = position(modules=("scoundrels", "heroes"), order=[1, 0],
                     hands={1: ["shield-bearer"], 0: ["cutpurse"]})
    act(state, "play 1", "end")  # player 2 sets the Shield-Bearer to wait
    events = act(state, "play 1")  # player 1's Cutpurse
    assert any(e.kind == "block" and e.player == 1 for e in events)
    assert state.current_player == 0 and state.pending is None


def test_one_opponent_attack_chooses_a_seat_with_three_players() -> None:
    state = position(modules=("scoundrels", "heroes", "world"), players=3,
                     hands={0: ["pickpocket"]}, discards={1: ["oracle"], 2: ["acolyte"]})
    act(state, "play 1")
    assert state.pending is not None and state.pending.kind == "seat"
    assert [str(a) for a in state.legal_actions()] == ["seat 2", "seat 3"]
    act(state, "seat 3")
    assert keys(state, state.discards[0]) == ["acolyte"]


def test_each_opponent_is_attacked_in_turn_order() -> None:
    state = position(modules=("scoundrels", "heroes", "world"), players=3, order=[0, 2, 1],
                     hands={0: ["cutpurse"], 1: ["mana"], 2: ["tribute"]})
    act(state, "play 1")
    assert state.current_player == 2
    act(state, "card 1")
    assert state.current_player == 1
    act(state, "card 1")
    assert state.current_player == 0


# --- setup, notation, ids -------------------------------------------------------------------
def test_setup_round_trip_and_conservation_errors() -> None:
    game = TrivinityGame(2)
    good = setup_json(game, ("heroes", "zodiac"), hands={0: P5})
    state = game.new_initial_state(seed=1, setup=good)
    assert state.setup() == good and json.dumps(good)
    assert sorted(zones(state)) == list(game.table.in_play(("heroes", "zodiac"), 2))
    bad = json.loads(json.dumps(good))
    bad["limbo"].pop()
    with pytest.raises(RecordError, match="does not place every card: missing"):
        game.new_initial_state(seed=1, setup=bad)
    bad = json.loads(json.dumps(good))
    bad["players"][0]["hand"].append("power")
    with pytest.raises(RecordError, match="'power' is placed more often than the 8 copies"):
        game.new_initial_state(seed=1, setup=bad)
    bad = json.loads(json.dumps(good))
    bad["limbo"].append("cutpurse")
    with pytest.raises(RecordError, match="'cutpurse' belongs to the scoundrels module"):
        game.new_initial_state(seed=1, setup=bad)
    bad = json.loads(json.dumps(good))
    bad["stacks"][0], bad["stacks"][3] = bad["stacks"][3], bad["stacks"][0]
    with pytest.raises(RecordError, match="stack 1 holds tier 1"):
        game.new_initial_state(seed=1, setup=bad)
    with pytest.raises(RecordError, match=r"setup\.limbo\[0\]: expected a card key such as "
                                          r"'power' or 'divine-forge', got 'zeus'"):
        game.new_initial_state(seed=1, setup={**good, "limbo": ["zeus"]})
    with pytest.raises(RecordError, match=r"setup\.modules: expected a list of 2 modules"):
        game.new_initial_state(seed=1, setup={**good, "modules": ["heroes"]})
    fixed = TrivinityGame(2, {"module_1": "world"})
    with pytest.raises(RecordError, match=r"setup\.modules\[0\]: .* option module_1 is 'world'"):
        fixed.new_initial_state(seed=1, setup=good)
    with pytest.raises(RecordError, match=r"setup\.hands: unknown key"):
        game.new_initial_state(seed=1, setup={**good, "hands": []})


def test_setup_errors_name_the_path_of_the_bad_part() -> None:
    game = TrivinityGame(2)
    good = setup_json(game, ("heroes", "zodiac"), hands={0: P5})
    with pytest.raises(RecordError, match=r"setup\.order\[1\]: expected the seats 0 to 1, "
                                          r"each once, in turn order, got 1 twice"):
        game.new_initial_state(seed=1, setup={**good, "order": [1, 1]})
    bad = json.loads(json.dumps(good))
    bad["players"][1]["hands"] = []
    with pytest.raises(RecordError, match=r"setup\.players\[1\]\.hands: unknown key"):
        game.new_initial_state(seed=1, setup=bad)
    bad = json.loads(json.dumps(good))
    bad["stacks"][1] = {"cards": bad["stacks"][1], "buried": 7}
    with pytest.raises(RecordError, match=r"setup\.stacks\[1\]\.buried: expected a whole "
                                          r"number from 0 to 2 .*, got 7"):
        game.new_initial_state(seed=1, setup=bad)
    bad = json.loads(json.dumps(good))
    bad["stacks"][4] = 3
    with pytest.raises(RecordError, match=r"setup\.stacks\[4\]: expected a stack"):
        game.new_initial_state(seed=1, setup=bad)
    bad = json.loads(json.dumps(good))
    del bad["stacks"]
    with pytest.raises(RecordError, match=r"setup\.stacks: missing"):
        game.new_initial_state(seed=1, setup=bad)


@pytest.mark.parametrize("text", ["play 1", "discard 12", "discard-all", "buy 9", "end",
                                  "stack 3", "card 2", "seat 4", "resource mana", "limbo 1",
                                  "block 2", "pass"])
def test_notation_round_trip(text: str) -> None:
    assert str(parse_action(text)) == text


@pytest.mark.parametrize(("text", "message"), [
    ("", "an empty action"), ("fly 2", "unknown action 'fly'"), ("play", "play takes a number"),
    ("buy 0", "numbers start at 1"), ("end now", "end takes nothing"),
    ("resource gold", "power, mana and tribute")])
def test_notation_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action(text)


def test_illegal_reasons_are_precise() -> None:
    state = position(hands={0: ["power", "mana"]}, stacks={2: []})
    cases = {
        "play 3": "the hand has slots 1 to 2, not 3",
        "buy 2": "stack 2 is empty",
        "buy 4": "you cannot afford",
        "stack 1": "there is nothing to choose now",
    }
    for text, message in cases.items():
        with pytest.raises(IllegalActionError, match=message):
            state.parse_action(text)
    act(state, "discard 1", "discard 1")
    with pytest.raises(IllegalActionError, match="player 1 is asked to choose"):
        state.parse_action("end")


def test_action_ids_round_trip() -> None:
    game = TrivinityGame(2)
    state = game.new_initial_state(seed=5)
    for action_id in range(game.num_distinct_actions):
        action = state.decode_action(action_id)
        assert state.encode_action(action) == action_id
    with pytest.raises(IllegalActionError):
        state.decode_action(game.num_distinct_actions)


def test_menus_name_the_cards() -> None:
    state = position(hands={0: ["acolyte", "power"]}, stacks={1: ["oracle"]})
    described = [state.describe_action(a) for a in state.legal_actions()]
    assert "play 1: Power" in described and "play 2: Acolyte" in described
    assert "end: end the turn and draw 5" in described
    text = TrivinityGame(2).render_text(state.observation(0))
    assert "Acolyte" in text and "Your hand" in text
