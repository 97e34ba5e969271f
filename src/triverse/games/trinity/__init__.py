"""Trinity (seed 000): 76 chiral triangles for 2-4 players, over one to three rounds.

- :mod:`.tiles`: the 76 triangles and the actions, with their notation.
- :mod:`.engine`: :class:`TrinityGame` and :class:`TrinityState`, the rules, and saving.
- :mod:`.text`: the terminal picture of a position.

What Trinity shares with Tri-ominoes is written once: the grid
(:mod:`triverse.games._tiles.trigrid`, whose one detector finds hexagons, spans and two-side
plays) and the tile-game engine (:mod:`triverse.games._tiles`).
"""

from triverse.games.trinity.engine import (
    SaveRefusedError,
    TrinityGame,
    TrinityObservation,
    TrinityState,
    complete_setup,
)
from triverse.games.trinity.tiles import DRAW, PASS, TILES, TILESET, Draw, Pass, Place, Tile, tile

__all__ = [
    "DRAW",
    "PASS",
    "TILES",
    "TILESET",
    "Draw",
    "Pass",
    "Place",
    "SaveRefusedError",
    "Tile",
    "TrinityGame",
    "TrinityObservation",
    "TrinityState",
    "complete_setup",
    "tile",
]
