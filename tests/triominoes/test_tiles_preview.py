"""The tile games' score preview (games/_tiles/preview.py): a placement's previewed points are
the points the placement then scores (the round's end aside), part by part, and nothing
changes; illegal placements and other actions are refused with their reason."""

from __future__ import annotations

import random

import pytest

from triverse.games._tiles.engine import TileState
from triverse.games.trinity import TrinityGame
from triverse.games.triominoes import TriominoesGame

ROUND_END_CODES = {"bonus.out", "bonus.opponents_tiles", "bonus.own_tiles",
                   "bonus.tiebreak_floor"}


@pytest.mark.parametrize("game_class", [TriominoesGame, TrinityGame])
def test_preview_matches_what_the_placement_scores(game_class: type) -> None:
    rng = random.Random(7)
    bonuses: set[str] = set()
    for seed in range(6):
        state: TileState = game_class(2).new_initial_state(seed)
        while not state.is_terminal():
            actions = list(state.legal_actions())
            action = rng.choice(actions)
            if "@" in str(action):
                seat = state.current_player
                scores = list(state.scores)
                preview = state.preview(str(action))
                assert preview.legal and state.scores == scores  # nothing changed
                events = state.apply(action)
                scored = [e for e in events if e.player == seat and e.points
                          and e.code not in ROUND_END_CODES]
                assert preview.points == sum(e.points for e in scored)
                assert [i.code for i in preview.items] == ["tile_points"] + [
                    e.code for e in scored if e.code != "tile_points"]
                bonuses.update(i.code for i in preview.items[1:])
            else:
                state.apply(action)
    assert bonuses  # some placement scored a bonus


def test_preview_refusals() -> None:
    state = TriominoesGame(2).new_initial_state(3)
    data = state.preview("draw").to_json()
    assert not data["legal"] and data["points"] == 0 and data["items"] == []
    assert data["refusal"] == {"code": "refused.no_preview", "params": {"action": "draw"}}
    missing = state.preview("1-1-1@99,99").to_json()
    assert missing["refusal"]["code"] == "refused.not_in_hand" and not missing["legal"]
    assert not state.preview("nonsense").legal
