"""Trident as a Triverse game plugin: named in ``pyproject.toml``'s ``triverse.games`` entry
points, found by :mod:`triverse.core.plugins`."""

from triverse.core.plugins import GamePlugin

PLUGIN = GamePlugin(
    engine="triverse.games.trident.engine:TridentGame",
    knowledge="triverse.ai.knowledge.trident:TridentKnowledge",
    view="/js/games/trident.js",
    rules="/rules/trident.html",
    order=4,
    ladder=((0.992, 400), (0.674, 400)),
)
