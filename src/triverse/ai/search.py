"""The veteran's search for games with hidden information: determinized Monte Carlo.

The player sees only its observation. Each round of the search deals one *world*: a full state
built by :meth:`Game.determinize` from the observation (the hidden tiles or cards shuffled at
random), and a seed for the simulations. Every candidate move still in the race is tried in that
same world with that same seed: the move is applied, the game is played on by the game's
rollout policy (:meth:`Knowledge.rollout_move`) until :meth:`Knowledge.stop_rollout`, and the
result is judged by :meth:`Knowledge.evaluate` (points, from the seat's point of view). Trying
every move on the same worlds compares them on equal luck (common random numbers), which makes
the differences between moves far less noisy than their values.

The race is *successive halving* without a known budget: after rounds 8, 16, 32, ... the worse
half of the moves (by mean value) drops out, so the time goes to the moves that matter. A game
whose simulations vary widely starts halving later (:attr:`Knowledge.first_halving`): a move
that a few worlds' luck puts last is not dropped before enough worlds have told it apart. The
search stops when the time budget is spent (never in the middle of a round: a round cut short
is dropped, so the moves compared have always seen the same worlds) or after ``max_worlds``
rounds (deterministic, for tests and reviews). It also stops as soon as more worlds would not
change its mind (:func:`settled`): every other move still in the race is either clearly worse
than the leader or, with confidence, worth no more than :attr:`Knowledge.indifference` points
more; and it never searches more than :data:`ENOUGH_WORLDS` worlds. A clear decision is then
answered in a fraction of the budget.

A search the clock stops before its first such check (fewer than :data:`SETTLE_FROM` worlds: a
short budget, or a game whose simulations are slow) has not seen enough worlds to trust a
noisy leader: it plays the knowledge's first candidate (its own quick choice) unless the leader
beats it by :data:`TRUST_Z` standard errors of their difference, world by world
(:func:`trusted`). A short budget then plays no worse than the knowledge's quick choice.

>>> import random
>>> from triverse import load_game
>>> from triverse.ai.knowledge import knowledge_for
>>> game = load_game("trident", players=2)
>>> state = game.new_initial_state(seed=3)
>>> seat = state.current_player
>>> result = determinized_search(game, state.observation(seat), random.Random(1),
...                              knowledge_for(game), SearchLimits(10.0, max_worlds=2))
>>> state.is_legal(result.best), result.worlds
(True, 2)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from triverse.core.game import Game, Observation, State

if TYPE_CHECKING:
    from triverse.ai.knowledge import Knowledge

HALVING_ROUNDS = (8, 16, 32, 64, 128, 256, 512)
"""After these rounds the worse half of the moves still in the race drops out."""

SETTLE_EVERY = 8
"""From :data:`SETTLE_FROM` worlds on, every this many the search asks whether it is settled."""
SETTLE_FROM = 16
SETTLE_Z = 2.5
"""Standard errors of a difference that make it "with confidence" (about 99%, one-sided)."""
ENOUGH_WORLDS = 1024
"""No search (without an explicit ``max_worlds``) deals more worlds than this."""
TRUST_Z = 1.0
"""Standard errors by which the leader of a search stopped short (fewer than
:data:`SETTLE_FROM` worlds) must beat the knowledge's first candidate to be played instead."""

CLOCKS = ("wall", "cpu")


def clock_function(clock: str) -> Callable[[], float]:
    """``time.perf_counter`` for ``"wall"``, ``time.process_time`` for ``"cpu"``."""
    if clock == "wall":
        return time.perf_counter
    if clock == "cpu":
        return time.process_time
    raise ValueError(f"a clock is one of {', '.join(CLOCKS)}, not {clock!r}")


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """How long the veteran may think: ``time_budget`` seconds, and at most ``max_worlds``
    rounds (``None``: as many as the time allows). ``max_candidates`` overrides the game's
    number of moves searched."""

    time_budget: float
    max_worlds: int | None = None
    max_candidates: int | None = None
    clock: str = "wall"
    min_worlds: int = 1
    """Rounds the search completes whatever the clock says (a review needs a few worlds to
    tell a loss from noise, even on a busy machine)."""
    """``"wall"``: the budget is wall-clock seconds (what a player waits); ``"cpu"``: seconds of
    this process's CPU time, so that a search is as strong on a busy machine as on an idle one
    (the arena's strength measurements; ``docs/ai.md``)."""

    def timer(self) -> Callable[[], float]:
        """The clock the budget is counted on."""
        return clock_function(self.clock)

    @property
    def deterministic(self) -> bool:
        """Whether the result depends on the random generator alone (not on the clock)."""
        return self.max_worlds is not None and self.time_budget == float("inf")


@dataclass(slots=True)
class Estimate:
    """A move's running estimate: the sum and count of its simulations' values, and its prior
    (the knowledge's quick opinion, which breaks ties)."""

    action: Any
    prior: float
    total: float = 0.0
    count: int = 0
    values: list[float] = field(default_factory=list)
    """Each simulation's value, world by world (empty for a search without simulations, such
    as Triangles' alpha-beta, whose one value is exact)."""

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else float("-inf")


