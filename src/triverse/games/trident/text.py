"""Trident in plain text: the board with its premium squares marked, and actions in English.

>>> from triverse.games.trident.tiles import parse_action
>>> describe(parse_action("7:7=5,7:8=*10"))
'play 5 at 7:7 and a joker as 10 at 7:8'
>>> describe(parse_action("exchange 3,*"))
'exchange a 3 and a joker'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triverse.games.trident.board import CELLS, CENTRE, IS_BIS, MULTIPLIER
from triverse.games.trident.tiles import (
    JOKER,
    SIZE,
    Action,
    Exchange,
    Pass,
    Play,
    TimeOut,
    tile_text,
)

if TYPE_CHECKING:
    from triverse.games.trident.observation import TridentObservation

LEGEND = ("x2 double, x3 triple (the tile on it, or a Trio), B BIS (play again), "
          "++ the centre star (a double); *7 is a joker standing for 7")


def _marker(square: int) -> str:
    if square == CENTRE:
        return "++"
    if IS_BIS[square]:
        return "B"
    m = MULTIPLIER[square]
    return f"x{m}" if m > 1 else "."


def render_board(board: tuple[int, ...] | list[int]) -> str:
    """The 15 x 15 board: numbers for tiles, markers for the free premium squares.

    >>> from triverse.games.trident.board import new_board
    >>> board = new_board(); board[112] = 11; board[113] = 16 + 3
    >>> print(render_board(board).splitlines()[8])
     7    B  .  . x2  .  .  . 11 *3  .  . x2  .  .  B
    """
    header = "    " + "".join(f"{c:>3}" for c in range(SIZE))
    lines = [header]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            s = r * SIZE + c
            code = board[s]
            if code < 0:
                cells.append(f"{_marker(s):>3}")
            elif code >= 16:
                cells.append(f"{'*' + str(code & 15):>3}")
            else:
                cells.append(f"{code:>3}")
        lines.append(f"{r:>2}  " + "".join(cells))
    return "\n".join(lines)


def render(obs: TridentObservation) -> str:
    """The board and what the viewer may see: own rack, rack sizes, bag, scores, turn."""
    assert len(obs.board) == CELLS
    lines = [render_board(obs.board), "", LEGEND, ""]
    for seat in obs.order:
        you = " (you)" if seat == obs.player else ""
        turn = "  <- to play" if seat == obs.current_player else ""
        lines.append(f"Seat {seat}{you}: {obs.scores[seat]} points, "
                     f"{obs.rack_counts[seat]} tiles on the rack{turn}")
    if obs.rack is not None:
        lines.append("Your rack: " + " ".join(tile_text(t) for t in obs.rack))
    bag = f"Bag: {obs.bag_count} tiles"
    if obs.aside_count:
        bag += f" ({obs.aside_count} more set aside, unseen)"
    lines.append(bag)
    if obs.current_player is None:
        lines.append(f"The game is over ({obs.end_reason}).")
    elif obs.consecutive_passes:
        lines.append(f"Passes in a row: {obs.consecutive_passes}")
    return "\n".join(lines)


def _tile_phrase(t: int) -> str:
    return "a joker" if t == JOKER else f"a {t}"


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def describe(action: Action) -> str:
    """A short English description of an action."""
    if isinstance(action, Play):
        parts = [(f"a joker as {p.value}" if p.joker else str(p.value)) + f" at {p.row}:{p.col}"
                 for p in action.tiles]
        return "play " + _join(parts)
    if isinstance(action, Exchange):
        return "exchange " + _join([_tile_phrase(t) for t in action.tiles])
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, TimeOut):
        return "time out (the turn is missed)"
    return str(action)
