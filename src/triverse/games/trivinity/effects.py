"""Trivinity's card effects: one small handler per step op, dispatched from one table.

A card's effect is a list of steps (:class:`~.cards.Step`, whose ``op`` names what it does);
an effect being resolved is a *frame* (:data:`~.rules.Frame`), and the state keeps a stack of
them. :func:`run` resolves the top frame's next step with its handler in :data:`EFFECTS`,
until a step asks a question (a :class:`~.rules.Pending` decision) or no frame is left. A
step that asks is answered through :data:`CHOICES` (:func:`resolve`), and what it may choose
is :func:`choice_options`. Ops starting with ``_`` are the engine's own steps: a delayed
card's worth, an attack's defence and its parts on one victim.

>>> sorted(set(CHOICES) - set(EFFECTS))
[]
>>> run_step(None, Step("shout"), (0, 0, -1, -1, 0), [])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown effect step 'shout': the steps are _banish, _defend, ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from triverse.core.events import Event
from triverse.games.trivinity.cards import Step
from triverse.games.trivinity.rules import DELAYED, REACTION, STACKS, Frame, Pending, frame_steps
from triverse.games.trivinity.text import worth_text

if TYPE_CHECKING:
    from triverse.games.trivinity.state import TrivinityState

Handler = Callable[["TrivinityState", Step, Frame, list[Event]], None]
"""Runs one step: (state, step, the frame at this step, events)."""
Resolver = Callable[["TrivinityState", Step, Pending, int, list[Event]], None]
"""Carries out the answer to a step's question: (state, step, pending, answer, events)."""

EFFECTS: dict[str, Handler] = {}
"""Every step op and the handler that runs it."""
CHOICES: dict[str, Resolver] = {}
"""The ops that ask a question, and the handler that carries out the answer."""


def effect(*ops: str) -> Callable[[Handler], Handler]:
    """Register a handler in :data:`EFFECTS` for ``ops``."""
    def register(handler: Handler) -> Handler:
        for op in ops:
            EFFECTS[op] = handler
        return handler
    return register


def choice(*ops: str) -> Callable[[Resolver], Resolver]:
    """Register an answer's handler in :data:`CHOICES` for ``ops``."""
    def register(resolver: Resolver) -> Resolver:
        for op in ops:
            CHOICES[op] = resolver
        return resolver
    return register


# --- the interpreter -------------------------------------------------------------------------
def run(state: TrivinityState, events: list[Event]) -> None:
    """Run the effect frames until one asks a question, or all are done."""
    frames = state.frames
    table = state.table
    while frames and state.pending is None and not state.over:
        frame = frames[-1]
        owner, card_id, part, victim, index = frame
        steps = frame_steps(table, table.design_of[card_id], part)
        if index >= len(steps):
            frames.pop()
            continue
        frames[-1] = (owner, card_id, part, victim, index + 1)
        run_step(state, steps[index], frame, events)


