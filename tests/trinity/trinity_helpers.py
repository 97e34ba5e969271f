"""Shared helpers of the Trinity tests: states from setups, random games, conservation."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from triverse.core.events import Event
from triverse.games.trinity.engine import TrinityGame, TrinityState, complete_setup
from triverse.games.trinity.tiles import TILES


def new_state(setup: dict[str, Any], players: int = 2, seed: int = 7,
              **options: Any) -> TrinityState:
    """A state built from a partial setup (the unnamed triangles go to the pool)."""
    return TrinityGame(players, options).new_initial_state(seed=seed,
                                                           setup=complete_setup(setup))


def scored(events: list[Event]) -> list[str]:
    """The labels of the events that change a score."""
    return [e.label for e in events if e.points]


def snapshot(state: TrinityState) -> str:
    """Everything about a state, as one string (to check that nothing changed)."""
    views = [state.observation(p).to_json() for p in [None, *range(state.game.num_players)]]
    return json.dumps([views, state.scores, [str(a) for a in state.history], state.pool_pos,
                       [str(t) for t in state.pool], [[str(t) for t in h] for h in state.hands],
                       [str(p) for p in state.placed], sorted(state.board.frontier.items()),
                       state.setup(), state.active, state.baseline, state.span_played,
                       state.current, state.draws, state.passes, state.round])


def random_game(seed: int, players: int, rounds: int = 1, **options: Any
                ) -> Iterator[tuple[TrinityState, list[Event]]]:
    """Play random legal actions to the end; yield the state (changed in place) and events."""
    game = TrinityGame(players, {"rounds": rounds, **options})
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    yield state, []
    while not state.is_terminal():
        events = state.apply(rng.choice(state.legal_action_list()))
        yield state, events


def play_to(seed: int, players: int, steps: int, rounds: int = 1) -> TrinityState:
    """The state after ``steps`` random actions (or at the end, if sooner)."""
    for i, (state, _) in enumerate(random_game(seed, players, rounds)):
        if i >= steps or state.is_terminal():
            return state
    raise AssertionError("unreachable")


def conserved(state: TrinityState) -> bool:
    """All 76 triangles, each exactly once, in the hands, the pool and on the board."""
    held = [t for hand in state.hands for t in hand]
    pool = list(state.pool[state.pool_pos:])
    board = [p.tile for p in state.placed]
    everything = held + pool + board
    return len(everything) == 76 and set(everything) == set(TILES)
