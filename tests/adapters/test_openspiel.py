"""OpenSpiel conformance of every Triverse game (every available game, plus the toy game)."""

from __future__ import annotations

import pickle
import random
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pyspiel
import pytest

import triverse.adapters.openspiel as tos
from triverse.adapters import canonical_json, rank_returns
from triverse.core.errors import IllegalActionError, OptionError
from triverse.games import available_games, game_class

from .cases import (
    DEFAULT_CASES,
    DEFAULT_OPTION_CASES,
    PLAYER_COUNT_CASES,
    Case,
    case_id,
    resolve,
)
from .toygame import ToyGame

NUM_SIMS = 200


def load(case: Case, **extra: object) -> tos.TriverseGame:
    case = resolve(case)
    name = tos.register(case.cls)
    game: tos.TriverseGame = pyspiel.load_game(name, {**case.params, **extra})
    return game


def playout(state: tos.TriverseState, rng: random.Random) -> Iterator[tos.TriverseState]:
    """Yield ``state`` and every state after it along a random game (the same object)."""
    yield state
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


def sample_states(game: tos.TriverseGame, games: int, seed: int,
                  per_game: int = 40) -> Iterator[tos.TriverseState]:
    """Copies of about ``per_game`` states of each of ``games`` random games (all of the start,
    then spaced out), the last state of each game included."""
    rng = random.Random(seed)
    for index in range(games):
        state = game.new_initial_state(seed=seed * 1000 + index)
        step = 1
        for number, current in enumerate(playout(state, rng)):
            if number % step == 0 or current.is_terminal():
                yield current.clone()
            if number >= per_game // 2:
                step = 4


# --- registration and parameters -----------------------------------------------------------------
def test_every_available_game_is_registered_on_import() -> None:
    names = set(pyspiel.registered_names())
    for name in available_games():
        try:
            game_class(name)
        except ModuleNotFoundError:
            continue  # not written yet: the conformance tests skip it, saying so
        assert tos.short_name(name) in tos.REGISTERED
        assert tos.short_name(name) in names


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_game_type_and_info(case: Case) -> None:
    game = load(case)
    cls = case.cls
    tv = game.triverse_game
    game_type = game.get_type()
    assert game_type.short_name == f"triverse_{cls.name}"
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    expected_information = (
        pyspiel.GameType.Information.PERFECT_INFORMATION
        if cls.perfect_information
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION
    )
    assert game_type.information == expected_information
    assert (game_type.min_num_players, game_type.max_num_players) == (
        cls.min_players, cls.max_players)
    assert not game_type.provides_information_state_string
    assert game_type.provides_observation_string and game_type.provides_observation_tensor
    spec = game_type.parameter_specification
    assert {"players", "seed", "utility"} <= set(spec)
    assert {option.name for option in cls.option_specs} <= set(spec)
    assert game.num_distinct_actions() == tv.num_distinct_actions
    assert game.max_game_length() == tv.max_game_length
    assert game.observation_tensor_shape() == [tv.tensor_size]
    assert game.max_chance_outcomes() == 0
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)


def test_parameters_reach_the_triverse_game() -> None:
    name = tos.register(ToyGame)
    game = pyspiel.load_game(name, {"players": 3, "cards": 20, "bonus": False,
                                    "direction": "descending"})
    assert game.triverse_game == ToyGame(3, {"cards": 20, "bonus": False,
                                             "direction": "descending"})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 22
    by_string = pyspiel.load_game(f"{name}(players=4,cards=30,lowest_wins=true)")
    assert by_string.triverse_game == ToyGame(4, {"cards": 30, "lowest_wins": True})


@pytest.mark.parametrize("params", [
    {"players": 9}, {"cards": 3}, {"direction": "sideways"}, {"utility": "elo"}, {"seed": -5},
])
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises((OptionError, pyspiel.SpielError)):
        pyspiel.load_game(tos.register(ToyGame), params)


def test_unknown_parameter_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game(tos.register(ToyGame), {"colour": "red"})


