"""Trivinity's invariants over random games (Hypothesis): conservation, privacy, scores,
replays, termination, and the agreement of the legal-action list with ``illegal_reason``."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from trivinity_helpers import random_game, setup_json, zones

from triverse.core.events import Event
from triverse.core.records import PlayerInfo, Record
from triverse.games.trivinity.engine import TrivinityGame, TrivinityState

GAMES = {n: TrivinityGame(n) for n in (2, 3, 4)}
SEEDS = st.integers(min_value=0, max_value=2**40)
PLAYERS = st.sampled_from([2, 2, 3, 4])


def _perturbed(state: TrivinityState, viewer: int | None,
               rng: random.Random) -> TrivinityState:
    """The same position with everything ``viewer`` cannot see dealt again."""
    other = state.clone()
    for q in range(len(state.order)):
        if q == viewer:
            other.decks[q] = rng.sample(other.decks[q], len(other.decks[q]))
            continue
        cards = other.hands[q] + other.decks[q]
        rng.shuffle(cards)
        size = len(other.hands[q])
        other.hands[q] = sorted(cards[:size])
        other.decks[q] = cards[size:]
    known = state.known[viewer] if viewer is not None else frozenset()
    slots = [(s, i) for s, stack in enumerate(other.stacks)
             for i in range(other.buried[s], len(stack) - 1) if stack[i] not in known]
    hidden = [other.stacks[s][i] for s, i in slots] + other.limbo_down
    rng.shuffle(hidden)
    for s, i in slots:
        other.stacks[s][i] = hidden.pop()
    other.limbo_down = sorted(hidden)
    return other


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_random_play_conserves_cards_scores_and_terminates(seed: int, players: int) -> None:
    game = GAMES[players]
    state0 = game.new_initial_state(seed=seed)
    expected = list(game.table.in_play(state0.modules, players))
    assert sorted(zones(state0)) == expected
    emitted = [0] * players

    def check(state: TrivinityState, events: list[Event]) -> None:
        assert sorted(zones(state)) == expected
        for event in events:
            if event.player is not None:
                emitted[event.player] += event.points
        assert state.scores == emitted
        assert all(len(set(h)) == len(h) and h == sorted(h) for h in state.hands)

    state = random_game(game, seed, check)
    assert state.is_terminal() and len(state.history) <= game.max_game_length
    assert state.scores == [state.estimate(p) for p in range(players)]
    assert max(state.turns) <= game.turn_limit


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_observations_hide_hands_decks_and_face_down_cards(seed: int, players: int) -> None:
    game = GAMES[players]
    rng = random.Random(seed)
    checked = 0

    def check(state: TrivinityState, events: list[Event]) -> None:
        nonlocal checked
        if rng.random() > 0.04:
            return
        checked += 1
        for viewer in [*range(players), None]:
            view = state.observation(viewer)
            for _ in range(2):
                other = _perturbed(state, viewer, rng)
                assert other.observation(viewer) == view
            data = view.to_json()
            json.dumps(data)
            assert len(view.to_tensor()) == game.tensor_size
            if viewer is not None:
                assert data["hand"] == sorted(state.hands[viewer])
                for q in range(players):
                    assert "hand" not in data["players"][q]
                # A determinized state agrees with what the viewer sees, and is playable.
                rebuilt = game.determinize(view, rng)
                assert rebuilt.observation(viewer) == view
                assert sorted(zones(rebuilt)) == sorted(zones(state))
                assert rebuilt.legal_action_list() == state.legal_action_list() or (
                    state.current_player != viewer)

    random_game(game, seed, check, max_actions=400)


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_legal_actions_agree_with_illegal_reason_and_ids(seed: int, players: int) -> None:
    game = GAMES[players]
    rng = random.Random(seed ^ 0x5EED)

    def check(state: TrivinityState, events: list[Event]) -> None:
        if state.is_terminal() or rng.random() > 0.05:
            return
        legal = state.legal_action_list()
        assert [str(a) for a in state.legal_actions()] == [str(a) for a in legal]
        assert len(set(legal)) == len(legal)
        for action_id in range(game.num_distinct_actions):
            action = state.decode_action(action_id)
            reason = state.illegal_reason(action)
            assert (reason is None) == (action in legal), (str(action), reason)
            if reason is not None:
                assert reason and reason[0].islower()
        for action in legal:
            assert state.decode_action(state.encode_action(action)) == action
            assert game.parse_action(str(action)) == action

    random_game(game, seed, check, max_actions=300)


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_replays_are_deterministic(seed: int, players: int) -> None:
    game = GAMES[players]
    first = random_game(game, seed)
    record = Record.from_state(first, [PlayerInfo(f"P{q}", "novice") for q in range(players)])
    again = game.new_initial_state(seed=record.seed, setup=record.setup)
    for text in Record.loads(record.dumps()).actions:
        again.apply_notation(text)
    assert again.scores == first.scores and again.is_terminal()
    assert again.observation(None) == first.observation(None)
    assert again.result() == record.result


def test_replay_from_an_explicit_setup() -> None:
    game = GAMES[3]
    setup = setup_json(game, ("heroes", "scoundrels", "elements"), fill=5)
    state = game.new_initial_state(seed=9, setup=setup)
    rng = random.Random(9)
    actions: list[Any] = []
    while not state.is_terminal() and len(actions) < 300:
        action = rng.choice(state.legal_action_list())
        actions.append(str(action))
        state.apply(action)
    again = game.new_initial_state(seed=9, setup=state.setup())
    for text in actions:
        again.apply_notation(text)
    assert again.observation(0) == state.observation(0)
