"""Trident: the rules engine (seed 003: Triolet, DJ Games 1996, played online with hidden racks).

The seed's rules are the default; ``variant="triolet"`` plays the Triolet rulebook where the
two differ. ``docs/rules/trident.md`` lists every rule with the seed sentence it comes from and
every decision where both are silent; ``docs/notation.md`` the notation of the actions.

>>> game = TridentGame(2)
>>> setup = complete_setup({"racks": [[11, 3, 0], [1, 4, 4]]})
>>> state = game.new_initial_state(seed=1, setup=setup)
>>> state.current_player, state.rack(0)
(0, (0, 3, 11))
>>> [(e.label, e.points) for e in state.apply_notation("7:7=11,7:8=3") if e.points]
[('Pair 11×2+3 = 25', 25)]
>>> state.current_player, state.scores
(1, [25, 0])
>>> [(item.label, item.points) for item in state.preview("7:9=1").items]
[('Trio 11+3+1 = 15, +15 bonus = 30', 30)]
>>> state.preview("7:9=4").reason
'three tiles side by side total exactly 15, not 11 + 3 + 4 = 18 (across from 7:7)'
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, ClassVar, Final

from triverse.core.errors import GameOverError, IllegalActionError, NotationError, RecordError
from triverse.core.events import Event
from triverse.core.game import Game, Observation, State
from triverse.core.options import OptionSpec
from triverse.core.rng import derive, fresh_seed
from triverse.games.trident.board import (
    CELLS,
    CENTRE,
    EMPTY,
    IS_BIS,
    NEIGHBOURS,
    board_problem,
    cell_code,
    compute_anchors,
    compute_cross,
    new_board,
    opening_square_problem,
    run_problem,
    run_squares,
    square_name,
    update_after_play,
)
from triverse.games.trident.movegen import generate_exchanges, generate_plays
from triverse.games.trident.scoring import TRITON_BONUS, ScoreItem, score_play
from triverse.games.trident.tiles import (
    FULL_COUNTS,
    JOKER,
    KINDS,
    NUM_TILES,
    PASS,
    RACK_SIZE,
    SIZE,
    TILE_SET,
    TIMEOUT,
    Action,
    Exchange,
    Pass,
    Placement,
    Play,
    TimeOut,
    parse_action,
    parse_placement,
    parse_tile,
    tile_points,
    tile_text,
)

MAX_PLAYERS: Final = 4
STALL_ROUNDS: Final = 3
"""The game ends, as blocked, after this many rounds of turns in a row without a tile placed."""
ANNOUNCE_AT: Final = 10
"""The bag count is announced once this many tiles or fewer are left (seed)."""
MAX_TIME_LIMIT: Final = 24 * 60 * 60
MAX_RACK_POINTS: Final = 15 + 14 + 13
"""The most a rack of three can hold: the lowest a score can fall at the end."""

# Integer action ids (OpenSpiel). A play: its first square (in square order) x its shape (the
# offsets of its tiles from the first, their direction and the rack slot of each) x the value of
# its joker (0 without one). Then the exchanges (a non-empty set of rack slots), pass, timeout.
_SHAPES: Final[tuple[tuple[tuple[int, ...], int, tuple[int, ...]], ...]] = (
    *(((0,), 0, (slot,)) for slot in range(RACK_SIZE)),
    *((offsets, d, slots)
      for d in (0, 1)
      for offsets in ((0, 1), (0, 2), (0, 1, 2))
      for slots in permutations(range(RACK_SIZE), len(offsets))),
)
_SHAPE_INDEX: Final = {shape: i for i, shape in enumerate(_SHAPES)}
PLAY_IDS: Final = CELLS * len(_SHAPES) * 16
EXCHANGE_BASE: Final = PLAY_IDS
PASS_ID: Final = EXCHANGE_BASE + (1 << RACK_SIZE) - 1
TIMEOUT_ID: Final = PASS_ID + 1
NUM_ACTION_IDS: Final = TIMEOUT_ID + 1

# The observation tensor: per square one-hot value (16) and a joker flag; the own rack by kind;
# per seat counted from the viewer (present, rack count, score, to move); six global numbers.
_CELL_FEATURES: Final = 17
_RACK_AT: Final = CELLS * _CELL_FEATURES
_SEATS_AT: Final = _RACK_AT + len(KINDS)
_GLOBAL_AT: Final = _SEATS_AT + 4 * MAX_PLAYERS
TENSOR_SIZE: Final = _GLOBAL_AT + 6

_SETUP_KEYS: Final = ("racks", "bag", "aside", "board", "order", "turn", "scores", "passes",
                      "idle", "moves")


@dataclass(frozen=True, slots=True)
class Rules:
    """What a rule variant sets."""

    name: str
    triolet_multipliers: bool
    """A double or triple multiplies the whole Trio it completes (Triolet rulebook)."""
    exchange_min: int
    """Tiles the bag must hold for an exchange."""
    aside: int
    """Tiles set aside, unseen, at the start."""
    bonus_name: str
    """What the +50 for all three rack tiles is called."""


SEED_RULES: Final = Rules("seed", False, 6, 0, "Triton")
TRIOLET_RULES: Final = Rules("triolet", True, 5, 3, "Triolet")
RULES: Final = {"seed": SEED_RULES, "triolet": TRIOLET_RULES}


def seat_text(seat: int) -> str:
    return f"Seat {seat}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --- the observation -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TridentObservation(Observation):
    """What one seat (or a spectator, ``player=None``) sees: the board, its own rack only, how
    many tiles every rack and the bag hold, the scores and whose turn it is.

    ``board`` is the 225 cells (-1 empty, a value, or 16 + the value of a joker); ``placed`` the
    occupied squares in the order their tiles went down.
    """

    player: int | None
    num_players: int
    variant: str
    time_limit: int
    board: tuple[int, ...]
    placed: tuple[int, ...]
    rack: tuple[int, ...] | None
    rack_counts: tuple[int, ...]
    bag_count: int
    aside_count: int
    scores: tuple[int, ...]
    order: tuple[int, ...]
    current_player: int | None
    consecutive_passes: int
    idle_turns: int
    end_reason: str | None
    move_number: int

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "trident",
            "player": self.player,
            "num_players": self.num_players,
            "variant": self.variant,
            "time_limit": self.time_limit,
            "board": [
                {"row": s // SIZE, "col": s % SIZE, "value": self.board[s] & 15,
                 "joker": self.board[s] >= 16}
                for s in self.placed
            ],
            "rack": None if self.rack is None else [tile_text(t) for t in self.rack],
            "rack_counts": list(self.rack_counts),
            "bag_count": self.bag_count,
            "bag_announced": self.bag_count <= ANNOUNCE_AT,
            "aside_count": self.aside_count,
            "scores": list(self.scores),
            "order": list(self.order),
            "current_player": self.current_player,
            "consecutive_passes": self.consecutive_passes,
            "idle_turns": self.idle_turns,
            "end_reason": self.end_reason,
            "move_number": self.move_number,
        }

    def to_tensor(self) -> list[float]:
        """Per square: its value one-hot and a joker flag (all 0 when empty); the own rack by
        kind (count / 3); per seat from the viewer: present, rack count / 3, score / 100, to
        move; then the bag / 83, the tiles aside / 3, passes and idle turns in a row, the
        variant and whether turns are timed."""
        out = [0.0] * TENSOR_SIZE
        for s in self.placed:
            code = self.board[s]
            at = s * _CELL_FEATURES
            out[at + (code & 15)] = 1.0
            if code >= 16:
                out[at + 16] = 1.0
        if self.rack is not None:
            for t in self.rack:
                out[_RACK_AT + t] += 1.0 / RACK_SIZE
        n = self.num_players
        me = self.player or 0
        for k in range(n):
            seat = (me + k) % n
            out[_SEATS_AT + k] = 1.0
            out[_SEATS_AT + MAX_PLAYERS + k] = self.rack_counts[seat] / RACK_SIZE
            out[_SEATS_AT + 2 * MAX_PLAYERS + k] = self.scores[seat] / 100.0
            if self.current_player == seat:
                out[_SEATS_AT + 3 * MAX_PLAYERS + k] = 1.0
        out[_GLOBAL_AT] = self.bag_count / NUM_TILES
        out[_GLOBAL_AT + 1] = self.aside_count / RACK_SIZE
        out[_GLOBAL_AT + 2] = self.consecutive_passes / MAX_PLAYERS
        out[_GLOBAL_AT + 3] = self.idle_turns / (STALL_ROUNDS * MAX_PLAYERS)
        out[_GLOBAL_AT + 4] = 1.0 if self.variant == "triolet" else 0.0
        out[_GLOBAL_AT + 5] = 1.0 if self.time_limit else 0.0
        return out


@dataclass(frozen=True, slots=True)
class Preview:
    """What a tentative play would score, line by line, or why it is illegal."""

    play: str
    reason: str | None
    points: int
    items: tuple[ScoreItem, ...]
    bis: bool
    """It covers a BIS square: the player would play again."""

    @property
    def legal(self) -> bool:
        return self.reason is None

    def to_json(self) -> dict[str, Any]:
        return {
            "play": self.play,
            "legal": self.legal,
            "reason": self.reason,
            "points": self.points,
            "items": [item.to_json() for item in self.items],
            "bis": self.bis,
        }


# --- the game ------------------------------------------------------------------------------------
class TridentGame(Game["TridentState", Action]):
    """Trident for 2-4 players: number tiles laid crossword style, lines of three total 15."""

    name: ClassVar[str] = "trident"
    title: ClassVar[str] = "Trident"
    summary: ClassVar[str] = (
        "Number tiles 0-15 laid crossword style: every line of three must total exactly 15."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    default_players: ClassVar[int] = 2
    perfect_information: ClassVar[bool] = False
    variants: ClassVar[Mapping[str, str]] = {
        "seed": "The seed's rules: a double or triple multiplies the tile on it (the Trio's "
                "points only in a Triton); exchanges while more than five tiles are in the bag.",
        "triolet": "The Triolet rulebook: a double or triple under a tile that completes a Trio "
                   "multiplies the Trio's 30 points; exchanges while at least five tiles are in "
                   "the bag; three unseen tiles are set aside at the start.",
    }
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("variant", str, "seed", "Rules: the seed's, or the Triolet rulebook's",
                   choices=("seed", "triolet")),
        OptionSpec("time_limit", int, 0, "Seconds a player has for a turn before missing it "
                   "(0: no limit; at most 24 hours)", minimum=0, maximum=MAX_TIME_LIMIT),
    )

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        super().__init__(players, options)
        self.rules: Rules = RULES[str(self.options["variant"])]
        self.time_limit = int(self.options["time_limit"])
        self.stall_limit = STALL_ROUNDS * self.num_players

    # --- building states -----------------------------------------------------------------------
    def _initial_state(self, seed: int, setup: Mapping[str, Any] | None) -> TridentState:
        state = TridentState(self, seed)
        if setup is None:
            state._deal()
        else:
            state._load_setup(setup)
        return state

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def determinize(self, observation: Any, rng: random.Random) -> TridentState:
        """A full state matching ``observation``: the tiles it does not show (all but the board
        and the seat's own rack) shuffled into the other racks, by their counts, the tiles set
        aside and the bag; a fresh seed from ``rng`` for the exchanges to come."""
        obs: TridentObservation = observation
        if not isinstance(obs, TridentObservation):
            raise TypeError(f"not a Trident observation: {obs!r}")
        if obs.num_players != self.num_players or obs.variant != self.rules.name:
            raise ValueError(f"the observation is of a {obs.num_players}-player {obs.variant} "
                             f"game, not this {self.num_players}-player {self.rules.name} one")
        unseen = Counter(TILE_SET)
        unseen.subtract(JOKER if obs.board[s] >= 16 else obs.board[s] for s in obs.placed)
        own = obs.rack or ()
        unseen.subtract(own)
        if any(count < 0 for count in unseen.values()):
            raise ValueError("the observation shows more tiles of a kind than the game has")
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        racks: list[list[int]] = []
        for seat, count in enumerate(obs.rack_counts):
            if seat == obs.player:
                racks.append(sorted(own))
            else:
                racks.append(sorted(pool[:count]))
                pool = pool[count:]
        aside, pool = pool[:obs.aside_count], pool[obs.aside_count:]
        if len(pool) != obs.bag_count or len(aside) != obs.aside_count:
            raise ValueError(f"{len(pool)} unseen tiles left for a bag of {obs.bag_count}")
        state = TridentState(self, fresh_seed(rng))
        state.board = list(obs.board)
        state.placed = list(obs.placed)
        state.cross = compute_cross(state.board)
        state.anchors = compute_anchors(state.board)
        state.racks = racks
        state.bag = pool
        state.aside = sorted(aside)
        state.order = obs.order
        state.scores = list(obs.scores)
        state.passes = obs.consecutive_passes
        state.idle = obs.idle_turns
        state.moves_before = obs.move_number
        if obs.current_player is None:
            state.over = True
            state.end_reason = obs.end_reason
        else:
            state.turn = obs.order.index(obs.current_player)
        state._setup = state._position_json()
        return state

    # --- sizes ------------------------------------------------------------------------------------
    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTION_IDS

    @property
    def max_game_length(self) -> int:
        """Every play places a tile, so there are at most as many plays as tiles in play; and
        ``3 x players`` turns in a row without a tile placed end the game (``docs``)."""
        plays = NUM_TILES - self.rules.aside
        return self.stall_limit * (plays + 1)

    @property
    def tensor_size(self) -> int:
        return TENSOR_SIZE

    @property
    def min_score(self) -> int:
        """Plays never lose points; a blocked end takes at most a full rack's 15 + 14 + 13."""
        return -MAX_RACK_POINTS

    @property
    def max_score(self) -> int:
        """A bound on the points of a whole game (``docs/rules/trident.md``): at most 83 runs,
        each scored at most as a pair (15) and a Trio (30); at most 30 (double) or 60 (triple)
        more from each premium square; +50 for at most 27 Tritons; a lone opening tile on the
        star; and the tiles left on the other racks."""
        runs = NUM_TILES * (15 + 30)
        premiums = 9 * 30 + 8 * 60
        tritons = (NUM_TILES // 3) * TRITON_BONUS
        return runs + premiums + tritons + 2 * 15 + (self.num_players - 1) * MAX_RACK_POINTS

    # --- text -------------------------------------------------------------------------------------
    def render_text(self, observation: Observation) -> str:
        from triverse.games.trident.text import render

        if not isinstance(observation, TridentObservation):
            raise TypeError(f"not a Trident observation: {observation!r}")
        return render(observation)

    def describe_action(self, action: Action) -> str:
        from triverse.games.trident.text import describe

        return describe(action)


# --- the state -----------------------------------------------------------------------------------
class TridentState(State[Action]):
    """One position of a game of Trident."""

    game: TridentGame

    def __init__(self, game: TridentGame, seed: int) -> None:
        super().__init__(game, seed)
        self.rules = game.rules
        self.board: list[int] = new_board()
        self.cross: list[int] = compute_cross(self.board)
        self.anchors: set[int] = {CENTRE}
        self.placed: list[int] = []
        self.racks: list[list[int]] = [[] for _ in range(game.num_players)]
        self.bag: list[int] = []
        """The tiles to draw; the next one drawn is the last."""
        self.aside: list[int] = []
        self.order: tuple[int, ...] = tuple(range(game.num_players))
        """The seats in their order of play."""
        self.turn = 0
        """Index in ``order`` of the seat to act."""
        self.passes = 0
        """Passes (and time-outs) in a row."""
        self.idle = 0
        """Turns in a row without a tile placed."""
        self.over = False
        self.end_reason: str | None = None
        self.moves_before = 0
        """Actions played before the position this state was built from (a determinization)."""
        self._setup: dict[str, Any] | None = None

    def _deal(self) -> None:
        """Shuffle the 83 tiles with ``derive(seed, "bag")``; draw the order of play with
        ``derive(seed, "order")``; set tiles aside (variant), then deal three to each seat in
        that order."""
        tiles = list(TILE_SET)
        derive(self.seed, "bag").shuffle(tiles)
        order = list(range(self.game.num_players))
        derive(self.seed, "order").shuffle(order)
        self.order = tuple(order)
        pos = self.rules.aside
        self.aside = sorted(tiles[:pos])
        for seat in self.order:
            self.racks[seat] = sorted(tiles[pos:pos + RACK_SIZE])
            pos += RACK_SIZE
        self.bag = tiles[pos:][::-1]

    # --- reading the state ---------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.over else self.order[self.turn]

    def is_terminal(self) -> bool:
        return self.over

    @property
    def move_number(self) -> int:
        return self.moves_before + len(self.history)

    def rack(self, seat: int) -> tuple[int, ...]:
        """A seat's tiles, sorted, jokers last (the engine's view: hidden information)."""
        return tuple(self.racks[seat])

    @property
    def bag_count(self) -> int:
        return len(self.bag)

    def legal_actions(self) -> Iterator[Action]:
        if self.over:
            return
        rack = self.racks[self.order[self.turn]]
        yield from generate_plays(self.board, self.cross, self.anchors, rack, self.placed)
        if len(self.bag) >= self.rules.exchange_min:
            yield from generate_exchanges(rack)
        yield PASS

    def illegal_reason(self, action: Action) -> str | None:
        if self.over:
            return "the game is over"
        seat = self.order[self.turn]
        if isinstance(action, Play):
            return self._play_problem(seat, action)
        if isinstance(action, Exchange):
            return self._exchange_problem(seat, action)
        if isinstance(action, Pass):
            return None
        if isinstance(action, TimeOut):
            if not self.game.time_limit:
                return ("this game has no time limit, so no turn can time out (a time-out is "
                        "recorded by the server, never chosen)")
            return None
        return f"not a Trident action: {action!r}"

    def _rack_problem(self, seat: int, kinds: Sequence[int]) -> str | None:
        have = Counter(self.racks[seat])
        for kind, need in sorted(Counter(kinds).items()):
            if need > have[kind]:
                shown = " ".join(tile_text(t) for t in self.racks[seat])
                what = "a joker" if kind == JOKER else f"a {kind}"
                if have[kind]:
                    what = f"{need} {'jokers' if kind == JOKER else f'{kind}s'}"
                return f"you do not have {what} on your rack ({shown})"
        return None

    def _play_problem(self, seat: int, play: Play) -> str | None:
        tiles = play.tiles
        if not isinstance(tiles, tuple) or not 1 <= len(tiles) <= RACK_SIZE:
            return f"a play places 1, 2 or 3 tiles, not {len(tiles)}"
        for p in tiles:
            if not isinstance(p, Placement):
                return f"not a tile placement: {p!r}"
            if not (0 <= p.row < SIZE and 0 <= p.col < SIZE):
                return f"square {p.row}:{p.col} is off the board (rows and columns 0 to 14)"
            if not 0 <= p.value <= 15:
                return f"a tile's value is 0 to 15, not {p.value}"
        squares = [p.row * SIZE + p.col for p in tiles]
        if len(set(squares)) != len(squares):
            return "a square is named twice"
        for p, s in zip(tiles, squares, strict=True):
            if self.board[s] != EMPTY:
                held = self.board[s]
                shown = f"a joker as {held & 15}" if held >= 16 else f"a {held}"
                return f"square {p.row}:{p.col} already holds {shown}"
        problem = self._rack_problem(seat, play.kinds)
        if problem is not None:
            return problem
        if sum(p.joker for p in tiles) > 1:
            return "never two jokers in one turn"
        rows = {p.row for p in tiles}
        cols = {p.col for p in tiles}
        if len(rows) > 1 and len(cols) > 1:
            return "the tiles of a play go in one row or one column (nothing diagonal)"
        if len(tiles) > 1:
            step = 1 if len(rows) == 1 else SIZE
            lo, hi = min(squares), max(squares)
            for s in range(lo, hi + 1, step):
                if s not in squares and self.board[s] == EMPTY:
                    return (f"the tiles must touch, or be joined by tiles already down: "
                            f"{square_name(s)} between them is empty")
        if not self.placed:
            if CENTRE not in squares:
                return "the first play covers the centre star (7:7)"
        elif not any(self.board[n] != EMPTY for s in squares for n in NEIGHBOURS[s]):
            return "a play must touch a tile already on the board"
        overlay = list(self.board)
        for p, s in zip(tiles, squares, strict=True):
            overlay[s] = cell_code(p.value, p.joker)
        checked: set[tuple[int, int]] = set()
        for s in squares:
            for d in (0, 1):
                run = run_squares(overlay, s, d)
                if len(run) < 2 or (d, run[0]) in checked:
                    continue
                checked.add((d, run[0]))
                problem = run_problem([overlay[x] & 15 for x in run])
                if problem is not None:
                    where = "across" if d == 0 else "down"
                    return f"{problem} ({where} from {square_name(run[0])})"
        if len(self.placed) < 9:
            problem = opening_square_problem(self.placed, squares)
            if problem is not None:
                return problem
        return None

    def _exchange_problem(self, seat: int, action: Exchange) -> str | None:
        tiles = action.tiles
        if not isinstance(tiles, tuple) or not 1 <= len(tiles) <= RACK_SIZE:
            return f"an exchange returns 1, 2 or 3 tiles, not {len(tiles)}"
        if any(not isinstance(t, int) or not 0 <= t <= JOKER for t in tiles):
            return f"not tiles: {tiles!r}"
        problem = self._rack_problem(seat, tiles)
        if problem is not None:
            return problem
        need = self.rules.exchange_min
        if len(self.bag) < need:
            rule = ("more than five" if self.rules.name == "seed" else "at least five")
            return (f"exchanges are allowed only while {rule} tiles are in the bag; it holds "
                    f"{len(self.bag)}")
        return None

    # --- a preview of a play ----------------------------------------------------------------------
    def preview(self, play: Play | str) -> Preview:
        """What ``play`` would score for the player to move, each line and bonus explained, or
        the reason it is illegal. Nothing changes."""
        text = play if isinstance(play, str) else str(play)
        if isinstance(play, str):
            try:
                parsed = parse_action(play)
            except NotationError as exc:
                return Preview(text, str(exc), 0, (), False)
            if not isinstance(parsed, Play):
                return Preview(text, "only a play of tiles has a preview", 0, (), False)
            play = parsed
        reason = self.illegal_reason(play)
        if reason is not None:
            return Preview(text, reason, 0, (), False)
        items = tuple(self._score_items(play))
        return Preview(str(play), None, sum(i.points for i in items), items,
                       any(IS_BIS[s] for s in play.squares))

    def _score_items(self, play: Play) -> list[ScoreItem]:
        return score_play(self.board, play.tiles, self.rules.triolet_multipliers,
                          (SEED_RULES.bonus_name, TRIOLET_RULES.bonus_name))

    # --- applying actions ------------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        seat = self.order[self.turn]
        if isinstance(action, Play):
            return self._play(seat, action)
        if isinstance(action, Exchange):
            return self._exchange(seat, action)
        if isinstance(action, TimeOut):
            events = [Event("timeout", seat, 0, "Out of time: the turn is missed")]
        else:
            events = [Event("pass", seat, 0, "Passes")]
        self.passes += 1
        self.idle += 1
        return events + self._next_turn()

    def time_out(self) -> list[Event]:
        """The server's call when the player to move runs out of time: the player misses the
        turn and play moves on. Recorded in the history as ``timeout``.

        Raises :class:`IllegalActionError` in a game without a time limit, and
        :class:`GameOverError` once the game is over.
        """
        if self.over:
            raise GameOverError("timeout: the game is over")
        return self.apply(TIMEOUT)

    def _draw(self, seat: int, count: int) -> list[int]:
        drawn = [self.bag.pop() for _ in range(min(count, len(self.bag)))]
        if drawn:
            self.racks[seat].extend(drawn)
            self.racks[seat].sort()
        return drawn

    def _draw_event(self, seat: int, drawn: list[int]) -> Event:
        return Event("draw", seat, 0, f"Draws {_plural(len(drawn), 'tile')}",
                     {"count": len(drawn), "bag": len(self.bag)},
                     {"tiles": [tile_text(t) for t in drawn]})

    def _play(self, seat: int, play: Play) -> list[Event]:
        items = self._score_items(play)
        events = [Event("place", seat, 0, f"Plays {play}", {
            "play": str(play),
            "tiles": [{"row": p.row, "col": p.col, "value": p.value, "joker": p.joker}
                      for p in play.tiles]})]
        for item in items:
            data = item.to_json()
            for key in ("kind", "points", "label"):
                data.pop(key)
            events.append(self._score(seat, item.points, "score", item.label, line=item.kind,
                                      **data))
        rack = self.racks[seat]
        squares = play.squares
        for p, s in zip(play.tiles, squares, strict=True):
            self.board[s] = cell_code(p.value, p.joker)
            self.placed.append(s)
            rack.remove(JOKER if p.joker else p.value)
        update_after_play(self.board, self.cross, self.anchors, squares)
        drawn = self._draw(seat, len(squares))
        if drawn:
            events.append(self._draw_event(seat, drawn))
            if len(self.bag) <= ANNOUNCE_AT:
                events.append(Event("bag", None, 0, f"{_plural(len(self.bag), 'tile')} left in "
                                    f"the bag", {"count": len(self.bag)}))
        self.passes = 0
        self.idle = 0
        if not rack and not self.bag:
            return events + self._end_out(seat)
        if any(IS_BIS[s] for s in squares):
            events.append(Event("bis", seat, 0, "BIS square: plays again",
                                {"square": square_name(next(s for s in squares if IS_BIS[s]))}))
            return events
        self.turn = (self.turn + 1) % len(self.order)
        return events

    def _exchange(self, seat: int, action: Exchange) -> list[Event]:
        rack = self.racks[seat]
        for t in action.tiles:
            rack.remove(t)
        self.bag.extend(action.tiles)
        derive(self.seed, "exchange", self.move_number).shuffle(self.bag)
        drawn = self._draw(seat, len(action.tiles))
        events = [
            Event("exchange", seat, 0, f"Exchanges {_plural(len(action.tiles), 'tile')}",
                  {"count": len(action.tiles)},
                  {"returned": [tile_text(t) for t in action.tiles]}),
            self._draw_event(seat, drawn),
        ]
        self.passes = 0
        self.idle += 1
        return events + self._next_turn()

    def _next_turn(self) -> list[Event]:
        """After a turn without a tile placed: the blocked end, or the next seat."""
        if self.passes >= self.game.num_players:
            return self._end_blocked("passes")
        if self.idle >= self.game.stall_limit:
            return self._end_blocked("stalled")
        self.turn = (self.turn + 1) % len(self.order)
        return []

    def _end_out(self, seat: int) -> list[Event]:
        """The bag is empty and ``seat`` has placed its last tile: it adds the tiles left on
        every other rack."""
        total = sum(tile_points(t) for other, rack in enumerate(self.racks) if other != seat
                    for t in rack)
        events = [self._score(seat, total, "score", f"Tiles left on the other racks +{total}",
                              line="end")]
        return events + self._game_over("out")

    def _end_blocked(self, reason: str) -> list[Event]:
        """Everybody passed in turn (or nobody placed a tile for three rounds): each player
        loses the value of the tiles on the rack."""
        events = []
        for seat, rack in enumerate(self.racks):
            value = sum(tile_points(t) for t in rack)
            events.append(self._score(seat, -value, "score", f"Tiles left on the rack -{value}",
                                      line="end"))
        return events + self._game_over(reason)

    def _game_over(self, reason: str) -> list[Event]:
        self.over = True
        self.end_reason = reason
        result = self.result()
        names = ", ".join(seat_text(s) for s in result.winners)
        verb = "wins" if len(result.winners) == 1 else "tie for first"
        why = {"out": "a player placed the last tile", "passes": "everybody passed in turn",
               "stalled": f"no tile was placed in {STALL_ROUNDS} rounds"}[reason]
        return [Event("game_over", None, 0, f"Game over ({why}): {names} {verb}", {
            "reason": reason, "scores": list(self.scores), "ranks": list(result.ranks),
            "racks": [[tile_text(t) for t in rack] for rack in self.racks]})]

    # --- views ----------------------------------------------------------------------------------
    def observation(self, player: int | None) -> TridentObservation:
        game = self.game
        if player is not None and not 0 <= player < game.num_players:
            raise ValueError(f"no seat {player} in a {game.num_players}-player game")
        return TridentObservation(
            player=player,
            num_players=game.num_players,
            variant=self.rules.name,
            time_limit=game.time_limit,
            board=tuple(self.board),
            placed=tuple(self.placed),
            rack=None if player is None else tuple(self.racks[player]),
            rack_counts=tuple(len(r) for r in self.racks),
            bag_count=len(self.bag),
            aside_count=len(self.aside),
            scores=tuple(self.scores),
            order=self.order,
            current_player=self.current_player,
            consecutive_passes=self.passes,
            idle_turns=self.idle,
            end_reason=self.end_reason,
            move_number=self.move_number,
        )

    def clone(self) -> TridentState:
        other = TridentState.__new__(TridentState)
        self._copy_base_into(other)
        other.rules = self.rules
        other.board = self.board.copy()
        other.cross = self.cross.copy()
        other.anchors = self.anchors.copy()
        other.placed = self.placed.copy()
        other.racks = [r.copy() for r in self.racks]
        other.bag = self.bag.copy()
        other.aside = self.aside
        other.order = self.order
        other.turn = self.turn
        other.passes = self.passes
        other.idle = self.idle
        other.over = self.over
        other.end_reason = self.end_reason
        other.moves_before = self.moves_before
        other._setup = self._setup
        return other

    def __repr__(self) -> str:
        return (f"<TridentState {len(self.placed)} tiles down, bag {len(self.bag)}, to move "
                f"{self.current_player}, scores {self.scores}>")

    # --- integer ids ----------------------------------------------------------------------------
    def encode_action(self, action: Action) -> int:
        """A play: ``(first square * 39 + shape) * 16 + joker value``, the shape naming the
        tiles' offsets from the first square, their direction and the rack slot each comes
        from (equal tiles: the lowest slots); an exchange: ``140400 + slot set - 1``; pass
        140407; timeout 140408."""
        if isinstance(action, Pass):
            return PASS_ID
        if isinstance(action, TimeOut):
            return TIMEOUT_ID
        if self.over:
            raise IllegalActionError(f"{action}: the game is over")
        rack = self.racks[self.order[self.turn]]
        if isinstance(action, Exchange):
            slots = self._slots(rack, action.tiles, action)
            return EXCHANGE_BASE + sum(1 << i for i in slots) - 1
        if not isinstance(action, Play) or not 1 <= len(action.tiles) <= RACK_SIZE:
            raise IllegalActionError(f"no action id for {action!r}")
        tiles = sorted(action.tiles)
        first = tiles[0]
        offsets: tuple[int, ...]
        if len(tiles) == 1:
            direction, offsets = 0, (0,)
        elif all(p.row == first.row for p in tiles):
            direction, offsets = 0, tuple(p.col - first.col for p in tiles)
        elif all(p.col == first.col for p in tiles):
            direction, offsets = 1, tuple(p.row - first.row for p in tiles)
        else:
            raise IllegalActionError(f"{action}: no action id for tiles off one line")
        slots = self._slots(rack, [p.kind for p in tiles], action)
        shape = _SHAPE_INDEX.get((offsets, direction, slots))
        if shape is None or not (0 <= first.row < SIZE and 0 <= first.col < SIZE):
            raise IllegalActionError(f"{action}: no action id for tiles spread like that")
        joker = next((p.value for p in tiles if p.joker), 0)
        return ((first.row * SIZE + first.col) * len(_SHAPES) + shape) * 16 + joker

    @staticmethod
    def _slots(rack: Sequence[int], kinds: Sequence[int], action: Action) -> tuple[int, ...]:
        used: list[int] = []
        for kind in kinds:
            slot = next((i for i, t in enumerate(rack) if t == kind and i not in used), None)
            if slot is None:
                raise IllegalActionError(f"{action}: no {tile_text(kind)} on the rack for an "
                                         f"action id")
            used.append(slot)
        return tuple(used)

    def decode_action(self, action_id: int) -> Action:
        if action_id == PASS_ID:
            return PASS
        if action_id == TIMEOUT_ID:
            return TIMEOUT
        if not 0 <= action_id < PASS_ID:
            raise IllegalActionError(f"no Trident action has id {action_id}")
        if self.over:
            raise IllegalActionError(f"action id {action_id}: the game is over")
        rack = self.racks[self.order[self.turn]]
        if action_id >= EXCHANGE_BASE:
            mask = action_id - EXCHANGE_BASE + 1
            chosen = [i for i in range(RACK_SIZE) if mask >> i & 1]
            if max(chosen) >= len(rack):
                raise IllegalActionError(f"action id {action_id} exchanges rack slot "
                                         f"{max(chosen)}; the rack holds {len(rack)} tiles")
            return Exchange.of(rack[i] for i in chosen)
        rest, joker_value = divmod(action_id, 16)
        first, shape = divmod(rest, len(_SHAPES))
        offsets, direction, slots = _SHAPES[shape]
        row0, col0 = divmod(first, SIZE)
        if max(slots) >= len(rack):
            raise IllegalActionError(f"action id {action_id} uses rack slot {max(slots)}; the "
                                     f"rack holds {len(rack)} tiles")
        kinds = [rack[i] for i in slots]
        jokers = kinds.count(JOKER)
        if jokers > 1 or (jokers == 0 and joker_value):
            raise IllegalActionError(f"action id {action_id} is not the id of any action here")
        tiles = []
        for offset, kind in zip(offsets, kinds, strict=True):
            row = row0 + offset * direction
            col = col0 + offset * (1 - direction)
            if row >= SIZE or col >= SIZE:
                raise IllegalActionError(f"action id {action_id} places a tile off the board")
            if kind == JOKER:
                tiles.append(Placement(row, col, joker_value, True))
            else:
                tiles.append(Placement(row, col, kind, False))
        return Play(tuple(sorted(tiles)))

    # --- setups -----------------------------------------------------------------------------------
    def setup(self) -> dict[str, Any] | None:
        if self._setup is None:
            return None
        return {key: (list(value) if isinstance(value, list) else value)
                for key, value in self._setup.items()} | {
                    "racks": [list(r) for r in self._setup["racks"]]}

    def _position_json(self) -> dict[str, Any]:
        """This position as a setup (used for determinizations)."""
        out: dict[str, Any] = {
            "racks": [[_json_tile(t) for t in rack] for rack in self.racks],
            "bag": [_json_tile(t) for t in reversed(self.bag)],
            "board": [f"{square_name(s)}={'*' if self.board[s] >= 16 else ''}"
                      f"{self.board[s] & 15}" for s in self.placed],
            "order": list(self.order),
            "turn": self.turn,
            "scores": list(self.scores),
            "passes": self.passes,
            "idle": self.idle,
            "moves": self.moves_before,
        }
        if self.rules.aside:
            out["aside"] = [_json_tile(t) for t in self.aside]
        return out

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        """Build the position of an explicit setup; see ``docs/rules/trident.md``."""
        game = self.game
        n = game.num_players
        if not isinstance(setup, Mapping):
            raise RecordError("the setup is a JSON object")
        unknown = sorted(set(setup) - set(_SETUP_KEYS))
        if unknown:
            raise RecordError(f"the setup has an unknown key {unknown[0]!r}; it may have: "
                              f"{', '.join(_SETUP_KEYS)}")
        for key in ("racks", "bag"):
            if key not in setup:
                raise RecordError(f"the setup has no {key!r}")

        def tiles_of(raw: object, where: str) -> list[int]:
            if not isinstance(raw, list):
                raise RecordError(f"the setup's {where} is a list of tiles (0 to 15, or '*')")
            out = []
            for i, text in enumerate(raw):
                try:
                    out.append(parse_tile(text))
                except NotationError:
                    raise RecordError(f"setup {where}[{i}] is {text!r}, not a tile (0 to 15, "
                                      f"or '*' for a joker)") from None
            return out

        raw_racks = setup["racks"]
        if not isinstance(raw_racks, list) or len(raw_racks) != n:
            raise RecordError(f"the setup's 'racks' is a list of {n} racks, one per seat")
        racks = [tiles_of(raw, f"racks[{i}]") for i, raw in enumerate(raw_racks)]
        for i, rack in enumerate(racks):
            if not 1 <= len(rack) <= RACK_SIZE:
                raise RecordError(f"setup racks[{i}] holds {len(rack)} tiles; a rack holds 1 "
                                  f"to 3")
        bag = tiles_of(setup["bag"], "bag")
        aside = tiles_of(setup.get("aside", []), "aside")
        if len(aside) != self.rules.aside:
            raise RecordError(f"the {self.rules.name} rules set {self.rules.aside} tiles aside; "
                              f"the setup's 'aside' has {len(aside)}")
        raw_board = setup.get("board", [])
        if not isinstance(raw_board, list):
            raise RecordError("the setup's 'board' is a list of tiles like '7:7=5' or '7:8=*3'")
        board = new_board()
        placed: list[int] = []
        for i, text in enumerate(raw_board):
            if not isinstance(text, str):
                raise RecordError(f"setup board[{i}] is {text!r}, not a tile like '7:7=5'")
            try:
                p = parse_placement(text)
            except NotationError as exc:
                raise RecordError(f"setup board[{i}]: {exc}") from None
            if board[p.square] != EMPTY:
                raise RecordError(f"setup board[{i}]: square {p.row}:{p.col} is named twice")
            board[p.square] = cell_code(p.value, p.joker)
            placed.append(p.square)
        problem = board_problem(board)
        if problem is not None:
            raise RecordError(f"the setup's board breaks the rules: {problem}")
        counts = Counter(bag) + Counter(aside)
        for rack in racks:
            counts.update(rack)
        counts.update(JOKER if board[s] >= 16 else board[s] for s in placed)
        for kind in KINDS:
            if counts[kind] != FULL_COUNTS[kind]:
                have = counts[kind]
                name = (_plural(have, "joker") if kind == JOKER
                        else f"{_plural(have, 'tile')} of value {kind}")
                raise RecordError(f"the setup has {name} (racks, bag, aside and board "
                                  f"together); Trident has {FULL_COUNTS[kind]}")

        def number(key: str, low: int, high: int) -> int:
            value = setup.get(key, 0)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise RecordError(f"the setup's {key!r} is a whole number from {low} to {high}, "
                                  f"not {value!r}")
            return value

        order = setup.get("order", list(range(n)))
        if not isinstance(order, list) or sorted(order) != list(range(n)) or any(
                isinstance(s, bool) for s in order):
            raise RecordError(f"the setup's 'order' lists the seats 0 to {n - 1}, each once, in "
                              f"their order of play")
        scores = setup.get("scores", [0] * n)
        if (not isinstance(scores, list) or len(scores) != n
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
            raise RecordError(f"the setup's 'scores' is a list of {n} whole numbers")
        self.turn = number("turn", 0, n - 1)
        self.passes = number("passes", 0, n - 1)
        self.idle = number("idle", 0, game.stall_limit - 1)
        self.moves_before = number("moves", 0, 1_000_000)
        self.racks = [sorted(r) for r in racks]
        self.bag = bag[::-1]
        self.aside = sorted(aside)
        self.board = board
        self.placed = placed
        self.cross = compute_cross(board)
        self.anchors = compute_anchors(board)
        self.order = tuple(order)
        self.scores = list(scores)
        normal: dict[str, Any] = {
            "racks": [[_json_tile(t) for t in rack] for rack in racks],
            "bag": [_json_tile(t) for t in bag],
        }
        if aside:
            normal["aside"] = [_json_tile(t) for t in aside]
        for key in ("board", "order", "turn", "scores", "passes", "idle", "moves"):
            if key in setup:
                value = setup[key]
                normal[key] = list(value) if isinstance(value, list) else value
        self._setup = normal


def _json_tile(t: int) -> int | str:
    """A tile in JSON: its number, or ``"*"`` for a joker."""
    return "*" if t == JOKER else t


def complete_setup(partial: Mapping[str, Any], variant: str = "seed") -> dict[str, Any]:
    """A setup with the tiles it does not name put in the bag, in tile order (drawn in that
    order, after any ``bag`` given), and for the ``triolet`` variant the first three of them
    set aside when ``aside`` is not given.

    Handy for tests and rulebook positions: name the racks (and the board).

    >>> setup = complete_setup({"racks": [[15, "*"], [14]], "board": ["7:7=5"]})
    >>> len(setup["bag"]), setup["bag"][:4], setup["bag"][-1]
    (79, [0, 0, 0, 0], '*')
    """
    named: Counter[int] = Counter()
    for rack in partial.get("racks", []):
        named.update(parse_tile(t) for t in rack)
    named.update(parse_tile(t) for t in partial.get("bag", []))
    named.update(parse_tile(t) for t in partial.get("aside", []))
    for text in partial.get("board", []):
        p = parse_placement(text)
        named[p.kind] += 1
    rest: list[int] = []
    for kind in KINDS:
        rest.extend([kind] * max(0, FULL_COUNTS[kind] - named[kind]))
    out = dict(partial)
    if RULES[variant].aside and "aside" not in partial:
        out["aside"] = [_json_tile(t) for t in rest[:RULES[variant].aside]]
        rest = rest[RULES[variant].aside:]
    out["bag"] = list(partial.get("bag", [])) + [_json_tile(t) for t in rest]
    return out


__all__ = [
    "MAX_PLAYERS",
    "NUM_ACTION_IDS",
    "Preview",
    "TridentGame",
    "TridentObservation",
    "TridentState",
    "complete_setup",
]
