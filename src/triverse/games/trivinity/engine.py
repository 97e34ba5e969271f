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

import bisect
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from triverse.core.errors import IllegalActionError, NotationError, RecordError
from triverse.core.events import Event
from triverse.core.game import Game, Observation, Result, State
from triverse.core.options import OptionSpec
from triverse.core.rng import derive, fresh_seed
from triverse.games.trivinity.cards import (
    RESOURCES,
    Card,
    CardTable,
    Cost,
    Step,
    load_table,
)
from triverse.games.trivinity.text import cost_text, worth_text

HAND_SIZE = 5
STACKS = 9
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
"""The eight lines of the 3x3 grid (stacks numbered 0-8 row by row; 1-9 in notation)."""
PLAY, BUY = "play", "buy"
DEFAULT_TURN_LIMIT = 40

# Frame parts: which list of steps a frame runs (an attack's victim frame uses the attack
# step's index in the card's own steps, 0 or more).
MAIN, REACTION, DELAYED = -1, -2, -3

_WORTH = Step("_worth")
_DEFEND = Step("_defend")
_DISCARD = Step("_discard")

MODULE_CHOICES = ("random", "heroes", "scoundrels", "zodiac", "elements", "world", "disasters",
                  "servants")

PENDING_KINDS = ("stack", "card", "seat", "resource", "limbo", "block", "free")
"""What a pending decision asks for; ``free`` is the free tier-1 card after discarding a hand."""

# Action kinds whose argument is a number (1-based), and those without one.
_NUMBERED = ("play", "discard", "card", "block", "limbo", "buy", "stack", "seat")
_BARE = ("discard-all", "pass", "end")
_ANSWERS = {"stack": "stack", "free": "stack", "card": "card", "seat": "seat",
            "resource": "resource", "limbo": "limbo", "block": "block"}


# --- actions -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TrivinityAction:
    """One action. ``arg`` is 1-based for hand slots, stacks, seats and Limbo cards, and the
    resource index (0 Power, 1 Mana, 2 Tribute) for ``resource``.

    >>> str(TrivinityAction("buy", 7)), str(TrivinityAction("resource", 1))
    ('buy 7', 'resource mana')
    """

    kind: str
    arg: int = 0

    def __str__(self) -> str:
        if self.kind in _BARE:
            return self.kind
        if self.kind == "resource":
            return f"resource {RESOURCES[self.arg]}"
        return f"{self.kind} {self.arg}"


