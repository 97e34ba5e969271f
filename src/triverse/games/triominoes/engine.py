"""Tri-ominoes: the rules engine (seed 004, with the official Pressman rules as a variant).

``docs/rules/triominoes.md`` lists every rule with its source, and the decisions taken where the
seed is silent; ``docs/notation.md`` the notation of the actions.

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

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Final

from triverse.core.errors import IllegalActionError, NotationError, RecordError
from triverse.core.events import Event
from triverse.core.game import Game, Observation, State
from triverse.core.options import OptionSpec
from triverse.core.rng import derive, fresh_seed
from triverse.core.trigrid import (
    ORIGIN,
    RING_CORNERS,
    Board,
    format_cell,
    is_up,
    vertex_cells,
)
from triverse.games.triominoes.tiles import (
    DRAW,
    PASS,
    PLACEMENTS,
    TILES,
    ZERO_TRIPLE,
    Action,
    Draw,
    Pass,
    Place,
    Tile,
    parse_action,
    tile,
)

MAX_PLAYERS: Final = 6
NUM_TILES: Final = len(TILES)
HAND_SIZES: Final = {2: 9, 3: 7, 4: 7, 5: 6, 6: 6}
"""Tiles dealt to each seat, by the number of players (rule 2)."""

# Integer action ids (OpenSpiel): placements by tile x anchor x edge x rotation, then the
# opening placements by tile, then draw and pass.
_PLACEMENT_IDS: Final = NUM_TILES * NUM_TILES * 3 * 3
_OPENING_BASE: Final = _PLACEMENT_IDS
_DRAW_ID: Final = _OPENING_BASE + NUM_TILES
_PASS_ID: Final = _DRAW_ID + 1
NUM_ACTION_IDS: Final = _PASS_ID + 1

# The board window of the tensor: cells (x, y) with x in [-9, 10] and y in [-5, 5].
WINDOW_X: Final = range(-9, 11)
WINDOW_Y: Final = range(-5, 6)
_CELL_FEATURES: Final = 5
_HEAD: Final = 2 * NUM_TILES + 4 * MAX_PLAYERS + 6
TENSOR_SIZE: Final = _HEAD + len(WINDOW_X) * len(WINDOW_Y) * _CELL_FEATURES


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
    bridge: int = 40
    draw_penalty: int = 5
    out_bonus: int = 25


SEED_RULES: Final = Rules("seed", triple_start=0, zero_start=30, zero_by_choice=False,
                          draw_until_triple=True, max_draws=None, pass_penalty=0,
                          hexagons=(50, 100, 150), each_hexagon=True)
PRESSMAN_RULES: Final = Rules("pressman", triple_start=10, zero_start=30, zero_by_choice=True,
                              draw_until_triple=False, max_draws=3, pass_penalty=10,
                              hexagons=(50, 60, 70), each_hexagon=False)
RULES: Final = {"seed": SEED_RULES, "pressman": PRESSMAN_RULES}

_HEXAGON_NAMES: Final = ("Hexagon", "Double hexagon", "Triple hexagon")
_SETUP_KEYS: Final = ("hands", "pool", "board", "scores", "current", "round", "draws",
                      "passes")


def _seat_text(seat: int) -> str:
    return f"Seat {seat}"


# --- the observation -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TriominoesObservation(Observation):
    """What one seat (or a spectator, ``player=None``) sees: enough to continue the game.

    ``board`` lists this round's placements in order; ``hand`` is the seat's own hand (``None``
    for a spectator); ``opening`` the tiles the round may open with, announced by the rules (empty
    once the first tile is down).
    """

    player: int | None
    num_players: int
    variant: str
    target: int
    max_rounds: int
    round: int
    current_player: int | None
    board: tuple[Place, ...]
    hand: tuple[Tile, ...] | None
    hand_counts: tuple[int, ...]
    pool_count: int
    scores: tuple[int, ...]
    draws_this_turn: int
    passes_in_row: int
    opening: tuple[Tile, ...]

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "triominoes",
            "player": self.player,
            "num_players": self.num_players,
            "variant": self.variant,
            "target": self.target,
            "max_rounds": self.max_rounds,
            "round": self.round,
            "current_player": self.current_player,
            "board": [
                {"action": str(p), "tile": str(p.tile), "cell": list(p.cell),
                 "rotation": p.rotation, "corners": list(p.values), "up": is_up(p.cell)}
                for p in self.board
            ],
            "hand": None if self.hand is None else [str(t) for t in self.hand],
            "hand_counts": list(self.hand_counts),
            "pool_count": self.pool_count,
            "scores": list(self.scores),
            "draws_this_turn": self.draws_this_turn,
            "passes_in_row": self.passes_in_row,
            "opening": [str(t) for t in self.opening],
        }

    def to_tensor(self) -> list[float]:
        """Own hand and board tiles (one-hot over the 56 tiles); per seat, counted from the
        viewer: present, hand count, score, to move; the pool, draws, passes, round, opening,
        variant; then a window of the board around the origin, five numbers a cell: occupied,
        open to play, and its three corner values (``(v + 1) / 6``, 0 when untouched)."""
        n = self.num_players
        out = [0.0] * TENSOR_SIZE
        if self.hand is not None:
            for t in self.hand:
                out[t.index] = 1.0
        for p in self.board:
            out[NUM_TILES + p.tile.index] = 1.0
        base = 2 * NUM_TILES
        me = self.player or 0
        scale = max(self.target, 1)
        for k in range(n):
            seat = (me + k) % n
            out[base + k] = 1.0
            out[base + MAX_PLAYERS + k] = self.hand_counts[seat] / 20.0
            out[base + 2 * MAX_PLAYERS + k] = self.scores[seat] / scale
            if self.current_player == seat:
                out[base + 3 * MAX_PLAYERS + k] = 1.0
        base += 4 * MAX_PLAYERS
        out[base] = self.pool_count / NUM_TILES
        out[base + 1] = min(self.draws_this_turn, 10) / 10.0
        out[base + 2] = self.passes_in_row / MAX_PLAYERS
        out[base + 3] = self.round / max(self.max_rounds, 1)
        out[base + 4] = 1.0 if self.opening else 0.0
        out[base + 5] = 1.0 if self.variant == "pressman" else 0.0
        out[_HEAD:] = _window(self.board)
        return out


@lru_cache(maxsize=256)
def _window(placements: tuple[Place, ...]) -> tuple[float, ...]:
    """The board part of the tensor (cached: every seat's observation shares it)."""
    board = Board()
    for p in placements:
        board.place(p.cell, p.values)
    out = [0.0] * (TENSOR_SIZE - _HEAD)
    x0, y0, width = WINDOW_X[0], WINDOW_Y[0], len(WINDOW_X)

    def at(cell: tuple[int, int]) -> int:
        x, y = cell
        if x in WINDOW_X and y in WINDOW_Y:
            return ((y - y0) * width + x - x0) * _CELL_FEATURES
        return -1

    for cell in board.cells:
        if (i := at(cell)) >= 0:
            out[i] = 1.0
    for cell in board.frontier:
        if (i := at(cell)) >= 0:
            out[i + 1] = 1.0
    for vertex, value in board.corners.items():
        for cell, corner in zip(vertex_cells(vertex), RING_CORNERS, strict=True):
            if (i := at(cell)) >= 0:
                out[i + 2 + corner] = (value + 1) / 6.0
    return tuple(out)


# --- the game ------------------------------------------------------------------------------------
class TriominoesGame(Game["TriominoesState", Action]):
    """Tri-ominoes for 2-6 players: match corners, score hexagons and bridges, play to 400."""

    name: ClassVar[str] = "triominoes"
    title: ClassVar[str] = "Tri-ominoes"
    summary: ClassVar[str] = ("The 1965 triangular dominoes for 2-6 players: match corners, build "
                              "hexagons and bridges, play to 400.")
    seed_file: ClassVar[str] = "004_24418ddd36cf3878.txt"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    default_players: ClassVar[int] = 2
    perfect_information: ClassVar[bool] = False
    variants: ClassVar[Mapping[str, str]] = {
        "seed": "The seed's rules: no triple dealt, draw for one; a triple zero opening +30; "
                "draw (-5 each) until you can play; every hexagon closed +50.",
        "pressman": "The official Pressman rules: +10 for opening with a triple (+40 with "
                    "0-0-0); no triple dealt, the highest tile opens; at most 3 draws a turn, "
                    "then pass -10; two or three hexagons at once +60 or +70.",
    }
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("variant", str, "seed", "Rules: the seed's, or the official Pressman rules",
                   choices=("seed", "pressman")),
        OptionSpec("target", int, 400, "The game ends after the round in which a score reaches "
                   "this", minimum=1, maximum=100_000),
        OptionSpec("max_rounds", int, 50, "Safety stop: the game also ends after this many "
                   "rounds", minimum=1, maximum=1000),
    )

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        super().__init__(players, options)
        self.rules: Rules = RULES[str(self.options["variant"])]
        self.target = int(self.options["target"])
        self.max_rounds = int(self.options["max_rounds"])
        self.hand_size = HAND_SIZES[self.num_players]

    # --- building states -----------------------------------------------------------------------
    def _initial_state(self, seed: int, setup: Mapping[str, Any] | None) -> TriominoesState:
        state = TriominoesState(self, seed)
        if setup is None:
            state._deal(1)
            state._open_round()
        else:
            state._load_setup(setup)
        return state

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def determinize(self, observation: Any, rng: random.Random) -> TriominoesState:
        """A full state matching ``observation``: the unseen tiles (all but the board, the
        seat's own hand and the announced opening tiles) shuffled into the other hands, by their
        counts, and the pool; a fresh seed from ``rng`` for the rounds to come."""
        obs: TriominoesObservation = observation
        if not isinstance(obs, TriominoesObservation):
            raise TypeError(f"not a Tri-ominoes observation: {obs!r}")
        if obs.num_players != self.num_players or obs.variant != self.rules.name:
            raise ValueError(f"the observation is of a {obs.num_players}-player game with the "
                             f"{obs.variant} rules, not of {self!r}")
        own = obs.hand or ()
        opener = obs.current_player if obs.opening else None
        announced = tuple(t for t in obs.opening if opener != obs.player)
        known = {p.tile for p in obs.board} | set(own) | set(announced)
        unseen = [t for t in TILES if t not in known]
        rng.shuffle(unseen)
        hands: list[list[Tile]] = []
        for seat, count in enumerate(obs.hand_counts):
            if seat == obs.player:
                hands.append(list(own))
                continue
            fixed = list(announced) if seat == opener else []
            take = count - len(fixed)
            if take < 0 or take > len(unseen):
                raise ValueError(f"seat {seat}'s hand count {count} does not fit the "
                                 f"observation")
            hands.append(fixed + unseen[:take])
            unseen = unseen[take:]
        if len(unseen) != obs.pool_count:
            raise ValueError(f"{len(unseen)} unseen tiles left for a pool of {obs.pool_count}")
        state = TriominoesState(self, fresh_seed(rng))
        state.round = obs.round
        state.hands = [dict.fromkeys(h) for h in hands]
        state.pool = tuple(unseen)
        state.pool_pos = 0
        for p in obs.board:
            state.board.place(p.cell, p.values)
        state.placed = list(obs.board)
        state.scores = list(obs.scores)
        state.current = obs.current_player
        state.opening = obs.opening
        state.draws = obs.draws_this_turn
        state.passes = obs.passes_in_row
        return state

    # --- sizes -----------------------------------------------------------------------------------
    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTION_IDS

    @property
    def max_game_length(self) -> int:
        """Rounds x (56 placements + 56 draws + the passes), the passes bounded by: at most
        ``n`` in a row after the pool runs out between two placements (the ``n``-th blocks the
        round), and at most 18 with tiles still in the pool (Pressman: each after 3 draws)."""
        n = self.num_players
        per_round = NUM_TILES + NUM_TILES + (NUM_TILES + 1) * n + NUM_TILES // 3
        return self.max_rounds * per_round

    @property
    def tensor_size(self) -> int:
        return TENSOR_SIZE

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

    # --- text ------------------------------------------------------------------------------------
    def render_text(self, observation: Observation) -> str:
        from triverse.games.triominoes.text import render

        if not isinstance(observation, TriominoesObservation):
            raise TypeError(f"not a Tri-ominoes observation: {observation!r}")
        return render(observation)

    def describe_action(self, action: Action) -> str:
        from triverse.games.triominoes.text import describe

        return describe(action)


