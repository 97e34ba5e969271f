"""Trivinity: the rules engine (seed ``002_c825b3f57a62bffb.txt``).

A deck-building game of gods for 2-4 players. Each player starts with 4 Power, 4 Mana and 4
Tribute cards and a hand of 5, and buys cards from a 3x3 grid of stacks (row 1 tier 1, row 2
tier 2, row 3 tier 3). The game ends as soon as three empty stacks form a line; each player
scores their two best resource totals plus 1 per tier-2 and 3 per tier-3 card.

A turn is several actions by the same player (``docs/notation.md``)::

    play 2, discard 1, discard-all, buy 7, end
    stack 4, card 1, seat 2, resource mana, limbo 1, block 3, pass     (answers to effects)

An effect that needs a choice leaves a *pending decision*: the current player becomes whoever
must decide (an attacked opponent decides whether to block, and what to discard).

This module holds :class:`TrivinityGame`; the rest of the engine is in modules named for what
they hold, and the names other code uses are re-exported here:

- :mod:`.rules`: the grid, phases, effect frames, paying and scoring (constants and pure rules);
- :mod:`.actions`: :class:`TrivinityAction`, its notation and its ids;
- :mod:`.state`: :class:`TrivinityState`, its zones and the moves between them;
- :mod:`.legal`: the legal actions, and why an action is not legal;
- :mod:`.turns`: playing, discarding, buying, ending a turn, answering a question;
- :mod:`.effects`: the card effects, one handler per step op in a table;
- :mod:`.observation` and :mod:`.determinize`: what a seat sees, and a state sampled from it;
- :mod:`.setup`: an explicit opening (the JSON set-up).

>>> game = TrivinityGame(2, {"module_1": "heroes", "module_2": "zodiac"})
>>> state = game.new_initial_state(seed=7)
>>> state.modules
('heroes', 'zodiac')
>>> len(state.hands[0]), len(state.decks[0]), [len(s) for s in state.stacks]
(5, 7, [8, 8, 8, 6, 6, 6, 4, 4, 4])
>>> while not state.is_terminal():
...     _ = state.apply(next(state.legal_actions()))   # the first legal action, always
>>> sum(state.scores) > 0 and state.result().winners != ()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from triverse.core.game import Game, Observation
from triverse.core.messages import Text
from triverse.core.options import OptionSpec
from triverse.core.rng import derive
from triverse.games.trivinity.actions import TrivinityAction, num_action_ids, parse_action
from triverse.games.trivinity.cards import CardTable, load_table
from triverse.games.trivinity.determinize import determinize
from triverse.games.trivinity.messages import MESSAGES
from triverse.games.trivinity.observation import StackView, TrivinityObservation
from triverse.games.trivinity.rules import (
    BUY,
    DEFAULT_TURN_LIMIT,
    DELAYED,
    HAND_SIZE,
    LINES,
    MAIN,
    MODULE_CHOICE_LABELS,
    MODULE_CHOICES,
    MODULE_LABELS,
    PENDING_KINDS,
    PLAY,
    REACTION,
    STACKS,
    Frame,
    Pending,
    affordable,
    frame_steps,
    pay,
    score_breakdown,
    total_score,
)
from triverse.games.trivinity.setup import state_from_setup
from triverse.games.trivinity.state import TrivinityState
from triverse.games.trivinity.text import card_text
from triverse.games.trivinity.turns import start_turn

__all__ = [
    "BUY", "DEFAULT_TURN_LIMIT", "DELAYED", "HAND_SIZE", "LINES", "MAIN", "MODULE_CHOICES",
    "PENDING_KINDS", "PLAY", "REACTION", "STACKS", "Frame", "Pending", "StackView",
    "TrivinityAction", "TrivinityGame", "TrivinityObservation", "TrivinityState", "affordable",
    "frame_steps", "parse_action", "pay", "score_breakdown", "total_score",
]


# --- the game ------------------------------------------------------------------------------
class TrivinityGame(Game["TrivinityState", TrivinityAction]):
    """Trivinity for 2-4 players; one module per seat is added to the core set.

    >>> TrivinityGame(3, {"module_1": "world"}).option("module_1")
    'world'
    """

    name: ClassVar[str] = "trivinity"
    title: ClassVar[str] = "Trivinity"
    messages = MESSAGES
    summary: ClassVar[str] = (
        "A deck-building game of gods: gather Power, Mana and Tribute and buy from a 3x3 grid "
        "of stacks."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 2
    variants: ClassVar[Mapping[str, str]] = {
        "seed": "The seed's rules: the game ends the moment three empty stacks form a line.",
        "full-rounds": "The game ends at the end of the round in which three empty stacks "
                       "form a line, so that every player has had as many turns.",
    }
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("variant", str, "seed", "Rules variant", choices=tuple(variants),
                   label="Rules", choice_labels={
                       "seed": ("This app's rules", "The game ends the moment three empty "
                                "stacks form a line."),
                       "full-rounds": ("Full rounds", "The round is finished when three "
                                       "empty stacks form a line: everyone has as many "
                                       "turns."),
                   }),
        *(OptionSpec(f"module_{seat}", str, "random",
                     f"The module seat {seat} adds to the core set (random: one no other "
                     f"seat has)", choices=MODULE_CHOICES, label=MODULE_LABELS[seat - 1],
                     choice_labels=MODULE_CHOICE_LABELS) for seat in range(1, 5)),
        OptionSpec("turn_limit", int, DEFAULT_TURN_LIMIT,
                   "Safety rule: the game also ends after every player has had this many turns",
                   minimum=5, maximum=200, label="Turn limit (turns each)"),
    )

    @classmethod
    def texts(cls) -> Iterator[Text]:
        """The game's texts, and every card's name and rules text (contexts ``trivinity:name``
        and ``trivinity:card``)."""
        yield from super().texts()
        for card in load_table().designs:
            yield Text("trivinity:name", card.name)
            if text := card_text(card):
                yield Text("trivinity:card", text)

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        super().__init__(players, options)
        self.table: CardTable = load_table()
        self.turn_limit = int(self.options["turn_limit"])
        self.full_rounds = self.options["variant"] == "full-rounds"

    # --- set-up --------------------------------------------------------------------------
    def choose_modules(self, seed: int) -> tuple[str, ...]:
        """Each seat's module: its option, or for ``random`` one that no other seat has (drawn
        from the seed)."""
        chosen = [str(self.options[f"module_{seat + 1}"]) for seat in range(self.num_players)]
        free = [m for m in MODULE_CHOICES[1:] if m not in chosen]
        rng = derive(seed, "modules")
        rng.shuffle(free)
        return tuple(free.pop() if m == "random" else m for m in chosen)

    def seed_opening(self, seed: int) -> TrivinityState:
        """The opening ``seed`` deals, before anyone draws: the modules, the order of play
        (``derive(seed, "order")``), each starting deck shuffled with ``derive(seed,
        "shuffle", p, 0)``, each tier's cards shuffled with ``derive(seed, "deal", tier)`` and
        dealt round the tier's three stacks, the rest face down in Limbo."""
        modules = self.choose_modules(seed)
        order = list(range(self.num_players))
        derive(seed, "order").shuffle(order)
        state = TrivinityState(self, seed, modules, tuple(order))
        for p, cards in enumerate(self.table.starters(self.num_players)):
            derive(seed, "shuffle", p, 0).shuffle(cards)
            state.decks[p] = cards
            state.shuffles[p] = 1
        for tier in (1, 2, 3):
            cards = self.table.tier_cards(modules, tier)
            derive(seed, "deal", tier).shuffle(cards)
            per_stack = len(cards) // 3
            for i, card in enumerate(cards):
                if i < per_stack * 3:
                    state.stacks[(tier - 1) * 3 + i % 3].append(card)
                else:
                    state.limbo_down.append(card)
        state.limbo_down.sort()
        return state

    def _initial_state(self, seed: int, setup: Mapping[str, Any] | None) -> TrivinityState:
        if setup is not None:
            return state_from_setup(self, seed, setup)
        n = self.num_players
        state = self.seed_opening(seed)
        order = state.order
        for p in range(n):
            state._draw(p, HAND_SIZE, [])
        start_turn(state, order[0], [])
        return state

    # --- notation and ids ----------------------------------------------------------------
    def parse_action(self, text: str) -> TrivinityAction:
        return parse_action(text)

    @property
    def num_distinct_actions(self) -> int:
        return num_action_ids(self.table.size)

    @property
    def max_game_length(self) -> int:
        """A true bound: the turn limit times the most actions one turn can take.

        In one turn each card can be played once and resolved once more if delayed; cards enter
        the hand only by the 5-card hand and by draws, so discards are bounded; each resolution
        asks at most ``decisions`` questions (attacks included); purchases are bounded by the
        cards in the stacks.
        """
        table = self.table
        cards = table.size
        opponents = self.num_players - 1
        most_draws = 0
        decisions = 0
        for design, card in enumerate(table.designs):
            draws = sum(s.n for s in card.steps if s.op == "draw")
            most_draws = max(most_draws, draws)
            asks = 0
            for k, step in enumerate(card.steps):
                if step.is_choice:
                    asks += 1
                elif step.op == "attack":
                    asks += 1 + opponents * len(frame_steps(table, design, k))
            decisions = max(decisions, asks)
        # A card played and sent to Limbo by its own effect may be brought back and played again,
        # once per revive: there are fewer than 8 reviving cards, hence the slack.
        per_turn = (cards + 8) * (3 + most_draws + 2 * decisions) + 3
        return self.turn_limit * self.num_players * per_turn

    @property
    def tensor_size(self) -> int:
        d = len(self.table.designs)
        return 46 * d + 82

    @property
    def min_score(self) -> int:
        return 0

    @property
    def max_score(self) -> int:
        table = self.table
        return sum(table.card(i).worth_total + {2: 1, 3: 3}.get(table.card(i).tier, 0)
                   for i in range(table.size))

    def determinize(self, observation: Any, rng: random.Random) -> TrivinityState:
        if not isinstance(observation, TrivinityObservation):
            raise TypeError("determinize needs a TrivinityObservation")
        return determinize(self, observation, rng)

    def render_text(self, observation: Observation) -> str:
        from triverse.games.trivinity.render import render_observation

        assert isinstance(observation, TrivinityObservation)
        return render_observation(self, observation)

    def describe_action(self, action: TrivinityAction) -> str:
        from triverse.games.trivinity.render import describe

        return describe(action)

    def client_data(self) -> dict[str, Any]:
        """The card table, for clients: observations name cards by id only."""
        return {"cards": self.card_catalogue()}

    def card_catalogue(self) -> list[dict[str, Any]]:
        """Every physical card by id, for clients: key, name, module, tier, cost, worth, text."""
        from triverse.games.trivinity.render import card_json

        return [card_json(self.table, i) for i in range(self.table.size)]
