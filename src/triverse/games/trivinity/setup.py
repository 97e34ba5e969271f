"""A Trivinity opening given explicitly: the JSON form of ``docs/rules/trivinity.md``.

Every card of the game is placed exactly once, by key: in a player's hand, deck or discard
pile, in a stack of its tier, or face down in Limbo. Piles list their top card first; a stack
may be an object with its ``cards`` and how many face-up cards are ``buried`` at its bottom.

The shape is declared (:func:`setup_schema`) and checked by :mod:`triverse.core.schema`, which
names the path of a bad part; the checks that need the whole position (the seats' module
options, every card once, each stack's tier, the buried counts) follow, naming the path too.

>>> from triverse import load_game
>>> game = load_game("trivinity", module_1="heroes", module_2="zodiac")
>>> try:
...     game.new_initial_state(seed=1, setup={"modules": ["heroes", "zodiac"],
...                            "players": [{}, {}], "stacks": [[]] * 9, "limbo": ["zeus"]})
... except RecordError as error:
...     print(error)
setup.limbo[0]: expected a card key such as 'power' or 'divine-forge', got 'zeus'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from triverse.core.errors import RecordError
from triverse.core.schema import AnyOf, Choice, Fields, Integer, ListOf, Parsed, validate
from triverse.games.trivinity.cards import CardTable
from triverse.games.trivinity.rules import MODULE_CHOICES, STACKS
from triverse.games.trivinity.state import TrivinityState
from triverse.games.trivinity.turns import start_turn

if TYPE_CHECKING:
    from triverse.games.trivinity.engine import TrivinityGame

MODULES = MODULE_CHOICES[1:]
"""The modules a setup may name (``random`` is an option, not a module)."""


def setup_schema(game: TrivinityGame) -> Fields:
    """The shape of a setup for ``game`` (its player count and card table).

    Card keys come back as design indices; stacks as ``{"cards": ..., "buried": ...}``.
    """
    n = game.num_players
    by_key = game.table.by_key

    def design(key: str) -> int:
        if key not in by_key:
            raise ValueError()  # "expected a card key" says it all
        return by_key[key]

    card = Parsed(design, "a card key such as 'power' or 'divine-forge'")
    pile = ListOf(card, what="a list of card keys, the top card first")
    player = Fields(optional={"hand": pile, "deck": pile, "discard": pile})
    stack = AnyOf(pile, Fields(required={"cards": pile}, optional={"buried": Integer(minimum=0)}),
                  what="a stack: a list of card keys, or an object with 'cards' and 'buried'")
    return Fields(
        required={
            "modules": ListOf(Choice(MODULES), length=n, what=f"a list of {n} modules, one per "
                              f"seat, from {', '.join(MODULES)}"),
            "players": ListOf(player, length=n, what=f"a list of {n} players, one per seat"),
            "stacks": ListOf(stack, length=STACKS, what="a list of 9 stacks, stacks 1-3 (tier 1) "
                             "first"),
        },
        optional={
            "order": ListOf(Integer(minimum=0, maximum=n - 1, what=f"a seat 0 to {n - 1}"),
                            length=n, unique=True,
                            what=f"the seats 0 to {n - 1}, each once, in turn order"),
            "limbo": pile,
        },
    )


def state_from_setup(game: TrivinityGame, seed: int, setup: Mapping[str, Any]) -> TrivinityState:
    """Build the opening given in ``setup`` (the JSON form of docs/rules/trivinity.md)."""
    n = game.num_players
    given = validate(setup_schema(game), setup, "setup")
    modules: list[str] = given["modules"]
    for seat, module in enumerate(modules):
        chosen = game.options[f"module_{seat + 1}"]
        if chosen not in ("random", module):
            raise RecordError(f"setup.modules[{seat}]: seat {seat + 1} is given the module "
                              f"{module!r}, but the option module_{seat + 1} is {chosen!r}")
    order: list[int] = given.get("order", list(range(n)))
    state = TrivinityState(game, seed, tuple(modules), tuple(order))
    cards = _Cards(game.table, modules, n)
    for q, player in enumerate(given["players"]):
        where = f"setup.players[{q}]"
        state.hands[q] = sorted(cards.take(player.get("hand", []), f"{where}.hand"))
        state.decks[q] = cards.take(player.get("deck", []), f"{where}.deck")[::-1]
        state.discards[q] = cards.take(player.get("discard", []), f"{where}.discard")[::-1]
    for s, stack in enumerate(given["stacks"]):
        _place_stack(state, cards, s, stack)
    state.limbo_down = sorted(cards.take(given.get("limbo", []), "setup.limbo"))
    cards.check_all_placed()
    for q in range(n):
        state.totals[q] = [0, 0, 0, 0, 0]
        for c in state.hands[q] + state.decks[q] + state.discards[q]:
            state._owned(q, game.table.card(c), 1)
    state._setup = dict(setup)
    start_turn(state, order[0], [])
    return state


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

    def take(self, designs: list[int], where: str) -> list[int]:
        """A physical card for each design of the pile at ``where``, in the same order."""
        out = []
        for i, design in enumerate(designs):
            key = self.table.designs[design].key
            if design not in self.left:
                raise RecordError(f"{where}[{i}]: {key!r} belongs to the "
                                  f"{self.table.designs[design].module} module, which is not "
                                  f"in this game")
            if not self.left[design]:
                raise RecordError(f"{where}[{i}]: {key!r} is placed more often than the "
                                  f"{self.in_game[design]} copies this game has")
            out.append(self.left[design].pop())
        return out

    def check_all_placed(self) -> None:
        missing = [self.table.designs[d].key for d, left in self.left.items() for _ in left]
        if missing:
            raise RecordError(f"setup does not place every card: missing "
                              f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''} "
                              f"(every card of the game is in exactly one place)")


def _place_stack(state: TrivinityState, cards: _Cards, s: int,
                 stack: list[int] | dict[str, Any]) -> None:
    """Stack ``s`` (0-based) from the setup: its cards of its tier, and its buried count."""
    table = state.table
    where = f"setup.stacks[{s}]"
    buried = 0
    designs: list[int]
    if isinstance(stack, dict):
        buried = stack.get("buried", 0)
        designs = stack["cards"]
        where += ".cards"
    else:
        designs = stack
    ids = cards.take(designs, where)
    tier = s // 3 + 1
    for i, c in enumerate(ids):
        if table.card(c).tier != tier:
            raise RecordError(f"{where}[{i}]: {table.card(c).key!r} is tier "
                              f"{table.card(c).tier}, and stack {s + 1} holds tier {tier}")
    most = max(len(ids) - 1, 0)
    if buried > most:
        raise RecordError(f"setup.stacks[{s}].buried: expected a whole number from 0 to "
                          f"{most} (the face-up cards under the top), got {buried}")
    state.stacks[s] = ids[::-1]
    state.buried[s] = buried


def deal_json(state: TrivinityState) -> dict[str, Any]:
    """The game's deal (:meth:`State.deal <triverse.core.game.State.deal>`): the ``modules``,
    the ``order`` of play, each seat's ``hand`` (empty when the seed deals: the hand is the
    top five of the deck) and ``deck`` top first, the nine ``stacks`` top first and the face-down
    ``limbo``, by card key. A deck that runs out is reshuffled later with ``derive(seed,
    "shuffle", p, k)``."""
    game = state.game
    setup = state.setup()
    if setup is None:
        opening = game.seed_opening(state.seed)
    else:
        opening = state_from_setup(game, state.seed, setup)
    key = game.table.card

    def keys(cards: list[int]) -> list[str]:
        return [key(c).key for c in cards]

    return {"modules": list(opening.modules), "order": list(opening.order),
            "hands": [keys(h) for h in opening.hands],
            "decks": [keys(d[::-1]) for d in opening.decks],
            "stacks": [keys(s[::-1]) for s in opening.stacks],
            "limbo": keys(opening.limbo_down)}