def test_register_is_idempotent_and_names_are_unique() -> None:
    assert tos.register(ToyGame) == tos.register(ToyGame) == "triverse_toy"

    class Impostor(ToyGame):
        pass

    with pytest.raises(ValueError, match="already registered"):
        tos.register(Impostor)


# --- OpenSpiel's own conformance test ------------------------------------------------------------
@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_random_sim_200_games(case: Case, record_property: Any) -> None:
    """OpenSpiel's random_sim_test: clones, legal actions (sorted, mask), observations of every
    seat at every state, returns (zero-sum, in range) and max_game_length, over 200 games.

    ``serialize=False``: OpenSpiel cannot serialize a sampled-stochastic Python *game*
    (``GetRNGState`` cannot be overridden from Python); states serialize, see below.
    """
    game = load(case)
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=NUM_SIMS, serialize=False, verbose=False)
    record_property("seconds", round(time.perf_counter() - start, 2))


@pytest.mark.parametrize("case", DEFAULT_OPTION_CASES, ids=case_id)
def test_random_sim_with_default_options(case: Case, record_property: Any) -> None:
    game = load(case)
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
    record_property("seconds", round(time.perf_counter() - start, 2))


@pytest.mark.parametrize("case", PLAYER_COUNT_CASES, ids=case_id)
def test_random_sim_fewest_and_most_players(case: Case, record_property: Any) -> None:
    game = load(case)
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
    record_property("seconds", round(time.perf_counter() - start, 2))


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_random_sim_with_score_utility(case: Case) -> None:
    game = load(case, utility="score")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)


