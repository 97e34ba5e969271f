"""Trivinity's ``average`` computer player: plays its whole hand, then buys by sensible priorities.

The generic average player picks the best immediate score, which in Trivinity is zero until
the end; this one instead:

- plays every card, drawing cards first and "for each card played" cards last; it discards its
  hand for the free tier-1 card only when the hand could not buy a tier-1 card anyway;
- buys, while the pool allows, the face-up card of greatest value to it: printed worth in its
  two strongest resources (the ones that score), the tier bonus, and, early in the game, the
  card's economy (its worth and its effects on the cost curve), which matters less as a line
  of stacks runs out;
- never empties the last stack of a line unless that ends the game with it in the lead;
- answers effects simply: blocks every attack it can, discards and sends to Limbo its least
  useful cards (a starting card of its weakest resource first), cycles away tops it does not
  want, sends stack tops to Limbo only while it leads, targets the leading opponent.

:class:`TrivinityMind` makes one such decision; :class:`~.trivinity.TrivinityKnowledge` uses it
for its average level, the veteran's candidates and its simulations.

>>> import random
>>> from triverse.games.trivinity import TrivinityGame
>>> game = TrivinityGame(2)
>>> state = game.new_initial_state(seed=4)
>>> bot = TrivinityAveragePlayer()
>>> seat = state.current_player
>>> state.is_legal(bot.choose(game, state.observation(seat), random.Random(0)))
True
"""

from __future__ import annotations

import random
from typing import Any

from triverse.ai.basic import Player
from triverse.core.game import Game, Observation
from triverse.games.trivinity.cards import CURVE, Card, curve_value
from triverse.games.trivinity.engine import (
    LINES,
    PLAY,
    TrivinityAction,
    TrivinityState,
    pay,
    total_score,
)

_THIRD_RESOURCE_WEIGHT = 0.35


def effect_value(card: Card) -> float:
    """The part of a card's cost-curve value that its effects and keywords make up."""
    bonus = {2: CURVE["tier2"], 3: CURVE["tier3"]}.get(card.tier, 0.0)
    return curve_value(card) - CURVE["worth"] * card.worth_total - bonus


class TrivinityAveragePlayer(Player):
    """Average: a Trivinity-aware buyer (same interface as :class:`triverse.ai.basic.Player`)."""

    level = "average"

    def choose(self, game: Game[Any, Any], observation: Observation, rng: random.Random) -> Any:
        state = self._state_for(game, observation, rng)
        assert isinstance(state, TrivinityState)
        me = observation.player
        assert me is not None
        return TrivinityMind(state, me, rng).choose()