@dataclass(slots=True)
class SearchResult:
    """The move chosen and every move's estimate (best first)."""

    best: Any
    estimates: list[Estimate] = field(default_factory=list)
    worlds: int = 0
    seconds: float = 0.0

    def estimate_of(self, action: Any) -> Estimate | None:
        """The estimate of ``action`` (``None`` if it was not searched)."""
        for estimate in self.estimates:
            if estimate.action == action:
                return estimate
        return None

    def difference(self, better: Any, worse: Any) -> tuple[float, float] | None:
        """How much more ``better`` is worth than ``worse``, with the standard error of that
        difference: from the worlds both were tried in (the same worlds, so the luck of the
        deal cancels out), ``(mean, standard error)``. An exact search (no simulations) has a
        standard error of 0; ``None`` if either was not searched, or simulated in fewer than
        three common worlds (too few to tell a difference from noise).

        >>> result = SearchResult("a", [Estimate("a", 0, 30, 3, [12, 8, 10]),
        ...                              Estimate("b", 0, 24, 3, [9, 6, 9])])
        >>> mean, error = result.difference("a", "b")
        >>> round(mean, 2), round(error, 2)
        (2.0, 0.58)
        """
        a, b = self.estimate_of(better), self.estimate_of(worse)
        if a is None or b is None or not a.count or not b.count:
            return None
        if not a.values and not b.values:
            return a.mean - b.mean, 0.0
        if min(len(a.values), len(b.values)) < 3:
            return None
        return paired_difference(a.values, b.values)

    def value_of(self, action: Any) -> float | None:
        """The estimated value of ``action`` (``None`` if it was not searched)."""
        for estimate in self.estimates:
            if estimate.action == action:
                return estimate.mean if estimate.count else None
        return None


