"""A slow, obviously-correct model of the Triangles rules, for checking the engine.

Written independently of the engine: exact rational arithmetic (``Fraction``), every pair and
every triple tested from scratch, no precomputation and no incremental state.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

Pt = tuple[int, int]


def cross(o: Pt, a: Pt, b: Pt) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def seg_dist2(c: Pt, a: Pt, b: Pt) -> Fraction:
    """Squared distance from ``c`` to the closed segment ``a b``, as an exact fraction."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    t = Fraction((c[0] - ax) * dx + (c[1] - ay) * dy, dx * dx + dy * dy)
    t = min(max(t, Fraction(0)), Fraction(1))
    fx, fy = ax + t * dx, ay + t * dy
    return (c[0] - fx) ** 2 + (c[1] - fy) ** 2


def on_seg(c: Pt, a: Pt, b: Pt) -> bool:
    return cross(a, b, c) == 0 and min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(
        a[1], b[1]) <= c[1] <= max(a[1], b[1])


def meet(p: Pt, q: Pt, r: Pt, s: Pt) -> bool:
    """Whether closed segments pq and rs share a point other than a common endpoint."""
    common = {p, q} & {r, s}
    if len(common) == 2:
        return True
    if len(common) == 1:
        (o,) = common
        u = q if p == o else p
        v = s if r == o else r
        # They share more than o only if collinear and on the same side of o.
        return cross(o, u, v) == 0 and (u[0] - o[0]) * (v[0] - o[0]) + (u[1] - o[1]) * (
            v[1] - o[1]) > 0
    d1, d2, d3, d4 = cross(p, q, r), cross(p, q, s), cross(r, s, p), cross(r, s, q)
    if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and (
        (d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)
    ):
        return True
    return on_seg(r, p, q) or on_seg(s, p, q) or on_seg(p, r, s) or on_seg(q, r, s)


def blocked(stars: Sequence[Pt], a: int, b: int, tol: int) -> bool:
    return any(
        seg_dist2(stars[c], stars[a], stars[b]) <= tol * tol
        for c in range(len(stars)) if c not in (a, b)
    )


def legal_pairs(stars: Sequence[Pt], tol: int, drawn: Sequence[tuple[int, int]]) -> set[
        tuple[int, int]]:
    """Every pair a < b that may be drawn now."""
    done = set(drawn)
    out = set()
    for a, b in combinations(range(len(stars)), 2):
        if (a, b) in done or blocked(stars, a, b, tol):
            continue
        if any(meet(stars[a], stars[b], stars[c], stars[d]) for c, d in drawn):
            continue
        out.add((a, b))
    return out


def empty(stars: Sequence[Pt], a: int, b: int, c: int) -> bool:
    """A proper triangle with no other star inside or on a side."""
    A, B, C = stars[a], stars[b], stars[c]
    if cross(A, B, C) == 0:
        return False
    for d, D in enumerate(stars):
        if d in (a, b, c):
            continue
        s1, s2, s3 = cross(A, B, D), cross(B, C, D), cross(C, A, D)
        if (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0):
            return False
    return True


def scores(stars: Sequence[Pt], lines: Sequence[tuple[int, int, int]]) -> list[int]:
    """Closed empty triangles per player, the closer being whoever drew the last side."""
    when = {(a, b): (k, p) for k, (a, b, p) in enumerate(lines)}
    out = [0, 0]
    for a, b, c in combinations(range(len(stars)), 3):
        sides = [(a, b), (a, c), (b, c)]
        if all(s in when for s in sides) and empty(stars, a, b, c):
            out[max(when[s] for s in sides)[1]] += 1
    return out


def scorable_triangle_exists(
    stars: Sequence[Pt], tol: int, drawn: Sequence[tuple[int, int]]
) -> bool:
    """Whether some empty triangle can still be closed: each side drawn or legal now, and not
    all three drawn already."""
    done = set(drawn)
    legal = legal_pairs(stars, tol, drawn)
    for a, b, c in combinations(range(len(stars)), 3):
        sides = [(a, b), (a, c), (b, c)]
        if all(s in done for s in sides):
            continue
        if all(s in done or s in legal for s in sides) and empty(stars, a, b, c):
            return True
    return False
