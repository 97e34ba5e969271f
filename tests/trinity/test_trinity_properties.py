"""Properties of random Trinity games (Hypothesis): conservation of the 76 triangles, scores as
sums of events, determinism, hidden information, determinization, illegal actions, clones and
the tiebreaker floor."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from trinity_helpers import conserved, play_to, random_game, snapshot

from triverse.core.errors import IllegalActionError
from triverse.core.events import Event, score_totals
from triverse.games._tiles.tiles import Place
from triverse.games.trinity.engine import TrinityGame, TrinityState
from triverse.games.trinity.tiles import DRAW, PASS, TILES

seeds = st.integers(0, 2**32)
players = st.integers(2, 4)
rounds = st.integers(1, 3)
FEW = settings(max_examples=60, deadline=None)


@FEW
@given(seeds, players, rounds)
def test_triangles_conserved_and_scores_are_sums_of_events(seed: int, n: int, r: int) -> None:
    events: list[Event] = []
    state = None
    ends = 0
    for state, new in random_game(seed, n, r):
        ends += sum(e.kind == "round_end" for e in new)
        events.extend(new)
        assert conserved(state)
        assert state.scores == score_totals(events, n)
        assert len(state.board) == len(state.placed)
    assert state is not None and state.is_terminal()
    assert len(state.history) <= state.game.max_game_length
    assert state.game.min_score <= min(state.scores) and max(state.scores) <= state.game.max_score
    assert events[-1].kind == "game_end" and ends == state.round >= r
    specials = [e for e in events if e.kind == "special"]
    assert all(e.data["special"] in ("hexagon", "span", "slide") for e in specials)
    first_span = next((i for i, e in enumerate(events) if e.label == "Span +50"), len(events))
    assert all(i > first_span for i, e in enumerate(events) if e.label == "Slide +60")


@FEW
@given(seeds, players)
def test_same_seed_and_actions_same_game(seed: int, n: int) -> None:
    first = [(json.dumps(s.observation(None).to_json()), [e.to_json(0) for e in ev])
             for s, ev in random_game(seed, n)]
    second = [(json.dumps(s.observation(None).to_json()), [e.to_json(0) for e in ev])
              for s, ev in random_game(seed, n)]
    assert first == second
    final = [s for s, _ in random_game(seed, n)][-1]
    replayed = final.game.new_initial_state(seed=seed)
    for action in final.history:
        replayed.apply_notation(str(action))
    assert snapshot(replayed) == snapshot(final)


@FEW
@given(seeds, players)
def test_observations_never_show_other_hands(seed: int, n: int) -> None:
    for step, (state, events) in enumerate(random_game(seed, n)):
        if step % 3:
            continue
        for viewer in [None, *range(n)]:
            obs = state.observation(viewer)
            text = json.dumps(obs.to_json())
            tensor = obs.to_tensor()
            for seat in range(n):
                if seat == viewer:
                    continue
                for t in state.hands[seat]:
                    assert f'"{t}"' not in text
                    assert tensor[t.index] == 0.0
            for t in state.pool[state.pool_pos:]:
                assert f'"{t}"' not in text
            for event in events:
                if event.secret is not None and event.player != viewer:
                    assert "secret" not in event.to_json(viewer)


@settings(max_examples=50, deadline=None)
@given(seeds, players, st.integers(0, 200), st.integers(0, 2**16))
def test_determinize_is_consistent_with_the_observation(seed: int, n: int, steps: int,
                                                        rng_seed: int) -> None:
    state = play_to(seed, n, steps, rounds=2)
    for viewer in {state.current_player if state.current_player is not None else 0, None}:
        obs = state.observation(viewer)
        other = state.game.determinize(obs, random.Random(rng_seed))
        assert conserved(other)
        assert other.observation(viewer).to_json() == obs.to_json()
        assert other.observation(viewer).to_tensor() == obs.to_tensor()
        assert list(other.placed) == list(state.placed)
        if viewer is not None:
            assert other.hand(viewer) == state.hand(viewer)
            if viewer == state.current_player:
                assert other.legal_action_list() == state.legal_action_list()
        rng = random.Random(rng_seed)
        for _ in range(60):  # the determinized game plays on
            if other.is_terminal():
                break
            other.apply(rng.choice(other.legal_action_list()))
            assert conserved(other)


@settings(max_examples=50, deadline=None)
@given(seeds, players, st.integers(0, 150), st.integers(0, 2**16))
def test_illegal_actions_leave_the_state_unchanged(seed: int, n: int, steps: int,
                                                   pick: int) -> None:
    state = play_to(seed, n, steps, rounds=2)
    if state.is_terminal():
        return
    rng = random.Random(pick)
    before = snapshot(state)
    legal = set(state.legal_action_list())
    frontier = list(state.board.frontier) + [p.cell for p in state.placed[:3]] + [(50, 50)]
    tried = 0
    for _ in range(60):
        action = rng.choice([DRAW, PASS, Place(rng.choice(TILES), rng.choice(frontier),
                                              rng.randrange(3))])
        reason = state.illegal_reason(action)
        assert (reason is None) == (action in legal), (action, reason)
        if reason is None:
            continue
        tried += 1
        try:
            state.apply(action)
        except IllegalActionError as exc:
            assert reason in str(exc)
        else:
            raise AssertionError(f"{action} was applied: {reason}")
        assert snapshot(state) == before
    assert tried


@FEW
@given(seeds, players, st.integers(0, 150))
def test_clones_are_independent(seed: int, n: int, steps: int) -> None:
    state = play_to(seed, n, steps, rounds=2)
    before = snapshot(state)
    clone = state.clone()
    assert snapshot(clone) == before
    rng = random.Random(seed)
    for _ in range(30):
        if clone.is_terminal():
            break
        clone.apply(rng.choice(clone.legal_action_list()))
    assert snapshot(state) == before
    assert conserved(state) and conserved(clone)


@settings(max_examples=20, deadline=None)
@given(seeds, players)
def test_legal_actions_are_exactly_the_legal_placements(seed: int, n: int) -> None:
    """No duplicates, and the same set as trying every triangle of the hand in every
    orientation on every cell next to the board."""
    for step, (state, _) in enumerate(random_game(seed, n)):
        if step % 5 or state.is_terminal():
            continue
        actions = state.legal_action_list()
        assert len(set(actions)) == len(actions)
        seat = state.current_player
        assert seat is not None
        brute = {
            Place(t, cell, r)
            for t in state.hands[seat] for cell in state.board.frontier
            for r in ((0,) if t.is_triple else (0, 1, 2))
            if state.illegal_reason(Place(t, cell, r)) is None
        }
        assert {a for a in actions if isinstance(a, Place)} == brute
        if not brute:
            assert len(actions) == 1 and str(actions[0]) in ("draw", "pass")


@settings(max_examples=40, deadline=None)
@given(seeds, st.integers(3, 4), st.integers(0, 2**16))
def test_tiebreakers_floor_scores_and_leave_the_others_alone(seed: int, n: int,
                                                             pick: int) -> None:
    """A random tiebreaker between two seats: the others never move nor score; no tied seat
    ends a tiebreaker round below its score before it; saving stays refused."""
    rng = random.Random(pick)
    tied = sorted(rng.sample(range(n), 2))
    scores = [rng.randrange(0, 50) for _ in range(n)]
    for seat in tied:
        scores[seat] = 60
    game = TrinityGame(n, {"rounds": 1, "max_tiebreakers": 3})
    tiles = [str(t) for t in TILES]
    rng.shuffle(tiles)
    hands: list[list[str]] = [[] for _ in range(n)]
    for seat in tied:
        hands[seat], tiles = tiles[:9], tiles[9:]
    state = game.new_initial_state(seed=seed, setup={
        "hands": hands, "pool": tiles, "round": 2, "active": tied, "baseline": scores,
        "scores": scores})
    assert isinstance(state, TrinityState)
    outside = {s: scores[s] for s in range(n) if s not in tied}
    while not state.is_terminal():
        assert state.current_player in state.active and not state.can_save()
        baseline = state.baseline
        assert baseline is not None
        events = state.apply(rng.choice(state.legal_action_list()))
        assert all(e.player in state.active for e in events if e.player is not None)
        for end in (e for e in events if e.kind == "round_end"):
            for seat in tied:
                assert end.data["scores"][seat] >= baseline[seat]
        assert {s: state.scores[s] for s in outside} == outside
    result = state.result()
    assert set(result.winners) <= set(tied)
    assert all(result.ranks[s] > 2 for s in outside)
