"""Trinity's message codes and their English templates (docs/messages.md)."""

from __future__ import annotations

from collections.abc import Mapping

from triverse.games._tiles.messages import TILE_MESSAGES

MESSAGES: Mapping[str, str] = {
    **TILE_MESSAGES,
    "round_start.turned_up": "Round {round} of {rounds}: {tile} is turned up; {opener} plays first",
    "round_start.tiebreaker": "Tiebreaker round {tiebreaker}: {tile} is turned up",
    "bonus.hexagon": "{who}: hexagon +{points}",
    "bonus.span": "{who}: span +{points}",
    "bonus.slide": "{who}: slide +{points}",
    "bonus.tiebreak_floor": "{who}: back to {score} (+{points})",
    "round_end.all_passed": "Round {round} is a draw: every player passed",
    "tiebreaker": "Tied for first with {score}: a tiebreaker round",
}
