"""What the tile games (Tri-ominoes, Trinity) share, written once.

- :mod:`.tiles`: :class:`~.tiles.Tile` and :class:`~.tiles.TileSet` (a game's tiles, their
  notation and their placements by corner pattern), and the actions ``place``, ``draw`` and
  ``pass``.
- :mod:`.engine`: :class:`~.engine.TileGame`, :class:`~.engine.TileState` and
  :class:`~.engine.TileObservation`: the deal, legal placements, drawing and passing, going out,
  observations, determinization, action ids and setups. A game adds its opening, its bonuses
  and its ends of round and game.
- :mod:`.text`: the terminal picture.

The grid itself (cells, corners, the frontier, and the one detector of hexagons, spans and
two-side plays) is :mod:`triverse.games._tiles.trigrid`.
"""