# --- states --------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_state_serialization_round_trip(case: Case) -> None:
    game = load(case)
    rng = random.Random(5)
    for index in range(3):
        state = game.new_initial_state(seed=100 + index)
        for number, current in enumerate(playout(state, rng)):
            if number < 10 or number & (number - 1) == 0 or current.is_terminal():
                for copy in (game.deserialize_state(current.serialize()),
                             pickle.loads(pickle.dumps(current))):
                    assert str(copy) == str(current)
                    assert copy.history() == current.history()
                    assert copy.is_terminal() == current.is_terminal()
                    assert copy.legal_actions() == current.legal_actions()
                    assert copy.returns() == current.returns()
                    for p in range(game.num_players()):
                        assert copy.observation_string(p) == current.observation_string(p)


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_deserialized_state_plays_on_identically(case: Case) -> None:
    game = load(case)
    rng = random.Random(11)
    state = game.new_initial_state(seed=77)
    for _ in range(min(8, game.max_game_length() // 2)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    copy = game.deserialize_state(state.serialize())
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        copy.apply_action(action)
        assert str(copy) == str(state)
    assert copy.returns() == state.returns()


def test_game_pickles_with_its_generator() -> None:
    game = pyspiel.load_game(tos.register(ToyGame), {"seed": 3})
    game.new_initial_state().current_player()  # draws a seed
    copy = pickle.loads(pickle.dumps(game))
    assert str(copy) == str(game)
    assert str(copy.new_initial_state()) == str(game.new_initial_state())


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_clones_are_independent(case: Case) -> None:
    game = load(case)
    state = game.new_initial_state(seed=8)
    before = str(state)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before
    assert state.history() == []
    assert clone.history() == [state.legal_actions()[0]]


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_actions_are_triverse_actions(case: Case) -> None:
    game = load(case)
    for state in sample_states(game, games=2, seed=3, per_game=20):
        if state.is_terminal():
            assert state.legal_actions() == []
            continue
        tv = state.triverse_state
        legal = state.legal_actions()
        assert legal == sorted({tv.encode_action(a) for a in tv.legal_actions()})
        assert len(legal) == len(list(tv.legal_actions()))
        for action in legal:
            text = state.action_to_string(state.current_player(), action)
            assert text == str(state.triverse_action(action))
            assert text == str(tv.decode_action(action))
            assert state.string_to_action(text) == action
        assert state.current_player() == tv.current_player


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    game = pyspiel.load_game(tos.register(ToyGame))
    state = game.new_initial_state(seed=1)
    illegal = next(a for a in range(game.num_distinct_actions())
                   if a not in state.legal_actions())
    before = str(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    assert str(state) == before and state.history() == []


# --- chance and seeds ----------------------------------------------------------------------------
@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_seed_parameter(case: Case) -> None:
    """A fixed seed reproduces the sequence of games; successive games differ; -1 is fresh."""
    fixed_a, fixed_b = load(case, seed=12), load(case, seed=12)
    first = [fixed_a.new_initial_state() for _ in range(4)]
    again = [fixed_b.new_initial_state() for _ in range(4)]
    assert [s.triverse_seed for s in again] == [s.triverse_seed for s in first]
    deals = [s.observation_string(0) for s in first]
    assert [s.observation_string(0) for s in again] == deals
    assert len(set(deals)) > 1, "successive games of one game object should differ"
    fresh = [load(case).new_initial_state() for _ in range(2)]
    assert not {s.triverse_seed for s in fresh} & {s.triverse_seed for s in first}
    assert fresh[0].triverse_seed != fresh[1].triverse_seed


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_explicit_seed_deals_the_triverse_game(case: Case) -> None:
    game = load(case)
    state = game.new_initial_state(seed=424242)
    tv = game.triverse_game.new_initial_state(seed=424242)
    assert state.triverse_seed == 424242
    for p in range(game.num_players()):
        assert state.observation_string(p) == canonical_json(tv.observation(p).to_json())


def test_clones_do_not_consume_seeds() -> None:
    name = tos.register(ToyGame)
    plain, cloning = (pyspiel.load_game(name, {"seed": 9}) for _ in range(2))
    state = cloning.new_initial_state()
    for _ in range(5):
        state.clone()
        state.child(state.legal_actions()[0])
    plain.new_initial_state().current_player()
    assert str(plain.new_initial_state()) == str(cloning.new_initial_state())


def test_a_state_only_looked_at_keeps_what_it_showed() -> None:
    """OpenSpiel measures the tensor on a new initial state at every C++ observation_tensor
    call; the adapter lends such a state the next deal instead of dealing a new one. A state
    that was looked at and is then used keeps that deal; two looked at get different ones."""
    name = tos.register(ToyGame)
    game = pyspiel.load_game(name, {"seed": 21})
    observer = game.make_py_observer()
    first, second = game.new_initial_state(), game.new_initial_state()
    observer.set_from(first, 0)
    seen_first = observer.tensor.copy()
    observer.set_from(second, 0)
    seen_second = observer.tensor.copy()
    second.apply_action(second.legal_actions()[0])  # used: the lent deal is its own now
    first_string = first.observation_string(0)
    assert first.observation_tensor(0) == seen_first.tolist()
    assert str(first) != str(second)
    replay = game.new_initial_state(seed=second.triverse_seed)
    assert replay.observation_tensor(0) == seen_second.tolist()
    assert first.observation_string(0) == first_string
    for _ in range(3):
        assert game.observation_tensor_size() == ToyGame().tensor_size
    fresh = pyspiel.load_game(name, {"seed": 21})
    a, b = fresh.new_initial_state(), fresh.new_initial_state()
    assert {a.triverse_seed, b.triverse_seed} == {first.triverse_seed, second.triverse_seed}


def test_states_used_one_after_another_differ() -> None:
    game = pyspiel.load_game(tos.register(ToyGame), {"seed": 2})
    seen = [game.new_initial_state().observation_string(0) for _ in range(6)]
    assert len(set(seen)) == 6


# --- observations --------------------------------------------------------------------------------
@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_observations_come_from_the_triverse_observation(case: Case) -> None:
    game = load(case)
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    public_observer = game.make_py_observer(public)
    for state in sample_states(game, games=2, seed=21, per_game=20):
        tv = state.triverse_state
        for p in range(game.num_players()):
            obs = tv.observation(p)
            assert state.observation_string(p) == canonical_json(obs.to_json())
            np.testing.assert_array_equal(
                np.asarray(state.observation_tensor(p), np.float32),
                np.asarray(obs.to_tensor(), np.float32))
        spectator = tv.observation(None)
        assert public_observer.string_from(state, 0) == canonical_json(spectator.to_json())
        public_observer.set_from(state, 0)
        np.testing.assert_array_equal(public_observer.tensor,
                                      np.asarray(spectator.to_tensor(), np.float32))


def test_information_states_are_not_provided() -> None:
    game = pyspiel.load_game(tos.register(ToyGame))
    state = game.new_initial_state(seed=2)
    with pytest.raises(ValueError, match="information states"):
        state.information_state_string(0)
    with pytest.raises(ValueError):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_observation_ignores_other_seats_hidden_information(case: Case) -> None:
    """Resample everything seat p cannot see (``determinize``): p's observation string and
    tensor, and its legal actions on its turn, stay the same."""
    game = load(case)
    rng = random.Random(99)
    others_changed = 0
    for state in sample_states(game, games=3, seed=31):
        tv = state.triverse_state
        for p in range(game.num_players()):
            string, tensor = state.observation_string(p), state.observation_tensor(p)
            for _ in range(2):
                resampled = game.from_triverse(tv.determinize(p, rng))
                assert resampled.observation_string(p) == string
                assert resampled.observation_tensor(p) == tensor
                assert resampled.current_player() == state.current_player()
                if state.current_player() == p:
                    assert resampled.legal_actions() == state.legal_actions()
                others_changed += any(
                    resampled.observation_string(q) != state.observation_string(q)
                    for q in range(game.num_players()) if q != p)
    if not case.cls.perfect_information:
        assert others_changed, "determinize never changed another seat's hidden information"


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_wrapped_determinization_serializes(case: Case) -> None:
    game = load(case)
    rng = random.Random(4)
    state = game.new_initial_state(seed=5)
    state.apply_action(state.legal_actions()[-1])
    wrapped = game.from_triverse(state.triverse_state.determinize(0, rng))
    copy = game.deserialize_state(wrapped.serialize())
    assert str(copy) == str(wrapped)


# --- returns -------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_returns_follow_the_ranks_and_scores_stay_available(case: Case) -> None:
    game = load(case)
    score_game = load(case, utility="score")
    rng = random.Random(17)
    for index in range(5):
        state = game.new_initial_state(seed=index)
        scored = score_game.new_initial_state(seed=index)
        collected = [0.0] * game.num_players()
        for current in playout(state, rng):
            if not current.is_terminal():
                assert current.returns() == [0.0] * game.num_players()
                assert current.result() is None
            if scored.history() != current.history():
                scored.apply_action(current.history()[-1])
            assert scored.returns() == [float(s) for s in current.scores()]
            collected = [c + r for c, r in zip(collected, scored.rewards(), strict=True)]
        result = state.result()
        assert result is not None
        assert state.returns() == list(rank_returns(result.ranks))
        assert sum(state.returns()) == pytest.approx(0.0)
        assert state.scores() == list(result.scores)
        assert collected == pytest.approx(scored.returns())


def test_rank_returns_for_a_four_player_game() -> None:
    game = pyspiel.load_game(tos.register(ToyGame), {"players": 4, "seed": 1})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    result = state.result()
    assert result is not None
    expected = [(sum(r > mine for r in result.ranks) - sum(r < mine for r in result.ranks)) / 3
                for mine in result.ranks]
    assert state.returns() == pytest.approx(expected)


@pytest.mark.parametrize("case", DEFAULT_CASES + DEFAULT_OPTION_CASES, ids=case_id)
def test_an_observation_string_determines_the_legal_actions(case: Case) -> None:
    # ISMCTS keys its nodes by the mover's observation string: two states that the mover
    # cannot tell apart must offer the same actions (a Trivinity effect's step once was
    # missing from the observation, and ISMCTS met an action its node did not know).
    game = load(case)
    rng = random.Random(5)
    seen: dict[str, list[int]] = {}
    for index in range(25):
        for state in playout(game.new_initial_state(seed=index), rng):
            if state.is_terminal() or state.is_chance_node():
                continue
            key = state.observation_string(state.current_player())
            legal = state.legal_actions()
            assert seen.setdefault(key, legal) == legal, key
