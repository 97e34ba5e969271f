"""The tile games in the terminal: the board, the scores and the viewer's hand as plain text.

The board shows each corner number where the corners meet, the triangles' edges, ``*`` inside
the tile placed last and ``.`` in each empty cell next to the tiles (where a tile may go). The
column numbers ``x`` sit above the cells' centres and the row numbers ``y`` on the left, so a
cell is read as ``x,y``, the way placements are written (``1-3-5@1,0/2``).

>>> from triverse.games._tiles.tiles import TileSet
>>> tiles = TileSet("Example", [(1, 3, 5), (1, 5, 3)], "example")
>>> describe(Place(tiles.tile("1-3-5"), (1, 0), 1))
'play 1-3-5 at 1,0, corners clockwise from top left: 3 5 1'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from triverse.games._tiles.observation import TileObservation
from triverse.games._tiles.tiles import Action, Draw, Place
from triverse.games._tiles.trigrid import Board, draw, format_cell, is_up


def render(obs: TileObservation, heading: str, status: str | None = None,
           seat_note: Callable[[int], str] | None = None,
           footer: Sequence[str] = ()) -> str:
    """The whole table as ``obs.player`` sees it: ``heading``, the board, a line a seat (with
    ``seat_note(seat)`` after it), the pool, ``status`` (or who has drawn this turn) and the
    viewer's hand, then ``footer``."""
    lines = [heading]
    board = Board()
    for p in obs.board:
        board.place(p.cell, p.values)
    if obs.board:
        marks = {obs.board[-1].cell: "*"}
        lines.extend(draw(board, marks, frontier_mark="."))
    else:
        lines.append("(no tile down yet)")
    lines.append("")
    for seat in range(obs.num_players):
        you = " (you)" if seat == obs.player else ""
        turn = "  <- to move" if seat == obs.current_player else ""
        note = seat_note(seat) if seat_note is not None else ""
        lines.append(f"  seat {seat}{you}: {obs.scores[seat]:>5} points, "
                     f"{obs.hand_counts[seat]} tiles{note}{turn}")
    lines.append(f"  pool: {obs.pool_count} tiles")
    if obs.current_player is None:
        lines.append("The game is over.")
    elif status:
        lines.append(status)
    elif obs.draws_this_turn:
        lines.append(f"Seat {obs.current_player} has drawn {obs.draws_this_turn} "
                     f"tile{'s' if obs.draws_this_turn > 1 else ''} this turn.")
    if obs.hand is not None:
        shown = "  ".join(str(t) for t in obs.hand) or "(empty)"
        lines.append(f"Your hand: {shown}")
    lines.extend(footer)
    return "\n".join(lines)


def describe(action: Action) -> str:
    """A short English description of an action."""
    if isinstance(action, Place):
        start = "the apex" if is_up(action.cell) else "top left"
        corners = " ".join(str(v) for v in action.values)
        return (f"play {action.tile} at {format_cell(action.cell)}, corners clockwise from "
                f"{start}: {corners}")
    if isinstance(action, Draw):
        return "draw a tile from the pool"
    return "pass"
