"""The 56 Tri-ominoes tiles and the three kinds of action, with their text notation.

A tile has a number from 0 to 5 at each corner; every multiset of three such numbers occurs
once, and the numbers never decrease reading clockwise from the smallest. A tile is written by
its numbers clockwise from the smallest: ``1-3-5``. Other starting corners are read too, as long
as the clockwise order is a real tile's (``3-5-1`` is ``1-3-5``; ``1-5-3`` is no tile).

The tile and action types, and the notation, are the tile games' shared ones
(:mod:`triverse.games._tiles.tiles`); this module holds the Tri-ominoes set.

>>> len(TILES), TILES[0], TILES[-1]
(56, Tile('0-0-0'), Tile('5-5-5'))
>>> tile("3-5-1"), tile("3-5-1").total
(Tile('1-3-5'), 9)
>>> str(parse_action("3-5-1@1,0/0")), str(parse_action(" DRAW "))
('1-3-5@1,0/1', 'draw')
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Final

from triverse.games._tiles.tiles import DRAW, PASS, Action, Draw, Pass, Place, Tile, TileSet
from triverse.games._tiles.trigrid import PlacementIndex, Values


def _rising(values: Values) -> str:
    return f"the numbers of a tile increase clockwise ({'-'.join(map(str, sorted(values)))} " \
        f"is a tile)"


TILESET: Final = TileSet("Tri-ominoes", combinations_with_replacement(range(6), 3), __name__,
                         misread=_rising)
"""The 56 tiles: every multiset of three numbers 0-5, rising clockwise."""
TILES: Final[tuple[Tile, ...]] = TILESET.tiles
"""The 56 tiles, ``0-0-0`` first and ``5-5-5`` last."""
TRIPLES: Final[tuple[Tile, ...]] = tuple(t for t in TILES if t.is_triple)
ZERO_TRIPLE: Final[Tile] = TILES[0]
PLACEMENTS: Final[PlacementIndex[Tile]] = TILESET.placements
"""Every tile's distinct placements by the corner pattern they fit."""


def tile(text: str) -> Tile:
    """The tile written ``text`` (its numbers clockwise, from any corner).

    >>> tile("5-5-5") is TILES[55]
    True
    >>> tile("1-5-3")
    Traceback (most recent call last):
    ...
    triverse.core.errors.NotationError: no tile reads 1-5-3 clockwise: the numbers of a tile \
increase clockwise (1-3-5 is a tile)
    """
    return TILESET.tile(text)


def parse_action(text: str) -> Action:
    """Read an action's notation (syntax only; legality is the state's business).

    A placement is ``TILE@X,Y/R`` (``/R`` may be left out for rotation 0). A tile written from
    another corner than its smallest number is turned to its canonical form and the rotation
    adjusted, so the same corners get the same numbers. A triple has one rotation, 0.

    >>> parse_action("5-5-5@0,0")
    Place(tile=Tile('5-5-5'), cell=(0, 0), rotation=0)
    >>> parse_action("5-5-5@1,-1/2").rotation
    0
    >>> parse_action("1-3-5@1,0/3")
    Traceback (most recent call last):
    ...
    triverse.core.errors.NotationError: the rotation is 0, 1 or 2, not 3
    """
    return TILESET.parse_action(text)


__all__ = ["DRAW", "PASS", "PLACEMENTS", "TILES", "TILESET", "TRIPLES", "ZERO_TRIPLE", "Action",
           "Draw", "Pass", "Place", "Tile", "parse_action", "tile"]
