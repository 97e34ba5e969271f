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
from triverse.core.events import Event
from triverse.core.game import State
from triverse.core.rng import fresh_seed
from triverse.games.trident.board import (
    ACROSS,
    DOWN,
    IS_BIS,
    JOKER_FLAG,
    MULTIPLIER,
    update_after_play,
)
from triverse.games.trident.engine import TridentState
from triverse.games.trident.movegen import generate_exchanges, generate_plays
from triverse.games.trident.scoring import TRIO_BONUS, TRITON_BONUS, play_lines
from triverse.games.trident.tiles import (
    JOKER,
    PASS,
    SIZE,
    TRIO_SUM,
    Exchange,
    Pass,
    Placement,
    Play,
    tile_points,
)

AnyState = State[Any]
Remembered = dict[tuple[tuple[int, ...], tuple[int, ...], bool], tuple[Play | None, int]]
"""Plays remembered in one search: by board (square and code of each tile down), rack and
scoring variant, the play chosen and its points."""

LEAVE_W = 0.5
"""How much the value of the tiles kept on the rack (:func:`leave_value`) counts against a
play's points."""
BIS_VALUE = 20.0
"""A BIS square: another turn at once, worth about an average turn's points."""
JOKER_LEAVE = 9.0
DUPLICATE_LEAVE = -3.0
TRITON_HOPE = 60.0
"""What a rack that could make 15 with one more tile is worth, times the chance of drawing it."""
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


def tile_leave(t: int) -> float:
    """The worth of keeping one tile: jokers are gold, middling numbers flexible, high ones
    hard to place (a pair must total 15 or less).

    >>> tile_leave(16) > tile_leave(5) > tile_leave(14)
    True
    """
    if t == JOKER:
        return JOKER_LEAVE
    return 1.5 - 0.45 * max(0, t - 7) - 0.3 * max(0, 2 - t)


def leave_value(rack: Sequence[int], unseen: Counter[int] | None = None) -> float:
    """The worth of the tiles kept on a rack (before drawing)."""
    value = sum(tile_leave(t) for t in rack)
    counts = Counter(rack)
    value += DUPLICATE_LEAVE * sum(c - 1 for c in counts.values() if c > 1)
    numbers = [t for t in rack if t != JOKER]
    if len(rack) == 2 and len(numbers) == 2:
        need = TRIO_SUM - numbers[0] - numbers[1]
        if 0 <= need <= 15:
            chance = 0.08 if unseen is None else unseen[need] / max(1, sum(unseen.values()))
            value += TRITON_HOPE * chance
    return value


RACK_TILE_POINTS: tuple[float, ...] = (
    -2.52, -0.82, -0.63, 0.10, 0.58, 0.08, 0.20, 0.48,  # 0-7
    1.39, 0.88, -1.09, -2.56, -2.37, -3.51, -5.51, -6.02,  # 8-15
    25.29,  # a joker
)
"""What a tile on a full rack adds to the points of the next turn, against an average tile:
fitted by least squares to the best play's points (:meth:`TridentKnowledge.greedy_play`) of
12,000 racks dealt from the unseen tiles of positions of games between average players
(``benchmarks/trident_rack_points.py``). A joker is worth a Trio almost anywhere; 13, 14 and 15
are hard to place."""
RACK_TRITON_POINTS = 77.82
"""Three numbers totalling 15 on the rack: the next turn's Triton (+50, a Trio of 30 and its
cross lines), fitted with :data:`RACK_TILE_POINTS`."""
RACK_DUPLICATE_POINTS = -5.37
"""Each tile the same as another on the rack, fitted with :data:`RACK_TILE_POINTS`."""


def rack_points(rack: Sequence[int]) -> float:
    """The veteran's value of a full rack: the points it adds to the next turn's best play
    (:data:`RACK_TILE_POINTS`, a Triton in hand, tiles the same).

    >>> rack_points([4, 5, 6]) > rack_points([4, 5, 16]) > rack_points([4, 5, 14])
    True
    """
    value = 0.0
    seen = 0
    total = 0
    numbers = 0
    for t in rack:
        value += RACK_TILE_POINTS[t]
        if seen >> t & 1:
            value += RACK_DUPLICATE_POINTS
        seen |= 1 << t
        if t != JOKER:
            total += t
            numbers += 1
    if numbers == 3 and total == TRIO_SUM:
        value += RACK_TRITON_POINTS
    return value


