"""Triangles' message codes and their English templates (docs/messages.md)."""

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, str] = {
    "line": "{who} drew line {line}",
    "triangle": "{who} closed a triangle +{points}",
    "again": "{who} plays again",
    "you:again": "You play again",
    "game_over": "Game over",
    "refused.no_such_star": "there is no star {star} (the stars are 0 to {last})",
    "refused.same_star": "a line joins two different stars",
    "refused.passes_star": "{line} passes through star {star}",
    "refused.already_drawn": "{line} is already drawn",
    "refused.crosses": "{line} would cross {other}",
}
