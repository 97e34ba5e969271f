"""What a star cloud allows, computed once per board and shared by every state on it.

For a cloud of ``n`` stars and a tolerance this module finds, exactly:

- the **candidate lines**: the pairs of stars whose segment passes no other star within the
  tolerance. Only these can ever be drawn; every other pair is refused with "passes through a
  star" whatever happens in the game. Candidates are numbered ``0 .. K-1`` in the order of their
  stars, ``(0, 1), (0, 2), ..., (1, 2), ...``, and a state's sets of lines are bitmasks (Python
  integers) over these numbers;
- the **empty triangles**: triples of stars whose three sides are candidates and with no star
  strictly inside. (No star can lie on a side: a side is a candidate.) These are exactly the
  triangles that score when closed, and the only ones that matter for the end of the game;
- for each candidate, the empty triangles it is a side of, and for each star, the mask of the
  candidates that end at it (used to find the lines a new line crosses).

Floating point is used only to order and prune (angles around a star); every decision is an
integer test of :mod:`~triverse.games.triangles.geometry`, and the angular orders are checked
exactly. Boards are cached (by stars and tolerance), so clones, determinizations and replays of
the same cloud share one :class:`Board`.

>>> board = board_for(((0, 0), (1000, 0), (1000, 1000), (0, 1000)), 100)   # a square
>>> board.n, board.num_candidates, [board.pair(i) for i in range(board.num_candidates)]
(4, 6, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
>>> board.triangles
((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))
>>> board_for(((0, 0), (1000, 0), (2000, 0)), 100).num_candidates   # 0-2 passes through 1
2
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from functools import cmp_to_key, lru_cache
from typing import Any

from triverse.games.triangles.action import Line
from triverse.games.triangles.geometry import Point, near_segment


def _half(dx: int, dy: int) -> int:
    """The part of the turn of a direction, in the order of ``math.atan2`` (from -pi to pi)."""
    if dy < 0:
        return 0
    if dy > 0 or dx > 0:
        return 1
    return 2


def _angle_cmp(u: tuple[int, int], v: tuple[int, int]) -> int:
    """Exact comparison of two directions by angle, as ``atan2`` orders them (ties: 0)."""
    hu, hv = _half(*u), _half(*v)
    if hu != hv:
        return -1 if hu < hv else 1
    cross = u[0] * v[1] - u[1] * v[0]
    return -1 if cross > 0 else (1 if cross < 0 else 0)


_ANGLE_KEY = cmp_to_key(_angle_cmp)


def _by_angle(item: tuple[tuple[int, int], int]) -> Any:
    """Sort key of a ``(direction, star)`` pair: the direction's exact angle."""
    return _ANGLE_KEY(item[0])


