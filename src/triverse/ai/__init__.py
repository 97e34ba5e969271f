"""Computer players.

A computer player is given a seat's :class:`~triverse.core.game.Observation`, never the full
state: to look ahead it builds a state with :meth:`Game.determinize`, which fills in what the
seat cannot see at random.

>>> import random
>>> from triverse import load_game
>>> game = load_game("triominoes", players=2)
>>> state = game.new_initial_state(seed=5)
>>> bot = make_player("average")
>>> seat = state.current_player
>>> action = bot.choose(game, state.observation(seat), random.Random(0))
>>> state.is_legal(action)
True
"""

from __future__ import annotations

import importlib

from triverse.ai.basic import GreedyPlayer, Player, RandomPlayer
from triverse.core.errors import OptionError

LEVELS = ("novice", "average")
"""The computer levels that exist now; ``veteran`` arrives with the AI issue."""


GAME_PLAYERS: dict[tuple[str, str], str] = {
    # Trivinity scores only at the end, so the greedy player would see nothing to choose by.
    ("trivinity", "average"): "triverse.games.trivinity.bots:TrivinityAveragePlayer",
}
"""Players written for one game, by (game, level): ``module:ClassName``."""


def make_player(level: str, game: str | None = None) -> Player:
    """A computer player of ``level`` (``novice`` or ``average``) for ``game``."""
    special = GAME_PLAYERS.get((game or "", level))
    if special is not None:
        module_name, _, class_name = special.partition(":")
        player: Player = getattr(importlib.import_module(module_name), class_name)()
        return player
    if level == "novice":
        return RandomPlayer()
    if level == "average":
        return GreedyPlayer()
    if level == "veteran":
        raise OptionError("the veteran computer player is not built yet; use novice or average")
    raise OptionError(f"unknown computer level {level!r}; the levels are: {', '.join(LEVELS)}")


__all__ = ["LEVELS", "GreedyPlayer", "Player", "RandomPlayer", "make_player"]
