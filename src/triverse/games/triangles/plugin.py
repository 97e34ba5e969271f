"""Triangles as a Triverse game plugin: named in ``pyproject.toml``'s ``triverse.games`` entry
points, found by :mod:`triverse.core.plugins`."""

from triverse.core.plugins import GamePlugin

PLUGIN = GamePlugin(
    engine="triverse.games.triangles.engine:TrianglesGame",
    knowledge="triverse.ai.knowledge.triangles:TrianglesKnowledge",
    view="/js/games/triangles.js",
    rules="/rules/triangles.html",
    order=2,
    ladder=((0.994, 400), (0.850, 30)),
)
