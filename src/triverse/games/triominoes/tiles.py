"""The 56 Tri-ominoes tiles and the three kinds of action, with their text notation.

A tile has a number from 0 to 5 at each corner; every multiset of three such numbers occurs
once, and the numbers never decrease reading clockwise from the smallest. A tile is written by
its numbers clockwise from the smallest: ``1-3-5``. Other starting corners are read too, as long
as the clockwise order is a real tile's (``3-5-1`` is ``1-3-5``; ``1-5-3`` is no tile).

>>> len(TILES), TILES[0], TILES[-1]
(56, Tile('0-0-0'), Tile('5-5-5'))
>>> tile("3-5-1"), tile("3-5-1").total
(Tile('1-3-5'), 9)
>>> str(parse_action("3-5-1@1,0/0")), str(parse_action(" DRAW "))
('1-3-5@1,0/1', 'draw')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any, Final

from triverse.core.errors import NotationError
from triverse.core.trigrid import Cell, PlacementIndex, Values, format_cell, rotate


class Tile:
    """One of the 56 tiles; there is exactly one object per tile (also after pickling), so
    equality and hashing are by identity, the fastest there is.

    ``values`` are its numbers clockwise from the smallest, ``total`` their sum, ``index`` its
    place in :data:`TILES` (0 is ``0-0-0``, 55 is ``5-5-5``).
    """

    __slots__ = ("_text", "index", "total", "values")

    values: Values
    index: int
    total: int
    _text: str

    def __init__(self, values: Values, index: int) -> None:
        if _SEALED:
            raise TypeError("the 56 tiles already exist: use tile('a-b-c')")
        self.values = values
        self.index = index
        self.total = sum(values)
        self._text = "-".join(str(v) for v in values)

    @property
    def is_triple(self) -> bool:
        """The same number at all three corners."""
        return self.values[0] == self.values[2]

    @property
    def rank(self) -> tuple[int, int, int, int]:
        """How high the tile is when choosing who opens: its total, then its numbers from the
        largest down (``4-4-5`` is below ``3-5-5``)."""
        a, b, c = self.values
        return (self.total, c, b, a)

    def placed(self, rotation: int) -> Values:
        """Its numbers at a cell's corners 0, 1, 2 with ``rotation``."""
        return rotate(self.values, rotation)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile({self._text!r})"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (tile, (self._text,))


_SEALED = False
TILES: Final[tuple[Tile, ...]] = tuple(
    Tile((a, b, c), i) for i, (a, b, c) in enumerate(combinations_with_replacement(range(6), 3)))
"""The 56 tiles, ``0-0-0`` first and ``5-5-5`` last."""
_SEALED = True

TRIPLES: Final[tuple[Tile, ...]] = tuple(t for t in TILES if t.is_triple)
ZERO_TRIPLE: Final[Tile] = TILES[0]

_BY_CYCLE: dict[Values, tuple[Tile, int]] = {}
"""Every clockwise reading of every tile: the tile and the rotation giving that reading."""
for _t in TILES:
    for _r in (2, 1, 0):
        _BY_CYCLE[rotate(_t.values, _r)] = (_t, _r)

PLACEMENTS: Final[PlacementIndex[Tile]] = PlacementIndex(TILES, lambda t: t.values)
"""Every tile's distinct placements by the corner pattern they fit."""

_TILE_TEXT = re.compile(r"([0-9])-([0-9])-([0-9])")


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
    found, _ = _read_tile(text)
    return found


def _read_tile(text: str) -> tuple[Tile, int]:
    """The tile written ``text`` and the rotation that turns its canonical reading into it."""
    match = _TILE_TEXT.fullmatch(text.strip())
    if match is None:
        raise NotationError(f"a tile is written as three numbers 0-5 joined by '-', like 1-3-5; "
                            f"not {text.strip()!r}")
    values = (int(match[1]), int(match[2]), int(match[3]))
    if max(values) > 5:
        raise NotationError(f"tile numbers run from 0 to 5; {text.strip()!r} has "
                            f"{max(values)}")
    found = _BY_CYCLE.get(values)
    if found is None:
        canonical = "-".join(str(v) for v in sorted(values))
        raise NotationError(f"no tile reads {text.strip()} clockwise: the numbers of a tile "
                            f"increase clockwise ({canonical} is a tile)")
    return found


# --- actions -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Place:
    """Put ``tile`` on ``cell`` with ``rotation``: corner ``i`` of the cell gets the tile's
    number ``(i + rotation) mod 3`` (see :mod:`triverse.core.trigrid`). Written
    ``1-3-5@2,0/1``."""

    tile: Tile
    cell: Cell
    rotation: int = 0

    @property
    def values(self) -> Values:
        """The numbers at the cell's corners 0, 1, 2."""
        return self.tile.placed(self.rotation)

    def __str__(self) -> str:
        return f"{self.tile}@{format_cell(self.cell)}/{self.rotation}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top tile of the pool. Written ``draw``."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing. Written ``pass``."""

    def __str__(self) -> str:
        return "pass"


Action = Place | Draw | Pass
DRAW: Final = Draw()
PASS: Final = Pass()

_PLACE = re.compile(r"(?P<tile>[^@]+)@(?P<x>-?[0-9]+),(?P<y>-?[0-9]+)(?:/(?P<r>[0-9]+))?")


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
    raw = text.strip()
    lowered = raw.lower()
    if lowered == "draw":
        return DRAW
    if lowered == "pass":
        return PASS
    match = _PLACE.fullmatch(raw.replace(" ", ""))
    if match is None:
        raise NotationError(f"not a Tri-ominoes action: {raw!r} (write a placement like "
                            f"1-3-5@2,0/1, or draw, or pass)")
    found, shift = _read_tile(match["tile"])
    rotation = int(match["r"] or 0)
    if rotation > 2:
        raise NotationError(f"the rotation is 0, 1 or 2, not {rotation}")
    rotation = 0 if found.is_triple else (rotation + shift) % 3
    return Place(found, (int(match["x"]), int(match["y"])), rotation)
