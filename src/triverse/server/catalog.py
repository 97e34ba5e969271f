"""The games the server knows, and how their classes are loaded.

One place for game lookup: the catalogue's games (``triverse.games.CATALOGUE``) and the
settings' extra games become :class:`GameEntry` objects of a :class:`GameCatalog`, and a game's
class is imported from its ``"package.module:Class"`` path by :func:`game_class_at` (also in the
computer players' workers, through :class:`~triverse.server.bots.GameSpec`). This module
imports nothing of the web stack.

>>> catalog = GameCatalog()
>>> catalog.entry("triominoes").cls().name
'triominoes'
>>> catalog.entry("chess")
Traceback (most recent call last):
...
triverse.server.errors.ServerError: unknown game 'chess'; the games are: trinity, triangles, \
trivinity, trident, triominoes
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from triverse.core.game import Game
from triverse.games import CATALOGUE
from triverse.server.errors import ServerError


def game_class_at(module: str) -> type[Game[Any, Any]]:
    """Import a ``"package.module:ClassName"`` game class."""
    module_name, _, class_name = module.partition(":")
    cls: type[Game[Any, Any]] = getattr(importlib.import_module(module_name), class_name)
    return cls


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A game the server knows: from the catalogue, or added by the settings."""

    name: str
    title: str
    summary: str
    module: str | None
    """``"package.module:Class"``; ``None`` while the game is coming soon."""

    def cls(self) -> type[Game[Any, Any]]:
        """The game's class (only for an available game)."""
        if self.module is None:
            raise ServerError("game_unavailable", f"{self.title} is coming soon: it is not "
                              "built yet")
        return game_class_at(self.module)


class GameCatalog:
    """The catalogue's games, then the ``extra_games`` (``"module:Class"`` paths, named by
    the class's ``name``), in that order."""

    def __init__(self, extra_games: Iterable[str] = ()) -> None:
        self.games: dict[str, GameEntry] = {
            e.name: GameEntry(e.name, e.title, e.summary, e.module) for e in CATALOGUE
        }
        """Every game by name, in the order the lobby lists them."""
        for module in extra_games:
            cls = game_class_at(module)
            self.games[cls.name] = GameEntry(cls.name, cls.title, cls.summary, module)

    def entry(self, name: str) -> GameEntry:
        """The game called ``name``, or ``unknown_game``."""
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(self.games)
            raise ServerError("unknown_game",
                              f"unknown game {name!r}; the games are: {known}") from None

    def get(self, name: str) -> GameEntry | None:
        """The game called ``name``, if the server knows it."""
        return self.games.get(name)
