"""The Trident computer players on concrete positions: the fast scoring and applying of plays
(equal to the engine's), the average's and the veteran's rack values (measured by simulation),
the Trio that must be taken, the joker kept, and the veteran's worlds, candidates and endgame."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from triverse import load_game
from triverse.ai.knowledge.trident import (
    NEXT_TURN_POINTS,
    SAME_SQUARES,
    TridentKnowledge,
    apply_play,
    leave_points,
    leave_value,
    play_points,
    rack_points,
)
from triverse.ai.levels import AveragePlayer, VeteranPlayer
from triverse.ai.search import SearchLimits
from triverse.games.trident.engine import TridentState, complete_setup
from triverse.games.trident.tiles import JOKER, TILE_SET, Exchange, Play

EXACT = float("inf")


def position(racks: list[list[Any]], board: list[str], **more: Any) -> TridentState:
    """A two-player position, seat 0 to move, the other tiles in the bag."""
    game = load_game("trident")
    state = game.new_initial_state(seed=1, setup=complete_setup(
        {"racks": racks, "board": board, **more}))
    assert isinstance(state, TridentState)
    return state


def veteran_choice(state: TridentState, worlds: int = 8, seed: int = 1) -> Any:
    seat = state.current_player
    assert seat is not None
    bot = VeteranPlayer(time_budget=EXACT, max_worlds=worlds)
    return bot.choose(state.game, state.observation(seat), random.Random(seed))


def average_game(seed: int, variant: str = "seed") -> list[TridentState]:
    """Every position of a game between average players."""
    game = load_game("trident", variant=variant)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    knowledge = TridentKnowledge()
    out = []
    while not state.is_terminal():
        assert isinstance(state, TridentState)
        out.append(state.clone())
        seat = state.current_player
        assert seat is not None
        state.apply(knowledge.average_move(state, seat, rng))
    return out


@pytest.mark.parametrize("variant", ["seed", "triolet"])
def test_fast_scoring_matches_the_engine_on_every_play(variant: str) -> None:
    checked = 0
    jokers = 0
    for state in average_game(21, variant)[::2]:
        for action in state.legal_action_list():
            if isinstance(action, Play):
                assert play_points(state.board, action.tiles, state.rules.triolet_multipliers) \
                    == state.preview(action).points, action
                checked += 1
                jokers += any(p.joker for p in action.tiles)
    assert checked > 500 and jokers > 0


def test_the_averages_leave_values() -> None:
    assert leave_value([JOKER]) > leave_value([5]) > leave_value([14])
    assert leave_value([5, 6]) > leave_value([5, 5])  # a pair of the same is clumsy
    assert leave_value([7, 8]) > leave_value([7, 9])  # 7 + 8 makes 15 with a 0 drawn


def test_the_veterans_rack_values() -> None:
    # A full rack, in the next turn's points: a Triton in hand, then a joker, then plain tiles;
    # the high tiles and the same tile twice cost points.
    assert rack_points([4, 5, 6]) > rack_points([4, 5, JOKER]) > rack_points([4, 5, 7]) \
        > rack_points([4, 5, 14]) > rack_points([13, 14, 15])
    assert rack_points([4, 5, 8]) > rack_points([4, 4, 8])
    unseen = Counter(TILE_SET)
    # Kept tiles: 7 + 8 makes a Triton with any of the nine 0s drawn, 7 + 9 (16) never.
    assert leave_points([JOKER], unseen) > leave_points([7, 8], unseen) \
        > leave_points([7, 9], unseen) > leave_points([14, 15], unseen)


def test_rack_values_are_measured_by_simulation(
        benchmark_script: Callable[[str], ModuleType]) -> None:
    fitted = benchmark_script("trident_rack_points").measure_rack_points(1500, games=8)
    assert fitted["joker"] > 10 > 0 > fitted["15"]
    assert fitted["triton"] > 40
    assert fitted["duplicate"] < 0


def test_a_trio_is_taken() -> None:
    # 2 and 4 side by side: the 9 makes the Trio 2 + 4 + 9 = 15, 30 points. The average takes it
    # from 9, 12 and 13; the veteran may rather keep the 9 for its next turn and throw back the
    # 12 and 13 (played on by average players to the game's end, 300 deals, neither choice was
    # worth more than the other by one standard error), so it is asked with 9, 0 and 1.
    for level, rack in (("average", [9, 12, 13]), ("veteran", [9, 0, 1])):
        state = position([rack, [0, 1, 3]], ["7:7=2", "7:8=4"])
        if level == "average":
            action = AveragePlayer().choose(state.game, state.observation(0), random.Random(1))
        else:
            action = veteran_choice(state)
        assert isinstance(action, Play), level
        assert play_points(state.board, action.tiles, False) >= 30, (level, action)
        assert any(p.value == 9 and not p.joker for p in action.tiles), (level, action)


def test_the_joker_is_kept_when_a_number_does_as_well() -> None:
    # The Trio 6 + 7 + 2 is 30 points with the 2 or with the joker as 2: keep the joker.
    state = position([[2, 14, "*"], [0, 1, 5]], ["7:7=6", "7:8=7"])
    average = AveragePlayer().choose(state.game, state.observation(0), random.Random(1))
    veteran = veteran_choice(state)
    for action in (average, veteran):
        assert isinstance(action, Play)
        assert play_points(state.board, action.tiles, False) >= 30
        assert not any(p.joker for p in action.tiles), action


def test_worlds_match_the_observation_and_depend_on_the_generator_only() -> None:
    state = average_game(4)[10]
    seat = state.current_player
    assert seat is not None
    observation = state.observation(seat)
    game = state.game
    knowledge = TridentKnowledge()
    first = [knowledge.sample_world(game, observation, random.Random(s), None)
             for s in range(5)]
    fresh = TridentKnowledge()  # no template yet: the same worlds from the same generators
    again = [fresh.sample_world(game, observation, random.Random(s), None) for s in range(5)]
    for one, two in zip(first, again, strict=True):
        assert isinstance(one, TridentState) and isinstance(two, TridentState)
        assert one.observation(seat) == observation
        assert one.racks == two.racks and one.bag == two.bag and one.seed == two.seed
        assert one.cross == state.cross and one.anchors == state.anchors
        assert sorted(one.bag + one.racks[1 - seat]) == sorted(state.bag + state.racks[1 - seat])
    assert len({tuple(w.racks[1 - seat]) + tuple(w.bag) for w in first}) > 1


def test_candidates_are_varied_and_include_an_exchange() -> None:
    state = position([[4, 5, 6], [0, 1, 3]], [])
    knowledge = TridentKnowledge()
    found = knowledge.candidates(state, 0, random.Random(1), 8)
    plays = [a for a, _ in found if isinstance(a, Play)]
    assert len(plays) == 8
    squares = [tuple(sorted(p.squares)) for p in plays]
    assert max(squares.count(s) for s in squares) <= SAME_SQUARES
    assert all(len(p.tiles) == 3 for p in plays[:2])  # the Triton first
    assert any(isinstance(a, Exchange) for a, _ in found)


def test_the_endgame_is_played_out() -> None:
    # With the bag empty the other rack is known: every world is the same, and each move's
    # simulation plays the game to its end, judged by the final lead and the win.
    positions = [s for s in average_game(58) if not s.bag and s.current_player is not None
                 and len(s.legal_action_list()) > 2]
    assert positions
    state = positions[0]
    seat = state.current_player
    assert seat is not None
    knowledge = TridentKnowledge()
    result = knowledge.search(state.game, state.observation(seat), random.Random(3),
                              SearchLimits(EXACT, max_worlds=4))
    assert result.worlds == 4
    for estimate in result.estimates:
        assert len(set(estimate.values)) == 1, estimate
    best = result.estimates[0]
    child = state.clone()
    child.apply(best.action)
    assert best.mean == knowledge.playout(child, seat, random.Random(0))


def test_the_veteran_is_reproducible_and_legal() -> None:
    for state in average_game(9)[4::12]:
        seat = state.current_player
        assert seat is not None
        first = veteran_choice(state, worlds=3, seed=5)
        assert state.is_legal(first)
        assert veteran_choice(state, worlds=3, seed=5) == first


@pytest.mark.parametrize("variant", ["seed", "triolet"])
def test_fast_apply_matches_the_engine(variant: str) -> None:
    checked = ends = 0
    for seed in (31, 32):
        for state in average_game(seed, variant):
            plays = [a for a in state.legal_action_list() if isinstance(a, Play)]
            for play in plays[:: max(1, len(plays) // 6)]:
                engine, fast = state.clone(), state.clone()
                engine.apply_unchecked(play)
                apply_play(fast, play, play_points(state.board, play.tiles,
                                                   state.rules.triolet_multipliers))
                for name in ("board", "cross", "anchors", "placed", "racks", "bag", "scores",
                             "turn", "passes", "idle", "over", "end_reason", "history"):
                    assert getattr(fast, name) == getattr(engine, name), (name, play)
                checked += 1
                ends += engine.over
    assert checked > 300 and ends > 0


def test_the_veteran_keeps_the_joker_for_a_bigger_play() -> None:
    # Its candidates are ordered by points and the fitted value of the tiles kept: the Trio
    # with the 2 keeps the joker, and comes before the Trio with the joker as 2.
    state = position([[2, 14, "*"], [0, 1, 5]], ["7:7=6", "7:8=7"])
    found = TridentKnowledge().candidates(state, 0, random.Random(1), 6)
    first = found[0][0]
    assert isinstance(first, Play) and not any(p.joker for p in first.tiles)
    joker_trios = [value for action, value in found if isinstance(action, Play)
                   and any(p.joker for p in action.tiles)
                   and play_points(state.board, action.tiles, False) == 30]
    assert all(value < found[0][1] - 20 for value in joker_trios)


def test_the_veterans_judgement_counts_the_play_its_next_turn_holds() -> None:
    # Seat 0 to move with 9, 12 and 13: beside 2 and 4 the 9 makes a Trio (30 points); beside 2
    # and 12 there is no Trio to make. The scores and racks are the same; the board differs.
    rack = [[9, 12, 13], [0, 1, 3]]
    trio = position(rack, ["7:7=2", "7:8=4"])
    none = position(rack, ["7:7=2", "7:8=12"])
    knowledge = TridentKnowledge()
    best = knowledge.greedy_play(trio, 0)[1]
    assert best >= 30
    assert knowledge.next_turn_points(trio, 0) == best - NEXT_TURN_POINTS
    assert knowledge.next_turn_points(trio, 0) > knowledge.next_turn_points(none, 0)
    assert knowledge.evaluate(trio, 0) > knowledge.evaluate(none, 0)
    # Not the seat's turn: its rack's fitted value stands for the turn to come.
    assert knowledge.next_turn_points(trio, 1) == rack_points([0, 1, 3])


def test_the_simulated_reply_is_the_one_the_average_player_makes() -> None:
    # The veteran's simulations let every other player reply as the average player would
    # (points, half the leave, a BIS square), and the seat itself play greedily.
    knowledge = TridentKnowledge()
    differ = 0
    checked = 0
    for state in average_game(12) + average_game(13):
        mover = state.current_player
        assert mover is not None
        valued = [(a, v) for a, v in knowledge.valued(state, mover) if isinstance(a, Play)]
        if not valued:
            continue
        play, points = knowledge.average_play(state, mover)
        assert play is not None
        assert points == play_points(state.board, play.tiles, False)
        assert dict(valued)[play] == max(v for _, v in valued)
        greedy = knowledge.greedy_play(state, mover)[0]
        differ += greedy != play
        for seat, expected in ((1 - mover, play), (mover, greedy)):
            simulated, engine = state.clone(), state.clone()
            knowledge.rollout_step(simulated, random.Random(0), seat)
            engine.apply(expected)
            assert simulated.board == engine.board and simulated.scores == engine.scores
        checked += 1
    assert checked > 50 and differ > 0