# --- the state -----------------------------------------------------------------------------------
class TriominoesState(State[Action]):
    """One position of a game of Tri-ominoes (all its rounds)."""

    game: TriominoesGame

    def __init__(self, game: TriominoesGame, seed: int) -> None:
        super().__init__(game, seed)
        self.rules = game.rules
        self.round = 1
        self.hands: list[dict[Tile, None]] = [{} for _ in range(game.num_players)]
        self.pool: tuple[Tile, ...] = ()
        self.pool_pos = 0
        self.board = Board()
        self.placed: list[Place] = []
        self.current: int | None = 0
        self.opening: tuple[Tile, ...] = ()
        self.draws = 0
        self.passes = 0
        self._setup: dict[str, Any] | None = None

    # --- dealing and opening -------------------------------------------------------------------
    def _deal(self, round_number: int) -> None:
        """Shuffle all 56 tiles with ``derive(seed, "round", n)`` and deal the hands."""
        tiles = list(TILES)
        derive(self.seed, "round", round_number).shuffle(tiles)
        size = self.game.hand_size
        n = self.game.num_players
        self.round = round_number
        self.hands = [dict.fromkeys(tiles[i * size:(i + 1) * size]) for i in range(n)]
        self.pool = tuple(tiles[n * size:])
        self.pool_pos = 0
        self.board = Board()
        self.placed = []
        self.draws = 0
        self.passes = 0

    def _open_round(self) -> list[Event]:
        """Decide who opens the round and with which tile(s); return the events of drawing for a
        triple (seed) and the round start."""
        events: list[Event] = []
        holder: int | None = None
        best: Tile | None = None
        for seat, hand in enumerate(self.hands):
            for t in hand:
                if t.is_triple and (best is None or t.total > best.total):
                    best, holder = t, seat
        if best is None and self.rules.draw_until_triple:
            seat = 0
            while self.pool_pos < len(self.pool):
                drawn = self.pool[self.pool_pos]
                self.pool_pos += 1
                self.hands[seat][drawn] = None
                events.append(Event(
                    "start_draw", seat, 0, f"{_seat_text(seat)} draws for a triple",
                    {"pool": self.pool_count}, {"tile": str(drawn)}))
                if drawn.is_triple:
                    best, holder = drawn, seat
                    break
                seat = (seat + 1) % self.game.num_players
        if best is None:
            # Pressman (or a setup without triples to draw): the highest tile opens.
            for seat, hand in enumerate(self.hands):
                for t in hand:
                    if best is None or t.rank > best.rank:
                        best, holder = t, seat
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
            "round_start", None, 0, f"Round {self.round}: {_seat_text(holder)} opens with "
            f"{names}", {"round": self.round, "starter": holder,
                         "opening": [str(t) for t in opening]}))
        return events

    # --- reading the state ---------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.current

    def is_terminal(self) -> bool:
        return self.current is None

    @property
    def pool_count(self) -> int:
        """Tiles left to draw."""
        return len(self.pool) - self.pool_pos

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """A seat's tiles, sorted (the engine's view: hidden information)."""
        return tuple(sorted(self.hands[seat]))

    def _placements(self) -> Iterator[Place]:
        assert self.current is not None
        hand = self.hands[self.current]
        for t, cell, rotation in self.board.placements(PLACEMENTS, hand):
            yield Place(t, cell, rotation)

    def _may_draw(self) -> bool:
        limit = self.rules.max_draws
        return self.pool_pos < len(self.pool) and (limit is None or self.draws < limit)

    def legal_actions(self) -> Iterator[Action]:
        if self.current is None:
            return
        if self.opening:
            for t in self.opening:
                yield Place(t, ORIGIN, 0)
            return
        found = False
        for action in self._placements():
            found = True
            yield action
        if not found:
            yield DRAW if self._may_draw() else PASS

    def illegal_reason(self, action: Action) -> str | None:
        seat = self.current
        if seat is None:
            return "the game is over"
        if isinstance(action, Place):
            return self._placement_problem(seat, action)
        if not isinstance(action, (Draw, Pass)):
            return f"not a Tri-ominoes action: {action!r}"
        verb = "draw" if isinstance(action, Draw) else "pass"
        if self.opening:
            return (f"the round opens first: play {self.opening[0]}@0,0/0 before you "
                    f"{verb}")
        playable = next(self._placements(), None)
        if playable is not None:
            return f"you can play {playable}; you {verb} only when you cannot play"
        if isinstance(action, Draw):
            if self.pool_pos >= len(self.pool):
                return "the pool is empty: pass"
            if not self._may_draw():
                return f"you have drawn {self.draws} tiles this turn, the most allowed: pass"
            return None
        if self._may_draw():
            return f"the pool still has {self.pool_count} tiles: draw"
        return None

    def _placement_problem(self, seat: int, action: Place) -> str | None:
        t = action.tile
        if not isinstance(t, Tile) or t is not TILES[t.index]:
            return f"not a Tri-ominoes tile: {t!r}"
        if action.rotation not in (0, 1, 2):
            return f"the rotation is 0, 1 or 2, not {action.rotation}"
        if t.is_triple and action.rotation != 0:
            return f"{t} looks the same every way round: write it with rotation 0"
        if t not in self.hands[seat]:
            return f"{t} is not in your hand"
        if self.opening:
            if t not in self.opening:
                names = " or ".join(str(o) for o in self.opening)
                return f"the round opens with {names}"
            if action.cell != ORIGIN or action.rotation != 0:
                return "the first tile of a round goes at 0,0 with rotation 0"
            return None
        return self.board.misfit(action.cell, action.values)

    # --- applying --------------------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        seat = self.current
        assert seat is not None
        if isinstance(action, Place):
            return self._place(seat, action)
        if isinstance(action, Draw):
            return self._draw(seat)
        return self._pass(seat)

    def _place(self, seat: int, action: Place) -> list[Event]:
        t = action.tile
        rules = self.rules
        opening = bool(self.opening)
        specials = None if opening else self.board.specials(action.cell)
        self.board.place(action.cell, action.values)
        self.placed.append(action)
        del self.hands[seat][t]
        self.opening = ()
        self.draws = 0
        self.passes = 0
        events = [Event("place", seat, 0,
                        f"{_seat_text(seat)} plays {t} at {format_cell(action.cell)}",
                        {"action": str(action), "tile": str(t), "cell": list(action.cell),
                         "rotation": action.rotation, "corners": list(action.values)})]
        events.append(self._score(seat, t.total, "score", f"Tile {t} +{t.total}",
                                  reason="tile", tile=str(t)))
        if opening:
            if t.is_triple and rules.triple_start:
                events.append(self._score(seat, rules.triple_start, "score",
                                          f"Triple start +{rules.triple_start}",
                                          reason="triple_start"))
            if t is ZERO_TRIPLE and rules.zero_start:
                events.append(self._score(seat, rules.zero_start, "score",
                                          f"Triple zero +{rules.zero_start}",
                                          reason="zero_start"))
        elif specials is not None:
            count = len(specials.hexagons)
            if count and rules.each_hexagon:
                for vertex in specials.hexagons:
                    events.append(self._score(seat, rules.hexagons[0], "score",
                                              f"Hexagon +{rules.hexagons[0]}",
                                              reason="hexagon", vertex=list(vertex)))
            elif count:
                bonus = rules.hexagons[count - 1]
                events.append(self._score(seat, bonus, "score",
                                          f"{_HEXAGON_NAMES[count - 1]} +{bonus}",
                                          reason="hexagon",
                                          vertices=[list(v) for v in specials.hexagons]))
            if specials.span:
                events.append(self._score(seat, rules.bridge, "score", f"Bridge +{rules.bridge}",
                                          reason="bridge"))
        if not self.hands[seat]:
            events.extend(self._end_round(out=seat))
        else:
            self.current = (seat + 1) % self.game.num_players
        return events

    def _draw(self, seat: int) -> list[Event]:
        drawn = self.pool[self.pool_pos]
        self.pool_pos += 1
        self.hands[seat][drawn] = None
        self.draws += 1
        return [self._score(seat, -self.rules.draw_penalty, "draw",
                            f"Draw -{self.rules.draw_penalty}", secret={"tile": str(drawn)},
                            pool=self.pool_count, draws=self.draws)]

    def _pass(self, seat: int) -> list[Event]:
        penalty = self.rules.pass_penalty
        if penalty:
            events = [self._score(seat, -penalty, "pass", f"Pass -{penalty}")]
        else:
            events = [Event("pass", seat, 0, "Pass")]
        self.passes += 1
        self.draws = 0
        n = self.game.num_players
        if self.passes >= n and self.pool_pos >= len(self.pool):
            events.extend(self._end_round(out=None))
        else:
            self.current = (seat + 1) % n
        return events

    def _end_round(self, out: int | None) -> list[Event]:
        """Round-end scoring (Pressman), then the next round or the end of the game."""
        totals = [sum(t.total for t in hand) for hand in self.hands]
        everyone = sum(totals)
        events: list[Event] = []
        if out is not None:
            events.append(self._score(out, self.rules.out_bonus, "score",
                                      f"Going out +{self.rules.out_bonus}", reason="out"))
            events.append(self._score(out, everyone, "score", f"Opponents' tiles +{everyone}",
                                      reason="opponents_tiles"))
            winners = [out]
            label = f"Round {self.round} ends: {_seat_text(out)} goes out"
        else:
            low = min(totals)
            winners = [seat for seat, total in enumerate(totals) if total == low]
            for seat in winners:
                others = everyone - low
                events.append(self._score(seat, others, "score", f"Opponents' tiles +{others}",
                                          reason="opponents_tiles"))
                if low:
                    events.append(self._score(seat, -low, "score", f"Own tiles -{low}",
                                              reason="own_tiles"))
            names = ", ".join(_seat_text(s) for s in winners)
            label = f"Round {self.round} is blocked: {names} with the fewest points in hand"
        events.append(Event("round_end", None, 0, label, {
            "round": self.round, "reason": "out" if out is not None else "blocked",
            "winners": winners, "hand_totals": totals, "scores": list(self.scores)}))
        if max(self.scores) >= self.game.target or self.round >= self.game.max_rounds:
            self.current = None
            result = self.result()
            names = ", ".join(_seat_text(s) for s in result.winners)
            events.append(Event("game_end", None, 0, f"Game over: {names} "
                                f"{'wins' if len(result.winners) == 1 else 'tie'}",
                                {"scores": list(self.scores), "ranks": list(result.ranks),
                                 "rounds": self.round}))
        else:
            self._deal(self.round + 1)
            events.extend(self._open_round())
        return events

    # --- views ----------------------------------------------------------------------------------
    def observation(self, player: int | None) -> TriominoesObservation:
        game = self.game
        if player is not None and not 0 <= player < game.num_players:
            raise ValueError(f"no seat {player} in a {game.num_players}-player game")
        return TriominoesObservation(
            player=player,
            num_players=game.num_players,
            variant=self.rules.name,
            target=game.target,
            max_rounds=game.max_rounds,
            round=self.round,
            current_player=self.current,
            board=tuple(self.placed),
            hand=None if player is None else self.hand(player),
            hand_counts=tuple(len(h) for h in self.hands),
            pool_count=self.pool_count,
            scores=tuple(self.scores),
            draws_this_turn=self.draws,
            passes_in_row=self.passes,
            opening=self.opening,
        )

    def clone(self) -> TriominoesState:
        other = TriominoesState.__new__(TriominoesState)
        self._copy_base_into(other)
        other.rules = self.rules
        other.round = self.round
        other.hands = [h.copy() for h in self.hands]
        other.pool = self.pool
        other.pool_pos = self.pool_pos
        other.board = self.board.copy()
        other.placed = self.placed.copy()
        other.current = self.current
        other.opening = self.opening
        other.draws = self.draws
        other.passes = self.passes
        other._setup = self._setup
        return other

    def __repr__(self) -> str:
        return (f"<TriominoesState round {self.round}, {len(self.placed)} tiles down, "
                f"to move {self.current}, scores {self.scores}>")

    # --- integer ids ----------------------------------------------------------------------------
    def encode_action(self, action: Action) -> int:
        """Placements: ``((tile * 56 + anchor) * 3 + edge) * 3 + rotation``, the anchor being
        the earliest placed tile of the round that shares an edge with the cell; the round's
        first tile: 28224 + tile; draw 28280; pass 28281."""
        if isinstance(action, Draw):
            return _DRAW_ID
        if isinstance(action, Pass):
            return _PASS_ID
        if not isinstance(action, Place):
            raise IllegalActionError(f"not a Tri-ominoes action: {action!r}")
        t = action.tile
        if not self.placed:
            if action.cell != ORIGIN or action.rotation != 0:
                raise IllegalActionError(f"{action}: the first tile of a round goes at 0,0/0")
            return _OPENING_BASE + t.index
        anchor = self.board.anchor(action.cell)
        if anchor is None or action.cell in self.board or action.rotation not in (0, 1, 2):
            raise IllegalActionError(f"{action}: no action id here (the cell must be empty "
                                     f"and share an edge with a tile)")
        k, edge = anchor
        return ((t.index * NUM_TILES + k) * 3 + edge) * 3 + action.rotation

    def decode_action(self, action_id: int) -> Action:
        if action_id == _DRAW_ID:
            return DRAW
        if action_id == _PASS_ID:
            return PASS
        if _OPENING_BASE <= action_id < _DRAW_ID:
            if self.placed:
                raise IllegalActionError(f"action id {action_id} opens a round, but this "
                                         f"round has opened")
            return Place(TILES[action_id - _OPENING_BASE], ORIGIN, 0)
        if not 0 <= action_id < _PLACEMENT_IDS:
            raise IllegalActionError(f"no Tri-ominoes action has id {action_id}")
        rest, rotation = divmod(action_id, 3)
        rest, edge = divmod(rest, 3)
        tile_index, k = divmod(rest, NUM_TILES)
        t = TILES[tile_index]
        cell = self.board.from_anchor(k, edge)
        if cell is None:
            raise IllegalActionError(f"action id {action_id} names placed tile {k + 1}; "
                                     f"{len(self.placed)} are down this round")
        if cell in self.board:
            raise IllegalActionError(f"action id {action_id} names cell {format_cell(cell)}, "
                                     f"which is occupied")
        if self.board.anchor(cell) != (k, edge):
            raise IllegalActionError(f"action id {action_id} is not the id of any action here "
                                     f"(cell {format_cell(cell)} has an earlier anchor)")
        if t.is_triple and rotation:
            raise IllegalActionError(f"action id {action_id}: a triple only has rotation 0")
        return Place(t, cell, rotation)

    # --- setups ----------------------------------------------------------------------------------
    def setup(self) -> dict[str, Any] | None:
        if self._setup is None:
            return None
        out = {k: (list(v) if isinstance(v, list) else v) for k, v in self._setup.items()}
        out["hands"] = [list(h) for h in self._setup["hands"]]
        return out

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        """Build the first round from an explicit setup; see ``docs/rules/triominoes.md``."""
        game = self.game
        n = game.num_players
        if not isinstance(setup, Mapping):
            raise RecordError("the setup is a JSON object")
        unknown = sorted(set(setup) - set(_SETUP_KEYS))
        if unknown:
            raise RecordError(f"the setup has an unknown key {unknown[0]!r}; it may have: "
                              f"{', '.join(_SETUP_KEYS)}")
        for key in ("hands", "pool"):
            if key not in setup:
                raise RecordError(f"the setup has no {key!r}")
        raw_hands = setup["hands"]
        if not isinstance(raw_hands, list) or len(raw_hands) != n:
            raise RecordError(f"the setup's 'hands' is a list of {n} hands, one per seat")
        where: dict[Tile, str] = {}

        def read(text: object, place: str) -> Tile:
            if not isinstance(text, str):
                raise RecordError(f"setup {place} is {text!r}, not a tile like '1-3-5'")
            try:
                found = tile(text)
            except NotationError as exc:
                raise RecordError(f"setup {place}: {exc}") from None
            if found in where:
                raise RecordError(f"tile {found} is in the setup twice: {where[found]} and "
                                  f"{place}")
            where[found] = place
            return found

        hands: list[list[Tile]] = []
        for i, raw in enumerate(raw_hands):
            if not isinstance(raw, list):
                raise RecordError(f"setup hands[{i}] is a list of tiles")
            hands.append([read(text, f"hands[{i}][{j}]") for j, text in enumerate(raw)])
        raw_pool = setup["pool"]
        if not isinstance(raw_pool, list):
            raise RecordError("the setup's 'pool' is a list of tiles, in drawing order")
        pool = [read(text, f"pool[{j}]") for j, text in enumerate(raw_pool)]
        raw_board = setup.get("board", [])
        if not isinstance(raw_board, list):
            raise RecordError("the setup's 'board' is a list of placements like '5-5-5@0,0/0'")
        board = Board()
        placed: list[Place] = []
        for j, text in enumerate(raw_board):
            if not isinstance(text, str):
                raise RecordError(f"setup board[{j}] is {text!r}, not a placement")
            try:
                action = parse_action(text)
            except NotationError as exc:
                raise RecordError(f"setup board[{j}]: {exc}") from None
            if not isinstance(action, Place):
                raise RecordError(f"setup board[{j}] is {text!r}, not a placement")
            read(str(action.tile), f"board[{j}]")
            if j == 0 and action.cell != ORIGIN:
                raise RecordError(f"setup board[0] {action}: a round's first tile is at 0,0")
            problem = board.misfit(action.cell, action.values)
            if problem is not None:
                raise RecordError(f"setup board[{j}] {action}: {problem}")
            board.place(action.cell, action.values)
            placed.append(action)
        missing = [t for t in TILES if t not in where]
        if missing:
            names = ", ".join(str(t) for t in missing[:8])
            more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
            raise RecordError(f"the setup lacks {len(missing)} of the 56 tiles ({names}{more}): "
                              f"each must be once in the hands, the pool or the board")

        def number(key: str, low: int, high: int, default: int) -> int:
            value = setup.get(key, default)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise RecordError(f"the setup's {key!r} is a whole number from {low} to {high}, "
                                  f"not {value!r}")
            return value

        scores = setup.get("scores", [0] * n)
        if (not isinstance(scores, list) or len(scores) != n
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
            raise RecordError(f"the setup's 'scores' is a list of {n} whole numbers")
        self.round = number("round", 1, game.max_rounds, 1)
        self.scores = list(scores)
        self.hands = [dict.fromkeys(h) for h in hands]
        self.pool = tuple(pool)
        self.pool_pos = 0
        self.board = board
        self.placed = placed
        normal: dict[str, Any] = {
            "hands": [[str(t) for t in h] for h in hands],
            "pool": [str(t) for t in pool],
        }
        if placed:
            for i, hand in enumerate(hands):
                if not hand:
                    raise RecordError(f"setup hands[{i}] is empty: that seat has gone out, "
                                      f"which ends the round")
            self.current = number("current", 0, n - 1, 0)
            self.draws = number("draws", 0, self.rules.max_draws or NUM_TILES, 0)
            self.passes = number("passes", 0, n - 1, 0)
            self.opening = ()
            normal.update(board=[str(p) for p in placed], current=self.current,
                          draws=self.draws, passes=self.passes)
        else:
            for key in ("current", "draws", "passes"):
                if key in setup:
                    raise RecordError(f"the setup's {key!r} needs a 'board': with no tile down "
                                      f"the rules decide who opens")
            self._open_round()
        if "scores" in setup:
            normal["scores"] = list(self.scores)
        if "round" in setup:
            normal["round"] = self.round
        self._setup = normal


def complete_setup(partial: Mapping[str, Any]) -> dict[str, Any]:
    """A setup with the tiles not named in ``partial`` put in the pool, in tile order.

    Handy for tests and rulebook positions: name the hands (and the board), the rest is the pool
    (after any ``pool`` given, which is drawn first).

    >>> setup = complete_setup({"hands": [["5-5-5"], ["0-0-0"]]})
    >>> len(setup["pool"]), setup["pool"][:2]
    (54, ['0-0-1', '0-0-2'])
    """
    named: set[Tile] = set()
    for hand in partial.get("hands", []):
        named.update(tile(t) for t in hand)
    named.update(tile(t) for t in partial.get("pool", []))
    for text in partial.get("board", []):
        action = parse_action(text)
        if isinstance(action, Place):
            named.add(action.tile)
    out = dict(partial)
    out["pool"] = list(partial.get("pool", [])) + [str(t) for t in TILES if t not in named]
    return out

