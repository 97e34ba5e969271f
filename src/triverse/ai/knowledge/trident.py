"""Knowledge of Trident: number tiles laid crossword style, lines of three total exactly 15.

What a move is worth here: its points now (:func:`play_points`, the engine's scoring without
its English labels, for speed), the *leave* (the tiles kept on the rack: a joker, tiles that
can still make 15 together, no clumsy high tiles or pairs of the same), a BIS square (another
turn at once).

- novice: a random play (it never passes or exchanges while it can play), but a Trio or a
  Triton it sees it takes half the time;
- average: the best points plus half the leave's value plus a BIS square's worth;
- veteran: determinized Monte Carlo (:mod:`triverse.ai.search`): the best candidates by the
  average's value are each played on sampled racks and bags, followed by the opponent's reply
  (and the extra turns of BIS squares, :data:`REPLY_PLIES` actions at most) by a greedy policy,
  and judged by the lead plus its own rack's value (:meth:`TridentKnowledge.evaluate`).

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
from collections.abc import Sequence
from typing import Any, ClassVar

from triverse.ai.knowledge import Knowledge, score_margin
from triverse.core.events import Event
from triverse.core.game import State
from triverse.games.trident.board import (
    ACROSS,
    DOWN,
    IS_BIS,
    MULTIPLIER,
    cell_code,
)
from triverse.games.trident.engine import TridentState
from triverse.games.trident.movegen import generate_plays
from triverse.games.trident.scoring import TRIO_BONUS, TRITON_BONUS, _run
from triverse.games.trident.tiles import (
    JOKER,
    PASS,
    SIZE,
    TRIO_SUM,
    Exchange,
    Pass,
    Placement,
    tile_points,
)

AnyState = State[Any]

LEAVE_W = 0.5
"""How much the value of the tiles kept on the rack (:func:`leave_value`) counts against a
play's points."""
BIS_VALUE = 20.0
"""A BIS square: another turn at once, worth about an average turn's points."""
JOKER_LEAVE = 9.0
DUPLICATE_LEAVE = -3.0
TRITON_HOPE = 60.0
"""What a rack that could make 15 with one more tile is worth, times the chance of drawing it."""
TRITON_RACK = 20.0
"""A rack of three numbers totalling 15: a Triton (+50 and a Trio) if a line of three fits."""
JOKER_TRIO_RACK = 4.0
RACK_W = 1.0
"""How much the rack's value counts in a simulation's judgement."""
REPLY_PLIES = 4
"""Actions a simulation plays at most (the opponent's reply, a BIS square's extra turns)."""


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


def rack_value(rack: Sequence[int]) -> float:
    """The worth of a full rack (after drawing): its tiles' leave values, and the chance of a
    Triton (three numbers totalling 15) or a Trio with a joker.

    >>> rack_value([4, 5, 6]) > rack_value([4, 5, 14])
    True
    """
    value = sum(tile_leave(t) for t in rack)
    counts = Counter(rack)
    value += DUPLICATE_LEAVE * sum(c - 1 for c in counts.values() if c > 1)
    numbers = [t for t in rack if t != JOKER]
    if len(rack) == 3:
        if len(numbers) == 3 and sum(numbers) == TRIO_SUM:
            value += TRITON_RACK
        elif len(numbers) == 2 and sum(numbers) <= TRIO_SUM:
            value += JOKER_TRIO_RACK
    return value


def play_points(board: Sequence[int], tiles: Sequence[Placement], triolet: bool) -> int:
    """The points of a legal play: the engine's :func:`~triverse.games.trident.scoring.score_play`
    total, computed without its labels (tested equal)."""
    overlay = {p.row * SIZE + p.col: cell_code(p.value, p.joker) for p in tiles}
    lines: list[tuple[tuple[int, ...], list[int]]] = []
    seen: set[tuple[int, int]] = set()
    for s in overlay:
        for d in (ACROSS, DOWN):
            squares = _run(board, overlay, s, d)
            if len(squares) < 2 or (d, squares[0]) in seen:
                continue
            seen.add((d, squares[0]))
            lines.append((squares, [overlay[q] if q in overlay else board[q] for q in squares]))
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
    max_candidates: ClassVar[int] = 8
    rollout_plies: ClassVar[int] = 2
    default_budget: ClassVar[float] = 0.8

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
        triolet = state.rules.triolet_multipliers
        plays = generate_plays(state.board, state.cross, state.anchors, rack, state.placed)
        out: list[tuple[Any, float]] = []
        for play in plays:
            points = play_points(state.board, play.tiles, triolet)
            kept = list(rack)
            for kind in play.kinds:
                kept.remove(kind)
            value = points + LEAVE_W * leave_value(kept, unseen)
            if any(IS_BIS[s] for s in play.squares):
                value += BIS_VALUE
            out.append((play, value))
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
    def candidates(self, state: AnyState, seat: int, rng: random.Random, limit: int
                   ) -> list[tuple[Any, float]]:
        assert isinstance(state, TridentState)
        valued = self.valued(state, seat)
        valued.sort(key=lambda item: -item[1])
        out = valued[:limit]
        if not any(isinstance(a, (Exchange, Pass)) for a, _ in out):
            extra = [item for item in valued if isinstance(item[0], Exchange)]
            if extra:
                out.append(extra[0])
        return out

    def rollout_move(self, state: AnyState, rng: random.Random) -> Any:
        """The opponent in a simulation: the most points now (and a BIS square), fast."""
        assert isinstance(state, TridentState)
        seat = state.current_player
        assert seat is not None
        plays = generate_plays(state.board, state.cross, state.anchors, state.racks[seat],
                               state.placed)
        if not plays:
            return self.average_move(state, seat, rng)
        triolet = state.rules.triolet_multipliers
        board = state.board
        return max(plays, key=lambda p: (play_points(board, p.tiles, triolet)
                                         + (BIS_VALUE if any(IS_BIS[s] for s in p.squares)
                                            else 0.0), rng.random()))

    def playout(self, state: AnyState, seat: int, rng: random.Random) -> float:
        """The opponents reply (until it is the seat's turn again, or a few actions), then the
        position is judged."""
        assert isinstance(state, TridentState)
        state = state.clone()
        plies = 0
        replied = False
        while not state.is_terminal() and plies < REPLY_PLIES:
            mover = state.current_player
            if mover == seat and replied:
                break
            replied = replied or mover != seat  # (the seat moves first after a BIS square)
            state.apply_unchecked(self.rollout_move(state, rng))
            plies += 1
        return self.evaluate(state, seat)

    def evaluate(self, state: AnyState, seat: int) -> float:
        assert isinstance(state, TridentState)
        value = score_margin(state.scores, seat)
        if state.is_terminal():
            winners = state.result().winners
            if seat in winners:
                value += self.win_bonus / len(winners)
            return value
        mine = RACK_W * rack_value(state.racks[seat])
        if not state.bag:
            # The end is near: the tiles left are worth their numbers to whoever goes out.
            mine -= 0.5 * sum(tile_points(t) for t in state.racks[seat])
        return value + mine


__all__ = ["TridentKnowledge", "leave_value", "play_points", "tile_leave"]
