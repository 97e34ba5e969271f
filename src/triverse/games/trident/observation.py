"""What a seat sees of a Trident game: the observation, its JSON and its tensor; and the preview
of a tentative play (its score line by line, or why it is illegal).

>>> from triverse.games.trident.engine import TridentGame
>>> obs = TridentGame(2).new_initial_state(seed=1).observation(0)
>>> len(obs.rack or ()), obs.bag_count, len(obs.to_tensor()) == TENSOR_SIZE
(3, 77, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from triverse.core.game import Observation
from triverse.core.messages import message_of
from triverse.games.trident.board import CELLS
from triverse.games.trident.rules import ANNOUNCE_AT, MAX_PLAYERS, STALL_ROUNDS
from triverse.games.trident.scoring import ScoreItem
from triverse.games.trident.tiles import KINDS, NUM_TILES, RACK_SIZE, SIZE, tile_text

# The observation tensor: per square one-hot value (16) and a joker flag; the own rack by kind;
# per seat counted from the viewer (present, rack count, score, to move); six global numbers.
_CELL_FEATURES: Final = 17
_RACK_AT: Final = CELLS * _CELL_FEATURES
_SEATS_AT: Final = _RACK_AT + len(KINDS)
_GLOBAL_AT: Final = _SEATS_AT + 4 * MAX_PLAYERS
TENSOR_SIZE: Final = _GLOBAL_AT + 6


@dataclass(frozen=True, slots=True)
class TridentObservation(Observation):
    """What one seat (or a spectator, ``player=None``) sees: the board, its own rack only, how
    many tiles every rack and the bag hold, the scores and whose turn it is.

    ``board`` is the 225 cells (-1 empty, a value, or 16 + the value of a joker); ``placed`` the
    occupied squares in the order their tiles went down.
    """

    player: int | None
    num_players: int
    variant: str
    time_limit: int
    board: tuple[int, ...]
    placed: tuple[int, ...]
    rack: tuple[int, ...] | None
    rack_counts: tuple[int, ...]
    bag_count: int
    aside_count: int
    scores: tuple[int, ...]
    order: tuple[int, ...]
    current_player: int | None
    consecutive_passes: int
    idle_turns: int
    end_reason: str | None
    move_number: int

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "trident",
            "player": self.player,
            "num_players": self.num_players,
            "variant": self.variant,
            "time_limit": self.time_limit,
            "board": [
                {"row": s // SIZE, "col": s % SIZE, "value": self.board[s] & 15,
                 "joker": self.board[s] >= 16}
                for s in self.placed
            ],
            "rack": None if self.rack is None else [tile_text(t) for t in self.rack],
            "rack_counts": list(self.rack_counts),
            "bag_count": self.bag_count,
            "bag_announced": self.bag_count <= ANNOUNCE_AT,
            "aside_count": self.aside_count,
            "scores": list(self.scores),
            "order": list(self.order),
            "current_player": self.current_player,
            "consecutive_passes": self.consecutive_passes,
            "idle_turns": self.idle_turns,
            "end_reason": self.end_reason,
            "move_number": self.move_number,
        }

    def to_tensor(self) -> list[float]:
        """Per square: its value one-hot and a joker flag (all 0 when empty); the own rack by
        kind (count / 3); per seat from the viewer: present, rack count / 3, score / 100, to
        move; then the bag / 83, the tiles aside / 3, passes and idle turns in a row, the
        variant and whether turns are timed."""
        out = [0.0] * TENSOR_SIZE
        for s in self.placed:
            code = self.board[s]
            at = s * _CELL_FEATURES
            out[at + (code & 15)] = 1.0
            if code >= 16:
                out[at + 16] = 1.0
        if self.rack is not None:
            for t in self.rack:
                out[_RACK_AT + t] += 1.0 / RACK_SIZE
        n = self.num_players
        me = self.player or 0
        for k in range(n):
            seat = (me + k) % n
            out[_SEATS_AT + k] = 1.0
            out[_SEATS_AT + MAX_PLAYERS + k] = self.rack_counts[seat] / RACK_SIZE
            out[_SEATS_AT + 2 * MAX_PLAYERS + k] = self.scores[seat] / 100.0
            if self.current_player == seat:
                out[_SEATS_AT + 3 * MAX_PLAYERS + k] = 1.0
        out[_GLOBAL_AT] = self.bag_count / NUM_TILES
        out[_GLOBAL_AT + 1] = self.aside_count / RACK_SIZE
        out[_GLOBAL_AT + 2] = self.consecutive_passes / MAX_PLAYERS
        out[_GLOBAL_AT + 3] = self.idle_turns / (STALL_ROUNDS * MAX_PLAYERS)
        out[_GLOBAL_AT + 4] = 1.0 if self.variant == "triolet" else 0.0
        out[_GLOBAL_AT + 5] = 1.0 if self.time_limit else 0.0
        return out


@dataclass(frozen=True, slots=True)
class Preview:
    """What a tentative play would score, line by line, or why it is illegal."""

    play: str
    reason: str | None
    points: int
    items: tuple[ScoreItem, ...]
    bis: bool
    """It covers a BIS square: the player would play again."""

    @property
    def legal(self) -> bool:
        return self.reason is None

    def to_json(self) -> dict[str, Any]:
        """The preview for clients: each item with its ``code`` and ``params`` beside its
        English ``label``, and the English ``reason`` of an illegal play with its message as
        ``refusal`` (``{"code": ..., "params": ...}``, ``null`` when legal)."""
        refusal = None
        if self.reason is not None:
            code, params = message_of(self.reason)
            refusal = {"code": code, "params": params}
        return {
            "play": self.play,
            "legal": self.legal,
            "reason": None if self.reason is None else str(self.reason),
            "refusal": refusal,
            "points": self.points,
            "items": [{**item.to_json(), "code": item.code, "params": dict(item.params)}
                      for item in self.items],
            "bis": self.bis,
        }

