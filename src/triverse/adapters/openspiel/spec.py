"""What OpenSpiel is told about a Triverse game: its name, parameters and game type.

>>> from triverse.games import game_class
>>> spec = parameter_specification(game_class("triominoes"))
>>> spec["seed"], spec["utility"]
(-1, 'rank')
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from triverse.adapters import UTILITY_MODES
from triverse.core.game import Game

PREFIX: Final = "triverse_"
"""OpenSpiel names are ``PREFIX + game.name``."""

RESERVED_PARAMETERS: Final = ("players", "seed", "utility")
"""Parameters the adapter adds to a game's own options."""

TensorF32 = npt.NDArray[np.float32]
AnyGame = Game[Any, Any]

NO_INFORMATION_STATES: Final = (
    "Triverse games provide no information states (perfect recall): use observation_string / "
    "observation_tensor"
)


def short_name(game: type[AnyGame] | AnyGame | str) -> str:
    """The OpenSpiel name of a game (class, instance or Triverse name).

    >>> short_name("triominoes")
    'triverse_triominoes'
    """
    name = game if isinstance(game, str) else game.name
    return PREFIX + name


def parameter_specification(cls: type[AnyGame]) -> dict[str, int | bool | str]:
    """The parameters of ``cls`` as OpenSpiel game: the adapter's and the game's options,
    with their defaults."""
    spec: dict[str, int | bool | str] = {
        "players": cls.default_players,
        "seed": -1,
        "utility": UTILITY_MODES[0],
    }
    for option in cls.option_specs:
        if option.name in RESERVED_PARAMETERS:
            raise ValueError(
                f"{cls.__name__} declares an option {option.name!r}, a name the OpenSpiel "
                f"adapter reserves ({', '.join(RESERVED_PARAMETERS)})"
            )
        spec[option.name] = option.default
    return spec


def game_type(cls: type[AnyGame], utility: str = UTILITY_MODES[0]) -> pyspiel.GameType:
    """The OpenSpiel game type of ``cls`` with ``utility`` returns."""
    perfect = cls.perfect_information
    by_rank = utility == "rank"
    return pyspiel.GameType(
        short_name=short_name(cls),
        long_name=f"Triverse {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if by_rank else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=(
            pyspiel.GameType.RewardModel.TERMINAL
            if by_rank
            else pyspiel.GameType.RewardModel.REWARDS
        ),
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(cls),
        default_loadable=True,
    )



__all__ = [
    "NO_INFORMATION_STATES",
    "PREFIX",
    "RESERVED_PARAMETERS",
    "AnyGame",
    "TensorF32",
    "game_type",
    "parameter_specification",
    "short_name",
]