def parse_action(text: str) -> TrivinityAction:
    """Read an action's notation (syntax only).

    >>> parse_action("  Play 3 "), parse_action("resource t")
    (TrivinityAction(kind='play', arg=3), TrivinityAction(kind='resource', arg=2))
    >>> parse_action("buy ten")
    Traceback (most recent call last):
    ...
    triverse.core.errors.NotationError: 'buy ten': buy takes a number, as in 'buy 3'
    """
    words = text.strip().lower().split()
    if not words:
        raise NotationError("an empty action; try 'play 1', 'buy 4' or 'end'")
    kind = words[0]
    if kind in _BARE:
        if len(words) != 1:
            raise NotationError(f"{text!r}: {kind} takes nothing after it")
        return TrivinityAction(kind)
    if kind == "resource":
        if len(words) != 2:
            raise NotationError(f"{text!r}: write 'resource power', 'resource mana' or "
                                f"'resource tribute'")
        for i, name in enumerate(RESOURCES):
            if words[1] in (name, name[0]):
                return TrivinityAction("resource", i)
        raise NotationError(f"{text!r}: the resources are power, mana and tribute")
    if kind not in _NUMBERED:
        known = ", ".join((*_NUMBERED, "resource", *_BARE))
        raise NotationError(f"{text!r}: unknown action {kind!r}; the actions are {known}")
    if len(words) != 2 or not words[1].isdigit() or len(words[1]) > 4:
        raise NotationError(f"{text!r}: {kind} takes a number, as in '{kind} 3'")
    number = int(words[1])
    if number < 1:
        raise NotationError(f"{text!r}: numbers start at 1")
    return TrivinityAction(kind, number)


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision an effect waits for: who decides, what kind, and where the effect resumes.

    The legal answers are computed from the state (:meth:`TrivinityState.pending_options`).
    """

    player: int
    kind: str
    optional: bool
    owner: int
    """Whose effect it is (the attacker, for a defence)."""
    card: int
    """The card whose step asks (-1 for the free tier-1 card)."""
    part: int
    index: int
    victim: int = -1


Frame = tuple[int, int, int, int, int]
"""An effect being resolved: (owner, card, part, victim, index of its next step)."""


@cache
def frame_steps(table: CardTable, design: int, part: int) -> tuple[Step, ...]:
    """The steps a frame runs: a card's own steps, a delayed card's (its worth first), a
    reaction's draw, or one attack on one victim (a defence, then the attack's parts)."""
    card = table.designs[design]
    if part == MAIN:
        return card.steps
    if part == DELAYED:
        return (_WORTH, *card.steps)
    if part == REACTION:
        return (Step("draw", n=card.reaction_draw),)
    attack = card.steps[part]
    hits: tuple[Step, ...]
    if attack.kind == "discard":
        hits = (_DISCARD,) * attack.n
    else:
        hits = (Step(f"_{attack.kind}", n=attack.n, max_tier=attack.max_tier),)
    return (_DEFEND, *hits)


def pay(cost: Cost, pool: Sequence[int], discount: int) -> tuple[list[int], int] | None:
    """The pool and discount left after paying ``cost``, or ``None`` if it cannot be paid.

    Typed parts take their own resource; the ``any`` part is first reduced by the discount,
    then paid one unit at a time from the resource the pool holds most of (ties: Power, Mana,
    Tribute).

    >>> pay(Cost(power=2, any=3), [3, 2, 1], 0)
    ([0, 0, 1], 0)
    >>> pay(Cost(mana=1, any=2), [0, 1, 0], 2)
    ([0, 0, 0], 0)
    >>> pay(Cost(power=2), [1, 5, 5], 0) is None
    True
    """
    left = [pool[0] - cost.power, pool[1] - cost.mana, pool[2] - cost.tribute]
    if min(left) < 0:
        return None
    used = min(discount, cost.any)
    generic = cost.any - used
    if left[0] + left[1] + left[2] < generic:
        return None
    for _ in range(generic):
        most = max(range(3), key=lambda r: (left[r], -r))
        left[most] -= 1
    return left, discount - used


def affordable(cost: Cost, pool: Sequence[int], discount: int) -> bool:
    """Whether ``pool`` (with ``discount``) pays ``cost``: the same answer as :func:`pay`.

    >>> affordable(Cost(power=2, any=3), [3, 2, 1], 0), affordable(Cost(power=2), [1, 5, 5], 0)
    (True, False)
    """
    left0 = pool[0] - cost.power
    left1 = pool[1] - cost.mana
    left2 = pool[2] - cost.tribute
    if left0 < 0 or left1 < 0 or left2 < 0:
        return False
    return left0 + left1 + left2 + discount >= cost.any


@cache
def _action(kind: str, arg: int = 0) -> TrivinityAction:
    return TrivinityAction(kind, arg)


_MAX_SLOTS = 512  # more than the cards of the largest game (a test checks it)
_PLAYS = tuple(_action("play", i) for i in range(1, _MAX_SLOTS + 1))
_DISCARDS = tuple(_action("discard", i) for i in range(1, _MAX_SLOTS + 1))
_BUYS = tuple(_action("buy", s) for s in range(1, STACKS + 1))
_DISCARD_ALL, _PASS, _END = _action("discard-all"), _action("pass"), _action("end")


def score_breakdown(totals: Sequence[int]) -> dict[str, Any]:
    """A final score from (Power, Mana, Tribute, tier-2 cards, tier-3 cards) worth totals.

    >>> score_breakdown([7, 4, 9, 2, 1])["score"]
    21
    """
    resources = list(totals[:3])
    best = sorted(range(3), key=lambda r: (-resources[r], r))[:2]
    best_two = resources[best[0]] + resources[best[1]]
    return {"power": resources[0], "mana": resources[1], "tribute": resources[2],
            "best": [RESOURCES[r] for r in best], "best_two": best_two,
            "tier2": totals[3], "tier3": totals[4],
            "score": best_two + totals[3] + 3 * totals[4]}


def total_score(totals: Sequence[int]) -> int:
    """The score of worth totals (Power, Mana, Tribute, tier-2 cards, tier-3 cards).

    >>> total_score([7, 4, 9, 2, 1])
    21
    """
    a, b, c = totals[0], totals[1], totals[2]
    return a + b + c - min(a, b, c) + totals[3] + 3 * totals[4]


# --- the game ------------------------------------------------------------------------------
class TrivinityGame(Game["TrivinityState", TrivinityAction]):
    """Trivinity for 2-4 players; one module per seat is added to the core set.

    >>> TrivinityGame(3, {"module_1": "world"}).option("module_1")
    'world'
    """

    name: ClassVar[str] = "trivinity"
    title: ClassVar[str] = "Trivinity"
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
        OptionSpec("variant", str, "seed", "Rules variant", choices=tuple(variants)),
        *(OptionSpec(f"module_{seat}", str, "random",
                     f"The module seat {seat} adds to the core set (random: one no other "
                     f"seat has)", choices=MODULE_CHOICES) for seat in range(1, 5)),
        OptionSpec("turn_limit", int, DEFAULT_TURN_LIMIT,
                   "Safety rule: the game also ends after every player has had this many turns",
                   minimum=5, maximum=200),
    )

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

    def _initial_state(self, seed: int, setup: Mapping[str, Any] | None) -> TrivinityState:
        if setup is not None:
            return _state_from_setup(self, seed, setup)
        n = self.num_players
        modules = self.choose_modules(seed)
        order = list(range(n))
        derive(seed, "order").shuffle(order)
        state = TrivinityState(self, seed, modules, tuple(order))
        for p, cards in enumerate(self.table.starters(n)):
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
        for p in range(n):
            state._draw(p, HAND_SIZE, [])
        state._start_turn(order[0], [])
        return state

    # --- notation and ids ----------------------------------------------------------------
    def parse_action(self, text: str) -> TrivinityAction:
        return parse_action(text)

    @property
    def num_distinct_actions(self) -> int:
        return 5 * self.table.size + 28

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
        return _determinize(self, observation, rng)

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


# --- the state -----------------------------------------------------------------------------
class TrivinityState(State[TrivinityAction]):
    """One position. Zones are lists of card ids (see :class:`CardTable`); lists of piles keep
    their top card last. Hands are kept sorted, so equal cards sit side by side."""

    game: TrivinityGame

    def __init__(self, game: TrivinityGame, seed: int, modules: tuple[str, ...],
                 order: tuple[int, ...]) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.table = game.table
        self.modules = modules
        self.order = order
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.decks: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.delayed: list[list[int]] = [[] for _ in range(n)]
        self.stacks: list[list[int]] = [[] for _ in range(STACKS)]
        self.buried: list[int] = [0] * STACKS
        """How many face-up cards lie at the bottom of each stack (cycled there)."""
        self.limbo_up: list[int] = []
        self.limbo_down: list[int] = []
        self.known: list[frozenset[int]] = [frozenset()] * n
        """Face-down stack cards each player has looked at."""
        self.totals: list[list[int]] = [[4, 4, 4, 0, 0] for _ in range(n)]
        """Per player: printed Power, Mana, Tribute over all their cards; tier-2; tier-3."""
        self.shuffles: list[int] = [0] * n
        self.turns: list[int] = [0] * n
        self.turn_number = 0
        self.turn_index = 0
        self.pool: list[int] = [0, 0, 0]
        self.discount = 0
        self.phase = PLAY
        self.played_any = False
        self.free_used = False
        self.frames: list[Frame] = []
        self.pending: Pending | None = None
        self.over = False
        self.end_reason: dict[str, Any] = {}
        self.ending: tuple[int, ...] = ()
        """In the full-rounds variant: the line of empty stacks that ends the game at the end of
        this round (stacks numbered 1-9)."""
        self._setup: dict[str, Any] | None = None

    # --- the core contract ---------------------------------------------------------------
    @property
    def turn_player(self) -> int:
        return self.order[self.turn_index]

    @property
    def current_player(self) -> int | None:
        if self.over:
            return None
        if self.pending is not None:
            return self.pending.player
        return self.order[self.turn_index]

    def is_terminal(self) -> bool:
        return self.over

    def setup(self) -> dict[str, Any] | None:
        return None if self._setup is None else dict(self._setup)

    def clone(self) -> TrivinityState:
        other = TrivinityState.__new__(TrivinityState)
        self._copy_base_into(other)
        other.table = self.table
        other.modules = self.modules
        other.order = self.order
        other.hands = [h.copy() for h in self.hands]
        other.decks = [d.copy() for d in self.decks]
        other.discards = [d.copy() for d in self.discards]
        other.played = [d.copy() for d in self.played]
        other.delayed = [d.copy() for d in self.delayed]
        other.stacks = [s.copy() for s in self.stacks]
        other.buried = self.buried.copy()
        other.limbo_up = self.limbo_up.copy()
        other.limbo_down = self.limbo_down.copy()
        other.known = self.known.copy()
        other.totals = [t.copy() for t in self.totals]
        other.shuffles = self.shuffles.copy()
        other.turns = self.turns.copy()
        other.turn_number = self.turn_number
        other.turn_index = self.turn_index
        other.pool = self.pool.copy()
        other.discount = self.discount
        other.phase = self.phase
        other.played_any = self.played_any
        other.free_used = self.free_used
        other.frames = self.frames.copy()
        other.pending = self.pending
        other.over = self.over
        other.end_reason = self.end_reason
        other.ending = self.ending
        other._setup = self._setup
        return other

    def card(self, instance: int) -> Card:
        return self.table.designs[self.table.design_of[instance]]

    def estimate(self, player: int) -> int:
        """The score ``player`` would have if the game ended now (``scores`` stay 0 until the
        end, when the final score events arrive)."""
        return total_score(self.totals[player])

    # --- legal actions -------------------------------------------------------------------
    def pending_options(self) -> list[int]:
        """The legal answers to the pending decision (1-based, or resource indices)."""
        pending = self.pending
        assert pending is not None
        kind = pending.kind
        if kind == "free":
            return [s + 1 for s in range(3) if self.stacks[s]]
        if kind == "resource":
            return [0, 1, 2]
        if kind == "seat":
            return [q + 1 for q in self._opponents(pending.owner)]
        if kind == "block":
            hand = self.hands[pending.player]
            return [i + 1 for i, c in enumerate(hand) if self.card(c).reaction]
        step = self._pending_step(pending)
        return self._choice_options(step, pending.player)

    def _pending_step(self, pending: Pending) -> Step:
        design = self.table.design_of[pending.card]
        return frame_steps(self.table, design, pending.part)[pending.index]

    def _choice_options(self, step: Step, player: int) -> list[int]:
        op = step.op
        if op in ("trash", "_discard"):
            return list(range(1, len(self.hands[player]) + 1))
        if op == "revive":
            return [i + 1 for i, c in enumerate(self.limbo_up)
                    if self.card(c).cost.total <= step.max_cost]
        out = []
        for s in range(STACKS):
            stack = self.stacks[s]
            if not stack or s // 3 + 1 not in step.tiers:
                continue
            if op == "cycle":
                ok = len(stack) >= 2
            elif op == "peek":
                ok = len(stack) - self.buried[s] - 1 >= 1
            elif op == "limbo":
                ok = True
            elif op == "take":
                if step.bottom:
                    ok = self.buried[s] >= 1 and self.card(stack[0]).cost.total <= step.max_cost
                else:
                    ok = self.card(stack[-1]).cost.total <= step.max_cost
            else:  # raise
                ok = self.buried[s] >= 1 and len(stack) >= 2
            if ok:
                out.append(s + 1)
        return out

    def legal_actions(self) -> Iterator[TrivinityAction]:
        return iter(self.legal_action_list())

    def describe_action(self, action: TrivinityAction) -> str:
        """The notation with the card, stack, seat or resource it concerns here.

        >>> from triverse import load_game
        >>> state = load_game("trivinity").new_initial_state(seed=2)
        >>> state.describe_action(state.legal_action_list()[0]).startswith("play 1: ")
        True
        """
        from triverse.games.trivinity.render import note_for

        note = note_for(self, action)
        return f"{action}: {note}" if note else str(action)

    def legal_action_list(self) -> list[TrivinityAction]:
        """The legal actions, as a list (the engine builds them all at once anyway)."""
        if self.over:
            return []
        if self.pending is not None:
            kind = _ANSWERS[self.pending.kind]
            out = [_action(kind, option) for option in self.pending_options()]
            if self.pending.optional:
                out.append(_PASS)
            return out
        hand_size = len(self.hands[self.order[self.turn_index]])
        out = []
        if self.phase == PLAY and hand_size:
            out.extend(_PLAYS[:hand_size])
            out.extend(_DISCARDS[:hand_size])
            out.append(_DISCARD_ALL)
        pool, discount = self.pool, self.discount
        design_of, designs = self.table.design_of, self.table.designs
        for s, stack in enumerate(self.stacks):
            if stack and affordable(designs[design_of[stack[-1]]].cost, pool, discount):
                out.append(_BUYS[s])
        out.append(_END)
        return out

    def illegal_reason(self, action: TrivinityAction) -> str | None:
        if self.over:
            return "the game is over"
        kind, arg = action.kind, action.arg
        pending = self.pending
        if pending is not None:
            asked = _ANSWERS[pending.kind]
            who = f"player {pending.player + 1}"
            if kind == "pass":
                return None if pending.optional else f"{who} must answer: {self._prompt()}"
            if kind != asked:
                alternative = " or pass" if pending.optional else ""
                return (f"{who} is asked to choose ({self._prompt()}): answer with "
                        f"'{asked} N'{alternative}, not {kind}")
            if arg not in self.pending_options():
                return self._why_not_option(pending, arg)
            return None
        if kind in ("stack", "card", "seat", "resource", "limbo", "block", "pass"):
            return f"there is nothing to choose now: '{kind}' answers an effect's question"
        p = self.order[self.turn_index]
        hand = self.hands[p]
        if kind in ("play", "discard", "discard-all"):
            if self.phase != PLAY:
                return "cards are played and discarded before purchases, and you have bought"
            if kind == "discard-all":
                return None if hand else "your hand is empty"
            if not 1 <= arg <= len(hand):
                return self._no_slot(arg, len(hand))
            return None
        if kind == "buy":
            if not 1 <= arg <= STACKS:
                return f"the stacks are numbered 1 to 9, not {arg}"
            stack = self.stacks[arg - 1]
            if not stack:
                return f"stack {arg} is empty"
            card = self.card(stack[-1])
            if pay(card.cost, self.pool, self.discount) is None:
                discount = f" and a discount of {self.discount}" if self.discount else ""
                return (f"you cannot afford {card.name}: it costs {cost_text(card.cost)}, and "
                        f"your pool holds {worth_text(self.pool)}{discount}")
            return None
        if kind == "end":
            return None
        return f"unknown action {kind!r}"

    @staticmethod
    def _no_slot(arg: int, size: int) -> str:
        if size == 0:
            return "the hand is empty"
        return f"the hand has slots 1 to {size}, not {arg}"

    def _why_not_option(self, pending: Pending, arg: int) -> str:
        kind = pending.kind
        if kind in ("card", "block"):
            size = len(self.hands[pending.player])
            if not 1 <= arg <= size:
                return self._no_slot(arg, size)
            if kind == "block":
                return f"the card in slot {arg} is not a reaction card"
        if kind == "seat":
            return f"player {arg} is not an opponent you can target"
        if kind == "limbo":
            if not 1 <= arg <= len(self.limbo_up):
                return f"Limbo has {len(self.limbo_up)} face-up cards, not a card {arg}"
            return f"Limbo card {arg} costs more than this effect allows"
        if kind in ("stack", "free"):
            if not 1 <= arg <= STACKS:
                return f"the stacks are numbered 1 to 9, not {arg}"
            if not self.stacks[arg - 1]:
                return f"stack {arg} is empty"
            if kind == "free":
                return "the free card is a tier-1 card: stacks 1, 2 or 3"
            return f"stack {arg} is not a target of {self._prompt()}"
        return f"{arg} is not one of the choices"

    def _prompt(self) -> str:
        from triverse.games.trivinity.render import prompt

        assert self.pending is not None
        return prompt(self, self.pending)

    # --- applying actions ------------------------------------------------------------------
    def _apply(self, action: TrivinityAction) -> list[Event]:
        events: list[Event] = []
        kind, arg = action.kind, action.arg
        if self.pending is not None:
            self._answer(kind, arg, events)
        elif kind == "play":
            self._play(arg - 1, events)
        elif kind == "discard":
            self._discard_from_hand(arg - 1, events)
        elif kind == "discard-all":
            p = self.turn_player
            cards = self.hands[p]
            self.hands[p] = []
            self.discards[p].extend(cards)
            events.append(Event("discard_all", p, label="Discards the whole hand",
                                data={"cards": cards,
                                      "keys": [self.card(c).key for c in cards]}))
            self._maybe_free_gain(p, events)
        elif kind == "buy":
            self._buy(arg - 1, events)
        elif kind == "end":
            self._end_turn(events)
        if not self.over and self.pending is None and self.frames:
            self._run(events)
        return events

    def _play(self, slot: int, events: list[Event]) -> None:
        p = self.turn_player
        card_id = self.hands[p].pop(slot)
        card = self.card(card_id)
        self.played_any = True
        if card.delayed:
            self.delayed[p].append(card_id)
            events.append(Event("delay", p, label=f"Plays {card.name}: it waits for the next "
                                f"turn", data={"card": card_id, "key": card.key}))
            return
        self.played[p].append(card_id)
        self._add_pool(p, card.worth)
        events.append(Event("play", p, label=f"Plays {card.name} (+{worth_text(card.worth)})",
                            data={"card": card_id, "key": card.key,
                                  "worth": list(card.worth)}))
        if card.steps:
            self.frames.append((p, card_id, MAIN, -1, 0))
            self._run(events)

    def _add_pool(self, p: int, amounts: Sequence[int]) -> None:
        pool = self.pool
        pool[0] += amounts[0]
        pool[1] += amounts[1]
        pool[2] += amounts[2]

    def _discard_from_hand(self, slot: int, events: list[Event]) -> None:
        p = self.turn_player
        card_id = self.hands[p].pop(slot)
        self.discards[p].append(card_id)
        events.append(Event("discard", p, label=f"Discards {self.card(card_id).name}",
                            data={"card": card_id, "key": self.card(card_id).key}))
        self._maybe_free_gain(p, events)

    def _maybe_free_gain(self, p: int, events: list[Event]) -> None:
        if self.hands[p] or self.played_any or self.free_used:
            return
        self.free_used = True
        if not any(self.stacks[s] for s in range(3)):
            events.append(Event("no_target", p, label="No tier-1 card is left to take for free"))
            return
        self.pending = Pending(p, "free", True, p, -1, MAIN, 0)

    def _buy(self, s: int, events: list[Event]) -> None:
        p = self.turn_player
        card_id = self.stacks[s][-1]
        card = self.card(card_id)
        paid = pay(card.cost, self.pool, self.discount)
        assert paid is not None
        self.pool, self.discount = paid
        self.phase = BUY
        self._take_top(s)
        self.discards[p].append(card_id)
        events.append(Event("buy", p, label=f"Buys {card.name} from stack {s + 1}",
                            data={"card": card_id, "key": card.key, "stack": s + 1,
                                  "cost": cost_text(card.cost)}))
        self._owned(p, card, 1)
        self._stack_changed(s, events)

    def _end_turn(self, events: list[Event]) -> None:
        p = self.turn_player
        self.discards[p].extend(self.hands[p])
        self.discards[p].extend(self.played[p])
        self.hands[p] = []
        self.played[p] = []
        self._draw(p, HAND_SIZE, events)
        events.append(Event("end_turn", p, label="Ends the turn"))
        if self.ending and self.turn_index == len(self.order) - 1:
            self._finish(events, {"reason": "line", "line": list(self.ending)})
            return
        limit = self.game.turn_limit
        if all(t >= limit for t in self.turns):
            self._finish(events, {"reason": "turn_limit", "turns": limit})
            return
        self.turn_index = (self.turn_index + 1) % len(self.order)
        self._start_turn(self.order[self.turn_index], events)

    def _start_turn(self, p: int, events: list[Event]) -> None:
        self.turn_index = self.order.index(p)
        self.turn_number += 1
        self.turns[p] += 1
        self.pool = [0, 0, 0]
        self.discount = 0
        self.phase = PLAY
        self.played_any = False
        self.free_used = False
        events.append(Event("turn", p, label=f"Turn {self.turns[p]}",
                            data={"turn": self.turn_number}))
        waiting = self.delayed[p]
        if waiting:
            self.delayed[p] = []
            self.played[p].extend(waiting)
            for card_id in reversed(waiting):
                self.frames.append((p, card_id, DELAYED, -1, 0))
            self._run(events)

    def _answer(self, kind: str, arg: int, events: list[Event]) -> None:
        pending = self.pending
        assert pending is not None
        self.pending = None
        if pending.kind == "free":
            if kind == "stack":
                self._gain_from_stack(pending.player, arg - 1, False, events, "free")
            else:
                events.append(Event("pass", pending.player, label="Takes no free card"))
            return
        if pending.kind == "block":
            if kind == "block":
                self._block(pending, arg - 1, events)
            else:
                events.append(Event("allow", pending.player, label="Does not block"))
            return
        step = self._pending_step(pending)
        if kind == "pass":
            events.append(Event("pass", pending.player, label="Declines"))
            return
        self._resolve_choice(step, pending, arg, events)

    # --- the effect interpreter ------------------------------------------------------------
    def _run(self, events: list[Event]) -> None:
        """Run the effect frames until one asks a question, or all are done."""
        frames = self.frames
        while frames and self.pending is None and not self.over:
            owner, card_id, part, victim, index = frames[-1]
            steps = frame_steps(self.table, self.table.design_of[card_id], part)
            if index >= len(steps):
                frames.pop()
                continue
            frames[-1] = (owner, card_id, part, victim, index + 1)
            self._step(steps[index], owner, card_id, part, victim, index, events)

    def _step(self, step: Step, owner: int, card_id: int, part: int, victim: int,
              index: int, events: list[Event]) -> None:
        op = step.op
        card = self.card(card_id)
        if op == "draw":
            self._draw(owner, step.n, events)
        elif op == "gain":
            self._gain_resources(owner, step.gain, card, events)
        elif op == "gain_per":
            amount = min(step.max, self._count(step.count, owner)) * step.n
            gained = [0, 0, 0]
            gained[step.resource] = amount
            self._gain_resources(owner, gained, card, events)
        elif op == "surge":
            total = [0, 0, 0]
            shown = []
            for _ in range(step.n):
                top = self._deck_top(owner, events)
                if top is None:
                    break
                self.discards[owner].append(top)
                shown.append(self.card(top).key)
                for r in range(3):
                    total[r] += self.card(top).worth[r]
            events.append(Event("surge", owner, label=f"Surge: discards "
                                f"{', '.join(shown) or 'nothing'}", data={"cards": shown}))
            self._gain_resources(owner, total, card, events)
        elif op == "discount":
            self.discount += step.n
            events.append(Event("discount", owner, label=f"Purchases cost {step.n} less",
                                data={"discount": self.discount}))
        elif op == "exile":
            if card_id in self.played[owner]:
                self.played[owner].remove(card_id)
                self.limbo_up.append(card_id)
                events.append(Event("exile", owner, label=f"{card.name} goes to Limbo",
                                    data={"card": card_id, "key": card.key}))
                self._owned(owner, card, -1)
        elif op == "attack":
            k = index - 1 if part == DELAYED else index
            events.append(Event("attack", owner, label=f"{card.name} attacks",
                                data={"card": card_id, "key": card.key, "kind": step.kind}))
            opponents = self._opponents(owner)
            if step.target == "each" or len(opponents) == 1:
                for q in reversed(opponents):
                    self.frames.append((owner, card_id, k, q, 0))
            else:
                self.pending = Pending(owner, "seat", False, owner, card_id, part, index)
        elif op == "_worth":
            self._add_pool(owner, card.worth)
            events.append(Event("resolve", owner, label=f"{card.name} resolves "
                                f"(+{worth_text(card.worth)})",
                                data={"card": card_id, "key": card.key,
                                      "worth": list(card.worth)}))
        elif op == "_defend":
            self._defend(owner, card_id, part, victim, index, events)
        elif op == "_discard":
            if self.hands[victim]:
                self.pending = Pending(victim, "card", False, owner, card_id, part, index,
                                       victim)
        elif op == "_mill":
            for _ in range(step.n):
                top = self._deck_top(victim, events)
                if top is None:
                    break
                self.discards[victim].append(top)
                events.append(Event("mill", victim, label=f"Discards {self.card(top).name} "
                                    f"from the deck", data={"card": top,
                                                            "key": self.card(top).key}))
        elif op == "_banish":
            top = self._deck_top(victim, events)
            if top is not None:
                lost = self.card(top)
                if lost.tier <= step.max_tier:
                    self.limbo_up.append(top)
                    events.append(Event("banish", victim, label=f"{lost.name} goes to Limbo",
                                        data={"card": top, "key": lost.key}))
                    self._owned(victim, lost, -1)
                else:
                    self.discards[victim].append(top)
                    events.append(Event("mill", victim, label=f"Discards {lost.name} from "
                                        f"the deck", data={"card": top, "key": lost.key}))
        elif op == "_steal":
            pile = self.discards[victim]
            if pile and self.card(pile[-1]).tier <= step.max_tier:
                top = pile.pop()
                stolen = self.card(top)
                self.discards[owner].append(top)
                events.append(Event("steal", owner, label=f"Steals {stolen.name} from player "
                                    f"{victim + 1}", data={"card": top, "key": stolen.key,
                                                           "from": victim}))
                self._owned(victim, stolen, -1)
                self._owned(owner, stolen, 1)
            else:
                events.append(Event("no_target", owner, label="Nothing to steal"))
        else:
            self._ask(step, owner, card_id, part, index, events)

    def _ask(self, step: Step, owner: int, card_id: int, part: int, index: int,
             events: list[Event]) -> None:
        """A choice step: ask the owner, or let the step fizzle when nothing can be chosen."""
        if step.op == "gain_choice":
            self.pending = Pending(owner, "resource", False, owner, card_id, part, index)
            return
        kind = {"trash": "card", "revive": "limbo"}.get(step.op, "stack")
        if not self._choice_options(step, owner):
            events.append(Event("no_target", owner, label=f"{self.card(card_id).name}: "
                                f"nothing to {step.op}"))
            return
        self.pending = Pending(owner, kind, step.optional, owner, card_id, part, index)

    def _resolve_choice(self, step: Step, pending: Pending, arg: int,
                        events: list[Event]) -> None:
        op = step.op
        p = pending.player
        card = self.card(pending.card)
        if op == "gain_choice":
            gained = [0, 0, 0]
            gained[arg] = step.n
            self._gain_resources(p, gained, card, events)
        elif op == "attack":  # the target of a one-opponent attack
            k = pending.index - 1 if pending.part == DELAYED else pending.index
            self.frames.append((p, pending.card, k, arg - 1, 0))
        elif op == "_discard":
            victim = pending.victim
            card_id = self.hands[victim].pop(arg - 1)
            self.discards[victim].append(card_id)
            events.append(Event("discard", victim, label=f"Discards {self.card(card_id).name} "
                                f"(attacked)", data={"card": card_id,
                                                     "key": self.card(card_id).key}))
        elif op == "trash":
            card_id = self.hands[p].pop(arg - 1)
            trashed = self.card(card_id)
            self.limbo_up.append(card_id)
            events.append(Event("trash", p, label=f"Sends {trashed.name} to Limbo",
                                data={"card": card_id, "key": trashed.key}))
            self._owned(p, trashed, -1)
            if step.refund:
                self._gain_resources(p, trashed.worth, card, events)
        elif op == "revive":
            card_id = self.limbo_up.pop(arg - 1)
            revived = self.card(card_id)
            self.discards[p].append(card_id)
            events.append(Event("gain", p, label=f"Gains {revived.name} from Limbo",
                                data={"card": card_id, "key": revived.key, "from": "limbo"}))
            self._owned(p, revived, 1)
        else:
            s = arg - 1
            if op == "cycle":
                self._cycle(s, p, events)
            elif op == "peek":
                self._peek(s, step.n, p, events)
            elif op == "limbo":
                card_id = self._take_top(s)
                self.limbo_up.append(card_id)
                events.append(Event("limbo", p, label=f"Sends {self.card(card_id).name} from "
                                    f"stack {arg} to Limbo",
                                    data={"card": card_id, "key": self.card(card_id).key,
                                          "stack": arg}))
                self._stack_changed(s, events)
            elif op == "take":
                self._gain_from_stack(p, s, step.bottom, events, "effect")
            elif op == "raise":
                stack = self.stacks[s]
                card_id = stack.pop(0)
                self.buried[s] -= 1
                stack.append(card_id)
                events.append(Event("raise", p, label=f"Raises {self.card(card_id).name} to "
                                    f"the top of stack {arg}",
                                    data={"card": card_id, "key": self.card(card_id).key,
                                          "stack": arg}))

    def _defend(self, attacker: int, card_id: int, part: int, victim: int, index: int,
                events: list[Event]) -> None:
        for waiting in self.delayed[victim]:
            if self.card(waiting).ward:
                events.append(Event("block", victim, label=f"{self.card(waiting).name}'s ward "
                                    f"blocks the attack", data={"card": waiting,
                                                                "key": self.card(waiting).key}))
                self.frames.pop()
                return
        # Ask whenever a reaction card is among the victim's hand and deck (public knowledge),
        # so that being asked tells the others nothing about the hand.
        if any(self.card(c).reaction for c in self.hands[victim]) or any(
                self.card(c).reaction for c in self.decks[victim]):
            self.pending = Pending(victim, "block", True, attacker, card_id, part, index,
                                   victim)

    def _block(self, pending: Pending, slot: int, events: list[Event]) -> None:
        victim = pending.victim
        card_id = self.hands[victim][slot]
        card = self.card(card_id)
        events.append(Event("block", victim, label=f"Reveals {card.name} and blocks the attack",
                            data={"card": card_id, "key": card.key}))
        self.frames.pop()  # the rest of this attack on this victim
        if card.reaction_draw:
            self.frames.append((victim, card_id, REACTION, victim, 0))

    # --- zones -----------------------------------------------------------------------------
    def _opponents(self, p: int) -> list[int]:
        """The other players in turn order, starting after ``p``."""
        n = len(self.order)
        i = self.order.index(p)
        return [self.order[(i + k) % n] for k in range(1, n)]

    def _count(self, what: str, p: int) -> int:
        if what == "empty_stacks":
            return sum(1 for s in self.stacks if not s)
        if what == "played":
            return max(0, len(self.played[p]) - 1)
        if what == "delayed":
            return len(self.delayed[p])
        if what == "buried":
            return sum(self.buried)
        return len(self.order) - 1

    def _gain_resources(self, p: int, amounts: Sequence[int], card: Card,
                        events: list[Event]) -> None:
        if not any(amounts):
            return
        self._add_pool(p, amounts)
        events.append(Event("gain_resources", p, label=f"Gains {worth_text(amounts)}",
                            data={"power": amounts[0], "mana": amounts[1],
                                  "tribute": amounts[2], "source": card.key}))

    def _deck_top(self, p: int, events: list[Event]) -> int | None:
        """Pop the top card of ``p``'s deck, shuffling the discard pile in if it is empty."""
        if not self.decks[p]:
            if not self.discards[p]:
                return None
            self._reshuffle(p, events)
        return self.decks[p].pop()

    def _reshuffle(self, p: int, events: list[Event]) -> None:
        cards = self.discards[p]
        self.discards[p] = []
        derive(self.seed, "shuffle", p, self.shuffles[p]).shuffle(cards)
        self.shuffles[p] += 1
        self.decks[p] = cards
        events.append(Event("shuffle", p, label="Shuffles the discard pile into a new deck",
                            data={"cards": len(cards)}))

    def _draw(self, p: int, n: int, events: list[Event]) -> None:
        drawn: list[int] = []
        hand = self.hands[p]
        for _ in range(n):
            top = self._deck_top(p, events)
            if top is None:
                break
            bisect.insort(hand, top)
            drawn.append(top)
        if drawn:
            events.append(Event("draw", p, label=f"Draws {len(drawn)}",
                                data={"count": len(drawn)},
                                secret={"cards": drawn,
                                        "names": [self.card(c).name for c in drawn]}))

    def _take_top(self, s: int) -> int:
        stack = self.stacks[s]
        card_id = stack.pop()
        self.buried[s] = min(self.buried[s], max(len(stack) - 1, 0))
        return card_id

    def _gain_from_stack(self, p: int, s: int, bottom: bool, events: list[Event],
                         how: str) -> None:
        stack = self.stacks[s]
        if bottom:
            card_id = stack.pop(0)
            self.buried[s] -= 1
        else:
            card_id = self._take_top(s)
        card = self.card(card_id)
        self.discards[p].append(card_id)
        where = "the bottom of " if bottom else ""
        events.append(Event("gain", p, label=f"Gains {card.name} from {where}stack {s + 1}",
                            data={"card": card_id, "key": card.key, "stack": s + 1,
                                  "how": how}))
        self._owned(p, card, 1)
        self._stack_changed(s, events)

    def _cycle(self, s: int, p: int, events: list[Event]) -> None:
        stack = self.stacks[s]
        card_id = stack.pop()
        stack.insert(0, card_id)
        self.buried[s] = min(self.buried[s] + 1, len(stack) - 1)
        events.append(Event("cycle", p, label=f"Cycles {self.card(card_id).name} under stack "
                            f"{s + 1}", data={"card": card_id, "key": self.card(card_id).key,
                                              "stack": s + 1}))
        self._stack_changed(s, events)

    def _peek(self, s: int, n: int, p: int, events: list[Event]) -> None:
        stack = self.stacks[s]
        lo = max(self.buried[s], len(stack) - 1 - n)
        seen = stack[lo:len(stack) - 1][::-1]
        self.known[p] = self.known[p] | frozenset(seen)
        cards = "card" if len(seen) == 1 else "cards"
        events.append(Event("peek", p, label=f"Looks at {len(seen)} face-down {cards} of stack "
                            f"{s + 1}", data={"stack": s + 1, "count": len(seen)},
                            secret={"cards": seen,
                                    "names": [self.card(c).name for c in seen]}))

    def _stack_changed(self, s: int, events: list[Event]) -> None:
        """After a stack loses or turns its top: show the new top, and end on a line."""
        stack = self.stacks[s]
        if stack:
            top = stack[-1]
            events.append(Event("top", None, label="", data={"stack": s + 1, "card": top,
                                                             "key": self.card(top).key}))
            return
        for line in LINES:
            if s in line and all(not self.stacks[t] for t in line):
                stacks = [t + 1 for t in line]
                if not self.game.full_rounds:
                    self._finish(events, {"reason": "line", "line": stacks})
                elif not self.ending:
                    self.ending = tuple(stacks)
                    events.append(Event("line", None, label=(
                        f"Stacks {', '.join(map(str, stacks))} are empty: the game ends at the "
                        f"end of this round"), data={"line": stacks}))
                return

    def _owned(self, p: int, card: Card, sign: int) -> None:
        """``p`` gains (``sign`` 1) or loses (-1) a card: keep the worth totals up to date."""
        totals = self.totals[p]
        worth = card.worth
        totals[0] += sign * worth[0]
        totals[1] += sign * worth[1]
        totals[2] += sign * worth[2]
        if card.tier == 2:
            totals[3] += sign
        elif card.tier == 3:
            totals[4] += sign

    def _finish(self, events: list[Event], reason: dict[str, Any]) -> None:
        self.over = True
        self.pending = None
        self.frames = []
        self.end_reason = reason
        for p in range(len(self.order)):
            breakdown = score_breakdown(self.totals[p])
            events.append(self._score(
                p, breakdown["score"], "final_score",
                (f"Final score {breakdown['score']}: best two {breakdown['best_two']} "
                 f"({' + '.join(breakdown['best'])}) + {breakdown['tier2']} for tier 2 + "
                 f"{3 * breakdown['tier3']} for tier 3"),
                **breakdown))
        why = ("three empty stacks in a line: " + ", ".join(map(str, reason["line"]))
               if reason["reason"] == "line" else
               f"every player has had {reason['turns']} turns (the safety limit)")
        result = self.result()
        events.append(Event("game_end", None, label=f"The game ends: {why}",
                            data={**reason, "scores": list(result.scores),
                                  "ranks": list(result.ranks)}))

    def result(self) -> Result:
        """Places by score; ties go to the player who had fewer turns, then to more tier-3
        cards; players still equal share the place."""
        keys = [(self.scores[p], -self.turns[p], self.totals[p][4])
                for p in range(len(self.order))]
        ranks = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
        return Result(tuple(self.scores), ranks)

    # --- ids -------------------------------------------------------------------------------
    def encode_action(self, action: TrivinityAction) -> int:
        h = self.table.size
        kind, arg = action.kind, action.arg
        base = {"play": 0, "discard": h, "card": 2 * h, "block": 3 * h, "limbo": 4 * h}
        if kind in base:
            if not 1 <= arg <= h:
                raise IllegalActionError(f"{action}: no id for slot {arg}")
            return base[kind] + arg - 1
        offsets = {"buy": (0, 9), "stack": (9, 9), "seat": (18, 4), "resource": (22, 3)}
        if kind in offsets:
            start, size = offsets[kind]
            index = arg if kind == "resource" else arg - 1
            if not 0 <= index < size:
                raise IllegalActionError(f"{action}: no id for {kind} {arg}")
            return 5 * h + start + index
        return 5 * h + 25 + _BARE.index(kind)

    def decode_action(self, action_id: int) -> TrivinityAction:
        h = self.table.size
        if not 0 <= action_id < 5 * h + 28:
            raise IllegalActionError(f"action id {action_id} is out of range")
        if action_id < 5 * h:
            kind = ("play", "discard", "card", "block", "limbo")[action_id // h]
            return TrivinityAction(kind, action_id % h + 1)
        rest = action_id - 5 * h
        for kind, start, size in (("buy", 0, 9), ("stack", 9, 9), ("seat", 18, 4),
                                  ("resource", 22, 3)):
            if start <= rest < start + size:
                index = rest - start
                return TrivinityAction(kind, index if kind == "resource" else index + 1)
        return TrivinityAction(_BARE[rest - 25])

    # --- observation -----------------------------------------------------------------------
    def observation(self, player: int | None) -> TrivinityObservation:
        n = len(self.order)
        stacks = []
        for s in range(STACKS):
            stack = self.stacks[s]
            size = len(stack)
            buried = self.buried[s]
            known: tuple[tuple[int, int], ...] = ()
            if player is not None and self.known[player]:
                mine = self.known[player]
                known = tuple((size - 1 - i, stack[i])
                              for i in range(buried, size - 1) if stack[i] in mine)
            stacks.append(StackView(size, stack[-1] if stack else -1, tuple(stack[:buried]),
                                    max(size - buried - 1, 0), known))
        hidden = tuple(() if q == player else tuple(sorted(self.hands[q] + self.decks[q]))
                       for q in range(n))
        return TrivinityObservation(
            player=player,
            num_players=n,
            modules=self.modules,
            order=self.order,
            turn_number=self.turn_number,
            turn_player=self.turn_player,
            current=self.current_player,
            phase=self.phase,
            pool=tuple(self.pool),
            discount=self.discount,
            played_any=self.played_any,
            free_used=self.free_used,
            hand=tuple(self.hands[player]) if player is not None else (),
            own_deck=tuple(sorted(self.decks[player])) if player is not None else (),
            hand_sizes=tuple(len(h) for h in self.hands),
            deck_sizes=tuple(len(d) for d in self.decks),
            hidden=hidden,
            discards=tuple(tuple(d) for d in self.discards),
            played=tuple(tuple(d) for d in self.played),
            delayed=tuple(tuple(d) for d in self.delayed),
            stacks=tuple(stacks),
            limbo_up=tuple(self.limbo_up),
            limbo_down=len(self.limbo_down),
            scores=tuple(self.scores),
            totals=tuple(tuple(t) for t in self.totals),
            turns=tuple(self.turns),
            shuffles=tuple(self.shuffles),
            turn_limit=self.game.turn_limit,
            pending=self.pending,
            frames=tuple(self.frames),
            over=self.over,
            end_reason=dict(self.end_reason),
            ending=self.ending,
            table=self.table,
        )


# --- observations ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StackView:
    """What everyone sees of a stack: its size, its face-up top (-1: empty), the face-up cards
    buried at its bottom (bottom first), the number of face-down cards; and, for the viewer
    only, the face-down cards they have looked at as (depth under the top, card)."""

    count: int
    top: int
    buried: tuple[int, ...]
    face_down: int
    known: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "top": self.top if self.top >= 0 else None,
                "buried": list(self.buried), "face_down": self.face_down,
                "known": [{"depth": d, "card": c} for d, c in self.known]}


