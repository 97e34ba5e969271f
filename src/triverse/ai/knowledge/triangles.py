"""Knowledge of Triangles: a perfect-information game of lines and empty triangles.

Words used here. A triangle is *alive* while it can still be closed and scored. A legal line is
a *capture* if it closes a triangle now (its two other sides are drawn); it *gives* a triangle
if afterwards one of its triangles has two sides drawn and the third still legal, so that the
opponent closes it next; otherwise it is *safe*. A line no alive triangle depends on is a pure
tempo move.

As in Dots and Boxes, the middle game is a fight over tempo: both players draw safe lines, and
whoever runs out of them first must give triangles away. The levels:

- novice: closes a triangle it sees most of the time; otherwise any line;
- average: what the Triangles issue specifies: take a triangle when it can (the line that closes
  the most), otherwise a safe line, otherwise the line that gives the fewest triangles;
- veteran: alpha-beta (negamax) with iterative deepening on its time budget, a transposition
  table keyed by the lines drawn (they decide everything that can still happen), move ordering
  captures first, then safe lines, then lines by the triangles they give. At the horizon a
  position is judged by the biggest capture, or else by a tempo term: whether the mover draws
  the last safe line of a run of safe lines drawn as the average player would (drawing a safe
  line can make others unsafe or illegal, so their number is a poor guide), which makes the
  other give first. Once few lines are left (15 in 0.2 s, 17 in 0.8 s: :func:`exact_lines`)
  it goes straight to the end of the game and plays exactly (chain and parity control).
  :class:`Position` keeps, line by line, what every line closes and gives, so that a node
  costs a few list copies rather than a pass over the triangles.

>>> import random
>>> from triverse import load_game
>>> game = load_game("triangles")
>>> state = game.new_initial_state(setup={"stars": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]})
>>> for text in ["0-1", "1-2"]:
...     _ = state.apply_notation(text)
>>> str(TrianglesKnowledge().average_move(state, 0, random.Random(0)))     # closes 0-1-2
'0-2'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from triverse.ai.knowledge import Knowledge, Memory
from triverse.ai.search import Estimate, SearchLimits, SearchResult
from triverse.core.game import Game, Observation, State
from triverse.games.triangles.board import Board
from triverse.games.triangles.engine import TrianglesState

AnyState = State[Any]

INF = 10_000.0
TEMPO_WEIGHT = 0.5
"""Triangles a favourable parity of the safe lines is worth at the search horizon (a binary
fraction, so that sums of values stay exact)."""
NODE_CHECK = 32
"""Nodes searched between two looks at the clock."""
EXACT_AFTER = 3
"""Iterations of the search before it may go straight to the end of the game."""


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Geometry:
    """Per board: for each candidate line, its triangles as (triangle, other side, other side)."""

    cache: ClassVar[dict[int, tuple[Board, _Geometry]]] = {}

    def __init__(self, board: Board) -> None:
        self.board = board
        sides = board.tri_sides
        self.around: list[tuple[tuple[int, int, int], ...]] = []
        for i in range(board.num_candidates):
            entries = []
            for t in board.seg_triangles[i]:
                others = [s for s in sides[t] if s != i]
                entries.append((t, others[0], others[1]))
            self.around.append(tuple(entries))
        self.all_alive = (1 << len(board.triangles)) - 1
        self.side_masks: list[int] = [(1 << a) | (1 << b) | (1 << c) for a, b, c in sides]
        self.line_triangles: list[int] = []
        for i in range(board.num_candidates):
            mask = 0
            for t in board.seg_triangles[i]:
                mask |= 1 << t
            self.line_triangles.append(mask)

    @classmethod
    def of(cls, board: Board) -> _Geometry:
        found = cls.cache.get(id(board))
        if found is None or found[0] is not board:
            found = (board, cls(board))
            cls.cache[id(board)] = found
        return found[1]


def _draw(geometry: _Geometry, line: int, drawn: int, legal: int, alive: int, closes: list[int],
          gives: list[int], hot: int, capture: int) -> tuple[int, int, int, int, int, int]:
    """Draw ``line``: updates ``closes`` and ``gives`` in place and returns the new
    ``(drawn, legal, alive, hot, capture, closed)`` (see :class:`Position`)."""
    masks = geometry.side_masks
    bit = 1 << line
    removed = geometry.board.crossing(line) & legal & ~bit
    legal &= ~(removed | bit)
    changed = [line]
    closed = 0
    for t, a, b in geometry.around[line]:
        if not (alive >> t) & 1:
            continue
        k = (masks[t] & drawn).bit_count()
        if k == 2:
            closed += 1
            alive ^= 1 << t
            closes[line] -= 1
        elif k == 1:
            other = b if (drawn >> a) & 1 else a
            gives[line] -= 1
            gives[other] -= 1
            closes[other] += 1
            changed.append(other)
        else:
            gives[a] += 1
            gives[b] += 1
            changed.append(a)
            changed.append(b)
    drawn |= bit
    while removed:
        low = removed & -removed
        removed ^= low
        j = low.bit_length() - 1
        changed.append(j)
        for t, a, b in geometry.around[j]:
            if not (alive >> t) & 1:
                continue
            alive ^= 1 << t
            k = (masks[t] & drawn).bit_count()
            if k == 1:
                other = b if (drawn >> a) & 1 else a
                gives[j] -= 1
                gives[other] -= 1
                changed.append(other)
            elif k == 2:
                closes[j] -= 1
    for j in changed:
        bit = 1 << j
        if (legal >> j) & 1 and (closes[j] or gives[j]):
            hot |= bit
            if closes[j]:
                capture |= bit
            else:
                capture &= ~bit
        else:
            hot &= ~bit
            capture &= ~bit
    return drawn, legal, alive, hot, capture, closed


class Position:
    """A light copy of a Triangles position for search: the lines drawn, the lines legal, the
    triangles alive (bitmasks) and the seat to move, and, kept up to date line by line, for
    each line the alive triangles it would close (``closes``) and give (``gives``), with the
    masks of the legal lines that close or give (``hot``) and that close (``capture``)."""

    __slots__ = ("alive", "capture", "closes", "drawn", "geometry", "gives", "hot", "legal",
                 "mover", "touched")

    def __init__(self, geometry: _Geometry, drawn: int, legal: int, alive: int,
                 mover: int, touched: int, closes: list[int] | None = None,
                 gives: list[int] | None = None, hot: int = 0, capture: int = 0) -> None:
        self.geometry = geometry
        self.drawn = drawn
        self.legal = legal
        self.alive = alive
        self.mover = mover
        self.touched = touched
        """The triangles with a drawn side (the only ones that can be closed or given)."""
        if closes is None or gives is None:
            closes, gives, hot, capture = self._counts()
        self.closes = closes
        self.gives = gives
        self.hot = hot
        self.capture = capture

    def _counts(self) -> tuple[list[int], list[int], int, int]:
        n = self.geometry.board.num_candidates
        closes = [0] * n
        gives = [0] * n
        drawn = self.drawn
        masks = self.geometry.side_masks
        for t in _bits(self.alive & self.touched):
            open_sides = masks[t] & ~drawn
            if open_sides & (open_sides - 1):
                for line in _bits(open_sides):
                    gives[line] += 1
            else:
                closes[open_sides.bit_length() - 1] += 1
        hot = capture = 0
        for line in _bits(self.legal):
            if closes[line]:
                capture |= 1 << line
                hot |= 1 << line
            elif gives[line]:
                hot |= 1 << line
        return closes, gives, hot, capture

    @classmethod
    def of(cls, state: TrianglesState) -> Position:
        geometry = _Geometry.of(state.board)
        drawn, legal = state._drawn, state._legal
        usable = drawn | legal
        alive = 0
        for t, (s1, s2, s3) in enumerate(state.board.tri_sides):
            if ((usable >> s1) & 1 and (usable >> s2) & 1 and (usable >> s3) & 1
                    and not ((drawn >> s1) & 1 and (drawn >> s2) & 1 and (drawn >> s3) & 1)):
                alive |= 1 << t
        mover = state.current_player if state.current_player is not None else 0
        touched = 0
        for line in _bits(drawn):
            touched |= geometry.line_triangles[line]
        return cls(geometry, drawn, legal, alive, mover, touched)

    @property
    def safe(self) -> int:
        """The mask of the safe lines (legal, closing and giving nothing)."""
        return self.legal & ~self.hot

    def analysis(self) -> tuple[dict[int, int], dict[int, int], int]:
        """One pass over the alive triangles: the triangles each capture closes, the triangles
        each giving line gives, and the mask of the safe lines."""
        drawn = self.drawn
        masks = self.geometry.side_masks
        closes: dict[int, int] = {}
        gives: dict[int, int] = {}
        for t in _bits(self.alive & self.touched):
            mask = masks[t]
            open_sides = mask & ~drawn
            if open_sides & (open_sides - 1):  # two open sides: one drawn, they give
                low = open_sides & -open_sides
                first = low.bit_length() - 1
                second = (open_sides ^ low).bit_length() - 1
                gives[first] = gives.get(first, 0) + 1
                gives[second] = gives.get(second, 0) + 1
            else:  # one open side: it closes the triangle
                missing = open_sides.bit_length() - 1
                closes[missing] = closes.get(missing, 0) + 1
        unsafe = 0
        for line in closes:
            unsafe |= 1 << line
        for line in gives:
            unsafe |= 1 << line
        return closes, gives, self.legal & ~unsafe

    def classify(self, line: int) -> tuple[int, int]:
        """(triangles the line closes, triangles it gives)."""
        closes, gives, _safe = self.analysis()
        return closes.get(line, 0), gives.get(line, 0)

    def play(self, line: int, again: bool) -> tuple[Position, int]:
        """The position after ``line``, and the triangles it closed."""
        closes, gives = self.closes[:], self.gives[:]
        geometry = self.geometry
        drawn, legal, alive, hot, capture, closed = _draw(
            geometry, line, self.drawn, self.legal, self.alive, closes, gives, self.hot,
            self.capture)
        mover = self.mover if closed and again else 1 - self.mover
        touched = self.touched | geometry.line_triangles[line]
        return Position(geometry, drawn, legal, alive, mover, touched, closes, gives, hot,
                        capture), closed

    def moves(self) -> list[tuple[int, int, int]]:
        """Every legal line as (line, closed, given), captures first, then safe lines, then
        lines by the triangles they give."""
        closes, gives = self.closes, self.gives
        out = [(line, closes[line], gives[line]) for line in _bits(self.capture)]
        out.sort(key=lambda m: (-m[1], m[2]))
        out.extend((line, 0, 0) for line in _bits(self.legal & ~self.hot))
        giving = [(line, 0, gives[line]) for line in _bits(self.hot & ~self.capture)]
        giving.sort(key=lambda m: m[2])
        out.extend(giving)
        return out


def average_line(position: Position, rng: random.Random) -> int:
    """The average player's line: the biggest capture, else a safe line, else the line that
    gives the fewest triangles (ties at random)."""
    best: list[int] = []
    best_key: tuple[int, int] | None = None
    closes, gives, _safe = position.analysis()
    for line in _bits(position.legal):
        key = (closes.get(line, 0), -gives.get(line, 0))
        if best_key is None or key > best_key:
            best, best_key = [line], key
        elif key == best_key:
            best.append(line)
    return rng.choice(best)


def playout(position: Position, again: bool, rng: random.Random, stop: bool = False) -> int:
    """The game played on from ``position`` to its end by the average player's policy for both
    seats (:func:`average_line`'s choices, ties broken by ``rng`` in the same way): the mover's
    triangles minus the opponent's from here.

    With ``stop``, only the run of safe lines: the number of lines drawn before the first line
    that gives (the captures and safe lines drawn until then)."""
    geometry = position.geometry
    drawn, legal, alive = position.drawn, position.legal, position.alive
    closes, gives = position.closes[:], position.gives[:]
    hot, capture = position.hot, position.capture
    diff = 0
    sign = 1
    moves = 0
    randrange = rng.randrange
    while alive:
        if capture:
            best: list[int] = []
            best_key = (-1, 0)
            for line in _bits(capture):
                key = (closes[line], -gives[line])
                if key > best_key:
                    best, best_key = [line], key
                elif key == best_key:
                    best.append(line)
            line = best[randrange(len(best))]
        else:
            safe = legal & ~hot
            if safe:
                k = randrange(safe.bit_count())
                while k:
                    safe &= safe - 1
                    k -= 1
                line = (safe & -safe).bit_length() - 1
            else:
                if stop:
                    return moves
                best = []
                fewest = 1 << 30
                for line in _bits(legal):
                    g = gives[line]
                    if g < fewest:
                        best, fewest = [line], g
                    elif g == fewest:
                        best.append(line)
                line = best[randrange(len(best))]
        drawn, legal, alive, hot, capture, closed = _draw(
            geometry, line, drawn, legal, alive, closes, gives, hot, capture)
        moves += 1
        diff += sign * closed
        if not (closed and again):
            sign = -sign
    return moves if stop else diff


def exact_lines(budget: float) -> int:
    """Up to how many legal lines a search of ``budget`` seconds tries to reach the end of the
    game (an exact search costs roughly twice as much for each line more): 15 lines in 0.2 s, 17
    in 0.8 s.

    >>> exact_lines(0.2), exact_lines(0.8), exact_lines(float("inf"))
    (15, 17, 60)
    """
    if budget <= 0:
        return 0
    if budget == float("inf"):
        return 60
    return max(0, 15 + math.floor(math.log2(budget / 0.2) + 1e-9))


class _OutOfTime(Exception):
    pass


class AlphaBeta:
    """Negamax alpha-beta with a transposition table and iterative deepening."""

    def __init__(self, again: bool, deadline: float, rng: random.Random,
                 now: Callable[[], float] = time.perf_counter, exact: int = 0) -> None:
        self.again = again
        self.deadline = deadline
        self.now = now
        self.rng = rng
        self.seed = rng.getrandbits(32)
        """The seed of every run of safe lines at the horizon (the same for all positions, so
        that they are compared on the same luck)."""
        self.exact = exact
        """Up to how many legal lines the search goes straight to the end of the game after
        its first iterations (:func:`exact_lines`)."""
        self.table: dict[tuple[int, int], tuple[int, float, int, int]] = {}
        self.nodes = 0
        self.completed_depth = 0

    def clock(self) -> None:
        self.nodes += 1
        if self.nodes % NODE_CHECK == 0 and self.now() > self.deadline:
            raise _OutOfTime

    def evaluate(self, position: Position) -> float:
        """The mover's expected gain from here, at the horizon: the biggest capture if there is
        one; otherwise the tempo term: whether the mover draws the last safe line of a run of
        safe lines (drawn by the average player's policy, so that drawing one may make others
        unsafe or illegal), which makes the other give first."""
        if position.capture:
            closes = position.closes
            return float(max(closes[line] for line in _bits(position.capture)))
        if not position.legal & ~position.hot:
            return -TEMPO_WEIGHT
        run = playout(position, self.again, random.Random(self.seed), stop=True)
        return TEMPO_WEIGHT if run % 2 else -TEMPO_WEIGHT

    def negamax(self, position: Position, depth: int, alpha: float, beta: float) -> float:
        """The mover's future triangles minus the opponent's, from ``position``."""
        self.clock()
        if not position.alive:
            return 0.0
        if depth <= 0:
            return self.evaluate(position)
        key = (position.drawn, position.mover)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            e_depth, e_value, e_flag, e_move = entry
            first = e_move
            if e_depth >= depth:
                if e_flag == 0:
                    return e_value
                if e_flag > 0 and e_value >= beta:
                    return e_value
                if e_flag < 0 and e_value <= alpha:
                    return e_value
        moves = position.moves()
        if first >= 0:
            moves.sort(key=lambda m: m[0] != first)
        original_alpha = alpha
        best = -INF
        best_move = moves[0][0]
        for line, _closed, _given in moves:
            child, closed = position.play(line, self.again)
            if child.mover == position.mover:
                value = closed + self.negamax(child, depth - 1, alpha - closed, beta - closed)
            else:
                value = closed - self.negamax(child, depth - 1, closed - beta, closed - alpha)
            if value > best:
                best, best_move = value, line
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        flag = 0 if original_alpha < best < beta else (1 if best >= beta else -1)
        self.table[key] = (depth, best, flag, best_move)
        return best

    def root(self, position: Position, max_depth: int = 60) -> tuple[int, list[Estimate]]:
        """The best line (by iterative deepening until the deadline) and the root estimates."""
        moves = position.moves()
        self.rng.shuffle(moves)
        moves.sort(key=lambda m: (-m[1], m[2]))
        estimates = {line: Estimate(line, float(closed - given)) for line, closed, given in moves}
        best_line = moves[0][0]
        values: dict[int, float] = {}
        depth = 0
        lines_left = position.legal.bit_count()
        while depth < max_depth:
            depth += 1
            if depth > EXACT_AFTER and lines_left <= self.exact:  # straight to the end
                depth = min(max_depth, lines_left)
            alpha = -INF
            current: dict[int, float] = {}
            best_here = moves[0][0]
            try:
                for line, _closed, _given in moves:
                    child, closed = position.play(line, self.again)
                    if child.mover == position.mover:
                        value = closed + self.negamax(child, depth - 1, -INF, INF)
                    else:
                        # A window one triangle below the best: enough to rank the others.
                        value = closed - self.negamax(child, depth - 1, -INF, closed - alpha + 1)
                    current[line] = value
                    if value > alpha:
                        alpha, best_here = value, line
            except _OutOfTime:
                if not values and current:  # not even depth 1: the moves it reached
                    values, best_line = current, best_here
                break
            values = current
            best_line = best_here
            self.completed_depth = depth
            moves.sort(key=lambda m: -values[m[0]])
            if abs(values[best_line]) >= INF / 2 or self.exhausted(position, depth):
                break
        for line, value in values.items():
            estimates[line].total = value
            estimates[line].count = 1
        return best_line, sorted(estimates.values(), key=lambda e: -e.mean)

    def exhausted(self, position: Position, depth: int) -> bool:
        """Whether depth ``depth`` already reaches the end of every line of play."""
        return depth >= position.legal.bit_count()


class TrianglesKnowledge(Knowledge):
    """Triangles."""

    name: ClassVar[str] = "triangles"
    win_bonus: ClassVar[float] = 10.0
    default_budget: ClassVar[float] = 0.8

    def novice_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        assert isinstance(state, TrianglesState)
        position = Position.of(state)
        lines = list(_bits(position.legal))
        captures = list(position.analysis()[0])
        if captures and rng.random() < 0.75:
            return state.board.lines[rng.choice(captures)]
        return state.board.lines[rng.choice(lines)]

    def average_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        assert isinstance(state, TrianglesState)
        return state.board.lines[average_line(Position.of(state), rng)]

    def rollout_move(self, state: AnyState, rng: random.Random) -> Any:
        return self.average_move(state, 0, rng)

    def search(
        self,
        game: Game[Any, Any],
        observation: Observation,
        rng: random.Random,
        limits: SearchLimits,
        include: Sequence[Any] = (),
        memory: Memory | None = None,
    ) -> SearchResult:
        start = time.perf_counter()
        state = game.determinize(observation, rng)
        assert isinstance(state, TrianglesState)
        position = Position.of(state)
        legal = list(_bits(position.legal))
        if len(legal) == 1:
            line = state.board.lines[legal[0]]
            return SearchResult(line, [Estimate(line, 0.0)], 0, time.perf_counter() - start)
        now = limits.timer()
        searcher = AlphaBeta(state.game.again, now() + limits.time_budget, rng, now,
                             exact_lines(limits.time_budget))
        max_depth = limits.max_worlds if limits.max_worlds is not None else 60
        best, estimates = searcher.root(position, max_depth)
        lines = state.board.lines
        out = [Estimate(lines[e.action], e.prior, e.total, e.count) for e in estimates]
        return SearchResult(lines[best], out, searcher.completed_depth,
                            time.perf_counter() - start)

    def veteran_move(
        self, game: Game[Any, Any], observation: Observation, rng: random.Random,
        limits: SearchLimits, memory: Memory | None = None,
    ) -> Any:
        return self.search(game, observation, rng, limits).best


__all__ = ["AlphaBeta", "Position", "TrianglesKnowledge", "average_line", "exact_lines", "playout"]
