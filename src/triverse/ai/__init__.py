"""Computer players.

A computer player is given a seat's :class:`~triverse.core.game.Observation`, never the full
state: to look ahead it builds a state with :meth:`Game.determinize`, which fills in what the
seat cannot see at random.

Three levels (``docs/ai.md`` describes each game's):

- ``novice``: legal moves with little thought, but nothing absurd; a beginner beats it;
- ``average``: a solid one-move heuristic player;
- ``veteran``: searches within a time budget per move (``time_budget`` seconds; 0 is the game's
  default), by determinized Monte Carlo in the games with hidden information and by
  alpha-beta in Triangles.

>>> import random
>>> from triverse import load_game
>>> game = load_game("triominoes", players=2)
>>> state = game.new_initial_state(seed=5)
>>> bot = make_player("average")
>>> seat = state.current_player
>>> action = bot.choose(game, state.observation(seat), random.Random(0))
>>> state.is_legal(action)
True
>>> make_player("veteran", time_budget=0.5).time_budget
0.5

:func:`hint` and :func:`review` (:mod:`triverse.ai.review`) are the engine side of the
browser's hints and game reviews.
"""

from __future__ import annotations

from triverse.ai.basic import GreedyPlayer, Player, RandomPlayer
from triverse.ai.levels import AveragePlayer, NovicePlayer, VeteranPlayer
from triverse.ai.review import MoveReview, hint, review
from triverse.core.errors import OptionError

LEVELS = ("novice", "average", "veteran")
"""The computer levels, weakest first."""


def make_player(level: str, time_budget: float | None = None) -> Player:
    """A computer player of ``level``; each level plays every game by the game's knowledge
    (:func:`triverse.ai.knowledge.knowledge_for`). ``time_budget``: the seconds a ``veteran``
    may think about a move (``None`` or 0: the game's default)."""
    if level == "novice":
        return NovicePlayer()
    if level == "average":
        return AveragePlayer()
    if level == "veteran":
        return VeteranPlayer(time_budget or 0.0)
    raise OptionError(f"unknown computer level {level!r}; the levels are: {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
    "AveragePlayer",
    "GreedyPlayer",
    "MoveReview",
    "NovicePlayer",
    "Player",
    "RandomPlayer",
    "VeteranPlayer",
    "hint",
    "make_player",
    "review",
]
