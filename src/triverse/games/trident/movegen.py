"""Legal plays from anchors and cross-check masks, without scanning the board.

A play's tiles always lie in one *window*: the run of two or three squares, in a row or a
column, that will hold the new tiles and the tiles between them, with an empty square (or the
edge) on each side. Every legal play after the first touches a tile, so its window holds an
*anchor* (an empty square next to a tile); the generator looks only at the windows through the
anchors, and at the anchors themselves for one-tile plays. On an empty board the only anchor is
the centre star, which the first play must cover.

In a window, each new tile's value must be allowed by the cross-check mask of the line across
the window (see :mod:`triverse.games.trident.board`), and the window's own line must total 15
or less (two tiles) or exactly 15 (three). Jokers take every value that fits; a rack's equal
tiles give each play once.

>>> from triverse.games.trident.board import compute_anchors, compute_cross, new_board
>>> board = new_board()
>>> plays = generate_plays(board, compute_cross(board), compute_anchors(board), [4, 5, 6], [])
>>> len(plays), str(plays[0]), str(plays[-1])
(63, '7:7=4', '7:7=6,8:7=5,9:7=4')
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, permutations
from typing import Final

from triverse.games.trident.board import (
    CELLS,
    EMPTY,
    PAIR_MASK,
    ROW_COL,
    opening_square,
)
from triverse.games.trident.tiles import JOKER, SIZE, TRIO_SUM, Exchange, Placement, Play

_BITS: dict[int, tuple[int, ...]] = {}


def mask_values(mask: int) -> tuple[int, ...]:
    """The values whose bits are set in a 16-bit mask (cached: few masks ever occur).

    >>> mask_values(0b1010_0000_0000_0001)
    (0, 13, 15)
    """
    found = _BITS.get(mask)
    if found is None:
        found = _BITS[mask] = tuple(v for v in range(16) if mask >> v & 1)
    return found


def rack_orders(rack: Sequence[int], k: int) -> list[tuple[int, ...]]:
    """The distinct ordered choices of ``k`` rack tiles, with at most one joker.

    >>> rack_orders([5, 5, 16], 2)
    [(5, 5), (5, 16), (16, 5)]
    """
    return sorted({p for p in permutations(rack, k) if p.count(JOKER) <= 1})


def _window_table() -> tuple[tuple[tuple[int, int, int, int, int], ...], ...]:
    """Per ``direction * 225 + square``: the windows of two or three squares through it, as
    ``(key, first square, length, square before or -1, square after or -1)``, the key being
    ``(first * 2 + direction) * 4 + length``."""
    table = []
    for d in (0, 1):
        step = 1 if d == 0 else SIZE
        for s in range(CELLS):
            r, c = ROW_COL[s]
            base, k = (r * SIZE, c) if d == 0 else (c, r)
            entries = []
            for length in (2, 3):
                for start in range(max(0, k - length + 1), min(k, SIZE - length) + 1):
                    first = base + start * step
                    before = first - step if start > 0 else -1
                    after = first + length * step if start + length < SIZE else -1
                    entries.append(((first * 2 + d) * 4 + length, first, length, before, after))
            table.append(tuple(entries))
    return tuple(table)


_WINDOWS: Final = _window_table()


def _windows(anchors: Sequence[int], board: Sequence[int],
             cross: Sequence[int]) -> list[tuple[int, int, int]]:
    """``(direction, first square, length)`` of every window through an anchor that can hold
    two or three new tiles (the anchor's mask across the window must allow some value), in a
    fixed order."""
    found: dict[int, tuple[int, int, int]] = {}
    for d in (0, 1):
        other = CELLS * (1 - d)
        at = CELLS * d
        step = 1 if d == 0 else SIZE
        for a in anchors:
            if not cross[other + a]:
                continue
            for key, first, length, before, after in _WINDOWS[at + a]:
                if (before >= 0 and board[before] != EMPTY) or (
                        after >= 0 and board[after] != EMPTY):
                    continue
                if length == 3 or board[first] == EMPTY == board[first + step]:
                    found[key] = (d, first, length)
    return [found[key] for key in sorted(found)]


class _RackPlan:
    """A rack's ordered choices of tiles, grouped the way the windows need them."""

    __slots__ = ("joker_pairs", "joker_triples", "pairs", "pairs_by_sum", "triples")

    def __init__(self, rack: Sequence[int]) -> None:
        self.pairs: list[tuple[int, int]] = []
        """Ordered pairs without a joker, totalling 15 or less."""
        self.pairs_by_sum: dict[int, list[tuple[int, int]]] = {}
        self.joker_pairs: list[tuple[int, int]] = []
        """``(joker position, other tile)``."""
        self.triples: list[tuple[int, int, int]] = []
        """Ordered triples without a joker, totalling 15."""
        self.joker_triples: list[tuple[int, tuple[int, int]]] = []
        """``(joker position, the other two tiles in order)``."""
        for a, b in rack_orders(rack, 2) if len(rack) >= 2 else ():
            if a == JOKER:
                self.joker_pairs.append((0, b))
            elif b == JOKER:
                self.joker_pairs.append((1, a))
            else:
                self.pairs_by_sum.setdefault(a + b, []).append((a, b))
                if a + b <= TRIO_SUM:
                    self.pairs.append((a, b))
        for t in rack_orders(rack, 3) if len(rack) >= 3 else ():
            if JOKER in t:
                at = t.index(JOKER)
                others = tuple(x for x in t if x != JOKER)
                self.joker_triples.append((at, (others[0], others[1])))
            elif sum(t) == TRIO_SUM:
                self.triples.append((t[0], t[1], t[2]))


def generate_plays(board: Sequence[int], cross: Sequence[int], anchors: set[int] | Sequence[int],
                   rack: Sequence[int], placed: Sequence[int]) -> list[Play]:
    """Every legal play of ``rack`` on ``board``, once each.

    ``cross`` holds the masks (``cross[d * 225 + s]``), ``anchors`` the anchor squares and
    ``placed`` the occupied squares (the opening rule looks at them while fewer than nine).
    """
    out: list[Play] = []
    sorted_anchors = sorted(anchors)
    _singles(cross, sorted_anchors, sorted(set(rack)), out)
    if len(rack) >= 2:
        plan = _RackPlan(rack)
        for d, first, length in _windows(sorted_anchors, board, cross):
            _window_plays(plan, board, cross, d, first, length, out)
    if len(placed) < 9:
        out = [p for p in out if not opening_square(placed, p.squares)]
    return out


def _singles(cross: Sequence[int], anchors: Sequence[int], kinds: Sequence[int],
             out: list[Play]) -> None:
    """One tile on an anchor: both lines through it are cross lines."""
    for a in anchors:
        allowed = cross[a] & cross[CELLS + a]
        if not allowed:
            continue
        r, c = ROW_COL[a]
        for t in kinds:
            if t == JOKER:
                out.extend(Play((Placement(r, c, x, True),)) for x in mask_values(allowed))
            elif allowed >> t & 1:
                out.append(Play((Placement(r, c, t, False),)))


def _window_plays(plan: _RackPlan, board: Sequence[int], cross: Sequence[int], d: int,
                  first: int, length: int, out: list[Play]) -> None:
    """Two or three tiles in the window of ``length`` squares from ``first`` in direction
    ``d``: a pair in two empty squares, a Trio in three, or two new tiles completing a Trio
    with the one tile already in the window."""
    step = 1 if d == 0 else SIZE
    other = CELLS * (1 - d)
    if length == 2:
        _pairs(plan, first, first + step, cross[other + first], cross[other + first + step],
               TRIO_SUM, True, out)
        return
    s0, s1, s2 = first, first + step, first + 2 * step
    b0, b1, b2 = board[s0], board[s1], board[s2]
    if b0 == EMPTY and b1 == EMPTY and b2 == EMPTY:
        _triples(plan, (s0, s1, s2), (cross[other + s0], cross[other + s1],
                                      cross[other + s2]), out)
        return
    if (b0 != EMPTY) + (b1 != EMPTY) + (b2 != EMPTY) != 1:
        return
    fixed = (b0 & 15) if b0 != EMPTY else (b1 & 15) if b1 != EMPTY else (b2 & 15)
    e0, e1 = (s1, s2) if b0 != EMPTY else (s0, s2) if b1 != EMPTY else (s0, s1)
    _pairs(plan, e0, e1, cross[other + e0], cross[other + e1], TRIO_SUM - fixed, False, out)


def _pairs(plan: _RackPlan, s0: int, s1: int, m0: int, m1: int, room: int, at_most: bool,
           out: list[Play]) -> None:
    """Two new tiles on ``s0``, ``s1`` totalling ``room`` (or at most ``room``)."""
    if not m0 or not m1 or room < 0:
        return
    r0, c0 = ROW_COL[s0]
    r1, c1 = ROW_COL[s1]
    for a, b in plan.pairs if at_most else plan.pairs_by_sum.get(room, ()):
        if m0 >> a & 1 and m1 >> b & 1:
            out.append(Play((Placement(r0, c0, a, False), Placement(r1, c1, b, False))))
    for at, t in plan.joker_pairs:
        if not (m1 if at == 0 else m0) >> t & 1:
            continue
        mask = m0 if at == 0 else m1
        left = room - t
        if left < 0:
            continue
        values = mask_values(mask & PAIR_MASK[15 - left]) if at_most else (
            (left,) if left <= 15 and mask >> left & 1 else ())
        for x in values:
            if at == 0:
                out.append(Play((Placement(r0, c0, x, True), Placement(r1, c1, t, False))))
            else:
                out.append(Play((Placement(r0, c0, t, False), Placement(r1, c1, x, True))))


def _triples(plan: _RackPlan, squares: tuple[int, int, int], masks: tuple[int, int, int],
             out: list[Play]) -> None:
    """Three new tiles (a Trio) on ``squares``."""
    m0, m1, m2 = masks
    if not (m0 and m1 and m2):
        return
    rc = [ROW_COL[s] for s in squares]
    for a, b, c in plan.triples:
        if m0 >> a & 1 and m1 >> b & 1 and m2 >> c & 1:
            out.append(Play((Placement(*rc[0], a, False), Placement(*rc[1], b, False),
                             Placement(*rc[2], c, False))))
    for at, (a, b) in plan.joker_triples:
        x = TRIO_SUM - a - b
        if x < 0 or not masks[at] >> x & 1:
            continue
        values = [a, b]
        values.insert(at, x)
        if all(masks[i] >> values[i] & 1 for i in range(3) if i != at):
            out.append(Play(tuple(Placement(*rc[i], values[i], i == at) for i in range(3))))


def generate_exchanges(rack: Sequence[int]) -> list[Exchange]:
    """Every distinct choice of 1-3 rack tiles to exchange.

    >>> [str(e) for e in generate_exchanges([5, 5, 16])]
    ['exchange 5', 'exchange *', 'exchange 5,5', 'exchange 5,*', 'exchange 5,5,*']
    """
    out: list[Exchange] = []
    ordered = sorted(rack)
    for k in range(1, len(ordered) + 1):
        out.extend(Exchange(c) for c in sorted(set(combinations(ordered, k))))
    return out

