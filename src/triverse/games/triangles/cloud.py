"""The six boards and the star clouds generated on them from a seed.

A board is a rectangle of integer board units, portrait, 10,000 units wide on a phone and
12,000 on a tablet, 16,000 tall on both (aspect 5:8 for a phone's play area, 3:4 for a
tablet's). The tolerance of "passes through a star" is 4 screen points in board units: 100 on a
phone (10,000 units across a 390-point-wide screen: 25.6 units a point) and 60 on a tablet
(12,000 units across 820 points: 14.6 units a point).

Stars are placed by Poisson-disk dart throwing: uniform random integer points, each kept only if
it is at least the board's spacing from every star kept before, until the board has its count.
The spacing is 0.7 times the side of the square each star would have on its own, far above the
tolerance, so no two stars are ever confusable. Everything comes from
``triverse.core.rng.derive(seed, "stars", board)``.

>>> spec = BOARDS["phone-24"]
>>> spec.width, spec.height, spec.tolerance, spec.stars
(10000, 16000, 100, 24)
>>> stars = generate_stars(7, spec)
>>> len(stars), stars == generate_stars(7, spec)
(24, True)
>>> min_spacing2(stars) >= spec.spacing ** 2
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from triverse.core.options import ChoiceLabels
from triverse.core.rng import derive
from triverse.games.triangles.geometry import Point

DEVICES = ("phone", "tablet")
PHONE_STARS = (24, 60, 120)
TABLET_STARS = (80, 120, 180)
STAR_COUNTS = (24, 60, 80, 120, 180)

# The New Game dialog's words for the options (the engine's OptionSpec declarations).
STAR_LABELS: ChoiceLabels = {
    24: ("24 stars", "A quick game on a small board."),
    60: ("60 stars", "A medium board for a phone."),
    80: ("80 stars", "A medium board for a tablet."),
    120: ("120 stars", "A large board, for a long game."),
    180: ("180 stars", "The largest board, on a tablet."),
}
DEVICE_LABELS: ChoiceLabels = {
    "auto": ("Automatic", "The phone's board for 24, 60 and 120 stars, the tablet's for 80 "
             "and 180."),
    "phone": ("Phone", "The tall board of the original app on a phone."),
    "tablet": ("Tablet", "The wide board of the original app on a tablet."),
}
AGAIN_LABELS: ChoiceLabels = {
    True: ("Yes", "A player who closes a triangle draws another line at once."),
    False: ("No", "Turns alternate whatever a line closes."),
}


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """One of the six boards: its device, star count, size, tolerance and star spacing."""

    device: str
    stars: int
    width: int
    height: int
    tolerance: int
    """A line passing within this distance (board units) of a star "passes through" it."""
    margin: int = 400
    """No star is nearer than this to an edge."""

    @property
    def name(self) -> str:
        """``"phone-24"`` ... ``"tablet-180"``."""
        return f"{self.device}-{self.stars}"

    @property
    def spacing(self) -> int:
        """The minimum distance between two stars of a generated cloud.

        >>> BOARDS["phone-24"].spacing, BOARDS["tablet-180"].spacing
        (1689, 680)
        """
        inner = (self.width - 2 * self.margin) * (self.height - 2 * self.margin)
        return int(0.7 * math.sqrt(inner / self.stars))


def _spec(device: str, stars: int) -> BoardSpec:
    if device == "phone":
        return BoardSpec(device, stars, 10_000, 16_000, 100)
    return BoardSpec(device, stars, 12_000, 16_000, 60)


BOARDS: dict[str, BoardSpec] = {
    spec.name: spec
    for spec in [_spec("phone", n) for n in PHONE_STARS]
    + [_spec("tablet", n) for n in TABLET_STARS]
}
"""The six boards by name, phones first."""


def board_spec(device: str, stars: int) -> BoardSpec:
    """The board of ``stars`` stars on ``device``; ``KeyError`` if there is none.

    >>> board_spec("tablet", 120).name
    'tablet-120'
    """
    return BOARDS[f"{device}-{stars}"]


def generate_stars(seed: int, spec: BoardSpec) -> tuple[Point, ...]:
    """The star cloud of ``spec`` for ``seed``: ``spec.stars`` well-spaced integer points.

    Stars are numbered from the top of the board down (by ``y``, then ``x``), so that
    neighbouring numbers are near each other on a screen and in the text picture. Should the
    darts ever fail to find room (they do not on these boards: the spacing leaves a third of the
    room free), the spacing is shrunk by 5% and the throwing goes on, so the function always
    terminates, deterministically.
    """
    rng = derive(seed, "stars", spec.name)
    spacing = spec.spacing
    lo_x, hi_x = spec.margin, spec.width - spec.margin
    lo_y, hi_y = spec.margin, spec.height - spec.margin
    stars: list[Point] = []
    while True:
        cell = max(1, spacing)  # grid cells as wide as the spacing: neighbours are 1 cell away
        grid: dict[tuple[int, int], list[Point]] = {}
        for star in stars:
            grid.setdefault((star[0] // cell, star[1] // cell), []).append(star)
        limit = spacing * spacing
        misses = 0
        while len(stars) < spec.stars and misses < 1000:
            x, y = rng.randint(lo_x, hi_x), rng.randint(lo_y, hi_y)
            gx, gy = x // cell, y // cell
            if any(
                (sx - x) ** 2 + (sy - y) ** 2 < limit
                for i in (gx - 1, gx, gx + 1)
                for j in (gy - 1, gy, gy + 1)
                for sx, sy in grid.get((i, j), ())
            ):
                misses += 1
                continue
            misses = 0
            stars.append((x, y))
            grid.setdefault((gx, gy), []).append((x, y))
        if len(stars) == spec.stars:
            return tuple(sorted(stars, key=lambda p: (p[1], p[0])))
        spacing = spacing * 95 // 100


def min_spacing2(stars: Sequence[Point]) -> int:
    """The smallest squared distance between two stars (0 for fewer than two).

    >>> min_spacing2([(0, 0), (3, 4), (10, 0)])
    25
    """
    best: int | None = None
    for i, (x1, y1) in enumerate(stars):
        for x2, y2 in stars[:i]:
            d = (x1 - x2) ** 2 + (y1 - y2) ** 2
            if best is None or d < best:
                best = d
    return 0 if best is None else best
