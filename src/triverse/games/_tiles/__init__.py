"""What the tile games (Tri-ominoes, Trinity) share, written once.

- :mod:`.tiles`: :class:`~.tiles.Tile` and :class:`~.tiles.TileSet` (a game's tiles, their
  notation and their placements by corner pattern), and the actions ``place``, ``draw`` and
  ``pass``.
- :mod:`.engine`: :class:`~.engine.TileGame` and :class:`~.engine.TileState`: the deal, legal
  placements, drawing and passing, going out, determinization and action ids. A game adds its
  opening, its bonuses and its ends of round and game.
- :mod:`.observation`: :class:`~.observation.TileObservation`, what a seat sees, its JSON and
  its tensor.
- :mod:`.setup`: explicit positions (setups), their declared shape, checked and loaded.
- :mod:`.text`: the terminal picture.

The grid itself (cells, corners, the frontier, and the one detector of hexagons, spans and
two-side plays) is :mod:`triverse.games._tiles.trigrid`.
"""
