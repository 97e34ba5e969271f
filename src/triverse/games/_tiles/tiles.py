"""Numbered triangle tiles, the sets they come in, and the three actions of a tile game.

A tile carries a number at each corner, read **clockwise**. A :class:`TileSet` is built once per
game from the clockwise readings of its tiles: Tri-ominoes' 56 (every multiset of three numbers
0-5, rising clockwise) or Trinity's 76 (the same 56 and the 20 mirror images of the tiles with
three different numbers). A tile is written by its numbers clockwise from its smallest one (of
the readings starting there, the lowest): ``0-1-2``, ``0-0-5``. Any other clockwise reading of the
same tile is read too (``1-2-0`` is ``0-1-2``); a reading that is not clockwise order of any tile
of the set is a :class:`NotationError`.

Tiles turn on the board but are never turned over: ``0-1-2`` and ``0-2-1`` read each other
counter-clockwise (:meth:`TileSet.mirror`) and are different tiles where the set holds both.

>>> chiral = TileSet("Example", [(0, 1, 2), (0, 2, 1), (1, 1, 1)], "example")
>>> chiral.tiles
(Tile('0-1-2'), Tile('0-2-1'), Tile('1-1-1'))
>>> chiral.tile("2-0-1"), chiral.mirror(chiral.tile("0-1-2"))
(Tile('0-1-2'), Tile('0-2-1'))
>>> str(chiral.parse_action("2-0-1@1,0/0")), str(chiral.parse_action(" DRAW "))
('0-1-2@1,0/2', 'draw')
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from triverse.core.errors import NotationError
from triverse.games._tiles.trigrid import Cell, PlacementIndex, Values, format_cell, rotate

_MINT = object()
"""The key that lets a :class:`TileSet`, and nothing else, make tiles."""

_SETS: dict[str, TileSet] = {}
"""Every tile set made, by the module that made it (for unpickling tiles)."""


def _canonical(values: Values) -> Values:
    """The lowest of a tile's three clockwise readings: from its smallest number."""
    return min(rotate(values, r) for r in range(3))


class Tile:
    """One tile of a set; there is exactly one object per tile (also after copies and pickling),
    so equality and hashing are by identity, the fastest there is.

    ``values`` are its numbers clockwise from the smallest, ``total`` their sum, ``index`` its
    place in its set's :attr:`TileSet.tiles`, ``is_triple`` whether all three are equal.
    """

    __slots__ = ("_set", "_text", "_turns", "index", "is_triple", "total", "values")

    values: Values
    index: int
    total: int
    is_triple: bool
    _set: str
    _text: str
    _turns: tuple[Values, Values, Values]

    def __init__(self, values: Values, index: int, tileset: str = "", *,
                 _mint: object = None) -> None:
        if _mint is not _MINT:
            raise TypeError("every tile already exists: read one with tile('a-b-c')")
        self.values = values
        self.index = index
        self.total = sum(values)
        self.is_triple = values[0] == values[1] == values[2]
        self._set = tileset
        self._text = "-".join(str(v) for v in values)
        self._turns = (rotate(values, 0), rotate(values, 1), rotate(values, 2))

    @property
    def rank(self) -> tuple[int, ...]:
        """How high the tile is: its total, then its numbers from the largest down (``4-4-5`` is
        below ``3-5-5``)."""
        return (self.total, *sorted(self.values, reverse=True))

    def placed(self, rotation: int) -> Values:
        """Its numbers at a cell's corners 0, 1, 2 with ``rotation``."""
        return self._turns[rotation % 3]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile({self._text!r})"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (_unpickle, (self._set, self._text))


def _unpickle(module: str, text: str) -> Tile:
    if module not in _SETS:
        importlib.import_module(module)
    return _SETS[module].tile(text)


