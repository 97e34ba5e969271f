"""The message codes of the tile games (Trinity and Tri-ominoes) and their English templates.

Codes carry no game prefix; docs/messages.md lists each with its parameters. ``{who}`` is the
player's name and ``{points}`` the event's points (see :mod:`triverse.core.messages`).
"""

from __future__ import annotations

from collections.abc import Mapping

#: The codes both tile games share.
TILE_MESSAGES: Mapping[str, str] = {
    "placed": "{who} placed {tile} for {total}",
    "tile_points": "",
    "drew": "{who} drew a tile ({points})|{who} drew {count} tiles ({points})",
    "passed": "{who} passed",
    "bonus.out": "{who} went out: +{points}",
    "bonus.opponents_tiles": "{who}: opponents' tiles +{points}",
    "game_over": "Game over",
    "round_end.out": "Round {round} ends: {winner} went out",
    "refused.game_over": "the game is over",
    "refused.not_an_action": "that is not an action of this game",
    "refused.not_a_tile": "that is not a tile of this game",
    "refused.bad_rotation": "the rotation is 0, 1 or 2, not {rotation}",
    "refused.triple_rotation": "{tile} looks the same every way round: use rotation 0",
    "refused.not_in_hand": "{tile} is not in your hand",
    "refused.open_first": "the round opens first: play {tile} at the centre",
    "refused.opens_with": "the round opens with {tiles}",
    "refused.open_at_origin": "the first tile of a round goes at the centre, unturned",
    "refused.can_play": "you can still play ({play}): draw or pass only when you cannot",
    "refused.pool_empty": "the pool is empty: pass",
    "refused.draw_limit": "you have drawn {count} tiles this turn, the most allowed: pass",
    "refused.must_draw": "the pool still has {count} tiles: draw",
    "refused.occupied": "cell {cell} is taken",
    "refused.no_shared_edge": "a tile must share an edge with a tile on the board",
    "refused.corner_mismatch": "corner {value} does not match {there} at {vertex}",
    "refused.no_preview": "only a placement has a preview",
}
