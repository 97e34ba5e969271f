"""A plain-text picture of a Triangles position, for ``triverse play triangles``.

The stars are plotted by number on a character grid (lines as dots for Player 1 and pluses for
Player 2), followed by the lines, the closed triangles, the scores and whose turn it is. The
plot is approximate; the lists below it are exact.

>>> from triverse.games.triangles.engine import TrianglesGame
>>> state = TrianglesGame().new_initial_state(
...     setup={"stars": [[0, 0], [4000, 0], [2000, 3000]]})
>>> _ = state.apply_notation("0-1")
>>> print(render(state.observation(1)))
0..........................1
<BLANKLINE>
<BLANKLINE>
<BLANKLINE>
<BLANKLINE>
<BLANKLINE>
<BLANKLINE>
<BLANKLINE>
<BLANKLINE>
              2
Triangles on a phone-24 board: 3 stars (explicit setup), tolerance 100.
Player 1 (.): 0 triangles   Player 2 (+): 0 triangles
Lines (1): 0-1 P1
Player 2 to move: enter a line as a-b (two star numbers).
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from triverse.games.triangles.observation import TrianglesObservation

LINE_MARKS = (".", "+")
"""The character of each player's lines in the plot."""


def _grid_size(n: int, width: int, height: int) -> tuple[int, int]:
    cols = 28 if n <= 12 else 48 if n <= 30 else 64 if n <= 80 else 80
    rows = round(cols * height / width / 2) if width else 12
    return cols, max(3, min(rows, 60))


def render(obs: TrianglesObservation) -> str:
    """The picture of ``obs`` (see the module docstring)."""
    return "\n".join(_plot(obs) + _lists(obs) + [_status(obs)])


def _plot(obs: TrianglesObservation) -> list[str]:
    """The stars by number on a character grid, and the lines between them."""
    stars = obs.stars
    xs = [x for x, _ in stars]
    ys = [y for _, y in stars]
    x0, y0 = min(xs), min(ys)
    w, h = max(xs) - x0, max(ys) - y0
    cols, rows = _grid_size(len(stars), max(w, 1), max(h, 1))
    grid = [[" "] * cols for _ in range(rows)]

    def cell(x: int, y: int) -> tuple[int, int]:
        return (round((x - x0) * (cols - 1) / w) if w else 0,
                round((y - y0) * (rows - 1) / h) if h else 0)

    for a, b, player in obs.lines:
        (c1, r1), (c2, r2) = cell(*stars[a]), cell(*stars[b])
        steps = max(abs(c2 - c1), abs(r2 - r1), 1)
        for k in range(steps + 1):
            grid[round(r1 + (r2 - r1) * k / steps)][round(c1 + (c2 - c1) * k / steps)] = (
                LINE_MARKS[player])
    taken = [[False] * cols for _ in range(rows)]
    for i, (x, y) in enumerate(stars):
        label = str(i)
        col, row = cell(x, y)
        start = min(col, cols - len(label))
        if any(taken[row][start:start + len(label)]):  # crowded: try the left, then give up
            start = max(0, start - len(label))
        for k, ch in enumerate(label):
            grid[row][start + k] = ch
            taken[row][start + k] = True
    return ["".join(r).rstrip() for r in grid]


def _lists(obs: TrianglesObservation) -> list[str]:
    """The board, the scores, the lines and the closed triangles, in words."""
    origin = "explicit setup" if obs.custom else "random cloud"
    out = [f"Triangles on a {obs.board} board: {len(obs.stars)} stars ({origin}), "
           f"tolerance {obs.tolerance}."]
    out.append("   ".join(
        f"Player {p + 1} ({LINE_MARKS[p]}): {obs.scores[p]} triangle"
        f"{'' if obs.scores[p] == 1 else 's'}" for p in (0, 1)))
    if obs.lines:
        out.extend(textwrap.wrap(
            f"Lines ({len(obs.lines)}): " + ", ".join(f"{a}-{b} P{p + 1}"
                                                      for a, b, p in obs.lines),
            100, subsequent_indent="  "))
    if obs.triangles:
        out.extend(textwrap.wrap(
            f"Triangles ({len(obs.triangles)}): " + ", ".join(
                f"{a}-{b}-{c} P{p + 1}" for a, b, c, p in obs.triangles),
            100, subsequent_indent="  "))
    return out


def _status(obs: TrianglesObservation) -> str:
    """Whose turn it is, or how the game ended."""
    if obs.to_move is None:
        s0, s1 = obs.scores[0], obs.scores[1]
        if s0 == s1:
            return f"Game over: no triangle can be closed any more. Draw, {s0}-{s1}."
        w_ = 0 if s0 > s1 else 1
        return (f"Game over: no triangle can be closed any more. Player {w_ + 1} wins "
                f"{max(s0, s1)}-{min(s0, s1)}.")
    again = " Play again after a triangle is on." if obs.again else ""
    return (f"Player {obs.to_move + 1} to move: enter a line as a-b (two star numbers)."
            f"{again}")
