"""Knowledge of the tile games, Tri-ominoes and Trinity (the shared engine
:mod:`triverse.games._tiles.engine`).

Both games are scored the same way: a placement earns its numbers and, through the grid's one
detector (:meth:`Board.specials`), its game's bonuses (hexagons, bridges or Spans, Slides); the
player who goes out earns 25 and the other hands' numbers; a draw costs 5. This module prices
placements quickly without applying them: the numbers come from the tile, the bonus of each
kind of special (one probe of the game's own ``_bonuses`` per kind of special and decision), so
it needs no change when Trinity lands with its own bonus values.

What the levels do:

- novice: a random placement, but a bonus placement (a hexagon, bridge, Span or Slide) it
  notices 30% of the time (:data:`NOVICE_SEES_SPECIAL`) and then takes the best one;
- average: the best immediate points, plus a hand that can still play (each tile kept that
  fits the board after the move, up to two, :data:`W_FIT`), plus the chance that the next
  player holds nothing that fits and must draw (:data:`W_BLOCK`);
- veteran: determinized Monte Carlo (:mod:`triverse.ai.search`) on deals that respect what
  the opponents' draws revealed (:meth:`TileKnowledge.remember`): every candidate placement is
  played on each sampled deal, the round goes on by a greedy policy with noise for every player
  for :data:`HORIZON` placements (or to the round's end), and the position is judged by the lead
  in points, the numbers left in hand and the tiles left in hand
  (:meth:`TileKnowledge.evaluate`). Trinity's veteran (:class:`TrinityKnowledge`) plays each
  simulation to the end of the round instead, every player placing as the average player does,
  and judges the round's result.

>>> import random
>>> from triverse import load_game
>>> game = load_game("triominoes")
>>> state = game.new_initial_state(seed=11)
>>> k = TileKnowledge()
>>> seat = state.current_player
>>> state.is_legal(k.average_move(state, seat, random.Random(0)))
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from triverse.ai.knowledge import Knowledge, Memory, score_margin
from triverse.core.game import Game, Observation, State
from triverse.games._tiles.engine import TileObservation, TileState
from triverse.games._tiles.tiles import Place, Tile
from triverse.games._tiles.trigrid import Board, Cell, Specials

AnyState = State[Any]
Priced = tuple[Place, float, bool]
"""A placement, its immediate points, and whether it earns a bonus."""

W_FIT = 4.0
"""Points a tile kept in hand is worth for each placement it still fits (up to ``FIT_CAP``)."""
FIT_CAP = 2
"""Placements beyond this many add nothing to a kept tile's flexibility."""
W_BLOCK = 50.0
"""Points for denying the one spot where an opponent about to go out could play."""
NOVICE_SEES_SPECIAL = 0.3
"""How often the novice notices a bonus placement (a hexagon, bridge, span or slide)."""
HORIZON = 4
"""Tiles placed (by all players) before a simulation stops and is judged."""
COUNT_WEIGHT = 5.0
"""In a cut-off simulation, each tile fewer in hand than the emptiest other hand counts this
much (going out first ends the round)."""
HAND_WEIGHT = 0.5
"""In a cut-off simulation, each point of a hand's numbers counts this much against it."""


def _best_opening(state: TileState) -> Place:
    """The highest tile the round may open with."""
    return max((a for a in state.legal_actions() if isinstance(a, Place)),
               key=lambda a: a.tile.total)


def _follows(previous: TileObservation, obs: TileObservation, seat: int) -> bool:
    """Whether ``obs`` is a later view of the same round by the same seat as ``previous``."""
    return (previous.player == seat and previous.round == obs.round
            and previous.num_players == obs.num_players
            and obs.board[:len(previous.board)] == previous.board)


def _active_others(obs: TileObservation, seat: int, before: tuple[int, ...]) -> list[int]:
    """The other seats, in turn order after ``seat``, that held tiles (at ``before``'s
    counts or now)."""
    n = obs.num_players
    now = obs.hand_counts
    order = [(seat + k) % n for k in range(1, n)]
    return [q for q in order if now[q] > 0 or before[q] > 0]


