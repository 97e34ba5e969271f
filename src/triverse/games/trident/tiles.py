"""The 83 Trident tiles and the four kinds of action, with their text notation.

A tile is a number from 0 to 15, or a joker. In code a tile is an ``int``: its number, or
:data:`JOKER` (16). In text (notation, JSON) a number is written as itself and a joker as ``*``.

The actions (``docs/notation.md``):

- :class:`Play`: one to three tiles, each ``row:col=value`` (``*value`` for a joker declared as
  ``value``), separated by commas and listed by square: ``7:7=5,7:8=10,7:9=*0``;
- :class:`Exchange`: ``exchange 3,5,*`` returns those rack tiles to the bag and draws as many;
- :class:`Pass`: ``pass``;
- :class:`TimeOut`: ``timeout``, written by the server's ``state.time_out()`` when a turn's time
  runs out; never a player's choice.

>>> len(TILE_SET), TILE_SET.count(5), TILE_SET.count(JOKER)
(83, 8, 2)
>>> play = parse_action(" 7:9=*0 , 7:7=5,7:8=10")
>>> str(play), play.squares
('7:7=5,7:8=10,7:9=*0', (112, 113, 114))
>>> str(parse_action("EXCHANGE *,5,3")), str(parse_action("pass"))
('exchange 3,5,*', 'pass')
>>> parse_action("7:7=16")
Traceback (most recent call last):
...
triverse.core.errors.NotationError: '7:7=16': a tile's value is 0 to 15, not 16
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, NamedTuple

from triverse.core.errors import NotationError

SIZE: Final = 15
"""Rows and columns are numbered 0 to 14."""
JOKER: Final = 16
"""A joker, as a tile in a rack or the bag."""
MAX_VALUE: Final = 15
TRIO_SUM: Final = 15
RACK_SIZE: Final = 3
COUNTS: Final[tuple[int, ...]] = (9, 9, 8, 8, 7, 8, 6, 6, 4, 4, 3, 3, 2, 2, 1, 1)
"""How many tiles of each number 0-15 there are (seed)."""
NUM_JOKERS: Final = 2
KINDS: Final[tuple[int, ...]] = (*range(16), JOKER)
"""Every kind of tile: the numbers 0-15, then the joker."""
TILE_SET: Final[tuple[int, ...]] = tuple(
    v for v, count in enumerate(COUNTS) for _ in range(count)) + (JOKER,) * NUM_JOKERS
"""All 83 tiles, in kind order."""
NUM_TILES: Final = len(TILE_SET)
FULL_COUNTS: Final[tuple[int, ...]] = (*COUNTS, NUM_JOKERS)
"""How many tiles of each kind (index :data:`JOKER` for the jokers)."""

_PLACEMENT = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*=\s*(\*?)\s*(\d+)\s*$")


def tile_text(t: int) -> str:
    """A tile in text: its number, or ``*`` for a joker.

    >>> tile_text(7), tile_text(JOKER)
    ('7', '*')
    """
    return "*" if t == JOKER else str(t)


def tile_points(t: int) -> int:
    """What a tile on a rack is worth at the end: its number; a joker nothing."""
    return 0 if t == JOKER else t


def parse_tile(text: object) -> int:
    """A tile from its text (``"7"``, ``"*"``) or a JSON number.

    >>> parse_tile("*"), parse_tile(" 12"), parse_tile(3)
    (16, 12, 3)
    """
    if isinstance(text, bool):
        raise NotationError(f"{text!r} is not a tile: a tile is 0 to 15, or * for a joker")
    if isinstance(text, int):
        value = text
    elif isinstance(text, str):
        stripped = text.strip()
        if stripped == "*":
            return JOKER
        if not stripped.isdigit():
            raise NotationError(f"{text!r} is not a tile: a tile is 0 to 15, or * for a joker")
        value = int(stripped)
    else:
        raise NotationError(f"{text!r} is not a tile: a tile is 0 to 15, or * for a joker")
    if not 0 <= value <= MAX_VALUE:
        raise NotationError(f"{text!r} is not a tile: a tile is 0 to 15, or * for a joker")
    return value


def sort_tiles(tiles: Iterable[int]) -> list[int]:
    """Tiles in rack order: numbers ascending, jokers last (that is, by their ``int``)."""
    return sorted(tiles)


def format_square(square: int) -> str:
    """A square's index written ``row:col``.

    >>> format_square(112)
    '7:7'
    """
    row, col = divmod(square, SIZE)
    return f"{row}:{col}"


class Placement(NamedTuple):
    """One tile of a play: its square, its value and whether it is a joker declared as that
    value. ``str`` is its notation, ``7:9=*0`` for a joker declared as 0."""

    row: int
    col: int
    value: int
    joker: bool = False

    @property
    def square(self) -> int:
        return self.row * SIZE + self.col

    @property
    def kind(self) -> int:
        """The rack tile it uses: its value, or :data:`JOKER`."""
        return JOKER if self.joker else self.value

    def __str__(self) -> str:
        return f"{self.row}:{self.col}={'*' if self.joker else ''}{self.value}"


@dataclass(frozen=True, slots=True)
class Play:
    """Place one to three tiles on one row or column; the tiles are kept in square order."""

    tiles: tuple[Placement, ...]

    @classmethod
    def of(cls, *tiles: Placement | tuple[int, int, int] | tuple[int, int, int, bool]) -> Play:
        """A play from placements in any order.

        >>> str(Play.of((7, 8, 3), (7, 7, 11)))
        '7:7=11,7:8=3'
        """
        return cls(tuple(sorted(Placement(*t) for t in tiles)))

    @property
    def squares(self) -> tuple[int, ...]:
        return tuple(p.row * SIZE + p.col for p in self.tiles)

    @property
    def kinds(self) -> tuple[int, ...]:
        """The rack tiles the play uses."""
        return tuple(JOKER if p.joker else p.value for p in self.tiles)

    def __str__(self) -> str:
        return ",".join(str(p) for p in self.tiles)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Return 1-3 rack tiles to the bag, which is shuffled, and draw as many instead."""

    tiles: tuple[int, ...]

    @classmethod
    def of(cls, tiles: Iterable[int]) -> Exchange:
        return cls(tuple(sort_tiles(tiles)))

    def __str__(self) -> str:
        return "exchange " + ",".join(tile_text(t) for t in self.tiles)


