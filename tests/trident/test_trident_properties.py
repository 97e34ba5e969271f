"""Properties of Trident over random games (Hypothesis): tiles conserved, scores the sums of
their events, deterministic replays, private racks, consistent determinizations, and illegal
actions that change nothing."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triverse.ai.basic import GreedyPlayer, RandomPlayer
from triverse.core.errors import IllegalActionError
from triverse.core.events import score_totals
from triverse.games.trident.engine import TridentGame, TridentState
from triverse.games.trident.tiles import JOKER, TILE_SET, Action, Exchange, Placement, Play

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

games = st.builds(
    lambda players, variant, limit: TridentGame(players, {"variant": variant,
                                                          "time_limit": limit}),
    st.integers(2, 4), st.sampled_from(["seed", "triolet"]), st.sampled_from([0, 60]))


def tiles_everywhere(state: TridentState) -> Counter[int]:
    counts: Counter[int] = Counter(state.bag)
    counts.update(state.aside)
    for rack in state.racks:
        counts.update(rack)
    counts.update(JOKER if state.board[s] >= 16 else state.board[s] for s in state.placed)
    return counts


def snapshot(state: TridentState) -> Any:
    return (list(state.board), [list(r) for r in state.racks], list(state.bag),
            list(state.scores), list(state.history), state.turn, state.passes, state.idle,
            state.over, list(state.cross), set(state.anchors), list(state.placed))


def choose(state: TridentState, rng: random.Random) -> Action:
    actions = state.legal_action_list()
    plays = [a for a in actions if isinstance(a, Play)]
    if state.game.time_limit and rng.random() < 0.05:
        from triverse.games.trident.tiles import TIMEOUT

        return TIMEOUT
    return rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(actions)


@SETTINGS
@given(game=games, seed=st.integers(0, 2**32), policy=st.integers(0, 2**16))
def test_random_games_keep_every_invariant(game: TridentGame, seed: int, policy: int) -> None:
    state = game.new_initial_state(seed=seed)
    rng = random.Random(policy)
    events = []
    full = Counter(TILE_SET)
    while not state.is_terminal():
        assert len(state.history) < game.max_game_length
        action = choose(state, rng)
        seat = state.current_player
        events.extend(state.apply(action))
        # 83 tiles: racks + bag + board + aside
        assert tiles_everywhere(state) == full
        # a score is the sum of its score events
        assert score_totals(events, game.num_players) == state.scores
        if seat is not None and not state.is_terminal():
            assert all(len(r) <= 3 for r in state.racks)
    assert game.min_score <= min(state.scores) and max(state.scores) <= game.max_score
    assert state.result().scores == tuple(state.scores)
    # the same seed and actions replay to the same game
    again = game.new_initial_state(seed=seed)
    for text in [str(a) for a in state.history]:
        again.apply_notation(text)
    assert snapshot(again) == snapshot(state)


@SETTINGS
@given(game=games, seed=st.integers(0, 2**32), steps=st.integers(0, 40),
       viewer=st.integers(0, 3))
def test_observations_hide_other_racks_and_determinize_consistently(
        game: TridentGame, seed: int, steps: int, viewer: int) -> None:
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(choose(state, rng))
    viewer %= game.num_players
    obs = state.observation(viewer)
    # the observation holds the viewer's rack and nothing of the others'
    assert obs.rack == tuple(state.racks[viewer])
    data = obs.to_json()
    assert set(data) >= {"rack", "rack_counts", "bag_count"} and "racks" not in data
    assert data["rack_counts"] == [len(r) for r in state.racks]
    # a determinization looks exactly the same to the viewer, and conserves the tiles
    for sample in range(2):
        det = game.determinize(obs, random.Random(sample))
        assert det.observation(viewer) == obs
        assert tiles_everywhere(det) == Counter(TILE_SET)
        assert det.current_player == state.current_player
        assert [len(r) for r in det.racks] == [len(r) for r in state.racks]
        # the spectator's view too
        spectator = state.observation(None)
        assert spectator.rack is None
        assert game.determinize(spectator, random.Random(sample)).observation(None) == spectator
    # and changing the other racks does not change the viewer's observation
    other = game.determinize(obs, random.Random(99))
    assert other.observation(viewer).to_json() == data
    assert len(obs.to_tensor()) == game.tensor_size


placements = st.builds(Placement, st.integers(0, 14), st.integers(0, 14), st.integers(0, 15),
                       st.booleans())


@SETTINGS
@given(game=games, seed=st.integers(0, 2**32), steps=st.integers(0, 30),
       tiles=st.lists(placements, min_size=1, max_size=4),
       exchange=st.lists(st.integers(0, 16), min_size=0, max_size=4))
def test_illegal_actions_leave_the_state_unchanged(game: TridentGame, seed: int, steps: int,
                                                    tiles: list[Placement],
                                                    exchange: list[int]) -> None:
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply(choose(state, rng))
    if state.is_terminal():
        return
    squares = {(p.row, p.col) for p in tiles}
    candidates: list[Action] = [Exchange(tuple(sorted(exchange)))]
    if len(squares) == len(tiles):
        candidates.append(Play(tuple(sorted(tiles))))
    legal = set(state.legal_actions())
    for action in candidates:
        reason = state.illegal_reason(action)
        assert (reason is None) == (action in legal), (str(action), reason)
        if reason is None:
            continue
        before = snapshot(state)
        try:
            state.apply(action)
        except IllegalActionError as exc:
            assert reason in str(exc)
        else:
            raise AssertionError(f"{action} was applied: {reason}")
        assert snapshot(state) == before


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_computer_players_finish_games(seed: int) -> None:
    game = TridentGame(3)
    state = game.new_initial_state(seed=seed)
    players = [GreedyPlayer(), RandomPlayer(), GreedyPlayer()]
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history) < 60:
        seat = state.current_player
        assert seat is not None
        action = players[seat].choose(game, state.observation(seat), rng)
        state.apply(action)
