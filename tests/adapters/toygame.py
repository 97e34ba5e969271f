"""Climb: a tiny hidden-hand card game built on the core model, for the adapter tests.

It exists so that the adapters can be tested before (and independently of) the real engines. It
has everything that makes the adapters' job interesting: hidden hands, chance derived from the
state's seed, a multi-action turn, negative scores, options of every type (int, bool, str) and a
``determinize`` that resamples the other seats' hands.

Rules. The cards are numbered ``1..cards``. Each seat is dealt ``hand`` cards from a deck shuffled
with ``derive(seed, "deal")``; the rest, face down, form the pile. The table shows one number, the
top (0 at the start; in the ``descending`` direction it starts at ``cards + 1``). On a turn a seat
may

- ``P<c>``: play card ``c`` from its hand if it climbs past the top (higher, or lower when
  descending); it scores ``c`` points, and if it is the very next number (``top + 1``, or
  ``top - 1``) it plays again: a multi-action turn;
- ``D``: draw the top card of the pile (only the drawer sees it); it costs ``draw_cost`` points;
- ``X``: pass, only when it can neither play nor draw.

The game ends when a seat empties its hand (a ``bonus`` of 5, when enabled) or when every seat
passes in a row. Highest score wins; with ``lowest_wins`` the lowest score wins (a tiebreaker
that ranks differently from the scores).

>>> game = ToyGame(2)
>>> state = game.new_initial_state(seed=3)
>>> state.current_player
0
>>> sorted(str(a) for a in state.legal_actions())[:1]
['D']
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from triverse.core.errors import IllegalActionError, NotationError, OptionError, RecordError
from triverse.core.events import Event
from triverse.core.game import Game, Observation, Result, State, rank_by_score
from triverse.core.options import OptionSpec
from triverse.core.plugins import GamePlugin
from triverse.core.rng import derive, fresh_seed

MAX_PLAYERS = 4


@dataclass(frozen=True, slots=True, order=True)
class ToyAction:
    """``P<c>`` play card c, ``D`` draw, ``X`` pass."""

    kind: str
    card: int = 0

    def __str__(self) -> str:
        return f"P{self.card}" if self.kind == "P" else self.kind


DRAW = ToyAction("D")
PASS = ToyAction("X")


@dataclass(frozen=True, slots=True)
class ToyObservation(Observation):
    player: int | None
    cards: int
    hand: tuple[int, ...] | None
    hand_sizes: tuple[int, ...]
    top: int
    pile_size: int
    played: tuple[int, ...]
    scores: tuple[int, ...]
    to_move: int | None
    passes: int
    descending: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "hand": None if self.hand is None else list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "top": self.top,
            "pile_size": self.pile_size,
            "played": list(self.played),
            "scores": list(self.scores),
            "to_move": self.to_move,
            "passes": self.passes,
        }

    def to_tensor(self) -> list[float]:
        n = self.cards
        out = [0.0] * toy_tensor_size(n)
        if self.hand is not None:
            for card in self.hand:
                out[card - 1] = 1.0
        for card in self.played:
            out[n + card - 1] = 1.0
        base = 2 * n
        out[base] = self.top / (n + 1)
        out[base + 1] = self.pile_size / n
        for seat, size in enumerate(self.hand_sizes):
            out[base + 2 + seat] = size / n
        if self.to_move is not None:
            out[base + 2 + MAX_PLAYERS + self.to_move] = 1.0
        if self.player is not None:
            out[base + 2 + 2 * MAX_PLAYERS + self.player] = 1.0
        for seat, score in enumerate(self.scores):
            out[base + 2 + 3 * MAX_PLAYERS + seat] = score / 100.0
        return out


def toy_tensor_size(cards: int) -> int:
    return 2 * cards + 2 + 4 * MAX_PLAYERS


class ToyGame(Game["ToyState", ToyAction]):
    """Climb: see the module docstring."""

    name: ClassVar[str] = "toy"
    title: ClassVar[str] = "Climb (adapter test game)"
    summary: ClassVar[str] = "Play higher cards from a hidden hand; draw when you cannot."
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    default_players: ClassVar[int] = 2
    perfect_information: ClassVar[bool] = False
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("cards", int, 16, "Number of cards", minimum=6, maximum=40),
        OptionSpec("hand", int, 3, "Cards dealt to each seat", minimum=1, maximum=8),
        OptionSpec("draw_cost", int, 2, "Points lost per draw", minimum=0, maximum=10),
        OptionSpec("bonus", bool, True, "5 points for emptying one's hand"),
        OptionSpec("lowest_wins", bool, False, "The lowest score wins"),
        OptionSpec("direction", str, "ascending", "Which way to climb",
                   choices=("ascending", "descending")),
    )

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        super().__init__(players, options)
        self.cards = int(self.options["cards"])
        self.hand = int(self.options["hand"])
        if self.cards < self.num_players * self.hand + 1:
            raise OptionError(f"{self.cards} cards cannot deal {self.hand} to "
                              f"{self.num_players} seats and leave a pile")
        self.descending = self.options["direction"] == "descending"

    def _initial_state(self, seed: int, setup: Mapping[str, Any] | None) -> ToyState:
        if setup is None:
            deck = list(range(1, self.cards + 1))
            derive(seed, "deal").shuffle(deck)
            hands = [sorted(deck[i * self.hand:(i + 1) * self.hand])
                     for i in range(self.num_players)]
            pile = deck[self.num_players * self.hand:]
        else:
            try:
                hands = [sorted(int(c) for c in h) for h in setup["hands"]]
                pile = [int(c) for c in setup["pile"]]
            except (KeyError, TypeError, ValueError) as exc:
                raise RecordError(f"bad setup: {exc}") from None
            if len(hands) != self.num_players:
                raise RecordError("bad setup: one hand per seat")
        return ToyState(self, seed, hands, pile, None if setup is None else dict(setup))

    def parse_action(self, text: str) -> ToyAction:
        text = text.strip().upper()
        if text == "D":
            return DRAW
        if text == "X":
            return PASS
        if text.startswith("P") and text[1:].isdigit():
            return ToyAction("P", int(text[1:]))
        raise NotationError(f"not a Climb action: {text!r}")

    def determinize(self, observation: Any, rng: random.Random) -> ToyState:
        obs: ToyObservation = observation
        if obs.player is None or obs.hand is None:
            raise ValueError("a determinization needs a seat's observation")
        unseen = [c for c in range(1, self.cards + 1)
                  if c not in obs.hand and c not in obs.played]
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        for seat, size in enumerate(obs.hand_sizes):
            if seat == obs.player:
                hands.append(sorted(obs.hand))
            else:
                hands.append(sorted(unseen[:size]))
                unseen = unseen[size:]
        state = self._initial_state(fresh_seed(rng), {"hands": hands, "pile": unseen})
        state.top = obs.top
        state.played = list(obs.played)
        state.scores = list(obs.scores)
        state.to_move = obs.to_move
        state.passes = obs.passes
        return state

    @property
    def num_distinct_actions(self) -> int:
        return self.cards + 2

    @property
    def max_game_length(self) -> int:
        # Every play moves the top, every draw shrinks the pile, and between two of those at
        # most num_players - 1 passes can happen (the num_players-th ends the game).
        return 2 * self.cards + self.num_players * (2 * self.cards + 1)

    @property
    def tensor_size(self) -> int:
        return toy_tensor_size(self.cards)

    @property
    def min_score(self) -> int:
        return -int(self.options["draw_cost"]) * self.cards

    @property
    def max_score(self) -> int:
        return self.cards * (self.cards + 1) // 2 + 5

    def render_text(self, observation: Observation) -> str:
        obs: ToyObservation = observation  # type: ignore[assignment]
        lines = [f"top {obs.top}   pile {obs.pile_size}   to move: {obs.to_move}"]
        for seat, (size, score) in enumerate(zip(obs.hand_sizes, obs.scores, strict=True)):
            shown = (" ".join(map(str, obs.hand))
                     if obs.hand is not None and seat == obs.player else "?" * size)
            lines.append(f"seat {seat}: {score:4d}  {shown}")
        return "\n".join(lines)


class ToyState(State[ToyAction]):
    game: ToyGame

    def __init__(self, game: ToyGame, seed: int, hands: list[list[int]], pile: list[int],
                 setup: dict[str, Any] | None) -> None:
        super().__init__(game, seed)
        self.hands = hands
        self.pile = pile
        self.top = game.cards + 1 if game.descending else 0
        self.played: list[int] = []
        self.to_move: int | None = 0
        self.passes = 0
        self._setup = setup

    # --- rules -----------------------------------------------------------------------------------
    def _climbs(self, card: int) -> bool:
        return card < self.top if self.game.descending else card > self.top

    def _next(self, card: int) -> bool:
        return card == (self.top - 1 if self.game.descending else self.top + 1)

    @property
    def current_player(self) -> int | None:
        return self.to_move

    def is_terminal(self) -> bool:
        return self.to_move is None

    def legal_actions(self) -> Iterator[ToyAction]:
        if self.to_move is None:
            return
        plays = [c for c in self.hands[self.to_move] if self._climbs(c)]
        for card in plays:
            yield ToyAction("P", card)
        if self.pile:
            yield DRAW
        elif not plays:
            yield PASS

    def illegal_reason(self, action: ToyAction) -> str | None:
        if self.to_move is None:
            return "the game is over"
        hand = self.hands[self.to_move]
        if action.kind == "P":
            if action.card not in hand:
                return "that card is not in your hand"
            if not self._climbs(action.card):
                return "that card does not climb past the top"
            return None
        if action.kind == "D":
            return None if self.pile else "the pile is empty"
        if action.kind == "X":
            if self.pile or any(self._climbs(c) for c in hand):
                return "you may only pass when you can neither play nor draw"
            return None
        return "unknown action"

    def _apply(self, action: ToyAction) -> list[Event]:
        seat = self.to_move
        assert seat is not None
        n = self.game.num_players
        events: list[Event] = []
        if action.kind == "P":
            again = self._next(action.card)
            self.hands[seat].remove(action.card)
            self.top = action.card
            self.played.append(action.card)
            self.passes = 0
            events.append(self._score(seat, action.card, "play", f"Play {action.card}"))
            if not self.hands[seat]:
                if self.game.options["bonus"]:
                    events.append(self._score(seat, 5, "bonus", "Out +5"))
                self.to_move = None
                events.append(Event("game_end"))
                return events
            self.to_move = seat if again else (seat + 1) % n
        elif action.kind == "D":
            card = self.pile.pop()
            self.hands[seat].append(card)
            self.hands[seat].sort()
            self.passes = 0
            cost = int(self.game.options["draw_cost"])
            events.append(Event("draw", seat, 0, "Draw", secret={"card": card}))
            if cost:
                events.append(self._score(seat, -cost, "draw_cost", f"Draw -{cost}"))
            self.to_move = (seat + 1) % n
        else:
            self.passes += 1
            events.append(Event("pass", seat, 0, "Pass"))
            if self.passes >= n:
                self.to_move = None
                events.append(Event("game_end"))
            else:
                self.to_move = (seat + 1) % n
        return events

    def result(self) -> Result:
        if not self.game.options["lowest_wins"]:
            return Result.from_scores(self.scores)
        ranks = rank_by_score([-s for s in self.scores])
        return Result(tuple(self.scores), ranks)

    # --- views -----------------------------------------------------------------------------------
    def observation(self, player: int | None) -> ToyObservation:
        return ToyObservation(
            player=player,
            cards=self.game.cards,
            hand=None if player is None else tuple(self.hands[player]),
            hand_sizes=tuple(len(h) for h in self.hands),
            top=self.top,
            pile_size=len(self.pile),
            played=tuple(self.played),
            scores=tuple(self.scores),
            to_move=self.to_move,
            passes=self.passes,
            descending=self.game.descending,
        )

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        self._copy_base_into(other)
        other.hands = [h.copy() for h in self.hands]
        other.pile = self.pile.copy()
        other.top = self.top
        other.played = self.played.copy()
        other.to_move = self.to_move
        other.passes = self.passes
        other._setup = self._setup
        return other

    # --- integer ids -----------------------------------------------------------------------------
    def encode_action(self, action: ToyAction) -> int:
        if action.kind == "P":
            return action.card - 1
        return self.game.cards + (0 if action.kind == "D" else 1)

    def decode_action(self, action_id: int) -> ToyAction:
        cards = self.game.cards
        if 0 <= action_id < cards:
            return ToyAction("P", action_id + 1)
        if action_id == cards:
            return DRAW
        if action_id == cards + 1:
            return PASS
        raise IllegalActionError(f"no Climb action has id {action_id}")

    def setup(self) -> dict[str, Any] | None:
        return self._setup

    def deal(self) -> dict[str, Any]:
        """The hands dealt and the pile in drawing order (the top, drawn first, first)."""
        opening = self.game._initial_state(self.seed, self._setup)
        return {"hands": [list(h) for h in opening.hands], "pile": opening.pile[::-1]}


PLUGIN = GamePlugin(engine="adapters.toygame:ToyGame", static="adapters:toyweb",
                    rules="/games/toy/rules.html")
"""Climb as a game plugin (``tests/plugin_site`` declares it in the ``triverse.games`` entry
points): no knowledge of its own (the computer players use the generic one), no browser table,
a rules page among its own static files (``toyweb/``)."""
