"""Every level of every game plays legal moves to the end of seeded games (small budgets)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ai_helpers import advance

from triverse.ai import LEVELS, make_player
from triverse.ai.basic import Player
from triverse.ai.levels import AveragePlayer, NovicePlayer, VeteranPlayer
from triverse.core.errors import OptionError
from triverse.core.rng import derive
from triverse.games import available_games, load_game

SHORT = {
    "triominoes": {"target": 100},
    "trinity": {"rounds": 1},
    "trivinity": {"turn_limit": 6},
}
"""Options that keep a test game short."""

FAST_VETERAN = 0.01


def _short_game(name: str, players: int = 2) -> Any:
    return load_game(name, players, **SHORT.get(name, {}))


def play_out(game: Any, bots: list[Player], seed: int) -> Any:
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(game, state.observation(seat),
                                   derive(seed, "bot", state.move_number))
        assert state.is_legal(action), (game.name, action)
        state.apply(action)
    return state


def test_levels_and_factory() -> None:
    assert LEVELS == ("novice", "average", "veteran")
    assert isinstance(make_player("novice"), NovicePlayer)
    assert isinstance(make_player("average"), AveragePlayer)
    veteran = make_player("veteran", time_budget=0.3)
    assert isinstance(veteran, VeteranPlayer) and veteran.time_budget == 0.3
    assert make_player("veteran").time_budget == 0.0
    with pytest.raises(OptionError, match="unknown computer level"):
        make_player("grandmaster")
    with pytest.raises(ValueError, match="time budget"):
        VeteranPlayer(-1.0)


def test_every_game_is_covered() -> None:
    assert set(available_games()) >= {"triominoes", "trinity", "triangles", "trident",
                                      "trivinity"}


@pytest.mark.parametrize("name", available_games())
def test_all_levels_play_legal_games(name: str) -> None:
    game = _short_game(name)
    play_out(game, [VeteranPlayer(FAST_VETERAN), NovicePlayer()], seed=1)
    final = play_out(game, [AveragePlayer(), VeteranPlayer(FAST_VETERAN)], seed=2)
    assert final.is_terminal()


@pytest.mark.parametrize("name", [g for g in available_games() if g != "triangles"])
def test_levels_play_three_and_four_players(name: str) -> None:
    game = _short_game(name, 3)
    play_out(game, [NovicePlayer(), AveragePlayer(), VeteranPlayer(FAST_VETERAN)], seed=3)


def test_veteran_answers_at_once_when_forced() -> None:
    game = _short_game("triominoes")
    state = game.new_initial_state(seed=4)
    # The opening: one tile may open the round.
    assert len(state.legal_action_list()) == 1
    seat = state.current_player
    assert seat is not None
    bot = VeteranPlayer(time_budget=100.0)
    assert state.is_legal(bot.choose(game, state.observation(seat), random.Random(1)))


def test_veteran_is_reproducible_without_a_clock() -> None:
    game = load_game("trident")
    state = game.new_initial_state(seed=5)
    seat = state.current_player
    assert seat is not None
    bot = VeteranPlayer(time_budget=float("inf"), max_worlds=3)
    first = bot.choose(game, state.observation(seat), random.Random(7))
    again = bot.choose(game, state.observation(seat), random.Random(7))
    assert first == again


@pytest.mark.parametrize("name", available_games())
def test_novice_and_average_play_many_seeded_games_to_the_end(name: str) -> None:
    game = _short_game(name)
    for seed in range(10, 22):
        bots: list[Player] = [NovicePlayer(), AveragePlayer()]
        if seed % 2:
            bots.reverse()
        final = play_out(game, bots, seed)
        assert final.is_terminal()
        assert final.result().winners


def test_veteran_stops_thinking_once_its_mind_is_made_up() -> None:
    """Without a clock, a clear decision ends long before the search's cap of worlds: every
    move left is clearly worse than the choice, or no better by more than the indifference."""
    from triverse.ai.knowledge import knowledge_for
    from triverse.ai.search import (
        ENOUGH_WORLDS,
        HALVING_ROUNDS,
        SETTLE_Z,
        SearchLimits,
        determinized_search,
    )

    game = load_game("trident")
    state = game.new_initial_state(seed=100)
    seat = advance(state, 20, random.Random(0))
    knowledge = knowledge_for(game)
    result = determinized_search(game, state.observation(seat), random.Random(1), knowledge,
                                 SearchLimits(float("inf")))
    assert 16 <= result.worlds < ENOUGH_WORLDS
    # The moves still in the race: those tried in every world, less the worse half dropped by
    # a halving at the last world (the race is halved before it is asked whether it is settled).
    racing = [e for e in result.estimates if e.count == result.worlds]
    if result.worlds in HALVING_ROUNDS and len(racing) > 2:
        racing.sort(key=lambda e: (e.mean, e.prior), reverse=True)
        racing = racing[:max(2, (len(racing) + 1) // 2)]
    assert any(e.action == result.best for e in racing)
    for estimate in racing:
        if estimate.action != result.best:
            found = result.difference(result.best, estimate.action)
            assert found is not None
            mean, error = found
            assert mean - SETTLE_Z * error > -knowledge.indifference


class _Scripted:
    """A knowledge whose two candidates' simulations return scripted values, world by world."""

    def __init__(self, base: Any, values: dict[int, list[float]]) -> None:
        self.base, self.values, self.calls = base, values, {0: 0, 1: 0}
        self.indifference = base.indifference
        self.max_candidates = 2

    def sample_world(self, *args: Any) -> Any:
        return self.base.sample_world(*args)

    def search_here(self, state: Any, seat: int) -> bool:
        return True

    def candidates(self, state: Any, seat: int, rng: random.Random, limit: int) -> Any:
        legal = state.legal_action_list()
        self.actions = legal[:2]
        return [(legal[0], 10.0), (legal[1], 0.0)]

    def playout(self, child: Any, seat: int, rng: random.Random) -> float:
        played = child.history[-1]
        which = 0 if played == self.actions[0] else 1
        value = self.values[which][self.calls[which]]
        self.calls[which] += 1
        return value


@pytest.mark.parametrize(("second", "kept"), [
    ([30.0, -20.0, 30.0, -20.0, 31.0], 0),  # ahead on the mean, but by less than its noise
    ([3.0, 4.0, 3.0, 4.0, 3.0], 1),  # ahead with confidence
])
def test_a_search_the_clock_stops_short_keeps_its_first_choice_unless_beaten_with_confidence(
        second: list[float], kept: int) -> None:
    from triverse.ai.knowledge import knowledge_for
    from triverse.ai.search import SearchLimits, determinized_search

    game = load_game("trident")
    state = game.new_initial_state(seed=100)
    seat = advance(state, 6, random.Random(0))
    knowledge = _Scripted(knowledge_for(game), {0: [0.0] * 5, 1: second})
    # A spent budget: the search stops after the five worlds it must see.
    result = determinized_search(game, state.observation(seat), random.Random(1),
                                 knowledge, SearchLimits(0.0, min_worlds=5))
    assert result.worlds == 5
    assert result.best == knowledge.actions[kept]
    # A search that is not stopped short plays its leader, noisy or not.
    knowledge = _Scripted(knowledge_for(game), {0: [0.0] * 5, 1: second})
    result = determinized_search(game, state.observation(seat), random.Random(1),
                                 knowledge, SearchLimits(float("inf"), max_worlds=5))
    assert result.best == knowledge.actions[1]
