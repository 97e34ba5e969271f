"""Properties of random Tri-ominoes games (Hypothesis): conservation, scores, determinism,
hidden information, determinization and clones."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from hypothesis import event as note_event
from hypothesis import given, settings
from hypothesis import strategies as st

from triverse.core.events import Event, score_totals
from triverse.games import load_game
from triverse.games.triominoes.engine import TriominoesState
from triverse.games.triominoes.tiles import TILES, Place

seeds = st.integers(0, 2**32)
players = st.integers(2, 6)
variants = st.sampled_from(["seed", "pressman"])
FEW = settings(max_examples=30, deadline=None)


def random_game(seed: int, n: int, variant: str, target: int = 120, rules_version: int = 2
                ) -> Iterator[tuple[TriominoesState, list[Event]]]:
    """Play random legal actions to the end; yield the state (changed in place) and events."""
    game = load_game("triominoes", players=n, variant=variant, target=target,
                     rules_version=rules_version)
    state = game.new_initial_state(seed=seed)
    assert isinstance(state, TriominoesState)
    rng = random.Random(seed)
    yield state, []
    while not state.is_terminal():
        events = state.apply(rng.choice(state.legal_action_list()))
        yield state, events


def play_to(seed: int, n: int, variant: str, steps: int) -> TriominoesState:
    """The state after ``steps`` random actions (or at the end, if sooner)."""
    for i, (state, _) in enumerate(random_game(seed, n, variant)):
        if i >= steps or state.is_terminal():
            return state
    raise AssertionError("unreachable")


def conserved(state: TriominoesState) -> bool:
    held = [t for hand in state.hands for t in hand]
    pool = list(state.pool[state.pool_pos:])
    board = [p.tile for p in state.placed]
    everything = held + pool + board
    return len(everything) == 56 and set(everything) == set(TILES)


@FEW
@given(seeds, players, variants, st.sampled_from([60, 400]), st.sampled_from([1, 2]))
def test_tiles_conserved_and_scores_are_sums_of_events(seed: int, n: int, variant: str,
                                                       target: int, rules_version: int) -> None:
    events: list[Event] = []
    state = None
    rounds = 0
    for state, new in random_game(seed, n, variant, target, rules_version):
        rounds += sum(e.kind == "round_end" for e in new)
        events.extend(new)
        assert conserved(state)
        assert state.scores == score_totals(events, n)
        assert len(state.board) == len(state.placed)
    assert state is not None and state.is_terminal()
    assert len(state.history) <= state.game.max_game_length
    assert state.game.min_score <= min(state.scores) and max(state.scores) <= state.game.max_score
    assert max(state.scores) >= state.game.target or state.round == state.game.max_rounds
    assert events[-1].kind == "game_end" and rounds == state.round


@settings(max_examples=80, deadline=None)
@given(seeds, st.integers(2, 3), variants, st.sampled_from([1, 2]))
def test_a_blocked_round_scores_as_its_rules_say(seed: int, n: int, variant: str,
                                                 rules_version: int) -> None:
    """Seed rules (version 2): the action that blocks the round scores nothing, the scores stay
    as they were and the next round is dealt (or the game ends); otherwise the seats with the
    fewest points in hand score the others' points minus their own, and nobody else scores.
    (Two or three players: random play blocks a round in about a third of those games.)"""
    settled = variant == "pressman" or rules_version == 1
    pass_penalty = 10 if variant == "pressman" else 0
    before: list[int] = []
    for state, events in random_game(seed, n, variant, 150, rules_version):
        end = next((e for e in events if e.kind == "round_end"), None)
        if end is not None and end.data["reason"] == "blocked":
            seat = events[0].player
            assert events[0].kind == "pass" and seat is not None
            totals = end.data["hand_totals"]
            after_pass = [s - (pass_penalty if i == seat else 0) for i, s in enumerate(before)]
            gained = [a - b for a, b in zip(end.data["scores"], after_pass, strict=True)]
            note_event("a blocked round, settled" if settled else "a blocked round, scores kept")
            if settled:
                low = min(totals)
                assert end.data["winners"] == [i for i, t in enumerate(totals) if t == low]
                assert gained == [sum(totals) - 2 * low if t == low else 0 for t in totals]
            else:
                assert gained == [0] * n and end.data["winners"] == []
                assert not any(e.points for e in events[1:])
                assert end.label.startswith(f"Round {end.data['round']} is blocked: scores "
                                            f"are kept")
                assert end.label.endswith(", new deal") != state.is_terminal()
            assert state.is_terminal() or state.round == end.data["round"] + 1
        before = list(state.scores)


@FEW
@given(seeds, players, variants)
def test_same_seed_and_actions_same_game(seed: int, n: int, variant: str) -> None:
    first = [(json.dumps(s.observation(None).to_json()), [e.to_json(0) for e in ev])
             for s, ev in random_game(seed, n, variant)]
    second = [(json.dumps(s.observation(None).to_json()), [e.to_json(0) for e in ev])
              for s, ev in random_game(seed, n, variant)]
    assert first == second
    final = [s for s, _ in random_game(seed, n, variant)][-1]
    replayed = final.game.new_initial_state(seed=seed)
    for action in final.history:
        replayed.apply_notation(str(action))
    assert replayed.observation(0).to_json() == final.observation(0).to_json()


@FEW
@given(seeds, players, variants)
def test_observations_never_show_other_hands(seed: int, n: int, variant: str) -> None:
    for step, (state, events) in enumerate(random_game(seed, n, variant)):
        if step % 3:
            continue
        announced = {str(t) for t in state.opening}
        for viewer in [None, *range(n)]:
            text = json.dumps(state.observation(viewer).to_json())
            tensor = state.observation(viewer).to_tensor()
            for seat in range(n):
                if seat == viewer:
                    continue
                for t in state.hands[seat]:
                    if str(t) not in announced:
                        assert f'"{t}"' not in text
                        assert tensor[t.index] == 0.0
            for event in events:
                if event.secret is not None and event.player != viewer:
                    assert "secret" not in event.to_json(viewer)


@settings(max_examples=30, deadline=None)
@given(seeds, players, variants, st.integers(0, 200), st.integers(0, 2**16))
def test_determinize_is_consistent_with_the_observation(seed: int, n: int, variant: str,
                                                        steps: int, rng_seed: int) -> None:
    state = play_to(seed, n, variant, steps)
    for viewer in {state.current_player if state.current_player is not None else 0, None}:
        obs = state.observation(viewer)
        other = state.game.determinize(obs, random.Random(rng_seed))
        assert conserved(other)
        mine = other.observation(viewer).to_json()
        assert mine == obs.to_json()
        assert [p for p in other.placed] == list(state.placed)
        if viewer is not None:
            assert other.hand(viewer) == state.hand(viewer)
        assert sorted(map(str, other.legal_actions())) == sorted(
            map(str, state.legal_actions())) or viewer != state.current_player
        # The determinized game plays on to its end.
        rng = random.Random(rng_seed)
        for _ in range(60):
            if other.is_terminal():
                break
            other.apply(rng.choice(other.legal_action_list()))
            assert conserved(other)


@FEW
@given(seeds, players, variants, st.integers(0, 150))
def test_clones_are_independent(seed: int, n: int, variant: str, steps: int) -> None:
    state = play_to(seed, n, variant, steps)
    before = [json.dumps(state.observation(p).to_json()) for p in range(n)]
    scores, history = list(state.scores), list(state.history)
    clone = state.clone()
    assert [json.dumps(clone.observation(p).to_json()) for p in range(n)] == before
    rng = random.Random(seed)
    for _ in range(30):
        if clone.is_terminal():
            break
        clone.apply(rng.choice(clone.legal_action_list()))
    assert [json.dumps(state.observation(p).to_json()) for p in range(n)] == before
    assert state.scores == scores and state.history == history
    assert conserved(state) and conserved(clone)


@FEW
@given(seeds, variants)
def test_first_legal_action_always_finishes_a_game(seed: int, variant: str) -> None:
    game = load_game("triominoes", players=2, variant=variant, target=400)
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        action = next(state.legal_actions())
        assert game.parse_action(str(action)) == action
        state.apply(action)
    assert len(state.history) <= game.max_game_length
    assert sum(1 for _ in state.legal_actions()) == 0


@settings(max_examples=10, deadline=None)
@given(seeds, players, variants)
def test_legal_actions_are_exactly_the_legal_placements(seed: int, n: int, variant: str) -> None:
    """No duplicates, and the same set as trying every tile of the hand in every orientation
    on every cell next to the board."""
    for step, (state, _) in enumerate(random_game(seed, n, variant)):
        if step % 5 or state.is_terminal():
            continue
        actions = state.legal_action_list()
        assert len(set(actions)) == len(actions)
        assert all(state.illegal_reason(a) is None for a in actions)
        if state.opening:
            continue
        seat = state.current_player
        assert seat is not None
        brute = {
            Place(t, cell, r)
            for t in state.hands[seat] for cell in state.board.frontier
            for r in ((0,) if t.is_triple else (0, 1, 2))
            if state.illegal_reason(Place(t, cell, r)) is None
        }
        placements = {a for a in actions if isinstance(a, Place)}
        assert placements == brute
        if not placements:
            assert len(actions) == 1 and str(actions[0]) in ("draw", "pass")
