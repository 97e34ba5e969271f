"""Knowledge of Trident: number tiles laid crossword style, lines of three total exactly 15.

What a move is worth here: its points now (:func:`play_points`, the engine's scoring without
its English labels, for speed), the *leave* (the tiles kept on the rack: a joker, tiles that
can still make 15 together, no clumsy high tiles or pairs of the same), a BIS square (another
turn at once).

- novice: a random play (it never passes or exchanges while it can play), but a Trio or a
  Triton it sees it takes half the time;
- average: the best points plus half the leave's value plus a BIS square's worth;
- veteran: determinized Monte Carlo (:mod:`triverse.ai.search`). Its candidates are the best
  plays by points, a BIS square's worth and the tiles kept valued by :func:`leave_points` (at
  most :data:`SAME_SQUARES` on one set of squares, so that the tiles of one play in other
  orders do not crowd out the other plays), and the exchange that keeps the best tiles. Each is
  played on sampled racks and bags (:meth:`TridentKnowledge.sample_world`), followed by the
  opponent's reply as the average player makes it (:meth:`TridentKnowledge.average_play`) and
  the extra turns of BIS squares (the seat's by the most points now,
  :meth:`TridentKnowledge.greedy_play`; :data:`REPLY_PLIES` actions at most), and judged by the
  lead plus the points of its own next turn (its best play on the board the reply leaves, with
  the rack it then holds: :meth:`TridentKnowledge.next_turn_points`) minus what the best other
  rack is worth to its owner (:func:`rack_points`, fitted by simulation:
  :data:`RACK_TILE_POINTS`). When the bag is empty the other racks are known, and each
  simulation plays the game to its end. The simulations score plays with a fast scoring of
  plain squares (:func:`play_points`), apply them without events (:func:`apply_play`) and
  remember each board's and rack's plays for the search under way.

The values of racks and leaves are in :mod:`triverse.ai.knowledge.trident_racks`, the fast
scoring in :mod:`triverse.ai.knowledge.trident_points`; this module exports both.

>>> import random
>>> from triverse import load_game
>>> game = load_game("trident")
>>> state = game.new_initial_state(seed=3)
>>> seat = state.current_player
>>> state.is_legal(TridentKnowledge().average_move(state, seat, random.Random(0)))
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from triverse.ai.knowledge import Knowledge, score_margin
from triverse.ai.knowledge.trident_points import apply_play, play_points
from triverse.ai.knowledge.trident_racks import (
    RACK_DUPLICATE_POINTS,
    RACK_TILE_POINTS,
    RACK_TRITON_POINTS,
    average_leave,
    leave_points,
    leave_value,
    rack_points,
    tile_leave,
    unseen_counts,
)
from triverse.core.events import Event
from triverse.core.game import State
from triverse.core.rng import fresh_seed
from triverse.games.trident.board import IS_BIS
from triverse.games.trident.engine import TridentState
from triverse.games.trident.movegen import generate_exchanges, generate_plays
from triverse.games.trident.scoring import TRIO_BONUS
from triverse.games.trident.tiles import (
    JOKER,
    PASS,
    SIZE,
    TRIO_SUM,
    Exchange,
    Pass,
    Play,
    tile_points,
)

AnyState = State[Any]
Remembered = dict[tuple[tuple[int, ...], tuple[int, ...], bool], tuple[Play | None, int]]
"""Plays remembered in one search: by board (square and code of each tile down), rack and
scoring variant, the play chosen and its points."""

BIS_VALUE = 20.0
"""A BIS square: another turn at once, worth about an average turn's points."""
RACK_W = 1.0
"""How much a rack's value (:func:`rack_points`) counts in a simulation's judgement (the
seat's for it, the best other rack's against it)."""
REPLY_PLIES = 4
"""Actions a simulation plays at most (the opponent's reply, a BIS square's extra turns)."""
ENDGAME_PLIES = 24
"""Actions a simulation plays at most once the bag is empty (to the end of the game)."""
GREEDY_CACHE = 200_000
"""Greedy plays remembered at most in one search (:meth:`TridentKnowledge.greedy_play`)."""
SAME_SQUARES = 2
"""Candidates on one set of squares at most (the same tiles in another order are much alike)."""
NEXT_TURN_POINTS = 44.8
"""The mean points of the best play of a full rack dealt from the unseen tiles, measured with
the rack values (``benchmarks/trident_rack_points.py``, its ``turn``): what
:meth:`TridentKnowledge.next_turn_points` counts a turn against, as :func:`rack_points` counts
a rack against the average rack."""


