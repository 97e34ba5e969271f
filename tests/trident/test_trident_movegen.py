"""The move generator against a brute-force enumerator, on random positions: found for found."""

from __future__ import annotations

import random

import pytest
from trident_helpers import board_cells, brute_plays, candidate_plays, naive_legal, position

from triverse.games.trident.board import compute_anchors, compute_cross
from triverse.games.trident.engine import TridentGame, TridentState
from triverse.games.trident.tiles import JOKER, Exchange, Pass, Play

SPECIAL_RACKS = ([JOKER, 5, 5], [JOKER, JOKER, 3], [7, 7, 7], [0, 15, JOKER], [1, 2, JOKER],
                 [0, 0], [9], [JOKER], [4, 5, 6], [6, 9, 0])


def random_position(seed: int) -> TridentState:
    """A position some way into a random game (plays preferred, so the board fills up)."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    variant = "triolet" if seed % 2 else "seed"
    state = TridentGame(players, {"variant": variant}).new_initial_state(seed=seed)
    for _ in range(rng.randrange(0, 45)):
        if state.is_terminal():
            break
        actions = state.legal_action_list()
        plays = [a for a in actions if isinstance(a, Play)]
        state.apply_unchecked(rng.choice(plays) if plays and rng.random() < 0.9
                              else rng.choice(actions))
    return state


@pytest.mark.parametrize("seed", range(16))
def test_generator_matches_brute_force(seed: int) -> None:
    state = random_position(seed)
    if state.is_terminal():
        pytest.skip("the random game ended")
    seat = state.current_player
    assert seat is not None
    rng = random.Random(seed)
    racks = [list(state.racks[seat])]
    racks.append(sorted(rng.choice(SPECIAL_RACKS)))
    for rack in racks:
        state.racks[seat] = rack
        found = [a for a in state.legal_actions() if isinstance(a, Play)]
        assert len(found) == len(set(found)), "a play is listed twice"
        cells = board_cells(state.board)
        expected: set[Play] = set()
        rejected: list[Play] = []
        for tiles in candidate_plays(cells, rack):
            (expected.add if naive_legal(cells, rack, tiles) else rejected.append)(Play(tiles))
        assert set(found) == expected
        for play in expected:
            assert state.illegal_reason(play) is None, str(play)
        # and the engine refuses what the naive checker refuses
        for play in rng.sample(rejected, min(100, len(rejected))):
            assert state.illegal_reason(play) is not None, str(play)


def test_first_play_is_found_for_found() -> None:
    for rack in ([4, 5, 6], ["*", 5, 10], [15, 0, 0], [7, 8, 0]):
        state = position([], [rack, [0]])
        found = {a for a in state.legal_actions() if isinstance(a, Play)}
        assert found == brute_plays(state.board, state.racks[0])
        assert all(112 in p.squares for p in found)


@pytest.mark.parametrize("seed", range(6))
def test_masks_and_anchors_are_kept_up_to_date(seed: int) -> None:
    rng = random.Random(seed)
    state = TridentGame(2 + seed % 3).new_initial_state(seed=seed)
    while not state.is_terminal():
        actions = state.legal_action_list()
        plays = [a for a in actions if isinstance(a, Play)]
        state.apply(rng.choice(plays) if plays else rng.choice(actions))
        assert state.cross == compute_cross(state.board)
        assert state.anchors == (compute_anchors(state.board) if state.placed else {112})


def test_exchanges_and_pass_are_listed() -> None:
    state = position(["7:7=5"], [[15, 13, 13], [0]])
    actions = list(state.legal_actions())
    assert actions[-1] == Pass()
    assert [str(a) for a in actions if isinstance(a, Exchange)] == [
        "exchange 13", "exchange 15", "exchange 13,13", "exchange 13,15", "exchange 13,13,15"]
