"""Helpers for Trivinity's tests: concrete positions built through the documented setup JSON."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from triverse.core.events import Event
from triverse.games.trivinity.engine import TrivinityAction, TrivinityGame, TrivinityState

STARTERS = ("power", "mana", "tribute")


def setup_json(
    game: TrivinityGame,
    modules: Sequence[str],
    order: Sequence[int] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    decks: Mapping[int, Sequence[str]] | None = None,
    discards: Mapping[int, Sequence[str]] | None = None,
    stacks: Mapping[int, Sequence[str] | tuple[Sequence[str], int]] | None = None,
    limbo: Sequence[str] = (),
    fill: int = 3,
) -> dict[str, Any]:
    """A complete setup: what is given, and every other card placed somewhere.

    Each player's missing starting cards go to the bottom of their deck; the stacks not given get
    up to ``fill`` cards of their tier; every other card goes face down to Limbo.
    """
    table = game.table
    n = game.num_players
    hands, decks, discards, stacks = hands or {}, decks or {}, discards or {}, stacks or {}
    left = Counter(table.card(i).key for i in table.in_play(modules, n))
    players = []
    for q in range(n):
        hand, deck, discard = list(hands.get(q, [])), list(decks.get(q, [])), \
            list(discards.get(q, []))
        players.append({"hand": hand, "deck": deck, "discard": discard})
        left.subtract(hand + deck + discard)
    for q in range(n):
        used = Counter(players[q]["hand"] + players[q]["deck"] + players[q]["discard"])
        for key in STARTERS:
            extra = max(0, min(4 - used[key], left[key]))
            players[q]["deck"] += [key] * extra
            left[key] -= extra
    grid: list[Any] = []
    for s in range(1, 10):
        if s in stacks:
            given = stacks[s]
            if isinstance(given, tuple):
                cards, buried = list(given[0]), given[1]
                grid.append({"cards": cards, "buried": buried})
            else:
                cards = list(given)
                grid.append(cards)
            left.subtract(cards)
        else:
            grid.append(None)
    left.subtract(limbo)
    for s in range(9):
        if grid[s] is None:
            tier = s // 3 + 1
            pick = [k for k in sorted(left) if left[k] > 0 and table.design(k).tier == tier]
            cards = []
            for key in pick:
                while left[key] > 0 and len(cards) < fill:
                    cards.append(key)
                    left[key] -= 1
            grid[s] = cards
    rest = list(limbo) + sorted(left.elements())
    assert all(v >= 0 for v in left.values()), left
    return {"modules": list(modules), "order": list(order or range(n)), "players": players,
            "stacks": grid, "limbo": rest}


def position(modules: Sequence[str] = ("heroes", "scoundrels"), players: int = 2,
             options: Mapping[str, object] | None = None, seed: int = 1,
             **kwargs: Any) -> TrivinityState:
    game = TrivinityGame(players, options)
    return game.new_initial_state(seed=seed, setup=setup_json(game, modules, **kwargs))


def act(state: TrivinityState, *texts: str) -> list[Event]:
    """Apply actions in notation (checked); return all their events."""
    events: list[Event] = []
    for text in texts:
        events.extend(state.apply(state.parse_action(text)))
    return events


def keys(state: TrivinityState, cards: Sequence[int]) -> list[str]:
    return [state.card(c).key for c in cards]


def hand(state: TrivinityState, player: int = 0) -> list[str]:
    return keys(state, state.hands[player])


def slot(state: TrivinityState, key: str, player: int | None = None) -> int:
    """The 1-based hand slot of a card."""
    p = state.current_player if player is None else player
    assert p is not None
    return hand(state, p).index(key) + 1


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def zones(state: TrivinityState) -> list[int]:
    """Every card in every zone, once each if cards are conserved."""
    cards: list[int] = []
    for q in range(len(state.order)):
        cards += (state.hands[q] + state.decks[q] + state.discards[q] + state.played[q]
                  + state.delayed[q])
    for stack in state.stacks:
        cards += stack
    return cards + state.limbo_up + state.limbo_down


def random_game(game: TrivinityGame, seed: int, check: Any = None,
                max_actions: int | None = None) -> TrivinityState:
    """Play uniformly random legal actions from ``seed``; call ``check(state, events)``."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        action: TrivinityAction = rng.choice(state.legal_action_list())
        events = state.apply(action)
        if check is not None:
            check(state, events)
        if max_actions is not None and len(state.history) >= max_actions:
            break
    return state
