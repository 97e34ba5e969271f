"""Why an action is illegal: the checks of a play and of an exchange, each refusal in words.

Every check returns ``None`` when the action passes it, or the reason it does not, in the order
the rules document lists them (``docs/rules/trident.md``): the first problem found is the one
reported.

>>> from triverse.games.trident.board import new_board
>>> from triverse.games.trident.tiles import parse_action
>>> play_problem(new_board(), [], [2, 6, 9], parse_action("7:7=9,7:8=6"))
>>> play_problem(new_board(), [], [2, 6, 9], parse_action("7:7=9,7:8=5"))
'you do not have a 5 on your rack (2 6 9)'
>>> play_problem(new_board(), [], [2, 6, 9], parse_action("7:8=9,7:9=6"))
'the first play covers the centre star (7:7)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from triverse.core.messages import Reason, message_of
from triverse.games.trident.board import (
    CENTRE,
    EMPTY,
    NEIGHBOURS,
    cell_code,
    opening_square_problem,
    run_problem,
    run_squares,
    square_name,
)
from triverse.games.trident.rules import Rules
from triverse.games.trident.tiles import (
    JOKER,
    RACK_SIZE,
    SIZE,
    Exchange,
    Placement,
    Play,
    tile_text,
)


def rack_problem(rack: Sequence[int], kinds: Sequence[int]) -> str | None:
    """Whether ``rack`` holds the tiles ``kinds`` (a joker counted as one)."""
    have = Counter(rack)
    for kind, need in sorted(Counter(kinds).items()):
        if need > have[kind]:
            shown = " ".join(tile_text(t) for t in rack)
            what = "a joker" if kind == JOKER else f"a {kind}"
            if have[kind]:
                what = f"{need} {'jokers' if kind == JOKER else f'{kind}s'}"
            return Reason(f"you do not have {what} on your rack ({shown})",
                          "refused.not_on_rack", tile=tile_text(kind), count=need,
                          rack=[tile_text(t) for t in rack])
    return None


def play_problem(board: Sequence[int], placed: Sequence[int], rack: Sequence[int],
                 play: Play) -> str | None:
    """Why ``play`` from ``rack`` is illegal on ``board`` (``placed``: its occupied squares in
    the order their tiles went down), or ``None``."""
    tiles = play.tiles
    problem = _tiles_problem(tiles)
    if problem is not None:
        return problem
    squares = [p.row * SIZE + p.col for p in tiles]
    return (_occupied_problem(board, tiles, squares)
            or rack_problem(rack, play.kinds)
            or ("never two jokers in one turn" if sum(p.joker for p in tiles) > 1 else None)
            or _line_problem(board, tiles, squares)
            or _contact_problem(board, placed, squares)
            or _runs_problem(board, tiles, squares)
            or (opening_square_problem(placed, squares) if len(placed) < 9 else None))


def _tiles_problem(tiles: tuple[Placement, ...]) -> str | None:
    """The play's tiles themselves: one to three placements on the board, values 0 to 15, each
    square once."""
    if not isinstance(tiles, tuple) or not 1 <= len(tiles) <= RACK_SIZE:
        return Reason(f"a play places 1, 2 or 3 tiles, not {len(tiles)}", "refused.tile_count",
                      count=len(tiles))
    for p in tiles:
        if not isinstance(p, Placement):
            return Reason(f"not a tile placement: {p!r}", "refused.not_a_placement")
        if not (0 <= p.row < SIZE and 0 <= p.col < SIZE):
            return Reason(f"square {p.row}:{p.col} is off the board (rows and columns 0 to 14)",
                          "refused.off_board", square=f"{p.row}:{p.col}")
        if not 0 <= p.value <= 15:
            return Reason(f"a tile's value is 0 to 15, not {p.value}", "refused.bad_value",
                          value=p.value)
    if len({(p.row, p.col) for p in tiles}) != len(tiles):
        return Reason("a square is named twice", "refused.square_twice")
    return None


def _occupied_problem(board: Sequence[int], tiles: Sequence[Placement],
                      squares: Sequence[int]) -> str | None:
    for p, s in zip(tiles, squares, strict=True):
        if board[s] != EMPTY:
            held = board[s]
            shown = f"a joker as {held & 15}" if held >= 16 else f"a {held}"
            return Reason(f"square {p.row}:{p.col} already holds {shown}", "refused.occupied",
                          square=f"{p.row}:{p.col}", value=held & 15, joker=held >= 16)
    return None


def _line_problem(board: Sequence[int], tiles: Sequence[Placement],
                  squares: Sequence[int]) -> str | None:
    """The tiles of a play are in one row or one column, with no empty square between them."""
    rows = {p.row for p in tiles}
    cols = {p.col for p in tiles}
    if len(rows) > 1 and len(cols) > 1:
        return Reason("the tiles of a play go in one row or one column (nothing diagonal)",
                      "refused.not_in_line")
    if len(tiles) > 1:
        step = 1 if len(rows) == 1 else SIZE
        for s in range(min(squares), max(squares) + 1, step):
            if s not in squares and board[s] == EMPTY:
                return Reason(f"the tiles must touch, or be joined by tiles already down: "
                              f"{square_name(s)} between them is empty", "refused.gap",
                              square=square_name(s))
    return None


def _contact_problem(board: Sequence[int], placed: Sequence[int],
                     squares: Sequence[int]) -> str | None:
    """The first play covers the centre star; every later one touches a tile already down."""
    if not placed:
        return None if CENTRE in squares else Reason(
            "the first play covers the centre star (7:7)", "refused.centre")
    if not any(board[n] != EMPTY for s in squares for n in NEIGHBOURS[s]):
        return Reason("a play must touch a tile already on the board", "refused.no_contact")
    return None


def _runs_problem(board: Sequence[int], tiles: Sequence[Placement],
                  squares: Sequence[int]) -> str | None:
    """Every line of touching tiles the play makes: two total 15 or less, three exactly 15,
    never four."""
    overlay = list(board)
    for p, s in zip(tiles, squares, strict=True):
        overlay[s] = cell_code(p.value, p.joker)
    checked: set[tuple[int, int]] = set()
    for s in squares:
        for d in (0, 1):
            run = run_squares(overlay, s, d)
            if len(run) < 2 or (d, run[0]) in checked:
                continue
            checked.add((d, run[0]))
            problem = run_problem([overlay[x] & 15 for x in run])
            if problem is not None:
                where = "across" if d == 0 else "down"
                code, params = message_of(problem)
                return Reason(f"{problem} ({where} from {square_name(run[0])})", code,
                              direction=where, start=square_name(run[0]), **params)
    return None


def exchange_problem(rules: Rules, bag_count: int, rack: Sequence[int],
                     action: Exchange) -> str | None:
    """Why ``action`` is illegal from ``rack`` with ``bag_count`` tiles in the bag, or ``None``.

    >>> from triverse.games.trident.rules import SEED_RULES
    >>> exchange_problem(SEED_RULES, 6, [1, 2, 3], Exchange.of([1]))
    >>> exchange_problem(SEED_RULES, 5, [1, 2, 3], Exchange.of([1]))
    'exchanges are allowed only while more than five tiles are in the bag; it holds 5'
    """
    tiles = action.tiles
    if not isinstance(tiles, tuple) or not 1 <= len(tiles) <= RACK_SIZE:
        return Reason(f"an exchange returns 1, 2 or 3 tiles, not {len(tiles)}",
                      "refused.exchange_count", count=len(tiles))
    if any(not isinstance(t, int) or not 0 <= t <= JOKER for t in tiles):
        return Reason(f"not tiles: {tiles!r}", "refused.not_tiles")
    problem = rack_problem(rack, tiles)
    if problem is not None:
        return problem
    if bag_count < rules.exchange_min:
        rule = ("more than five" if rules.name == "seed" else "at least five")
        return Reason(f"exchanges are allowed only while {rule} tiles are in the bag; it "
                      f"holds {bag_count}", "refused.exchange_bag", minimum=rules.exchange_min,
                      bag=bag_count)
    return None
