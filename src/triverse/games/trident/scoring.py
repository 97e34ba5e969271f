"""Scoring a play, line by line, with every bonus explained.

Every run of two or three tiles that a play creates or extends scores (``docs/rules/trident.md``):

- a pair: the sum of its tiles, a joker counting nothing;
- a Trio (three in a line, always totalling 15): its tiles plus a bonus of 15, so 30; a joker
  counts as the number it stands for;
- a double or triple square under a new tile multiplies, in one of the tile's lines only (the
  one that gains the player most; on a tie, the line across): the tile's value in a pair; in a
  Trio, the seed multiplies the tile's value, or the Trio's 30 points when the play is a Triton,
  and the ``triolet`` variant always the Trio's 30 points;
- a Triton (Triolet in the ``triolet`` variant): all three rack tiles in one play, +50, not
  when one of them is a joker;
- the opening play of one lone tile scores that tile, doubled by the star.

Each item also says itself as a message code with parameters (docs/messages.md, the
``preview.*`` codes of Trident's templates), for clients that render it in the player's
language; its English ``label`` is that template filled in.

>>> from triverse.games.trident.board import new_board
>>> from triverse.games.trident.tiles import Placement
>>> board = new_board()
>>> board[7 * 15 + 8] = 2; board[7 * 15 + 9] = 4
>>> [(i.label, i.points) for i in score_play(board, [Placement(7, 10, 9)], triolet=False)]
[('Trio 2+4+9 = 15, +15 bonus = 30', 30)]
>>> [(i.code, i.params) for i in score_play(board, [Placement(7, 10, 9)], triolet=False)]
[('preview.trio', {'values': [2, 4, 9], 'sum': '2+4+9', 'multiplier': 1, 'subtotal': 15, \
'bonus': 15, 'total': 30})]
>>> board = new_board(); board[7 * 15 + 4] = 2; board[7 * 15 + 5] = 4
>>> [i.label for i in score_play(board, [Placement(7, 3, 9)], triolet=False)]
['Trio 9×2+2+4 = 24, +15 bonus = 39']
>>> [i.label for i in score_play(board, [Placement(7, 3, 9)], triolet=True)]
['Trio 9+2+4 = 15, +15 bonus = 30, ×2 = 60']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from triverse.games.trident.board import (
    ACROSS,
    DOWN,
    MULTIPLIER,
    ROW_COL,
    cell_code,
    square_name,
)
from triverse.games.trident.messages import MESSAGES
from triverse.games.trident.tiles import SIZE, TRIO_SUM, Placement

TRIO_BONUS: Final = 15
TRITON_BONUS: Final = 50


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring part of a play: a line (``pair``, ``trio``), the opening ``tile``, or the
    ``triton`` bonus, with its points and an English explanation; ``code`` and ``params`` say
    the same as a message code (docs/messages.md)."""

    kind: str
    points: int
    label: str
    squares: tuple[int, ...] = ()
    multiplier: int = 1
    """The premium applied in this item (1: none)."""
    premium_square: int | None = None
    details: dict[str, Any] = field(default_factory=dict, hash=False)
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict, hash=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "points": self.points,
            "label": self.label,
            "squares": [list(divmod(s, SIZE)) for s in self.squares],
            "multiplier": self.multiplier,
            "premium_square": (None if self.premium_square is None
                               else list(divmod(self.premium_square, SIZE))),
            **self.details,
        }


@dataclass(slots=True)
class _Line:
    direction: int
    squares: tuple[int, ...]
    codes: list[int]
    assigned: dict[int, int]
    """New premium squares whose multiplier this line uses."""


def _run(board: Sequence[int], overlay: dict[int, int], square: int,
         direction: int) -> tuple[int, ...]:
    """The squares of the run through ``square`` once the ``overlay`` tiles are down."""
    r, c = ROW_COL[square]
    step, k = (1, c) if direction == ACROSS else (SIZE, r)
    start = square
    q = k
    while q > 0:
        x = start - step
        if board[x] < 0 and x not in overlay:
            break
        start = x
        q -= 1
    end = square
    q = k
    while q < SIZE - 1:
        x = end + step
        if board[x] < 0 and x not in overlay:
            break
        end = x
        q += 1
    return tuple(range(start, end + step, step))


def _line_points(line: _Line, assigned: dict[int, int], triolet: bool, triton_main: bool) -> int:
    codes = line.codes
    if len(codes) == 2:
        return sum(0 if c >= 16 else c * assigned.get(s, 1)
                   for s, c in zip(line.squares, codes, strict=True))
    if triolet or triton_main:
        mult = 1
        for m in assigned.values():
            mult *= m
        return (TRIO_SUM + TRIO_BONUS) * mult
    return sum((c & 15) * assigned.get(s, 1) for s, c in zip(line.squares, codes, strict=True)) \
        + TRIO_BONUS


def _term(code: int, mult: int) -> str:
    text = f"*{code & 15}" if code >= 16 else str(code)
    return f"{text}×{mult}" if mult > 1 else text


def _item(kind: str, points: int, code: str, params: dict[str, Any],
          squares: tuple[int, ...] = (), multiplier: int = 1, premium: int | None = None,
          details: dict[str, Any] | None = None) -> ScoreItem:
    """A score item whose English label is its message's template filled in."""
    return ScoreItem(kind, points, MESSAGES[code].format(**params), squares, multiplier,
                     premium, details or {}, code, params)


