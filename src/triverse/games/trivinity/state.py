"""Trivinity's position: the zones of cards, the turn, and the primitive moves between zones.

What a player may do is in :mod:`.legal`, a player's own actions in :mod:`.turns`, the card
effects in :mod:`.effects` and what a seat sees in :mod:`.observation`; the state's methods
hand over to them. The zone moves here (draw, reshuffle, take a stack's top, gain, end the
game) are shared by all of those.

>>> from triverse import load_game
>>> state = load_game("trivinity").new_initial_state(seed=3)
>>> [len(h) for h in state.hands], state.phase, state.pool
([5, 5], 'play', [0, 0, 0])
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from triverse.core.events import Event
from triverse.core.game import Result, State
from triverse.core.rng import derive
from triverse.games.trivinity import legal, turns
from triverse.games.trivinity.actions import TrivinityAction, decode_action, encode_action
from triverse.games.trivinity.cards import Card, Step
from triverse.games.trivinity.observation import TrivinityObservation, observe
from triverse.games.trivinity.rules import (
    LINES,
    PLAY,
    STACKS,
    Frame,
    Pending,
    frame_steps,
    score_breakdown,
    total_score,
)
from triverse.games.trivinity.text import worth_text

if TYPE_CHECKING:
    from triverse.games.trivinity.engine import TrivinityGame


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

    def deal(self) -> dict[str, Any]:
        """The modules, order, decks, stacks and Limbo the game opened with
        (:func:`~triverse.games.trivinity.setup.deal_json`)."""
        from triverse.games.trivinity.setup import deal_json

        return deal_json(self)

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

    # --- legal actions (rules in .legal) -------------------------------------------------
    def pending_options(self) -> list[int]:
        """The legal answers to the pending decision (1-based, or resource indices)."""
        return legal.pending_options(self)

    def pending_step(self, pending: Pending) -> Step:
        """The effect step a pending decision answers."""
        design = self.table.design_of[pending.card]
        return frame_steps(self.table, design, pending.part)[pending.index]

    def legal_actions(self) -> Iterator[TrivinityAction]:
        return iter(legal.legal_action_list(self))

    def legal_action_list(self) -> list[TrivinityAction]:
        """The legal actions, as a list (the engine builds them all at once anyway)."""
        return legal.legal_action_list(self)

    def illegal_reason(self, action: TrivinityAction) -> str | None:
        return legal.illegal_reason(self, action)

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

    # --- applying actions (rules in .turns and .effects) ---------------------------------
    def _apply(self, action: TrivinityAction) -> list[Event]:
        return turns.apply_action(self, action)

    # --- ids and observations ------------------------------------------------------------
    def encode_action(self, action: TrivinityAction) -> int:
        return encode_action(action, self.table.size)

    def decode_action(self, action_id: int) -> TrivinityAction:
        return decode_action(action_id, self.table.size)

    def observation(self, player: int | None) -> TrivinityObservation:
        return observe(self, player)

    # --- zones -----------------------------------------------------------------------------
    def _opponents(self, p: int) -> list[int]:
        """The other players in turn order, starting after ``p``."""
        n = len(self.order)
        i = self.order.index(p)
        return [self.order[(i + k) % n] for k in range(1, n)]

    def _count(self, what: str, p: int) -> int:
        """What a ``gain_per`` step counts, for player ``p``."""
        if what == "empty_stacks":
            return sum(1 for s in self.stacks if not s)
        if what == "played":
            return max(0, len(self.played[p]) - 1)
        if what == "delayed":
            return len(self.delayed[p])
        if what == "buried":
            return sum(self.buried)
        return len(self.order) - 1

    def _add_pool(self, p: int, amounts: Sequence[int]) -> None:
        pool = self.pool
        pool[0] += amounts[0]
        pool[1] += amounts[1]
        pool[2] += amounts[2]

    def _gain_resources(self, p: int, amounts: Sequence[int], card: Card,
                        events: list[Event]) -> None:
        if not any(amounts):
            return
        self._add_pool(p, amounts)
        events.append(Event("gain_resources", p, label=f"Gains {worth_text(amounts)}",
                            data={"power": amounts[0], "mana": amounts[1],
                                  "tribute": amounts[2], "source": card.key},
                            code="gain_resources",
                            params={"power": amounts[0], "mana": amounts[1],
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
                            data={"cards": len(cards)}, code="shuffle",
                            params={"count": len(cards)}))

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
                                data={"count": len(drawn)}, code="draw",
                                params={"count": len(drawn)},
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
                                  "how": how},
                            code="gain", params={"card": card.key, "stack": s + 1, "how": how}))
        self._owned(p, card, 1)
        self._stack_changed(s, events)

    def _stack_changed(self, s: int, events: list[Event]) -> None:
        """After a stack loses or turns its top: show the new top, and end on a line."""
        stack = self.stacks[s]
        if stack:
            top = stack[-1]
            events.append(Event("top", None, label="", data={"stack": s + 1, "card": top,
                                                             "key": self.card(top).key},
                                code="top",
                                params={"stack": s + 1, "card": self.card(top).key}))
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
                        f"end of this round"), data={"line": stacks},
                        code="line", params={"line": stacks}))
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

    # --- the end ---------------------------------------------------------------------------
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
                code="final_score",
                params={**breakdown, "best": [r.lower() for r in breakdown["best"]]},
                **breakdown))
        why = ("three empty stacks in a line: " + ", ".join(map(str, reason["line"]))
               if reason["reason"] == "line" else
               f"every player has had {reason['turns']} turns (the safety limit)")
        result = self.result()
        events.append(Event("game_end", None, label=f"The game ends: {why}",
                            data={**reason, "scores": list(result.scores),
                                  "ranks": list(result.ranks)},
                            code=f"game_over.{reason['reason']}",
                            params={**reason, "winners": list(result.winners)}))

    def result(self) -> Result:
        """Places by score; ties go to the player who had fewer turns, then to more tier-3
        cards; players still equal share the place."""
        keys = [(self.scores[p], -self.turns[p], self.totals[p][4])
                for p in range(len(self.order))]
        ranks = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
        return Result(tuple(self.scores), ranks)
