"""The games the server knows: the installed game plugins, and how their classes are loaded.

One place for game lookup: every plugin of :mod:`triverse.core.plugins` becomes a
:class:`GameEntry` of a :class:`GameCatalog`, and a game's class is imported from its
``"package.module:Class"`` path by :func:`triverse.core.plugins.resolve_game` (also in the
computer players' workers, through :class:`~triverse.server.bots.GameSpec`). This module
imports nothing of the web stack.

>>> catalog = GameCatalog()
>>> name = next(iter(catalog.games))
>>> catalog.entry(name).cls().name == name
True
>>> catalog.entry("chess")
Traceback (most recent call last):
...
triverse.server.errors.ServerError: unknown game 'chess'; the games are: ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from triverse.core.game import Game
from triverse.core.plugins import plugins, resolve_game
from triverse.server.errors import ServerError, clip


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A game the server knows, from its plugin."""

    name: str
    title: str
    summary: str
    module: str
    """The engine's ``"package.module:Class"`` path."""
    view: str | None = None
    """The browser's module for the game (its plugin's ``view``); ``None``: no table."""
    rules: str | None = None
    """The URL path of its rules page."""
    static: str | None = None
    """``"package:folder"`` of static files the plugin ships, served at ``/games/{name}/``."""

    def cls(self) -> type[Game[Any, Any]]:
        """The game's class."""
        return resolve_game(self.module)


class GameCatalog:
    """The installed games (:func:`triverse.core.plugins.plugins`), in listing order."""

    def __init__(self) -> None:
        self.games: dict[str, GameEntry] = {}
        """Every game by name, in the order the lobby lists them."""
        for name, plugin in plugins().items():
            cls = plugin.game_class()
            self.games[name] = GameEntry(name, cls.title, cls.summary, plugin.engine,
                                         plugin.view, plugin.rules, plugin.static)

    def entry(self, name: str) -> GameEntry:
        """The game called ``name``, or ``unknown_game``."""
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(self.games)
            raise ServerError("unknown_game",
                              f"unknown game {clip(name)}; the games are: {known}") from None

    def get(self, name: str) -> GameEntry | None:
        """The game called ``name``, if the server knows it."""
        return self.games.get(name)