def _message(line: _Line, points: int, triolet: bool, triton_main: bool
             ) -> tuple[str, dict[str, Any]]:
    """The message code and parameters of a line's score: its tiles' values (a joker's, the
    number it stands for), the sum as written (``*`` a joker, ``×2`` a premium), the premium
    and the points."""
    mults = [line.assigned.get(s, 1) for s in line.squares]
    mult = 1
    for m in mults:
        mult *= m
    values = [c & 15 for c in line.codes]
    if len(line.squares) == 2:
        terms = [_term(c, m) for c, m in zip(line.codes, mults, strict=True)]
        code = "preview.pair_joker" if any(c >= 16 for c in line.codes) else "preview.pair"
        return code, {"values": values, "sum": "+".join(terms), "multiplier": mult,
                      "total": points}
    if triolet or triton_main:
        plain = "+".join(_term(c, 1) for c in line.codes)
        params = {"values": values, "sum": plain, "multiplier": mult, "subtotal": TRIO_SUM,
                  "bonus": TRIO_BONUS, "total": points}
        if mult == 1:
            return "preview.trio", params
        return "preview.trio_multiplied", {**params, "base": TRIO_SUM + TRIO_BONUS}
    terms = [_term(c, m) for c, m in zip(line.codes, mults, strict=True)]
    return "preview.trio", {"values": values, "sum": "+".join(terms), "multiplier": mult,
                            "subtotal": points - TRIO_BONUS, "bonus": TRIO_BONUS,
                            "total": points}


def play_lines(board: Sequence[int], tiles: Sequence[Placement]
               ) -> tuple[dict[int, int], list[tuple[int, tuple[int, ...], list[int]]]]:
    """The lines of two or more tiles that a play of ``tiles`` on ``board`` makes or extends:
    the new tiles' codes by square (the *overlay*), and each line as (direction, its squares,
    their codes), each line once."""
    overlay = {p.row * SIZE + p.col: cell_code(p.value, p.joker) for p in tiles}
    lines: list[tuple[int, tuple[int, ...], list[int]]] = []
    seen: set[tuple[int, int]] = set()
    for s in overlay:
        for d in (ACROSS, DOWN):
            squares = _run(board, overlay, s, d)
            if len(squares) < 2 or (d, squares[0]) in seen:
                continue
            seen.add((d, squares[0]))
            lines.append((d, squares, [overlay[q] if q in overlay else board[q]
                                       for q in squares]))
    return overlay, lines


def score_play(board: Sequence[int], tiles: Sequence[Placement], triolet: bool,
               names: tuple[str, str] = ("Triton", "Triolet")) -> list[ScoreItem]:
    """The scoring items of a legal play of ``tiles`` on ``board`` (before it is placed).

    ``triolet`` selects the ``triolet`` variant's multipliers; ``names`` are what the bonus for
    all three rack tiles is called in the seed's rules and in the variant.
    """
    overlay, found = play_lines(board, tiles)
    lines = [_Line(d, squares, codes, {}) for d, squares, codes in found]
    if not lines:
        return [_lone_tile(tiles)]
    if any(len(line.squares) > 3 for line in lines):
        raise ValueError("score_play is for legal plays: this one makes four in a line")
    triton = len(tiles) == 3
    main = next((i for i, line in enumerate(lines) if all(q in overlay for q in line.squares)),
                None) if triton else None
    _assign_multipliers(lines, tiles, triolet, main)
    items = [_line_item(line, triolet, i == main) for i, line in enumerate(lines)]
    if triton:
        name = names[1] if triolet else names[0]
        joker = any(p.joker for p in tiles)
        items.append(_item("triton", 0 if joker else TRITON_BONUS,
                           "preview.triton_joker" if joker else "preview.triton",
                           {"name": name, "bonus": TRITON_BONUS}))
    return items


def _lone_tile(tiles: Sequence[Placement]) -> ScoreItem:
    """The score of a play of one tile that touches no other (the opening on the star)."""
    (p,) = tiles
    s = p.row * SIZE + p.col
    m = MULTIPLIER[s]
    value = 0 if p.joker else p.value
    params = {"values": [p.value], "sum": _term(cell_code(p.value, p.joker), m),
              "multiplier": m, "total": value * m}
    return _item("tile", value * m, "preview.tile_joker" if p.joker else "preview.tile", params,
                 (s,), m, s if m > 1 else None)


def _assign_multipliers(lines: list[_Line], tiles: Sequence[Placement], triolet: bool,
                        main: int | None) -> None:
    """Each new tile on a double or triple square multiplies in one of its lines only: the one
    it adds the most to (``main``: the index of a Triton's own line)."""
    for p in tiles:
        s = p.row * SIZE + p.col
        m = MULTIPLIER[s]
        if m == 1:
            continue
        best_index: int | None = None
        best_gain = -1
        for i, line in enumerate(lines):
            if s not in line.squares:
                continue
            before = _line_points(line, line.assigned, triolet, i == main)
            after = _line_points(line, {**line.assigned, s: m}, triolet, i == main)
            if after - before > best_gain:
                best_gain, best_index = after - before, i
        if best_index is not None:
            lines[best_index].assigned[s] = m


def _line_item(line: _Line, triolet: bool, is_main: bool) -> ScoreItem:
    """The score item of one line of a play, its multipliers assigned."""
    points = _line_points(line, line.assigned, triolet, is_main)
    mult = 1
    premium = None
    for s, m in line.assigned.items():
        mult *= m
        premium = s
    kind = "pair" if len(line.squares) == 2 else "trio"
    code, params = _message(line, points, triolet, is_main)
    return _item(kind, points, code, params, tuple(line.squares), mult, premium,
                 {"direction": "across" if line.direction == ACROSS else "down",
                  "from": square_name(line.squares[0])})
