"""A contest's arithmetic, without the server: the boards' sizes, the draw from the contest's
seed, the commitment to that seed, and the places and rewards (``docs/contests.md``).

Everything here is a pure function of its arguments, so that anyone holding the revealed seed
can recompute the draw:

>>> board_sizes(7, 4, 2, 4), board_sizes(9, 4, 2, 4), board_sizes(5, 4, 2, 4)
([4, 3], [3, 3, 3], [3, 2])
>>> boards = draw(1234, [1, 2, 3, 4, 5, 6, 7], [4, 3])
>>> [len(board) for board in boards], sorted(e for board in boards for e in board)
([4, 3], [1, 2, 3, 4, 5, 6, 7])
>>> boards == draw(1234, [7, 6, 5, 4, 3, 2, 1], [4, 3])  # entry numbers are sorted first
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from triverse.core.fairness import commitment
from triverse.core.rng import derive

SCHEME = "triverse-contest-1"
"""The name of the commitment scheme of contest draws (in the committed payload)."""


def board_sizes(entrants: int, wanted: int, least: int, most: int) -> list[int]:
    """The sizes of the boards for ``entrants`` players, ``wanted`` a board, in a game for
    ``least`` to ``most`` players: ``ceil(entrants / wanted)`` boards, sizes as even as
    possible, larger boards first; fewer boards when one would be smaller than ``least``
    (as long as none gets more than ``most``). When no count of boards fits (a game for
    exactly two, and an odd number of entrants), boards of ``wanted`` each, and the entrants
    drawn last sit out. ``[]`` for fewer entrants than ``least``.

    >>> board_sizes(3, 2, 2, 4), board_sizes(5, 2, 2, 2), board_sizes(1, 4, 2, 4)
    ([3], [2, 2], [])
    >>> board_sizes(8, 4, 2, 4), board_sizes(13, 6, 2, 6), board_sizes(2, 4, 2, 4)
    ([4, 4], [5, 4, 4], [2])
    """
    if entrants < least:
        return []
    for boards in range(math.ceil(entrants / wanted), 0, -1):
        small, extra = divmod(entrants, boards)
        if small >= least and small + (1 if extra else 0) <= most:
            return [small + 1] * extra + [small] * (boards - extra)
    return [wanted] * (entrants // wanted)


def draw(seed: int, entries: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """The boards of a contest: ``entries`` (entry numbers) sorted, shuffled with
    ``derive(seed, "boards")``; board ``i`` (from 1) takes the next ``sizes[i - 1]`` of them,
    and its posting order (= seat order) is those shuffled with ``derive(seed, "order", i)``.

    >>> draw(7, [1, 2], [2]) == draw(7, [2, 1], [2])
    True
    """
    shuffled = sorted(entries)
    derive(seed, "boards").shuffle(shuffled)
    boards: list[list[int]] = []
    start = 0
    for number, size in enumerate(sizes, start=1):
        board = shuffled[start:start + size]
        derive(seed, "order", number).shuffle(board)
        boards.append(board)
        start += size
    return boards


def contest_commitment(salt: str, contest_id: str, seed: int) -> str:
    """The commitment to a contest's seed, published at its creation: the SHA-256 of the
    canonical JSON of ``{"contest", "salt", "scheme", "seed"}``
    (:func:`triverse.core.fairness.commitment`).

    >>> len(contest_commitment("00" * 16, "c1", 42))
    64
    """
    return commitment(salt, {"scheme": SCHEME, "contest": contest_id, "seed": seed})


def places(ranks: Sequence[int], removed: Sequence[bool]) -> list[int | None]:
    """The places on a board from its match's ranks (1 best; equal ranks tie): a removed
    entrant has none, and the others' places are counted without them (competition ranking:
    one more than the number of kept seats ranked strictly better).

    >>> places([1, 2, 2, 4], [False] * 4)
    [1, 2, 2, 4]
    >>> places([1, 2, 3], [True, False, False])
    [None, 1, 2]
    """
    kept = [rank for rank, gone in zip(ranks, removed, strict=True) if not gone]
    return [None if gone else 1 + sum(1 for other in kept if other < rank)
            for rank, gone in zip(ranks, removed, strict=True)]


def reward(place: int | None, rewards: Sequence[int]) -> int | None:
    """The reward of ``place``: ``rewards[place - 1]``, or 0 past the list; ``None`` without
    a place.

    >>> reward(1, [300, 250]), reward(3, [300, 250]), reward(None, [300])
    (300, 0, None)
    """
    if place is None:
        return None
    return rewards[place - 1] if place <= len(rewards) else 0


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's line in a finished contest's table."""

    entry: int
    name: str
    board: int
    place: int | None
    reward: int | None
    score: int
    removed: bool


def overall(standings: Sequence[Standing]) -> list[Standing]:
    """The overall table: reward (most first), then score (most first), then name, then entry
    number; the removed entrants (no place) last.

    >>> table = overall([Standing(1, "Bo", 1, 2, 250, 40, False),
    ...                  Standing(2, "Al", 2, 1, 300, 30, False),
    ...                  Standing(3, "Cy", 1, None, None, 90, True),
    ...                  Standing(4, "Ab", 1, 1, 300, 30, False)])
    >>> [s.name for s in table]
    ['Ab', 'Al', 'Bo', 'Cy']
    """
    return sorted(standings, key=lambda s: (s.reward is None, -(s.reward or 0), -s.score,
                                            s.name, s.entry))
