"""Knowledge of Trivinity, the deck-building game of gods.

The score is the two best resource totals of every card owned plus the tier bonuses, and the
game ends when three empty stacks make a line; so what matters is what to buy, and when to
hurry or hold back the end (deck tempo). The levels:

- novice: plays its whole hand, then buys a random card it can afford (most of the time), and
  answers effects at random; it never throws its hand away;
- average: :class:`~.trivinity_mind.TrivinityMind`'s priorities (play every card, buy the
  card worth most to it, do not end the game while behind);
- veteran: the average's play, but every decision of what to buy (and whether to stop buying)
  is searched by determinized Monte Carlo (:mod:`triverse.ai.search`): each candidate is played
  on sampled hands, decks and stacks, the game goes on to its end by the average policy for
  every player, and the result is judged by the lead in score and the win.

>>> import random
>>> from triverse import load_game
>>> game = load_game("trivinity")
>>> state = game.new_initial_state(seed=4)
>>> seat = state.current_player
>>> state.is_legal(TrivinityKnowledge().average_move(state, seat, random.Random(0)))
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from triverse.ai.knowledge import Knowledge
from triverse.ai.knowledge.trivinity_mind import TrivinityMind
from triverse.core.game import State
from triverse.games.trivinity.engine import LINES, PLAY, TrivinityAction, TrivinityState

AnyState = State[Any]

ROLLOUT_TURNS = 1000
"""Turns a simulation plays (all players together) before it is judged."""
ECONOMY_WEIGHT = 0.35
"""How much a card's buying power counts per turn still to come, in the judgement."""


def turns_left(state: TrivinityState) -> float:
    """A rough count of the turns each player still has: by the line of stacks nearest to
    running out (cards left in it), and the turn limit."""
    closest = min(sum(len(state.stacks[s]) for s in line) for line in LINES)
    by_limit = state.game.turn_limit - max(state.turns)
    return float(max(0, min(closest / max(1, len(state.order)), by_limit)))


class TrivinityKnowledge(Knowledge):
    """Trivinity."""

    name: ClassVar[str] = "trivinity"
    win_bonus: ClassVar[float] = 12.0
    max_candidates: ClassVar[int] = 6
    rollout_plies: ClassVar[int] = 3000
    default_budget: ClassVar[float] = 0.8
    indifference: ClassVar[float] = 0.5

    # --- levels ------------------------------------------------------------------------------
    def novice_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        assert isinstance(state, TrivinityState)
        legal = state.legal_action_list()
        if len(legal) == 1:
            return legal[0]
        if state.pending is not None:
            return rng.choice(legal)
        plays = [a for a in legal if a.kind == "play"]
        if state.phase == PLAY and plays:
            return plays[0]
        buys = [a for a in legal if a.kind == "buy"]
        if buys and rng.random() < 0.8:
            return rng.choice(buys)
        return TrivinityAction("end")

    def average_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        assert isinstance(state, TrivinityState)
        return TrivinityMind(state, seat, rng).choose()

    # --- the veteran's search ----------------------------------------------------------------
    def search_here(self, state: AnyState, seat: int) -> bool:
        """Search the buying decisions (what to buy, or to stop buying); playing the hand and
        answering effects are the average's routine."""
        assert isinstance(state, TrivinityState)
        if state.pending is not None or (state.phase == PLAY and state.hands[seat]):
            return False
        return sum(1 for a in state.legal_action_list() if a.kind == "buy") >= 1

    def candidates(self, state: AnyState, seat: int, rng: random.Random, limit: int
                   ) -> list[tuple[Any, float]]:
        assert isinstance(state, TrivinityState)
        mind = TrivinityMind(state, seat, rng)
        out: list[tuple[Any, float]] = []
        for action in state.legal_action_list():
            if action.kind == "buy":
                card = state.card(state.stacks[action.arg - 1][-1])
                out.append((action, mind.value(card)))
            elif action.kind == "end":
                out.append((action, 0.0))
        if not out:
            return [(a, 0.0) for a in state.legal_action_list()[:1]]
        out.sort(key=lambda item: -item[1])
        return out[:limit]

    def rollout_move(self, state: AnyState, rng: random.Random) -> Any:
        assert isinstance(state, TrivinityState)
        seat = state.current_player
        assert seat is not None
        return TrivinityMind(state, seat, rng).choose()

    def stop_rollout(self, start: AnyState, state: AnyState, plies: int) -> bool:
        assert isinstance(state, TrivinityState) and isinstance(start, TrivinityState)
        return state.turn_number - start.turn_number >= ROLLOUT_TURNS or plies >= \
            self.rollout_plies

    def evaluate(self, state: AnyState, seat: int) -> float:
        assert isinstance(state, TrivinityState)
        if state.is_terminal():
            return super().evaluate(state, seat)
        estimates = [float(state.estimate(q)) for q in range(len(state.order))]
        remaining = turns_left(state)
        for q in range(len(state.order)):
            estimates[q] += ECONOMY_WEIGHT * remaining * self.economy(state, q)
        best_other = max(v for q, v in enumerate(estimates) if q != seat)
        return estimates[seat] - best_other

    @staticmethod
    def economy(state: TrivinityState, q: int) -> float:
        """A player's buying power per card: the mean printed worth of all the cards it owns."""
        cards = (state.hands[q] + state.decks[q] + state.discards[q] + state.played[q]
                 + state.delayed[q])
        if not cards:
            return 0.0
        return sum(state.card(c).worth_total for c in cards) / len(cards)


__all__ = ["TrivinityKnowledge", "turns_left"]
