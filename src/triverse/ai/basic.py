"""The two simplest computer players, the same for every game.

- :class:`RandomPlayer` (novice): a random legal action.
- :class:`GreedyPlayer` (average): the legal action with the best immediate score change for
  itself, ties broken at random.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from triverse.core.game import Game, Observation, State


class Player(ABC):
    """A computer player: picks an action for the seat whose observation it is given."""

    level: str
    time_budget: float = 0.0
    """Seconds this player may think about one move; 0 means the player's own default. Only
    searching players (the veteran) use it; the UI and the arena set it."""

    @abstractmethod
    def choose(self, game: Game[Any, Any], observation: Observation, rng: random.Random) -> Any:
        """A legal action for ``observation.player``, who must be the player to act."""

    @staticmethod
    def _state_for(
        game: Game[Any, Any], observation: Observation, rng: random.Random
    ) -> State[Any]:
        state: State[Any] = game.determinize(observation, rng)
        if state.current_player != observation.player:
            raise ValueError(
                f"seat {observation.player} is asked to move, but it is seat "
                f"{state.current_player}'s turn"
            )
        return state


class RandomPlayer(Player):
    """Novice: any legal action, uniformly at random."""

    level = "novice"

    def choose(self, game: Game[Any, Any], observation: Observation, rng: random.Random) -> Any:
        state = self._state_for(game, observation, rng)
        return rng.choice(state.legal_action_list())


class GreedyPlayer(Player):
    """Average: the action whose own events score the most right away."""

    level = "average"

    def choose(self, game: Game[Any, Any], observation: Observation, rng: random.Random) -> Any:
        state = self._state_for(game, observation, rng)
        seat = observation.player
        best: list[Any] = []
        best_points: int | None = None
        for action in state.legal_actions():
            child = state.clone()
            points = sum(e.points for e in child.apply_unchecked(action) if e.player == seat)
            if best_points is None or points > best_points:
                best, best_points = [action], points
            elif points == best_points:
                best.append(action)
        return rng.choice(best)
