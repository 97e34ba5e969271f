"""Fast scoring of Trident plays, for the computer players' simulations.

:func:`play_points` gives the points of a legal play as the engine's
:func:`~triverse.games.trident.scoring.score_play` totals them, without its English labels
(plays on plain squares by walking the board), and :func:`apply_play` applies a play without
writing its events. Both are tested equal to the engine.

>>> from triverse.games.trident.board import new_board
>>> board = new_board()
>>> board[7 * SIZE + 7] = 5
>>> play_points(board, [Placement(7, 8, 4, False)], False)  # the pair 5 + 4
9
"""

from __future__ import annotations

from collections.abc import Sequence

from triverse.games.trident.board import (
    ACROSS,
    DOWN,
    IS_BIS,
    JOKER_FLAG,
    MULTIPLIER,
    update_after_play,
)
from triverse.games.trident.engine import TridentState
from triverse.games.trident.scoring import TRIO_BONUS, TRITON_BONUS, play_lines
from triverse.games.trident.tiles import JOKER, SIZE, TRIO_SUM, Placement, Play


def _outward(board: Sequence[int], base: int, step: int, lo: int, hi: int) -> tuple[int, int]:
    """The numbers (a joker counts 0) and the count of the tiles already down next to squares
    ``lo`` to ``hi`` of one line, walking outwards from both ends to the first empty square."""
    points = extra = 0
    q = lo - 1
    while q >= 0:
        code = board[base + q * step]
        if code < 0:
            break
        points += 0 if code >= JOKER_FLAG else code
        extra += 1
        q -= 1
    q = hi + 1
    while q < SIZE:
        code = board[base + q * step]
        if code < 0:
            break
        points += 0 if code >= JOKER_FLAG else code
        extra += 1
        q += 1
    return points, extra


def _plain_points(board: Sequence[int], tiles: Sequence[Placement]) -> int | None:
    """:func:`play_points` of a play whose new tiles are all on plain squares (no multiplier:
    a pair scores its numbers, a joker 0, a Trio 30), walking the board; ``None`` for a play
    on a premium square (or a lone tile)."""
    for p in tiles:
        if MULTIPLIER[p.row * SIZE + p.col] != 1:
            return None
    if len(tiles) == 1:
        total, lines = _cross_points(board, tiles, (ACROSS, DOWN))
        return total if lines else None
    main = ACROSS if tiles[0].row == tiles[1].row else DOWN
    cross = (DOWN,) if main == ACROSS else (ACROSS,)
    total, _lines = _cross_points(board, tiles, cross)
    return _main_line_points(board, tiles, main) + total


def _main_line_points(board: Sequence[int], tiles: Sequence[Placement], main: int) -> int:
    """The points of the line of two or more new tiles on plain squares (in direction
    ``main``), with the Triton bonus."""
    if main == ACROSS:
        cols = [p.col for p in tiles]
        lo, hi = min(cols), max(cols)
        base, step = tiles[0].row * SIZE, 1
    else:
        rows = [p.row for p in tiles]
        lo, hi = min(rows), max(rows)
        base, step = tiles[0].col, SIZE
    length = hi - lo + 1
    points = 0
    jokers = 0
    for p in tiles:
        if p.joker:
            jokers += 1
        else:
            points += p.value
    for q in range(lo + 1, hi):  # a tile already down between the new ones
        code = board[base + q * step]
        if code >= 0:
            points += 0 if code >= JOKER_FLAG else code
    more, extra = _outward(board, base, step, lo, hi)
    points += more
    length += extra
    total = TRIO_SUM + TRIO_BONUS if length == 3 else points
    if len(tiles) == 3 and not jokers:
        total += TRITON_BONUS
    return total


