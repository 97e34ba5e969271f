"""Trinity as a Triverse game plugin: named in ``pyproject.toml``'s ``triverse.games`` entry
points, found by :mod:`triverse.core.plugins`."""

from triverse.core.plugins import GamePlugin

PLUGIN = GamePlugin(
    engine="triverse.games.trinity.engine:TrinityGame",
    knowledge="triverse.ai.knowledge.tiles:TrinityKnowledge",
    view="/js/games/trinity.js",
    rules="/rules/trinity.html",
    order=1,
    ladder=((0.720, 400), (0.615, 400)),
)
