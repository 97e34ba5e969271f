"""The five games: a catalogue, and lookup of the ones that are built.

>>> [entry.name for entry in CATALOGUE]
['trinity', 'triangles', 'trivinity', 'trident', 'triominoes']
>>> load_game("triominoes", players=3).num_players
3
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from triverse.core.errors import OptionError
from triverse.core.game import Game


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """A game of Triverse, built or still to come."""

    name: str
    title: str
    summary: str
    seed_file: str
    module: str | None
    """``"package.module:ClassName"`` of the :class:`Game` subclass; ``None``: coming soon."""

    @property
    def available(self) -> bool:
        return self.module is not None


CATALOGUE: tuple[CatalogueEntry, ...] = (
    CatalogueEntry(
        "trinity", "Trinity",
        "Triangle tiles numbered 0-5, 76 of them: match corners, score Hexagons, Spans and "
        "Slides over up to three rounds.",
        "000_ac294f1c52767fae.txt", "triverse.games.trinity.engine:TrinityGame"),
    CatalogueEntry(
        "triangles", "Triangles",
        "Two players draw non-crossing lines between the stars of a random cloud; closing an "
        "empty triangle scores.",
        "001_b7657b4fe759119d.txt", "triverse.games.triangles.engine:TrianglesGame"),
    CatalogueEntry(
        "trivinity", "Trivinity",
        "A deck-building game of gods: gather Power, Mana and Tribute and buy from a 3x3 grid of "
        "stacks.",
        "002_c825b3f57a62bffb.txt", "triverse.games.trivinity.engine:TrivinityGame"),
    CatalogueEntry(
        "trident", "Trident",
        "Number tiles 0-15 laid crossword style: every line of three must total exactly 15.",
        "003_b3db9e286a3c0d3a.txt", "triverse.games.trident.engine:TridentGame"),
    CatalogueEntry(
        "triominoes", "Tri-ominoes",
        "The 1965 triangular dominoes for 2-6 players: match corners, build hexagons and "
        "bridges, play to 400.",
        "004_24418ddd36cf3878.txt", "triverse.games.triominoes.engine:TriominoesGame"),
)

_BY_NAME = {entry.name: entry for entry in CATALOGUE}


def available_games() -> list[str]:
    """The names of the games that are built, in catalogue order."""
    return [entry.name for entry in CATALOGUE if entry.available]


def catalogue_entry(name: str) -> CatalogueEntry:
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(entry.name for entry in CATALOGUE)
        raise OptionError(f"unknown game {name!r}; the games are: {known}") from None


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
