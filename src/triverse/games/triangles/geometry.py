"""Exact integer geometry for Triangles: orientation, the tolerance test, crossings, insides.

Stars have integer coordinates, so every predicate here is exact: orientations are cross products
of integers, and the tolerance test compares squared distances with integer arithmetic (no
floating point, no square roots). Board units are described in ``docs/rules/triangles.md``.

>>> orient((0, 0), (10, 0), (3, 4)) > 0    # counter-clockwise: (3, 4) is left of 0->10
True
>>> near_segment((5, 1), (0, 0), (10, 0), tolerance=1)   # 1 unit from the segment: too near
True
>>> segments_cross((0, 0), (10, 10), (0, 10), (10, 0))    # the two diagonals of a square
True
>>> segments_cross((0, 0), (10, 10), (0, 0), (10, 0))     # two lines sharing a star do not
False
"""

from __future__ import annotations

Point = tuple[int, int]
"""A star's integer board coordinates ``(x, y)``; ``y`` grows downwards, as on a screen."""


def orient(a: Point, b: Point, c: Point) -> int:
    """Twice the signed area of the triangle ``a b c``: the cross product ``(b-a) x (c-a)``.

    Positive when ``c`` is to the left of the directed line ``a -> b`` (counter-clockwise in
    mathematical axes), negative to the right, zero when the three points are collinear.

    >>> orient((0, 0), (4, 0), (0, 3)), orient((0, 0), (4, 0), (0, -3))
    (12, -12)
    >>> orient((0, 0), (1, 1), (5, 5))
    0
    """
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def dist2(a: Point, b: Point) -> int:
    """The squared distance between two points.

    >>> dist2((0, 0), (3, 4))
    25
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    return dx * dx + dy * dy


def near_segment(c: Point, a: Point, b: Point, tolerance: int) -> bool:
    """Whether ``c`` lies within ``tolerance`` of the closed segment ``a b`` (distance <= it).

    The distance is the Euclidean distance from ``c`` to the nearest point of the segment. It is
    compared exactly, squared: with ``d = b - a`` and ``t = (c - a) . d``, the nearest point is
    ``a`` when ``t <= 0``, ``b`` when ``t >= |d|^2``, and otherwise the foot of the
    perpendicular, whose squared distance is ``((c - a) x d)^2 / |d|^2``; the last comparison is
    made as ``cross^2 <= tolerance^2 * |d|^2``. ``a`` must differ from ``b``.

    >>> near_segment((5, 0), (0, 0), (10, 0), 0)       # exactly on the segment
    True
    >>> near_segment((5, 3), (0, 0), (10, 0), 3), near_segment((5, 4), (0, 0), (10, 0), 3)
    (True, False)
    >>> near_segment((13, 4), (0, 0), (10, 0), 5)      # beyond b: the distance to b is 5
    True
    >>> near_segment((20, 0), (0, 0), (10, 0), 5)      # on the line, but far past b
    False
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    vx, vy = c[0] - a[0], c[1] - a[1]
    limit = tolerance * tolerance
    t = vx * dx + vy * dy
    if t <= 0:
        return vx * vx + vy * vy <= limit
    length2 = dx * dx + dy * dy
    if t >= length2:
        return dist2(b, c) <= limit
    cross = dx * vy - dy * vx
    return cross * cross <= limit * length2


def on_segment(c: Point, a: Point, b: Point) -> bool:
    """Whether ``c`` lies on the closed segment ``a b`` (endpoints included).

    >>> on_segment((2, 2), (0, 0), (4, 4)), on_segment((4, 4), (0, 0), (4, 4))
    (True, True)
    >>> on_segment((5, 5), (0, 0), (4, 4)), on_segment((2, 3), (0, 0), (4, 4))
    (False, False)
    """
    return (
        orient(a, b, c) == 0
        and min(a[0], b[0]) <= c[0] <= max(a[0], b[0])
        and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])
    )


def segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Whether the closed segments ``p q`` and ``r s`` meet anywhere but at a shared endpoint.

    This is the rule "a line may not cross a line already drawn; two lines may leave the same
    star": segments that only share an endpoint do not cross, but segments that touch (an
    endpoint of one on the other) or overlap along a common line do.

    >>> segments_cross((0, 0), (4, 0), (2, -1), (2, 1))   # a proper crossing
    True
    >>> segments_cross((0, 0), (4, 0), (2, 0), (2, 3))    # touching counts as crossing
    True
    >>> segments_cross((0, 0), (4, 0), (4, 0), (6, 3))    # sharing an endpoint does not
    False
    >>> segments_cross((0, 0), (4, 0), (4, 0), (6, 0))    # collinear, end to end: no overlap
    False
    >>> segments_cross((0, 0), (4, 0), (0, 0), (6, 0))    # collinear from one star: overlap
    True
    >>> segments_cross((0, 0), (4, 0), (5, -1), (5, 1))   # the lines cross, the segments not
    False
    """
    shared = {p, q} & {r, s}
    if shared:
        if len(shared) == 2:  # the same segment
            return True
        (o,) = shared
        u = q if p == o else p
        v = s if r == o else r
        # Two segments from a common star overlap only if they point the same way.
        return orient(o, u, v) == 0 and (u[0] - o[0]) * (v[0] - o[0]) + (u[1] - o[1]) * (
            v[1] - o[1]
        ) > 0
    o1, o2 = orient(p, q, r), orient(p, q, s)
    o3, o4 = orient(r, s, p), orient(r, s, q)
    if ((o1 > 0 > o2) or (o1 < 0 < o2)) and ((o3 > 0 > o4) or (o3 < 0 < o4)):
        return True
    return (
        (o1 == 0 and on_segment(r, p, q))
        or (o2 == 0 and on_segment(s, p, q))
        or (o3 == 0 and on_segment(p, r, s))
        or (o4 == 0 and on_segment(q, r, s))
    )


def strictly_inside(d: Point, a: Point, b: Point, c: Point) -> bool:
    """Whether ``d`` lies strictly inside the triangle ``a b c`` (not on a side).

    >>> strictly_inside((1, 1), (0, 0), (4, 0), (0, 4))
    True
    >>> strictly_inside((2, 0), (0, 0), (4, 0), (0, 4))   # on a side
    False
    >>> strictly_inside((1, 1), (0, 0), (0, 4), (4, 0))   # either orientation
    True
    """
    o1, o2, o3 = orient(a, b, d), orient(b, c, d), orient(c, a, d)
    return (o1 > 0 and o2 > 0 and o3 > 0) or (o1 < 0 and o2 < 0 and o3 < 0)


def in_closed_triangle(d: Point, a: Point, b: Point, c: Point) -> bool:
    """Whether ``d`` lies inside the triangle ``a b c`` or on one of its sides.

    >>> in_closed_triangle((2, 0), (0, 0), (4, 0), (0, 4))   # on a side
    True
    >>> in_closed_triangle((5, 0), (0, 0), (4, 0), (0, 4))
    False
    """
    o1, o2, o3 = orient(a, b, d), orient(b, c, d), orient(c, a, d)
    if orient(a, b, c) == 0:
        return on_segment(d, a, b) or on_segment(d, b, c) or on_segment(d, a, c)
    return (o1 >= 0 and o2 >= 0 and o3 >= 0) or (o1 <= 0 and o2 <= 0 and o3 <= 0)
