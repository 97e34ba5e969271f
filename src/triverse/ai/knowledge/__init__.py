"""Game knowledge for the computer players: one :class:`Knowledge` per game.

A knowledge object answers, for a full :class:`~triverse.core.game.State` (a determinization
built from what the seat sees), the questions the three levels ask:

- :meth:`Knowledge.novice_move` and :meth:`Knowledge.average_move`: the move of that level;
- for the veteran's search: which moves are worth searching (:meth:`Knowledge.candidates`), how
  every player moves in a simulation (:meth:`Knowledge.rollout_move`), when a simulation stops
  (:meth:`Knowledge.stop_rollout`) and what the position is then worth to the seat
  (:meth:`Knowledge.evaluate`, in points of that game's score);
- :meth:`Knowledge.veteran_move`: the veteran itself (by default the determinized Monte Carlo
  search of :mod:`triverse.ai.search`; Triangles, a perfect-information game, has its own).

The base class is generic and correct for any game (greedy by immediate points, using
``clone`` and ``apply_unchecked``); each game's module overrides what it knows better. A game
whose plugin names no knowledge (or a name that is no game) gets the generic knowledge.

>>> knowledge_for("triominoes").name
'tiles'
>>> knowledge_for("some-new-game").name
'generic'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from triverse.core.errors import OptionError
from triverse.core.events import Event
from triverse.core.game import Game, Observation, State
from triverse.core.plugins import plugins, resolve

if TYPE_CHECKING:
    from triverse.ai.search import SearchLimits, SearchResult

AnyState = State[Any]
AnyGame = Game[Any, Any]
Memory = dict[str, Any]
"""What a player remembers of one game (its own earlier observations, digested)."""

_CACHE: dict[str, Knowledge] = {}


def knowledge_for(game: str | AnyGame) -> Knowledge:
    """The knowledge of a game (by name or game object), as its plugin names it
    (:attr:`GamePlugin.knowledge <triverse.core.plugins.GamePlugin.knowledge>`); the generic
    knowledge for a game whose plugin names none, or that has no plugin."""
    name = game if isinstance(game, str) else game.name
    found = _CACHE.get(name)
    if found is None:
        plugin = plugins().get(name)
        path = None if plugin is None else plugin.knowledge
        found = Knowledge() if path is None else _knowledge_at(path)
        _CACHE[name] = found
    return found


def _knowledge_at(path: str) -> Knowledge:
    cls = resolve(path)
    if not (isinstance(cls, type) and issubclass(cls, Knowledge)):
        raise OptionError(f"{path!r} is not a Knowledge subclass")
    return cls()


def own_points(state: AnyState, action: Any, seat: int) -> tuple[int, AnyState]:
    """The points ``seat`` gains right away by ``action`` (exactly, by applying it to a clone),
    and that clone."""
    child = state.clone()
    points = sum(e.points for e in child.apply_unchecked(action) if e.player == seat)
    return points, child


def score_margin(scores: Sequence[int], seat: int) -> float:
    """The seat's score minus the best other score (the lead, negative when behind).

    >>> score_margin([120, 90, 130], 0)
    -10.0
    """
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return float(scores[seat] - best_other)


class Knowledge:
    """Generic knowledge, correct for every game; subclasses override what they know better."""

    name: ClassVar[str] = "generic"
    special_reasons: ClassVar[frozenset[str]] = frozenset()
    """The ``reason`` of the score events that are special plays (counted by the arena)."""
    win_bonus: ClassVar[float] = 100.0
    """What winning is worth in :meth:`evaluate`'s units (points), beyond the margin."""
    max_candidates: ClassVar[int] = 12
    """How many moves the veteran's search considers at most."""
    rollout_plies: ClassVar[int] = 40
    """How many actions a simulation plays at most before :meth:`evaluate`."""
    default_budget: ClassVar[float] = 0.8
    """The veteran's seconds per move when its ``time_budget`` is 0."""
    first_halving: ClassVar[int] = 8
    """The search's first halving round (:data:`triverse.ai.search.HALVING_ROUNDS`): no move
    drops out of the race before this many worlds."""
    indifference: ClassVar[float] = 1.0
    """Points a move may be worth more than the search's choice without mattering: the search
    stops once every other move is, with confidence, clearly worse or within this much
    (:func:`triverse.ai.search.settled`)."""

    def special_play(self, event: Event) -> str | None:
        """The kind of special play an event records (``None``: not one): by default an event
        whose ``special`` (Trinity) or ``reason`` (Tri-ominoes) is in :attr:`special_reasons`."""
        data = event.data
        if event.player is None or not data:
            return None
        tag = data.get("special") or data.get("reason")
        return str(tag) if tag in self.special_reasons else None

    # --- the levels ------------------------------------------------------------------------
    def novice_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        """Novice: half the time the greedy move, otherwise a random move that does not score
        less than the worst-scoring move by much (never the absurd, if the game defines it)."""
        legal = state.legal_action_list()
        if len(legal) == 1:
            return legal[0]
        if rng.random() < 0.5:
            return self.greedy_move(state, seat, rng, legal)
        return rng.choice(legal)

    def average_move(self, state: AnyState, seat: int, rng: random.Random) -> Any:
        """Average: the best immediate points, ties at random."""
        return self.greedy_move(state, seat, rng)

    def veteran_move(
        self,
        game: AnyGame,
        observation: Observation,
        rng: random.Random,
        limits: SearchLimits,
        memory: Memory | None = None,
    ) -> Any:
        """Veteran: determinized Monte Carlo search with this knowledge."""
        return self.search(game, observation, rng, limits, (), memory).best

    def search(
        self,
        game: AnyGame,
        observation: Observation,
        rng: random.Random,
        limits: SearchLimits,
        include: Sequence[Any] = (),
        memory: Memory | None = None,
    ) -> SearchResult:
        """The veteran's search, with every move's estimate (for hints and reviews).

        ``include``: moves to evaluate whatever the candidate selection says (a played move,
        for a review). ``memory``: what this seat remembers of the game so far (see
        :meth:`remember`); ``None``: nothing."""
        from triverse.ai.search import determinized_search

        if memory is not None:
            self.remember(memory, observation)
        return determinized_search(game, observation, rng, self, limits, include, memory)

    # --- memory: what a seat has seen earlier in the game ------------------------------------
    @property
    def remembers(self) -> bool:
        """Whether :meth:`remember` keeps anything (this knowledge overrides it): a veteran of
        such a game plays better when fed the seat's observation at each of its turns (the
        server replays them for it)."""
        return type(self).remember is not Knowledge.remember

    def remember(self, memory: Memory, observation: Observation) -> None:
        """Update ``memory`` with an observation the seat sees now (its own earlier
        observations are all a player may remember). The generic knowledge keeps nothing."""

    def sample_world(
        self, game: AnyGame, observation: Observation, rng: random.Random,
        memory: Memory | None,
    ) -> AnyState:
        """A full state consistent with the observation (and with what ``memory`` says of the
        hidden parts): by default :meth:`Game.determinize`."""
        state: AnyState = game.determinize(observation, rng)
        return state

    # --- pieces ----------------------------------------------------------------------------
    def greedy_move(
        self,
        state: AnyState,
        seat: int,
        rng: random.Random,
        legal: Sequence[Any] | None = None,
    ) -> Any:
        """The move with the most immediate points, ties at random."""
        actions = list(state.legal_actions()) if legal is None else list(legal)
        if len(actions) == 1:
            return actions[0]
        best: list[Any] = []
        best_points = 0
        for action in actions:
            points, _ = own_points(state, action, seat)
            if not best or points > best_points:
                best, best_points = [action], points
            elif points == best_points:
                best.append(action)
        return rng.choice(best)

    def candidates(
        self, state: AnyState, seat: int, rng: random.Random, limit: int
    ) -> list[tuple[Any, float]]:
        """The moves worth searching, best first, with a prior value each (points): by default
        every legal move by its immediate points, the best ``limit``."""
        scored = []
        for action in state.legal_actions():
            points, _ = own_points(state, action, seat)
            scored.append((action, float(points) + rng.random() * 1e-3))
        scored.sort(key=lambda item: -item[1])
        return scored[:limit]

    def search_here(self, state: AnyState, seat: int) -> bool:
        """Whether the veteran searches this decision (else it plays :meth:`average_move`)."""
        return True

    def rollout_move(self, state: AnyState, rng: random.Random) -> Any:
        """How any player moves in a simulation (default: the average move)."""
        seat = state.current_player
        assert seat is not None
        return self.average_move(state, seat, rng)

    def stop_rollout(self, start: AnyState, state: AnyState, plies: int) -> bool:
        """Whether a simulation that began at ``start`` stops at ``state`` after ``plies``."""
        return plies >= self.rollout_plies

    def playout(self, state: AnyState, seat: int, rng: random.Random) -> float:
        """Play a simulation from ``state`` (the move to judge already applied) and judge it."""
        start = state
        state = state.clone()
        plies = 0
        while not state.is_terminal() and not self.stop_rollout(start, state, plies):
            state.apply_unchecked(self.rollout_move(state, rng))
            plies += 1
        return self.evaluate(state, seat)

    def evaluate(self, state: AnyState, seat: int) -> float:
        """What ``state`` is worth to ``seat``, in points: its lead over the best other score,
        plus :attr:`win_bonus` for a won game (a share of it for a shared win)."""
        value = score_margin(state.scores, seat)
        if state.is_terminal():
            winners = state.result().winners
            if seat in winners:
                value += self.win_bonus / len(winners)
        return value


__all__ = ["Knowledge", "Memory", "knowledge_for", "own_points", "score_margin"]
