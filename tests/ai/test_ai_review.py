"""Hints and reviews: the engine side of the browser's help."""

from __future__ import annotations

import random

from triverse.ai import hint, review
from triverse.ai.knowledge.trident import play_points
from triverse.ai.levels import VeteranPlayer
from triverse.ai.review import MoveReview
from triverse.core.records import Record
from triverse.games import load_game
from triverse.games.trident.tiles import Pass, Play


def test_hint_is_legal_in_every_game() -> None:
    for name in ("triominoes", "trinity", "triangles", "trident", "trivinity"):
        game = load_game(name)
        state = game.new_initial_state(seed=6)
        seat = state.current_player
        assert seat is not None
        assert state.is_legal(hint(game, state.observation(seat), 0.02, random.Random(2)))


def test_review_flags_a_pass_that_threw_points_away() -> None:
    game = load_game("trident")
    state = game.new_initial_state(seed=4)
    passer = state.current_player
    assert passer is not None
    state.apply(Pass())                                   # a play was possible: a mistake
    other = state.current_player
    assert other is not None
    record = Record.from_state(state, ["A", "B"])
    notes = review(record, seat=passer, time_budget=float("inf"), max_worlds=3)
    assert len(notes) == 1
    note = notes[0]
    assert isinstance(note, MoveReview)
    assert (note.index, note.seat, note.played) == (0, passer, "pass")
    assert note.points_lost > 5 and note.best_value > note.played_value
    assert isinstance(game.parse_action(note.suggested), Play)
    assert note.to_json()["suggested"] == note.suggested
    assert review(record, seat=other, time_budget=float("inf"), max_worlds=2) == []


def test_review_agrees_with_its_own_moves() -> None:
    game = load_game("triominoes", target=60)
    state = game.new_initial_state(seed=9)
    veteran = VeteranPlayer(time_budget=float("inf"), max_worlds=4)
    for _ in range(6):
        seat = state.current_player
        assert seat is not None
        state.apply(veteran.choose(game, state.observation(seat), random.Random(3)))
    record = Record.from_state(state, ["A", "B"])
    notes = review(record, time_budget=float("inf"), max_worlds=4, threshold=1000.0)
    assert notes == []


def test_fast_trident_scoring_matches_the_engine() -> None:
    for variant in ("seed", "triolet"):
        game = load_game("trident", variant=variant)
        rng = random.Random(5)
        state = game.new_initial_state(seed=5)
        checked = 0
        while not state.is_terminal() and checked < 400:
            actions = state.legal_action_list()
            for action in actions:
                if isinstance(action, Play):
                    expected = state.preview(action).points
                    got = play_points(state.board, action.tiles,
                                      state.rules.triolet_multipliers)
                    assert got == expected, action
                    checked += 1
            plays = [a for a in actions if isinstance(a, Play)]
            state.apply(rng.choice(plays) if plays else actions[-1])
        assert checked > 100
