"""Game plugins: how a game joins Triverse, found through Python entry points.

A game declares itself once, in its own package, as a :class:`GamePlugin`: where its engine
(the :class:`~triverse.core.game.Game` subclass, which carries its name, title, summary and
options), its computer players' knowledge and its browser view are. The package that ships it
names that object in the ``triverse.games`` entry-point group of its ``pyproject.toml``::

    [project.entry-points."triverse.games"]
    somegame = "somegame.plugin:PLUGIN"

Triverse's own five games are found exactly as a game installed from another package is: this
module knows no game by name. Everything is imported lazily: listing the games imports each
game's small package, and an engine, a knowledge or a view is imported when first asked for.

>>> name = available_games()[0]
>>> plugin(name).game_class().name == name
True
>>> load_game(name).num_players >= 1
True
>>> plugin("chess")
Traceback (most recent call last):
...
triverse.core.errors.OptionError: unknown game 'chess'; the games are: ...
"""

from __future__ import annotations

import functools
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from triverse.core.errors import OptionError

if TYPE_CHECKING:
    from triverse.core.game import Game

GROUP = "triverse.games"
"""The entry-point group a game plugin is declared in."""


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """One game, as Triverse's layers see it. Paths are ``"package.module:Name"`` strings,
    resolved with :func:`pkgutil.resolve_name` when first needed, so that declaring a game
    imports none of its parts (and no layer imports another the wrong way)."""

    engine: str
    """The :class:`~triverse.core.game.Game` subclass: ``"somegame.engine:SomeGame"``.
    Its class attributes are the game's name, title, summary, player counts and options."""
    knowledge: str | None = None
    """The computer players' knowledge of the game, a subclass of
    :class:`triverse.ai.knowledge.Knowledge`; ``None``: the generic knowledge (greedy by
    points), which plays any game."""
    view: str | None = None
    """The browser's module for the game: a URL path the page imports
    (``"/js/games/somegame.js"``); ``None``: the game has no table in the browser (it is still
    played through the API, the terminal and the adapters)."""
    static: str | None = None
    """Static files a game from outside this repository ships for its view:
    ``"package:folder"``, served at ``/games/{name}/``; its ``view`` then points there."""
    rules: str | None = None
    """A URL path of the game's rules page, for the lobby's "Rules" link."""
    order: int = 100
    """Where the game stands in listings (lower first; equal orders by name)."""
    ladder: tuple[tuple[float, int], tuple[float, int]] | None = None
    """What the arena measured of the computer levels (``docs/ai.md``'s ladder): the average
    level's win rate against the novice, and the veteran's (at its default thinking time)
    against the average, each with the number of games. Ratings anchor the levels on it;
    ``None``: not measured (ratings then pool the other games' figures)."""

    def game_class(self) -> type[Game[Any, Any]]:
        """The engine class, imported on first use."""
        return resolve_game(self.engine)


def resolve(path: str) -> Any:
    """The object a ``"package.module:Name"`` path names (``pkgutil.resolve_name``), with a
    clear error when it is not there.

    >>> resolve("triverse.core.plugins:GROUP")
    'triverse.games'
    """
    try:
        return pkgutil.resolve_name(path)
    except (ImportError, AttributeError, ValueError) as exc:
        raise OptionError(f"cannot load {path!r}: {exc}") from None


@functools.cache
def resolve_game(path: str) -> type[Game[Any, Any]]:
    """The :class:`~triverse.core.game.Game` subclass a ``"package.module:Class"`` path names
    (imported once); :class:`OptionError` if it names something else."""
    from triverse.core.game import Game

    cls = resolve(path)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise OptionError(f"{path!r} is not a Game subclass")
    return cls


@functools.cache
def _registry() -> dict[str, GamePlugin]:
    found: dict[str, GamePlugin] = {}
    for point in entry_points(group=GROUP):
        if point.name in found:
            continue  # the first on sys.path wins, as for any import
        declared = point.load()
        if not isinstance(declared, GamePlugin):
            raise OptionError(f"the {GROUP} entry point {point.name!r} ({point.value}) is not "
                              f"a GamePlugin but {type(declared).__name__}")
        found[point.name] = declared
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def plugins() -> Mapping[str, GamePlugin]:
    """Every installed game's plugin, by game name, in listing order."""
    return _registry()


def refresh() -> None:
    """Forget what was found, so that the next look-up reads the entry points again (after a
    package was installed, or a test put a plugin on ``sys.path``)."""
    _registry.cache_clear()
    resolve_game.cache_clear()


def plugin(name: str) -> GamePlugin:
    """The plugin of the game called ``name``; :class:`OptionError` naming the games if none."""
    found = _registry().get(name)
    if found is None:
        known = ", ".join(_registry())
        raise OptionError(f"unknown game {name!r}; the games are: {known}")
    return found


def available_games() -> list[str]:
    """The names of the installed games, in listing order."""
    return list(_registry())


def game_class(name: str) -> type[Game[Any, Any]]:
    """The :class:`~triverse.core.game.Game` subclass of the game called ``name``."""
    cls = plugin(name).game_class()
    if cls.name != name:
        raise OptionError(f"the game plugin {name!r} names the engine {cls.name!r}")
    return cls


def load_game(name: str, players: int | None = None, **options: object) -> Game[Any, Any]:
    """A configured game: ``load_game(name, players=4, variant="official")``."""
    return game_class(name)(players, options)
