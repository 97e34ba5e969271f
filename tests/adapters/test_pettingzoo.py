"""PettingZoo conformance of every Triverse game (every available game, plus the toy game)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from triverse.adapters import rank_returns
from triverse.adapters.pettingzoo import TriverseAECEnv, env, raw_env
from triverse.core.errors import IllegalActionError, OptionError
from triverse.games import available_games

from .cases import DEFAULT_CASES, DEFAULT_OPTION_CASES, PLAYER_COUNT_CASES, Case, case_id
from .toygame import ToyGame

# PettingZoo's api_test warns that a Dict observation is not a NumPy array (the classic
# environments with action masks do the same); it is the documented form with an action mask.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
)


def make(case: Case, **kwargs: Any) -> Any:
    return env(case.triverse_game(), **kwargs)


def make_raw(case: Case, **kwargs: Any) -> TriverseAECEnv:
    return raw_env(case.triverse_game(), **kwargs)


def play_random(e: TriverseAECEnv, rng: random.Random) -> int:
    """Play one game to the end with random legal actions; return the number of actions."""
    actions = 0
    for agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(rng.choice(legal)))
        actions += 1
        assert actions <= e.game.max_game_length, agent
    return actions


@pytest.mark.parametrize("case", DEFAULT_CASES + DEFAULT_OPTION_CASES + PLAYER_COUNT_CASES,
                         ids=case_id)
def test_api(case: Case) -> None:
    api_test(make(case, render_mode="ansi"), num_cycles=1000)


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_seed(case: Case) -> None:
    seed_test(lambda: make(case), num_cycles=500)


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_seeded_reset_deals_the_same_game(case: Case) -> None:
    a, b = make_raw(case), make_raw(case)
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.triverse_seed == b.triverse_seed
    for agent in a.possible_agents:
        np.testing.assert_array_equal(a.observe(agent)["observation"],
                                      b.observe(agent)["observation"])
    a.reset()
    b.reset()
    assert a.triverse_seed == b.triverse_seed, "the seeded generator deals the next games too"
    first = a.triverse_seed
    a.reset()
    assert a.triverse_seed != first
    a.reset(options={"triverse_seed": 1234})
    assert a.triverse_seed == 1234
    expected = a.game.new_initial_state(seed=1234).observation(0).to_tensor()
    np.testing.assert_array_equal(a.observe("player_0")["observation"],
                                  np.asarray(expected, np.float32))


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_masks_observations_and_final_rewards(case: Case) -> None:
    e = make_raw(case)
    rng = random.Random(3)
    for game_number in range(5):
        e.reset(seed=game_number)
        state = e.triverse_state
        for agent in e.agent_iter():
            observation, reward, termination, truncation, info = e.last()
            seat = e.agent_name_mapping[agent]
            if termination or truncation:
                result = state.result()
                assert info == {"scores": list(result.scores), "ranks": list(result.ranks)}
                assert reward == rank_returns(result.ranks)[seat]
                e.step(None)
                continue
            assert reward == 0.0
            assert seat == state.current_player
            mask = observation["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (e.game.num_distinct_actions,)
            legal = sorted(state.encode_action(a) for a in state.legal_actions())
            assert np.flatnonzero(mask).tolist() == legal
            np.testing.assert_array_equal(
                observation["observation"],
                np.asarray(state.observation(seat).to_tensor(), np.float32))
            other = e.possible_agents[(seat + 1) % len(e.possible_agents)]
            assert not e.observe(other)["action_mask"].any()
            e.step(int(rng.choice(legal)))
        assert e.agents == []


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_score_utility_rewards_every_score_change(case: Case) -> None:
    e = make_raw(case, utility="score")
    e.reset(seed=4)
    state = e.triverse_state
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = random.Random(4)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert [totals[a] for a in e.possible_agents] == [float(s) for s in state.scores]


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_observation_ignores_other_seats_hidden_information(case: Case) -> None:
    e = make_raw(case)
    rng = random.Random(8)
    e.reset(seed=8)
    n = len(e.possible_agents)
    for _ in range(12):
        state = e.triverse_state
        if state.is_terminal():
            break
        for seat, agent in enumerate(e.possible_agents):
            seen = e.observe(agent)
            probe = make_raw(case)
            probe.reset()
            probe._state = state.determinize(seat, rng)  # resampled: what the seat cannot see
            probe._changed()
            again = probe.observe(agent)
            np.testing.assert_array_equal(again["observation"], seen["observation"])
            np.testing.assert_array_equal(again["action_mask"], seen["action_mask"])
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(rng.choice(legal)))
    assert n == e.game.num_players


def test_multi_action_turns_select_the_same_agent_again() -> None:
    e = raw_env(ToyGame(2, {"cards": 12}))
    rng = random.Random(0)
    repeats = 0
    for seed in range(30):
        e.reset(seed=seed)
        previous = None
        for agent in e.agent_iter():
            observation, _, termination, truncation, _ = e.last()
            if termination or truncation:
                e.step(None)
                continue
            repeats += agent == previous
            previous = agent
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert repeats > 0


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_many_random_games(case: Case) -> None:
    e = make_raw(case)
    rng = random.Random(12)
    for seed in range(20):
        e.reset(seed=seed)
        play_random(e, rng)
        assert e.triverse_state.is_terminal()


def test_illegal_action_ends_the_game_for_the_offender() -> None:
    e = env(ToyGame(3))
    e.reset(seed=1)
    agent = e.agent_selection
    observation = e.observe(agent)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert all(e.terminations.values())
    assert e._cumulative_rewards[agent] == -1.0
    assert all(e._cumulative_rewards[a] == 0.0
               for a in e.agents if a != agent)


def test_illegal_action_raises_without_the_wrapper() -> None:
    e = env(ToyGame(2), illegal_reward=None)
    e.reset(seed=1)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)


def test_render_ansi_shows_the_public_view() -> None:
    game = ToyGame(2)
    e = raw_env(game, render_mode="ansi")
    e.reset(seed=5)
    assert e.render() == game.render_text(e.triverse_state.observation(None))
    seat_view = raw_env(game, render_mode="ansi", render_player=1)
    seat_view.reset(seed=5)
    assert seat_view.render() == game.render_text(seat_view.triverse_state.observation(1))
    silent = raw_env(game)
    silent.reset(seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert silent.render() is None


def test_env_by_name_with_options() -> None:
    for name in available_games():
        try:
            e = raw_env(name)
        except ModuleNotFoundError:
            continue
        assert e.possible_agents == [f"player_{i}" for i in range(e.game.num_players)]
        assert e.metadata["name"] == f"triverse_{name}_v0"
    with pytest.raises(OptionError):
        raw_env(ToyGame(2), players=3)
    with pytest.raises(OptionError):
        raw_env(ToyGame(2), utility="elo")
