"""What a Trivinity player may do now, and in plain words why an action is not allowed.

>>> from triverse import load_game
>>> state = load_game("trivinity").new_initial_state(seed=3)
>>> [str(a) for a in legal_action_list(state)][-1]
'end'
>>> illegal_reason(state, TrivinityAction("stack", 2))
"there is nothing to choose now: 'stack' answers an effect's question"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triverse.core.messages import Reason
from triverse.games.trivinity.actions import (
    _BUYS,
    _DISCARD_ALL,
    _DISCARDS,
    _END,
    _PASS,
    _PLAYS,
    ANSWERS,
    TrivinityAction,
    action,
)
from triverse.games.trivinity.effects import choice_options
from triverse.games.trivinity.rules import PLAY, STACKS, Pending, affordable, pay
from triverse.games.trivinity.text import cost_text, worth_text

if TYPE_CHECKING:
    from triverse.games.trivinity.state import TrivinityState

_ANSWER_KINDS = ("stack", "card", "seat", "resource", "limbo", "block", "pass")


def pending_options(state: TrivinityState) -> list[int]:
    """The legal answers to the pending decision (1-based, or resource indices)."""
    pending = state.pending
    assert pending is not None
    kind = pending.kind
    if kind == "free":
        return [s + 1 for s in range(3) if state.stacks[s]]
    if kind == "resource":
        return [0, 1, 2]
    if kind == "seat":
        return [q + 1 for q in state._opponents(pending.owner)]
    if kind == "block":
        hand = state.hands[pending.player]
        return [i + 1 for i, c in enumerate(hand) if state.card(c).reaction]
    return choice_options(state, state.pending_step(pending), pending.player)


def legal_action_list(state: TrivinityState) -> list[TrivinityAction]:
    """The legal actions: the answers to a pending decision, or the turn player's actions."""
    if state.over:
        return []
    if state.pending is not None:
        kind = ANSWERS[state.pending.kind]
        out = [action(kind, option) for option in pending_options(state)]
        if state.pending.optional:
            out.append(_PASS)
        return out
    hand_size = len(state.hands[state.order[state.turn_index]])
    out = []
    if state.phase == PLAY and hand_size:
        out.extend(_PLAYS[:hand_size])
        out.extend(_DISCARDS[:hand_size])
        out.append(_DISCARD_ALL)
    pool, discount = state.pool, state.discount
    design_of, designs = state.table.design_of, state.table.designs
    for s, stack in enumerate(state.stacks):
        if stack and affordable(designs[design_of[stack[-1]]].cost, pool, discount):
            out.append(_BUYS[s])
    out.append(_END)
    return out


def illegal_reason(state: TrivinityState, action: TrivinityAction) -> str | None:
    """Why ``action`` is not legal now, or ``None`` if it is."""
    if state.over:
        return Reason("the game is over", "refused.game_over")
    if state.pending is not None:
        return _not_an_answer(state, state.pending, action.kind, action.arg)
    if action.kind in _ANSWER_KINDS:
        return Reason(f"there is nothing to choose now: '{action.kind}' answers an effect's "
                      "question", "refused.nothing_to_choose", kind=action.kind)
    return _not_a_turn_action(state, action.kind, action.arg)


def _not_an_answer(state: TrivinityState, pending: Pending, kind: str, arg: int) -> str | None:
    asked = ANSWERS[pending.kind]
    who = f"player {pending.player + 1}"
    if kind == "pass":
        return None if pending.optional else Reason(
            f"{who} must answer: {_prompt(state)}", "refused.must_answer",
            seat=pending.player, ask=pending.kind)
    if kind != asked:
        alternative = " or pass" if pending.optional else ""
        return Reason(f"{who} is asked to choose ({_prompt(state)}): answer with "
                      f"'{asked} N'{alternative}, not {kind}", "refused.wrong_answer",
                      seat=pending.player, ask=pending.kind, answer=asked, kind=kind,
                      optional=pending.optional)
    if arg not in pending_options(state):
        return _why_not_option(state, pending, arg)
    return None


def _not_a_turn_action(state: TrivinityState, kind: str, arg: int) -> str | None:
    hand = state.hands[state.order[state.turn_index]]
    if kind in ("play", "discard", "discard-all"):
        if state.phase != PLAY:
            return Reason("cards are played and discarded before purchases, and you have "
                          "bought", "refused.after_buying")
        if kind == "discard-all":
            return None if hand else Reason("your hand is empty", "refused.hand_empty")
        if not 1 <= arg <= len(hand):
            return _no_slot(arg, len(hand))
        return None
    if kind == "buy":
        return _cannot_buy(state, arg)
    if kind == "end":
        return None
    return Reason(f"unknown action {kind!r}", "refused.not_an_action", kind=kind)


def _cannot_buy(state: TrivinityState, arg: int) -> str | None:
    if not 1 <= arg <= STACKS:
        return Reason(f"the stacks are numbered 1 to 9, not {arg}", "refused.no_such_stack",
                      stack=arg)
    stack = state.stacks[arg - 1]
    if not stack:
        return Reason(f"stack {arg} is empty", "refused.stack_empty", stack=arg)
    card = state.card(stack[-1])
    if pay(card.cost, state.pool, state.discount) is None:
        discount = f" and a discount of {state.discount}" if state.discount else ""
        return Reason(f"you cannot afford {card.name}: it costs {cost_text(card.cost)}, and "
                      f"your pool holds {worth_text(state.pool)}{discount}",
                      "refused.cannot_afford", card=card.key, cost=cost_text(card.cost),
                      pool=list(state.pool), discount=state.discount)
    return None


def _no_slot(arg: int, size: int) -> str:
    if size == 0:
        return Reason("the hand is empty", "refused.hand_empty")
    return Reason(f"the hand has slots 1 to {size}, not {arg}", "refused.no_such_slot",
                  slot=arg, size=size)


def _why_not_option(state: TrivinityState, pending: Pending, arg: int) -> str:
    kind = pending.kind
    if kind in ("card", "block"):
        size = len(state.hands[pending.player])
        if not 1 <= arg <= size:
            return _no_slot(arg, size)
        if kind == "block":
            return Reason(f"the card in slot {arg} is not a reaction card",
                          "refused.not_a_reaction", slot=arg)
    if kind == "seat":
        return Reason(f"player {arg} is not an opponent you can target",
                      "refused.not_a_target_player", seat=arg - 1)
    if kind == "limbo":
        if not 1 <= arg <= len(state.limbo_up):
            return Reason(f"Limbo has {len(state.limbo_up)} face-up cards, not a card {arg}",
                          "refused.no_such_limbo_card", card=arg, size=len(state.limbo_up))
        return Reason(f"Limbo card {arg} costs more than this effect allows",
                      "refused.limbo_too_costly", card=arg)
    if kind in ("stack", "free"):
        if not 1 <= arg <= STACKS:
            return Reason(f"the stacks are numbered 1 to 9, not {arg}",
                          "refused.no_such_stack", stack=arg)
        if not state.stacks[arg - 1]:
            return Reason(f"stack {arg} is empty", "refused.stack_empty", stack=arg)
        if kind == "free":
            return Reason("the free card is a tier-1 card: stacks 1, 2 or 3",
                          "refused.free_tier_1", stack=arg)
        return Reason(f"stack {arg} is not a target of {_prompt(state)}",
                      "refused.not_a_target_stack", stack=arg)
    return Reason(f"{arg} is not one of the choices", "refused.not_a_choice", choice=arg)


def _prompt(state: TrivinityState) -> str:
    from triverse.games.trivinity.render import prompt

    assert state.pending is not None
    return prompt(state, state.pending)
