"""Trivinity's message codes and their English templates (docs/messages.md).

Every event gets its code and parameters where it is made (turns.py, effects.py, state.py), in
one construction: most take their code from their ``kind`` and their parameters from their
public data with card ids replaced by card keys; the few kinds that say different things have a
code of their own.
"""

from __future__ import annotations

from collections.abc import Mapping

from triverse.games.trivinity.cards import load_table

MESSAGES: Mapping[str, str] = {
    "turn": "{who}: turn {turn}",
    "play": "{who} played {card}",
    "delay": "{who} played {card}; it waits for the next turn",
    "resolve": "{who}: {card} resolves",
    "discard": "{who} discarded {card}",
    "discard_attacked": "{who} discarded {card} (attacked)",
    "discard_all": "{who} discarded the whole hand",
    "buy": "{who} bought {card} from stack {stack}",
    "gain": "{who} gained {card} from stack {stack}",
    "gain_from_limbo": "{who} gained {card} from Limbo",
    "gain_resources": "{who} gained {power} Power, {mana} Mana, {tribute} Tribute",
    "draw": "{who} drew a card|{who} drew {count} cards",
    "shuffle": "{who} shuffled the discard pile into a new deck",
    "end_turn": "{who} ended the turn",
    "surge": "{who}: surge discards {cards}",
    "discount": "{who}: purchases cost {discount} less",
    "exile": "{who}: {card} goes to Limbo",
    "attack": "{who}: {card} attacks",
    "ward_blocks": "{who}: the ward of {card} blocks the attack",
    "reaction_blocks": "{who} revealed {card} and blocked the attack",
    "mill": "{who} discarded {card} from the deck",
    "banish": "{who}: {card} goes to Limbo",
    "steal": "{who} stole {card} from {from}",
    "nothing_to_steal": "{who}: nothing to steal",
    "nothing_to_do": "{who}: {card} has nothing to do",
    "no_free_card": "{who}: no tier-1 card is left to take for free",
    "trash": "{who} sent {card} to Limbo",
    "cycle": "{who} put {card} under stack {stack}",
    "peek": ("{who} looked at a card of stack {stack}"
             "|{who} looked at {count} cards of stack {stack}"),
    "limbo": "{who} sent {card} from stack {stack} to Limbo",
    "raise": "{who} raised {card} to the top of stack {stack}",
    "top": "Stack {stack} shows {card}",
    "line": "Stacks {line} are empty: the game ends after this round",
    "declined_free": "{who} took no free card",
    "allowed": "{who} did not block",
    "declined": "{who} declined",
    "final_score": "{who}: final score {score}",
    "game_over.line": "Game over: three empty stacks in a line",
    "game_over.turn_limit": "Game over: the turn limit is reached",
    "refused.game_over": "the game is over",
    "refused.nothing_to_choose": "there is nothing to choose now",
    "refused.must_answer": "an effect is waiting for an answer",
    "refused.wrong_answer": "answer the effect's question first",
    "refused.after_buying": "cards are played and discarded before buying",
    "refused.hand_empty": "the hand is empty",
    "refused.not_an_action": "that is not a Trivinity action",
    "refused.no_such_stack": "the stacks are numbered 1 to 9, not {stack}",
    "refused.stack_empty": "stack {stack} is empty",
    "refused.cannot_afford": "you cannot afford {card}: it costs {cost}",
    "refused.no_such_slot": "the hand has slots 1 to {size}, not {slot}",
    "refused.not_a_reaction": "the card in slot {slot} is not a reaction card",
    "refused.not_a_target_player": "that player is not an opponent you can target",
    "refused.no_such_limbo_card": "Limbo has {size} face-up cards, not a card {card}",
    "refused.limbo_too_costly": "Limbo card {card} costs more than this effect allows",
    "refused.free_tier_1": "the free card is a tier-1 card: stacks 1, 2 or 3",
    "refused.not_a_target_stack": "stack {stack} is not a target",
    "refused.not_a_choice": "{choice} is not one of the choices",
    # The cards' names, by key: parameters name cards by key.
    **{f"name:{card.key}": card.name for card in load_table().designs},
}

