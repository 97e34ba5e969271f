"""The arena's statistics: win rates with Wilson intervals, and Elo ratings from pairwise results.

A game between several entries counts, for every pair of entries, as a *pairwise result*: a win
for the better placed, half a win each on equal places. A draw is therefore always half a win.

>>> low, high = wilson_interval(65, 100)
>>> round(low, 3), round(high, 3)
(0.553, 0.736)
>>> ratings = elo_ratings(["a", "b"], {("a", "b"): (75.0, 25.0)})
>>> round(ratings["a"] - ratings["b"])   # 75.5 of 101 with the virtual draw
189
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054
"""The two-sided 95% point of the standard normal distribution."""

ELO_SCALE = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of the odds: a 400-point gap is 10:1 odds."""

ELO_MEAN = 1500.0
"""Ratings are shifted so that their mean is this."""

PRIOR_DRAWS = 1.0
"""Virtual drawn games added to every pair that met, so that a 100% score has a finite rating."""


def wilson_interval(wins: float, games: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``wins`` may hold halves for draws).

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> low, high = wilson_interval(10, 10)
    >>> round(low, 3), round(high, 3)
    (0.722, 1.0)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_from_rate(rate: float) -> float:
    """The Elo difference that gives an expected score of ``rate`` (``±inf`` at 0 and 1).

    >>> round(elo_from_rate(0.75))
    191
    >>> elo_from_rate(0.5)
    0.0
    """
    if rate <= 0.0:
        return -math.inf
    if rate >= 1.0:
        return math.inf
    return ELO_SCALE * math.log(rate / (1.0 - rate))


def expected_score(rating: float, other: float) -> float:
    """Elo's expected score of ``rating`` against ``other``.

    >>> expected_score(1500, 1500)
    0.5
    """
    return 1.0 / (1.0 + math.pow(10.0, (other - rating) / 400.0))


def elo_ratings(
    names: Sequence[str],
    pairwise: Mapping[tuple[str, str], tuple[float, float]],
    prior_draws: float = PRIOR_DRAWS,
    iterations: int = 10_000,
    tolerance: float = 1e-10,
) -> dict[str, float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry) from pairwise results.

    ``pairwise[(a, b)] = (wins of a, wins of b)`` over the games ``a`` and ``b`` met in, draws
    counted as half a win to each (a pair may be given either way round, or both). Each pair
    that met gets ``prior_draws`` virtual drawn games, so that no rating is infinite. The
    strengths ``g`` solve Hunter's (2004) minorization-maximization fixed point
    ``g_i = W_i / sum_j n_ij / (g_i + g_j)``; a rating is ``400 log10 g``, shifted so that the
    ratings average :data:`ELO_MEAN`. An entry that met nobody gets the mean.

    With two entries the difference is exactly :func:`elo_from_rate` of the (prior-adjusted) rate:

    >>> r = elo_ratings(["x", "y"], {("x", "y"): (29.5, 9.5)}, prior_draws=1.0)
    >>> round(r["x"] - r["y"], 6) == round(elo_from_rate(30 / 40), 6)
    True
    """
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    wins, games = _pair_tables(index, pairwise, prior_draws)
    active = [i for i in range(k) if any(games[i])]
    strength = _strengths(wins, games, active, iterations, tolerance)
    logs = [ELO_SCALE * math.log(strength[i]) if i in active else 0.0 for i in range(k)]
    mean = sum(logs[i] for i in active) / len(active) if active else 0.0
    return {name: (logs[i] - mean + ELO_MEAN if i in active else ELO_MEAN)
            for name, i in index.items()}


def _pair_tables(
    index: Mapping[str, int],
    pairwise: Mapping[tuple[str, str], tuple[float, float]],
    prior_draws: float,
) -> tuple[list[list[float]], list[list[float]]]:
    """The wins of each entry over each other and the games each pair played, with the
    ``prior_draws`` virtual draws of every pair that met."""
    k = len(index)
    wins = [[0.0] * k for _ in range(k)]
    for (a, b), (wa, wb) in pairwise.items():
        i, j = index[a], index[b]
        if i == j:
            continue
        wins[i][j] += wa
        wins[j][i] += wb
    games = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j] > 0:
                wins[i][j] += prior_draws / 2
                games[i][j] += prior_draws
    return wins, games


def _strengths(
    wins: Sequence[Sequence[float]],
    games: Sequence[Sequence[float]],
    active: Sequence[int],
    iterations: int,
    tolerance: float,
) -> list[float]:
    """The Bradley-Terry strengths of the ``active`` entries (geometric mean 1; 1 for the
    others) by Hunter's fixed-point iteration."""
    k = len(wins)
    total_wins = [sum(row) for row in wins]
    strength = [1.0] * k
    for _ in range(iterations):
        change = 0.0
        new = strength.copy()
        for i in active:
            denominator = sum(games[i][j] / (strength[i] + strength[j])
                              for j in range(k) if games[i][j] > 0)
            new[i] = total_wins[i] / denominator if denominator > 0 else strength[i]
        # Normalise (geometric mean 1) so that the iteration cannot drift.
        if active:
            log_mean = sum(math.log(new[i]) for i in active) / len(active)
            for i in active:
                new[i] = math.exp(math.log(new[i]) - log_mean)
        for i in active:
            change = max(change, abs(math.log(new[i]) - math.log(strength[i])))
        strength = new
        if change < tolerance:
            break
    return strength


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0 to 1) by linear interpolation between the sorted values.

    >>> percentile([1, 2, 3, 4], 0.5)
    2.5
    >>> percentile([5.0], 0.95)
    5.0
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def pairwise_from_ranks(
    entries: Sequence[str], ranks: Sequence[int]
) -> list[tuple[str, str, float, float]]:
    """The pairwise results of one game: entry names by seat and their places.

    >>> pairwise_from_ranks(["a", "b", "c"], [1, 1, 3])
    [('a', 'b', 0.5, 0.5), ('a', 'c', 1.0, 0.0), ('b', 'c', 1.0, 0.0)]
    """
    out = []
    for i in range(len(entries)):
        for j in range(i + 1, len(entries)):
            if ranks[i] < ranks[j]:
                out.append((entries[i], entries[j], 1.0, 0.0))
            elif ranks[i] > ranks[j]:
                out.append((entries[i], entries[j], 0.0, 1.0))
            else:
                out.append((entries[i], entries[j], 0.5, 0.5))
    return out
