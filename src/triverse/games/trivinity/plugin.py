"""Trivinity as a Triverse game plugin: named in ``pyproject.toml``'s ``triverse.games`` entry
points, found by :mod:`triverse.core.plugins`."""

from triverse.core.plugins import GamePlugin

PLUGIN = GamePlugin(
    engine="triverse.games.trivinity.engine:TrivinityGame",
    knowledge="triverse.ai.knowledge.trivinity:TrivinityKnowledge",
    view="/js/games/trivinity.js",
    rules="/rules/trivinity.html",
    order=3,
    ladder=((0.990, 400), (0.765, 400)),
)
