"""Trivinity's fixed rules: the grid, the phases, effect frames, paying and scoring.

Everything here is a constant or a pure function; the state (:mod:`.state`) and the effects
(:mod:`.effects`) build on it.

>>> len(LINES), STACKS, HAND_SIZE
(8, 9, 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from triverse.core.options import ChoiceLabels
from triverse.games.trivinity.cards import RESOURCES, CardTable, Cost, Step

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

# The New Game dialog's words for the module options (the engine's OptionSpec declarations).
MODULE_LABELS = ("Player 1's module", "Player 2's module", "Player 3's module",
                 "Player 4's module")
MODULE_CHOICE_LABELS: ChoiceLabels = {
    "random": ("Random", "A module no other player has, drawn at random."),
    "heroes": ("Heroes", "Strong Power that grows with each card played, and defence."),
    "scoundrels": ("Scoundrels", "Attacks that make the others discard and lose cards."),
    "zodiac": ("Zodiac", "Mana: see face-down cards and turn the stacks."),
    "elements": ("Elements", "Volatile bursts of resources from the top of the deck."),
    "world": ("World", "Steady Tribute: discounts, income and control of the stacks."),
    "disasters": ("Disasters", "Empty the stacks to end the game while ahead."),
    "servants": ("Divine Servants", "A lean deck: send weak cards to Limbo and draw many."),
}

PENDING_KINDS = ("stack", "card", "seat", "resource", "limbo", "block", "free")
"""What a pending decision asks for; ``free`` is the free tier-1 card after discarding a hand."""


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