class Board:
    """The immutable, precomputed geometry of one star cloud with one tolerance.

    Build one with :func:`board_for` (cached) rather than directly.
    """

    __slots__ = (
        "_cand_of",
        "_crossing",
        "_left_of",
        "cand_a",
        "cand_b",
        "incident",
        "lines",
        "n",
        "num_candidates",
        "seg_triangles",
        "stars",
        "tolerance",
        "tri_sides",
        "triangles",
    )

    def __init__(self, stars: Sequence[Point], tolerance: int) -> None:
        self.stars: tuple[Point, ...] = tuple((int(x), int(y)) for x, y in stars)
        self.tolerance = tolerance
        n = self.n = len(self.stars)
        orders, angles = self._angular_orders()
        pairs = self._candidates(orders, angles)
        self.cand_a: tuple[int, ...] = tuple(a for a, _ in pairs)
        self.cand_b: tuple[int, ...] = tuple(b for _, b in pairs)
        self.num_candidates = len(pairs)
        self.lines: tuple[Line, ...] = tuple(Line(a, b) for a, b in pairs)
        """The candidates as actions (made once: states hand out these objects)."""
        self._cand_of: dict[tuple[int, int], int] = {p: i for i, p in enumerate(pairs)}
        incident = [0] * n
        for i, (a, b) in enumerate(pairs):
            incident[a] |= 1 << i
            incident[b] |= 1 << i
        self.incident: tuple[int, ...] = tuple(incident)
        triangles = self._empty_triangles(orders)
        self.triangles: tuple[tuple[int, int, int], ...] = tuple(triangles)
        cand = self._cand_of
        self.tri_sides: tuple[tuple[int, int, int], ...] = tuple(
            (cand[a, b], cand[a, c], cand[b, c]) for a, b, c in triangles
        )
        per_seg: list[list[int]] = [[] for _ in range(self.num_candidates)]
        for t, sides in enumerate(self.tri_sides):
            for s in sides:
                per_seg[s].append(t)
        self.seg_triangles: tuple[tuple[int, ...], ...] = tuple(tuple(ts) for ts in per_seg)
        self._left_of: list[int | None] = [None] * n
        self._crossing: list[int | None] = [None] * self.num_candidates

    # --- lookups -----------------------------------------------------------------------------
    def candidate(self, a: int, b: int) -> int | None:
        """The candidate number of the line between stars ``a < b``, or ``None`` if it passes
        through a star."""
        return self._cand_of.get((a, b))

    def pair(self, i: int) -> tuple[int, int]:
        """The two stars ``(a, b)``, ``a < b``, of candidate ``i``."""
        return self.cand_a[i], self.cand_b[i]

    def blocker(self, a: int, b: int) -> int | None:
        """The first star (by number) within the tolerance of the segment ``a b``, if any."""
        pa, pb = self.stars[a], self.stars[b]
        for c, pc in enumerate(self.stars):
            if c not in (a, b) and near_segment(pc, pa, pb, self.tolerance):
                return c
        return None

    def left_of(self, p: int) -> int:
        """The mask of the candidates ``a-b`` (``a < b``) that have star ``p`` strictly on the
        left of ``a -> b`` (a positive :func:`~.geometry.orient`).

        Computed on first use and kept (a memo of a pure function: boards stay shareable).
        """
        mask = self._left_of[p]
        if mask is None:
            px, py = self.stars[p]
            stars = self.stars
            # orient(a, b, p) > 0  <=>  dx * (py - ay) > dy * (px - ax), with d = b - a.
            bits = "".join([
                "1" if (bx - ax) * (py - ay) > (by - ay) * (px - ax) else "0"
                for (ax, ay), (bx, by) in zip(
                    [stars[a] for a in self.cand_a], [stars[b] for b in self.cand_b], strict=True
                )
            ])
            mask = int(bits[::-1], 2) if bits else 0
            self._left_of[p] = mask
        return mask

    def crossing(self, i: int) -> int:
        """The mask of the candidates that cross candidate ``i``.

        A candidate crosses ``i`` exactly when its two stars are strictly on opposite sides of
        the line through ``i``'s stars, and ``i``'s two stars strictly on opposite sides of the
        line through its own. (No star lies on a candidate, so two candidates never merely
        touch, and a candidate that straddles ``i``'s line cannot have one of ``i``'s stars
        exactly on its own line.) Both conditions are bitmasks: the candidates with a star on
        each side of ``i`` (from :attr:`incident`), and those with exactly one of ``i``'s stars
        on their left (from :meth:`left_of`).

        Computed on first use and kept: at most ``K * K`` bits in all (8 MB on the 180-star
        board), in practice the lines drawn or tried in search.
        """
        mask = self._crossing[i]
        if mask is None:
            stars, incident = self.stars, self.incident
            p, q = self.cand_a[i], self.cand_b[i]
            (px, py), (qx, qy) = stars[p], stars[q]
            dx, dy = qx - px, qy - py
            k = dx * py - dy * px
            left = right = 0
            for c, (x, y) in enumerate(stars):
                o = dx * y - dy * x - k
                if o > 0:
                    left |= incident[c]
                elif o < 0:
                    right |= incident[c]
            mask = left & right & (self.left_of(p) ^ self.left_of(q))
            self._crossing[i] = mask
        return mask

    # --- precomputation ----------------------------------------------------------------------
    def _angular_orders(self) -> tuple[list[list[int]], list[list[float]] | None]:
        """For each star, the other stars in counter-clockwise order around it, and their
        angles (``None`` if floating point ever misordered two directions).

        The order is checked exactly, and re-sorted exactly if floating point erred; directions
        that are exactly the same may come in any order. (With coordinates up to 16,000, two
        different directions differ by more than 1e-9 radians, far more than ``atan2``'s
        error, so the re-sort is a safety net.)
        """
        orders: list[list[int]] = []
        angles: list[list[float]] = []
        trusted = True
        stars = self.stars
        for x0, y0 in stars:
            keyed = sorted(
                (math.atan2(y - y0, x - x0), c)
                for c, (x, y) in enumerate(stars)
                if (x, y) != (x0, y0)
            )
            order = [c for _, c in keyed]
            vec = [(stars[c][0] - x0, stars[c][1] - y0) for c in order]
            if any(_angle_cmp(vec[i], vec[i + 1]) > 0 for i in range(len(vec) - 1)):
                exact = sorted(zip(vec, order, strict=True), key=_by_angle)
                order = [c for _, c in exact]
                trusted = False
            orders.append(order)
            angles.append([t for t, _ in keyed])
        return orders, angles if trusted else None

    def _candidates(
        self, orders: list[list[int]], angles: list[list[float]] | None
    ) -> list[tuple[int, int]]:
        """The pairs ``a < b`` whose segment passes no other star within the tolerance.

        A star ``c`` within ``T`` of the segment ``a b`` sees the segment from ``a`` at an angle
        of at most ``asin(T / |ac|)`` (when ``T < |ac|``), so when every two stars are more than
        ``T`` apart only the stars in that angular window around ``b``, as seen from ``a``, need
        the exact test. Otherwise (or if the angles are not trusted) every star is tested.
        """
        stars, tol = self.stars, self.tolerance
        n = self.n
        closest2 = min(
            ((x1 - x2) ** 2 + (y1 - y2) ** 2 for i, (x1, y1) in enumerate(stars)
             for x2, y2 in stars[:i]),
            default=0,
        )
        if closest2 <= tol * tol or n < 8 or angles is None:
            return self._clear_pairs()
        window = math.asin(tol / math.sqrt(closest2)) + 1e-6
        return self._clear_pairs_in_windows(orders, angles, window)

    def _clear_pairs(self) -> list[tuple[int, int]]:
        """The pairs ``a < b`` whose segment passes no other star, every star tested."""
        stars, tol = self.stars, self.tolerance
        n = self.n
        pairs: list[tuple[int, int]] = []
        for a in range(n):
            for b in range(a + 1, n):
                pa, pb = stars[a], stars[b]
                if not any(
                    near_segment(pc, pa, pb, tol)
                    for c, pc in enumerate(stars)
                    if c != a and c != b
                ):
                    pairs.append((a, b))
        return pairs

    def _clear_pairs_in_windows(
        self, orders: list[list[int]], angles: list[list[float]], window: float
    ) -> list[tuple[int, int]]:
        """The pairs ``a < b`` whose segment passes no other star, testing only the stars
        within ``window`` radians of ``b`` as seen from ``a`` (see :meth:`_candidates`)."""
        stars, tol = self.stars, self.tolerance
        n = self.n
        pairs: list[tuple[int, int]] = []
        limit = tol * tol
        for a in range(n):
            order, angle = orders[a], angles[a]
            m = len(order)
            pa = stars[a]
            wide = angle + [t + 2 * math.pi for t in angle]  # unrolled once for the wrap-around
            position = {c: i for i, c in enumerate(order)}
            for b in range(a + 1, n):
                pb = stars[b]
                centre = angle[position[b]]
                shift = 2 * math.pi if centre - window < angle[0] else 0.0
                lo = bisect.bisect_left(wide, centre - window + shift)
                hi = bisect.bisect_right(wide, centre + window + shift)
                # Inline near_segment for the stars of the window, exact as there.
                ax, ay = pa
                dx, dy = pb[0] - ax, pb[1] - ay
                length2 = dx * dx + dy * dy
                for k in range(lo, hi):
                    c = order[k % m]
                    if c == b:
                        continue
                    vx, vy = stars[c][0] - ax, stars[c][1] - ay
                    cross = dx * vy - dy * vx
                    if cross * cross <= limit * length2 and near_segment(stars[c], pa, pb, tol):
                        break
                else:
                    pairs.append((a, b))
        return pairs

    def _empty_triangles(self, orders: list[list[int]]) -> list[tuple[int, int, int]]:
        """The triples ``a < b < c`` of stars joined by three candidates, with no star inside.

        The open triangle is the intersection of its open angles at two corners, and the stars
        strictly inside the angle at a corner are a run of that corner's angular order, so a
        bitmask of them is the difference of two prefix masks.
        """
        n, stars = self.n, self.stars
        full = (1 << n) - 1
        position, prefix = _order_masks(orders, n)
        neighbours = [0] * n
        for a, b in self._cand_of:
            neighbours[a] |= 1 << b
            neighbours[b] |= 1 << a
        out: list[tuple[int, int, int]] = []
        for a in range(n):
            pos_a, pre_a = position[a], prefix[a]
            all_a = pre_a[-1]
            ax, ay = stars[a]
            later = neighbours[a] & (full ^ ((2 << a) - 1))
            while later:
                low = later & -later
                b = low.bit_length() - 1
                later ^= low
                bx, by = stars[b]
                dx, dy = bx - ax, by - ay
                pos_b, pre_b = position[b], prefix[b]
                all_b = pre_b[-1]
                common = neighbours[a] & neighbours[b] & (full ^ ((2 << b) - 1))
                while common:
                    low = common & -common
                    c = low.bit_length() - 1
                    common ^= low
                    cx, cy = stars[c]
                    turn = dx * (cy - ay) - dy * (cx - ax)
                    # The stars strictly inside the angle at a, and strictly inside the angle
                    # at b (between c and a, or a and c, counter-clockwise).
                    if turn > 0:  # a, b, c counter-clockwise: at a from b to c; at b from c to a
                        i, j = pos_a[b], pos_a[c]
                        k, m = pos_b[c], pos_b[a]
                    elif turn < 0:  # a, c, b counter-clockwise: at a from c to b; at b from a to c
                        i, j = pos_a[c], pos_a[b]
                        k, m = pos_b[a], pos_b[c]
                    else:  # cannot happen: one side would pass through a star
                        continue
                    at_a = pre_a[j] ^ pre_a[i + 1] if i < j else (all_a ^ pre_a[i + 1]) | pre_a[j]
                    if at_a and at_a & (
                        pre_b[m] ^ pre_b[k + 1] if k < m else (all_b ^ pre_b[k + 1]) | pre_b[m]
                    ):
                        continue
                    out.append((a, b, c))
        return out


def _order_masks(orders: list[list[int]], n: int) -> tuple[list[list[int]], list[list[int]]]:
    """For each star's angular order of the others: each star's position in it, and the
    bitmasks of its prefixes (``prefix[a][i]``: the first ``i`` stars around ``a``)."""
    position: list[list[int]] = []
    prefix: list[list[int]] = []
    for order in orders:
        pos = [0] * n
        pre = [0]
        acc = 0
        for i, c in enumerate(order):
            pos[c] = i
            acc |= 1 << c
            pre.append(acc)
        position.append(pos)
        prefix.append(pre)
    return position, prefix


@lru_cache(maxsize=8)
def board_for(stars: tuple[Point, ...], tolerance: int) -> Board:
    """The (cached) :class:`Board` of ``stars`` with ``tolerance``."""
    return Board(stars, tolerance)
