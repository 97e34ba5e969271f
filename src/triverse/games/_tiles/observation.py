"""What one seat sees of a tile game: the observation every tile game shares, its JSON, and its
tensor with a window of the board around the origin.

A game subclasses :class:`TileObservation`, adds its own fields after these, and says what its
rules add to the JSON and the tensor (:meth:`TileObservation._rules_json`,
:meth:`TileObservation._extra_json`, :meth:`TileObservation._tensor_extras`).

>>> from triverse.games import load_game
>>> obs = load_game("triominoes").new_initial_state(seed=1).observation(0)
>>> len(obs.to_tensor()) == obs.tensor_length(), WINDOW_SIZE
(True, 1100)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from triverse.core.game import Observation
from triverse.games._tiles.tiles import Place, Tile, TileSet
from triverse.games._tiles.trigrid import (
    RING_CORNERS,
    Cell,
    Vertex,
    cell_vertices,
    edge_neighbours,
    is_up,
    vertex_cells,
)

WINDOW_X = range(-9, 11)
"""The board window of the tensor: cells ``(x, y)`` with ``x`` in [-9, 10] ..."""
WINDOW_Y = range(-5, 6)
"""... and ``y`` in [-5, 5]."""
CELL_FEATURES = 5
WINDOW_SIZE = len(WINDOW_X) * len(WINDOW_Y) * CELL_FEATURES



# --- the observation -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TileObservation(Observation):
    """What one seat (or a spectator, ``player=None``) sees: enough to continue the game.

    ``board`` lists this round's placements in order; ``hand`` is the seat's own hand (``None``
    for a spectator). Each game adds its own fields after these.
    """

    player: int | None
    num_players: int
    round: int
    current_player: int | None
    board: tuple[Place, ...]
    hand: tuple[Tile, ...] | None
    hand_counts: tuple[int, ...]
    pool_count: int
    scores: tuple[int, ...]
    draws_this_turn: int
    passes_in_row: int

    game_name: ClassVar[str]
    tileset: ClassVar[TileSet]
    max_seats: ClassVar[int]
    """Seats the tensor has room for (the game's most players)."""
    num_extras: ClassVar[int]
    """How many numbers :meth:`_tensor_extras` gives."""

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    @classmethod
    def tensor_head(cls) -> int:
        """Where the board window starts in the tensor."""
        return 2 * len(cls.tileset) + 4 * cls.max_seats + 3 + cls.num_extras

    @classmethod
    def tensor_length(cls) -> int:
        return cls.tensor_head() + WINDOW_SIZE

    def _rules_json(self) -> dict[str, Any]:
        """The game's rules and options, in JSON types (after ``num_players``)."""
        return {}

    def _extra_json(self) -> dict[str, Any]:
        """The game's own fields, in JSON types (at the end)."""
        return {}

    def _tensor_extras(self) -> list[float]:
        """The game's own numbers for the tensor (``num_extras`` of them)."""
        return []

    def _score_scale(self) -> float:
        """What scores are divided by in the tensor."""
        return 400.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_name,
            "player": self.player,
            "num_players": self.num_players,
            **self._rules_json(),
            "round": self.round,
            "current_player": self.current_player,
            "board": [
                {k: list(v) if isinstance(v, tuple) else v for k, v in _board_entry(p)}
                for p in self.board
            ],
            "hand": None if self.hand is None else [str(t) for t in self.hand],
            "hand_counts": list(self.hand_counts),
            "pool_count": self.pool_count,
            "scores": list(self.scores),
            "draws_this_turn": self.draws_this_turn,
            "passes_in_row": self.passes_in_row,
            **self._extra_json(),
        }

    def to_tensor(self) -> list[float]:
        """Own hand and board tiles (one-hot over the set's tiles); per seat, counted from the
        viewer: present, hand count, score, to move; the pool, draws, passes and the game's own
        numbers; then a window of the board around the origin, five numbers a cell: occupied,
        open to play, and its three corner values (``(v + 1) / 6``, 0 when untouched)."""
        n, m, count = self.num_players, self.max_seats, len(self.tileset)
        head = self.tensor_head()
        out = [0.0] * head
        if self.hand is not None:
            for t in self.hand:
                out[t.index] = 1.0
        for p in self.board:
            out[count + p.tile.index] = 1.0
        base = 2 * count
        me = self.player or 0
        scale = self._score_scale()
        for k in range(n):
            seat = (me + k) % n
            out[base + k] = 1.0
            out[base + m + k] = self.hand_counts[seat] / 20.0
            out[base + 2 * m + k] = self.scores[seat] / scale
            if self.current_player == seat:
                out[base + 3 * m + k] = 1.0
        base += 4 * m
        out[base] = self.pool_count / count
        out[base + 1] = min(self.draws_this_turn, 10) / 10.0
        out[base + 2] = self.passes_in_row / m
        out[base + 3:head] = self._tensor_extras()
        out.extend(_window(self.board))
        return out


_WINDOW_INDEX: dict[Cell, int] = {
    (x, y): ((y - WINDOW_Y[0]) * len(WINDOW_X) + x - WINDOW_X[0]) * CELL_FEATURES
    for y in WINDOW_Y for x in WINDOW_X}
"""Where each cell of the window starts in the board part of the tensor."""


@lru_cache(maxsize=256)
def _window(placements: tuple[Place, ...]) -> tuple[float, ...]:
    """The board part of the tensor (cached: every seat's observation shares it)."""
    out = [0.0] * WINDOW_SIZE
    index = _WINDOW_INDEX.get
    cells = {p.cell for p in placements}
    corners: dict[Vertex, int] = {}
    for p in placements:
        for vertex, value in zip(cell_vertices(p.cell), p.values, strict=True):
            corners.setdefault(vertex, value)
        if (i := index(p.cell)) is not None:
            out[i] = 1.0
        for other in edge_neighbours(p.cell):
            if other not in cells and (i := index(other)) is not None:
                out[i + 1] = 1.0
    for vertex, value in corners.items():
        for cell, corner in zip(vertex_cells(vertex), RING_CORNERS, strict=True):
            if (i := index(cell)) is not None:
                out[i + 2 + corner] = (value + 1) / 6.0
    return tuple(out)


@lru_cache(maxsize=4096)
def _board_entry(p: Place) -> tuple[tuple[str, Any], ...]:
    """One placement of the observation's JSON ``board`` (cached: placements recur)."""
    return (("action", str(p)), ("tile", str(p.tile)), ("cell", p.cell),
            ("rotation", p.rotation), ("corners", p.values), ("up", is_up(p.cell)))