def plays_valued(state: TridentState, seat: int, plays: Sequence[Play], unseen: Counter[int],
                 leave: Callable[[Sequence[int], Counter[int]], float]
                 ) -> list[tuple[Play, int, float]]:
    """Each of the seat's ``plays`` with its points and its value: the points, ``leave`` of the
    tiles kept (worked out once for each set of tiles kept) and a BIS square's worth."""
    rack = state.racks[seat]
    board = state.board
    triolet = state.rules.triolet_multipliers
    leaves: dict[tuple[int, ...], float] = {}
    out: list[tuple[Play, int, float]] = []
    for play in plays:
        kept = list(rack)
        for kind in play.kinds:
            kept.remove(kind)
        key = tuple(kept)
        kept_value = leaves.get(key)
        if kept_value is None:
            kept_value = leaves[key] = leave(kept, unseen)
        points = play_points(board, play.tiles, triolet)
        value = points + kept_value
        if any(IS_BIS[s] for s in play.squares):
            value += BIS_VALUE
        out.append((play, points, value))
    return out




class TridentKnowledge(Knowledge):
    """Trident."""

    name: ClassVar[str] = "trident"
    win_bonus: ClassVar[float] = 60.0
    max_candidates: ClassVar[int] = 10
    rollout_plies: ClassVar[int] = 2
    default_budget: ClassVar[float] = 0.8

    def __init__(self) -> None:
        self._template: tuple[Any, TridentState] | None = None
        """The observation of the search going on and its first determinization."""
        self._greedy: Remembered = {}
        """:meth:`greedy_play`'s answers in the search under way."""
        self._average: Remembered = {}
        """:meth:`average_play`'s answers in the search under way."""

    def special_play(self, event: Event) -> str | None:
        line = event.data.get("line") if event.data else None
        if event.kind == "score" and line == "triton" and event.points > 0:
            return "triton"
        if event.kind == "score" and line == "trio":
            return "trio"
        return None

    # --- values ------------------------------------------------------------------------------
    def valued(self, state: TridentState, seat: int) -> list[tuple[Any, float]]:
        """Every legal action with the average player's value."""
        rack = state.racks[seat]
        unseen = unseen_counts(state, seat)
        plays = generate_plays(state.board, state.cross, state.anchors, rack, state.placed)
        out: list[tuple[Any, float]] = [
            (play, value) for play, _, value in plays_valued(state, seat, plays, unseen,
                                                             average_leave)]
        if plays:
            return out
        if len(state.bag) >= state.rules.exchange_min:
            base = leave_value(rack, unseen)
            for kind in sorted(set(rack)):
                if kind == JOKER:
                    continue
                kept = list(rack)
                kept.remove(kind)
                out.append((Exchange((kind,)), leave_value(kept, unseen) - base - 1.0))
            out.append((Exchange(tuple(t for t in rack if t != JOKER) or tuple(rack)), -0.5))
        out.append((PASS, -2.0))
        return out

    # --- levels ------------------------------------------------------------------------------
    def novice_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        assert isinstance(state, TridentState)
        rack = state.racks[seat]
        plays = generate_plays(state.board, state.cross, state.anchors, rack, state.placed)
        if not plays:
            return self.average_move(state, seat, rng)
        if rng.random() < 0.5:
            triolet = state.rules.triolet_multipliers
            trios = [p for p in plays if len(p.tiles) >= 2
                     and play_points(state.board, p.tiles, triolet) >= TRIO_SUM + TRIO_BONUS]
            if trios:
                return rng.choice(trios)
        return rng.choice(plays)

    def average_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        assert isinstance(state, TridentState)
        valued = self.valued(state, seat)
        return max(valued, key=lambda item: (item[1], rng.random()))[0]

    # --- the veteran's search ----------------------------------------------------------------
    def sample_world(self, game: Any, observation: Any, rng: random.Random,
                     memory: Any) -> AnyState:
        """A determinization, as :meth:`TridentGame.determinize` deals it but faster: a first
        determinization of the observation (its board, cross-check masks and anchors) is kept
        as a template, and each world is a copy of it with the unseen tiles (the other racks,
        the tiles aside and the bag) dealt afresh, shuffled by ``rng`` alone (so the worlds do
        not depend on whether the template was already there)."""
        cached = self._template
        if cached is None or cached[0] is not observation:
            template = game.determinize(observation, random.Random(0))
            self._template = cached = (observation, template)
            self._greedy.clear()
            self._average.clear()
        state = cached[1].clone()
        seat = observation.player
        pool: list[int] = []
        for other, rack in enumerate(state.racks):
            if other != seat:
                pool.extend(rack)
        pool.extend(state.aside)
        pool.extend(state.bag)
        pool.sort()
        rng.shuffle(pool)
        for other, rack in enumerate(state.racks):
            if other != seat:
                count = len(rack)
                state.racks[other] = sorted(pool[:count])
                pool = pool[count:]
        aside = len(state.aside)
        state.aside = sorted(pool[:aside])
        state.bag = pool[aside:]
        state.seed = fresh_seed(rng)
        state._setup = state._position_json()
        return state

    def candidates(self, state: AnyState, seat: int, rng: random.Random, limit: int
                   ) -> list[tuple[Any, float]]:
        assert isinstance(state, TridentState)
        valued = self.veteran_valued(state, seat)
        valued.sort(key=lambda item: -item[1])
        out: list[tuple[Any, float]] = []
        per_squares: Counter[tuple[int, ...]] = Counter()
        for item in valued:
            if len(out) >= limit:
                break
            action = item[0]
            if isinstance(action, Play):
                where = tuple(sorted(action.squares))
                if per_squares[where] >= SAME_SQUARES:
                    continue
                per_squares[where] += 1
            out.append(item)
        if not any(isinstance(a, (Exchange, Pass)) for a, _ in out) \
                and len(state.bag) >= state.rules.exchange_min:
            # The exchange that keeps the best leave (the average never exchanges while it
            # can play; the search judges whether a fresh draw is worth a turn).
            rack = state.racks[seat]
            unseen = unseen_counts(state, seat)
            best: tuple[float, Exchange] | None = None
            for exchange in generate_exchanges(rack):
                kept = list(rack)
                for t in exchange.tiles:
                    kept.remove(t)
                value = leave_points(kept, unseen) - len(exchange.tiles) * 1e-3
                if best is None or value > best[0]:
                    best = (value, exchange)
            if best is not None:
                out.append((best[1], best[0] - 20.0))
        return out

    def veteran_valued(self, state: TridentState, seat: int) -> list[tuple[Any, float]]:
        """Every legal action with the veteran's quick value (the order its candidates are
        taken in): points, a BIS square's worth, and the tiles kept by :func:`leave_points`."""
        rack = state.racks[seat]
        plays = generate_plays(state.board, state.cross, state.anchors, rack, state.placed)
        if not plays:
            return self.valued(state, seat)
        unseen = unseen_counts(state, seat)
        return [(play, value) for play, _, value in plays_valued(state, seat, plays, unseen,
                                                                 leave_points)]

    def greedy_play(self, state: TridentState, seat: int) -> tuple[Play | None, int]:
        """The seat's play with the most points now (a BIS square counting
        :data:`BIS_VALUE`; ties: the first generated), and its points; ``(None, 0)`` if it
        cannot play. Remembered for the search under way (it depends on the board and the rack
        alone, so remembering changes no result)."""
        return self._remembered(self._greedy, state, seat, self._most_points)

    def average_play(self, state: TridentState, seat: int) -> tuple[Play | None, int]:
        """The play the average player makes (:meth:`valued`: points, half the leave, a BIS
        square; ties: the first generated), and its points; ``(None, 0)`` if the seat cannot
        play. Remembered for the search under way, like :meth:`greedy_play`."""
        return self._remembered(self._average, state, seat, self._averages_choice)

    @staticmethod
    def _remembered(cache: Remembered, state: TridentState, seat: int,
                    choose: Callable[[TridentState, int, list[Play]], tuple[Play | None, int]]
                    ) -> tuple[Play | None, int]:
        """``choose``'s play among the seat's plays, and its points, remembered in ``cache``
        by board and rack."""
        rack = state.racks[seat]
        board = state.board
        key = (tuple([s * 32 + board[s] for s in state.placed]), tuple(rack),
               state.rules.triolet_multipliers)
        found = cache.get(key)
        if found is None:
            plays = generate_plays(board, state.cross, state.anchors, rack, state.placed)
            found = choose(state, seat, plays)
            if len(cache) >= GREEDY_CACHE:
                cache.clear()
            cache[key] = found
        return found

    @staticmethod
    def _most_points(state: TridentState, seat: int, plays: list[Play]
                     ) -> tuple[Play | None, int]:
        board = state.board
        triolet = state.rules.triolet_multipliers
        best: Play | None = None
        best_value = -1.0
        best_points = 0
        for play in plays:
            tiles = play.tiles
            points = play_points(board, tiles, triolet)
            if points + BIS_VALUE <= best_value:
                continue
            value = points + BIS_VALUE if any(IS_BIS[p.row * SIZE + p.col] for p in tiles) \
                else points
            if value > best_value:
                best, best_value, best_points = play, value, points
        return best, best_points

    @staticmethod
    def _averages_choice(state: TridentState, seat: int, plays: list[Play]
                         ) -> tuple[Play | None, int]:
        if not plays:
            return None, 0
        valued = plays_valued(state, seat, plays, unseen_counts(state, seat), average_leave)
        play, points, _ = max(valued, key=lambda item: item[2])  # the first of equals
        return play, points

    def rollout_step(self, state: TridentState, rng: random.Random, seat: int) -> None:
        """One action of a simulation judged for ``seat``, applied fast: the seat plays
        :meth:`greedy_play`, every other player :meth:`average_play` (its reply as the average
        player would make it); an action that is not a play by :meth:`average_move`."""
        mover = state.order[state.turn]
        if mover == seat:
            play, points = self.greedy_play(state, mover)
        else:
            play, points = self.average_play(state, mover)
        if play is None:
            state.apply_unchecked(self.average_move(state, mover, rng))
        else:
            apply_play(state, play, points)

    def playout(self, state: AnyState, seat: int, rng: random.Random) -> float:
        """The opponents reply (until it is the seat's turn again, or a few actions), then the
        position is judged. Once the bag is empty (the other racks then hold the unseen tiles,
        but for the ``triolet`` variant's tiles set aside), the game is played out to its end.
        """
        assert isinstance(state, TridentState)
        state = state.clone()
        if not state.bag:
            plies = 0
            while not state.is_terminal() and plies < ENDGAME_PLIES:
                self.rollout_step(state, rng, seat)
                plies += 1
            return self.evaluate(state, seat)
        plies = 0
        replied = False
        while not state.is_terminal() and plies < REPLY_PLIES:
            mover = state.current_player
            if mover == seat and replied:
                break
            replied = replied or mover != seat  # (the seat moves first after a BIS square)
            self.rollout_step(state, rng, seat)
            plies += 1
        return self.evaluate(state, seat)

    def evaluate(self, state: AnyState, seat: int) -> float:
        assert isinstance(state, TridentState)
        if state.is_terminal():
            return super().evaluate(state, seat)
        value = score_margin(state.scores, seat)
        if not state.bag:
            # The end is near: the tiles left are worth their numbers to whoever goes out.
            mine = RACK_W * rack_points(state.racks[seat])
            return value + mine - 0.5 * sum(tile_points(t) for t in state.racks[seat])
        # The seat's next turn counts for it (its best play on this board: what it set up and
        # what the reply left it), the best other rack against it (docs/ai.md, "Trident").
        theirs = max(rack_points(rack) for q, rack in enumerate(state.racks) if q != seat)
        return value + self.next_turn_points(state, seat) - RACK_W * theirs

    def next_turn_points(self, state: TridentState, seat: int) -> float:
        """What the seat's next turn is worth, against an average turn: on its turn, the points
        of its best play on this board with this rack (:meth:`greedy_play`, a BIS square
        counting :data:`BIS_VALUE`), less :data:`NEXT_TURN_POINTS`; otherwise its rack's
        fitted value (:func:`rack_points`)."""
        if state.current_player != seat:
            return RACK_W * rack_points(state.racks[seat])
        play, points = self.greedy_play(state, seat)
        if play is None:
            return -NEXT_TURN_POINTS
        bis = BIS_VALUE if any(IS_BIS[s] for s in play.squares) else 0.0
        return points + bis - NEXT_TURN_POINTS


__all__ = [
    "NEXT_TURN_POINTS",
    "RACK_DUPLICATE_POINTS",
    "RACK_TILE_POINTS",
    "RACK_TRITON_POINTS",
    "SAME_SQUARES",
    "TridentKnowledge",
    "apply_play",
    "leave_points",
    "leave_value",
    "play_points",
    "plays_valued",
    "rack_points",
    "tile_leave",
    "unseen_counts",
]
