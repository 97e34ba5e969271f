"""The 15x15 board: the Triolet layout, tile runs, and the per-square cross-check masks.

Squares are numbered ``row * 15 + col`` (0 to 224); the centre star is square 112 (``7:7``).
The board is a flat list of 225 cells: :data:`EMPTY` (-1), or a tile's value (0-15), plus
:data:`JOKER_FLAG` (16) for a joker, which keeps the value it was declared as.

A *run* is a maximal line of touching tiles in a row or a column; the rules allow runs of at
most three tiles, two totalling 15 or less, three totalling exactly 15.

Cross-check masks: for every empty square and each direction, a 16-bit mask of the values a tile
placed there may take so that the run it joins *in that direction* stays legal (bit ``v`` set:
value ``v`` allowed). ``0xFFFF`` where the square has no neighbour that way. The move generator
reads them for the line across a play; :func:`update_after_play` refreshes only the squares at
the ends of the runs that a play changed.

>>> board = new_board()
>>> board[CENTRE] = 9
>>> line_mask(board, CENTRE + 1, ACROSS) == (1 << 7) - 1    # next to a 9: 0 to 6
True
>>> board[CENTRE + 1] = 2
>>> line_mask(board, CENTRE + 2, ACROSS) == 1 << 4          # 9 + 2 + 4 = 15
True
>>> MULTIPLIER[CENTRE], square_name(CENTRE)
(2, '7:7')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Final

from triverse.core.messages import Reason
from triverse.games.trident.tiles import SIZE, TRIO_SUM

CELLS: Final = SIZE * SIZE
CENTRE: Final = 7 * SIZE + 7
EMPTY: Final = -1
JOKER_FLAG: Final = 16
"""Added to a joker's declared value in a board cell."""
FULL: Final = 0xFFFF
ACROSS: Final = 0
"""Direction: along a row (columns change)."""
DOWN: Final = 1
"""Direction: along a column (rows change)."""
STEP: Final = (1, SIZE)
DIRECTION_NAMES: Final = ("across", "down")

DOUBLE_SQUARES: Final = ((3, 7), (4, 4), (4, 10), (7, 3), (7, 11), (10, 4), (10, 10), (11, 7),
                         (7, 7))
"""Double squares; the last is the centre star, a double too."""
TRIPLE_SQUARES: Final = ((1, 4), (1, 10), (4, 1), (4, 13), (10, 1), (10, 13), (13, 4), (13, 10))
BIS_SQUARES: Final = ((0, 7), (1, 1), (1, 13), (7, 0), (7, 14), (13, 1), (13, 13), (14, 7))
"""Covering one of these lets the player play again (after refilling the rack)."""


def _square_table(squares: Iterable[tuple[int, int]], value: int, default: int) -> tuple[int, ...]:
    table = [default] * CELLS
    for r, c in squares:
        table[r * SIZE + c] = value
    return tuple(table)


MULTIPLIER: Final[tuple[int, ...]] = tuple(
    max(a, b) for a, b in zip(_square_table(DOUBLE_SQUARES, 2, 1),
                              _square_table(TRIPLE_SQUARES, 3, 1), strict=True))
"""Per square: 2 on a double (and the star), 3 on a triple, else 1."""
IS_BIS: Final[tuple[bool, ...]] = tuple(bool(x) for x in _square_table(BIS_SQUARES, 1, 0))
ROW_COL: Final[tuple[tuple[int, int], ...]] = tuple(divmod(s, SIZE) for s in range(CELLS))
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(r2 * SIZE + c2 for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
          if 0 <= r2 < SIZE and 0 <= c2 < SIZE)
    for r, c in ROW_COL)
PAIR_MASK: Final[tuple[int, ...]] = tuple((1 << (16 - v)) - 1 for v in range(16))
"""Values ``x`` with ``x + v <= 15``, for a neighbour ``v``."""


def new_board() -> list[int]:
    """An empty board."""
    return [EMPTY] * CELLS