@dataclass(frozen=True, slots=True)
class Pass:
    """Play nothing this turn."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The turn's time ran out and the player misses the turn. Only the server records it,
    through ``state.time_out()``; it is never among a player's legal actions."""

    def __str__(self) -> str:
        return "timeout"


Action = Play | Exchange | Pass | TimeOut
PASS: Final = Pass()
TIMEOUT: Final = TimeOut()


def parse_placement(text: str, where: str | None = None) -> Placement:
    """One ``row:col=value`` (``row:col=*value`` for a joker).

    >>> parse_placement("7:8=*5")
    Placement(row=7, col=8, value=5, joker=True)
    """
    quoted = where if where is not None else repr(text)
    match = _PLACEMENT.match(text)
    if match is None:
        if "*" in text and not re.search(r"\*\s*\d", text):
            raise NotationError(f"{quoted}: a joker is written *v with the number it stands "
                                f"for, like 7:8=*5")
        raise NotationError(f"{quoted}: {text.strip()!r} is not a tile placement like 7:8=5 "
                            f"(row:col=value, *value for a joker)")
    row, col, star, value = (int(match[1]), int(match[2]), match[3], int(match[4]))
    if not 0 <= row < SIZE:
        raise NotationError(f"{quoted}: row {row} is off the board (rows are 0 to 14)")
    if not 0 <= col < SIZE:
        raise NotationError(f"{quoted}: column {col} is off the board (columns are 0 to 14)")
    if not 0 <= value <= MAX_VALUE:
        raise NotationError(f"{quoted}: a tile's value is 0 to 15, not {value}")
    return Placement(row, col, value, bool(star))


def parse_action(text: str) -> Action:
    """Read an action's notation (syntax only; legality is the state's business)."""
    if not isinstance(text, str):
        raise NotationError(f"an action is written as text, not {text!r}")
    stripped = text.strip()
    lowered = stripped.lower()
    if lowered == "pass":
        return PASS
    if lowered == "timeout":
        return TIMEOUT
    if lowered.startswith("exchange"):
        rest = stripped[len("exchange"):].strip()
        if not rest:
            raise NotationError(f"{text!r}: name the tiles to exchange, like 'exchange 3,5,*'")
        tiles = []
        for part in rest.split(","):
            try:
                tiles.append(parse_tile(part))
            except NotationError:
                raise NotationError(f"{text!r}: {part.strip()!r} is not a tile (0 to 15, or "
                                    f"* for a joker)") from None
        return Exchange.of(tiles)
    if not stripped:
        raise NotationError("an empty action: write a play like 7:7=5, 'exchange 3,5', "
                            "or 'pass'")
    placements = [parse_placement(part, repr(text)) for part in stripped.split(",")]
    seen: set[tuple[int, int]] = set()
    for p in placements:
        if (p.row, p.col) in seen:
            raise NotationError(f"{text!r}: square {p.row}:{p.col} is named twice")
        seen.add((p.row, p.col))
    return Play(tuple(sorted(placements)))
