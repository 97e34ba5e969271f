"""What tiles on a Trident rack are worth, to the average and the veteran computer players.

The average player values the tiles a play keeps (its *leave*) by :func:`leave_value`: a joker,
middling numbers, a pair that a drawn tile can make 15 with; the veteran by :func:`leave_points`
and a full rack by :func:`rack_points`, in the points they add to the next turn (fitted by
simulation, ``benchmarks/trident_rack_points.py``).

>>> rack_points([4, 5, 6]) > rack_points([4, 5, 14])
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from triverse.games.trident.engine import TridentState
from triverse.games.trident.tiles import JOKER, TILE_SET, TRIO_SUM

LEAVE_W = 0.5
"""How much the value of the tiles kept on the rack (:func:`leave_value`) counts against a
play's points."""
JOKER_LEAVE = 9.0
DUPLICATE_LEAVE = -3.0
TRITON_HOPE = 60.0
"""What a rack that could make 15 with one more tile is worth, times the chance of drawing it."""


def tile_leave(t: int) -> float:
    """The worth of keeping one tile: jokers are gold, middling numbers flexible, high ones
    hard to place (a pair must total 15 or less).

    >>> tile_leave(16) > tile_leave(5) > tile_leave(14)
    True
    """
    if t == JOKER:
        return JOKER_LEAVE
    return 1.5 - 0.45 * max(0, t - 7) - 0.3 * max(0, 2 - t)


def leave_value(rack: Sequence[int], unseen: Counter[int] | None = None) -> float:
    """The worth of the tiles kept on a rack (before drawing)."""
    value = sum(tile_leave(t) for t in rack)
    counts = Counter(rack)
    value += DUPLICATE_LEAVE * sum(c - 1 for c in counts.values() if c > 1)
    numbers = [t for t in rack if t != JOKER]
    if len(rack) == 2 and len(numbers) == 2:
        need = TRIO_SUM - numbers[0] - numbers[1]
        if 0 <= need <= 15:
            chance = 0.08 if unseen is None else unseen[need] / max(1, sum(unseen.values()))
            value += TRITON_HOPE * chance
    return value


RACK_TILE_POINTS: tuple[float, ...] = (
    -2.52, -0.82, -0.63, 0.10, 0.58, 0.08, 0.20, 0.48,  # 0-7
    1.39, 0.88, -1.09, -2.56, -2.37, -3.51, -5.51, -6.02,  # 8-15
    25.29,  # a joker
)
"""What a tile on a full rack adds to the points of the next turn, against an average tile:
fitted by least squares to the best play's points (:meth:`TridentKnowledge.greedy_play`) of
12,000 racks dealt from the unseen tiles of positions of games between average players
(``benchmarks/trident_rack_points.py``). A joker is worth a Trio almost anywhere; 13, 14 and 15
are hard to place."""
RACK_TRITON_POINTS = 77.82
"""Three numbers totalling 15 on the rack: the next turn's Triton (+50, a Trio of 30 and its
cross lines), fitted with :data:`RACK_TILE_POINTS`."""
RACK_DUPLICATE_POINTS = -5.37
"""Each tile the same as another on the rack, fitted with :data:`RACK_TILE_POINTS`."""


def rack_points(rack: Sequence[int]) -> float:
    """The veteran's value of a full rack: the points it adds to the next turn's best play
    (:data:`RACK_TILE_POINTS`, a Triton in hand, tiles the same).

    >>> rack_points([4, 5, 6]) > rack_points([4, 5, 16]) > rack_points([4, 5, 14])
    True
    """
    value = 0.0
    seen = 0
    total = 0
    numbers = 0
    for t in rack:
        value += RACK_TILE_POINTS[t]
        if seen >> t & 1:
            value += RACK_DUPLICATE_POINTS
        seen |= 1 << t
        if t != JOKER:
            total += t
            numbers += 1
    if numbers == 3 and total == TRIO_SUM:
        value += RACK_TRITON_POINTS
    return value



def leave_points(kept: Sequence[int], unseen: Counter[int]) -> float:
    """The veteran's value of the tiles kept after a play, in the next turn's points: their
    :data:`RACK_TILE_POINTS`, and for two numbers the chance that the tile drawn makes a
    Triton with them.

    >>> from triverse.games.trident.tiles import TILE_SET
    >>> unseen = Counter(TILE_SET)  # the 83 tiles: nine 0s, one 15, two jokers
    >>> leave_points([16], unseen) > leave_points([7, 8], unseen) > leave_points([7, 9], unseen)
    True
    """
    value = rack_points(kept)
    if len(kept) == 2 and JOKER not in kept:
        need = TRIO_SUM - kept[0] - kept[1]
        if 0 <= need <= 15:
            value += RACK_TRITON_POINTS * unseen[need] / max(1, sum(unseen.values()))
    return value



def average_leave(kept: Sequence[int], unseen: Counter[int]) -> float:
    """The average player's value of the tiles kept after a play: half their
    :func:`leave_value`."""
    return LEAVE_W * leave_value(kept, unseen)



def unseen_counts(state: TridentState, seat: int) -> Counter[int]:
    """The tiles ``seat`` has not seen: the set less the board and its own rack."""
    unseen = Counter(TILE_SET)
    board = state.board
    for s in state.placed:
        unseen[JOKER if board[s] >= 16 else board[s]] -= 1
    for t in state.racks[seat]:
        unseen[t] -= 1
    return unseen



__all__ = [
    "DUPLICATE_LEAVE",
    "JOKER_LEAVE",
    "LEAVE_W",
    "RACK_DUPLICATE_POINTS",
    "RACK_TILE_POINTS",
    "RACK_TRITON_POINTS",
    "TRITON_HOPE",
    "average_leave",
    "leave_points",
    "leave_value",
    "rack_points",
    "tile_leave",
    "unseen_counts",
]