def _outward(board: Sequence[int], base: int, step: int, lo: int, hi: int) -> tuple[int, int]:
    """The numbers (a joker counts 0) and the count of the tiles already down next to squares
    ``lo`` to ``hi`` of one line, walking outwards from both ends to the first empty square."""
    points = extra = 0
    q = lo - 1
    while q >= 0:
        code = board[base + q * step]
        if code < 0:
            break
        points += 0 if code >= JOKER_FLAG else code
        extra += 1
        q -= 1
    q = hi + 1
    while q < SIZE:
        code = board[base + q * step]
        if code < 0:
            break
        points += 0 if code >= JOKER_FLAG else code
        extra += 1
        q += 1
    return points, extra


def _plain_points(board: Sequence[int], tiles: Sequence[Placement]) -> int | None:
    """:func:`play_points` of a play whose new tiles are all on plain squares (no multiplier:
    a pair scores its numbers, a joker 0, a Trio 30), walking the board; ``None`` for a play
    on a premium square (or a lone tile)."""
    for p in tiles:
        if MULTIPLIER[p.row * SIZE + p.col] != 1:
            return None
    n = len(tiles)
    total = 0
    if n == 1:
        cross: tuple[int, ...] = (ACROSS, DOWN)
    else:
        main = ACROSS if tiles[0].row == tiles[1].row else DOWN
        cross = (DOWN,) if main == ACROSS else (ACROSS,)
        jokers = 0
        if main == ACROSS:
            row = tiles[0].row
            cols = [p.col for p in tiles]
            lo, hi = min(cols), max(cols)
            base, step = row * SIZE, 1
        else:
            col = tiles[0].col
            rows = [p.row for p in tiles]
            lo, hi = min(rows), max(rows)
            base, step = col, SIZE
        length = hi - lo + 1
        points = 0
        for p in tiles:
            if p.joker:
                jokers += 1
            else:
                points += p.value
        for q in range(lo + 1, hi):  # a tile already down between the new ones
            code = board[base + q * step]
            if code >= 0:
                points += 0 if code >= JOKER_FLAG else code
        more, extra = _outward(board, base, step, lo, hi)
        points += more
        length += extra
        total += TRIO_SUM + TRIO_BONUS if length == 3 else points
        if n == 3 and not jokers:
            total += TRITON_BONUS
    lines = 0
    for p in tiles:
        own = 0 if p.joker else p.value
        for d in cross:
            if d == ACROSS:
                base, step, k = p.row * SIZE, 1, p.col
            else:
                base, step, k = p.col, SIZE, p.row
            more, extra = _outward(board, base, step, k, k)
            points = own + more
            length = 1 + extra
            if length > 1:
                lines += 1
                total += TRIO_SUM + TRIO_BONUS if length == 3 else points
    if n == 1 and not lines:
        return None
    return total


def leave_points(kept: Sequence[int], unseen: Counter[int]) -> float:
    """The veteran's value of the tiles kept after a play, in the next turn's points: their
    :data:`RACK_TILE_POINTS`, and for two numbers the chance that the tile drawn makes a
    Triton with them.

    >>> from triverse.games.trident.tiles import TILE_SET
    >>> unseen = Counter(TILE_SET)  # the 83 tiles: nine 0s, one 15, two jokers
    >>> leave_points([16], unseen) > leave_points([7, 8], unseen) > leave_points([7, 9], unseen)
    True
    """
    value = rack_points(kept)
    if len(kept) == 2 and JOKER not in kept:
        need = TRIO_SUM - kept[0] - kept[1]
        if 0 <= need <= 15:
            value += RACK_TRITON_POINTS * unseen[need] / max(1, sum(unseen.values()))
    return value


