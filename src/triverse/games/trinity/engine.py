"""Trinity: the rules engine (seed 000, a 1999 Macintosh game by Divinity Software).

``docs/rules/trinity.md`` quotes every seed sentence next to the rule it produced and lists the
decisions taken where the seed is silent; ``docs/notation.md`` is the notation. The tile
games' shared engine (:mod:`triverse.games._tiles.engine`) deals, lists and checks placements,
draws, passes and scores going out; this module holds what is Trinity's own: the triangle turned
up to start each round, the Hexagon, Span and Slide, drawn rounds, the fixed number of rounds,
tiebreaker rounds with their score floor, and saving.

>>> from triverse.games.trinity.engine import TrinityGame
>>> game = TrinityGame(2, {"rounds": 1})
>>> state = game.new_initial_state(seed=1, setup=complete_setup({
...     "hands": [["5-5-1", "0-1-2"], ["4-5-5", "0-1-3"]], "pool": ["5-5-5"]}))
>>> [str(p) for p in state.placed], state.current_player     # 5-5-5 turned up from the pool
(['5-5-5@0,0/0'], 0)
>>> [str(a) for a in state.legal_actions()]
['1-5-5@1,0/2', '1-5-5@0,1/1', '1-5-5@-1,0/0']
>>> [e.label for e in state.apply_notation("1-5-5@1,0/2") if e.points]
['Tile 1-5-5 +11']
>>> state.can_save(), state.save()["position"]["current"]
(True, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from triverse.core.errors import RecordError, TriverseError
from triverse.core.events import Event
from triverse.core.options import OptionSpec
from triverse.core.schema import Boolean, Integer, ListOf, Schema
from triverse.games._tiles.engine import (
    TileGame,
    TileObservation,
    TileState,
    seat_text,
)
from triverse.games._tiles.setup import scores_schema
from triverse.games._tiles.tiles import Place, TileSet
from triverse.games._tiles.trigrid import ORIGIN, Specials
from triverse.games.trinity.messages import MESSAGES
from triverse.games.trinity.tiles import TILES, TILESET

MAX_PLAYERS: Final = 4
NUM_TILES: Final = len(TILES)
HAND_SIZES: Final = {2: 9, 3: 7, 4: 7}
"""Triangles dealt to each seat of a round, by the number of seats in the round (decision D1)."""
HEXAGON: Final = 40
SPAN: Final = 50
SLIDE: Final = 60
SAVE_FORMAT: Final = "trinity-save"
SAVE_VERSION: Final = 1


class SaveRefusedError(TriverseError, ValueError):
    """The game cannot be saved now (during a tiebreaker round, or once it is over)."""


def _seats(seats: tuple[int, ...]) -> str:
    names = [seat_text(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --- the observation -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TrinityObservation(TileObservation):
    """What one seat (or a spectator) sees; besides the tile games' fields: the number of
    rounds, the seats playing this round (``active``: the tied seats in a tiebreaker), the scores
    a tiebreaker round started from (``baseline``, ``None`` in the regular rounds) and whether a
    Span has been played in the game (``span_played``: Slides score from then on)."""

    rounds: int
    max_tiebreakers: int
    active: tuple[int, ...]
    baseline: tuple[int, ...] | None
    span_played: bool

    game_name: ClassVar[str] = "trinity"
    tileset: ClassVar[TileSet] = TILESET
    max_seats: ClassVar[int] = MAX_PLAYERS
    num_extras: ClassVar[int] = 3 + MAX_PLAYERS

    @property
    def tiebreaker(self) -> bool:
        """Whether this is a tiebreaker round (after the regular rounds)."""
        return self.round > self.rounds

    @property
    def can_save(self) -> bool:
        """Whether the game may be saved now: not in a tiebreaker round, not once over."""
        return not self.tiebreaker and self.current_player is not None

    def _rules_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "max_tiebreakers": self.max_tiebreakers}

    def _extra_json(self) -> dict[str, Any]:
        return {
            "tiebreaker": self.tiebreaker,
            "active": list(self.active),
            "baseline": None if self.baseline is None else list(self.baseline),
            "span_played": self.span_played,
            "can_save": self.can_save,
        }

    def _tensor_extras(self) -> list[float]:
        """The round, a tiebreaker, a Span played; then, per seat counted from the viewer,
        whether it plays this round."""
        me = self.player or 0
        n = self.num_players
        playing = [0.0] * MAX_PLAYERS
        for k in range(n):
            playing[k] = 1.0 if (me + k) % n in self.active else 0.0
        return [min(self.round, 2 * self.rounds) / (2 * self.rounds),
                1.0 if self.tiebreaker else 0.0, 1.0 if self.span_played else 0.0, *playing]

    def _score_scale(self) -> float:
        return 500.0


# --- the game ------------------------------------------------------------------------------------
class TrinityGame(TileGame["TrinityState"]):
    """Trinity for 2-4 players: 76 chiral triangles, Hexagons, Spans and Slides, 1-3 rounds."""

    name = "trinity"
    title = "Trinity"
    messages = MESSAGES
    summary = (
        "Triangle tiles numbered 0-5, 76 of them: match corners, score Hexagons, Spans and "
        "Slides over up to three rounds."
    )
    min_players = 2
    max_players = MAX_PLAYERS
    option_specs = (
        OptionSpec("rounds", int, 3, "Rounds in the game (then tiebreaker rounds for a tie for "
                   "first)", minimum=1, maximum=3, label="Number of rounds"),
        OptionSpec("max_tiebreakers", int, 10, "Safety stop: a tie for first still standing "
                   "after this many tiebreaker rounds is shared", minimum=1, maximum=100,
                   label="Tiebreaker limit"),
    )
    tileset = TILESET
    observation_class = TrinityObservation
    hand_sizes = HAND_SIZES

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        super().__init__(players, options)
        self.rounds = int(self.options["rounds"])
        self.max_tiebreakers = int(self.options["max_tiebreakers"])

    def _new_state(self, seed: int) -> TrinityState:
        return TrinityState(self, seed)

    @property
    def last_round(self) -> int:
        """The regular rounds and every tiebreaker round the safety stop allows."""
        return self.rounds + self.max_tiebreakers

    @property
    def max_game_length(self) -> int:
        return self.last_round * self.round_length_bound(self.num_players)

    @property
    def min_score(self) -> int:
        """Draws cost at most 5 for each tile of each regular round; a tiebreaker round never
        leaves a seat below where it started."""
        return -self.draw_penalty * NUM_TILES * self.rounds

    @property
    def max_score(self) -> int:
        """Every round at most: each tile placed closing three hexagons, and going out with all
        the other tiles."""
        best_tile = 15 + 3 * HEXAGON
        per_round = NUM_TILES * best_tile + self.out_bonus + NUM_TILES * 15
        return self.last_round * per_round

    def _render(self, observation: Any) -> str:
        from triverse.games.trinity.text import render

        return render(observation)

    # --- saving ----------------------------------------------------------------------------------
    def load(self, snapshot: Mapping[str, Any]) -> TrinityState:
        """Resume a game from :meth:`TrinityState.save`; :class:`RecordError` if the snapshot is
        malformed or of another game."""
        if not isinstance(snapshot, Mapping) or snapshot.get("format") != SAVE_FORMAT:
            raise RecordError(f"not a saved Trinity game: its 'format' is not {SAVE_FORMAT!r}")
        if snapshot.get("version") != SAVE_VERSION:
            raise RecordError(f"saved-game version {snapshot.get('version')!r} is not supported "
                              f"(this Triverse reads version {SAVE_VERSION})")
        if snapshot.get("game") != self.to_json():
            raise RecordError(f"the save is of {snapshot.get('game')!r}, not of "
                              f"{self.to_json()!r}")
        seed = snapshot.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"the save's 'seed' is a whole number, not {seed!r}")
        position = snapshot.get("position")
        if not isinstance(position, Mapping):
            raise RecordError("the save's 'position' is a setup object")
        return self.new_initial_state(seed=seed, setup=position)


# --- the state -----------------------------------------------------------------------------------
class TrinityState(TileState):
    """One position of a game of Trinity (all its rounds, tiebreakers included)."""

    game: TrinityGame

    def __init__(self, game: TrinityGame, seed: int) -> None:
        super().__init__(game, seed)
        self.active: tuple[int, ...] = tuple(range(game.num_players))
        """The seats playing this round: everyone, or the seats tied for first."""
        self.baseline: tuple[int, ...] | None = None
        """The scores when this tiebreaker round started (``None`` in a regular round)."""
        self.span_played = False
        """Whether a Span has been played in this game (Slides score from then on)."""

    # --- rounds ----------------------------------------------------------------------------------
    @property
    def tiebreaker(self) -> bool:
        """Whether the round in play is a tiebreaker round."""
        return self.round > self.game.rounds

    def seats_in_round(self) -> tuple[int, ...]:
        return self.active

    def _next_seat(self, seat: int) -> int:
        n = self.game.num_players
        for step in range(1, n + 1):
            if (seat + step) % n in self.active:
                return (seat + step) % n
        return seat

    def _open_round(self) -> list[Event]:
        """Turn the top triangle of the pool up on cell 0,0; the opener of round ``r`` is seat
        ``r - 1`` (counting round the table), or the next seat after it that plays the round."""
        if self.pool_pos >= len(self.pool):
            raise RecordError("the pool has no triangle to turn up to start the round")
        first = self.pool[self.pool_pos]
        self.pool_pos += 1
        start = Place(first, ORIGIN, 0)
        self.board.place(start.cell, start.values)
        self.placed.append(start)
        n = self.game.num_players
        opener = (self.round - 1) % n
        if opener not in self.active:
            opener = self._next_seat(opener)
        self.current = opener
        self.draws = 0
        self.passes = 0
        kind = f"Tiebreaker round {self.round - self.game.rounds}" if self.tiebreaker else \
            f"Round {self.round} of {self.game.rounds}"
        return [Event("round_start", None, 0,
                      f"{kind}: {first} is turned up; {seat_text(opener)} plays first",
                      {"round": self.round, "first_tile": str(first), "opener": opener,
                       "active": list(self.active), "tiebreaker": self.tiebreaker},
                      code="round_start.tiebreaker" if self.tiebreaker else "round_start.turned_up",
                      params={"round": self.round, "rounds": self.game.rounds,
                              "tiebreaker": self.round - self.game.rounds,
                              "tile": str(first), "opener": opener})]

    def _bonuses(self, seat: int, action: Place, specials: Specials | None) -> list[Event]:
        """The special plays, from the grid's one detector: each hexagon closed +40; one side
        touching with the opposite point on a triangle, a Span +50; two sides touching and no
        hexagon, a Slide +60 once a Span has been played in the game."""
        events: list[Event] = []
        if specials is None:
            return events
        for vertex in specials.hexagons:
            events.append(self._score(seat, HEXAGON, "special", f"Hexagon +{HEXAGON}",
                                      code="bonus.hexagon", special="hexagon", vertex=list(vertex)))
        if specials.span:
            events.append(self._score(seat, SPAN, "special", f"Span +{SPAN}",
                                      code="bonus.span", special="span"))
            self.span_played = True
        elif specials.double_contact and self.span_played:
            events.append(self._score(seat, SLIDE, "special", f"Slide +{SLIDE}",
                                      code="bonus.slide", special="slide"))
        return events

    def _end_round(self, out: int | None) -> list[Event]:
        """The winner's bonus, the tiebreaker floor, then the next round, a tiebreaker round or
        the end of the game."""
        totals = self.hand_totals()
        events: list[Event] = []
        if out is not None:
            events.extend(self._going_out(out))
            label = f"Round {self.round} ends: {seat_text(out)} plays the last triangle and wins"
        else:
            label = f"Round {self.round} is a draw: every player passed"
        if self.baseline is not None:
            for seat in self.active:
                lost = self.baseline[seat] - self.scores[seat]
                if lost > 0:
                    events.append(self._score(seat, lost, "score", f"Tiebreaker floor +{lost}",
                                              code="bonus.tiebreak_floor",
                                              params={"score": self.baseline[seat]},
                                              reason="tiebreak_floor",
                                              restored=self.baseline[seat]))
        events.append(Event("round_end", None, 0, label, {
            "round": self.round, "reason": "out" if out is not None else "draw",
            "winner": out, "hand_totals": totals, "scores": list(self.scores),
            "tiebreaker": self.tiebreaker},
            code="round_end.out" if out is not None else "round_end.all_passed",
            params={"round": self.round, "winner": out}))
        if self.round < self.game.rounds:
            self._deal(self.round + 1)
            events.extend(self._open_round())
            return events
        # Seats outside a tiebreaker are below the tied seats, which never drop below the score
        # they tied with: the seats tied for first are always among those that played.
        top = max(self.scores)
        tied = tuple(seat for seat, score in enumerate(self.scores) if score == top)
        if len(tied) > 1 and self.round < self.game.last_round:
            self.active = tied
            self.baseline = tuple(self.scores)
            events.append(Event("tiebreaker", None, 0,
                                f"{_seats(tied)} are tied for first with {top}: tiebreaker",
                                {"seats": list(tied), "score": top,
                                 "tiebreaker": self.round + 1 - self.game.rounds},
                                code="tiebreaker", params={"seats": list(tied), "score": top}))
            self._deal(self.round + 1, tied)
            events.extend(self._open_round())
            return events
        events.append(self._game_over())
        return events

    # --- saving ----------------------------------------------------------------------------------
    def save_refusal(self) -> str | None:
        """Why the game cannot be saved now, or ``None`` if it can."""
        if self.current is None:
            return "the game is over"
        if self.tiebreaker:
            return "a game cannot be saved during a tiebreaker round"
        return None

    def can_save(self) -> bool:
        """Whether the game may be saved now (not in a tiebreaker round, not once over)."""
        return self.save_refusal() is None

    def save(self) -> dict[str, Any]:
        """A JSON snapshot that :meth:`TrinityGame.load` resumes exactly: hands, pool order,
        board, round, scores, whose turn, the draws of this turn, the passes in a row and
        whether a Span has been played; the seed drives the rounds to come. Raises
        :class:`SaveRefusedError` during a tiebreaker round."""
        reason = self.save_refusal()
        if reason is not None:
            raise SaveRefusedError(f"cannot save now: {reason}")
        position = {
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "pool": [str(t) for t in self.pool[self.pool_pos:]],
            "board": [str(p) for p in self.placed],
            "scores": list(self.scores),
            "current": self.current,
            "round": self.round,
            "draws": self.draws,
            "passes": self.passes,
            "span": self.span_played,
        }
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": self.game.to_json(),
                "seed": self.seed, "position": position}

    # --- views and setups ------------------------------------------------------------------------
    def observation(self, player: int | None) -> TrinityObservation:
        return TrinityObservation(
            **self._observed(player),
            rounds=self.game.rounds,
            max_tiebreakers=self.game.max_tiebreakers,
            active=self.active,
            baseline=self.baseline,
            span_played=self.span_played,
        )

    def _restore(self, observation: Any) -> None:
        self.active = observation.active
        self.baseline = observation.baseline
        self.span_played = observation.span_played

    def _setup_fields(self) -> dict[str, Schema[Any]]:
        n = self.game.num_players
        return {
            "active": ListOf(Integer(minimum=0, maximum=n - 1, what=f"a seat 0-{n - 1}"),
                             min_length=2, unique=True,
                             what=f"two or more seats 0-{n - 1}, in order"),
            "baseline": scores_schema(n),
            "span": Boolean(),
        }

    def _read_setup(self, setup: Mapping[str, Any], normal: dict[str, Any]) -> None:
        """``span``: whether a Span has been played; in a tiebreaker round (``round`` above
        ``rounds``), ``active``, the seats playing it, and ``baseline``, the scores it started
        from."""
        self.span_played = setup.get("span", False)
        if "span" in setup:
            normal["span"] = self.span_played
        if not self.tiebreaker:
            for key in ("active", "baseline"):
                if key in setup:
                    raise RecordError(f"setup.{key}: only in a tiebreaker round (a 'round' "
                                      f"above {self.game.rounds})")
            return
        for key in ("active", "baseline"):
            if key not in setup:
                raise RecordError(f"setup.{key}: missing; a tiebreaker round (round "
                                  f"{self.round}) needs it")
        active = setup["active"]
        if active != sorted(active):
            raise RecordError(f"setup.active: expected two or more seats "
                              f"0-{self.game.num_players - 1}, in order, got {active!r}")
        self.active = tuple(active)
        self.baseline = tuple(setup["baseline"])
        for seat in range(self.game.num_players):
            if seat not in self.active and self.hands[seat]:
                raise RecordError(f"setup.hands[{seat}] holds triangles, but seat {seat} sits "
                                  f"out this tiebreaker round")
        normal.update(active=list(self.active), baseline=list(self.baseline))


def complete_setup(partial: Mapping[str, Any]) -> dict[str, Any]:
    """A setup with the triangles not named in ``partial`` put in the pool, in tile order (after
    any ``pool`` given, which is drawn first: with no ``board``, its first triangle is turned
    up to start the round).

    >>> setup = complete_setup({"hands": [["5-5-5"], ["0-2-1"]]})
    >>> len(setup["pool"]), setup["pool"][:3]
    (74, ['0-0-0', '0-0-1', '0-0-2'])
    """
    return TILESET.complete_setup(partial)