def _ban_drawers(banned: dict[int, frozenset[Tile]], previous: TileObservation,
                 obs: TileObservation, mine: list[Place], turns: list[tuple[int, Place]]
                 ) -> None:
    """Replay the seat's placement (``mine``) and the others' ``turns`` on the board of
    ``previous``: a seat that drew before placing gets the tiles that fitted as its turn
    began banned."""
    before, now = previous.hand_counts, obs.hand_counts
    board = Board()
    for p in (*previous.board, *mine):
        board.place(p.cell, p.values)
    for q, placed in turns:
        if now[q] - before[q] + 1 > 0:  # it drew
            banned[q] = _fitting(board, obs)
        board.place(placed.cell, placed.values)


def _fitting(board: Board, obs: TileObservation) -> frozenset[Tile]:
    """The tiles of the set that fit one of the board's open cells."""
    candidates = obs.tileset.placements.candidates
    fitting: set[Tile] = set()
    for pattern in board.frontier.values():
        for tile, _rotation in candidates.get(pattern, ()):
            fitting.add(tile)
    return frozenset(fitting)


def _deal_banned(state: TileState, seat: int, banned: dict[int, frozenset[Tile]],
                 hidden: list[Tile]) -> tuple[dict[int, list[Tile]], list[Tile]]:
    """The hands of the seats with ``banned`` tiles, each the first of the ``hidden`` tiles
    it may hold (a seat for which too few qualify gets none), and the tiles left."""
    hands: dict[int, list[Tile]] = {}
    for q, ban in banned.items():
        count = len(state.hands[q])
        if q == seat or not count:
            continue
        allowed = [t for t in hidden if t not in ban]
        if len(allowed) < count:
            continue
        chosen = allowed[:count]
        hands[q] = chosen
        taken = set(chosen)
        hidden = [t for t in hidden if t not in taken]
    return hands, hidden


