"""Trivinity in English: card texts from the effect vocabulary, costs, worths, and names.

The same functions write the generated card list (``docs/rules/trivinity-cards.md``), the
terminal view and the action descriptions, so a card reads the same everywhere.

>>> from triverse.games.trivinity.cards import load_table
>>> table = load_table()
>>> card_text(table.design("oracle"))
'Look at the top 2 face-down cards of a stack. You may cycle a stack.'
>>> cost_text(table.design("divine-forge").cost)
'2 Power + 3 any'
>>> worth_text((1, 0, 1))
'1 Power, 1 Tribute'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from triverse.games.trivinity.cards import Card, Cost, Step

RESOURCE_NAMES = ("Power", "Mana", "Tribute")
TIER_MARKS = {0: "·", 1: "|", 2: "+", 3: "ᴧ"}
"""The seed's tier marks: a single symbol, crossed symbols, a triangle (0: a starting card)."""


def worth_text(worth: Sequence[int]) -> str:
    """A resource triple in words (``nothing`` when empty)."""
    parts = [f"{amount} {RESOURCE_NAMES[i]}" for i, amount in enumerate(worth) if amount]
    return ", ".join(parts) if parts else "nothing"


def short_worth(worth: Sequence[int]) -> str:
    """A resource triple in letters: ``2P 1M``.

    >>> short_worth((2, 1, 0))
    '2P 1M'
    """
    parts = [f"{amount}{'PMT'[i]}" for i, amount in enumerate(worth) if amount]
    return " ".join(parts) if parts else "0"


def cost_text(cost: Cost) -> str:
    """A cost in words: its typed parts, then its ``any`` part."""
    parts = [f"{amount} {RESOURCE_NAMES[i]}" for i, amount in enumerate(cost.typed) if amount]
    if cost.any:
        parts.append(f"{cost.any} any")
    return " + ".join(parts) if parts else "free"


def short_cost(cost: Cost) -> str:
    """``2P+3`` for 2 Power and 3 of any resource.

    >>> short_cost(Cost(power=2, any=3))
    '2P+3'
    """
    parts = [f"{amount}{'PMT'[i]}" for i, amount in enumerate(cost.typed) if amount]
    if cost.any:
        parts.append(str(cost.any))
    return "+".join(parts) if parts else "0"


def _tiers(step: Step) -> str:
    if step.tiers == (1, 2, 3):
        return "a stack"
    if len(step.tiers) == 1:
        return f"a tier-{step.tiers[0]} stack"
    return "a stack of tier " + " or ".join(str(t) for t in step.tiers)


