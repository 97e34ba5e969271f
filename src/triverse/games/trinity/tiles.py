"""The 76 Trinity triangles: every combination of three numbers 0-5, and the mirror images.

The seed: "There are 76 triangles altogether. 56 triangles with all the various combinations of
the numbers 0 - 5 as well as the reverse order for triangles that do not contain a double".
So every clockwise reading of three numbers 0-5 is a triangle: ``0-1-2`` and its mirror image
``0-2-1`` are two triangles (chiral: turning never makes one into the other), while a triangle
with a repeated number is its own mirror image (``0-0-1`` read backwards is ``1-0-0``, the same
triangle turned).

A triangle is written clockwise from its smallest number (of two readings starting with it, the
lower): ``0-2-1``, ``0-0-5``. Any clockwise reading is read: ``2-1-0`` is ``0-2-1``, and
``1-0-2`` is ``0-2-1`` too, while ``1-2-0`` is ``0-1-2``.

>>> len(TILES), sum(t.is_triple for t in TILES), TILES[0], TILES[-1]
(76, 6, Tile('0-0-0'), Tile('5-5-5'))
>>> tile("2-1-0"), tile("1-2-0"), TILESET.mirror(tile("0-1-2"))
(Tile('0-2-1'), Tile('0-1-2'), Tile('0-2-1'))
>>> str(parse_action("2-1-0@1,0")), str(parse_action("0-2-1@1,0/1"))
('0-2-1@1,0/1', '0-2-1@1,0/1')
"""

from __future__ import annotations

from typing import Final

from triverse.games._tiles.tiles import DRAW, PASS, Action, Draw, Pass, Place, Tile, TileSet

TILESET: Final = TileSet(
    "Trinity", ((a, b, c) for a in range(6) for b in range(6) for c in range(6)), __name__)
"""The 76 triangles, in the order of their canonical readings: ``0-0-0`` ... ``5-5-5``."""
TILES: Final[tuple[Tile, ...]] = TILESET.tiles
CHIRAL: Final[tuple[Tile, ...]] = tuple(t for t in TILES if TILESET.mirror(t) is not t)
"""The 40 triangles with three different numbers: 20 pairs of mirror images."""

tile = TILESET.tile
"""The triangle written ``text`` (its numbers clockwise, from any corner)."""
parse_action = TILESET.parse_action
"""Read an action's notation: ``TILE@X,Y/R``, ``draw`` or ``pass`` (syntax only)."""

__all__ = ["CHIRAL", "DRAW", "PASS", "TILES", "TILESET", "Action", "Draw", "Pass", "Place", "Tile",
           "parse_action", "tile"]
