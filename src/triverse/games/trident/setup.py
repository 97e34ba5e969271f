"""Explicit Trident positions (*setups*): their declared shape, how one is loaded into a state
and written back, and :func:`complete_setup` for tests and rulebook positions.

``docs/rules/trident.md`` describes the keys. A setup's shape is checked by
:mod:`triverse.core.schema`, which names the path of a bad part; the checks that need the whole
position (every tile once, the board's lines) follow.

>>> from triverse.games.trident.engine import TridentGame
>>> game = TridentGame(2)
>>> game.new_initial_state(seed=1, setup={"racks": [[1], [2]], "bag": [], "turn": 5})
Traceback (most recent call last):
...
triverse.core.errors.RecordError: setup.turn: expected a whole number from 0 to 1, got 5
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from triverse.core.errors import NotationError, RecordError
from triverse.core.rng import derive
from triverse.core.schema import Fields, Integer, ListOf, Parsed, Schema, validate
from triverse.games.trident.board import (
    EMPTY,
    board_problem,
    cell_code,
    compute_anchors,
    compute_cross,
    new_board,
    square_name,
)
from triverse.games.trident.rules import RULES, plural
from triverse.games.trident.tiles import (
    FULL_COUNTS,
    JOKER,
    KINDS,
    RACK_SIZE,
    TILE_SET,
    Placement,
    parse_placement,
    parse_tile,
)

if TYPE_CHECKING:
    from triverse.games.trident.engine import TridentState

SETUP_KEYS = ("racks", "bag", "aside", "board", "order", "turn", "scores", "passes", "idle",
              "moves")


def json_tile(t: int) -> int | str:
    """A tile in JSON: its number, or ``"*"`` for a joker.

    >>> json_tile(7), json_tile(JOKER)
    (7, '*')
    """
    return "*" if t == JOKER else t


def _tile(value: object) -> int:
    try:
        return parse_tile(value)
    except NotationError:
        raise ValueError() from None  # the schema's "expected a tile" says it all


def _placement(text: str) -> Placement:
    try:
        return parse_placement(text)
    except NotationError as exc:
        detail = str(exc).removeprefix(f"{text!r}: ")
        # "... is not a tile placement like 7:8=5" adds nothing to the schema's "expected".
        raise ValueError("" if "is not a tile placement" in detail else detail) from None


def setup_schema(state: TridentState) -> Fields:
    """The shape of a setup for ``state``'s game (its player count and rules)."""
    n = state.game.num_players
    tile = Parsed(_tile, "a tile (0 to 15, or '*' for a joker)", kind=(int, str))
    aside = state.rules.aside
    keys: dict[str, Schema[Any]] = {
        "racks": ListOf(ListOf(tile, min_length=1, max_length=RACK_SIZE,
                               what=f"a rack of 1 to {RACK_SIZE} tiles"),
                        length=n, what=f"a list of {n} racks, one per seat"),
        "bag": ListOf(tile, what="a list of tiles, the first drawn first"),
        "aside": ListOf(tile, length=aside, what=f"a list of {aside} tiles (the "
                                                 f"{state.rules.name} rules set {aside} aside)"),
        "board": ListOf(Parsed(_placement, "a tile on a square like '7:7=5' or '7:8=*3'"),
                        what="a list of tiles on squares like '7:7=5' or '7:8=*3'"),
        "order": ListOf(Integer(minimum=0, maximum=n - 1, what=f"a seat 0 to {n - 1}"),
                        length=n, unique=True,
                        what=f"the seats 0 to {n - 1}, each once, in their order of play"),
        "turn": Integer(minimum=0, maximum=n - 1),
        "scores": ListOf(Integer(), length=n, what=f"a list of {n} whole numbers, one per seat"),
        "passes": Integer(minimum=0, maximum=n - 1),
        "idle": Integer(minimum=0, maximum=state.game.stall_limit - 1),
        "moves": Integer(minimum=0, maximum=1_000_000),
    }
    required = ("racks", "bag")
    return Fields({k: v for k, v in keys.items() if k in required},
                  {k: v for k, v in keys.items() if k not in required})


def _setup_board(placements: list[Placement]) -> tuple[list[int], list[int]]:
    """The board of a setup's tiles and its squares in order, checked: each square once, every
    line by the rules."""
    board = new_board()
    placed: list[int] = []
    for i, p in enumerate(placements):
        if board[p.square] != EMPTY:
            raise RecordError(f"setup.board[{i}]: square {square_name(p.square)} is named "
                              f"twice")
        board[p.square] = cell_code(p.value, p.joker)
        placed.append(p.square)
    problem = board_problem(board)
    if problem is not None:
        raise RecordError(f"setup.board: its lines break the rules: {problem}")
    return board, placed


def _check_counts(setup: Mapping[str, Any], board: list[int], placed: list[int]) -> None:
    """Every tile of the game is once in the racks, the bag, aside or on the board."""
    counts = Counter(setup["bag"]) + Counter(setup.get("aside", []))
    for rack in setup["racks"]:
        counts.update(rack)
    counts.update(JOKER if board[s] >= 16 else board[s] for s in placed)
    for kind in KINDS:
        if counts[kind] != FULL_COUNTS[kind]:
            have = counts[kind]
            name = (plural(have, "joker") if kind == JOKER
                    else f"{plural(have, 'tile')} of value {kind}")
            raise RecordError(f"the setup has {name} (racks, bag, aside and board together); "
                              f"Trident has {FULL_COUNTS[kind]}")


