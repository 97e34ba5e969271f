"""The three computer levels, the same classes for every game; the game's knowledge
(:mod:`triverse.ai.knowledge`) decides what each plays.

- :class:`NovicePlayer`: plays legal moves with little thought, never absurd ones;
- :class:`AveragePlayer`: a solid one-move heuristic player;
- :class:`VeteranPlayer`: searches, within a time budget, using the game's knowledge.

Every player is given the seat's observation only; a full state exists only as a
determinization of that observation.

>>> import random
>>> from triverse import load_game
>>> game = load_game("triangles")
>>> state = game.new_initial_state(seed=2)
>>> bot = VeteranPlayer(time_budget=0.05)
>>> state.is_legal(bot.choose(game, state.observation(0), random.Random(1)))
True
"""

from __future__ import annotations

import random
from typing import Any

from triverse.ai.basic import Player
from triverse.ai.knowledge import Knowledge, Memory, knowledge_for
from triverse.ai.search import SearchLimits, SearchResult, clock_function
from triverse.core.game import Game, Observation, State


class _OneMovePlayer(Player):
    """A level that asks the game's knowledge for its move on one determinization."""

    def choose(self, game: Game[Any, Any], observation: Observation, rng: random.Random) -> Any:
        state = self._state_for(game, observation, rng)
        seat = observation.player
        assert seat is not None
        return self.move(knowledge_for(game), state, seat, rng)

    def move(self, knowledge: Knowledge, state: State[Any], seat: int,
             rng: random.Random) -> Any:
        raise NotImplementedError


class NovicePlayer(_OneMovePlayer):
    """Novice: little thought, but nothing absurd (see each game's knowledge)."""

    level = "novice"

    def move(self, knowledge: Knowledge, state: State[Any], seat: int,
             rng: random.Random) -> Any:
        return knowledge.novice_move(state, seat, rng)


class AveragePlayer(_OneMovePlayer):
    """Average: the game's one-move heuristic (see each game's knowledge)."""

    level = "average"

    def move(self, knowledge: Knowledge, state: State[Any], seat: int,
             rng: random.Random) -> Any:
        return knowledge.average_move(state, seat, rng)


class VeteranPlayer(Player):
    """Veteran: searches for ``time_budget`` seconds a move (0: the game's default).

    ``max_worlds`` caps the search's rounds; with ``time_budget=float("inf")`` the choice then
    depends on the random generator alone (tests, reviews). ``clock``: ``"wall"`` (the default)
    or ``"cpu"`` (process CPU time: the arena's load-independent strength measurements).
    ``min_worlds``: rounds searched whatever the clock says (reviews).
    """

    level = "veteran"

    def __init__(self, time_budget: float = 0.0, max_worlds: int | None = None,
                 clock: str = "wall", min_worlds: int = 1) -> None:
        if time_budget < 0:
            raise ValueError(f"a time budget is 0 (the default) or more seconds, not "
                             f"{time_budget}")
        self.time_budget = time_budget
        self.max_worlds = max_worlds
        self.min_worlds = min_worlds
        self.clock = clock
        clock_function(clock)
        self.memory: Memory = {}
        """What this player remembers of the game it is playing: its own earlier
        observations, digested by the game's knowledge (a new game resets it). Keep one
        player per seat and game to let it remember; a fresh player each move plays from
        the current observation alone."""

    def limits(self, game: Game[Any, Any]) -> SearchLimits:
        """The search limits for ``game``."""
        budget = self.time_budget or knowledge_for(game).default_budget
        return SearchLimits(budget, self.max_worlds, clock=self.clock,
                            min_worlds=self.min_worlds)

    def choose(self, game: Game[Any, Any], observation: Observation, rng: random.Random) -> Any:
        return knowledge_for(game).veteran_move(game, observation, rng, self.limits(game),
                                                self.memory)

    def analyse(self, game: Game[Any, Any], observation: Observation, rng: random.Random,
                include: tuple[Any, ...] = ()) -> SearchResult:
        """The search behind a choice, with every move's estimate (hints, reviews)."""
        return knowledge_for(game).search(game, observation, rng, self.limits(game), include,
                                          self.memory)


__all__ = ["AveragePlayer", "NovicePlayer", "VeteranPlayer"]