def play_points(board: Sequence[int], tiles: Sequence[Placement], triolet: bool) -> int:
    """The points of a legal play: the engine's :func:`~triverse.games.trident.scoring.score_play`
    total, computed without its labels (tested equal).

    >>> from triverse.games.trident.board import new_board
    >>> board = new_board()
    >>> board[7 * SIZE + 7], board[7 * SIZE + 8] = 2, 4
    >>> play_points(board, [Placement(7, 9, 9, False)], False)  # a Trio
    30
    >>> play_points(board, [Placement(6, 8, 3, False)], False)  # the pair 3 + 4 down
    7
    """
    fast = _plain_points(board, tiles)
    if fast is not None:
        return fast
    overlay, found = play_lines(board, tiles)
    lines = [(squares, codes) for _d, squares, codes in found]
    if not lines:
        (p,) = tiles
        return 0 if p.joker else p.value * MULTIPLIER[p.row * SIZE + p.col]
    triton = len(tiles) == 3
    main = -1
    if triton:
        for i, (squares, _codes) in enumerate(lines):
            if all(q in overlay for q in squares):
                main = i
                break
    assigned: list[dict[int, int]] = [{} for _ in lines]

    def points(i: int, given: dict[int, int]) -> int:
        squares, codes = lines[i]
        if len(codes) == 2:
            return sum(0 if c >= 16 else c * given.get(s, 1)
                       for s, c in zip(squares, codes, strict=True))
        if triolet or i == main:
            mult = 1
            for m in given.values():
                mult *= m
            return (TRIO_SUM + TRIO_BONUS) * mult
        return sum((c & 15) * given.get(s, 1) for s, c in zip(squares, codes, strict=True)) \
            + TRIO_BONUS

    for s in overlay:
        m = MULTIPLIER[s]
        if m == 1:
            continue
        best_index = -1
        best_gain = -1
        for i, (squares, _codes) in enumerate(lines):
            if s not in squares:
                continue
            gain = points(i, {**assigned[i], s: m}) - points(i, assigned[i])
            if gain > best_gain:
                best_gain, best_index = gain, i
        if best_index >= 0:
            assigned[best_index][s] = m
    total = sum(points(i, assigned[i]) for i in range(len(lines)))
    if triton and not any(p.joker for p in tiles):
        total += TRITON_BONUS
    return total


def apply_play(state: TridentState, play: Play, points: int) -> None:
    """Apply a legal play worth ``points`` (:func:`play_points`) as the engine's
    ``apply_unchecked`` does, without writing its events: for simulations (tested equal)."""
    seat = state.order[state.turn]
    state.scores[seat] += points
    board = state.board
    placed = state.placed
    rack = state.racks[seat]
    squares = []
    for p in play.tiles:
        s = p.row * SIZE + p.col
        squares.append(s)
        board[s] = p.value + JOKER_FLAG if p.joker else p.value
        placed.append(s)
        rack.remove(JOKER if p.joker else p.value)
    update_after_play(board, state.cross, state.anchors, squares)
    bag = state.bag
    for _ in range(min(len(squares), len(bag))):
        rack.append(bag.pop())
    rack.sort()
    state.passes = 0
    state.idle = 0
    state.history.append(play)
    if not rack and not bag:
        state._end_out(seat)
    elif not any(IS_BIS[s] for s in squares):
        state.turn = (state.turn + 1) % len(state.order)


def average_leave(kept: Sequence[int], unseen: Counter[int]) -> float:
    """The average player's value of the tiles kept after a play: half their
    :func:`leave_value`."""
    return LEAVE_W * leave_value(kept, unseen)


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


def unseen_counts(state: TridentState, seat: int) -> Counter[int]:
    """The tiles ``seat`` has not seen: the set less the board and its own rack."""
    from triverse.games.trident.tiles import TILE_SET

    unseen = Counter(TILE_SET)
    board = state.board
    for s in state.placed:
        unseen[JOKER if board[s] >= 16 else board[s]] -= 1
    for t in state.racks[seat]:
        unseen[t] -= 1
    return unseen


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


__all__ = ["TridentKnowledge", "leave_value", "play_points", "tile_leave"]
