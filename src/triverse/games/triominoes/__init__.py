"""Tri-ominoes (seed 004): the 56 triangular dominoes for 2-6 players, played to 400.

- :mod:`.tiles`: the tiles, the actions and their notation.
- :mod:`.engine`: :class:`TriominoesGame` and :class:`TriominoesState`, the rules.
- :mod:`.text`: the terminal picture of a position.

The grid itself (cells, corners, the frontier, hexagons and bridges) is
:mod:`triverse.games._tiles.trigrid`, shared with Trinity.
"""

from triverse.games.triominoes.engine import (
    TriominoesGame,
    TriominoesObservation,
    TriominoesState,
)
from triverse.games.triominoes.tiles import DRAW, PASS, TILES, Draw, Pass, Place, Tile, tile

__all__ = [
    "DRAW",
    "PASS",
    "TILES",
    "Draw",
    "Pass",
    "Place",
    "Tile",
    "TriominoesGame",
    "TriominoesObservation",
    "TriominoesState",
    "tile",
]