class TileKnowledge(Knowledge):
    """Tri-ominoes and Trinity."""

    name: ClassVar[str] = "tiles"
    special_reasons: ClassVar[frozenset[str]] = frozenset(
        {"hexagon", "bridge", "span", "slide"})
    win_bonus: ClassVar[float] = 150.0
    max_candidates: ClassVar[int] = 10
    rollout_plies: ClassVar[int] = 80
    rollout_noise: ClassVar[float] = 4.0
    """Random points added to each placement's value in a simulation (variety)."""

    # --- pricing -----------------------------------------------------------------------------
    def priced(self, state: TileState, seat: int) -> list[Priced]:
        """Every legal placement of the seat with its immediate points (none when it must draw
        or pass, or the round opens: see :meth:`average_move`)."""
        board = state.board
        hand = state.hands[seat]
        candidates = state.game.tileset.placements.candidates
        bonus_of: dict[tuple[int, bool, int], int] = {}
        cell_bonus: dict[Cell, int] = {}
        out: list[Priced] = []
        for cell, pattern in board.frontier.items():
            options = candidates.get(pattern)
            if not options:
                continue
            bonus: int | None = None
            for tile, rotation in options:
                if tile not in hand:
                    continue
                if bonus is None:
                    bonus = cell_bonus.get(cell)
                    if bonus is None:
                        specials = board.specials(cell)
                        key = (specials.contacts, specials.span, len(specials.hexagons))
                        bonus = bonus_of.get(key)
                        if bonus is None:
                            bonus = bonus_of[key] = self._probe(state, seat, tile, cell,
                                                                rotation, specials)
                        cell_bonus[cell] = bonus
                out.append((Place(tile, cell, rotation), float(tile.total + bonus), bonus > 0))
        return out

    @staticmethod
    def _probe(state: TileState, seat: int, tile: Tile, cell: Cell, rotation: int,
               specials: Specials) -> int:
        """The bonus points of a special, from the game's own rules (on a copy)."""
        if not specials.span and not specials.hexagons and specials.contacts < 2:
            return 0
        copy = state.clone()
        events = copy._bonuses(seat, Place(tile, cell, rotation), specials)
        return sum(e.points for e in events if e.player == seat)

    # --- levels ------------------------------------------------------------------------------
    def novice_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        assert isinstance(state, TileState)
        if state.opening:
            return rng.choice(state.legal_action_list())
        priced = self.priced(state, seat)
        if not priced:
            return next(state.legal_actions())
        bonuses = [p for p in priced if p[2]]
        if bonuses and rng.random() < NOVICE_SEES_SPECIAL:
            return max(bonuses, key=lambda p: p[1])[0]
        return rng.choice(priced)[0]

    def average_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        assert isinstance(state, TileState)
        if state.opening:
            return _best_opening(state)
        priced = self.priced(state, seat)
        if not priced:
            return next(state.legal_actions())
        if len(priced) == 1:
            return priced[0][0]
        return max(priced, key=lambda p: (self.average_value(state, seat, p), rng.random()))[0]

    def average_value(self, state: TileState, seat: int, priced: Priced) -> float:
        """The average player's value of a placement: its points, whether the hand left can
        still play, and the chance that the next player cannot (and must draw)."""
        action, points, _bonus = priced
        value = points
        board = state.board.copy()
        board.place(action.cell, action.values)
        candidates = state.game.tileset.placements.candidates
        hand = state.hands[seat]
        unseen = self._unseen(state, seat)
        mine: set[Tile] = set()
        theirs: set[Tile] = set()
        for pattern in board.frontier.values():
            for tile, _rotation in candidates.get(pattern, ()):
                if tile in hand:
                    if tile is not action.tile:
                        mine.add(tile)
                elif tile in unseen:
                    theirs.add(tile)
        value += W_FIT * min(len(mine), FIT_CAP)
        nxt = state._next_seat(seat)
        k = len(state.hands[nxt])
        u = len(unseen)
        free = u - len(theirs)
        stuck = 1.0
        for i in range(k):
            if u - i <= 0:
                break
            stuck *= max(0, free - i) / (u - i)
        value += W_BLOCK * stuck
        return value

    @staticmethod
    def _unseen(state: TileState, seat: int) -> set[Tile]:
        known = {p.tile for p in state.placed}
        known.update(state.hands[seat])
        return {t for t in state.game.tileset.tiles if t not in known}

    # --- memory: what the opponents' draws revealed ------------------------------------------
    def remember(self, memory: Memory, observation: Observation) -> None:
        """Read the opponents' turns since the seat's last observation.

        A tile game forces a player who can place a tile to place one, and one who cannot to
        draw (or pass); so an opponent who drew before placing held no tile that fitted the
        board as it was when the turn began, and neither did the tiles it drew but the last
        (which it then placed). Its whole hand after that turn therefore fits none of that
        board's open cells, and keeps that property until it draws again. ``memory["banned"]``
        maps such a seat to the tiles its hand cannot hold.
        """
        assert isinstance(observation, TileObservation)
        obs = observation
        seat = obs.player
        previous = memory.get("observation")
        memory["observation"] = obs
        banned: dict[int, frozenset[Tile]] = memory.setdefault("banned", {})
        if (seat is None or not isinstance(previous, TileObservation)
                or not _follows(previous, obs, seat)):
            banned.clear()
            return
        new = obs.board[len(previous.board):]
        before, now = previous.hand_counts, obs.hand_counts
        if not new and all(now[q] == before[q] for q in range(len(now)) if q != seat):
            return  # nothing new of the others: the seat's own turn goes on (it drew)
        own = set(previous.hand or ())
        mine = [p for p in new if p.tile in own]
        theirs = [p for p in new if p.tile not in own]
        active = _active_others(obs, seat, before)
        if len(theirs) != len(active) or len(mine) > 1:
            # Somebody passed (or a round boundary): only what stayed certain is kept.
            for q in list(banned):
                if now[q] > before[q]:
                    del banned[q]
            return
        _ban_drawers(banned, previous, obs, mine, list(zip(active, theirs, strict=True)))

    def sample_world(self, game: Game[Any, Any], observation: Observation,
                     rng: random.Random, memory: Memory | None) -> AnyState:
        """A determinization in which each opponent's hand respects what its draws revealed
        (:meth:`remember`); an opponent for whom too few unseen tiles qualify is dealt at
        random."""
        state = game.determinize(observation, rng)
        assert isinstance(state, TileState)
        banned: dict[int, frozenset[Tile]] = (memory or {}).get("banned") or {}
        seat = observation.player
        if not banned or seat is None:
            return state
        hidden = [t for q, hand in enumerate(state.hands) if q != seat for t in hand]
        hidden.extend(state.pool[state.pool_pos:])
        rng.shuffle(hidden)
        hands, hidden = _deal_banned(state, seat, banned, hidden)
        for q, hand in enumerate(state.hands):
            if q == seat or q in hands:
                continue
            count = len(hand)
            hands[q], hidden = hidden[:count], hidden[count:]
        for q, tiles in hands.items():
            state.hands[q] = dict.fromkeys(tiles)
        state.pool = tuple(hidden)
        state.pool_pos = 0
        return state

    # --- the veteran's search ----------------------------------------------------------------
    def candidates(self, state: AnyState, seat: int, rng: random.Random, limit: int
                   ) -> list[tuple[Any, float]]:
        assert isinstance(state, TileState)
        if state.opening:
            return [(a, float(a.tile.total)) for a in state.legal_actions()
                    if isinstance(a, Place)]
        priced = self.priced(state, seat)
        if not priced:
            return [(next(state.legal_actions()), 0.0)]
        ranked = sorted(((p[0], self.average_value(state, seat, p) + rng.random() * 1e-3)
                         for p in priced), key=lambda item: -item[1])
        return ranked[:limit]

    def rollout_move(self, state: AnyState, rng: random.Random) -> Any:
        assert isinstance(state, TileState)
        seat = state.current
        assert seat is not None
        if state.opening:
            return _best_opening(state)
        priced = self.priced(state, seat)
        if not priced:
            return next(state.legal_actions())
        noise = self.rollout_noise
        return max(priced, key=lambda p: p[1] + rng.random() * noise)[0]

    def stop_rollout(self, start: AnyState, state: AnyState, plies: int) -> bool:
        assert isinstance(state, TileState) and isinstance(start, TileState)
        return (state.round != start.round or plies >= self.rollout_plies
                or len(state.placed) - len(start.placed) >= HORIZON)

    def evaluate(self, state: AnyState, seat: int) -> float:
        assert isinstance(state, TileState)
        if state.is_terminal():
            return super().evaluate(state, seat)
        value = score_margin(state.scores, seat)
        if state.placed:
            totals = state.hand_totals()
            mine = totals[seat]
            worst_other = min(t for s, t in enumerate(totals) if s != seat)
            value += HAND_WEIGHT * (worst_other - mine)
            counts = [len(h) for h in state.hands]
            fewest_other = min(c for s, c in enumerate(counts) if s != seat)
            value += COUNT_WEIGHT * (fewest_other - counts[seat])
        return value