def run_step(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Run one step with its handler; an op without one is an error."""
    handler = EFFECTS.get(step.op)
    if handler is None:
        raise ValueError(f"unknown effect step {step.op!r}: the steps are "
                         f"{', '.join(sorted(EFFECTS))}")
    handler(state, step, frame, events)


def resolve(state: TrivinityState, step: Step, pending: Pending, arg: int,
            events: list[Event]) -> None:
    """Carry out the answer ``arg`` to the question ``step`` asked."""
    resolver = CHOICES.get(step.op)
    if resolver is None:
        raise ValueError(f"effect step {step.op!r} asks no question: the steps that ask are "
                         f"{', '.join(sorted(CHOICES))}")
    resolver(state, step, pending, arg, events)


# --- steps that need no choice ---------------------------------------------------------------
@effect("draw")
def draw(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Draw ``n`` cards."""
    state._draw(frame[0], step.n, events)


@effect("gain")
def gain(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Gain fixed resources."""
    owner, card_id = frame[0], frame[1]
    state._gain_resources(owner, step.gain, state.card(card_id), events)


@effect("gain_per")
def gain_per(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Gain ``n`` of one resource for each thing counted, up to ``max``."""
    owner, card_id = frame[0], frame[1]
    gained = [0, 0, 0]
    gained[step.resource] = min(step.max, state._count(step.count, owner)) * step.n
    state._gain_resources(owner, gained, state.card(card_id), events)


@effect("surge")
def surge(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Discard the top ``n`` cards of the deck and gain their worth."""
    owner, card_id = frame[0], frame[1]
    total = [0, 0, 0]
    shown = []
    for _ in range(step.n):
        top = state._deck_top(owner, events)
        if top is None:
            break
        state.discards[owner].append(top)
        shown.append(state.card(top).key)
        for r in range(3):
            total[r] += state.card(top).worth[r]
    events.append(Event("surge", owner, label=f"Surge: discards "
                        f"{', '.join(shown) or 'nothing'}", data={"cards": shown},
                        code="surge", params={"cards": shown}))
    state._gain_resources(owner, total, state.card(card_id), events)


@effect("discount")
def discount(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Purchases this turn cost ``n`` less (of their ``any`` part)."""
    state.discount += step.n
    events.append(Event("discount", frame[0], label=f"Purchases cost {step.n} less",
                        data={"discount": state.discount}, code="discount",
                        params={"discount": state.discount}))


@effect("exile")
def exile(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """The card played goes to Limbo (if it is still in play)."""
    owner, card_id = frame[0], frame[1]
    if card_id in state.played[owner]:
        card = state.card(card_id)
        state.played[owner].remove(card_id)
        state.limbo_up.append(card_id)
        events.append(Event("exile", owner, label=f"{card.name} goes to Limbo",
                            data={"card": card_id, "key": card.key}, code="exile",
                            params={"card": card.key}))
        state._owned(owner, card, -1)


@effect("attack")
def attack(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Attack each opponent (one frame a victim), or ask which one."""
    owner, card_id, part, _, index = frame
    card = state.card(card_id)
    k = index - 1 if part == DELAYED else index
    events.append(Event("attack", owner, label=f"{card.name} attacks",
                        data={"card": card_id, "key": card.key, "kind": step.kind},
                        code="attack", params={"card": card.key, "kind": step.kind}))
    opponents = state._opponents(owner)
    if step.target == "each" or len(opponents) == 1:
        for q in reversed(opponents):
            state.frames.append((owner, card_id, k, q, 0))
    else:
        state.pending = Pending(owner, "seat", False, owner, card_id, part, index)


@effect("_worth")
def worth(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """A delayed card resolves: its worth joins the pool."""
    owner, card_id = frame[0], frame[1]
    card = state.card(card_id)
    state._add_pool(owner, card.worth)
    events.append(Event("resolve", owner, label=f"{card.name} resolves "
                        f"(+{worth_text(card.worth)})",
                        data={"card": card_id, "key": card.key, "worth": list(card.worth)},
                        code="resolve", params={"card": card.key, "worth": list(card.worth)}))


@effect("_defend")
def defend(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Before an attack hits: a waiting ward blocks it, or the victim may block."""
    attacker, card_id, part, victim, index = frame
    for waiting in state.delayed[victim]:
        if state.card(waiting).ward:
            events.append(Event("block", victim, label=f"{state.card(waiting).name}'s ward "
                                f"blocks the attack", data={"card": waiting,
                                                            "key": state.card(waiting).key},
                                code="ward_blocks", params={"card": state.card(waiting).key}))
            state.frames.pop()
            return
    # Ask whenever a reaction card is among the victim's hand and deck (public knowledge),
    # so that being asked tells the others nothing about the hand.
    if any(state.card(c).reaction for c in state.hands[victim]) or any(
            state.card(c).reaction for c in state.decks[victim]):
        state.pending = Pending(victim, "block", True, attacker, card_id, part, index, victim)


def block(state: TrivinityState, pending: Pending, slot: int, events: list[Event]) -> None:
    """The victim reveals the reaction card in ``slot``: the attack on it stops."""
    victim = pending.victim
    card_id = state.hands[victim][slot]
    card = state.card(card_id)
    events.append(Event("block", victim, label=f"Reveals {card.name} and blocks the attack",
                        data={"card": card_id, "key": card.key}, code="reaction_blocks",
                        params={"card": card.key}))
    state.frames.pop()  # the rest of this attack on this victim
    if card.reaction_draw:
        state.frames.append((victim, card_id, REACTION, victim, 0))


@effect("_discard")
def attack_discard(state: TrivinityState, step: Step, frame: Frame,
                   events: list[Event]) -> None:
    """Attacked: the victim discards a card of their choice (asked)."""
    owner, card_id, part, victim, index = frame
    if state.hands[victim]:
        state.pending = Pending(victim, "card", False, owner, card_id, part, index, victim)


@effect("_mill")
def attack_mill(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Attacked: the victim discards the top ``n`` cards of their deck."""
    victim = frame[3]
    for _ in range(step.n):
        top = state._deck_top(victim, events)
        if top is None:
            break
        state.discards[victim].append(top)
        events.append(Event("mill", victim, label=f"Discards {state.card(top).name} "
                            f"from the deck", data={"card": top, "key": state.card(top).key},
                            code="mill", params={"card": state.card(top).key}))


@effect("_banish")
def attack_banish(state: TrivinityState, step: Step, frame: Frame,
                  events: list[Event]) -> None:
    """Attacked: the victim's top deck card goes to Limbo (discarded if its tier is higher)."""
    victim = frame[3]
    top = state._deck_top(victim, events)
    if top is None:
        return
    lost = state.card(top)
    if lost.tier <= step.max_tier:
        state.limbo_up.append(top)
        events.append(Event("banish", victim, label=f"{lost.name} goes to Limbo",
                            data={"card": top, "key": lost.key}, code="banish",
                            params={"card": lost.key}))
        state._owned(victim, lost, -1)
    else:
        state.discards[victim].append(top)
        events.append(Event("mill", victim, label=f"Discards {lost.name} from the deck",
                            data={"card": top, "key": lost.key}, code="mill",
                            params={"card": lost.key}))


@effect("_steal")
def attack_steal(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Attacked: the attacker takes the victim's top discard, if its tier allows."""
    owner, victim = frame[0], frame[3]
    pile = state.discards[victim]
    if pile and state.card(pile[-1]).tier <= step.max_tier:
        top = pile.pop()
        stolen = state.card(top)
        state.discards[owner].append(top)
        events.append(Event("steal", owner, label=f"Steals {stolen.name} from player "
                            f"{victim + 1}", data={"card": top, "key": stolen.key,
                                                   "from": victim},
                            code="steal", params={"card": stolen.key, "from": victim}))
        state._owned(victim, stolen, -1)
        state._owned(owner, stolen, 1)
    else:
        events.append(Event("no_target", owner, label="Nothing to steal",
                            code="nothing_to_steal"))


# --- steps that ask ------------------------------------------------------------------------
_ASKS = {"trash": "card", "revive": "limbo"}
"""The pending kind a choice step asks for (the others ask for a stack)."""


@effect("gain_choice")
def ask_resource(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Ask the owner which resource to gain."""
    owner, card_id, part, _, index = frame
    state.pending = Pending(owner, "resource", False, owner, card_id, part, index)


@effect("cycle", "peek", "limbo", "take", "raise", "trash", "revive")
def ask(state: TrivinityState, step: Step, frame: Frame, events: list[Event]) -> None:
    """Ask the owner to choose; the step fizzles when nothing can be chosen."""
    owner, card_id, part, _, index = frame
    if not choice_options(state, step, owner):
        events.append(Event("no_target", owner, label=f"{state.card(card_id).name}: "
                            f"nothing to {step.op}", code="nothing_to_do",
                            params={"card": state.card(card_id).key, "op": step.op}))
        return
    state.pending = Pending(owner, _ASKS.get(step.op, "stack"), step.optional, owner, card_id,
                            part, index)


def _can_take(state: TrivinityState, step: Step, s: int) -> bool:
    stack = state.stacks[s]
    if step.bottom:
        return state.buried[s] >= 1 and state.card(stack[0]).cost.total <= step.max_cost
    return state.card(stack[-1]).cost.total <= step.max_cost


StackTest = Callable[["TrivinityState", Step, int], bool]

_STACK_TARGETS: dict[str, StackTest] = {
    "cycle": lambda state, step, s: len(state.stacks[s]) >= 2,
    "peek": lambda state, step, s: len(state.stacks[s]) - state.buried[s] - 1 >= 1,
    "limbo": lambda state, step, s: True,
    "take": _can_take,
    "raise": lambda state, step, s: state.buried[s] >= 1 and len(state.stacks[s]) >= 2,
}
"""Which non-empty stacks (of the step's tiers) a stack-choosing step may choose."""


def choice_options(state: TrivinityState, step: Step, player: int) -> list[int]:
    """What ``player`` may choose for ``step``: hand slots, Limbo cards or stacks (1-based)."""
    op = step.op
    if op in ("trash", "_discard"):
        return list(range(1, len(state.hands[player]) + 1))
    if op == "revive":
        return [i + 1 for i, c in enumerate(state.limbo_up)
                if state.card(c).cost.total <= step.max_cost]
    allowed = _STACK_TARGETS[op]
    return [s + 1 for s in range(STACKS)
            if state.stacks[s] and s // 3 + 1 in step.tiers and allowed(state, step, s)]


# --- answers ---------------------------------------------------------------------------------
@choice("gain_choice")
def chose_resource(state: TrivinityState, step: Step, pending: Pending, arg: int,
                   events: list[Event]) -> None:
    """Gain ``n`` of the chosen resource."""
    gained = [0, 0, 0]
    gained[arg] = step.n
    state._gain_resources(pending.player, gained, state.card(pending.card), events)


@choice("attack")
def chose_victim(state: TrivinityState, step: Step, pending: Pending, arg: int,
                 events: list[Event]) -> None:
    """The target of a one-opponent attack: start the attack on them."""
    k = pending.index - 1 if pending.part == DELAYED else pending.index
    state.frames.append((pending.player, pending.card, k, arg - 1, 0))


@choice("_discard")
def chose_discard(state: TrivinityState, step: Step, pending: Pending, arg: int,
                  events: list[Event]) -> None:
    """The attacked victim discards the chosen card."""
    victim = pending.victim
    card_id = state.hands[victim].pop(arg - 1)
    state.discards[victim].append(card_id)
    events.append(Event("discard", victim, label=f"Discards {state.card(card_id).name} "
                        f"(attacked)", data={"card": card_id, "key": state.card(card_id).key},
                        code="discard_attacked", params={"card": state.card(card_id).key}))


@choice("trash")
def chose_trash(state: TrivinityState, step: Step, pending: Pending, arg: int,
                events: list[Event]) -> None:
    """The chosen hand card goes to Limbo (its worth gained, with ``refund``)."""
    p = pending.player
    card_id = state.hands[p].pop(arg - 1)
    trashed = state.card(card_id)
    state.limbo_up.append(card_id)
    events.append(Event("trash", p, label=f"Sends {trashed.name} to Limbo",
                        data={"card": card_id, "key": trashed.key}, code="trash",
                        params={"card": trashed.key}))
    state._owned(p, trashed, -1)
    if step.refund:
        state._gain_resources(p, trashed.worth, state.card(pending.card), events)


@choice("revive")
def chose_revive(state: TrivinityState, step: Step, pending: Pending, arg: int,
                 events: list[Event]) -> None:
    """Gain the chosen face-up Limbo card."""
    p = pending.player
    card_id = state.limbo_up.pop(arg - 1)
    revived = state.card(card_id)
    state.discards[p].append(card_id)
    events.append(Event("gain", p, label=f"Gains {revived.name} from Limbo",
                        data={"card": card_id, "key": revived.key, "from": "limbo"},
                        code="gain_from_limbo", params={"card": revived.key}))
    state._owned(p, revived, 1)


@choice("cycle")
def chose_cycle(state: TrivinityState, step: Step, pending: Pending, arg: int,
                events: list[Event]) -> None:
    """The chosen stack's top goes face up under the stack."""
    s = arg - 1
    stack = state.stacks[s]
    card_id = stack.pop()
    stack.insert(0, card_id)
    state.buried[s] = min(state.buried[s] + 1, len(stack) - 1)
    events.append(Event("cycle", pending.player, label=f"Cycles {state.card(card_id).name} "
                        f"under stack {arg}", data={"card": card_id,
                                                    "key": state.card(card_id).key,
                                                    "stack": arg},
                        code="cycle", params={"card": state.card(card_id).key, "stack": arg}))
    state._stack_changed(s, events)


@choice("peek")
def chose_peek(state: TrivinityState, step: Step, pending: Pending, arg: int,
               events: list[Event]) -> None:
    """Look at up to ``n`` face-down cards under the chosen stack's top."""
    s, p = arg - 1, pending.player
    stack = state.stacks[s]
    lo = max(state.buried[s], len(stack) - 1 - step.n)
    seen = stack[lo:len(stack) - 1][::-1]
    state.known[p] = state.known[p] | frozenset(seen)
    cards = "card" if len(seen) == 1 else "cards"
    events.append(Event("peek", p, label=f"Looks at {len(seen)} face-down {cards} of stack "
                        f"{arg}", data={"stack": arg, "count": len(seen)}, code="peek",
                        params={"stack": arg, "count": len(seen)},
                        secret={"cards": seen, "names": [state.card(c).name for c in seen]}))


@choice("limbo")
def chose_limbo(state: TrivinityState, step: Step, pending: Pending, arg: int,
                events: list[Event]) -> None:
    """The chosen stack's top goes to Limbo."""
    s = arg - 1
    card_id = state._take_top(s)
    state.limbo_up.append(card_id)
    events.append(Event("limbo", pending.player, label=f"Sends {state.card(card_id).name} "
                        f"from stack {arg} to Limbo",
                        data={"card": card_id, "key": state.card(card_id).key, "stack": arg},
                        code="limbo", params={"card": state.card(card_id).key, "stack": arg}))
    state._stack_changed(s, events)


@choice("take")
def chose_take(state: TrivinityState, step: Step, pending: Pending, arg: int,
               events: list[Event]) -> None:
    """Gain the chosen stack's top (or its bottom face-up card, with ``bottom``)."""
    state._gain_from_stack(pending.player, arg - 1, step.bottom, events, "effect")


@choice("raise")
def chose_raise(state: TrivinityState, step: Step, pending: Pending, arg: int,
                events: list[Event]) -> None:
    """The chosen stack's bottom face-up card goes back on top."""
    s = arg - 1
    stack = state.stacks[s]
    card_id = stack.pop(0)
    state.buried[s] -= 1
    stack.append(card_id)
    events.append(Event("raise", pending.player, label=f"Raises {state.card(card_id).name} "
                        f"to the top of stack {arg}",
                        data={"card": card_id, "key": state.card(card_id).key, "stack": arg},
                        code="raise", params={"card": state.card(card_id).key, "stack": arg}))
