"""The five games: a catalogue, and lookup of the ones that are built.

>>> [entry.name for entry in CATALOGUE]
['trinity', 'triangles', 'trivinity', 'trident', 'triominoes']
>>> load_game("triominoes", players=3).num_players
3
"""

from __future__ import annotations

import importlib
from typing import Any

from triverse.core.catalogue import CATALOGUE, CatalogueEntry, catalogue_entry
from triverse.core.errors import OptionError
from triverse.core.game import Game

__all__ = [
    "CATALOGUE",
    "CatalogueEntry",
    "available_games",
    "catalogue_entry",
    "game_class",
    "load_game",
]


def available_games() -> list[str]:
    """The names of the games that are built, in catalogue order."""
    return [entry.name for entry in CATALOGUE if entry.available]


def game_class(name: str) -> type[Game[Any, Any]]:
    """The :class:`Game` subclass of a built game."""
    entry = catalogue_entry(name)
    if entry.module is None:
        raise OptionError(f"{entry.title} is coming soon: it is not built yet")
    module_name, _, class_name = entry.module.partition(":")
    cls: type[Game[Any, Any]] = getattr(importlib.import_module(module_name), class_name)
    return cls


def load_game(name: str, players: int | None = None, **options: object) -> Game[Any, Any]:
    """A configured game: ``load_game("triominoes", players=4, variant="pressman")``."""
    return game_class(name)(players, options)
