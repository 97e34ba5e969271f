"""Helpers shared by the computer-player tests."""

from __future__ import annotations

import random
from typing import Any

from triverse.ai.knowledge import knowledge_for


def advance(state: Any, moves: int, rng: random.Random) -> int:
    """Play ``moves`` average-player moves on ``state`` (a mid-game position to search from)
    and return the seat to move then."""
    knowledge = knowledge_for(state.game)
    for _ in range(moves):
        seat = state.current_player
        assert seat is not None
        state.apply(knowledge.average_move(state, seat, rng))
    seat = state.current_player
    assert seat is not None and not state.is_terminal()
    return int(seat)