def _cross_points(board: Sequence[int], tiles: Sequence[Placement], cross: tuple[int, ...]
                  ) -> tuple[int, int]:
    """The points of the lines each new tile (on a plain square) makes in the directions
    ``cross``, and how many lines they are."""
    total = lines = 0
    for p in tiles:
        own = 0 if p.joker else p.value
        for d in cross:
            if d == ACROSS:
                base, step, k = p.row * SIZE, 1, p.col
            else:
                base, step, k = p.col, SIZE, p.row
            more, extra = _outward(board, base, step, k, k)
            points = own + more
            length = 1 + extra
            if length > 1:
                lines += 1
                total += TRIO_SUM + TRIO_BONUS if length == 3 else points
    return total, lines


def play_points(board: Sequence[int], tiles: Sequence[Placement], triolet: bool) -> int:
    """The points of a legal play: the engine's :func:`~triverse.games.trident.scoring.score_play`
    total, computed without its labels (tested equal).

    >>> from triverse.games.trident.board import new_board
    >>> board = new_board()
    >>> board[7 * SIZE + 7], board[7 * SIZE + 8] = 2, 4
    >>> play_points(board, [Placement(7, 9, 9, False)], False)  # a Trio
    30
    >>> play_points(board, [Placement(6, 8, 3, False)], False)  # the pair 3 + 4 down
    7
    """
    fast = _plain_points(board, tiles)
    if fast is not None:
        return fast
    overlay, found = play_lines(board, tiles)
    lines = [(squares, codes) for _d, squares, codes in found]
    if not lines:
        (p,) = tiles
        return 0 if p.joker else p.value * MULTIPLIER[p.row * SIZE + p.col]
    triton = len(tiles) == 3
    main = -1
    if triton:
        for i, (squares, _codes) in enumerate(lines):
            if all(q in overlay for q in squares):
                main = i
                break
    assigned: list[dict[int, int]] = [{} for _ in lines]

    def points(i: int, given: dict[int, int]) -> int:
        squares, codes = lines[i]
        if len(codes) == 2:
            return sum(0 if c >= 16 else c * given.get(s, 1)
                       for s, c in zip(squares, codes, strict=True))
        if triolet or i == main:
            mult = 1
            for m in given.values():
                mult *= m
            return (TRIO_SUM + TRIO_BONUS) * mult
        return sum((c & 15) * given.get(s, 1) for s, c in zip(squares, codes, strict=True)) \
            + TRIO_BONUS

    for s in overlay:
        m = MULTIPLIER[s]
        if m == 1:
            continue
        best_index = -1
        best_gain = -1
        for i, (squares, _codes) in enumerate(lines):
            if s not in squares:
                continue
            gain = points(i, {**assigned[i], s: m}) - points(i, assigned[i])
            if gain > best_gain:
                best_gain, best_index = gain, i
        if best_index >= 0:
            assigned[best_index][s] = m
    total = sum(points(i, assigned[i]) for i in range(len(lines)))
    if triton and not any(p.joker for p in tiles):
        total += TRITON_BONUS
    return total


def apply_play(state: TridentState, play: Play, points: int) -> None:
    """Apply a legal play worth ``points`` (:func:`play_points`) as the engine's
    ``apply_unchecked`` does, without writing its events: for simulations (tested equal)."""
    seat = state.order[state.turn]
    state.scores[seat] += points
    board = state.board
    placed = state.placed
    rack = state.racks[seat]
    squares = []
    for p in play.tiles:
        s = p.row * SIZE + p.col
        squares.append(s)
        board[s] = p.value + JOKER_FLAG if p.joker else p.value
        placed.append(s)
        rack.remove(JOKER if p.joker else p.value)
    update_after_play(board, state.cross, state.anchors, squares)
    bag = state.bag
    for _ in range(min(len(squares), len(bag))):
        rack.append(bag.pop())
    rack.sort()
    state.passes = 0
    state.idle = 0
    state.history.append(play)
    if not rack and not bag:
        state._end_out(seat)
    elif not any(IS_BIS[s] for s in squares):
        state.turn = (state.turn + 1) % len(state.order)



__all__ = ["apply_play", "play_points"]
