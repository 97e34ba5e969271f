"""Tri-ominoes: the rules engine (seed 004, with the official Pressman rules as a variant).

``docs/rules/triominoes.md`` lists every rule with its source, and the decisions taken where the
seed is silent; ``docs/notation.md`` the notation of the actions. What the tile games
share (dealing, placing, drawing, passing, going out, observations, ids, setups) is
:mod:`triverse.games._tiles.engine`; this module holds what is Tri-ominoes' own: the opening
with a triple, the hexagon and bridge bonuses, blocked rounds and the target score.

>>> from triverse import load_game
>>> game = load_game("triominoes", players=2)
>>> setup = {"hands": [["5-5-5", "3-5-5", "0-1-2"], ["1-3-5", "4-4-4"]]}
>>> state = game.new_initial_state(seed=1, setup=complete_setup(setup))
>>> state.current_player, [str(a) for a in state.legal_actions()]
(0, ['5-5-5@0,0/0'])
>>> [e.label for e in state.apply_notation("5-5-5@0,0/0") if e.points]
['Tile 5-5-5 +15']
>>> [str(a) for a in state.legal_actions()]
['draw']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final

from triverse.core.errors import RecordError
from triverse.core.events import Event
from triverse.core.options import OptionSpec, OptionValue
from triverse.games._tiles.engine import (
    WINDOW_X,
    WINDOW_Y,
    TileGame,
    TileObservation,
    TileState,
    seat_text,
)
from triverse.games._tiles.tiles import Action, Place, Tile, TileSet
from triverse.games._tiles.trigrid import Specials
from triverse.games.triominoes.messages import MESSAGES
from triverse.games.triominoes.tiles import TILES, TILESET, ZERO_TRIPLE

MAX_PLAYERS: Final = 6
NUM_TILES: Final = len(TILES)
HAND_SIZES: Final = {2: 9, 3: 7, 4: 7, 5: 6, 6: 6}
"""Tiles dealt to each seat, by the number of players (rule 2)."""
NUM_ACTION_IDS: Final = NUM_TILES * NUM_TILES * 9 + NUM_TILES + 2
"""Integer action ids (OpenSpiel): placements by tile x anchor x edge x rotation, then the
opening placements by tile, then draw and pass."""
RULES_VERSION: Final = 2
"""The rules' version (option ``rules_version``): 2 since a blocked round of the seed rules keeps
the scores (D11); games played before, under version 1, settled it as Pressman does."""

__all__ = [
    "NUM_ACTION_IDS",
    "RULES_VERSION",
    "WINDOW_X",
    "WINDOW_Y",
    "Action",
    "TriominoesGame",
    "TriominoesObservation",
    "TriominoesState",
    "complete_setup",
]


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers of one rule variant."""

    name: str
    triple_start: int
    """Bonus for opening the round with a triple."""
    zero_start: int
    """Extra bonus for opening with 0-0-0."""
    zero_by_choice: bool
    """Whether the holder of the highest triple may open with 0-0-0 instead."""
    draw_until_triple: bool
    """No triple dealt: draw for one (seed) rather than open with the highest tile."""
    max_draws: int | None
    """Draws allowed in one turn (``None``: until a tile can be played)."""
    pass_penalty: int
    hexagons: tuple[int, int, int]
    """Bonus for completing one, two, three hexagons with one tile."""
    each_hexagon: bool
    """Each hexagon scores its own event (seed), rather than one bonus for the count."""
    settle_blocked: bool
    """A blocked round is settled: the fewest points in hand scores the others' minus its own
    (Pressman); otherwise nobody scores it (seed)."""
    bridge: int = 40
    draw_penalty: int = 5
    out_bonus: int = 25


SEED_RULES: Final = Rules("seed", triple_start=0, zero_start=30, zero_by_choice=False,
                          draw_until_triple=True, max_draws=None, pass_penalty=0,
                          hexagons=(50, 100, 150), each_hexagon=True, settle_blocked=False)
PRESSMAN_RULES: Final = Rules("pressman", triple_start=10, zero_start=30, zero_by_choice=True,
                              draw_until_triple=False, max_draws=3, pass_penalty=10,
                              hexagons=(50, 60, 70), each_hexagon=False, settle_blocked=True)
RULES: Final = {"seed": SEED_RULES, "pressman": PRESSMAN_RULES}

_HEXAGON_NAMES: Final = ("Hexagon", "Double hexagon", "Triple hexagon")


