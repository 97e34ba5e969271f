"""What a Trivinity seat sees: :class:`TrivinityObservation`, and :func:`observe` to build it.

>>> from triverse import load_game
>>> state = load_game("trivinity").new_initial_state(seed=3)
>>> seen = observe(state, 0)
>>> len(seen.hand), seen.hand_sizes, len(seen.to_tensor()) == state.game.tensor_size
(5, (5, 5), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from triverse.core.game import Observation
from triverse.games.trivinity.cards import RESOURCES, CardTable
from triverse.games.trivinity.rules import BUY, PENDING_KINDS, PLAY, STACKS, Frame, Pending

if TYPE_CHECKING:
    from triverse.games.trivinity.state import TrivinityState


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


def observe(state: TrivinityState, player: int | None) -> TrivinityObservation:
    """What ``player`` (``None``: a spectator) sees of ``state``."""
    n = len(state.order)
    stacks = []
    for s in range(STACKS):
        stack = state.stacks[s]
        size = len(stack)
        buried = state.buried[s]
        known: tuple[tuple[int, int], ...] = ()
        if player is not None and state.known[player]:
            mine = state.known[player]
            known = tuple((size - 1 - i, stack[i])
                          for i in range(buried, size - 1) if stack[i] in mine)
        stacks.append(StackView(size, stack[-1] if stack else -1, tuple(stack[:buried]),
                                max(size - buried - 1, 0), known))
    hidden = tuple(() if q == player else tuple(sorted(state.hands[q] + state.decks[q]))
                   for q in range(n))
    return TrivinityObservation(
        player=player,
        num_players=n,
        modules=state.modules,
        order=state.order,
        turn_number=state.turn_number,
        turn_player=state.turn_player,
        current=state.current_player,
        phase=state.phase,
        pool=tuple(state.pool),
        discount=state.discount,
        played_any=state.played_any,
        free_used=state.free_used,
        hand=tuple(state.hands[player]) if player is not None else (),
        own_deck=tuple(sorted(state.decks[player])) if player is not None else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        deck_sizes=tuple(len(d) for d in state.decks),
        hidden=hidden,
        discards=tuple(tuple(d) for d in state.discards),
        played=tuple(tuple(d) for d in state.played),
        delayed=tuple(tuple(d) for d in state.delayed),
        stacks=tuple(stacks),
        limbo_up=tuple(state.limbo_up),
        limbo_down=len(state.limbo_down),
        scores=tuple(state.scores),
        totals=tuple(tuple(t) for t in state.totals),
        turns=tuple(state.turns),
        shuffles=tuple(state.shuffles),
        turn_limit=state.game.turn_limit,
        pending=state.pending,
        frames=tuple(state.frames),
        over=state.over,
        end_reason=dict(state.end_reason),
        ending=state.ending,
        table=state.table,
    )

