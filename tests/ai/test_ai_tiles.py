"""The tile games' computer players (Tri-ominoes and Trinity) on concrete positions: how far the
veteran's simulations go, how they play, and what they are worth."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

from ai_helpers import advance

from triverse import load_game
from triverse.ai.knowledge import Memory, knowledge_for, score_margin
from triverse.ai.knowledge.tiles import HORIZON, TileKnowledge, TrinityKnowledge
from triverse.games._tiles.engine import TileState
from triverse.games._tiles.tiles import DRAW


def _positions(name: str, seeds: range, moves: int = 6) -> list[tuple[TileState, int]]:
    """Mid-round positions of average-player games, each with the seat to move."""
    out = []
    for seed in seeds:
        state = load_game(name, 2).new_initial_state(seed=seed)
        assert isinstance(state, TileState)
        seat = advance(state, moves, random.Random(seed))
        out.append((state, seat))
    return out


def _simulated(knowledge: TileKnowledge, start: TileState, rng: random.Random
               ) -> tuple[TileState, int]:
    """A simulation of the knowledge from ``start`` (unjudged): where it stops, and after how
    many actions."""
    state = start.clone()
    plies = 0
    while not state.is_terminal() and not knowledge.stop_rollout(start, state, plies):
        state.apply_unchecked(knowledge.rollout_move(state, rng))
        plies += 1
    return state, plies


def test_triominoes_simulations_stop_after_a_few_placements_or_at_the_rounds_end() -> None:
    knowledge = knowledge_for("triominoes")
    assert type(knowledge) is TileKnowledge
    for seed, (start, _seat) in enumerate(_positions("triominoes", range(3))):
        state, plies = _simulated(knowledge, start, random.Random(seed))
        assert plies < knowledge.rollout_plies
        assert state.round != start.round or len(state.placed) - len(start.placed) == HORIZON


def test_trinity_simulations_play_the_round_to_its_end_as_the_average_player() -> None:
    # Every placement of a Trinity simulation is the one the average player would make there,
    # for either seat, and the simulation goes on until the round is over.
    knowledge = knowledge_for("trinity")
    assert isinstance(knowledge, TrinityKnowledge)
    lengths = []
    for seed, (start, _seat) in enumerate(_positions("trinity", range(4))):
        state = start.clone()
        plies = 0
        while not knowledge.stop_rollout(start, state, plies):
            mover = state.current
            assert mover is not None
            expected = knowledge.average_move(state, mover, random.Random(seed * 1000 + plies))
            assert knowledge.rollout_move(state, random.Random(seed * 1000 + plies)) == expected
            state.apply(expected)
            plies += 1
        assert state.is_terminal() or state.round == start.round + 1
        assert plies < knowledge.rollout_plies
        lengths.append(plies)
    assert min(lengths) > HORIZON  # further than Tri-ominoes' short simulations


def test_a_trinity_simulation_is_judged_by_the_lead_when_the_round_is_over() -> None:
    # The judgement is the seat's lead once the round is over (the going-out bonus and the other
    # hand's numbers included), from either seat's point of view, and the same world with the
    # same random numbers gives the same value.
    knowledge = TrinityKnowledge()
    for seed, (start, seat) in enumerate(_positions("trinity", range(3), moves=10)):
        end, _plies = _simulated(knowledge, start, random.Random(seed))
        for who in (seat, 1 - seat):
            value = knowledge.playout(start, who, random.Random(seed))
            assert value == score_margin(end.scores, who)
        assert knowledge.playout(start, seat, random.Random(seed)) == knowledge.playout(
            start.clone(), seat, random.Random(seed))


def test_a_trinity_simulation_of_the_last_round_counts_the_win() -> None:
    # In the last round the round's end is the game's: winning it is worth the win bonus too.
    knowledge = TrinityKnowledge()
    game = load_game("trinity", 2, rounds=1)
    found = 0
    for seed in range(6):
        start = game.new_initial_state(seed=seed)
        assert isinstance(start, TileState)
        advance(start, 8, random.Random(seed))
        end, _plies = _simulated(knowledge, start, random.Random(seed))
        if not end.is_terminal():
            continue  # a tie for first: a tiebreaker round follows
        found += 1
        for who in (0, 1):
            margin = score_margin(end.scores, who)
            bonus = knowledge.win_bonus if who in end.result().winners else 0.0
            assert knowledge.playout(start, who, random.Random(seed)) == margin + bonus
    assert found >= 3


def test_the_trinity_search_drops_no_placement_before_its_first_halving() -> None:
    # Whole rounds vary widely from world to world: the Trinity veteran's search keeps every
    # placement in the race for its first 64 worlds, where Tri-ominoes' halves after 8.
    from triverse.ai.search import SearchLimits, determinized_search

    game = load_game("trinity", 2)
    for seed in range(20):
        state = game.new_initial_state(seed=seed)
        assert isinstance(state, TileState)
        seat = advance(state, 4, random.Random(seed))
        if len(state.legal_action_list()) >= 3:
            break
    else:
        raise AssertionError("no position with three placements")
    observation = state.observation(seat)
    limits = SearchLimits(float("inf"), max_worlds=40)
    trinity = knowledge_for("trinity")
    assert trinity.first_halving == 64
    result = determinized_search(game, observation, random.Random(1), trinity, limits)
    assert result.worlds > 8
    assert all(e.count == result.worlds for e in result.estimates)
    short = TileKnowledge()  # Tri-ominoes' knowledge: halving from 8 worlds
    result = determinized_search(game, observation, random.Random(1), short, limits)
    assert result.worlds > 8
    assert min(e.count for e in result.estimates) < result.worlds


def _remembered(seeds: range, choices_only: bool = True) -> Iterator[tuple[TileState, Memory]]:
    """Seat 0's decisions (with a choice, unless ``choices_only`` is false) in Trinity games of
    the average against itself, each with what seat 0 remembers then (its knowledge having read
    its observation at each of its turns, as the veteran does)."""
    game = load_game("trinity", 2)
    knowledge = knowledge_for(game)
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        assert isinstance(state, TileState)
        memory: Memory = {}
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            if seat == 0:
                knowledge.remember(memory, state.observation(0))
                if not choices_only or len(state.legal_action_list()) > 1:
                    yield state, memory
            state.apply(knowledge.average_move(state, seat, rng))


def test_an_opponents_draw_rules_out_every_tile_that_fitted_the_board() -> None:
    # An opponent that drew held nothing that fitted the board: the tiles the seat bans from its
    # hand are never in it, and its deals respect that.
    game = load_game("trinity", 2)
    knowledge = knowledge_for(game)
    bans = 0
    for state, memory in _remembered(range(3)):
        banned = memory["banned"].get(1)
        if not banned:
            continue
        bans += 1
        assert not banned & set(state.hands[1])
        world = knowledge.sample_world(game, state.observation(0), random.Random(bans), memory)
        assert isinstance(world, TileState)
        assert not banned & set(world.hands[1])
    assert bans >= 10


def test_the_seats_own_draw_keeps_what_an_opponents_draw_revealed() -> None:
    # The seat's own draws tell nothing of the opponent: the tiles banned from its hand stay.
    game = load_game("trinity", 2)
    knowledge = knowledge_for(game)
    kept = 0
    for state, memory in _remembered(range(6), choices_only=False):
        banned = memory["banned"].get(1)
        if not banned or state.legal_action_list() != [DRAW]:
            continue
        after = state.clone()
        after.apply(next(after.legal_actions()))
        if after.current_player != 0:
            continue
        mine = copy.deepcopy(memory)
        knowledge.remember(mine, after.observation(0))
        assert mine["banned"].get(1) == banned
        kept += 1
    assert kept >= 50
