"""Tri-ominoes' message codes and their English templates (docs/messages.md)."""

from __future__ import annotations

from collections.abc import Mapping

from triverse.games._tiles.messages import TILE_MESSAGES

MESSAGES: Mapping[str, str] = {
    **TILE_MESSAGES,
    "round_start.opens": "Round {round}: {opener} opens with {tiles}",
    "drew_for_triple": "{who} drew for a triple",
    "bonus.triple_start": "{who}: triple start +{points}",
    "bonus.zero_start": "{who}: triple zero +{points}",
    "bonus.hexagon": "{who}: hexagon +{points}",
    "bonus.hexagons": "{who}: {count} hexagons +{points}",
    "bonus.bridge": "{who}: bridge +{points}",
    "bonus.own_tiles": "{who}: own tiles {points}",
    "round_end.blocked_settled": "Round {round} is blocked: the fewest points in hand win it",
    "round_end.blocked_kept": "Round {round} is blocked: scores are kept",
}