@dataclass(frozen=True)
class TrivinityObservation(Observation):
    """What one seat (or a spectator, ``player`` None) sees.

    Public: every pile's size, every discard pile, every card in play or waiting ("Until your
    next turn"), the grid's face-up cards and face-down counts, Limbo's face-up cards and its
    face-down count, the pool, the scores, the pending question. ``hidden[q]`` is the sorted
    list of the cards in seat ``q``'s hand and deck *together*: public knowledge, since every
    card a player gains or loses is seen, but it says nothing of which are in the hand or of
    the deck's order. Private to the viewer: their hand, their deck's contents (sorted, not its
    order) and the face-down stack cards they have looked at. Cards are ids;
    :meth:`TrivinityGame.card_catalogue` describes each.
    """

    player: int | None
    num_players: int
    modules: tuple[str, ...]
    order: tuple[int, ...]
    turn_number: int
    turn_player: int
    current: int | None
    phase: str
    pool: tuple[int, ...]
    discount: int
    played_any: bool
    free_used: bool
    hand: tuple[int, ...]
    own_deck: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    hidden: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], ...]
    delayed: tuple[tuple[int, ...], ...]
    stacks: tuple[StackView, ...]
    limbo_up: tuple[int, ...]
    limbo_down: int
    scores: tuple[int, ...]
    totals: tuple[tuple[int, ...], ...]
    turns: tuple[int, ...]
    shuffles: tuple[int, ...]
    turn_limit: int
    pending: Pending | None
    frames: tuple[Frame, ...]
    over: bool
    end_reason: dict[str, Any]
    ending: tuple[int, ...]
    table: CardTable = field(repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        pending = None
        if self.pending is not None:
            # Which step of which card asks (part, step), for whom (owner, victim): the
            # legal answers depend on it, so two observations that differ here must differ.
            pending = {"player": self.pending.player, "kind": self.pending.kind,
                       "optional": self.pending.optional, "card": self.pending.card,
                       "owner": self.pending.owner, "part": self.pending.part,
                       "step": self.pending.index, "victim": self.pending.victim}
        return {
            "player": self.player,
            "modules": list(self.modules),
            "order": list(self.order),
            "turn": self.turn_number,
            "turn_player": self.turn_player,
            "current_player": self.current,
            "phase": self.phase,
            "pool": dict(zip(RESOURCES, self.pool, strict=True)),
            "discount": self.discount,
            "free_card_used": self.free_used,
            "hand": list(self.hand),
            "deck_contents": list(self.own_deck),
            "players": [
                {"hand_size": self.hand_sizes[q], "deck_size": self.deck_sizes[q],
                 "hand_and_deck": list(self.hidden[q]), "discard": list(self.discards[q]),
                 "played": list(self.played[q]), "waiting": list(self.delayed[q]),
                 "score": self.scores[q], "turns": self.turns[q],
                 "worth": dict(zip(RESOURCES, self.totals[q][:3], strict=True)),
                 "tier2": self.totals[q][3], "tier3": self.totals[q][4]}
                for q in range(self.num_players)],
            "stacks": [s.to_json() for s in self.stacks],
            "limbo": {"face_up": list(self.limbo_up), "face_down": self.limbo_down},
            "pending": pending,
            "turn_limit": self.turn_limit,
            "over": self.over,
            "ending_line": list(self.ending) or None,
            "end": dict(self.end_reason) if self.end_reason else None,
        }

    def to_tensor(self) -> list[float]:
        table = self.table
        d = len(table.designs)
        design_of = table.design_of
        me = self.player if self.player is not None else 0
        n = self.num_players

        def counts(cards: Sequence[int]) -> list[float]:
            out = [0.0] * d
            for c in cards:
                out[design_of[c]] += 1.0
            return out

        vec: list[float] = counts(self.hand) + counts(self.own_deck)
        for r in range(4):
            if r < n:
                q = (me + r) % n
                vec += counts(self.discards[q]) + counts(self.played[q])
                vec += counts(self.delayed[q]) + counts(self.hidden[q])
                vec += [float(x) for x in self.totals[q]]
                vec += [float(self.hand_sizes[q]), float(self.deck_sizes[q]),
                        float(self.scores[q]), float(self.turns[q])]
            else:
                vec += [0.0] * (4 * d + 9)
        for view in self.stacks:
            top = [0.0] * d
            if view.top >= 0:
                top[design_of[view.top]] = 1.0
            vec += top + counts(view.buried) + counts([c for _, c in view.known])
            vec += [float(view.count), float(view.face_down)]
        vec += [*counts(self.limbo_up), float(self.limbo_down)]
        vec += [float(x) for x in self.pool] + [float(self.discount)]
        vec += [1.0 if self.phase == PLAY else 0.0, 1.0 if self.phase == BUY else 0.0]
        kinds = [0.0] * len(PENDING_KINDS)
        decider = [0.0] * 4
        if self.pending is not None:
            kinds[PENDING_KINDS.index(self.pending.kind)] = 1.0
            decider[(self.pending.player - me) % n] = 1.0
        turn = [0.0] * 4
        turn[(self.turn_player - me) % n] = 1.0
        vec += kinds + decider + turn
        vec += [float(self.turn_number), float(self.turn_limit), float(self.played_any),
                float(self.free_used), float(self.over or bool(self.ending)), float(n)]
        assert len(vec) == 46 * d + 82
        return vec


# --- determinization -------------------------------------------------------------------------
def _determinize(game: TrivinityGame, obs: TrivinityObservation,
                 rng: random.Random) -> TrivinityState:
    """A full state consistent with ``obs``: the unseen parts dealt at random from ``rng``."""
    n = obs.num_players
    state = TrivinityState(game, fresh_seed(rng), obs.modules, obs.order)
    state.scores = list(obs.scores)
    for q in range(n):
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
    seen: set[int] = set(obs.limbo_up)
    for q in range(n):
        for zone in (state.hands[q], state.decks[q], state.discards[q], state.played[q],
                     state.delayed[q]):
            seen.update(zone)
    for view in obs.stacks:
        seen.update(view.buried)
        seen.update(c for _, c in view.known)
        if view.top >= 0:
            seen.add(view.top)
    unseen = [c for c in game.table.in_play(obs.modules, n) if c not in seen]
    rng.shuffle(unseen)
    for s, view in enumerate(obs.stacks):
        if view.count == 0:
            continue
        known = dict(view.known)
        middle = [known[depth] if depth in known else unseen.pop()
                  for depth in range(view.face_down, 0, -1)]
        state.stacks[s] = [*view.buried, *middle, view.top]
        state.buried[s] = len(view.buried)
    state.limbo_up = list(obs.limbo_up)
    state.limbo_down = sorted(unseen)
    if len(state.limbo_down) != obs.limbo_down:
        raise ValueError(f"the observation does not add up: {len(state.limbo_down)} unseen "
                         f"cards are left for {obs.limbo_down} face-down Limbo cards")
    if obs.player is not None:
        state.known[obs.player] = frozenset(c for v in obs.stacks for _, c in v.known)
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
    return state


# --- explicit set-up -----------------------------------------------------------------------
def _state_from_setup(game: TrivinityGame, seed: int,
                      setup: Mapping[str, Any]) -> TrivinityState:
    """Build the opening given in ``setup`` (the JSON form of docs/rules/trivinity.md)."""
    table = game.table
    n = game.num_players
    known_fields = {"modules", "order", "players", "stacks", "limbo"}
    extra = set(setup) - known_fields
    if extra:
        raise RecordError(f"setup has an unknown field {sorted(extra)[0]!r}; its fields are "
                          f"{', '.join(sorted(known_fields))}")
    modules = setup.get("modules")
    if (not isinstance(modules, list) or len(modules) != n
            or not all(m in MODULE_CHOICES[1:] for m in modules)):
        raise RecordError(f"setup 'modules' must list {n} modules, one per seat, from "
                          f"{', '.join(MODULE_CHOICES[1:])}")
    for seat, module in enumerate(modules):
        chosen = game.options[f"module_{seat + 1}"]
        if chosen not in ("random", module):
            raise RecordError(f"setup gives seat {seat + 1} the module {module!r}, but the "
                              f"option module_{seat + 1} is {chosen!r}")
    order = setup.get("order", list(range(n)))
    if not isinstance(order, list) or sorted(order) != list(range(n)):
        raise RecordError(f"setup 'order' must be the seats 0 to {n - 1} in turn order, not "
                          f"{order!r}")
    state = TrivinityState(game, seed, tuple(modules), tuple(order))
    pools: dict[int, list[int]] = {}
    for i in table.in_play(modules, n):
        pools.setdefault(table.design_of[i], []).append(i)
    in_game = {design: len(cards) for design, cards in pools.items()}
    for cards in pools.values():
        cards.reverse()

    def take(keys: object, where: str) -> list[int]:
        if not isinstance(keys, list):
            raise RecordError(f"setup {where} must be a list of card keys")
        out = []
        for key in keys:
            if not isinstance(key, str) or key not in table.by_key:
                raise RecordError(f"setup {where}: unknown card {key!r}")
            design = table.by_key[key]
            if design not in pools:
                raise RecordError(f"setup {where}: {key!r} belongs to the "
                                  f"{table.designs[design].module} module, which is not in "
                                  f"this game")
            if not pools[design]:
                raise RecordError(f"setup {where}: {key!r} is placed more often than the "
                                  f"{in_game[design]} copies this game has")
            out.append(pools[design].pop())
        return out

    players = setup.get("players")
    if not isinstance(players, list) or len(players) != n:
        raise RecordError(f"setup 'players' must be a list of {n} objects")
    for q, raw in enumerate(players):
        if not isinstance(raw, dict) or set(raw) - {"hand", "deck", "discard"}:
            raise RecordError(f"setup players[{q}] is an object with 'hand', 'deck' and "
                              f"'discard'")
        state.hands[q] = sorted(take(raw.get("hand", []), f"players[{q}].hand"))
        state.decks[q] = take(raw.get("deck", []), f"players[{q}].deck")[::-1]
        state.discards[q] = take(raw.get("discard", []), f"players[{q}].discard")[::-1]
    stacks = setup.get("stacks")
    if not isinstance(stacks, list) or len(stacks) != STACKS:
        raise RecordError("setup 'stacks' must be a list of 9 stacks, stacks 1-3 (tier 1) "
                          "first")
    for s, raw in enumerate(stacks):
        buried: object = 0
        if isinstance(raw, dict):
            buried = raw.get("buried", 0)
            raw = raw.get("cards")
        cards = take(raw, f"stacks[{s}]")[::-1]
        if not isinstance(buried, int) or not 0 <= buried <= max(len(cards) - 1, 0):
            raise RecordError(f"setup stacks[{s}].buried counts the face-up cards under the "
                              f"top: 0 to {max(len(cards) - 1, 0)}, not {buried!r}")
        for c in cards:
            if table.card(c).tier != s // 3 + 1:
                raise RecordError(f"setup stacks[{s}]: {table.card(c).key!r} is tier "
                                  f"{table.card(c).tier}, and stack {s + 1} holds tier "
                                  f"{s // 3 + 1}")
        state.stacks[s] = cards
        state.buried[s] = buried
    state.limbo_down = sorted(take(setup.get("limbo", []), "limbo"))
    missing = [table.designs[d].key for d, left in pools.items() for _ in left]
    if missing:
        raise RecordError(f"setup does not place every card: missing {', '.join(missing[:5])}"
                          f"{' ...' if len(missing) > 5 else ''} (every card of the game is in "
                          f"exactly one place)")
    for q in range(n):
        state.totals[q] = [0, 0, 0, 0, 0]
        for c in state.hands[q] + state.decks[q] + state.discards[q]:
            state._owned(q, table.card(c), 1)
    state._setup = dict(setup)
    state._start_turn(order[0], [])
    return state