# --- the observation -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TriominoesObservation(TileObservation):
    """What one seat (or a spectator) sees; besides the tile games' fields: the rules, and
    ``opening``, the tiles the round may open with, announced by the rules (empty once the first
    tile is down)."""

    variant: str
    target: int
    max_rounds: int
    opening: tuple[Tile, ...]

    game_name: ClassVar[str] = "triominoes"
    tileset: ClassVar[TileSet] = TILESET
    max_seats: ClassVar[int] = MAX_PLAYERS
    num_extras: ClassVar[int] = 3

    def _rules_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "target": self.target, "max_rounds": self.max_rounds}

    def _extra_json(self) -> dict[str, Any]:
        return {"opening": [str(t) for t in self.opening]}

    def _tensor_extras(self) -> list[float]:
        """The round, whether a round is opening, the variant."""
        return [self.round / max(self.max_rounds, 1), 1.0 if self.opening else 0.0,
                1.0 if self.variant == "pressman" else 0.0]

    def _score_scale(self) -> float:
        return float(max(self.target, 1))


TENSOR_SIZE: Final = TriominoesObservation.tensor_length()


# --- the game ------------------------------------------------------------------------------------
class TriominoesGame(TileGame["TriominoesState"]):
    """Tri-ominoes for 2-6 players: match corners, score hexagons and bridges, play to 400."""

    name: ClassVar[str] = "triominoes"
    title: ClassVar[str] = "Tri-ominoes"
    messages = MESSAGES
    summary: ClassVar[str] = (
        "The 1965 triangular dominoes for 2-6 players: match corners, build hexagons and "
        "bridges, play to 400."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    default_players: ClassVar[int] = 2
    perfect_information: ClassVar[bool] = False
    variants: ClassVar[Mapping[str, str]] = {
        "seed": "The seed's rules: no triple dealt, draw for one; a triple zero opening +30; "
                "draw (-5 each) until you can play; every hexagon closed +50; a blocked round "
                "scores nothing.",
        "pressman": "The official Pressman rules: +10 for opening with a triple (+40 with "
                    "0-0-0); no triple dealt, the highest tile opens; at most 3 draws a turn, "
                    "then pass -10; two or three hexagons at once +60 or +70; a blocked round "
                    "is settled (the fewest points in hand scores the others' minus its own).",
    }
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("variant", str, "seed", "Rules: the seed's, or the official Pressman rules",
                   choices=("seed", "pressman"), label="Rules", choice_labels={
                       "seed": ("This app's rules", "The rules of the original app: draw "
                                "until a tile fits, a blocked round scores the hands."),
                       "pressman": ("Official Pressman rules", "The rule sheet of the boxed "
                                    "game: at most 3 draws a turn, bonuses for an opening "
                                    "triple."),
                   }),
        OptionSpec("target", int, 400, "The game ends after the round in which a score reaches "
                   "this", minimum=1, maximum=100_000, label="Play to"),
        OptionSpec("max_rounds", int, 50, "Safety stop: the game also ends after this many "
                   "rounds", minimum=1, maximum=1000, label="Round limit"),
        OptionSpec("rules_version", int, RULES_VERSION, "The rules' version: 2, today's; 1, "
                   "the rules of games played before 2 December 2026, in which a blocked round "
                   "of the seed rules was settled as in Pressman's (so that they replay)",
                   minimum=1, maximum=RULES_VERSION, label="Rules version"),
    )
    record_options: ClassVar[Mapping[int, Mapping[str, OptionValue]]] = {
        1: {"rules_version": 1},
    }
    """A record of format version 1 was played before ``rules_version`` 2: it replays under 1."""
    tileset: ClassVar[TileSet] = TILESET
    observation_class: ClassVar[type[TileObservation]] = TriominoesObservation
    hand_sizes: ClassVar[Mapping[int, int]] = HAND_SIZES

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        super().__init__(players, options)
        rules = RULES[str(self.options["variant"])]
        if int(self.options["rules_version"]) < 2:
            rules = replace(rules, settle_blocked=True)
        self.rules: Rules = rules
        self.target = int(self.options["target"])
        self.max_rounds = int(self.options["max_rounds"])
        self.draw_penalty = self.rules.draw_penalty
        self.pass_penalty = self.rules.pass_penalty
        self.out_bonus = self.rules.out_bonus
        self.max_draws = self.rules.max_draws

    def _new_state(self, seed: int) -> TriominoesState:
        return TriominoesState(self, seed)

    @property
    def last_round(self) -> int:
        return self.max_rounds

    def _same_rules(self, observation: Any) -> bool:
        return bool(observation.variant == self.rules.name)

    # --- sizes -----------------------------------------------------------------------------------
    @property
    def max_game_length(self) -> int:
        """Rounds x (56 placements + 56 draws + the passes), the passes bounded by: at most
        ``n`` in a row after the pool runs out between two placements (the ``n``-th blocks the
        round), and at most 18 with tiles still in the pool (Pressman: each after 3 draws)."""
        n = self.num_players
        per_round = NUM_TILES + NUM_TILES + (NUM_TILES + 1) * n + NUM_TILES // 3
        return self.max_rounds * per_round

    @property
    def min_score(self) -> int:
        """Every round, at worst, draws the whole pool and passes at every opportunity."""
        n = self.num_players
        worst_round = (self.rules.draw_penalty * NUM_TILES
                       + self.rules.pass_penalty * ((NUM_TILES + 1) * n + NUM_TILES // 3))
        return -self.max_rounds * worst_round

    @property
    def max_score(self) -> int:
        """Below the target before the last round, which gives at most: every tile placed with
        the largest bonus, the opening bonuses, going out with all the other tiles."""
        best_tile = 15 + max(self.rules.bridge, self.rules.hexagons[2])
        last_round = (NUM_TILES * best_tile + self.rules.triple_start + self.rules.zero_start
                      + self.rules.out_bonus + NUM_TILES * 15)
        return self.target - 1 + last_round

    def _render(self, observation: Any) -> str:
        from triverse.games.triominoes.text import render

        return render(observation)


# --- the state -----------------------------------------------------------------------------------
class TriominoesState(TileState):
    """One position of a game of Tri-ominoes (all its rounds)."""

    game: TriominoesGame

    def __init__(self, game: TriominoesGame, seed: int) -> None:
        super().__init__(game, seed)
        self.rules = game.rules

    def _open_round(self) -> list[Event]:
        """Decide who opens the round and with which tile(s); return the events of drawing for a
        triple (seed) and the round start."""
        events: list[Event] = []
        best, holder = self._highest_held(triples=True)
        if best is None and self.rules.draw_until_triple:
            best, holder = self._draw_for_triple(events)
        if best is None:
            # Pressman (or a setup without triples to draw): the highest tile opens.
            best, holder = self._highest_held(triples=False)
        if best is None or holder is None:
            raise RecordError("no seat holds a tile to open the round with")
        opening: tuple[Tile, ...] = (best,)
        if (self.rules.zero_by_choice and best.is_triple and best is not ZERO_TRIPLE
                and ZERO_TRIPLE in self.hands[holder]):
            opening = (best, ZERO_TRIPLE)
        self.opening = opening
        self.current = holder
        self.draws = 0
        self.passes = 0
        names = " or ".join(str(t) for t in opening)
        events.append(Event(
            "round_start", None, 0, f"Round {self.round}: {seat_text(holder)} opens with "
            f"{names}", {"round": self.round, "starter": holder,
                         "opening": [str(t) for t in opening]},
            code="round_start.opens", params={"round": self.round, "opener": holder,
                                              "tiles": [str(t) for t in opening]}))
        return events

    def _highest_held(self, triples: bool) -> tuple[Tile | None, int | None]:
        """The highest triple in a hand (``triples``; by total) or the highest tile (by rank),
        and the seat holding it; the first of equals."""
        holder: int | None = None
        best: Tile | None = None
        for seat, hand in enumerate(self.hands):
            for t in hand:
                if triples:
                    if t.is_triple and (best is None or t.total > best.total):
                        best, holder = t, seat
                elif best is None or t.rank > best.rank:
                    best, holder = t, seat
        return best, holder

    def _draw_for_triple(self, events: list[Event]) -> tuple[Tile | None, int | None]:
        """The seats draw in turn, from seat 0, until one draws a triple: that triple and its
        seat (``None`` if the pool runs out first). The draws are added to ``events``."""
        seat = 0
        while self.pool_pos < len(self.pool):
            drawn = self.pool[self.pool_pos]
            self.pool_pos += 1
            self.hands[seat][drawn] = None
            events.append(Event(
                "start_draw", seat, 0, f"{seat_text(seat)} draws for a triple",
                {"pool": self.pool_count}, {"tile": str(drawn)}, code="drew_for_triple"))
            if drawn.is_triple:
                return drawn, seat
            seat = (seat + 1) % self.game.num_players
        return None, None

    def _bonuses(self, seat: int, action: Place, specials: Specials | None) -> list[Event]:
        """The opening bonuses, hexagons and the bridge."""
        t = action.tile
        rules = self.rules
        events: list[Event] = []
        if specials is None:
            if t.is_triple and rules.triple_start:
                events.append(self._score(seat, rules.triple_start, "score",
                                          f"Triple start +{rules.triple_start}",
                                          code="bonus.triple_start", reason="triple_start"))
            if t is ZERO_TRIPLE and rules.zero_start:
                events.append(self._score(seat, rules.zero_start, "score",
                                          f"Triple zero +{rules.zero_start}",
                                          code="bonus.zero_start", reason="zero_start"))
            return events
        count = len(specials.hexagons)
        if count and rules.each_hexagon:
            for vertex in specials.hexagons:
                events.append(self._score(seat, rules.hexagons[0], "score",
                                          f"Hexagon +{rules.hexagons[0]}",
                                          code="bonus.hexagon", reason="hexagon",
                                          vertex=list(vertex)))
        elif count:
            bonus = rules.hexagons[count - 1]
            events.append(self._score(seat, bonus, "score",
                                      f"{_HEXAGON_NAMES[count - 1]} +{bonus}",
                                      code="bonus.hexagons", params={"count": count},
                                      reason="hexagon",
                                      vertices=[list(v) for v in specials.hexagons]))
        if specials.span:
            events.append(self._score(seat, rules.bridge, "score", f"Bridge +{rules.bridge}",
                                      code="bonus.bridge", reason="bridge"))
        return events

    def _end_round(self, out: int | None) -> list[Event]:
        """Round-end scoring, then the next round or the end of the game."""
        totals = self.hand_totals()
        everyone = sum(totals)
        events: list[Event] = []
        if out is not None:
            events.extend(self._going_out(out))
            winners = [out]
            label = f"Round {self.round} ends: {seat_text(out)} goes out"
        elif self.rules.settle_blocked:
            low = min(totals)
            winners = [seat for seat, total in enumerate(totals) if total == low]
            for seat in winners:
                others = everyone - low
                events.append(self._score(seat, others, "score", f"Opponents' tiles +{others}",
                                          code="bonus.opponents_tiles",
                                          reason="opponents_tiles"))
                if low:
                    events.append(self._score(seat, -low, "score", f"Own tiles -{low}",
                                              code="bonus.own_tiles", reason="own_tiles"))
            names = ", ".join(seat_text(s) for s in winners)
            label = f"Round {self.round} is blocked: {names} with the fewest points in hand"
        else:
            winners = []
            label = f"Round {self.round} is blocked: scores are kept"
            if not self._game_ends():
                label += ", new deal"
        events.append(Event("round_end", None, 0, label, {
            "round": self.round, "reason": "out" if out is not None else "blocked",
            "winners": winners, "hand_totals": totals, "scores": list(self.scores)},
            code=("round_end.out" if out is not None else
                  "round_end.blocked_settled" if self.rules.settle_blocked else
                  "round_end.blocked_kept"),
            params={"round": self.round, "winner": out, "winners": winners}))
        if self._game_ends():
            events.append(self._game_over())
        else:
            self._deal(self.round + 1)
            events.extend(self._open_round())
        return events

    def _game_ends(self) -> bool:
        """Whether the round that ends now is the last: a score has reached the target, or the
        round limit is reached."""
        return max(self.scores) >= self.game.target or self.round >= self.game.max_rounds

    def _restore(self, observation: Any) -> None:
        self.opening = observation.opening

    def observation(self, player: int | None) -> TriominoesObservation:
        game = self.game
        return TriominoesObservation(
            **self._observed(player),
            variant=self.rules.name,
            target=game.target,
            max_rounds=game.max_rounds,
            opening=self.opening,
        )


def complete_setup(partial: Mapping[str, Any]) -> dict[str, Any]:
    """A setup with the tiles not named in ``partial`` put in the pool, in tile order.

    Handy for tests and rulebook positions: name the hands (and the board), the rest is the pool
    (after any ``pool`` given, which is drawn first).

    >>> setup = complete_setup({"hands": [["5-5-5"], ["0-0-0"]]})
    >>> len(setup["pool"]), setup["pool"][:2]
    (54, ['0-0-1', '0-0-2'])
    """
    return TILESET.complete_setup(partial)