def _a_card(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def step_text(step: Step) -> str:
    """One step of the vocabulary as an English sentence.

    >>> step_text(Step("attack", kind="discard", n=1))
    'Attack: each opponent discards a card of their choice.'
    >>> step_text(Step("take", tiers=(1,), max_cost=3))
    'Gain the top card of a tier-1 stack, if it costs 3 or less.'
    >>> step_text(Step("cycle", optional=True))
    'You may cycle a stack.'
    """
    op = step.op
    if op in _CHOICE_PHRASES:
        phrase = _CHOICE_PHRASES[op](step)
        return "You may " + phrase if step.optional else phrase[0].upper() + phrase[1:]
    if op in _SENTENCES:
        return _SENTENCES[op](step)
    return op


_COUNTED = {
    "empty_stacks": "empty stack",
    "played": "other card you have played this turn",
    "delayed": "of your cards waiting for your next turn",
    "buried": "face-up card buried under a stack",
    "opponents": "opponent",
}
"""What a ``gain_per`` step counts, in words."""


def _gain_per_text(step: Step) -> str:
    cap = f" (at most {step.n * step.max})" if step.max < 9 else ""
    return f"Gain {step.n} {RESOURCE_NAMES[step.resource]} for each {_COUNTED[step.count]}{cap}."


def _surge_text(step: Step) -> str:
    if step.n == 1:
        return "Discard the top card of your deck and gain its worth."
    return f"Discard the top {step.n} cards of your deck and gain their worth."


def _attack_text(step: Step) -> str:
    who = "each opponent" if step.target == "each" else "an opponent of your choice"
    tier = f"tier {step.max_tier} or lower" if step.max_tier else "a starting card"
    if step.kind == "discard":
        return f"Attack: {who} discards {_a_card(step.n)} of their choice."
    if step.kind == "mill":
        top = "the top card" if step.n == 1 else f"the top {step.n} cards"
        return f"Attack: {who} discards {top} of their deck."
    if step.kind == "banish":
        return (f"Attack: {who} sends the top card of their deck to Limbo if it is "
                f"{tier}, and discards it otherwise.")
    whose = "each opponent's" if step.target == "each" else "an opponent's"
    return (f"Attack: take the top card of {whose} discard pile into your discard "
            f"pile, if it is {tier}.")


_SENTENCES: dict[str, Callable[[Step], str]] = {
    "draw": lambda step: f"Draw {_a_card(step.n)}.",
    "gain": lambda step: f"Gain {worth_text(step.gain).replace(', ', ' and ')}.",
    "gain_choice": lambda step: f"Gain {step.n} of one resource of your choice.",
    "gain_per": _gain_per_text,
    "surge": _surge_text,
    "discount": lambda step: (f"Your purchases this turn cost {step.n} less, taken from their "
                              f"\"any\" part."),
    "exile": lambda step: "Send this card to Limbo.",
    "attack": _attack_text,
}
"""The sentence of each step that asks no choice."""


def _peek_text(step: Step) -> str:
    if step.n == 1:
        return f"look at the face-down card under the top card of {_tiers(step)}."
    return f"look at the top {step.n} face-down cards of {_tiers(step)}."


def _take_text(step: Step) -> str:
    where = "top card" if not step.bottom else "bottom face-up card"
    return f"gain the {where} of {_tiers(step)}, if it costs {step.max_cost} or less."


_CHOICE_PHRASES: dict[str, Callable[[Step], str]] = {
    "cycle": lambda step: f"cycle {_tiers(step)}.",
    "peek": _peek_text,
    "limbo": lambda step: f"send the top card of {_tiers(step)} to Limbo.",
    "take": _take_text,
    "raise": lambda step: f"put the bottom face-up card of {_tiers(step)} on top of it.",
    "trash": lambda step: ("send a card from your hand to Limbo"
                           f"{' and gain its worth' if step.refund else ''}."),
    "revive": lambda step: f"gain a face-up card from Limbo that costs {step.max_cost} or less.",
}
"""The phrase of each step a player may be offered as optional ("You may ...")."""


def _lower_first(text: str) -> str:
    return text[0].lower() + text[1:] if text else text


def effect_sentences(steps: Sequence[Step]) -> list[str]:
    """The steps in English; a run of equal steps reads once, with "Twice:" before it.

    >>> effect_sentences([Step("cycle", optional=True)] * 2 + [Step("draw")])
    ['Twice: you may cycle a stack.', 'Draw a card.']
    """
    out: list[str] = []
    i = 0
    while i < len(steps):
        run = 1
        while i + run < len(steps) and steps[i + run] == steps[i]:
            run += 1
        text = step_text(steps[i])
        if run > 1:
            times = {2: "Twice", 3: "Three times"}.get(run, f"{run} times")
            text = f"{times}: {_lower_first(text)}"
        out.append(text)
        i += run
    return out


def card_text(card: Card) -> str:
    """The card's whole rules text, keywords included ('' for a plain resource card)."""
    sentences = effect_sentences(card.steps)
    if card.delayed:
        if sentences:
            sentences[0] = f"Until your next turn: {_lower_first(sentences[0])}"
        else:
            sentences = ["Until your next turn."]
        if card.ward:
            sentences.append("Ward: while this card waits, attacks against you are blocked.")
    if card.reaction:
        draw = f", then draw {_a_card(card.reaction_draw)}" if card.reaction_draw else ""
        sentences.append(f"Reaction: when an opponent attacks you, you may reveal this card "
                         f"from your hand to block the attack{draw}.")
    return " ".join(sentences)
