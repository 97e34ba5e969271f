"""A Trivinity turn: playing, discarding and buying cards, ending the turn, answering effects.

Each function applies one (legal) action to a state and appends what happened to ``events``;
card effects are left to :mod:`.effects`.

>>> from triverse import load_game
>>> state = load_game("trivinity").new_initial_state(seed=3)
>>> events = apply_action(state, TrivinityAction("end"))
>>> [e.kind for e in events][-2:], state.turn_number
(['end_turn', 'turn'], 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triverse.core.events import Event
from triverse.games.trivinity import effects
from triverse.games.trivinity.actions import TrivinityAction
from triverse.games.trivinity.rules import BUY, DELAYED, HAND_SIZE, MAIN, PLAY, Pending, pay
from triverse.games.trivinity.text import cost_text, worth_text

if TYPE_CHECKING:
    from triverse.games.trivinity.state import TrivinityState


def apply_action(state: TrivinityState, action: TrivinityAction) -> list[Event]:
    """Apply ``action``, then run the effects it started until one asks or all are done."""
    events: list[Event] = []
    _apply(state, action, events)
    return events


def _apply(state: TrivinityState, action: TrivinityAction, events: list[Event]) -> None:
    kind, arg = action.kind, action.arg
    if state.pending is not None:
        answer(state, kind, arg, events)
    elif kind == "play":
        play(state, arg - 1, events)
    elif kind == "discard":
        discard(state, arg - 1, events)
    elif kind == "discard-all":
        discard_all(state, events)
    elif kind == "buy":
        buy(state, arg - 1, events)
    elif kind == "end":
        end_turn(state, events)
    if not state.over and state.pending is None and state.frames:
        effects.run(state, events)


def play(state: TrivinityState, slot: int, events: list[Event]) -> None:
    """Play the card in hand ``slot``: its worth joins the pool and its effect runs (or, if
    delayed, it waits for the next turn)."""
    p = state.turn_player
    card_id = state.hands[p].pop(slot)
    card = state.card(card_id)
    state.played_any = True
    if card.delayed:
        state.delayed[p].append(card_id)
        events.append(Event("delay", p, label=f"Plays {card.name}: it waits for the next "
                            f"turn", data={"card": card_id, "key": card.key},
                            code="delay", params={"card": card.key}))
        return
    state.played[p].append(card_id)
    state._add_pool(p, card.worth)
    events.append(Event("play", p, label=f"Plays {card.name} (+{worth_text(card.worth)})",
                        data={"card": card_id, "key": card.key, "worth": list(card.worth)},
                        code="play", params={"card": card.key, "worth": list(card.worth)}))
    if card.steps:
        state.frames.append((p, card_id, MAIN, -1, 0))
        effects.run(state, events)


def discard(state: TrivinityState, slot: int, events: list[Event]) -> None:
    """Discard the card in hand ``slot``."""
    p = state.turn_player
    card_id = state.hands[p].pop(slot)
    state.discards[p].append(card_id)
    events.append(Event("discard", p, label=f"Discards {state.card(card_id).name}",
                        data={"card": card_id, "key": state.card(card_id).key},
                        code="discard", params={"card": state.card(card_id).key}))
    _maybe_free_gain(state, p, events)


def discard_all(state: TrivinityState, events: list[Event]) -> None:
    """Discard the whole hand."""
    p = state.turn_player
    cards = state.hands[p]
    state.hands[p] = []
    state.discards[p].extend(cards)
    keys = [state.card(c).key for c in cards]
    events.append(Event("discard_all", p, label="Discards the whole hand",
                        data={"cards": cards, "keys": keys}, code="discard_all",
                        params={"cards": keys}))
    _maybe_free_gain(state, p, events)


def _maybe_free_gain(state: TrivinityState, p: int, events: list[Event]) -> None:
    """A hand discarded without playing a card earns a free tier-1 card (once a turn)."""
    if state.hands[p] or state.played_any or state.free_used:
        return
    state.free_used = True
    if not any(state.stacks[s] for s in range(3)):
        events.append(Event("no_target", p, label="No tier-1 card is left to take for free",
                            code="no_free_card"))
        return
    state.pending = Pending(p, "free", True, p, -1, MAIN, 0)


def buy(state: TrivinityState, s: int, events: list[Event]) -> None:
    """Buy the top card of stack ``s`` (0-based) from the pool."""
    p = state.turn_player
    card_id = state.stacks[s][-1]
    card = state.card(card_id)
    paid = pay(card.cost, state.pool, state.discount)
    assert paid is not None
    state.pool, state.discount = paid
    state.phase = BUY
    state._take_top(s)
    state.discards[p].append(card_id)
    cost = cost_text(card.cost)
    events.append(Event("buy", p, label=f"Buys {card.name} from stack {s + 1}",
                        data={"card": card_id, "key": card.key, "stack": s + 1,
                              "cost": cost},
                        code="buy", params={"card": card.key, "stack": s + 1, "cost": cost}))
    state._owned(p, card, 1)
    state._stack_changed(s, events)


def end_turn(state: TrivinityState, events: list[Event]) -> None:
    """Discard hand and played cards, draw a new hand, and pass the turn (or end the game)."""
    p = state.turn_player
    state.discards[p].extend(state.hands[p])
    state.discards[p].extend(state.played[p])
    state.hands[p] = []
    state.played[p] = []
    state._draw(p, HAND_SIZE, events)
    events.append(Event("end_turn", p, label="Ends the turn", code="end_turn"))
    if state.ending and state.turn_index == len(state.order) - 1:
        state._finish(events, {"reason": "line", "line": list(state.ending)})
        return
    limit = state.game.turn_limit
    if all(t >= limit for t in state.turns):
        state._finish(events, {"reason": "turn_limit", "turns": limit})
        return
    state.turn_index = (state.turn_index + 1) % len(state.order)
    start_turn(state, state.order[state.turn_index], events)


def start_turn(state: TrivinityState, p: int, events: list[Event]) -> None:
    """Start ``p``'s turn: an empty pool, and the cards waiting since last turn resolve."""
    state.turn_index = state.order.index(p)
    state.turn_number += 1
    state.turns[p] += 1
    state.pool = [0, 0, 0]
    state.discount = 0
    state.phase = PLAY
    state.played_any = False
    state.free_used = False
    events.append(Event("turn", p, label=f"Turn {state.turns[p]}",
                        data={"turn": state.turn_number}, code="turn",
                        params={"turn": state.turn_number}))
    waiting = state.delayed[p]
    if waiting:
        state.delayed[p] = []
        state.played[p].extend(waiting)
        for card_id in reversed(waiting):
            state.frames.append((p, card_id, DELAYED, -1, 0))
        effects.run(state, events)


def answer(state: TrivinityState, kind: str, arg: int, events: list[Event]) -> None:
    """Answer the pending decision with an action of ``kind`` (``pass``, or its answer)."""
    pending = state.pending
    assert pending is not None
    state.pending = None
    if pending.kind == "free":
        if kind == "stack":
            state._gain_from_stack(pending.player, arg - 1, False, events, "free")
        else:
            events.append(Event("pass", pending.player, label="Takes no free card",
                                code="declined_free"))
        return
    if pending.kind == "block":
        if kind == "block":
            effects.block(state, pending, arg - 1, events)
        else:
            events.append(Event("allow", pending.player, label="Does not block",
                                code="allowed"))
        return
    step = state.pending_step(pending)
    if kind == "pass":
        events.append(Event("pass", pending.player, label="Declines", code="declined"))
        return
    effects.resolve(state, step, pending, arg, events)