def load_setup(state: TridentState, raw: Mapping[str, Any]) -> None:
    """Set ``state`` to the position of the setup ``raw``; ``RecordError`` if it is not one."""
    n = state.game.num_players
    setup = validate(setup_schema(state), raw, "setup")
    if state.rules.aside and "aside" not in setup:
        raise RecordError(f"setup.aside: missing; the {state.rules.name} rules set "
                          f"{state.rules.aside} tiles aside")
    board, placed = _setup_board(setup.get("board", []))
    _check_counts(setup, board, placed)
    racks: list[list[int]] = setup["racks"]
    bag: list[int] = setup["bag"]
    aside: list[int] = setup.get("aside", [])
    state.turn = setup.get("turn", 0)
    state.passes = setup.get("passes", 0)
    state.idle = setup.get("idle", 0)
    state.moves_before = setup.get("moves", 0)
    state.racks = [sorted(r) for r in racks]
    state.bag = bag[::-1]
    state.aside = sorted(aside)
    state.board = board
    state.placed = placed
    state.cross = compute_cross(board)
    state.anchors = compute_anchors(board)
    state.order = tuple(setup.get("order", range(n)))
    state.scores = list(setup.get("scores", [0] * n))
    normal: dict[str, Any] = {
        "racks": [[json_tile(t) for t in rack] for rack in racks],
        "bag": [json_tile(t) for t in bag],
    }
    if aside:
        normal["aside"] = [json_tile(t) for t in aside]
    for key in ("board", "order", "turn", "scores", "passes", "idle", "moves"):
        if key in raw:
            value = raw[key]
            normal[key] = list(value) if isinstance(value, list) else value
    state._setup = normal


def seed_deal(seed: int, players: int) -> tuple[list[int], list[int]]:
    """The 83 tiles in the order ``derive(seed, "bag")`` shuffles them, and the order of play
    ``derive(seed, "order")`` draws: the first tiles are set aside (variant), the next go three
    to each seat in the order of play, the rest are drawn in that order.

    >>> tiles, order = seed_deal(1, 2)
    >>> len(tiles), sorted(tiles) == sorted(TILE_SET), sorted(order)
    (83, True, [0, 1])
    """
    tiles = list(TILE_SET)
    derive(seed, "bag").shuffle(tiles)
    order = list(range(players))
    derive(seed, "order").shuffle(order)
    return tiles, order


def deal_json(state: TridentState) -> dict[str, Any]:
    """The game's deal (:meth:`State.deal <triverse.core.game.State.deal>`): ``tiles``, every
    tile not on the board in the order it is used (the ``aside`` first ones set aside, then
    three to each seat in the ``order`` of play, then the bag in drawing order; an explicit
    setup's racks are listed as it gives them), ``order`` and ``aside``, a count. An exchange
    later reshuffles the bag with ``derive(seed, "exchange", move)``."""
    setup = state.setup()
    if setup is None:
        tiles, order = seed_deal(state.seed, state.game.num_players)
        aside = state.rules.aside
        return {"tiles": [json_tile(t) for t in tiles], "order": order, "aside": aside}
    order = list(setup.get("order", range(state.game.num_players)))
    given = list(setup.get("aside", []))
    for seat in order:
        given += setup["racks"][seat]
    return {"tiles": given + list(setup["bag"]), "order": order,
            "aside": len(setup.get("aside", []))}


def position_json(state: TridentState) -> dict[str, Any]:
    """``state``'s position as a setup (used for determinizations)."""
    out: dict[str, Any] = {
        "racks": [[json_tile(t) for t in rack] for rack in state.racks],
        "bag": [json_tile(t) for t in reversed(state.bag)],
        "board": [f"{square_name(s)}={'*' if state.board[s] >= 16 else ''}"
                  f"{state.board[s] & 15}" for s in state.placed],
        "order": list(state.order),
        "turn": state.turn,
        "scores": list(state.scores),
        "passes": state.passes,
        "idle": state.idle,
        "moves": state.moves_before,
    }
    if state.rules.aside:
        out["aside"] = [json_tile(t) for t in state.aside]
    return out


def complete_setup(partial: Mapping[str, Any], variant: str = "seed") -> dict[str, Any]:
    """A setup with the tiles it does not name put in the bag, in tile order (drawn in that
    order, after any ``bag`` given), and for the ``triolet`` variant the first three of them
    set aside when ``aside`` is not given.

    Handy for tests and rulebook positions: name the racks (and the board).

    >>> setup = complete_setup({"racks": [[15, "*"], [14]], "board": ["7:7=5"]})
    >>> len(setup["bag"]), setup["bag"][:4], setup["bag"][-1]
    (79, [0, 0, 0, 0], '*')
    """
    named: Counter[int] = Counter()
    for rack in partial.get("racks", []):
        named.update(parse_tile(t) for t in rack)
    named.update(parse_tile(t) for t in partial.get("bag", []))
    named.update(parse_tile(t) for t in partial.get("aside", []))
    for text in partial.get("board", []):
        named[parse_placement(text).kind] += 1
    rest: list[int] = []
    for kind in KINDS:
        rest.extend([kind] * max(0, FULL_COUNTS[kind] - named[kind]))
    out = dict(partial)
    aside = RULES[variant].aside
    if aside and "aside" not in partial:
        out["aside"] = [json_tile(t) for t in rest[:aside]]
        rest = rest[aside:]
    out["bag"] = list(partial.get("bag", [])) + [json_tile(t) for t in rest]
    return out
