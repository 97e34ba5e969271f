"""Trident's integer action ids (OpenSpiel): every action of a turn as one number.

A play: its first square (in square order) x its shape (the offsets of its tiles from the first,
their direction and the rack slot each comes from) x the value of its joker (0 without one).
Then the exchanges (a non-empty set of rack slots), pass, and timeout. Equal tiles come from the
lowest slots, so an action has one id.

>>> from triverse.games.trident.tiles import parse_action
>>> rack = [3, 11, 16]
>>> play_or_exchange_id(rack, parse_action("7:7=11,7:8=3"))
69968
>>> str(decode(rack, 69968))
'7:7=11,7:8=3'
>>> str(decode(rack, play_or_exchange_id(rack, parse_action("exchange 3,*"))))
'exchange 3,*'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Final

from triverse.core.errors import IllegalActionError
from triverse.games.trident.board import CELLS
from triverse.games.trident.tiles import (
    JOKER,
    RACK_SIZE,
    SIZE,
    Action,
    Exchange,
    Placement,
    Play,
    tile_text,
)

SHAPES: Final[tuple[tuple[tuple[int, ...], int, tuple[int, ...]], ...]] = (
    *(((0,), 0, (slot,)) for slot in range(RACK_SIZE)),
    *((offsets, d, slots)
      for d in (0, 1)
      for offsets in ((0, 1), (0, 2), (0, 1, 2))
      for slots in permutations(range(RACK_SIZE), len(offsets))),
)
"""The shapes of a play: the offsets of its tiles from the first, its direction (0 across, 1
down) and the rack slot of each tile."""
_SHAPE_INDEX: Final = {shape: i for i, shape in enumerate(SHAPES)}
PLAY_IDS: Final = CELLS * len(SHAPES) * 16
EXCHANGE_BASE: Final = PLAY_IDS
PASS_ID: Final = EXCHANGE_BASE + (1 << RACK_SIZE) - 1
TIMEOUT_ID: Final = PASS_ID + 1
NUM_ACTION_IDS: Final = TIMEOUT_ID + 1


def play_or_exchange_id(rack: Sequence[int], action: Action) -> int:
    """The id of a play or an exchange from ``rack`` (``IllegalActionError`` if it has none)."""
    if isinstance(action, Exchange):
        slots = _slots(rack, action.tiles, action)
        return EXCHANGE_BASE + sum(1 << i for i in slots) - 1
    if not isinstance(action, Play) or not 1 <= len(action.tiles) <= RACK_SIZE:
        raise IllegalActionError(f"no action id for {action!r}")
    tiles = sorted(action.tiles)
    first = tiles[0]
    offsets: tuple[int, ...]
    if len(tiles) == 1:
        direction, offsets = 0, (0,)
    elif all(p.row == first.row for p in tiles):
        direction, offsets = 0, tuple(p.col - first.col for p in tiles)
    elif all(p.col == first.col for p in tiles):
        direction, offsets = 1, tuple(p.row - first.row for p in tiles)
    else:
        raise IllegalActionError(f"{action}: no action id for tiles off one line")
    slots = _slots(rack, [p.kind for p in tiles], action)
    shape = _SHAPE_INDEX.get((offsets, direction, slots))
    if shape is None or not (0 <= first.row < SIZE and 0 <= first.col < SIZE):
        raise IllegalActionError(f"{action}: no action id for tiles spread like that")
    joker = next((p.value for p in tiles if p.joker), 0)
    return ((first.row * SIZE + first.col) * len(SHAPES) + shape) * 16 + joker


def _slots(rack: Sequence[int], kinds: Sequence[int], action: Action) -> tuple[int, ...]:
    used: list[int] = []
    for kind in kinds:
        slot = next((i for i, t in enumerate(rack) if t == kind and i not in used), None)
        if slot is None:
            raise IllegalActionError(f"{action}: no {tile_text(kind)} on the rack for an "
                                     f"action id")
        used.append(slot)
    return tuple(used)


def decode(rack: Sequence[int], action_id: int) -> Exchange | Play:
    """The play or exchange from ``rack`` with id ``action_id`` (below :data:`PASS_ID`)."""
    if action_id >= EXCHANGE_BASE:
        mask = action_id - EXCHANGE_BASE + 1
        chosen = [i for i in range(RACK_SIZE) if mask >> i & 1]
        if max(chosen) >= len(rack):
            raise IllegalActionError(f"action id {action_id} exchanges rack slot "
                                     f"{max(chosen)}; the rack holds {len(rack)} tiles")
        return Exchange.of(rack[i] for i in chosen)
    rest, joker_value = divmod(action_id, 16)
    first, shape = divmod(rest, len(SHAPES))
    offsets, direction, slots = SHAPES[shape]
    row0, col0 = divmod(first, SIZE)
    if max(slots) >= len(rack):
        raise IllegalActionError(f"action id {action_id} uses rack slot {max(slots)}; the "
                                 f"rack holds {len(rack)} tiles")
    kinds = [rack[i] for i in slots]
    jokers = kinds.count(JOKER)
    if jokers > 1 or (jokers == 0 and joker_value):
        raise IllegalActionError(f"action id {action_id} is not the id of any action here")
    tiles = []
    for offset, kind in zip(offsets, kinds, strict=True):
        row = row0 + offset * direction
        col = col0 + offset * (1 - direction)
        if row >= SIZE or col >= SIZE:
            raise IllegalActionError(f"action id {action_id} places a tile off the board")
        if kind == JOKER:
            tiles.append(Placement(row, col, joker_value, True))
        else:
            tiles.append(Placement(row, col, kind, False))
    return Play(tuple(sorted(tiles)))
