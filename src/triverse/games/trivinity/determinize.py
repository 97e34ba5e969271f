"""A full Trivinity state from what one seat sees: the unseen cards dealt at random.

>>> import random
>>> from triverse import load_game
>>> game = load_game("trivinity")
>>> state = game.new_initial_state(seed=3)
>>> sample = determinize(game, state.observation(0), random.Random(1))
>>> sample.hands[0] == state.hands[0], sorted(sample.hands[1] + sample.decks[1]) == sorted(
...     state.hands[1] + state.decks[1])
(True, True)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from triverse.core.rng import fresh_seed
from triverse.games.trivinity.observation import TrivinityObservation
from triverse.games.trivinity.state import TrivinityState

if TYPE_CHECKING:
    from triverse.games.trivinity.engine import TrivinityGame


def determinize(game: TrivinityGame, obs: TrivinityObservation,
                rng: random.Random) -> TrivinityState:
    """A full state consistent with ``obs``: the unseen parts dealt at random from ``rng``."""
    state = TrivinityState(game, fresh_seed(rng), obs.modules, obs.order)
    state.scores = list(obs.scores)
    _deal_players(state, obs, rng)
    unseen = _unseen(state, obs)
    rng.shuffle(unseen)
    _deal_stacks(state, obs, unseen)
    state.limbo_up = list(obs.limbo_up)
    state.limbo_down = sorted(unseen)
    if len(state.limbo_down) != obs.limbo_down:
        raise ValueError(f"the observation does not add up: {len(state.limbo_down)} unseen "
                         f"cards are left for {obs.limbo_down} face-down Limbo cards")
    if obs.player is not None:
        state.known[obs.player] = frozenset(c for v in obs.stacks for _, c in v.known)
    _copy_turn(state, obs)
    return state


def _deal_players(state: TrivinityState, obs: TrivinityObservation, rng: random.Random) -> None:
    """Public piles as seen; the viewer's deck shuffled; each other seat's hand and deck dealt
    from the cards they hold in both."""
    for q in range(obs.num_players):
        state.discards[q] = list(obs.discards[q])
        state.played[q] = list(obs.played[q])
        state.delayed[q] = list(obs.delayed[q])
        state.totals[q] = list(obs.totals[q])
        if q == obs.player:
            state.hands[q] = list(obs.hand)
            deck = list(obs.own_deck)
            rng.shuffle(deck)
            state.decks[q] = deck
        else:
            cards = list(obs.hidden[q])
            rng.shuffle(cards)
            state.hands[q] = sorted(cards[:obs.hand_sizes[q]])
            state.decks[q] = cards[obs.hand_sizes[q]:]


def _unseen(state: TrivinityState, obs: TrivinityObservation) -> list[int]:
    """The game's cards that are in no zone the players have dealt so far or the grid shows."""
    seen: set[int] = set(obs.limbo_up)
    for q in range(obs.num_players):
        for zone in (state.hands[q], state.decks[q], state.discards[q], state.played[q],
                     state.delayed[q]):
            seen.update(zone)
    for view in obs.stacks:
        seen.update(view.buried)
        seen.update(c for _, c in view.known)
        if view.top >= 0:
            seen.add(view.top)
    return [c for c in state.table.in_play(obs.modules, obs.num_players) if c not in seen]


def _deal_stacks(state: TrivinityState, obs: TrivinityObservation, unseen: list[int]) -> None:
    """Each stack as seen, its face-down cards the known ones or dealt from ``unseen``."""
    for s, view in enumerate(obs.stacks):
        if view.count == 0:
            continue
        known = dict(view.known)
        middle = [known[depth] if depth in known else unseen.pop()
                  for depth in range(view.face_down, 0, -1)]
        state.stacks[s] = [*view.buried, *middle, view.top]
        state.buried[s] = len(view.buried)


def _copy_turn(state: TrivinityState, obs: TrivinityObservation) -> None:
    """The turn, the pool and the effects under way, as seen."""
    state.shuffles = list(obs.shuffles)
    state.turns = list(obs.turns)
    state.turn_number = obs.turn_number
    state.turn_index = obs.order.index(obs.turn_player)
    state.pool = list(obs.pool)
    state.discount = obs.discount
    state.phase = obs.phase
    state.played_any = obs.played_any
    state.free_used = obs.free_used
    state.frames = list(obs.frames)
    state.pending = obs.pending
    state.over = obs.over
    state.end_reason = dict(obs.end_reason)
    state.ending = obs.ending
