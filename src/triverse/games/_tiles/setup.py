"""Explicit positions (*setups*) of the tile games: their declared shape, and how one is loaded
into a state.

A setup names every tile's place: each seat's hand, the pool in drawing order and this round's
board; optionally the scores, the round, and (with a board) whose turn it is. Each game's rules
document describes it, and adds its own keys (:meth:`TileState._setup_fields`). The shape is
checked by :mod:`triverse.core.schema`, which names the path of a bad part; the checks that need
the whole position (every tile once, the board's corners) follow.

>>> from triverse.games import load_game
>>> game = load_game("triominoes")
>>> game.new_initial_state(seed=1, setup={"hands": [["1-2-3"], [7]], "pool": []})
Traceback (most recent call last):
...
triverse.core.errors.RecordError: setup.hands[1][0]: expected a tile like '1-3-5', got 7
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from triverse.core.errors import RecordError
from triverse.core.schema import Fields, Integer, ListOf, Parsed, Schema, validate
from triverse.games._tiles.tiles import Place, Tile, TileSet
from triverse.games._tiles.trigrid import ORIGIN, Board

if TYPE_CHECKING:
    from triverse.games._tiles.engine import TileState


def scores_schema(n: int) -> ListOf[int]:
    """The shape of a list of scores, one for each of ``n`` seats."""
    return ListOf(Integer(), length=n, what=f"a list of {n} whole numbers, one per seat")


def setup_schema(state: TileState) -> Fields:
    """The shape of a setup for ``state``'s game: its keys, the tiles and placements parsed."""
    game = state.game
    tileset = game.tileset
    n = game.num_players

    def placement(text: str) -> Place:
        action = tileset.parse_action(text)
        if not isinstance(action, Place):
            raise ValueError(f"{action} is an action, but not a placement")
        return action

    tile = Parsed(tileset.tile, "a tile like '1-3-5'")
    required: dict[str, Schema[Any]] = {
        "hands": ListOf(ListOf(tile, what="a hand (a list of tiles)"), length=n,
                        what=f"a list of {n} hands, one per seat"),
        "pool": ListOf(tile, what="a list of tiles, in drawing order"),
    }
    optional: dict[str, Schema[Any]] = {
        "board": ListOf(Parsed(placement, "a placement like '5-5-5@0,0/0'"),
                        what="a list of placements like '5-5-5@0,0/0'"),
        "scores": scores_schema(n),
        "current": Integer(minimum=0, maximum=n - 1),
        "round": Integer(minimum=1, maximum=game.last_round),
        "draws": Integer(minimum=0, maximum=game.max_draws or len(tileset)),
        "passes": Integer(minimum=0, maximum=n - 1),
    }
    return Fields(required, optional | state._setup_fields())


def _check_tiles(setup: Mapping[str, Any], tileset: TileSet) -> None:
    """The hands, the pool and the board hold every tile once."""
    where: dict[Tile, str] = {}
    named = [(t, f"hands[{i}][{j}]") for i, hand in enumerate(setup["hands"])
             for j, t in enumerate(hand)]
    named += [(t, f"pool[{j}]") for j, t in enumerate(setup["pool"])]
    named += [(p.tile, f"board[{j}]") for j, p in enumerate(setup.get("board", []))]
    for t, place in named:
        if t in where:
            raise RecordError(f"tile {t} is in the setup twice: setup.{where[t]} and "
                              f"setup.{place}")
        where[t] = place
    missing = [t for t in tileset.tiles if t not in where]
    if missing:
        names = ", ".join(str(t) for t in missing[:8])
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        raise RecordError(f"the setup lacks {len(missing)} of the {len(tileset)} tiles "
                          f"({names}{more}): each must be once in the hands, the pool or the "
                          f"board")


def _board(placed: Sequence[Place]) -> Board:
    """The board of a setup's placements, checked one by one."""
    board = Board()
    for j, action in enumerate(placed):
        if j == 0 and action.cell != ORIGIN:
            raise RecordError(f"setup.board[0] {action}: a round's first tile is at 0,0")
        problem = board.misfit(action.cell, action.values)
        if problem is not None:
            raise RecordError(f"setup.board[{j}] {action}: {problem}")
        board.place(action.cell, action.values)
    return board


def load_setup(state: TileState, raw: Mapping[str, Any]) -> None:
    """Set ``state`` to the position of the setup ``raw``; ``RecordError`` if it is not one."""
    setup = validate(setup_schema(state), raw, "setup")
    _check_tiles(setup, state.game.tileset)
    hands: list[list[Tile]] = setup["hands"]
    placed: list[Place] = setup.get("board", [])
    state.board = _board(placed)
    state.placed = placed
    state.round = setup.get("round", 1)
    state.scores = list(setup.get("scores", [0] * state.game.num_players))
    state.hands = [dict.fromkeys(h) for h in hands]
    state.pool = tuple(setup["pool"])
    state.pool_pos = 0
    normal: dict[str, Any] = {
        "hands": [[str(t) for t in h] for h in hands],
        "pool": [str(t) for t in state.pool],
    }
    state._read_setup(setup, normal)
    if placed:
        _turn(state, setup)
        state.opening = ()
        normal.update(board=[str(p) for p in placed], current=state.current,
                      draws=state.draws, passes=state.passes)
    else:
        for key in ("current", "draws", "passes"):
            if key in setup:
                raise RecordError(f"setup.{key}: needs a 'board': with no tile down the rules "
                                  f"decide who opens")
        state._open_round()
    normal.update({key: setup[key] for key in ("scores", "round") if key in setup})
    state._setup = normal


def _turn(state: TileState, setup: Mapping[str, Any]) -> None:
    """Whose turn it is in a setup with tiles down, with the draws and passes so far."""
    seats = state.seats_in_round()
    for i in seats:
        if not state.hands[i]:
            raise RecordError(f"setup.hands[{i}] is empty: that seat has gone out, which ends "
                              f"the round")
    state.current = setup.get("current", seats[0])
    if state.current not in seats:
        raise RecordError(f"setup.current: seat {state.current} is not in this round")
    state.draws = setup.get("draws", 0)
    state.passes = setup.get("passes", 0)
    if state.passes >= len(seats):
        raise RecordError(f"setup.passes: expected a whole number from 0 to {len(seats) - 1} "
                          f"(the seats in this round less one), got {state.passes}")