class TrinityKnowledge(TileKnowledge):
    """Trinity: the veteran plays every simulation to the end of the round, each player placing
    as the average player does (:meth:`TileKnowledge.average_move`, without noise), and judges
    the lead once the round is over (after the last round, the game's result: the lead and the
    win). A simulation is never cut short (:attr:`rollout_plies` is more than a round's
    :meth:`TileGame.round_length_bound`), so no position needs the cut-off judgement of
    :class:`TileKnowledge`.

    Trinity's decisions have few placements (about three) and its rounds are short, so whole
    rounds fit the budget; the average's judgement predicts an opponent's placements, and a
    world played out by it says who goes out first, which decides the round's bonus (25 points
    and the other hands' numbers). ``docs/ai.md`` has what this gained over the short
    simulations of :class:`TileKnowledge`, which Tri-ominoes keeps.

    >>> import random
    >>> from triverse import load_game
    >>> state = load_game("trinity", 2).new_initial_state(seed=4)
    >>> k = TrinityKnowledge()
    >>> end = state.clone()
    >>> plies = 0
    >>> while not k.stop_rollout(state, end, plies):
    ...     _ = end.apply_unchecked(k.rollout_move(end, random.Random(1)))
    ...     plies += 1
    >>> end.round, end.placed[:1] == end.placed  # the next round, only its first tile down
    (2, True)
    >>> k.playout(state, 0, random.Random(1)) == end.scores[0] - end.scores[1]
    True
    """

    rollout_plies: ClassVar[int] = 1000
    """More actions than any round takes, so a simulation is never cut short."""
    first_halving: ClassVar[int] = 64
    """A whole round's result varies far more from world to world than four placements' do:
    after 8 worlds the move a few worlds' luck puts last is too often the best one."""

    rollout_move = Knowledge.rollout_move  # the average's placement, for every player
    evaluate = Knowledge.evaluate  # the lead, and the win after the last round

    def stop_rollout(self, start: AnyState, state: AnyState, plies: int) -> bool:
        assert isinstance(state, TileState) and isinstance(start, TileState)
        return state.is_terminal() or state.round != start.round or plies >= self.rollout_plies


__all__ = ["TileKnowledge", "TrinityKnowledge"]
