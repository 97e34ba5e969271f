"""A Trivinity opening given explicitly: the JSON form of ``docs/rules/trivinity.md``.

Every card of the game is placed exactly once, by key: in a player's hand, deck or discard
pile, in a stack of its tier, or face down in Limbo. Lists of piles give the top card last
(as the state keeps them); a stack may be an object with its ``cards`` and how many face-up
cards are ``buried`` at its bottom.

>>> from triverse import load_game
>>> game = load_game("trivinity", module_1="heroes", module_2="zodiac")
>>> try:
...     game.new_initial_state(seed=1, setup={"modules": ["heroes"]})
... except RecordError as error:
...     print(error)
setup 'modules' must list 2 modules, one per seat, from heroes, scoundrels, zodiac, elements, \
world, disasters, servants
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from triverse.core.errors import RecordError
from triverse.games.trivinity.cards import CardTable
from triverse.games.trivinity.rules import MODULE_CHOICES, STACKS
from triverse.games.trivinity.state import TrivinityState
from triverse.games.trivinity.turns import start_turn

if TYPE_CHECKING:
    from triverse.games.trivinity.engine import TrivinityGame

FIELDS = ("limbo", "modules", "order", "players", "stacks")
"""The fields of a set-up object."""
PLAYER_FIELDS = ("hand", "deck", "discard")
"""The fields of each player's object."""


def state_from_setup(game: TrivinityGame, seed: int, setup: Mapping[str, Any]) -> TrivinityState:
    """Build the opening given in ``setup`` (the JSON form of docs/rules/trivinity.md)."""
    n = game.num_players
    extra = set(setup) - set(FIELDS)
    if extra:
        raise RecordError(f"setup has an unknown field {sorted(extra)[0]!r}; its fields are "
                          f"{', '.join(FIELDS)}")
    modules = _modules(game, setup.get("modules"))
    order = setup.get("order", list(range(n)))
    if not isinstance(order, list) or sorted(order) != list(range(n)):
        raise RecordError(f"setup 'order' must be the seats 0 to {n - 1} in turn order, not "
                          f"{order!r}")
    state = TrivinityState(game, seed, tuple(modules), tuple(order))
    cards = _Cards(game.table, modules, n)
    _place_players(state, cards, setup.get("players"))
    _place_stacks(state, cards, setup.get("stacks"))
    state.limbo_down = sorted(cards.take(setup.get("limbo", []), "limbo"))
    cards.check_all_placed()
    for q in range(n):
        state.totals[q] = [0, 0, 0, 0, 0]
        for c in state.hands[q] + state.decks[q] + state.discards[q]:
            state._owned(q, game.table.card(c), 1)
    state._setup = dict(setup)
    start_turn(state, order[0], [])
    return state


def _modules(game: TrivinityGame, modules: object) -> list[str]:
    """The seats' modules, checked against the game's module options."""
    n = game.num_players
    if (not isinstance(modules, list) or len(modules) != n
            or not all(m in MODULE_CHOICES[1:] for m in modules)):
        raise RecordError(f"setup 'modules' must list {n} modules, one per seat, from "
                          f"{', '.join(MODULE_CHOICES[1:])}")
    for seat, module in enumerate(modules):
        chosen = game.options[f"module_{seat + 1}"]
        if chosen not in ("random", module):
            raise RecordError(f"setup gives seat {seat + 1} the module {module!r}, but the "
                              f"option module_{seat + 1} is {chosen!r}")
    return modules


class _Cards:
    """The game's physical cards still to be placed, by design."""

    def __init__(self, table: CardTable, modules: list[str], players: int) -> None:
        self.table = table
        self.left: dict[int, list[int]] = {}
        for i in table.in_play(modules, players):
            self.left.setdefault(table.design_of[i], []).append(i)
        self.in_game = {design: len(cards) for design, cards in self.left.items()}
        for cards in self.left.values():
            cards.reverse()

    def take(self, keys: object, where: str) -> list[int]:
        """A card id for each key of ``keys`` (the setup's place ``where``)."""
        table = self.table
        if not isinstance(keys, list):
            raise RecordError(f"setup {where} must be a list of card keys")
        out = []
        for key in keys:
            if not isinstance(key, str) or key not in table.by_key:
                raise RecordError(f"setup {where}: unknown card {key!r}")
            design = table.by_key[key]
            if design not in self.left:
                raise RecordError(f"setup {where}: {key!r} belongs to the "
                                  f"{table.designs[design].module} module, which is not in "
                                  f"this game")
            if not self.left[design]:
                raise RecordError(f"setup {where}: {key!r} is placed more often than the "
                                  f"{self.in_game[design]} copies this game has")
            out.append(self.left[design].pop())
        return out

    def check_all_placed(self) -> None:
        missing = [self.table.designs[d].key for d, left in self.left.items() for _ in left]
        if missing:
            raise RecordError(f"setup does not place every card: missing "
                              f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''} "
                              f"(every card of the game is in exactly one place)")


def _place_players(state: TrivinityState, cards: _Cards, players: object) -> None:
    n = len(state.order)
    if not isinstance(players, list) or len(players) != n:
        raise RecordError(f"setup 'players' must be a list of {n} objects")
    for q, raw in enumerate(players):
        if not isinstance(raw, dict) or set(raw) - set(PLAYER_FIELDS):
            raise RecordError(f"setup players[{q}] is an object with 'hand', 'deck' and "
                              f"'discard'")
        state.hands[q] = sorted(cards.take(raw.get("hand", []), f"players[{q}].hand"))
        state.decks[q] = cards.take(raw.get("deck", []), f"players[{q}].deck")[::-1]
        state.discards[q] = cards.take(raw.get("discard", []), f"players[{q}].discard")[::-1]


def _place_stacks(state: TrivinityState, cards: _Cards, stacks: object) -> None:
    table = state.table
    if not isinstance(stacks, list) or len(stacks) != STACKS:
        raise RecordError("setup 'stacks' must be a list of 9 stacks, stacks 1-3 (tier 1) "
                          "first")
    for s, raw in enumerate(stacks):
        buried: object = 0
        if isinstance(raw, dict):
            buried = raw.get("buried", 0)
            raw = raw.get("cards")
        ids = cards.take(raw, f"stacks[{s}]")[::-1]
        if not isinstance(buried, int) or not 0 <= buried <= max(len(ids) - 1, 0):
            raise RecordError(f"setup stacks[{s}].buried counts the face-up cards under the "
                              f"top: 0 to {max(len(ids) - 1, 0)}, not {buried!r}")
        for c in ids:
            if table.card(c).tier != s // 3 + 1:
                raise RecordError(f"setup stacks[{s}]: {table.card(c).key!r} is tier "
                                  f"{table.card(c).tier}, and stack {s + 1} holds tier "
                                  f"{s // 3 + 1}")
        state.stacks[s] = ids
        state.buried[s] = buried