class TileSet:
    """The tiles of one game, with every way to read them and to place them.

    ``readings`` are the tiles' numbers clockwise (from any corner; a tile given twice counts
    once); ``module`` names the module that builds the set (tiles unpickle through it);
    ``misread`` says, for a clockwise reading of no tile, what the rule is.
    """

    def __init__(self, title: str, readings: Iterable[Values], module: str,
                 misread: Callable[[Values], str] | None = None) -> None:
        self.title = title
        self.module = module
        self.misread = misread
        canonical = sorted({_canonical(values) for values in readings})
        self.tiles: tuple[Tile, ...] = tuple(
            Tile(values, i, module, _mint=_MINT) for i, values in enumerate(canonical))
        self.highest = max(max(t.values) for t in self.tiles)
        by_cycle: dict[Values, tuple[Tile, int]] = {}
        for t in self.tiles:
            for r in (2, 1, 0):
                by_cycle[rotate(t.values, r)] = (t, r)
        self.by_cycle: Mapping[Values, tuple[Tile, int]] = by_cycle
        """Every clockwise reading of every tile: the tile, and the rotation giving it."""
        self.placements: PlacementIndex[Tile] = PlacementIndex(self.tiles, lambda t: t.values)
        """Every tile's distinct placements, by the corner pattern they fit."""
        _SETS[module] = self

    def __len__(self) -> int:
        return len(self.tiles)

    def __repr__(self) -> str:
        return f"<TileSet {self.title}: {len(self.tiles)} tiles>"

    def tile(self, text: str) -> Tile:
        """The tile written ``text`` (its numbers clockwise, from any corner)."""
        found, _ = self.read(text)
        return found

    def read(self, text: str) -> tuple[Tile, int]:
        """The tile written ``text`` and the rotation that turns its canonical reading into
        it."""
        match = _TILE_TEXT.fullmatch(text.strip())
        if match is None:
            raise NotationError(f"a tile is written as three numbers 0-{self.highest} joined by "
                                f"'-', like 1-3-5; not {text.strip()!r}")
        values = (int(match[1]), int(match[2]), int(match[3]))
        if max(values) > self.highest:
            raise NotationError(f"tile numbers run from 0 to {self.highest}; {text.strip()!r} "
                                f"has {max(values)}")
        found = self.by_cycle.get(values)
        if found is None:
            rule = self.misread(values) if self.misread is not None else "no such tile"
            raise NotationError(f"no tile reads {text.strip()} clockwise: {rule}")
        return found

    def mirror(self, t: Tile) -> Tile | None:
        """The tile that reads ``t``'s numbers counter-clockwise (``t`` itself when it has a
        repeated number; ``None`` when the set lacks it)."""
        a, b, c = t.values
        found = self.by_cycle.get((c, b, a))
        return None if found is None else found[0]

    def parse_action(self, text: str) -> Action:
        """Read an action's notation (syntax only; legality is the state's business).

        A placement is ``TILE@X,Y/R`` (``/R`` may be left out for rotation 0). A tile written from
        another corner than its canonical one is turned to its canonical form and the rotation
        adjusted, so the same corners get the same numbers. A triple has one rotation, 0.
        """
        raw = text.strip()
        lowered = raw.lower()
        if lowered == "draw":
            return DRAW
        if lowered == "pass":
            return PASS
        match = _PLACE.fullmatch(raw.replace(" ", ""))
        if match is None:
            raise NotationError(f"not a {self.title} action: {raw!r} (write a placement like "
                                f"1-3-5@2,0/1, or draw, or pass)")
        found, shift = self.read(match["tile"])
        rotation = int(match["r"] or 0)
        if rotation > 2:
            raise NotationError(f"the rotation is 0, 1 or 2, not {rotation}")
        rotation = 0 if found.is_triple else (rotation + shift) % 3
        return Place(found, (int(match["x"]), int(match["y"])), rotation)

    def complete_setup(self, partial: Mapping[str, Any]) -> dict[str, Any]:
        """A setup with the tiles not named in ``partial`` put in the pool, in tile order.

        Handy for tests and rulebook positions: name the hands (and the board), the rest is the
        pool (after any ``pool`` given, which is drawn first).
        """
        named: set[Tile] = set()
        for hand in partial.get("hands", []):
            named.update(self.tile(t) for t in hand)
        named.update(self.tile(t) for t in partial.get("pool", []))
        for text in partial.get("board", []):
            action = self.parse_action(text)
            if isinstance(action, Place):
                named.add(action.tile)
        out = dict(partial)
        out["pool"] = list(partial.get("pool", [])) + [
            str(t) for t in self.tiles if t not in named]
        return out


_TILE_TEXT = re.compile(r"([0-9])-([0-9])-([0-9])")
_PLACE = re.compile(r"(?P<tile>[^@]+)@(?P<x>-?[0-9]+),(?P<y>-?[0-9]+)(?:/(?P<r>[0-9]+))?")


# --- actions -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Place:
    """Put ``tile`` on ``cell`` with ``rotation``: corner ``i`` of the cell gets the tile's
    number ``(i + rotation) mod 3`` (see :mod:`triverse.games._tiles.trigrid`). Written
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