def paired_difference(better: Sequence[float], worse: Sequence[float]) -> tuple[float, float]:
    """The mean of ``better - worse`` world by world (over the worlds both have, at least two)
    and its standard error.

    >>> mean, error = paired_difference([12, 8, 10], [9, 6, 9])
    >>> mean, round(error, 3)
    (2.0, 0.577)
    """
    n = min(len(better), len(worse))
    diffs = [x - y for x, y in zip(better[:n], worse[:n], strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (variance / n) ** 0.5


def _key(estimate: Estimate) -> tuple[float, float]:
    return (estimate.mean, estimate.prior)


def settled(live: Sequence[Estimate], tolerance: float, z: float = SETTLE_Z) -> bool:
    """Whether the race between the moves ``live`` (tried on the same worlds) is decided: no
    move is worth ``tolerance`` points or more above the leader (by mean), even at ``z``
    standard errors of their difference, world by world. A move clearly worse passes, and so
    does one that is as good as the leader within the tolerance.

    >>> a = Estimate("a", 0, 30, 3, [12, 8, 10])
    >>> settled([a, Estimate("b", 0, 24, 3, [9, 6, 9])], tolerance=1.0)
    True
    >>> settled([a, Estimate("c", 0, 30, 3, [2, 18, 10])], tolerance=1.0)
    False
    """
    if len(live) < 2:
        return True
    best = max(live, key=_key)
    if min(len(e.values) for e in live) < 2:
        return False
    for other in live:
        if other is not best:
            mean, error = paired_difference(best.values, other.values)
            if mean - z * error <= -tolerance:
                return False
    return True


def trusted(leader: Estimate, first: Estimate, z: float = TRUST_Z) -> Estimate:
    """The move a search stopped short plays: its ``leader`` if that beats the knowledge's
    ``first`` candidate by ``z`` standard errors of their difference, world by world (and
    ``first`` itself from fewer than two common worlds).

    >>> first = Estimate("first", 5, 30, 3, [12, 8, 10])
    >>> trusted(Estimate("lucky", 0, 33, 3, [22, 1, 10]), first).action
    'first'
    >>> trusted(Estimate("better", 0, 36, 3, [14, 10, 12]), first).action
    'better'
    """
    if leader is first:
        return first
    if min(len(leader.values), len(first.values)) < 2:
        return first
    mean, error = paired_difference(leader.values, first.values)
    return leader if mean > z * error else first


def determinized_search(
    game: Game[Any, Any],
    observation: Observation,
    rng: random.Random,
    knowledge: Knowledge,
    limits: SearchLimits,
    include: Sequence[Any] = (),
    memory: dict[str, Any] | None = None,
) -> SearchResult:
    """Search the seat's move by determinized Monte Carlo (see the module's documentation).

    The worlds come from :meth:`Knowledge.sample_world` (with ``memory``, what the seat has
    seen earlier in the game)."""
    now = limits.timer()
    start = time.perf_counter()
    deadline = now() + limits.time_budget
    seat = observation.player
    if seat is None:
        raise ValueError("a spectator's observation has no move to search")
    search = _Search(game, observation, rng, knowledge, limits, memory, seat, now, deadline)
    root = search.sample_world()
    if root.current_player != seat:
        raise ValueError(f"seat {seat} is asked to move, but it is seat "
                         f"{root.current_player}'s turn")
    quick = _quick_answer(search, root, include)
    if quick is not None:
        return SearchResult(quick[0], quick[1], 0, time.perf_counter() - start)
    estimates = _candidate_estimates(search, root, include)
    first = estimates[0]
    if len(estimates) == 1:
        return SearchResult(estimates[0].action, estimates, 0, time.perf_counter() - start)
    live, worlds, timed_out = _race(search, root, estimates, set(include))
    pool = live if worlds else estimates
    best = max(pool, key=_key)
    if timed_out and worlds < SETTLE_FROM and first in pool:
        best = trusted(best, first)
    estimates.sort(key=lambda e: (e.count, *_key(e)), reverse=True)
    return SearchResult(best.action, estimates, worlds, time.perf_counter() - start)


@dataclass(slots=True)
class _Search:
    """What one :func:`determinized_search` works with."""

    game: Game[Any, Any]
    observation: Observation
    rng: random.Random
    knowledge: Knowledge
    limits: SearchLimits
    memory: dict[str, Any] | None
    seat: int
    now: Callable[[], float]
    deadline: float

    def sample_world(self) -> State[Any]:
        """A new world, from the knowledge."""
        return self.knowledge.sample_world(self.game, self.observation, self.rng, self.memory)

    def out_of_time(self) -> bool:
        """Whether the time budget is spent."""
        return self.now() >= self.deadline


def _quick_answer(search: _Search, root: State[Any], include: Sequence[Any]
                  ) -> tuple[Any, list[Estimate]] | None:
    """The move and estimates of a search with nothing to race: a single legal move, or a
    position the knowledge does not search (``None`` otherwise, or if ``include`` is given)."""
    legal = root.legal_action_list()
    if len(legal) == 1 and not include:
        return legal[0], [Estimate(legal[0], 0.0)]
    knowledge = search.knowledge
    if not include and not knowledge.search_here(root, search.seat):
        return knowledge.average_move(root, search.seat, search.rng), []
    return None


def _candidate_estimates(search: _Search, root: State[Any], include: Sequence[Any]
                         ) -> list[Estimate]:
    """The knowledge's candidates, best first, then the actions of ``include`` not among
    them, each with an empty estimate."""
    limit = search.limits.max_candidates or search.knowledge.max_candidates
    ranked = search.knowledge.candidates(root, search.seat, search.rng, limit)
    estimates = [Estimate(action, prior) for action, prior in ranked]
    known = {e.action for e in estimates}
    for action in include:
        if action not in known:
            estimates.append(Estimate(action, float("-inf")))
            known.add(action)
    return estimates


def _race(search: _Search, root: State[Any], estimates: list[Estimate], forced: set[Any]
          ) -> tuple[list[Estimate], int, bool]:
    """Play the moves on world after world (``root`` first), halving the field and stopping
    when settled or out of time: the moves still in the race, the worlds played and whether
    the time ran out."""
    limits = search.limits
    live = list(estimates)
    worlds = 0
    max_worlds = limits.max_worlds if limits.max_worlds is not None else ENOUGH_WORLDS
    tolerance = search.knowledge.indifference
    while worlds < max_worlds:
        if worlds >= limits.min_worlds and search.out_of_time():
            return live, worlds, True
        world = root if worlds == 0 else search.sample_world()
        seed = search.rng.getrandbits(64)
        may_cut = worlds >= limits.min_worlds and limits.max_worlds is None
        values = _playouts(search, world, live, seed, may_cut)
        if values is None:
            return live, worlds, True
        for estimate, value in zip(live, values, strict=True):
            estimate.total += value
            estimate.count += 1
            estimate.values.append(value)
        worlds += 1
        if worlds in HALVING_ROUNDS and worlds >= search.knowledge.first_halving \
                and len(live) > 2:
            live = _halved(live, forced)
        if (worlds >= max(SETTLE_FROM, limits.min_worlds) and worlds % SETTLE_EVERY == 0
                and settled(live, tolerance)):
            break
    return live, worlds, False


def _playouts(search: _Search, world: State[Any], live: Sequence[Estimate], seed: int,
              may_cut: bool) -> list[float] | None:
    """Each live move played on ``world`` and played out (every playout from ``seed``);
    ``None`` if the time runs out on the way (checked after each move if ``may_cut``)."""
    values: list[float] = []
    for estimate in live:
        child = world.clone()
        child.apply_unchecked(estimate.action)
        values.append(search.knowledge.playout(child, search.seat, random.Random(seed)))
        if may_cut and search.out_of_time():
            return None
    return values


def _halved(live: list[Estimate], forced: set[Any]) -> list[Estimate]:
    """The better half of the moves in the race (two at least), and the ``forced`` ones."""
    live.sort(key=_key, reverse=True)
    keep = max(2, (len(live) + 1) // 2)
    return live[:keep] + [e for e in live[keep:] if e.action in forced]


__all__ = [
    "CLOCKS",
    "ENOUGH_WORLDS",
    "HALVING_ROUNDS",
    "Estimate",
    "SearchLimits",
    "SearchResult",
    "clock_function",
    "determinized_search",
    "paired_difference",
    "settled",
    "trusted",
]