def square_name(square: int) -> str:
    """``row:col``."""
    row, col = ROW_COL[square]
    return f"{row}:{col}"


def cell_code(value: int, joker: bool) -> int:
    """The board cell of a tile: its value, plus :data:`JOKER_FLAG` for a joker."""
    return value + JOKER_FLAG if joker else value


def premium_name(square: int) -> str | None:
    """``"double"``, ``"triple"``, ``"bis"``, ``"star"`` or ``None``."""
    if square == CENTRE:
        return "star"
    if IS_BIS[square]:
        return "bis"
    m = MULTIPLIER[square]
    return "double" if m == 2 else "triple" if m == 3 else None


def layout_json() -> dict[str, object]:
    """The board's premium squares, for a user interface.

    >>> layout_json()["star"]
    [7, 7]
    """
    return {
        "size": SIZE,
        "star": [7, 7],
        "double": [list(rc) for rc in DOUBLE_SQUARES],
        "triple": [list(rc) for rc in TRIPLE_SQUARES],
        "bis": [list(rc) for rc in BIS_SQUARES],
    }


def line_of(square: int, direction: int) -> tuple[int, int, int]:
    """``(base, step, k)``: the line through ``square`` is ``base + q * step`` for ``q`` in
    0-14, and ``square`` is at ``q = k``."""
    r, c = ROW_COL[square]
    if direction == ACROSS:
        return r * SIZE, 1, c
    return c, SIZE, r


def line_mask(board: Sequence[int], square: int, direction: int) -> int:
    """The values allowed on empty ``square`` by the run it would join in ``direction``."""
    base, step, k = line_of(square, direction)
    n = 0
    total = 0
    q = k - 1
    while q >= 0:
        x = board[base + q * step]
        if x < 0:
            break
        n += 1
        total += x & 15
        if n >= 3:
            return 0
        q -= 1
    q = k + 1
    while q < SIZE:
        x = board[base + q * step]
        if x < 0:
            break
        n += 1
        total += x & 15
        if n >= 3:
            return 0
        q += 1
    if n == 0:
        return FULL
    if n == 1:
        return PAIR_MASK[total]
    need = TRIO_SUM - total
    return 1 << need if 0 <= need <= 15 else 0


def run_squares(board: Sequence[int], square: int, direction: int, limit: int = 4) -> list[int]:
    """The run through occupied ``square`` in ``direction``, in order (at most ``limit`` tiles
    on each side are looked at)."""
    base, step, k = line_of(square, direction)
    lo = k
    while lo > 0 and k - lo < limit and board[base + (lo - 1) * step] >= 0:
        lo -= 1
    hi = k
    while hi < SIZE - 1 and hi - k < limit and board[base + (hi + 1) * step] >= 0:
        hi += 1
    return [base + q * step for q in range(lo, hi + 1)]


def compute_cross(board: Sequence[int]) -> list[int]:
    """All cross-check masks from scratch: ``cross[d * 225 + s]`` for direction ``d``."""
    cross = [0] * (2 * CELLS)
    for s in range(CELLS):
        if board[s] < 0:
            cross[s] = line_mask(board, s, ACROSS)
            cross[CELLS + s] = line_mask(board, s, DOWN)
    return cross


def compute_anchors(board: Sequence[int]) -> set[int]:
    """Empty squares next to a tile; on an empty board, the centre star alone."""
    anchors = {s for s in range(CELLS)
               if board[s] < 0 and any(board[n] >= 0 for n in NEIGHBOURS[s])}
    return anchors or {CENTRE}


