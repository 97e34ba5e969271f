"""The score preview of a tentative placement in the tile games (Trinity, Tri-ominoes).

What the tile would score where it is dropped, each part with its message code (the tile's
numbers, each hexagon, a bridge, a span ...), or why it is illegal; the server answers it to
the seat to move (``POST /api/matches/{id}/preview``, the ``preview`` websocket message), so the
browser shows "This play scores 49: tile 9 + bridge 40" before the tile is dropped. Only the
placement's own points are told: going out also scores the other hands' numbers, which the
player may not know, so a preview never includes the round's end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from triverse.core.errors import NotationError
from triverse.core.messages import Reason, message_of
from triverse.games._tiles.tiles import Place

if TYPE_CHECKING:
    from triverse.games._tiles.engine import TileState


@dataclass(frozen=True, slots=True)
class PreviewItem:
    """One part of a placement's score: its message code, parameters and points."""

    code: str
    points: int
    params: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "points": self.points, "params": dict(self.params)}


@dataclass(frozen=True, slots=True)
class TilePreview:
    """What a tentative placement would score, part by part, or why it is illegal."""

    play: str
    reason: str | None
    points: int
    items: tuple[PreviewItem, ...]

    @property
    def legal(self) -> bool:
        return self.reason is None

    def to_json(self) -> dict[str, Any]:
        """As Trident's preview says it: the English ``reason`` of an illegal placement with
        its message as ``refusal`` (``{"code": ..., "params": ...}``, ``null`` when legal)."""
        refusal = None
        if self.reason is not None:
            code, params = message_of(self.reason)
            refusal = {"code": code, "params": params}
        return {"play": self.play, "legal": self.legal,
                "reason": None if self.reason is None else str(self.reason),
                "refusal": refusal, "points": self.points,
                "items": [item.to_json() for item in self.items]}


def preview_placement(state: TileState, text: str) -> TilePreview:
    """What placing ``text`` (``TILE@X,Y/R``) would score for the seat to move; nothing of
    ``state`` changes (the bonuses are counted on a clone)."""
    try:
        action = state.game.parse_action(text)
    except NotationError as exc:
        return TilePreview(text, str(exc), 0, ())
    if not isinstance(action, Place):
        return TilePreview(text, Reason("only a placement has a preview", "refused.no_preview",
                                        action=text), 0, ())
    reason = state.illegal_reason(action)
    if reason is not None:
        return TilePreview(str(action), reason, 0, ())
    seat = state.current_player
    assert seat is not None  # a legal placement has a seat to move
    trial = state.clone()
    specials = None if trial.opening else trial.board.specials(action.cell)
    trial.board.place(action.cell, action.values)
    t = action.tile
    items = [PreviewItem("tile_points", t.total, {"tile": str(t)})]
    items += [PreviewItem(e.code, e.points, dict(e.params))
              for e in trial._bonuses(seat, action, specials)]
    return TilePreview(str(action), None, sum(i.points for i in items), tuple(items))
