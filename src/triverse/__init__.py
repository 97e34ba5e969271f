"""Triverse: five "tri" games with exact rules engines, computer players and adapters.

The engines live in :mod:`triverse.games`, built on the shared model of :mod:`triverse.core`.

>>> import triverse
>>> state = triverse.load_game("triominoes", players=2).new_initial_state(seed=7)
>>> state.current_player in (0, 1)
True
"""

from triverse.core.errors import (
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
    TriverseError,
)
from triverse.games import available_games, game_class, load_game

__all__ = [
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "RecordError",
    "TriverseError",
    "available_games",
    "game_class",
    "load_game",
]

__version__ = "0.1.0"