def update_after_play(board: Sequence[int], cross: list[int], anchors: set[int],
                      squares: Iterable[int]) -> None:
    """Refresh the masks and anchors after tiles were put on ``squares`` (already on
    ``board``): only the empty squares at the two ends of each run that changed."""
    touched: set[int] = set()
    for s in squares:
        cross[s] = 0
        cross[CELLS + s] = 0
        anchors.discard(s)
        for n in NEIGHBOURS[s]:
            if board[n] < 0:
                anchors.add(n)
        for d in (ACROSS, DOWN):
            base, step, k = line_of(s, d)
            lo = k
            while lo > 0 and board[base + (lo - 1) * step] >= 0:
                lo -= 1
            hi = k
            while hi < SIZE - 1 and board[base + (hi + 1) * step] >= 0:
                hi += 1
            if lo > 0:
                touched.add(d * CELLS + base + (lo - 1) * step)
            if hi < SIZE - 1:
                touched.add(d * CELLS + base + (hi + 1) * step)
    for key in touched:
        d, e = divmod(key, CELLS)
        cross[key] = line_mask(board, e, d)


def opening_square_problem(before: Sequence[int], new: Sequence[int]) -> str | None:
    """Why adding ``new`` squares to the ``before`` squares (the tiles already down, fewer than
    nine) breaks the opening rule, or ``None``.

    The first four tiles may not form a 2x2 square, nor the first nine a 3x3 square. Tiles of
    one play have no order among themselves, so when a play takes the board past four (or
    nine) tiles, any of its tiles may be counted as the fourth (ninth).

    >>> opening_square_problem([112, 113, 127], [128])
    'the first four tiles may not form a 2x2 square'
    >>> opening_square_problem([112, 113, 127], [142]) is None
    True
    """
    side = opening_square(before, new)
    if not side:
        return None
    return Reason(f"the first {'four' if side == 2 else 'nine'} tiles may not "
                  f"form a {side}x{side} square", "refused.opening_square",
                  side=side, count=side * side)


def opening_square(before: Sequence[int], new: Sequence[int]) -> int:
    """The side of the square (2 or 3) that adding ``new`` to ``before`` forms against the
    opening rule, or 0: :func:`opening_square_problem` without building its reason, for move
    generation.

    >>> opening_square([112, 113, 127], [128]), opening_square([112, 113, 127], [142])
    (2, 0)
    """
    b = len(before)
    for side, total in ((2, 4), (3, 9)):
        if not b < total <= b + len(new):
            continue
        for extra in combinations(new, total - b):
            group = [*before, *extra]
            rows = {s // SIZE for s in group}
            cols = {s % SIZE for s in group}
            if (len(rows) == side and len(cols) == side and max(rows) - min(rows) == side - 1
                    and max(cols) - min(cols) == side - 1):
                return side
    return 0


def run_problem(values: Sequence[int]) -> str | None:
    """Why a run of tiles with these values breaks the rules of lines, or ``None``.

    >>> run_problem([9, 8])
    'two tiles side by side total 15 or less, not 9 + 8 = 17'
    >>> run_problem([3, 4, 5])
    'three tiles side by side total exactly 15, not 3 + 4 + 5 = 12'
    """
    n = len(values)
    if n > 3:
        return Reason(f"never more than three tiles side by side ({n} in a line)",
                      "refused.run_too_long", count=n)
    total = sum(values)
    shown = " + ".join(str(v) for v in values)
    if n == 2 and total > TRIO_SUM:
        return Reason(f"two tiles side by side total 15 or less, not {shown} = {total}",
                      "refused.pair_over_15", values=list(values), sum=shown, total=total)
    if n == 3 and total != TRIO_SUM:
        return Reason(f"three tiles side by side total exactly 15, not {shown} = {total}",
                      "refused.trio_not_15", values=list(values), sum=shown, total=total)
    return None


def board_problem(board: Sequence[int]) -> str | None:
    """The first run on ``board`` that breaks the rules of lines, or ``None``."""
    for d in (ACROSS, DOWN):
        for line in range(SIZE):
            q = 0
            while q < SIZE:
                s = line * SIZE + q if d == ACROSS else q * SIZE + line
                if board[s] < 0:
                    q += 1
                    continue
                run = run_squares(board, s, d, limit=SIZE)
                problem = run_problem([board[x] & 15 for x in run])
                if problem is not None:
                    return (f"{DIRECTION_NAMES[d]} from {square_name(run[0])}: {problem}")
                q += len(run)
    return None
