"""A computer player never reads hidden state.

The players are handed an observation, never a state. Here two full states that differ only in
what the seat cannot see (the other hands, the pool, the bag, the decks) share one observation;
every level, given that observation and the same random generator, must choose the same move in
both: nothing it could do reaches the true hidden tiles.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from triverse.ai.basic import Player
from triverse.ai.levels import AveragePlayer, NovicePlayer, VeteranPlayer
from triverse.core.game import State
from triverse.core.rng import derive
from triverse.games import available_games, load_game
from triverse.games._tiles.engine import TileState
from triverse.games.trident.engine import TridentState
from triverse.games.trivinity.engine import TrivinityState

HIDDEN_GAMES = [g for g in available_games() if not load_game(g).perfect_information]


def _hidden_part(state: State[Any], seat: int) -> Any:
    """What ``seat`` cannot see of a state."""
    if isinstance(state, TileState):
        return ([sorted(str(t) for t in h) for s, h in enumerate(state.hands) if s != seat],
                [str(t) for t in state.pool[state.pool_pos:]])
    if isinstance(state, TridentState):
        return ([r for s, r in enumerate(state.racks) if s != seat], state.bag, state.aside)
    if isinstance(state, TrivinityState):
        return ([h for s, h in enumerate(state.hands) if s != seat],
                [d for s, d in enumerate(state.decks) if s != seat], state.stacks,
                state.limbo_down)
    raise AssertionError(f"no hidden part known for {state!r}")


def _midgame(name: str, seed: int) -> State[Any]:
    """A position some way into a game where the player to move has a real choice."""
    game = load_game(name)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    average = AveragePlayer()
    moves = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        if moves >= 12 and len(state.legal_action_list()) >= 2:
            return state
        state.apply(average.choose(game, state.observation(seat), rng))
        moves += 1
    raise AssertionError("the game ended too soon")


def _twins(name: str, seed: int) -> tuple[State[Any], State[Any], int]:
    """Two states, equal but for what the seat to move cannot see."""
    state = _midgame(name, seed)
    seat = state.current_player
    assert seat is not None
    game = state.game
    observation = state.observation(seat)
    other = game.determinize(observation, random.Random(99))
    assert other.observation(seat).to_json() == observation.to_json()
    assert _hidden_part(other, seat) != _hidden_part(state, seat)
    return state, other, seat


PLAYERS: list[tuple[str, Any]] = [
    ("novice", NovicePlayer),
    ("average", AveragePlayer),
    ("veteran", lambda: VeteranPlayer(time_budget=float("inf"), max_worlds=2)),
]


@pytest.mark.parametrize("name", HIDDEN_GAMES)
@pytest.mark.parametrize(("level", "make"), PLAYERS, ids=[p[0] for p in PLAYERS])
def test_same_observation_same_choice(name: str, level: str, make: Any) -> None:
    first, second, seat = _twins(name, seed=3)
    game = first.game
    for attempt in range(3):
        player: Player = make()
        rng_seed = derive(7, level, attempt).randrange(2**32)
        a = player.choose(game, first.observation(seat), random.Random(rng_seed))
        b = player.choose(game, second.observation(seat), random.Random(rng_seed))
        assert a == b, (name, level, a, b)
        assert first.is_legal(a) and second.is_legal(b)


def test_the_player_interface_takes_no_state() -> None:
    """The only way a player gets a full state is by determinizing its observation."""
    game = load_game("triominoes")
    state = game.new_initial_state(seed=8)
    seat = state.current_player
    assert seat is not None
    seen: list[Any] = []
    original = type(game).determinize

    def spy(self: Any, observation: Any, rng: random.Random) -> Any:
        seen.append(observation)
        return original(self, observation, rng)

    type(game).determinize = spy  # type: ignore[method-assign]
    try:
        VeteranPlayer(time_budget=float("inf"), max_worlds=2).choose(
            game, state.observation(seat), random.Random(1))
    finally:
        type(game).determinize = original  # type: ignore[method-assign]
    assert seen and all(obs.player == seat for obs in seen)
    assert all(obs.to_json()["hand_counts"] == seen[0].to_json()["hand_counts"] for obs in seen)