class TrivinityMind:
    """One decision of the average player: the state, the seat, and the valuations it needs.

    >>> from triverse import load_game
    >>> state = load_game("trivinity").new_initial_state(seed=4)
    >>> seat = state.current_player
    >>> state.is_legal(TrivinityMind(state, seat, random.Random(0)).choose())
    True
    """

    def __init__(self, state: TrivinityState, me: int, rng: random.Random) -> None:
        self.state = state
        self.me = me
        self.rng = rng
        totals = state.totals[me]
        order = sorted(range(3), key=lambda r: (-totals[r], rng.random()))
        self.focus = set(order[:2])
        self.weakest = order[2]
        # How much a card's economy still matters: the fewer cards left in the line closest to
        # emptying, the nearer the end.
        closest = min(sum(len(state.stacks[s]) for s in line) for line in LINES)
        self.economy = max(0.15, min(1.0, closest / 12))

    # --- valuations ------------------------------------------------------------------------
    def value(self, card: Card) -> float:
        """What owning ``card`` is worth to this player now."""
        score = sum(w if r in self.focus else w * _THIRD_RESOURCE_WEIGHT
                    for r, w in enumerate(card.worth))
        score += {2: 1.0, 3: 3.0}.get(card.tier, 0.0)
        return score + self.economy * (card.worth_total + effect_value(card))

    def keep_value(self, card_id: int) -> float:
        """How much this player wants to keep a card it holds (low: discard or trash it)."""
        card = self.state.card(card_id)
        value = self.value(card)
        if card.tier == 0 and card.worth[self.weakest]:
            value -= 1.0
        return value

    def leading(self) -> bool:
        state = self.state
        mine = state.estimate(self.me)
        return all(mine > state.estimate(q) for q in range(len(state.order)) if q != self.me)

    # --- decisions -------------------------------------------------------------------------
    def choose(self) -> TrivinityAction:
        state = self.state
        legal = list(state.legal_action_list())
        if len(legal) == 1:
            return legal[0]
        if state.pending is not None:
            return self.answer(legal)
        if state.phase == PLAY and state.hands[self.me]:
            return self.play_phase(legal)
        return self.buy(legal)

    def play_phase(self, legal: list[TrivinityAction]) -> TrivinityAction:
        state = self.state
        hand = state.hands[self.me]
        if not state.played_any and not state.free_used and any(state.stacks[s] for s in range(3)):
            pool = list(state.pool)
            for c in hand:
                card = state.card(c)
                if not card.delayed:
                    for r in range(3):
                        pool[r] += card.worth[r]
            cheapest = min((state.card(state.stacks[s][-1]).cost for s in range(3)
                            if state.stacks[s]), key=lambda cost: cost.total)
            if (sum(pool) < 3 and pay(cheapest, pool, state.discount) is None
                    and not any(state.card(c).steps for c in hand)):
                return TrivinityAction("discard-all")

        def order(slot: int) -> tuple[int, float]:
            card = state.card(hand[slot])
            if any(s.op == "draw" for s in card.steps):
                return (0, -effect_value(card))
            if any(s.op == "gain_per" and s.count == "played" for s in card.steps):
                return (2, 0.0)
            return (1, -effect_value(card))

        slot = min(range(len(hand)), key=order)
        return TrivinityAction("play", slot + 1)

    def buy(self, legal: list[TrivinityAction]) -> TrivinityAction:
        state = self.state
        best: TrivinityAction | None = None
        best_value = 0.0
        for action in legal:
            if action.kind != "buy":
                continue
            s = action.arg - 1
            card = state.card(state.stacks[s][-1])
            if len(state.stacks[s]) == 1 and self.ends_game(s) and not self.wins_after(card):
                continue
            value = self.value(card) + self.rng.random() * 0.01
            if value > best_value:
                best, best_value = action, value
        return best if best is not None else TrivinityAction("end")

    def ends_game(self, s: int) -> bool:
        stacks = self.state.stacks
        return any(s in line and all(t == s or not stacks[t] for t in line) for line in LINES)

    def wins_after(self, card: Card) -> bool:
        state = self.state
        totals = list(state.totals[self.me])
        for r in range(3):
            totals[r] += card.worth[r]
        totals[3] += card.tier == 2
        totals[4] += card.tier == 3
        mine = total_score(totals)
        return all(mine > state.estimate(q) for q in range(len(state.order)) if q != self.me)

    def answer(self, legal: list[TrivinityAction]) -> TrivinityAction:
        """The answer to the pending question."""
        state = self.state
        pending = state.pending
        assert pending is not None
        can_pass = TrivinityAction("pass") in legal
        options = [a for a in legal if a.kind != "pass"]
        kind = pending.kind
        if kind == "block":
            return options[0] if options else TrivinityAction("pass")
        if kind == "resource":
            return self.pick_resource(options)
        if kind == "seat":
            return max(options, key=lambda a: (state.estimate(a.arg - 1), self.rng.random()))
        if kind == "limbo":
            return max(options, key=lambda a: self.value(state.card(state.limbo_up[a.arg - 1])))
        if kind == "card":
            return self.pick_card(options, can_pass)
        return self.pick_stack(options, can_pass)

    def pick_card(self, options: list[TrivinityAction], can_pass: bool) -> TrivinityAction:
        """The hand card to discard when attacked, or to trash (only a weak starting card)."""
        state = self.state
        pending = state.pending
        assert pending is not None
        hand = state.hands[pending.player]
        worst = min(options, key=lambda a: self.keep_value(hand[a.arg - 1]))
        if pending.victim >= 0 or not can_pass:
            return worst
        trashed = state.card(hand[worst.arg - 1])
        step = state.pending_step(pending)
        if trashed.tier == 0 and (trashed.worth[self.weakest] or step.refund):
            return worst
        return TrivinityAction("pass")

    def top_value(self, action: TrivinityAction) -> float:
        """The value of the top card of the stack ``action`` names."""
        return self.value(self.state.card(self.state.stacks[action.arg - 1][-1]))

    def pick_stack(self, options: list[TrivinityAction], can_pass: bool) -> TrivinityAction:
        """A stack: for the free card, take, cycle, peek, limbo or raise."""
        state = self.state
        pending = state.pending
        assert pending is not None
        op = "free" if pending.kind == "free" else state.pending_step(pending).op
        stacks = state.stacks
        if op in ("free", "take"):
            if op == "take" and state.pending_step(pending).bottom:
                return max(options, key=lambda a: self.value(state.card(stacks[a.arg - 1][0])))
            return max(options, key=self.top_value)
        if op == "peek":
            return max(options, key=lambda a: (a.arg, len(stacks[a.arg - 1])))
        if op == "cycle":
            worst = min(options, key=self.top_value)
            if can_pass and self.top_value(worst) > 3.0:
                return TrivinityAction("pass")
            return worst
        if op == "raise":
            return self.pick_raise(options, can_pass)
        return self.pick_limbo_stack(options, can_pass)

    def pick_raise(self, options: list[TrivinityAction], can_pass: bool) -> TrivinityAction:
        """The stack whose bottom card is worth most more than its top (or pass)."""
        state = self.state

        def gain(a: TrivinityAction) -> float:
            stack = state.stacks[a.arg - 1]
            return self.value(state.card(stack[0])) - self.value(state.card(stack[-1]))

        best = max(options, key=gain)
        return best if gain(best) > 0 or not can_pass else TrivinityAction("pass")

    def pick_limbo_stack(self, options: list[TrivinityAction], can_pass: bool
                         ) -> TrivinityAction:
        """A stack top to send to Limbo: hurry the end while leading, otherwise hold back."""
        stacks = self.state.stacks
        if self.leading():
            def hurry(a: TrivinityAction) -> tuple[int, int]:
                s = a.arg - 1
                empties = max(sum(1 for t in line if not stacks[t]) for line in LINES if s in line)
                return (empties, -len(stacks[s]))
            return max(options, key=hurry)
        if can_pass:
            return TrivinityAction("pass")
        return max(options, key=lambda a: (len(stacks[a.arg - 1]), -self.top_value(a)))

    def pick_resource(self, options: list[TrivinityAction]) -> TrivinityAction:
        """The resource that lets the pool buy the most valuable card (else a focus one)."""
        state = self.state
        pending = state.pending
        assert pending is not None
        n = state.pending_step(pending).n
        best = max(options, key=lambda a: (a.arg in self.focus, -a.arg))
        best_value = 0.0
        for action in options:
            pool = list(state.pool)
            pool[action.arg] += n
            for stack in state.stacks:
                if stack and pay(state.card(stack[-1]).cost, pool, state.discount) is not None:
                    value = self.value(state.card(stack[-1]))
                    if value > best_value:
                        best, best_value = action, value
        return best


__all__ = ["TrivinityAveragePlayer", "TrivinityMind", "effect_value"]
