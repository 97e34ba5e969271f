"""Tri-ominoes as a Triverse game plugin: named in ``pyproject.toml``'s ``triverse.games`` entry
points, found by :mod:`triverse.core.plugins`."""

from triverse.core.plugins import GamePlugin

PLUGIN = GamePlugin(
    engine="triverse.games.triominoes.engine:TriominoesGame",
    knowledge="triverse.ai.knowledge.tiles:TileKnowledge",
    view="/js/games/triominoes.js",
    rules="/rules/triominoes.html",
    order=5,
    ladder=((0.730, 400), (0.685, 400)),
)
