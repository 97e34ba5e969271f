"""The games: each is a package here that declares itself once, in its ``plugin.py``, as a
:class:`~triverse.core.plugins.GamePlugin` named in the ``triverse.games`` entry points.

What is shared by several games lives beside them (:mod:`triverse.games._tiles`, the engine
and the triangular grid of Tri-ominoes and Trinity). The look-ups are
:mod:`triverse.core.plugins`', re-exported here:

>>> available_games()
['trinity', 'triangles', 'trivinity', 'trident', 'triominoes']
>>> load_game("triominoes", players=3).num_players
3
"""

from __future__ import annotations

from triverse.core.plugins import (
    GamePlugin,
    available_games,
    game_class,
    load_game,
    plugin,
    plugins,
)

__all__ = ["GamePlugin", "available_games", "game_class", "load_game", "plugin", "plugins"]
