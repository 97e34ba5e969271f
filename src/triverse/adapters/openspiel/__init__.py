"""Every Triverse game as a Python OpenSpiel game, built generically from the core model.

Importing this module registers each game of :func:`triverse.games.available_games` with
OpenSpiel as ``triverse_<game>``:

>>> import pyspiel
>>> import triverse.adapters.openspiel as tos
>>> game = pyspiel.load_game("triverse_triominoes", {"players": 3, "seed": 7})
>>> game.num_players()
3
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> sum(state.returns())
0.0
>>> len(state.scores())
3

Parameters: ``players`` (the game's default if omitted), each option the game declares (its
:class:`~triverse.core.options.OptionSpec` name, type and default), ``seed`` (-1: a fresh seed
for every game; ``n >= 0``: the game object's generator is seeded with ``n``, so the sequence of
games reproduces) and ``utility`` (``"rank"``, the default: zero-sum returns in ``[-1, 1]`` from
the final places, see :func:`triverse.adapters.rank_returns`; ``"score"``: the raw scores, with
the score changes as rewards after every action).

Chance: Triverse states draw every shuffle and draw from their own integer seed, so the games are
registered as ``SAMPLED_STOCHASTIC``: there are no chance nodes, and a state's future is fixed by
its (hidden) seed. ``new_initial_state(seed=n)`` builds the game that seed deals.

Observations: ``observation_string(p)`` is ``state.observation(p).to_json()`` in canonical JSON and
``observation_tensor(p)`` is its ``to_tensor()``; nothing else of the state is used. Information
states (perfect recall) are not provided. ``docs/adapters.md`` explains the choices.

Games not in the catalogue (a test game, say) are registered with :func:`register`.

The parts: :mod:`~triverse.adapters.openspiel.spec` (names, parameters, game types),
:mod:`~triverse.adapters.openspiel.game` (:class:`TriverseGame`),
:mod:`~triverse.adapters.openspiel.state` (:class:`TriverseState`, :class:`TriverseObserver`)
and :mod:`~triverse.adapters.openspiel.state_core` (the Triverse state behind an OpenSpiel one).
"""
from __future__ import annotations

import warnings
from typing import Final

import pyspiel

from triverse.adapters.openspiel.game import TriverseGame
from triverse.adapters.openspiel.spec import (
    PREFIX,
    RESERVED_PARAMETERS,
    AnyGame,
    game_type,
    short_name,
)
from triverse.adapters.openspiel.state import TriverseObserver, TriverseState
from triverse.games import available_games, game_class

_REGISTERED: dict[str, type[AnyGame]] = {}
_FACTORIES: dict[str, type[TriverseGame]] = {}


def registered_games() -> dict[str, type[AnyGame]]:
    """The games this module has registered: OpenSpiel name to Triverse class."""
    return dict(_REGISTERED)


def register(cls: type[AnyGame]) -> str:
    """Register a :class:`~triverse.core.game.Game` subclass with OpenSpiel; return its name.

    Registering the same class again does nothing.
    """
    name = short_name(cls)
    known = _REGISTERED.get(name)
    if known is cls:
        return name
    if known is not None:
        raise ValueError(f"{name} is already registered, for {known.__qualname__}")
    # OpenSpiel keeps the factory until the process exits: a class (as OpenSpiel's own Python
    # games register), since a plain function freed after Python's finalization aborts the exit.
    factory = type(f"{cls.__name__}OpenSpiel", (TriverseGame,), {
        "__module__": __name__,
        "__doc__": f"{cls.title} as an OpenSpiel game ({name}).",
        "triverse_class": cls,
    })
    pyspiel.register_game(game_type(cls), factory)
    _REGISTERED[name] = cls
    _FACTORIES[name] = factory
    return name


def register_all() -> list[str]:
    """Register every available Triverse game; return their OpenSpiel names.

    A game whose engine cannot be imported is skipped with a warning, so one broken engine does
    not hide the others.
    """
    names = []
    for game in available_games():
        try:
            cls = game_class(game)
        except Exception as exc:  # an engine that does not import must not hide the others
            warnings.warn(
                f"Triverse game {game!r} is not registered with OpenSpiel: its engine does not "
                f"import ({type(exc).__name__}: {exc})",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        names.append(register(cls))
    return names


REGISTERED: Final[list[str]] = register_all()
"""The OpenSpiel names registered on import."""

__all__ = [
    "PREFIX",
    "REGISTERED",
    "RESERVED_PARAMETERS",
    "TriverseGame",
    "TriverseObserver",
    "TriverseState",
    "register",
    "register_all",
    "registered_games",
    "short_name",
]
