"""The action of Triangles: a line between two stars, and the integer ids of lines.

>>> Line(17, 3), str(Line(3, 17))
(Line(a=3, b=17), '3-17')
>>> pair_id(3, 17, 24), id_pair(pair_id(3, 17, 24), 24)
(79, (3, 17))
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Line:
    """A line between two stars, written ``a-b`` with ``a <= b`` (the constructor orders them).

    >>> Line(17, 3), str(Line(3, 17)), Line(17, 3) == Line(3, 17)
    (Line(a=3, b=17), '3-17', True)
    """

    a: int
    b: int

    def __post_init__(self) -> None:
        for star in (self.a, self.b):
            if not isinstance(star, int) or isinstance(star, bool) or star < 0:
                raise ValueError(f"a star is a number 0 or more, not {star!r}")
        if self.a > self.b:
            a, b = self.b, self.a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


def pair_id(a: int, b: int, n: int) -> int:
    """The index of the pair ``a < b`` in the enumeration ``(0,1), (0,2), ..., (0,n-1), (1,2),
    ...`` of the pairs of ``n`` stars (NumPy's ``triu_indices(n, 1)`` order).

    >>> [pair_id(a, b, 4) for a, b in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]]
    [0, 1, 2, 3, 4, 5]
    >>> all(id_pair(pair_id(a, b, 24), 24) == (a, b) for a in range(24) for b in range(a + 1, 24))
    True
    """
    return a * n - a * (a + 1) // 2 + (b - a - 1)


def id_pair(k: int, n: int) -> tuple[int, int]:
    """The pair of stars with index ``k`` in :func:`pair_id`'s enumeration."""
    a = 0
    row = n - 1
    while k >= row:
        k -= row
        a += 1
        row -= 1
    return a, a + 1 + k
