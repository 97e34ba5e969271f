"""Helpers for the Trident tests: positions from a board and racks, and a deliberately naive
rules checker and play enumerator.

Nothing in the naive part comes from the engine's move generator, masks or legality code: the
board is read square by square, and every rule is checked by rescanning whole rows and columns.
Slow, and meant to be.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, permutations
from typing import Any

from triverse.games.trident.engine import TridentGame, TridentState, complete_setup
from triverse.games.trident.tiles import JOKER, Placement, Play

N = 15


def position(board: Sequence[str] = (), racks: Sequence[Sequence[int | str]] = ((0,), (0,)),
             variant: str = "seed", seed: int = 1, time_limit: int = 0,
             **extra: Any) -> TridentState:
    """A state with ``board`` (``"r:c=v"`` tiles) and ``racks`` (one per seat), the other tiles
    in the bag in tile order (0s drawn first)."""
    game = TridentGame(len(racks), {"variant": variant, "time_limit": time_limit})
    partial = {"board": list(board), "racks": [list(r) for r in racks], **extra}
    return game.new_initial_state(seed=seed, setup=complete_setup(partial, variant))


def _line_ok(values: list[int | None]) -> bool:
    """Every maximal run of tiles in one whole row or column: at most 3, pairs <= 15, trios
    == 15."""
    run: list[int] = []
    for v in [*values, None]:
        if v is not None:
            run.append(v)
            continue
        if len(run) > 3 or (len(run) == 2 and sum(run) > 15) or (
                len(run) == 3 and sum(run) != 15):
            return False
        run = []
    return True


def board_cells(board: Sequence[int]) -> dict[tuple[int, int], int]:
    """The tiles of a 225-cell board by ``(row, col)``: their values."""
    return {(s // N, s % N): board[s] & 15 for s in range(N * N) if board[s] >= 0}


def naive_legal(cells: dict[tuple[int, int], int], rack: Sequence[int],
                play: Sequence[Placement]) -> bool:
    """Whether ``play`` is legal on the board ``cells`` with ``rack``, by the rules alone."""
    if not 1 <= len(play) <= 3:
        return False
    squares = [(p.row, p.col) for p in play]
    if len(set(squares)) != len(squares) or any(sq in cells for sq in squares):
        return False
    if Counter(p.kind for p in play) - Counter(rack):
        return False
    if sum(p.joker for p in play) > 1:
        return False
    rows = {r for r, _ in squares}
    cols = {c for _, c in squares}
    if len(rows) > 1 and len(cols) > 1:
        return False
    after = dict(cells)
    for p in play:
        after[(p.row, p.col)] = p.value
    # one unbroken line from the first new tile to the last
    if len(rows) == 1:
        (r,) = rows
        if any((r, c) not in after for c in range(min(cols), max(cols) + 1)):
            return False
    else:
        (c,) = cols
        if any((r, c) not in after for r in range(min(rows), max(rows) + 1)):
            return False
    if not cells:
        if (7, 7) not in squares:
            return False
    elif not any((r + dr, c + dc) in cells for r, c in squares
                 for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
        return False
    # every row and column with a new tile, scanned whole (the others did not change)
    for r in {r for r, _ in squares}:
        if not _line_ok([after.get((r, c)) for c in range(N)]):
            return False
    for c in {c for _, c in squares}:
        if not _line_ok([after.get((r, c)) for r in range(N)]):
            return False
    # the opening squares: any of this play's tiles may be the 4th (9th)
    before = list(cells)
    for side in (2, 3):
        total = side * side
        if len(before) < total <= len(before) + len(squares):
            for extra in combinations(squares, total - len(before)):
                group = before + list(extra)
                rs = {r for r, _ in group}
                cs = {c for _, c in group}
                if (len(rs) == side and len(cs) == side and max(rs) - min(rs) == side - 1
                        and max(cs) - min(cs) == side - 1):
                    return False
    return True


def candidate_plays(cells: dict[tuple[int, int], int],
                    rack: Sequence[int]) -> Iterator[tuple[Placement, ...]]:
    """Every arrangement of 1-3 rack tiles on empty squares of one row or column within a span
    of three (a legal play's tiles are joined into one line of at most three) that touches a
    tile (or covers the centre on an empty board), every joker value, equal rack tiles once."""
    empty = [(r, c) for r in range(N) for c in range(N) if (r, c) not in cells]
    empty_set = set(empty)

    def touches(group: tuple[tuple[int, int], ...]) -> bool:
        if not cells:
            return (7, 7) in group
        return any((r + dr, c + dc) in cells for r, c in group
                   for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))

    groups: list[tuple[tuple[int, int], ...]] = [(sq,) for sq in empty]
    for r, c in empty:
        for dr, dc in ((0, 1), (1, 0)):
            for gap in (1, 2):
                other = (r + dr * gap, c + dc * gap)
                if other in empty_set:
                    groups.append(((r, c), other))
            mid, last = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if mid in empty_set and last in empty_set:
                groups.append(((r, c), mid, last))
    for group in groups:
        if not touches(group):
            continue
        for kinds in set(permutations(rack, len(group))):
            jokers = [i for i, k in enumerate(kinds) if k == JOKER]
            if len(jokers) > 1:
                continue
            values_for_joker = range(16) if jokers else (None,)
            for x in values_for_joker:
                yield tuple(sorted(
                    Placement(r, c, x if k == JOKER else k, k == JOKER)  # type: ignore[arg-type]
                    for (r, c), k in zip(group, kinds, strict=True)))


def brute_plays(board: Sequence[int], rack: Sequence[int]) -> set[Play]:
    """Every legal play on a 225-cell ``board``, by trying every candidate."""
    cells = board_cells(board)
    return {Play(tiles) for tiles in candidate_plays(cells, rack)
            if naive_legal(cells, rack, tiles)}
