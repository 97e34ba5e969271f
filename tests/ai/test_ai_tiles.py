"""The tile games' computer players (Tri-ominoes and Trinity) on concrete positions: how far the
veteran's simulations go."""

from __future__ import annotations

import random

import pytest
from ai_helpers import advance

from triverse import load_game
from triverse.ai.knowledge import knowledge_for
from triverse.ai.knowledge.tiles import HORIZON, TileKnowledge
from triverse.games._tiles.engine import TileState


@pytest.mark.parametrize("name", ["triominoes", "trinity"])
def test_simulations_stop_after_a_few_placements_or_at_the_rounds_end(name: str) -> None:
    knowledge = knowledge_for(name)
    assert isinstance(knowledge, TileKnowledge)
    for seed in range(3):
        start = load_game(name, 2).new_initial_state(seed=seed)
        assert isinstance(start, TileState)
        advance(start, 6, random.Random(seed))
        state = start.clone()
        rng = random.Random(seed)
        plies = 0
        while not state.is_terminal() and not knowledge.stop_rollout(start, state, plies):
            state.apply_unchecked(knowledge.rollout_move(state, rng))
            plies += 1
        assert plies < knowledge.rollout_plies
        assert state.round != start.round or len(state.placed) - len(start.placed) == HORIZON
